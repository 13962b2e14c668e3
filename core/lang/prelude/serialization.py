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
    if hasattr(type(f), '__fspath__'):  # a pathlib.Path
        f = f.__fspath__()
    if not isinstance(f, str):  # a file object; anything else fails on its missing write, as in PyTorch
        f.write(torch._C._save_bytes(obj))
        return
    torch._C._save(obj, f)


class UnpicklingError(Exception):
    pass


UnpicklingError.__module__ = '_pickle'
_safe_globals = []


def _global_name(obj):
    return obj.__module__ + '.' + obj.__qualname__


def add_safe_globals(safe_globals):
    _safe_globals.extend(safe_globals)


def get_safe_globals():
    return list(_safe_globals)


def clear_safe_globals():
    del _safe_globals[:]


class safe_globals:
    def __init__(self, safe_globals):
        self.safe_globals = safe_globals

    def __enter__(self):
        self.count = len(_safe_globals)
        _safe_globals.extend(self.safe_globals)

    def __exit__(self, *exc):
        del _safe_globals[self.count:]
        return False


def load(f, map_location=None, pickle_module=None, weights_only=None, mmap=None, **pickle_load_args):
    if hasattr(type(f), '__fspath__'):  # a pathlib.Path
        f = f.__fspath__()
    if isinstance(f, str) and not torch._C._file_exists(f):
        raise FileNotFoundError(2, 'No such file or directory', f)
    # A device (or its name) moves every tensor there; a function or dict, as PyTorch's idiom
    # lambda storage, loc: storage is used, keeps them on the CPU.
    if map_location is None:
        target = ''
    elif isinstance(map_location, (str, torch.device)):
        target = str(torch.device(map_location))
    else:
        target = 'cpu'
    # weights_only defaults to True since PyTorch 2.6: a script's classes and
    # functions load only with weights_only=False or once allowlisted.
    allowed = None if weights_only is False else [_global_name(g) for g in _safe_globals]
    try:
        if not isinstance(f, str) and hasattr(f, 'read'):
            return torch._C._load_bytes(f.read(), target, allowed)
        return torch._C._load(f, target, allowed)
    except ValueError as e:
        if allowed is not None and str(e).startswith('Weights only load failed'):
            raise UnpicklingError(str(e)) from None
        raise


torch.save = save
torch.load = load
