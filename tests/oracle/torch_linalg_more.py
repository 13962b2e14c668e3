# torch.linalg beyond the LAPACK core: vecdot, multi_dot, diagonal, solve_triangular, cond and
# matrix_exp, with their gradients and PyTorch's errors.
import torch

torch.manual_seed(0)
torch.set_printoptions(precision=4)

x = torch.randn(3, 4)
y = torch.randn(3, 4)
print(torch.linalg.vecdot(x, y), torch.linalg.vecdot(x, y, dim=0), torch.linalg.vecdot(x[0], y))
print(torch.vdot(x[0], y[0]), torch.inner(x[0], y[0]))

a, b, c, d = torch.randn(2, 5), torch.randn(5, 3), torch.randn(3, 6), torch.randn(6, 2)
print(torch.linalg.multi_dot([a, b]))
print(torch.linalg.multi_dot([a, b, c, d]))
print(torch.linalg.multi_dot([torch.randn(5), b, c]), torch.linalg.multi_dot([a, b, torch.randn(3)]))
print(torch.linalg.multi_dot([torch.randn(5), torch.randn(5, 2), torch.randn(2)]))

m = torch.arange(24.0).reshape(2, 3, 4)
print(torch.linalg.diagonal(m), torch.linalg.diagonal(m, offset=1), torch.linalg.diagonal(m, dim1=0, dim2=2))

A = torch.randn(4, 4) + 4 * torch.eye(4)
B = torch.randn(4, 2)
U = torch.linalg.solve_triangular(A, B, upper=True)
print(U, torch.allclose(torch.triu(A) @ U, B, atol=1e-5))
L = torch.linalg.solve_triangular(A, B, upper=False, unitriangular=True)
print(L, torch.allclose(torch.tril(A, -1) @ L + L, B, atol=1e-5))
R = torch.linalg.solve_triangular(A, B.t(), upper=True, left=False)
print(R, torch.allclose(R @ torch.triu(A), B.t(), atol=1e-5))
Ab = torch.randn(2, 3, 3) + 3 * torch.eye(3)
print(torch.linalg.solve_triangular(Ab, torch.randn(2, 3, 1), upper=False).shape)

print(torch.linalg.cond(A), torch.linalg.cond(A, "fro"), torch.linalg.cond(A, 1), torch.linalg.cond(A, float("inf")))
print(torch.linalg.cond(A, -2), torch.linalg.cond(Ab), torch.linalg.cond(torch.randn(3, 5)))

S = torch.tensor([[0.0, 1.0], [-1.0, 0.0]])
print(torch.linalg.matrix_exp(S), torch.matrix_exp(torch.zeros(2, 2)))
print(torch.linalg.matrix_exp(torch.randn(3, 3) * 0.5))
print(torch.linalg.matrix_exp(torch.randn(2, 3, 3) * 2.0))
print(torch.linalg.matrix_exp(torch.diag(torch.tensor([1.0, 2.0, -1.0]))))
e64 = torch.matrix_exp(torch.randn(4, 4, dtype=torch.float64) * 3)
print(e64.dtype, e64.float())

# Gradients.
p = torch.randn(3, 4, requires_grad=True)
q = torch.randn(3, 4, requires_grad=True)
torch.linalg.vecdot(p, q).sum().backward()
print(torch.allclose(p.grad, q), torch.allclose(q.grad, p))
ma = torch.randn(2, 3, requires_grad=True)
mb = torch.randn(3, 4, requires_grad=True)
mc = torch.randn(4, 2, requires_grad=True)
torch.linalg.multi_dot([ma, mb, mc]).sum().backward()
print(ma.grad, mc.grad)
At = (torch.randn(3, 3) + 3 * torch.eye(3)).requires_grad_()
Bt = torch.randn(3, 2, requires_grad=True)
torch.linalg.solve_triangular(At, Bt, upper=True).sum().backward()
print(At.grad, Bt.grad)
E = (torch.randn(3, 3) * 0.5).requires_grad_()
torch.linalg.matrix_exp(E).sum().backward()
print(E.grad)

for name, fn in [
    ("multi_dot one tensor", lambda: torch.linalg.multi_dot([a])),
    ("multi_dot 3-D", lambda: torch.linalg.multi_dot([a, torch.randn(2, 5, 3)])),
    ("multi_dot mismatch", lambda: torch.linalg.multi_dot([a, c])),
    ("solve_triangular 1-D B", lambda: torch.linalg.solve_triangular(A, torch.randn(4), upper=True)),
    ("matrix_exp non-square", lambda: torch.linalg.matrix_exp(torch.randn(2, 3))),
    ("cond non-square fro", lambda: torch.linalg.cond(torch.randn(3, 5), "fro")),
]:
    try:
        print(name, "->", fn())
    except Exception as e:
        print(name, "->", type(e).__name__, str(e).split("\n")[0])
