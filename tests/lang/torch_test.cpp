// The torch module and the Python surface of tensors, end to end: each
// script's expected output was recorded by running the same script under
// PyTorch 2.x (CUDA errors are those of a CPU-only PyTorch build).
#include <gtest/gtest.h>

#include <sstream>

#include "core/lang/interp.h"
#include "tests/lang/run_script.h"
#include "core/lang/torch_bridge.h"
#include "core/ops.h"

namespace kiln::lang {
namespace {

TEST(TorchBridge, ValuesConvertBothWays) {
  EXPECT_TRUE(to_value(Obj::from_int(3)).is_int());
  EXPECT_TRUE(to_value(Obj::from_float(0.5)).is_double());
  EXPECT_TRUE(to_value(Obj::from_bool(true)).is_bool());
  EXPECT_TRUE(to_value(Obj()).is_none());
  EXPECT_EQ(to_value(Obj::from_dtype(DType::Int32)).dtype(), DType::Int32);
  EXPECT_EQ(to_value(make_str("mean")).str(), "mean");
  Value ints = to_value(make_tuple({Obj::from_int(2), Obj::from_int(-1)}));
  ASSERT_TRUE(ints.is_int_list());
  EXPECT_EQ(ints.int_list(), (Shape{2, -1}));
  Value ts = to_value(make_list({make_tensor(zeros({2})), make_tensor(ones({2}))}));
  ASSERT_TRUE(ts.is_tensor_list());
  EXPECT_EQ(ts.tensor_list().size(), 2u);
  EXPECT_THROW(to_value(make_list({Obj::from_float(1.5)})), Error);

  Obj t = from_value(Value(ones({3})));
  ASSERT_NE(t.as<TensorObj>(), nullptr);
  EXPECT_EQ(t.as<TensorObj>()->tensor.numel(), 3);
  Obj shape = from_value(Value(Shape{4, 5}));
  ASSERT_NE(shape.as<TupleObj>(), nullptr);
  EXPECT_EQ(shape.as<TupleObj>()->items[1].as_int(), 5);
  EXPECT_TRUE(from_value(Value()).is_none());
  EXPECT_EQ(from_value(Value(2.5)).as_float(), 2.5);
}

TEST(TorchBridge, CallOpPicksOverloadAndReturnKind) {
  Value args[2] = {Value(ones({2, 3})), Value(int64_t(1))};
  Obj r = call_op_obj("max", args);  // max.dim: (values, indices)
  ASSERT_NE(r.as<TupleObj>(), nullptr);
  EXPECT_EQ(r.as<TupleObj>()->items.size(), 2u);
  Value eq[2] = {Value(ones({2})), Value(ones({2}))};
  EXPECT_TRUE(call_op_obj("equal", eq).as_bool());
  Value one[1] = {Value(ones({2}))};
  EXPECT_NE(call_op_obj("max", one).as<TensorObj>(), nullptr);
}

TEST(TorchBridge, TensorFromNestedData) {
  Tensor t = tensor_from_data(make_list({make_list({Obj::from_int(1), Obj::from_int(2)}),
                                         make_list({Obj::from_int(3), Obj::from_bool(true)})}),
                              std::nullopt);
  EXPECT_EQ(t.dtype(), DType::Int64);
  EXPECT_EQ(t.sizes(), (Shape{2, 2}));
  EXPECT_EQ(to_double_vector(t), (std::vector<double>{1, 2, 3, 1}));
  EXPECT_EQ(tensor_from_data(make_list({Obj::from_int(1), Obj::from_float(2)}), std::nullopt).dtype(),
            DType::Float32);
  Tensor big = tensor_from_data(make_list({Obj::from_int(9007199254740993)}), std::nullopt);
  EXPECT_EQ(big.data<int64_t>()[0], 9007199254740993);  // exact beyond 2^53
  EXPECT_THROW(tensor_from_data(make_list({make_list({Obj::from_int(1)}), Obj::from_int(2)}), std::nullopt), Error);
}



TEST(TorchScripts, TensorConstructionAndDtypeInference) {
  EXPECT_EQ(run(R"py(import torch
print(torch.tensor([1, 2, 3]))
print(torch.tensor([1, 2.5]))
print(torch.tensor([[True, False], [False, True]]))
print(torch.tensor([True, 2]).dtype, torch.tensor(3.5).dtype, torch.tensor([]).shape, torch.tensor([[], []]).shape)
print(torch.tensor([1, 2], dtype=torch.float64))
print(torch.tensor([torch.tensor(1.0), torch.tensor(2.0)]))
x = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
print(x)
print(torch.as_tensor([1, 2]).dtype, torch.tensor(7).item(), torch.tensor(2.5).item(), torch.tensor(True).item())
)py"),
            R"py(tensor([1, 2, 3])
tensor([1.0000, 2.5000])
tensor([[ True, False],
        [False,  True]])
torch.int64 torch.float32 torch.Size([0]) torch.Size([2, 0])
tensor([1., 2.], dtype=torch.float64)
tensor([1., 2.])
tensor([[1., 2.],
        [3., 4.]], requires_grad=True)
torch.int64 7 2.5 True
)py");
}

TEST(TorchScripts, DtypesDevicesAndSize) {
  EXPECT_EQ(run(R"py(import torch
print(torch.float32, torch.float, torch.double, torch.long, torch.int, torch.bool, torch.half, torch.bfloat16)
print(torch.get_default_dtype(), torch.float32 == torch.float, torch.int64 == torch.long)
d = torch.device('cpu')
print(d, repr(d), torch.device('cuda:1'))
s = torch.Size([2, 3])
print(s, s[0], len(s), torch.zeros(2, 3).shape == s, torch.zeros(4, 5).size(), torch.zeros(4, 5).size(1))
print(torch.cuda.is_available(), torch.cuda.device_count())
x = torch.zeros(2, 3, device='cpu')
print(x.device, x.dtype, x.ndim, x.dim(), x.numel(), x.stride(), x.is_contiguous(), x.t().is_contiguous())
)py"),
            R"py(torch.float32 torch.float32 torch.float64 torch.int64 torch.int32 torch.bool torch.float16 torch.bfloat16
torch.float32 True True
cpu device(type='cpu') cuda:1
torch.Size([2, 3]) 2 2 True torch.Size([4, 5]) 5
False 0
cpu torch.float32 2 2 6 (3, 1) True False
)py");
}

TEST(TorchScripts, CreationOpsVarargsAndKeywords) {
  EXPECT_EQ(run(R"py(import torch
print(torch.zeros(2, 3))
print(torch.ones((2, 2), dtype=torch.int64))
print(torch.full((2,), 1.5), torch.arange(5), torch.arange(1, 4, 0.5))
print(torch.eye(2), torch.linspace(0, 1, 5))
print(torch.zeros(size=(1, 2)), torch.empty(0).shape)
print(torch.zeros_like(torch.ones(2), dtype=torch.int32))
)py"),
            R"py(tensor([[0., 0., 0.],
        [0., 0., 0.]])
tensor([[1, 1],
        [1, 1]])
tensor([1.5000, 1.5000]) tensor([0, 1, 2, 3, 4]) tensor([1.0000, 1.5000, 2.0000, 2.5000, 3.0000, 3.5000])
tensor([[1., 0.],
        [0., 1.]]) tensor([0.0000, 0.2500, 0.5000, 0.7500, 1.0000])
tensor([[0., 0.]]) torch.Size([0])
tensor([0, 0], dtype=torch.int32)
)py");
}

