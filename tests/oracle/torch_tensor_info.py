# Tensor predicates and identities of a real, dense, strided tensor (is_complex, conj,
# layout, ...), sum_to_size, fill_diagonal_, the in-place comparisons, scans and products,
# and angle, against PyTorch.
import torch
torch.manual_seed(0)
x = torch.randn(2, 3, requires_grad=True)
y = x.detach().clone()
print(x.conj() is x, x.resolve_conj() is x, x.resolve_neg() is x, x.real is x, y.conj_physical() is y)
print(x.is_complex(), x.is_signed(), torch.zeros(2, dtype=torch.uint8).is_signed(), x.is_same_size(y), x.is_inference(), x.is_conj(), x.is_neg())
print(x.is_sparse, x.is_quantized, x.is_meta, x.is_nested, x.is_mkldnn, x.layout,
      x.get_device() == (x.device.index if x.is_cuda else -1), x.retains_grad)
print(x.sum_to_size(1, 3), x.sum_to_size(3))
try:
    x.sum_to_size(4)
except RuntimeError as e:
    print(e)
z = x * 2; z.retain_grad(); print(z.retains_grad)
print(y.unsafe_chunk(3, 1)[0], y.unsafe_split(2, 1)[1].shape)
a = torch.tensor([1., 2., 3.]); a.eq_(torch.tensor([1., 0., 3.])); print(a)
b = torch.tensor([1., 5., 3.]); b.gt_(2); print(b)
b.less_equal_(0.5); print(b)
c = torch.tensor([[1., 2.], [3., 4.]]); c.cumsum_(1); print(c); c.cumprod_(0); print(c)
for shape, wrap in [((3, 3), False), ((4, 3), True), ((7, 3), True), ((7, 3), False), ((2, 5), False), ((2, 2, 2), False)]:
    d = torch.zeros(*shape); d.fill_diagonal_(2, wrap=wrap); print(d.nonzero().tolist())
try:
    torch.zeros(2, 3, 2).fill_diagonal_(1)
except RuntimeError as e:
    print(e)
e = torch.zeros(2, 2); e.addmm_(torch.ones(2, 3), torch.ones(3, 2), beta=0.5, alpha=2); print(e)
w = x * 1; w.addmm_(torch.ones(2, 2), torch.ones(2, 3)); print(type(w.grad_fn).__name__)
v = torch.zeros(2, 2, 2); v.baddbmm_(torch.ones(2, 2, 3), torch.ones(2, 3, 2)); print(v[0])
c2 = x * 1; c2.cumsum_(1); print(type(c2.grad_fn).__name__)
c2.sum().backward(); print(x.grad)
print(torch.angle(torch.tensor([-1.0, 0.0, 2.0, float('nan'), float('-inf')])), torch.tensor([-2, 3]).angle())
print(torch.zeros(2, layout=torch.strided).layout, torch.strided == torch.strided)
try:
    x.imag
except Exception as ex:
    print(type(ex).__name__, ex)
