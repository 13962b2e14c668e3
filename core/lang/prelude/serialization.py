# torch.save / torch.load (torch.serialization): PyTorch's zip checkpoint format,
# written and read by core/lang/torch_serialize.cpp, so a checkpoint saved by a
# script under Kiln loads under PyTorch and back. Files are named by path or
# are file objects (io.BytesIO, open(path, 'wb') / 'rb'): anything with
# write() for save and read() for load, as in PyTorch.
import torch


def save(obj, f, pickle_module=None, pickle_protocol=2, _use_new_zipfile_serialization=True,
         _disable_byteorder_record=False):
    if not _use_new_zipfile_serialization:
        raise NotImplementedError('kiln: torch.save writes the zip format only (_use_new_zipfile_serialization=True)')
    if not isinstance(f, str) and hasattr(f, 'write'):
        f.write(torch._C._save_bytes(obj))
        return
    torch._C._save(obj, f)


def load(f, map_location=None, pickle_module=None, weights_only=None, mmap=None, **pickle_load_args):
    if isinstance(f, str) and not torch._C._file_exists(f):
        raise FileNotFoundError("[Errno 2] No such file or directory: '" + f + "'")
    # A device (or its name) moves every tensor there; a function or dict, as PyTorch's idiom
    # lambda storage, loc: storage is used, keeps them on the CPU.
    if map_location is None:
        target = ''
    elif isinstance(map_location, (str, torch.device)):
        target = str(torch.device(map_location))
    else:
        target = 'cpu'
    if not isinstance(f, str) and hasattr(f, 'read'):
        return torch._C._load_bytes(f.read(), target)
    return torch._C._load(f, target)


torch.save = save
torch.load = load