TEST(TorchScripts, OperatorsAndPromotion) {
  EXPECT_EQ(run(R"py(import torch
a = torch.tensor([1, 2, 3])
b = torch.tensor([0.5, 1.5, 2.5])
print(a + b, a - 1, 2 - a, a * 2, a / 2, 2 / b, a // 2, -7 // a, a % 2, a ** 2, 2 ** a, b ** 0.5)
print(-a, +a, abs(torch.tensor([-1.5, 2.0])))
m = torch.tensor([[1., 2.], [3., 4.]])
print(m @ m)
print(a > 1, a == 2, 2 < a, a != b, a <= 2.0)
print(torch.tensor([True, False]) & torch.tensor([True, True]), torch.tensor([True, False]) | torch.tensor([False, False]), ~torch.tensor([True, False]), ~a)
print(a == None, a != 'x')
)py"),
            R"py(tensor([1.5000, 3.5000, 5.5000]) tensor([0, 1, 2]) tensor([ 1,  0, -1]) tensor([2, 4, 6]) tensor([0.5000, 1.0000, 1.5000]) tensor([4.0000, 1.3333, 0.8000]) tensor([0, 1, 1]) tensor([-7, -4, -3]) tensor([1, 0, 1]) tensor([1, 4, 9]) tensor([2, 4, 8]) tensor([0.7071, 1.2247, 1.5811])
tensor([-1, -2, -3]) tensor([1, 2, 3]) tensor([1.5000, 2.0000])
tensor([[ 7., 10.],
        [15., 22.]])
tensor([False,  True,  True]) tensor([False,  True, False]) tensor([False, False,  True]) tensor([True, True, True]) tensor([ True,  True, False])
tensor([ True, False]) tensor([ True, False]) tensor([False,  True]) tensor([-2, -3, -4])
False True
)py");
}

TEST(TorchScripts, InPlaceOperatorsKeepIdentity) {
  EXPECT_EQ(run(R"py(import torch
a = torch.zeros(3)
b = a
a += 1
a *= 3
a -= torch.tensor([1., 2., 3.])
a /= 2
print(a is b, b)
c = torch.tensor([5, 7])
d = c
c //= 2
c %= 2
print(c is d, d)
e = torch.tensor([1, 2])
try:
    e /= 2
except RuntimeError as ex:
    print('RuntimeError', ex)
)py"),
            R"py(True tensor([1.0000, 0.5000, 0.0000])
True tensor([0, 1])
RuntimeError result type Float can't be cast to the desired output type Long
)py");
}

// Bitwise operators on integer tensors dispatch to the bitwise ops (their
// in-place forms for &= |= ^=), and round(t, n) is torch.round(t, decimals=n).
TEST(TorchScripts, BitwiseOperatorsAndRound) {
  EXPECT_EQ(run(R"py(import torch
i = torch.tensor([12, -7, 5])
print(i & 6, 6 | i, i ^ i, ~i, i & True)
c = i.clone()
d = c
c &= 3
c |= 8
c ^= 1
c **= 2
print(c is d, d)
f = torch.tensor([1.25, -2.5])
try:
    f & f
except RuntimeError as ex:
    print('RuntimeError', ex)
print(torch.round(f), torch.round(f, decimals=1), torch.round(torch.tensor([1234.5]), decimals=-2))
g = f.clone().requires_grad_(True)
print(torch.absolute(g).grad_fn.name(), torch.negative(g).grad_fn.name(), torch.arctan2(g, g).grad_fn.name(), g.fix().grad_fn.name())
)py"),
            R"py(tensor([4, 0, 4]) tensor([14, -1,  7]) tensor([0, 0, 0]) tensor([-13,   6,  -6]) tensor([0, 1, 1])
True tensor([81, 64, 64])
RuntimeError "bitwise_and_cpu" not implemented for 'Float'
tensor([ 1., -2.]) tensor([ 1.2000, -2.5000]) tensor([1200.])
AbsBackward0 NegBackward0 Atan2Backward0 TruncBackward0
)py");
}

TEST(TorchScripts, IndexingGetAndSet) {
  EXPECT_EQ(run(R"py(import torch
x = torch.arange(24).reshape(2, 3, 4)
print(x[0], x[1, 2], x[-1, -1, -1])
print(x[:, 1:3, ::2])
print(x[..., 0], x[None, 0].shape, x[0, ..., None].shape)
print(x[x > 20], x[[0, 1], [1, 2]], x[torch.tensor([1, 0])].shape, x[:, [0, 2]].shape)
y = torch.zeros(3, 4)
y[0] = 1
y[1, 1:3] = torch.tensor([5., 6.])
y[:, -1] = 9
y[y == 0] = -1
y[[2, 2], [0, 1]] = 7
print(y)
print(x[0, 0, 1:], x[1][2][3])
)py"),
            R"py(tensor([[ 0,  1,  2,  3],
        [ 4,  5,  6,  7],
        [ 8,  9, 10, 11]]) tensor([20, 21, 22, 23]) tensor(23)
tensor([[[ 4,  6],
         [ 8, 10]],

        [[16, 18],
         [20, 22]]])
tensor([[ 0,  4,  8],
        [12, 16, 20]]) torch.Size([1, 3, 4]) torch.Size([3, 4, 1])
tensor([21, 22, 23]) tensor([[ 4,  5,  6,  7],
        [20, 21, 22, 23]]) torch.Size([2, 3, 4]) torch.Size([2, 2, 4])
tensor([[ 1.,  1.,  1.,  9.],
        [-1.,  5.,  6.,  9.],
        [ 7.,  7., -1.,  9.]])
tensor([1, 2, 3]) tensor(23)
)py");
}

