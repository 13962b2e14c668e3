# PyTorch's errors for common misuse: a key padding mask of the wrong size,
# EmbeddingBag offsets, RNN initial states of the wrong rank, and optimizer
# parameter groups (non-tensors, non-leaves, a parameter in two groups).
import torch
import torch.nn as nn

torch.manual_seed(0)


def attempt(name, fn):
    try:
        fn()
        print(name, "ok")
    except Exception as e:
        print(name, type(e).__name__, str(e))


mha = nn.MultiheadAttention(8, 2, batch_first=True)
x = torch.randn(2, 3, 8)
attempt("kpm_len", lambda: mha(x, x, x, key_padding_mask=torch.zeros(2, 4, dtype=torch.bool)))
attempt("kpm_batch", lambda: mha(x, x, x, key_padding_mask=torch.zeros(3, 3, dtype=torch.bool)))

bag = nn.EmbeddingBag(5, 2)
attempt("bag_first", lambda: bag(torch.tensor([1, 2]), torch.tensor([1])))
attempt("bag_last", lambda: bag(torch.tensor([1, 2]), torch.tensor([0, 5])))
attempt("bag_2d", lambda: bag(torch.tensor([[1, 2]]), torch.tensor([0])))

lstm, gru = nn.LSTM(4, 5), nn.GRU(4, 5)
seq = torch.randn(3, 2, 4)
attempt("lstm_2d_state", lambda: lstm(seq, (torch.randn(2, 5), torch.randn(2, 5))))
attempt("lstm_unbatched", lambda: lstm(seq[0], (torch.randn(1, 2, 5), torch.randn(1, 2, 5))))
attempt("gru_2d_state", lambda: gru(seq, torch.randn(2, 5)))
attempt("gru_unbatched", lambda: gru(seq[0], torch.randn(1, 2, 5)))
attempt("gru_ok", lambda: gru(seq[0], torch.randn(1, 5)))

p = nn.Parameter(torch.ones(2))
attempt("opt_int", lambda: torch.optim.SGD([p, 3], lr=0.1))
attempt("opt_nonleaf", lambda: torch.optim.Adam([p * 2], lr=0.1))
attempt("opt_twice", lambda: torch.optim.SGD([{"params": p}, {"params": [p]}], lr=0.1))
attempt("opt_set_group", lambda: torch.optim.SGD([{"params": {p}}], lr=0.1))
opt = torch.optim.SGD([p], lr=0.1)
attempt("add_group_twice", lambda: opt.add_param_group({"params": [p]}))
q = nn.Parameter(torch.zeros(1))
opt.add_param_group({"params": q, "lr": 0.5})
print(len(opt.param_groups), opt.param_groups[1]["lr"], opt.param_groups[1]["momentum"])
