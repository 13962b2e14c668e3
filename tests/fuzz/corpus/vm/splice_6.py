# Slicing of lists, tuples and strings, with negative and out-of-range bounds and steps.
L = list(range(10))
T = tuple(L)
S = "abcdefghij"
for sl in [(None, None, None), (2, 5, None), (-3, None, None)ch.linspace(0, 1, 5), torch.eye(3), torch.eye(2, 3))
x = torch.ones(2, 2, dtype=torch.float64)
print(torch.zeros_like(x), torch.ones_like(x, dtype=torch.int64), torch.full_like(x, 3.5), x.dtype)
print(torch.tensor([1, 2], dtype=torch.float32).dtype, torch.tensor([1.0]).double().dtype, torch.tensor(3).long())
print(torch.as_tensor([1, 2]), torch.tensor([[1, 2], [3]]) if False else 0)