TEST(TorchScripts, MethodsFromOpTable) {
  EXPECT_EQ(run(R"py(import torch
x = torch.arange(6, dtype=torch.float32)
print(x.view(2, 3), x.view((3, 2)).shape, x.reshape(-1, 2).shape, x.view(2, 3).permute(1, 0).shape)
m = x.view(2, 3)
vals, idx = m.max(dim=1)
print(m.sum(), m.sum(dim=1), m.sum(0, keepdim=True), m.mean(1), m.max(), vals, idx, m.max(1)[0], m.argmax(1))
print(m.transpose(0, 1).contiguous().shape, m.unsqueeze(0).shape, m.expand(2, 2, 3).shape, m.flatten())
print(m.exp().log().sum().item() > 14.99)
print(m.softmax(dim=-1).sum(1), m.clamp(min=1, max=4), m.masked_fill(m > 2, 0.0))
v = torch.zeros(3)
r = v.add_(1)
print(r is v, v.mul_(2), v.zero_(), v.fill_(3))
print(m.chunk(3, dim=1)[0], len(m.split(1, dim=0)), m.unbind(1)[2])
print(m.T, m.float().dtype, m.long(), m.to(torch.float64).dtype, m.to(m).dtype is m.dtype, m.double().dtype)
print(m.repeat(2, 1).shape, m.new_zeros(2, 2), m.type_as(torch.tensor([1])).dtype, m.view_as(torch.zeros(3, 2)).shape)
print(m.tolist(), m[0, 0].item(), m.int().tolist(), torch.tensor(True).tolist())
)py"),
            R"py(tensor([[0., 1., 2.],
        [3., 4., 5.]]) torch.Size([3, 2]) torch.Size([3, 2]) torch.Size([3, 2])
tensor(15.) tensor([ 3., 12.]) tensor([[3., 5., 7.]]) tensor([1., 4.]) tensor(5.) tensor([2., 5.]) tensor([2, 2]) tensor([2., 5.]) tensor([2, 2])
torch.Size([3, 2]) torch.Size([1, 2, 3]) torch.Size([2, 2, 3]) tensor([0., 1., 2., 3., 4., 5.])
True
tensor([1., 1.]) tensor([[1., 1., 2.],
        [3., 4., 4.]]) tensor([[0., 1., 2.],
        [0., 0., 0.]])
