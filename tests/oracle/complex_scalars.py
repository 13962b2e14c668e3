# Complex tensors meeting Python complex numbers: torch.tensor of complex
# data, item()/tolist(), scalar arithmetic, torch.full, the rotary idiom.
import torch


def parts(z, n=4):
    # Rounded (re, im) lists: what a wrong value would change.
    return [round(v, n) for v in z.real.flatten().tolist()], [round(v, n) for v in z.imag.flatten().tolist()]


z = torch.tensor([1 + 2j, 3j])
print(z.dtype, z.shape, z)
print(torch.tensor([1 + 2j, 3j], dtype=torch.complex128).dtype, torch.tensor([[1, 2j], [0.5, -1]]).shape)
print(torch.tensor(1j).dtype, torch.tensor(1j).shape, torch.tensor([1.5, 2], dtype=torch.complex64))
print(torch.tensor([0.1 + 0.2j]).item(), torch.tensor([0.1 + 0.2j], dtype=torch.complex128).item())
print(torch.as_tensor([2j, 1]).dtype, torch.tensor([], dtype=torch.complex64).shape, torch.tensor((1j, 2j)).tolist())
print(torch.tensor([1j]).dtype, torch.full((2,), 1j).dtype, torch.tensor([1j], dtype=torch.cdouble).dtype)

# item() and tolist() give Python complex numbers
w = torch.tensor([[1 - 1j, 2.5j], [-3 + 0j, 0j]])
print(w[0, 0].item(), type(w[0, 1].item()).__name__, w.tolist(), w[1].tolist(), torch.tensor(2 + 3j).tolist())
print(complex(w[0, 1]), w.sum().item(), (w * w).mean().item())

# arithmetic with complex scalars keeps the tensor's complex dtype
print(parts(z * 1j), parts(1j * z), parts(z + (1 + 1j)), parts((1 + 1j) + z), parts(z - 1j), parts(2j - z))
print(parts(z / (1 + 1j)), parts((1 + 1j) / z), parts(z * 2), (z * 1j).dtype, (z + 1j).dtype)
d = z.to(torch.complex128)
print((d * (0.1 + 0.2j)).dtype, parts(d * (0.1 + 0.2j), 12), (d / 3j).tolist())
print(z == 1 + 2j, z != 3j, torch.mul(z, 1j).tolist(), torch.add(z, 2j).tolist(), torch.sub(z, 1j).tolist())

# a real tensor and a complex scalar make a complex tensor
x = torch.tensor([1.0, -2.0, 0.5])
print((x * 1j).dtype, parts(x * 1j), parts(1j * x), parts(x + 1j), parts(1j - x), parts(x / 2j), parts(2j / x))
print((torch.arange(3) * 1j).dtype, (x.double() * 1j).dtype, parts(torch.arange(3) * (1 - 1j)))

# torch.full with a complex fill value
f = torch.full((2, 2), 1j)
print(f.dtype, f.tolist(), torch.full((3,), 1 - 2j, dtype=torch.complex128).tolist())

# the rotary-embedding idiom: exp(1j * theta), then a product with complex views
theta = torch.arange(4, dtype=torch.float32) * 0.5
rot = torch.exp(1j * theta)
print(rot.dtype, parts(rot))
pairs = torch.arange(8, dtype=torch.float32).reshape(4, 2)
out = torch.view_as_real(torch.view_as_complex(pairs) * rot)
print([round(v, 4) for v in out.flatten().tolist()])
print(parts(torch.polar(torch.ones(4), theta) * 1j), [round(v, 4) for v in (rot.conj() * rot).real.tolist()], (rot.conj() * rot).imag.abs().max().item() < 1e-6)

# writing complex scalars into complex tensors
c = torch.zeros(3, dtype=torch.complex64)
c[1] = 2 - 1j
c[2] = 5
print(c.tolist(), c.fill_(0.5j).tolist(), c.copy_(torch.tensor([1j, 2j, 3j])).tolist())
q = torch.zeros(2, dtype=torch.complex128)
q[0] = 0.1 + 0.7j
print(q[0].item(), q.tolist())

# complex tensor printing is unchanged
print(torch.tensor([1 + 2j, -0.5j]), torch.tensor(1.5 - 1j))

# complex tensors are tensors; Python complex numbers are not
print(isinstance(z, torch.Tensor), torch.is_tensor(z), isinstance(1j, torch.Tensor), torch.is_tensor(1j),
      isinstance(torch.view_as_real(z), torch.Tensor), isinstance(z.real, torch.Tensor), torch.is_complex(z))
print(torch.cat([z, torch.tensor([1.0])]).tolist(), torch.stack([z, z]).shape, z.to(torch.complex128).dtype)

# errors
for bad in [lambda: torch.tensor([1j, 'a']), lambda: w.item(), lambda: torch.tensor([1j], dtype=torch.float32),
            lambda: torch.complex(z, z), lambda: torch.view_as_complex(z), lambda: torch.polar(z, z)]:
    try:
        print(bad())
    except Exception as e:
        print(type(e).__name__ + ':', e)
