import torch
with torch.no_grad():
    x = torch.ones(2, requires_grad=True) * 2
print(x.requires_grad)
with torch.inference_mode():
    print(torch.is_inference_mode_enabled())
try:
    with 5:
        pass
except Exception as e:
    print(type(e).__name__)
class CM:
    def __enter__(self):
        print("enter")
        return self
    def __exit__(self, *a):
        print("exit", a[0] is not None)
        return True
with CM() as c:
    raise ValueError("suppressed")
print("after")