True tensor([3., 3., 3.]) tensor([3., 3., 3.]) tensor([3., 3., 3.])
tensor([[0.],
        [3.]]) 2 tensor([2., 5.])
tensor([[0., 3.],
        [1., 4.],
        [2., 5.]]) torch.float32 tensor([[0, 1, 2],
        [3, 4, 5]]) torch.float64 True torch.float64
torch.Size([4, 3]) tensor([[0., 0.],
        [0., 0.]]) torch.int64 torch.Size([3, 2])
[[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]] 0.0 [[0, 1, 2], [3, 4, 5]] True
)py");
}

TEST(TorchScripts, AutogradSurface) {
  EXPECT_EQ(run(R"py(import torch
x = torch.tensor([1., 2., 3.], requires_grad=True)
y = (x * x).sum()
print(y, y.requires_grad, y.is_leaf, x.is_leaf, x.grad, y.grad_fn.name())
y.backward()
print(x.grad)
x.grad = None
print(x.grad)
z = (x * 2).sum()
z.backward()
print(x.grad)
with torch.no_grad():
    w = x * 2
    print(torch.is_grad_enabled())
print(w.requires_grad, torch.is_grad_enabled(), x.detach().requires_grad, x.data.requires_grad)
t = torch.ones(2)
t.requires_grad = True
print(t.requires_grad, t.requires_grad_(False).requires_grad)
@torch.no_grad()
def f(a):
    return a * 2
print(f(x).requires_grad)
torch.set_grad_enabled(False)
print((x * 2).requires_grad)
torch.set_grad_enabled(True)
with torch.enable_grad():
    print((x * 2).requires_grad)
)py"),
            R"py(tensor(14., grad_fn=<SumBackward0>) True False True None SumBackward0
tensor([2., 4., 6.])
None
tensor([2., 2., 2.])
False
False True False False
True False
False
False
True
)py");
}

TEST(TorchScripts, FunctionalModule) {
  EXPECT_EQ(run(R"py(import torch
import torch.nn.functional as F
x = torch.tensor([[-1.0, 0.5, 2.0], [0.1, -0.2, 0.3]])
print(F.relu(x), F.gelu(x), F.gelu(x, approximate='tanh'), F.silu(x), F.sigmoid(x), F.tanh(x))
print(F.softmax(x, dim=1), F.log_softmax(x, dim=-1), F.leaky_relu(x, 0.1), F.softplus(x))
t = torch.tensor([2, 0])
print(F.cross_entropy(x, t), F.cross_entropy(x, t, reduction='sum'), F.cross_entropy(x, t, label_smoothing=0.1))
print(F.nll_loss(F.log_softmax(x, 1), t), F.mse_loss(x, torch.zeros(2, 3)), F.l1_loss(x, torch.ones(2, 3)))
print(F.dropout(x, p=0.5, training=False), F.one_hot(torch.tensor([0, 2, 1])), F.one_hot(torch.tensor([1]), num_classes=4))
w = torch.tensor([[1., 0., 1.], [0., 1., 0.]])
print(F.linear(x, w), F.linear(x, w, torch.tensor([1., 2.])))
print(F.layer_norm(x, (3,)), F.layer_norm(x, [3], weight=torch.ones(3), bias=torch.zeros(3), eps=1e-5))
e = torch.arange(12, dtype=torch.float32).view(4, 3)
print(F.embedding(torch.tensor([[0, 3], [1, 1]]), e), F.embedding(torch.tensor([2]), e, padding_idx=-1))
q = torch.arange(8, dtype=torch.float32).view(1, 2, 4) / 10
print(F.scaled_dot_product_attention(q, q, q, is_causal=True))
print(F.normalize(x, dim=1))
)py"),
            R"py(tensor([[0.0000, 0.5000, 2.0000],
        [0.1000, 0.0000, 0.3000]]) tensor([[-0.1587,  0.3457,  1.9545],
        [ 0.0540, -0.0841,  0.1854]]) tensor([[-0.1588,  0.3457,  1.9546],
        [ 0.0540, -0.0841,  0.1854]]) tensor([[-0.2689,  0.3112,  1.7616],
        [ 0.0525, -0.0900,  0.1723]]) tensor([[0.2689, 0.6225, 0.8808],
        [0.5250, 0.4502, 0.5744]]) tensor([[-0.7616,  0.4621,  0.9640],
        [ 0.0997, -0.1974,  0.2913]])
tensor([[0.0391, 0.1753, 0.7856],
        [0.3376, 0.2501, 0.4123]]) tensor([[-3.2413, -1.7413, -0.2413],
        [-1.0859, -1.3859, -0.8859]]) tensor([[-0.1000,  0.5000,  2.0000],
        [ 0.1000, -0.0200,  0.3000]]) tensor([[0.3133, 0.9741, 2.1269],
        [0.7444, 0.5981, 0.8544]])
