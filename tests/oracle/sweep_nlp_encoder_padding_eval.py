# TransformerEncoder in eval mode without grad and with a key padding mask:
# PyTorch runs the batch as a nested tensor, so padded positions come out as
# zeros (then through the final norm); other positions are as in training
# mode. Conditions that turn this off: training, grad, norm_first, a src
# mask, batch_first=False, a mask that is not left-aligned.
import torch
import torch.nn as nn


def r(t):
    return [round(v, 4) for v in t.flatten().tolist()]


torch.manual_seed(0)
layer = nn.TransformerEncoderLayer(8, 2, 16, dropout=0.1, batch_first=True)
enc = nn.TransformerEncoder(layer, 2)
print(enc.use_nested_tensor, enc.enable_nested_tensor, enc.mask_check)
x = torch.randn(2, 4, 8)
pad = torch.tensor([[False, False, True, True], [False, False, False, False]])
enc.eval()
with torch.no_grad():
    y = enc(x, src_key_padding_mask=pad)
    print(r(y[0, 3]), r(y[0, 0]))
    fpad = torch.zeros(2, 4).masked_fill(pad, float('-inf'))
    print(r(enc(x, src_key_padding_mask=fpad)[0, 2]))
    print(r(enc(x, src_key_padding_mask=torch.tensor([[True, False, False, False]] * 2))[0, 0]))
    print(r(enc(x, mask=torch.zeros(4, 4), src_key_padding_mask=pad)[0, 3]))
    print(r(layer(x, src_key_padding_mask=pad)[0, 3]))
print(r(enc(x, src_key_padding_mask=pad)[0, 3]))
enc.train()
with torch.no_grad():
    print(r(enc(x, src_key_padding_mask=pad)[0, 3]) != [0.0] * 8)

normed = nn.TransformerEncoder(nn.TransformerEncoderLayer(8, 2, 16, 0.0, batch_first=True), 1, norm=nn.LayerNorm(8))
with torch.no_grad():
    nn.init.constant_(normed.norm.bias, 0.5)
normed.eval()
with torch.no_grad():
    print(r(normed(x, src_key_padding_mask=pad)[0, 2]))
seq_first = nn.TransformerEncoder(nn.TransformerEncoderLayer(8, 2, 16, 0.0), 1, enable_nested_tensor=False)
print(seq_first.use_nested_tensor)
pre_norm = nn.TransformerEncoder(nn.TransformerEncoderLayer(8, 2, 16, 0.0, batch_first=True, norm_first=True), 1)
print(pre_norm.use_nested_tensor)
pre_norm.eval()
with torch.no_grad():
    print(r(pre_norm(x, src_key_padding_mask=pad)[0, 3])[:3])

model = nn.Transformer(8, 2, 1, 1, 16, dropout=0.0, batch_first=True)
model.eval()
with torch.no_grad():
    out = model(x, torch.randn(2, 3, 8), src_key_padding_mask=pad, memory_key_padding_mask=pad)
print(r(out[0, 1]))
