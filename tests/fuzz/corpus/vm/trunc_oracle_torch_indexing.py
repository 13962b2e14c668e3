# Tensor indexing: ints, slices, None, Ellipsis, negative indices, index tensors, boolean masks,
# and the index ops (index_select, gather, scatter_add, index_add, index_copy, nonzero).
import torch
x = torch.arange(24.0).reshape(2, 3, 4)
print(x[1].shape, x[1, 2].tolist(), x[1, 2, 3].item(), x[-1, -1, -1].i