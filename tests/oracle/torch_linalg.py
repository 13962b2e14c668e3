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

# svd, eigh, lstsq, pinv, matrix_rank, matrix_power. Singular vectors and eigenvectors are unique
# only up to sign, and LAPACK builds may choose differently: printed through sign-free products.
torch.manual_seed(2)
M = torch.randn(5, 3)
U, S, Vh = torch.linalg.svd(M, full_matrices=False)
print("svd", S, torch.allclose((U * S) @ Vh, M, atol=1e-5), torch.allclose(U.T @ U, torch.eye(3), atol=1e-5))
Uf, Sf, Vhf = torch.linalg.svd(M.T)
print("svd full", Uf.shape, Sf, Vhf.shape, (Vhf @ Vhf.T).diagonal())
print("svdvals", torch.linalg.svdvals(torch.randn(2, 3, 4)))
sym = M.T @ M
L, Q = torch.linalg.eigh(sym)
print("eigh", L, torch.allclose((Q * L) @ Q.T, sym, atol=1e-5), torch.linalg.eigvalsh(sym),
      torch.linalg.eigvalsh(torch.tril(sym), UPLO="L"))
print("lstsq", torch.linalg.lstsq(M, torch.randn(5, 2)).solution, torch.linalg.lstsq(M, torch.ones(5)).solution)
print("lstsq rank", torch.linalg.lstsq(torch.ones(4, 2), torch.ones(4, 1)).rank)
print("pinv", torch.linalg.pinv(M), torch.allclose(torch.linalg.pinv(M) @ M, torch.eye(3), atol=1e-5))
print("matrix_rank", torch.linalg.matrix_rank(M), torch.linalg.matrix_rank(torch.ones(3, 3)),
      torch.linalg.matrix_rank(torch.zeros(2, 3)))
P = torch.tensor([[1.0, 1.0], [0.0, 2.0]])
print("matrix_power", torch.linalg.matrix_power(P, 5), P.matrix_power(0), torch.matrix_power(P, -2))
Xs = (torch.randn(3, 3) + 3 * torch.eye(3)).requires_grad_()
vals, vecs = torch.linalg.eigh(Xs @ Xs.T)
(vals * torch.tensor([1.0, 2.0, 3.0])).sum().backward()
print("grad eigvals", Xs.grad)
Xs.grad = None
torch.linalg.matrix_power(Xs, 3).sum().backward()
print("grad matrix_power", Xs.grad)
