# finfo/iinfo reprs, and Python conversions of tensors (int(), float(), round(), list indices)
import torch


def show(name, f):
    try:
        r = f()
        print(name, "->", r)
    except Exception as e:
        msg = str(e)
        print(name, type(e).__name__)
        for i in range(0, len(msg), 100):
            print("   ", msg[i:i + 100])


for dt in [torch.float32, torch.float16, torch.bfloat16, torch.float64]:
    print(repr(torch.finfo(dt))[:60])
    print("   ", repr(torch.finfo(dt))[60:])
print(str(torch.finfo())[:60])
for dt in [torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64]:
    print(torch.iinfo(dt))
fi = torch.finfo(torch.float32)
print(fi.bits, fi.eps, fi.max, fi.tiny, fi.resolution, fi.dtype)
ii = torch.iinfo(torch.int16)
print(ii.bits, ii.min, ii.max, ii.dtype)

show("int-many", lambda: int(torch.ones(3)))
show("float-many", lambda: float(torch.ones(2, 2)))
show("int-empty", lambda: int(torch.ones(0)))
show("float-empty", lambda: float(torch.zeros(0)))
show("int-one", lambda: int(torch.tensor([[7.9]])))
show("float-one", lambda: float(torch.tensor([2.5])))
show("item-many", lambda: torch.ones(3).item())
show("round0", lambda: round(torch.tensor(2.567)))
show("round2", lambda: round(torch.tensor([2.567]), 2))
show("round-item", lambda: round(torch.tensor(2.567).item(), 2))
show("list-idx-many", lambda: [1, 2, 3][torch.tensor([1, 2])])
show("list-idx-float", lambda: [1, 2, 3][torch.tensor(1.0)])
show("list-idx-int", lambda: [1, 2, 3][torch.tensor(2)])
show("range-idx", lambda: range(5)[torch.tensor([0, 1])])
show("size0d", lambda: torch.tensor(1.0).size(0))
show("size0d-neg", lambda: torch.tensor(1.0).size(-1))
show("stride0d", lambda: torch.tensor(1.0).stride(0))
show("size-ok", lambda: torch.ones(2, 3).size(-1))
show("tensor-none", lambda: torch.tensor(None))
show("tensor-none-in", lambda: torch.tensor([1.0, None]))
show("tensor-dict", lambda: torch.tensor({}))
show("tensor-str-2nd", lambda: torch.tensor([1, 'a']))
show("tensor-str-1st", lambda: torch.tensor(['a', 1]))
show("device-bad", lambda: torch.device('gpu'))
