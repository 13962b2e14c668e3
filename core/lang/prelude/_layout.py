# torch.layout: Kiln's tensors are dense and strided, so torch.strided is the
# layout Tensor.layout answers; the sparse ones exist to be compared against.
import torch


class layout:
    def __init__(self, name):
        self._name = name

    def __repr__(self):
        return 'torch.' + self._name


torch.layout = layout
torch.strided = layout('strided')
torch.sparse_coo = layout('sparse_coo')
torch.sparse_csr = layout('sparse_csr')
