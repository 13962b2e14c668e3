# Binary data as bytes: io.BytesIO reads and writes bytes, torch.save /
# torch.load go through BytesIO and through files opened 'wb' / 'rb', and
# open() in binary modes reads and writes bytes.
import io
import os

import torch

buf = io.BytesIO(b"hello\nworld\n")
print(buf.read(3), buf.tell(), buf.readline(), buf.read(), buf.read())
buf.seek(0)
print(buf.readlines(), [line for line in io.BytesIO(b"a\nb")])
w = io.BytesIO()
print(w.write(b"abc"), w.write(b"defg"), w.getvalue(), type(w.getvalue()).__name__)
w.seek(1)
w.write(b"XY")
print(w.getvalue(), w.tell())
w.seek(10)
w.write(b"!")
print(w.getvalue(), len(w.getvalue()))
print(w.truncate(4), w.getvalue(), w.seek(-2, 2), w.read())
for bad in (lambda: io.BytesIO("text"), lambda: w.write("text")):
    try:
        bad()
    except TypeError as e:
        print(type(e).__name__, e)

torch.manual_seed(0)
state = {"w": torch.randn(2, 3), "step": 7, "name": "ckpt", "ids": torch.arange(4)}
b = io.BytesIO()
torch.save(state, b)
data = b.getvalue()
print(type(data).__name__, data[:2], len(data) == b.tell(), len(data) > 100)
back = torch.load(io.BytesIO(data))
print(sorted(back), back["step"], back["name"], back["ids"].tolist())
print([round(v, 4) for v in back["w"].flatten().tolist()])
print(torch.equal(back["w"], state["w"]))

scratch = "/tmp/kiln_io_bytes_" + str(os.getpid())
path = scratch + ".pt"
with open(path, "wb") as f:
    torch.save(state, f)
with open(path, "rb") as f:
    raw = f.read()
print(type(raw).__name__, raw == data, raw[:4])
with open(path, "rb") as f:
    again = torch.load(f)
print(torch.equal(again["w"], state["w"]), again["step"])
os.remove(path)

path = scratch + ".bin"
with open(path, "wb") as f:
    print(f.write(b"\x00\x01\xffabc"), f.writable())
with open(path, "ab") as f:
    f.write(bytes([10, 20]))
with open(path, "rb") as f:
    print(f.read(2), f.read(), f.readable())
with open(path, "rb") as f:
    print(list(f.read()), f.seek(-2, 2), f.read())
try:
    open(path, "rb").write(b"x")
except io.UnsupportedOperation as e:
    print(type(e).__name__, e)
try:
    open(path, "rbt")
except ValueError as e:
    print(type(e).__name__, e)
with open(path, "wb") as f:
    f.write("café\n".encode())
with open(path) as f:
    print(repr(f.read()))
with open(path, "rb") as f:
    print(f.read().decode("utf-8"), end="")
os.remove(path)