tensor(0.6636) tensor(1.3273) tensor(0.7403)
tensor(0.6636) tensor(0.8983) tensor(1.0500)
tensor([[-1.0000,  0.5000,  2.0000],
        [ 0.1000, -0.2000,  0.3000]]) tensor([[1, 0, 0],
        [0, 0, 1],
        [0, 1, 0]]) tensor([[0, 1, 0, 0]])
tensor([[ 1.0000,  0.5000],
        [ 0.4000, -0.2000]]) tensor([[2.0000, 2.5000],
        [1.4000, 1.8000]])
tensor([[-1.2247,  0.0000,  1.2247],
        [ 0.1622, -1.2976,  1.1354]]) tensor([[-1.2247,  0.0000,  1.2247],
        [ 0.1622, -1.2976,  1.1354]])
tensor([[[ 0.,  1.,  2.],
         [ 9., 10., 11.]],

        [[ 3.,  4.,  5.],
         [ 3.,  4.,  5.]]]) tensor([[6., 7., 8.]])
tensor([[[0.0000, 0.1000, 0.2000, 0.3000],
         [0.2433, 0.3433, 0.4433, 0.5433]]])
tensor([[-0.4364,  0.2182,  0.8729],
        [ 0.2673, -0.5345,  0.8018]])
)py");
}

// generator=: only random ops take it, only a torch.Generator goes there, and
// a generator's state is checked when it is set.
TEST(TorchScripts, GeneratorArgument) {
  EXPECT_EQ(run("import torch\ng = torch.Generator().manual_seed(5)\nprint(g.initial_seed(), torch.randperm(4, generator=g))\n"
                "torch.add(torch.ones(1), 1, generator=g)\n"),
            "5 tensor([3, 1, 0, 2])\n"
            "Traceback (most recent call last):\n  File \"test.py\", line 4, in <module>\n"
            "    torch.add(torch.ones(1), 1, generator=g)\n"
            "TypeError: add() got an unexpected keyword argument 'generator'\n");
  EXPECT_NE(run("import torch\ntorch.rand(2, generator=5)\n")
                .find("TypeError: rand(): argument 'generator' must be torch.Generator, not int"),
            std::string::npos);
  EXPECT_NE(run("import torch\ntorch.set_rng_state(torch.get_rng_state() - 5)\n")
                .find("RuntimeError: set_state: the generator state is corrupt"),
            std::string::npos);
  EXPECT_NE(run("import torch\ntorch.Generator().set_state(torch.zeros(3))\n")
                .find("TypeError: set_state: expected a generator state from get_state()"),
            std::string::npos);
}

