# Shape ops: view/reshape/transpose/permute/unsqueeze/squeeze/flatten/expand/contiguous, strides.
import torch
x = torch.arange(24.0).reshape(2, 3, 4)
print(x.shape, x.stride(), x.is_contiguous(), x.dim(), x.ndim, x.numel())
v = x.view(6, 4)
print(v.shape, v.stride(), x.view(-1).shape, x.view(2, -1).shape, x.reshape(4, 6)[1].tolist())
t = x.transpose(0, 2)
print(t.shape, t.stride(), t.is_contiguous(), t.contiguous().is_contiguous(), t.contiguous().stride())
print(x.permute(2, 0, 1).shape, x.permute(2, 0, 1).stride(), x.permute([1, 0, 2])[0, 1].tolist())
m = torch.arange(6).reshape(2, 3)
print(m.t().tolist(), m.T.tolist(), m.t().shape, torch.t(m).stride(), m.T.shape)
print(m.     return n + 1
    if n == 0:
        return ack(m - 1, 1)
    return ack(m - 1, ack(m, n - 1))
print(ack(2, 3))
def hanoi(n, a, b, c, moves):
    if n:
        hanoi(n - 1, a, c, b, moves)
        moves.append((a, c))
        hanoi(n - 1, b, a, c, moves)
    return moves
print(len(hanoi(8, 'a', 'b', 'c', [])))
