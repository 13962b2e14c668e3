# torch.nn.utils.rnn: padding a batch of variable-length sequences. Packed
# sequences (pack_padded_sequence) are not supported: Kiln's recurrent layers
# take padded tensors.
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


def pack_padded_sequence(input, lengths, batch_first=False, enforce_sorted=True):
    raise NotImplementedError('kiln: packed sequences are not supported; pass the padded tensor to the '
                              'recurrent layer (and mask or gather the outputs you need)')


pack_sequence = pack_padded_sequence
pad_packed_sequence = pack_padded_sequence