// A custom Function's backward: a wrong number of gradients is PyTorch's
// RuntimeError, and an exception it raises reaches the script.
TEST(TorchScripts, AutogradFunctionErrors) {
  EXPECT_EQ(run(R"py(import torch
from torch.autograd import Function
class Bad(Function):
    @staticmethod
    def forward(ctx, x, y):
        return x + y
    @staticmethod
    def backward(ctx, g):
        return g
class Boom(Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, g):
        raise ValueError("boom in backward")
class Shape(Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return torch.ones(3)
x = torch.ones(2, requires_grad=True)
try:
    Shape.apply(x).sum().backward()
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    Bad.apply(x, x).sum().backward()
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    Boom.apply(x).sum().backward()
except ValueError as e:
    print("ValueError:", e)
print(x.grad)
)py"),
            "RuntimeError: Function ShapeBackward returned an invalid gradient at index 0 - got [3] but expected "
            "shape compatible with [2]\n"
            "RuntimeError: function BadBackward returned an incorrect number of gradients (expected 2, got 1)\n"
            "ValueError: boom in backward\nNone\n");
}

// NAdam follows PyTorch 2.x (1.13, which records the oracle, had another
// formula): values recorded from PyTorch 2.15.
TEST(TorchScripts, NAdamMatchesPyTorch2) {
  EXPECT_EQ(run(R"py(import torch
w = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
opt = torch.optim.NAdam([w], lr=0.1, weight_decay=0.01)
opt2_w = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
opt2 = torch.optim.NAdam([opt2_w], lr=0.1, weight_decay=0.1, decoupled_weight_decay=True)
for step in range(5):
    for p, o in ((w, opt), (opt2_w, opt2)):
        o.zero_grad()
        ((p * p * torch.tensor([1.0, 2.0, 3.0])).sum() + p.sum()).backward()
        o.step()
print([round(v, 5) for v in w.tolist()], [round(v, 5) for v in opt2_w.tolist()], round(float(opt.state[w]['mu_product']), 6))
)py"),
            "[0.12374, -0.6348, 1.60737] [0.10904, -0.59929, 1.52086] 0.018498\n");
}

// The nodes matmul and linear end in are named as PyTorch 2.x names them
// (1.13, which records the oracle, named several differently): recorded
// from 2.15. Also the optimizers' defaults, which 2.x grew.
TEST(TorchScripts, MatmulAndLinearNodeNamesMatchPyTorch2) {
  EXPECT_EQ(run(R"py(import torch
import torch.nn as nn
def r(*s): return torch.randn(*s, requires_grad=True)
pairs = [(r(4), r(4)), (r(3, 4), r(4)), (r(4), r(4, 5)), (r(3, 4), r(4, 5)), (r(2, 3, 4), r(4, 5)),
         (r(2, 3, 4), r(4)), (r(4), r(2, 4, 5)), (r(2, 2, 3, 4), r(2, 2, 4, 5)), (r(3, 4), r(2, 4, 5))]
print([(x @ y).grad_fn.name() for x, y in pairs])
print([nn.Linear(4, 2, bias=b)(x).grad_fn.name() for x in (r(2, 4), r(4), r(2, 3, 4)) for b in (True, False)])
print(nn.Linear(4, 2)(r(3, 2, 4).transpose(0, 1)).grad_fn.name(), torch.dot(r(3), r(3)).grad_fn.name(),
      torch.mv(r(2, 3), r(3)).grad_fn.name(), type(torch.mv(r(2, 3), r(3)).grad_fn).__name__)
p = [nn.Parameter(torch.zeros(1))]
print(sorted(torch.optim.SGD(p, lr=0.1).defaults), sorted(torch.optim.Adam(p).defaults))
)py"),
            "['DotBackward0', 'MvBackward0', 'SqueezeBackward4', 'MmBackward0', 'UnsafeViewBackward0', "
            "'UnsafeViewBackward0', 'UnsafeViewBackward0', 'UnsafeViewBackward0', 'CloneBackward0']\n"
            "['AddmmBackward0', 'MmBackward0', 'UnsafeViewBackward0', 'SqueezeBackward4', 'UnsafeViewBackward0', "
            "'UnsafeViewBackward0']\n"
            "AddBackward0 DotBackward0 MvBackward0 MvBackward0\n"
            "['dampening', 'differentiable', 'foreach', 'fused', 'lr', 'maximize', 'momentum', 'nesterov', "
            "'weight_decay'] ['amsgrad', 'betas', 'capturable', 'decoupled_weight_decay', 'differentiable', 'eps', "
            "'foreach', 'fused', 'lr', 'maximize', 'weight_decay']\n");
}

// nn.EmbeddingBag prints its mode quoted, as 2.x does (1.13, which records the
// oracle, did not): recorded from 2.15.
TEST(TorchScripts, EmbeddingBagReprMatchesPyTorch2) {
  EXPECT_EQ(run(R"py(import torch.nn as nn
print(nn.EmbeddingBag(10, 3), nn.EmbeddingBag(5, 2, mode='max', padding_idx=-1, max_norm=1.0))
)py"),
            "EmbeddingBag(10, 3, mode='mean') EmbeddingBag(5, 2, max_norm=1.0, mode='max', padding_idx=4)\n");
}

// create_graph through a formula's helper op with no derivative of its own: the
// first-order gradient works (it is differentiable where it can be), and a second
// derivative that reaches the helper raises instead of coming out as zero.
// The derivative formulas' helper ops (nll_loss_grad, the LSTM layer's backward) are
// differentiable again: second derivatives through cross_entropy and nn.LSTM.
TEST(TorchScripts, SecondDerivativeThroughHelperOps) {
  EXPECT_EQ(run(R"py(import torch
import torch.nn as nn
import torch.nn.functional as F
x = torch.tensor([[0.5, -1.0, 2.0]], requires_grad=True)
g, = torch.autograd.grad(F.cross_entropy(x, torch.tensor([1])), x, create_graph=True)
print(g.requires_grad, [round(v, 4) for v in g[0].tolist()])
g.pow(2).sum().backward()
print([round(v, 4) for v in x.grad[0].tolist()])
lstm = nn.LSTM(2, 3, batch_first=True)
with torch.no_grad():
    for i, p in enumerate(lstm.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel()) * 0.7 + i).reshape(p.shape))
s = torch.tensor([[[0.5, -1.0], [2.0, 0.1]]], requires_grad=True)
g, = torch.autograd.grad(lstm(s)[0].sum(), s, create_graph=True)
g.pow(2).sum().backward()
print([round(v, 4) for v in s.grad.reshape(-1).tolist()])
)py"),
            "True [0.1753, -0.9609, 0.7856]\n"
            "[-0.1525, -0.1229, 0.2754]\n"
            "[-0.0418, 0.0871, 0.1937, 0.3421]\n");
}

// RMSprop's, Adadelta's and NAdam's state['step'] is a float32 tensor as in 2.x
// (1.13, which records the oracle, kept an int or other state), also after a state_dict round trip,
// whose load takes the tensors without copying them (the first optimizer's
// step moves too): recorded from 2.15.
TEST(TorchScripts, OptimizerStepIsATensorAsInPyTorch2) {
  EXPECT_EQ(run(R"py(import torch
import torch.nn as nn
for cls in [torch.optim.RMSprop, torch.optim.Adadelta, torch.optim.NAdam]:
    torch.manual_seed(1)
    model = nn.Linear(3, 2)
    opt = cls(model.parameters(), lr=0.01)
    x = torch.randn(5, 3)
    for _ in range(3):
        opt.zero_grad()
        model(x).pow(2).mean().backward()
        opt.step()
    st = opt.state_dict()["state"][0]
    opt2 = cls(model.parameters(), lr=0.01)
    opt2.load_state_dict(opt.state_dict())
    opt2.zero_grad()
    model(x).pow(2).mean().backward()
    opt2.step()
    print(cls.__name__, list(st.keys()), st["step"], opt2.state_dict()["state"][1]["step"],
          [round(v, 5) for v in model.bias.tolist()])
)py"),
            "RMSprop ['step', 'square_avg'] tensor(4.) tensor(4.) [0.06086, 0.06536]\n"
            "Adadelta ['step', 'square_avg', 'acc_delta'] tensor(4.) tensor(4.) [-0.11865, 0.29359]\n"
            "NAdam ['step', 'mu_product', 'exp_avg', 'exp_avg_sq'] tensor(4.) tensor(4.) [-0.0865, 0.26096]\n");
}

