# torch.linalg's LU family (lu_factor, lu_factor_ex, lu, lu_unpack, lu_solve), the matrix norms
# from singular values ('nuc', 2, -2), and the derivatives of svd, svdvals, qr, eigh and lstsq.
# Gradients are printed only where they do not depend on the signs LAPACK picks for singular
# vectors or eigenvectors (losses through U S Vh, |U|, Q R, or sign-fixed columns).
import torch

torch.manual_seed(0)


def r(t, n=4):
    return [round(v, n) for v in t.detach().flatten().tolist()]


def name(t):
    return type(t.grad_fn).__name__


def grad_of(A, loss):
    A.grad = None
    loss.backward()
    return r(A.grad)


# ---- LU factorisation ------------------------------------------------------------------------
A = torch.randn(3, 3, dtype=torch.float64)
LU, piv = torch.linalg.lu_factor(A)
print(r(LU), piv.tolist(), piv.dtype)
W = torch.tensor([[1.0, 2, 3, 4], [5, 6, 7, 9], [1, 0, 2, 1]])
for M in (W, W.T):
    LU2, piv2 = torch.linalg.lu_factor(M)
    P, L, U = torch.lu_unpack(LU2, piv2)
    print(list(LU2.shape), r(LU2), piv2.tolist())
    print(r(P), r(L), r(U), torch.allclose(P @ L @ U, M, atol=1e-5))
    P2, L2, U2 = torch.linalg.lu(M)
    print(torch.equal(P, P2), torch.equal(L, L2), torch.equal(U, U2))
Ab = torch.randn(2, 4, 4)
LUb, pivb = torch.linalg.lu_factor(Ab)
print(list(LUb.shape), pivb.tolist())
LUe, pive, info = torch.linalg.lu_factor_ex(torch.tensor([[1.0, 1], [1, 1]]))
print(r(LUe), pive.tolist(), info.item(), info.dtype)
print(torch.linalg.lu_factor_ex(Ab).info.tolist())
LUl, pivl = torch.lu(A)
print(torch.equal(LUl, LU), torch.equal(pivl, piv), len(torch.lu(A, get_infos=True)))
print(torch.lu_unpack(LU, piv, unpack_data=False)[1].shape, torch.lu_unpack(LU, piv, unpack_pivots=False)[0].shape)

# ---- lu_solve --------------------------------------------------------------------------------
B = torch.randn(3, 2, dtype=torch.float64)
print(r(torch.linalg.lu_solve(LU, piv, B)), r(torch.linalg.solve(A, B)))
print(r(torch.linalg.lu_solve(LU, piv, B, adjoint=True)), r(torch.linalg.solve(A.T, B)))
print(r(torch.linalg.lu_solve(LU, piv, B.T, left=False)), r(torch.linalg.lu_solve(LU, piv, B.T, left=False, adjoint=True)))
Bb = torch.randn(2, 4, 1)
print(r(torch.linalg.lu_solve(LUb, pivb, Bb)), r(torch.lu_solve(Bb, LUb, pivb)))

# ---- LU gradients ----------------------------------------------------------------------------
for shape in ((3, 3), (3, 5), (5, 3), (2, 3, 3)):
    X = torch.randn(*shape, dtype=torch.float64, requires_grad=True)
    LUx, pivx = torch.linalg.lu_factor(X)
    wt = torch.randn(LUx.shape, dtype=torch.float64)
    print(shape, name(LUx), grad_of(X, (LUx * wt).sum()))
    P, L, U = torch.linalg.lu(X)
    print(name(L), name(U), P.requires_grad, grad_of(X, (L * L).sum() + U.sum()))
    P, L, U = torch.lu_unpack(*torch.linalg.lu_factor(X))
    print(name(L), grad_of(X, (L @ U).sum() + (U * U).sum()))
X = torch.randn(3, 3, dtype=torch.float64, requires_grad=True)
Y = torch.randn(3, 2, dtype=torch.float64, requires_grad=True)
for left, adjoint in ((True, False), (True, True), (False, False), (False, True)):
    LUx, pivx = torch.linalg.lu_factor(X)
    rhs = Y if left else Y.T
    S = torch.linalg.lu_solve(LUx, pivx, rhs, left=left, adjoint=adjoint)
    X.grad = None
    Y.grad = None
    (S * S).sum().backward()
    print(left, adjoint, name(S), r(X.grad), r(Y.grad))

# ---- matrix norms from singular values ---------------------------------------------------------
M = torch.randn(3, 4, dtype=torch.float64, requires_grad=True)
for o in ("nuc", 2, -2):
    v = torch.linalg.matrix_norm(M, o)
    print(o, round(v.item(), 4), name(v), grad_of(M, v))
    print(round(torch.linalg.norm(M, o).item(), 4), name(torch.linalg.norm(M, o)))
