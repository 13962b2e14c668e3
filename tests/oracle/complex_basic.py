# Complex tensors: dtypes, creation, repr, arithmetic, views and errors.
import torch

print(torch.complex64, torch.cfloat, torch.complex128, torch.cdouble)
print(torch.complex64 == torch.cfloat, torch.complex64 == torch.complex128, torch.complex64 == torch.float32)

a = torch.tensor([1.0, 2.0])
b = torch.tensor([0.5, -1.0])
z = torch.complex(a, b)
print(z)
print(z.dtype, z.shape, z.ndim, z.dim(), z.numel(), z.size(0), z.is_complex(), torch.is_complex(z),
      torch.is_complex(a), a.is_complex())
print(torch.complex(a.double(), b.double()))
print(torch.complex(torch.tensor([1e-5, 3.0]), torch.tensor([100000.0, 2.0])))
print(torch.complex(torch.tensor([[1.0, 2.0], [3.0, 4.0]]), torch.tensor([[0.0, -0.0], [1.5, 2.0]])))
print(torch.complex(torch.tensor([1.0, 2.0]), torch.tensor([0.0, 0.0])))
print(torch.complex(torch.tensor(1.5), torch.tensor(-2.0)))
print(torch.complex(torch.tensor([1e10, 2.0]), torch.tensor([1.0, 3.0])))
print(torch.complex(torch.tensor([-123.25, 0.125]), torch.tensor([7.0, -0.001])))
print(torch.zeros(2, dtype=torch.complex64), torch.ones(2, 1, dtype=torch.cdouble))
print(torch.zeros(0, dtype=torch.complex64))
g = torch.linspace(-3.0, 3.0, 22)
print(torch.complex(g, g.flip(0) * 0.37))

# polar, views and parts
r = torch.tensor([1.0, 2.0, 0.5])
th = torch.tensor([0.0, 1.0, -2.5])
p = torch.polar(r, th)
print([round(v, 4) for v in p.real.tolist()], [round(v, 4) for v in p.imag.tolist()])
print([round(v, 4) for v in p.abs().tolist()], [round(v, 4) for v in p.angle().tolist()])
x = torch.arange(12.0).reshape(3, 2, 2)
c = torch.view_as_complex(x)
print(c.shape, c[1], c[:, 1], c[..., 0], c[-1, ...])
torch.view_as_real(c)[0, 0, 1] = 9.0
print(x[0, 0], c[0, 0])
c.real[2, 1] = -1.0
print(x[2, 1])
print(torch.view_as_real(c) is x, torch.view_as_real(c).shape)
print(c.view(6).shape, c.reshape(2, 3).shape, c.flatten().shape, c.unsqueeze(0).shape,
      c.unsqueeze(-1).shape, c.permute(1, 0).shape, c.transpose(0, 1).shape, c.t().shape)
print(c.transpose(0, 1).contiguous(), c.clone().detach().conj())

# arithmetic with complex, real tensors and numbers, both orders
u = torch.complex(torch.tensor([1.0, -2.0, 3.0]), torch.tensor([0.5, 1.5, -1.0]))
w = torch.complex(torch.tensor([2.0, 0.25, -1.0]), torch.tensor([-1.0, 2.0, 0.5]))
real = torch.tensor([2.0, -1.0, 0.5])
for v in [u + w, u - w, u * w, u / w, -u, u + real, real + u, u - real, real - u, u * real, real * u,
          u / real, real / u, u * 2.0, 3 * u, u / 4, 1.0 - u, u + 1, u.conj().resolve_conj(), u.exp(), u * u.conj()]:
    print([round(t, 4) for t in torch.view_as_real(v).flatten().tolist()])