// Categorical samples through multinomial, whose stream follows PyTorch 2.x
// (1.13, which records the oracle, drew differently): recorded from 2.15.
TEST(TorchScripts, CategoricalSamplesMatchPyTorch2) {
  EXPECT_EQ(run(R"py(import torch
from torch.distributions import Categorical
torch.manual_seed(1)
c = Categorical(probs=torch.tensor([0.1, 0.2, 0.7]))
print(c.sample(), c.sample((5,)), Categorical(logits=torch.randn(2, 4)).sample((3,)))
)py"),
            "tensor(2) tensor([1, 2, 1, 2, 2]) tensor([[3, 3],\n        [1, 3],\n        [2, 3]])\n");
}

// nn.init.trunc_normal_ follows PyTorch 2.x's rejection sampling (1.13, which
// records the oracle, inverted the CDF): both branches, recorded from 2.15.
TEST(TorchScripts, TruncNormalMatchesPyTorch2) {
  EXPECT_EQ(run(R"py(import torch
import torch.nn as nn
torch.manual_seed(0)
w = torch.empty(3, 4)
nn.init.trunc_normal_(w, std=0.02)
print(w)
print(nn.init.trunc_normal_(torch.empty(5), mean=1.0, std=2.0, a=0.0, b=3.0))
print(nn.init.trunc_normal_(torch.empty(6), mean=0.0, std=1.0, a=2.0, b=4.0))
print(torch.rand(2))
)py"),
            "tensor([[ 0.0308, -0.0059, -0.0436,  0.0114],\n"
            "        [-0.0217, -0.0280,  0.0081,  0.0168],\n"
            "        [-0.0144, -0.0081, -0.0119,  0.0036]])\n"
            "tensor([1.7462, 2.5497, 1.3837, 1.2454, 1.5762])\n"
            "tensor([2.1017, 2.5259, 2.2199, 2.4323, 3.3846, 2.4077])\n"
            "tensor([0.6654, 0.9998])\n");
}

TEST(TorchScripts, TorchFunctionsAndSeeds) {
  EXPECT_EQ(run(R"py(import torch
torch.manual_seed(0)
a = torch.rand(2, 3)
torch.manual_seed(0)
b = torch.rand(2, 3)
print(torch.equal(a, b), torch.allclose(a, b + 1e-9), torch.is_tensor(a), torch.is_tensor(1), torch.numel(a))
print(torch.randn(2, 2).shape, torch.randint(0, 10, (3,)).dtype, torch.randint(5, (2, 2)).shape)
print(torch.cat([torch.zeros(1, 2), torch.ones(1, 2)]), torch.stack([torch.zeros(2), torch.ones(2)], dim=1))
print(torch.where(torch.tensor([True, False]), torch.tensor([1., 2.]), torch.tensor([3., 4.])))
print(torch.max(torch.tensor([1, 5, 3])), torch.max(torch.tensor([[1, 5], [7, 2]]), 1)[1], torch.maximum(torch.tensor([1, 5]), torch.tensor([3, 2])))
print(torch.sum(torch.ones(2, 3), dim=0), torch.softmax(torch.zeros(2), 0), torch.relu(torch.tensor([-1., 1.])))
f = torch.compile(lambda v: v + 1)
print(f(torch.ones(1)))
@torch.compile
def g(v):
    return v * 3
@torch.compile(mode='max-autotune')
def h(v):
    return v * 4
print(g(torch.ones(1)), h(torch.ones(1)))
print(torch.finfo(torch.float32).eps, torch.finfo(torch.float16).max, torch.iinfo(torch.int32).max)
)py"),
            R"py(True True True False 6
torch.Size([2, 2]) torch.int64 torch.Size([2, 2])
tensor([[0., 0.],
        [1., 1.]]) tensor([[0., 1.],
        [0., 1.]])
tensor([1., 4.])
tensor(5) tensor([1, 0]) tensor([3, 5])
tensor([2., 2., 2.]) tensor([0.5000, 0.5000]) tensor([0., 1.])
tensor([2.])
tensor([3.]) tensor([4.])
1.1920928955078125e-07 65504.0 2147483647
)py");
}