v = torch.norm(M, "nuc")
print(round(v.item(), 4), name(v), grad_of(M, v))
Mb = torch.randn(2, 3, 4, dtype=torch.float64)
print(r(torch.linalg.matrix_norm(Mb, "nuc")), r(torch.linalg.matrix_norm(Mb, 2, dim=(0, 2))))
k = torch.linalg.matrix_norm(Mb.requires_grad_(), -2, dim=(2, 0), keepdim=True)
print(list(k.shape), r(k), name(k))
print(r(torch.linalg.norm(Mb, "nuc", dim=(1, 2), keepdim=True)), r(torch.linalg.cond(Mb[0, :, :3], "nuc")))
for bad in (lambda: torch.linalg.matrix_norm(M, 3), lambda: torch.linalg.matrix_norm(M, "abc"),
            lambda: torch.norm(M, "abc"), lambda: torch.linalg.lu_factor(torch.tensor([[1.0, 1], [1, 1]])),
            lambda: torch.linalg.lu_factor(torch.zeros(3)),
            lambda: torch.linalg.lu_factor_ex(torch.zeros(2, 2), check_errors=True),
            lambda: torch.linalg.lu_solve(LU, piv, torch.ones(3)),
            lambda: torch.lu_unpack(LU, torch.tensor([4, 3, 3], dtype=torch.int32))):
    try:
        bad()
    except RuntimeError as e:
        print("RuntimeError", str(e)[:110])

# ---- svd / svdvals ---------------------------------------------------------------------------
for shape in ((4, 3), (3, 5), (2, 3, 3)):
    X = torch.randn(*shape, dtype=torch.float64, requires_grad=True)
    U, S, Vh = torch.linalg.svd(X, full_matrices=False)
    print(shape, name(U), r(S))
    print(grad_of(X, S.sum() + (S * S).sum()))
    U, S, Vh = torch.linalg.svd(X, full_matrices=False)
    rec = U @ torch.diag_embed(S * S) @ Vh
    print(grad_of(X, (rec * rec).sum()))
    U, S, Vh = torch.linalg.svd(X, full_matrices=False)
    print(grad_of(X, U.abs().sum() + (Vh.abs() * torch.arange(Vh.shape[-1], dtype=torch.float64)).sum()))
    sv = torch.linalg.svdvals(X)
    print(name(sv), grad_of(X, (sv * sv).sum() + sv[..., 0].sum()))
X = torch.randn(4, 2, dtype=torch.float64, requires_grad=True)
U, S, Vh = torch.linalg.svd(X)
print(list(U.shape), grad_of(X, S.sum()))
U, S, Vh = torch.linalg.svd(X)
print(grad_of(X, (U[:, :2].abs() * S).sum()))
U, S, V = torch.svd(X)
print(name(U), grad_of(X, (U @ torch.diag(S) @ V.T).pow(3).sum()))
print(grad_of(X, torch.linalg.pinv(X).sum()), grad_of(X, torch.pinverse(X).pow(2).sum()))

# ---- qr ------------------------------------------------------------------------------------------
for shape, mode in (((4, 3), "reduced"), ((3, 5), "reduced"), ((3, 3), "complete"), ((2, 3, 3), "reduced")):
    X = torch.randn(*shape, dtype=torch.float64, requires_grad=True)
    Q, R = torch.linalg.qr(X, mode=mode)
    print(shape, mode, name(Q), grad_of(X, (Q * torch.arange(Q.shape[-1], dtype=torch.float64)).sum() + R.pow(2).sum()))
for mode, shape in (("r", (3, 3)), ("complete", (4, 3))):
    X = torch.randn(*shape, requires_grad=True)
    try:
        torch.linalg.qr(X, mode=mode)[1].sum().backward()
    except RuntimeError as e:
        print("RuntimeError", str(e)[:80])

# ---- eigh / eigvalsh -------------------------------------------------------------------------------
X = torch.randn(3, 3, dtype=torch.float64)
X = (X + X.T).requires_grad_()
L, Q = torch.linalg.eigh(X)
print(name(L), r(L))
fixed = Q * torch.sign(Q[0:1, :])
print(grad_of(X, (fixed * torch.arange(9.0, dtype=torch.float64).reshape(3, 3)).sum() + L.pow(2).sum()))
ev = torch.linalg.eigvalsh(X)
print(name(ev), grad_of(X, (ev * torch.tensor([1.0, 2, 3], dtype=torch.float64)).sum()))

# ---- lstsq -----------------------------------------------------------------------------------------
X = torch.randn(5, 3, dtype=torch.float64, requires_grad=True)
Y = torch.randn(5, 2, dtype=torch.float64, requires_grad=True)
sol = torch.linalg.lstsq(X, Y).solution
print(name(sol), r(sol))
(sol * sol).sum().backward()
print(r(X.grad), r(Y.grad))
