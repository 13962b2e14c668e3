# torch.linalg through LAPACK: inv, det, slogdet, logdet, solve, qr, cholesky (values, batches,
# gradients, errors) and nn.init.orthogonal_, which draws a normal matrix and orthogonalises it.
import torch
import torch.nn as nn

torch.manual_seed(0)
A = torch.randn(4, 4) + 4 * torch.eye(4)
B = torch.randn(4, 2)
print("inv", torch.linalg.inv(A), A.inverse())
print("det", torch.linalg.det(A), A.det(), torch.det(A.double()))
print("slogdet", torch.linalg.slogdet(-A), torch.slogdet(A))
print("logdet", torch.logdet(A), torch.logdet(-A))
print("solve", torch.linalg.solve(A, B), torch.linalg.solve(A, B[:, 0]))
Ab = torch.randn(2, 3, 3) + 3 * torch.eye(3)
print("batched", torch.linalg.det(Ab), torch.linalg.inv(Ab), torch.linalg.solve(Ab, torch.randn(3, 1)))
q, r = torch.linalg.qr(torch.randn(5, 3))
print("qr", q, r, (q.T @ q).diagonal())
print("qr wide", torch.linalg.qr(torch.randn(2, 4)))
print("qr complete", torch.linalg.qr(torch.randn(4, 2), mode="complete"))
S = A @ A.T + torch.eye(4)
print("cholesky", torch.linalg.cholesky(S), torch.linalg.cholesky(S, upper=True))

X = (torch.randn(3, 3) + 3 * torch.eye(3)).requires_grad_()
tests = [("inv", torch.linalg.inv), ("det", torch.linalg.det), ("logabsdet", lambda x: torch.linalg.slogdet(x)[1]),
         ("solve", lambda x: torch.linalg.solve(x, torch.ones(3))),
         ("cholesky", lambda x: torch.linalg.cholesky(x @ x.T + torch.eye(3)))]
for name, f in tests:
    y = f(X)
    y.sum().backward()
    print("grad", name, X.grad)
    X.grad = None
b = torch.randn(3, requires_grad=True)
torch.linalg.solve(X, b).pow(2).sum().backward()
print("grad solve rhs", b.grad)

for bad in [lambda: torch.linalg.inv(torch.tensor([[1.0, 2.0], [2.0, 4.0]])),
            lambda: torch.linalg.inv(torch.ones(2, 3)),
            lambda: torch.linalg.cholesky(torch.tensor([[1.0, 2.0], [2.0, 1.0]])),
            lambda: torch.linalg.solve(torch.zeros(2, 2), torch.ones(2))]:
    try:
        bad()
    except RuntimeError as e:
        print("error:", str(e).split(":")[0])

torch.manual_seed(1)
w = torch.empty(3, 5)
nn.init.orthogonal_(w)
print("orthogonal", w, (w @ w.T).diagonal())
rnn = nn.GRU(3, 4)
nn.init.orthogonal_(rnn.weight_hh_l0, gain=2.0)
print("orthogonal rnn", rnn.weight_hh_l0.detach())
print("eye_", nn.init.eye_(torch.empty(2, 3)))