TEST(TorchScripts, ParameterAndRepr) {
  EXPECT_EQ(run(R"py(import torch
p = torch.nn.Parameter(torch.ones(2))
print(p)
print(isinstance(p, torch.nn.Parameter), isinstance(torch.ones(1), torch.nn.Parameter), p.requires_grad, p.is_leaf)
q = torch.nn.Parameter(torch.zeros(2), requires_grad=False)
print(q.requires_grad)
print(torch.zeros(2, dtype=torch.float64), torch.tensor([1.5], dtype=torch.float16), torch.zeros(0, 3))
print(repr(torch.float64), str(torch.int32))
)py"),
            R"py(Parameter containing:
tensor([1., 1.], requires_grad=True)
True False True True
False
tensor([0., 0.], dtype=torch.float64) tensor([1.5000], dtype=torch.float16) tensor([], size=(0, 3))
torch.float64 torch.int32
)py");
}

TEST(TorchScripts, IterationAndLen) {
  EXPECT_EQ(run(R"py(import torch
x = torch.arange(6).view(3, 2)
for row in x:
    print(row)
print(len(x), [r.tolist() for r in x], list(torch.tensor([1., 2.])))
a, b = torch.tensor([4, 5])
print(a, b, int(a) + 1, float(b))
)py"),
            R"py(tensor([0, 1])
tensor([2, 3])
tensor([4, 5])
3 [[0, 1], [2, 3], [4, 5]] [tensor(1.), tensor(2.)]
tensor(4) tensor(5) 5 5.0
)py");
}

TEST(TorchScripts, ErrorsReadLikePyTorch) {
  EXPECT_EQ(run(R"py(import torch
x = torch.ones(2, 2)
for thunk in [lambda: bool(x), lambda: x.item(), lambda: iter(torch.tensor(1.)), lambda: len(torch.tensor(1.)),
              lambda: x.foo, lambda: x + 'a', lambda: x < 'a', lambda: torch.tensor([[1, 2], [3]]),
              lambda: ~torch.tensor([1.5]), lambda: x[0, 0, 0], lambda: x.view(3), lambda: torch.zeros(2, device='cuda'),
              lambda: torch.ones(2).cuda(), lambda: torch.tensor(['a'])]:
    try:
        thunk()
        print('no error')
    except Exception as e:
        print(type(e).__name__ + ':', e)
)py"),
            R"py(RuntimeError: Boolean value of Tensor with more than one value is ambiguous
RuntimeError: a Tensor with 4 elements cannot be converted to Scalar
TypeError: iteration over a 0-d tensor
TypeError: len() of a 0-d tensor
AttributeError: 'Tensor' object has no attribute 'foo'
TypeError: unsupported operand type(s) for +: 'Tensor' and 'str'
TypeError: '<' not supported between instances of 'Tensor' and 'str'
ValueError: expected sequence of length 2 at dim 1 (got 1)
TypeError: ~ (operator.invert) is only implemented on integer and Boolean-type tensors
IndexError: too many indices for tensor of dimension 2
RuntimeError: shape '[3]' is invalid for input of size 4
AssertionError: Torch not compiled with CUDA enabled
AssertionError: Torch not compiled with CUDA enabled
ValueError: too many dimensions 'str'
)py");
}

TEST(TorchScripts, GradFnDataAndDecorators) {
  EXPECT_EQ(run(R"py(import torch
x = torch.ones(2, requires_grad=True)
y = x * 2 + 1
r = repr(y.grad_fn)
print(r.startswith('<AddBackward0 object at 0x'), y.grad_fn.name(), (x * 2).view(1, 2).sum(1).grad_fn.name(), x.grad_fn)
p = torch.zeros(3)
p.data = torch.ones(3)
print(p, p.data)
class M:
    @torch.no_grad()
    def f(self, v):
        return v * 2
    @torch.no_grad
    def g(self, v):
        return v * 3
print(M().f(x).requires_grad, M().g(x).requires_grad, torch.compiler.disable(lambda: 5)())
s = torch.Size((2, 3))
print(s, torch.Size([]), isinstance(x, torch.Tensor), type(x.shape) is not None)
import torch.nn.functional as F
l = torch.tensor([[0.2, 0.8], [0.6, 0.4], [0.3, 0.7]])
print(F.cross_entropy(l, torch.tensor([1, -100, 0]), ignore_index=-100))
print(F.softmax(torch.tensor([1., 2.]), dtype=torch.float64, dim=0))
print(x.new_tensor([1, 2]), x.new_full((2,), 7), x.square(), x.detach().norm(), torch.zeros(2, 2).squeeze(), torch.ones(3)[torch.tensor(1)])
v = torch.arange(4.)
v[1:3] += 10
print(v, v.sum().item(), v.max().item(), torch.tensor([3]).item() + 1)
)py"),
            R"py(True AddBackward0 SumBackward1 None
tensor([1., 1., 1.]) tensor([1., 1., 1.])
False False 5
torch.Size([2, 3]) torch.Size([]) True True
tensor(0.6753)
tensor([0.2689, 0.7311], dtype=torch.float64)
tensor([1., 2.]) tensor([7., 7.]) tensor([1., 1.], grad_fn=<PowBackward0>) tensor(1.4142) tensor([[0., 0.],
        [0., 0.]]) tensor(1.)
tensor([ 0., 11., 12.,  3.]) 26.0 12.0 4
)py");
}

}  // namespace
}  // namespace kiln::lang
