# torch.layout: Kiln's tensors are dense and strided, so torch.strided is the
# layout Tensor.layout answers; the sparse ones exist to be compared against.
import torch


class _TorchConstant:
    # A named torch.* constant that prints as its name.
    def __init__(self, name):
        self._name = name

    def __repr__(self):
        return 'torch.' + self._name


class layout(_TorchConstant):
    pass


torch.layout = layout
torch.strided = layout('strided')
torch.sparse_coo = layout('sparse_coo')
torch.sparse_csr = layout('sparse_csr')


# torch.memory_format: how a 4-D (5-D) tensor's elements are laid out. Values
# never depend on it; channels_last gives the strides of an NHWC (NDHWC)
# buffer, which .stride() and .is_contiguous(memory_format=) show
# (core/lang/torch_bridge.cpp applies it where an op or method takes it).
class memory_format(_TorchConstant):
    pass


torch.memory_format = memory_format
torch.contiguous_format = memory_format('contiguous_format')
torch.preserve_format = memory_format('preserve_format')
torch.channels_last = memory_format('channels_last')
torch.channels_last_3d = memory_format('channels_last_3d')
