# torch.nn.utils.rnn: padding and packing a batch of variable-length
# sequences; the recurrent layers (nn/rnn.py) run packed sequences step by
# step over the rows still running.
from collections import namedtuple

import torch


def pad_sequence(sequences, batch_first=False, padding_value=0.0, padding_side='right'):
    if padding_side not in ('right', 'left'):
        raise ValueError(f"Expected padding_side to be one of left or right, but got {padding_side}.")
    sequences = list(sequences)
    if len(sequences) == 0:
        raise RuntimeError('received an empty list of sequences')
    longest = max(s.size(0) for s in sequences)
    trailing = list(sequences[0].shape[1:])
    out = torch.full([len(sequences), longest] + trailing, padding_value, dtype=sequences[0].dtype,
                     device=sequences[0].device)
    for i, s in enumerate(sequences):
        n = s.size(0)
        if padding_side == 'right':
            out[i, :n] = s
        else:
            out[i, longest - n:] = s
    return out if batch_first else out.transpose(0, 1)


def unpad_sequence(padded_sequences, lengths, batch_first=False):
    if not batch_first:
        padded_sequences = padded_sequences.transpose(0, 1)
    return [padded_sequences[i, :int(n)] for i, n in enumerate(lengths)]


# A batch of sequences packed time step by time step: data holds, for each
# step t, the rows of the batch_sizes[t] sequences still running (sorted by
# decreasing length); sorted_indices maps that order back to the caller's.
_PackedSequenceBase = namedtuple('PackedSequence', ['data', 'batch_sizes', 'sorted_indices', 'unsorted_indices'],
                                 defaults=(None, None, None))


class PackedSequence(_PackedSequenceBase):
    # Moves or casts data; the index tensors follow data's device, batch_sizes stays on the CPU.
    def to(self, *args, **kwargs):
        data = self.data.to(*args, **kwargs)
        if data is self.data:
            return self
        def follow(idx):
            return None if idx is None else idx.to(data.device)
        return type(self)(data, self.batch_sizes, follow(self.sorted_indices), follow(self.unsorted_indices))

    def cpu(self, *args, **kwargs):
        return self.to(device='cpu')

    def cuda(self, *args, **kwargs):
        return self.to(device='cuda')

    def double(self):
        return self.to(dtype=torch.double)

    def float(self):
        return self.to(dtype=torch.float)

    def half(self):
        return self.to(dtype=torch.half)

    def long(self):
        return self.to(dtype=torch.long)

    def int(self):
        return self.to(dtype=torch.int)

    def short(self):
        return self.to(dtype=torch.short)

    def char(self):
        return self.to(dtype=torch.int8)

    def byte(self):
        return self.to(dtype=torch.uint8)

    @property
    def is_cuda(self):
        return self.data.is_cuda

    def is_pinned(self):
        return self.data.is_pinned()


def _invert_permutation(permutation):
    if permutation is None:
        return None
    output = torch.empty_like(permutation)
    output.scatter_(0, permutation, torch.arange(0, permutation.numel(), device=permutation.device))
    return output


def pack_padded_sequence(input, lengths, batch_first=False, enforce_sorted=True):
    if not isinstance(lengths, torch.Tensor):
        lengths = torch.as_tensor(lengths, dtype=torch.int64)
    lengths = lengths.to(torch.int64)
    if enforce_sorted:
        if lengths.numel() > 1 and bool((lengths[:-1] < lengths[1:]).any()):
            raise RuntimeError('`lengths` array must be sorted in decreasing order when `enforce_sorted` is True. '
                               'You can pass `enforce_sorted=False` to pack_padded_sequence and/or pack_sequence '
                               'to sidestep this requirement if you do not need ONNX exportability.')
        sorted_indices = None
    else:
        lengths, sorted_indices = torch.sort(lengths, descending=True)
        input = input.index_select(0 if batch_first else 1, sorted_indices.to(input.device))
    if batch_first:
        input = input.transpose(0, 1)
    if lengths.numel() == 0 or int(lengths[-1]) <= 0:
        raise RuntimeError("Length of all samples has to be greater than 0, but found an element in 'lengths' "
                           "that is <= 0")
    steps = int(lengths[0])
    if steps > input.size(0):
        raise RuntimeError(f"Expected sequence length to be larger than or equal to {steps}, "
                           f"but got {input.size(0)}")
    sizes = [int((lengths > t).sum()) for t in range(steps)]
    data = torch.cat([input[t, :sizes[t]] for t in range(steps)], 0)
    return PackedSequence(data, torch.tensor(sizes, dtype=torch.int64), sorted_indices,
                          _invert_permutation(sorted_indices))


def pad_packed_sequence(sequence, batch_first=False, padding_value=0.0, total_length=None):
    data, batch_sizes, sorted_indices, unsorted_indices = sequence
    sizes = batch_sizes.tolist()
    steps = len(sizes)
    if total_length is not None:
        if total_length < steps:
            raise ValueError('Expected total_length to be at least the length of the longest sequence in input, '
                             f'but got total_length={total_length} and max sequence length being {steps}')
        steps = total_length
    batch = sizes[0]
    out = torch.full([steps, batch] + list(data.shape[1:]), padding_value, dtype=data.dtype, device=data.device)
    offset = 0
    for t, n in enumerate(sizes):
        out[t, :n] = data[offset:offset + n]
        offset += n
    lengths = torch.tensor([sum(1 for n in sizes if n > b) for b in range(batch)], dtype=torch.int64)
    if unsorted_indices is not None:
        out = out.index_select(1, unsorted_indices)
        lengths = lengths[unsorted_indices.cpu()]
    if batch_first:
        out = out.transpose(0, 1)
    return out, lengths


def pack_sequence(sequences, enforce_sorted=True):
    lengths = torch.as_tensor([v.size(0) for v in sequences])
    return pack_padded_sequence(pad_sequence(sequences), lengths, enforce_sorted=enforce_sorted)


def unpack_sequence(packed_sequences):
    padded, lengths = pad_packed_sequence(packed_sequences, batch_first=True)
    return unpad_sequence(padded, lengths, batch_first=True)