m = u.unsqueeze(1) * w.unsqueeze(0)
print(m.shape, [round(t, 4) for t in m.real.flatten().tolist()])
print(u.sum(), u.mean(), m.sum(0), m.sum(dim=1, keepdim=True).shape, m.mean(-1))
print(torch.cat([u, w]), torch.stack([u, w], 1).shape, torch.cat([u.unsqueeze(0), w.unsqueeze(0)], 0).shape)
print(u == u, u == w, u != w)
print(u.double().dtype if False else u.to(torch.complex128).dtype, u.cdouble().dtype, real.to(torch.complex64))
print((u @ w), (u.unsqueeze(0) @ w.unsqueeze(1)).shape)
d = torch.complex(torch.tensor([1.0, 2.0]).double(), torch.tensor([3.0, 4.0]).double())
print((d * u[:2]).dtype, (u * torch.tensor([1.0, 2.0, 3.0]).double()).dtype)
print(abs(u).dtype, u.abs().shape)

# in place
q = u.clone()
q += w
q *= 2.0
print(q)

# gradients through complex ops
xr = torch.tensor([1.0, 2.0, -0.5], requires_grad=True)
xi = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
zz = torch.complex(xr, xi)
out = (zz * w).abs().sum() + (zz / w).angle().sum() + torch.view_as_real(zz.exp()).pow(2).sum() * 0.01
out.backward()
print([round(v, 4) for v in xr.grad.tolist()], [round(v, 4) for v in xi.grad.tolist()])
print(zz.requires_grad, zz.grad_fn is not None)
leaf = torch.zeros(2, dtype=torch.complex64, requires_grad=True)
print(leaf)
(leaf * u[:2]).real.sum().backward()
print(leaf.grad)

# errors
def err(f):
    try:
        f()
    except Exception as e:
        print(type(e).__name__, e)

err(lambda: torch.view_as_complex(torch.randn(3, 3)))
err(lambda: torch.view_as_complex(torch.randn(2, 4)[:, ::2]))
err(lambda: torch.view_as_complex(torch.randn(8)[1:7].view(3, 2)))
err(lambda: torch.view_as_complex(torch.tensor(1.0)))
err(lambda: torch.view_as_complex(torch.ones(3, 2, dtype=torch.int64)))
err(lambda: torch.view_as_real(a))
err(lambda: u < w)
err(lambda: u >= w)
err(lambda: u.max())
err(lambda: torch.complex(a, b.double()))
err(lambda: torch.complex(torch.tensor([1]), torch.tensor([2])))
err(lambda: zz.backward())

# indexing, assignment and torch.* functions on complex tensors
s = torch.complex(torch.arange(6.).reshape(2, 3), -torch.arange(6.).reshape(2, 3))
print(s[:, None, 1:].shape, s[..., None].shape, s[None, ..., 0].shape, s[s.real > 2], s[torch.tensor([1, 0])].shape)
s[0, 1] = 7.5
s[1] = torch.complex(torch.ones(3), torch.ones(3))
print(s)
print(torch.stack([s[0], torch.ones(3)]).shape, torch.cat([torch.zeros(1, 3), s]).dtype)
print(s.T.shape, s.expand(4, 2, 3).shape, s.roll(1, 1), s.flip(0).real)
print(s.sum(dim=(0, 1)), s.prod(), (s ** 2)[0], s.reciprocal()[1])
print(torch.real(s), torch.conj(s)[0], torch.abs(s).shape, torch.randn(4, 4, dtype=torch.complex64).dtype)
print(torch.tensor([1.0, 2.0]).type_as(s), s.stride(), s.T.stride(), s.element_size())
err(lambda: s.sort())
err(lambda: s.no_such_attribute)
sq = torch.complex(torch.ones(2, 2), torch.ones(2, 2))
err(lambda: torch.ones(2, 2) @ sq)
err(lambda: sq @ sq.cdouble())
err(lambda: sq[0] @ torch.ones(2))
print(torch.ones(2) == sq[0], sq[0] != torch.ones(2))

# abs and angle at zero: PyTorch's values and zero gradients, not nan
z0 = torch.complex(torch.tensor([0.0, -0.0, 1.0]), torch.tensor([0.0, 0.0, 1.0])).requires_grad_()
a0 = z0.angle()
print([round(v, 4) for v in a0.tolist()])
(a0.sum() + z0.abs().sum()).backward()
print([round(v, 4) for v in torch.view_as_real(z0.grad).flatten().tolist()])
