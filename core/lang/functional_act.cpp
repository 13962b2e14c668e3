// torch.nn.functional activations composed from ops (elu, hardtanh, glu,
// prelu, the shrinks, ...). The compositions follow ATen's formulas so the
// values agree to float rounding, and they keep the branch that where()
// drops finite, since a 0 * inf gradient through it would be NaN.
#include "core/format.h"
#include "core/lang/functional_args.h"
#include "core/lang/interp.h"
#include "core/ops/common.h"

namespace kiln::lang {
namespace {

using namespace fargs;

// A Python number as a weakly typed scalar: float32 inputs stay float32.
Tensor num(double v) { return scalar_tensor(v, DType::Float64, true); }
double number(const Obj& v, double def) { return v.is_null() ? def : v.as_number(); }

// PyTorch's autograd node names for an activation's result, out of place and
// in place (ATen's kernels are one node each; ours are compositions).
struct NodeNames {
  const char* out;
  const char* inplace;
};

// F's inplace=True: the result is written into the input, which is returned.
Obj finish(Interp& in, const Obj& self_obj, const Obj& inplace, const Tensor& y, NodeNames names) {
  if (!flag(in, inplace, false)) return make_tensor(ops::as_node(y, names.out));
  Tensor self = tensor_of(self_obj);
  copy_(self, y);
  ops::as_node(self, names.inplace);
  return self_obj;
}

Obj named(const Tensor& y, const char* node) { return make_tensor(ops::as_node(y, node)); }

// ATen's elu: x > 0 ? scale * x : alpha * scale * expm1(x * input_scale),
// with the coefficients rounded to the input's type as its kernel does.
constexpr NodeNames kElu{"EluBackward0", "EluBackward1"};  // selu's too
constexpr NodeNames kHardtanh{"HardtanhBackward0", "HardtanhBackward0"};  // relu6's too

// x == 0 gets its own linear branch: its slope is the negative side's (ATen's
// elu_backward), but its second derivative is 0, because elu's double backward
// keeps the curvature only where x < 0. Its value is x itself, signed zero kept.
Tensor elu_core(const Tensor& x_in, double alpha, double scale, double input_scale) {
  // Half and bfloat16 compute in float32 and round once, as ATen's reduced-float path.
  const bool reduced = x_in.dtype() == DType::Float16 || x_in.dtype() == DType::BFloat16;
  const Tensor x = reduced ? to_dtype(x_in, DType::Float32) : x_in;
  const bool f64 = x.dtype() == DType::Float64;
  auto typed = [&](double v) { return f64 ? v : double(float(v)); };
  const double neg_coef = f64 ? alpha * scale : double(float(alpha) * float(scale));
  Tensor below = lt(x, num(0));
  Tensor arg = mul(where(below, x, num(0)), typed(input_scale));
  // float32's expm1 through double: libmvec's float variant is off by up to 4 ulp, Sleef's by 1.
  Tensor e = f64 ? op("expm1", {arg}) : to_dtype(op("expm1", {to_dtype(arg, DType::Float64)}), DType::Float32);
  Tensor curved = mul(e, neg_coef);
  Tensor at_zero = mul(x, neg_coef * typed(input_scale));
  Tensor pos = scale == 1 ? x : mul(x, typed(scale));
  Tensor y = where(gt(x, num(0)), pos, where(below, curved, at_zero));
  return reduced ? to_dtype(y, x_in.dtype()) : y;
}

Obj f_elu(Interp& in, const CallArgs& a) {
  auto b = bind("elu", a, {"input", "alpha", "inplace"}, 1);
  return finish(in, b[0], b[2], elu_core(inplace_input(in, b[0], b[2], "elu"), number(b[1], 1.0), 1, 1), kElu);
}

Obj f_selu(Interp& in, const CallArgs& a) {
  auto b = bind("selu", a, {"input", "inplace"}, 1);
  constexpr double kAlpha = 1.6732632423543772848170429916717, kScale = 1.0507009873554804934193349852946;
  return finish(in, b[0], b[1], elu_core(inplace_input(in, b[0], b[1], "selu"), kAlpha, kScale, 1), kElu);
}

Obj f_celu(Interp& in, const CallArgs& a) {
  auto b = bind("celu", a, {"input", "alpha", "inplace"}, 1);
  double alpha = number(b[1], 1.0);
  KILN_CHECK(alpha != 0, Runtime, "ZeroDivisionError");
  return finish(in, b[0], b[2], elu_core(inplace_input(in, b[0], b[2], "celu"), alpha, 1, 1.0 / alpha),
                {"CeluBackward0", "CeluBackward1"});
}

// min_val where x <= min_val, max_val where x >= max_val: the gradient is zero at the bounds, as ATen's.
Tensor hardtanh_core(const Tensor& x, double lo, double hi) {
  return where(le(x, num(lo)), num(lo), where(ge(x, num(hi)), num(hi), x));
}

Obj f_hardtanh(Interp& in, const CallArgs& a) {
  auto b = bind("hardtanh", a, {"input", "min_val", "max_val", "inplace"}, 1);
  double lo = number(b[1], -1.0), hi = number(b[2], 1.0);
  KILN_CHECK(lo <= hi, Value, "min_val cannot be greater than max_val");
  return finish(in, b[0], b[3], hardtanh_core(inplace_input(in, b[0], b[3], "hardtanh"), lo, hi), kHardtanh);
}

Obj f_relu6(Interp& in, const CallArgs& a) {
  auto b = bind("relu6", a, {"input", "inplace"}, 1);
  return finish(in, b[0], b[1], hardtanh_core(inplace_input(in, b[0], b[1], "relu6"), 0, 6), kHardtanh);
}

Obj f_hardsigmoid(Interp& in, const CallArgs& a) {
  auto b = bind("hardsigmoid", a, {"input", "inplace"}, 1);
  Tensor x = inplace_input(in, b[0], b[1], "hardsigmoid");
  return finish(in, b[0], b[1], div(hardtanh_core(add(x, 3.0), 0, 6), num(6)),
                {"HardsigmoidBackward0", "HardsigmoidBackward0"});
}

Obj f_hardswish(Interp& in, const CallArgs& a) {
  auto b = bind("hardswish", a, {"input", "inplace"}, 1);
  Tensor x = inplace_input(in, b[0], b[1], "hardswish");
  return finish(in, b[0], b[1], div(mul(x, hardtanh_core(add(x, 3.0), 0, 6)), num(6)),
                {"HardswishBackward0", "HardswishBackward0"});
}

Obj f_softsign(Interp&, const CallArgs& a) {
  auto b = bind("softsign", a, {"input"}, 1);
  const Tensor& x = input(b[0], "softsign");
  return make_tensor(div(x, add(abs(x), 1.0)));
}

// ATen's min(x, 0) - log1p(exp(-|x|)) as its two smooth halves, x - log1p(exp(x))
// below 0 and -log1p(exp(-x)) from 0 up (the same values), so that derivatives
// of every order are right at 0 too (|x| has none there). Each half reads x
// only on its side (0 elsewhere): the dropped one stays finite.
Obj f_logsigmoid(Interp&, const CallArgs& a) {
  auto b = bind("logsigmoid", a, {"input"}, 1);
  const Tensor& x = input(b[0], "logsigmoid");
  // where(), not clamp: a NaN takes the upper half with its gradient (NaN, as ATen's).
  Tensor is_below = lt(x, num(0));
  Tensor below = where(is_below, x, num(0)), above = where(is_below, num(0), x);
  // 0 - log1p(...), not a negation: a far positive x gives ATen's 0.0, not -0.0.
  Tensor y = where(is_below, sub(below, log1p(exp(below))), sub(num(0), log1p(exp(neg(above)))));
  return named(y, "LogSigmoidBackward0");
}

Obj f_tanhshrink(Interp&, const CallArgs& a) {
  auto b = bind("tanhshrink", a, {"input"}, 1);
  const Tensor& x = input(b[0], "tanhshrink");
  return make_tensor(sub(x, tanh(x)));
}

Obj f_softshrink(Interp&, const CallArgs& a) {
  auto b = bind("softshrink", a, {"input", "lambd"}, 1);
  const Tensor& x = input(b[0], "softshrink");
  double l = number(b[1], 0.5);
  KILN_CHECK(l >= 0, Runtime, "lambda must be greater or equal to 0, but found to be ", format_double(l), ".");
  return named(where(gt(x, num(l)), sub(x, num(l)), where(lt(x, num(-l)), add(x, l), num(0))),
               "SoftshrinkBackward0");
}

Obj f_hardshrink(Interp&, const CallArgs& a) {
  auto b = bind("hardshrink", a, {"input", "lambd"}, 1);
  const Tensor& x = input(b[0], "hardshrink");
  double l = number(b[1], 0.5);
  return named(where(gt(abs(x), num(l)), x, num(0)), "HardshrinkBackward0");
}

Obj f_threshold(Interp& in, const CallArgs& a) {
  auto b = bind("threshold", a, {"input", "threshold", "value", "inplace"}, 3);
  Tensor x = inplace_input(in, b[0], b[3], "threshold");
  return finish(in, b[0], b[3], where(gt(x, num(b[1].as_number())), x, num(b[2].as_number())),
                {"ThresholdBackward0", "ThresholdBackward1"});
}

Obj f_glu(Interp&, const CallArgs& a) {
  auto b = bind("glu", a, {"input", "dim"}, 1);
  const Tensor& x = input(b[0], "glu");
  KILN_CHECK(x.dim() > 0, Runtime, "glu does not support scalars because halving size must be even");
  int64_t dim = b[1].is_null() ? -1 : to_value(b[1]).to_int();
  int64_t d = dim < 0 ? dim + x.dim() : dim;
  KILN_CHECK(d >= 0 && d < x.dim(), Index, "Dimension out of range (expected to be in range of [", -x.dim(), ", ",
             x.dim() - 1, "], but got ", dim, ")");
  KILN_CHECK(x.size(d) % 2 == 0, Runtime, "Halving dimension must be even, but dimension ", d, " is size ",
             x.size(d));
  std::vector<Tensor> halves = chunk(x, 2, d);
  return named(mul(halves[0], sigmoid(halves[1])), "GluBackward0");
}

// x * tanh(softplus(x)), softplus linear above 20 like F.softplus (tanh is 1 there in float32).
Obj f_mish(Interp& in, const CallArgs& a) {
  auto b = bind("mish", a, {"input", "inplace"}, 1);
  Tensor x = inplace_input(in, b[0], b[1], "mish");
  Tensor sp = where(gt(x, num(20)), x, log1p(exp(clamp(x, std::nullopt, 20.0))));
  return finish(in, b[0], b[1], mul(x, tanh(sp)), {"MishBackward0", "MishBackward0"});
}

// The weight applies along dim 1 (the channels); a one-element weight applies everywhere.
Obj f_prelu(Interp&, const CallArgs& a) {
  auto b = bind("prelu", a, {"input", "weight"}, 2);
  const Tensor& x = input(b[0], "prelu");
  Tensor w = input(b[1], "prelu");
  if (w.numel() != 1) {
    KILN_CHECK(x.dim() > 0, Runtime, "Not allow zero-dim input tensor.");
    int64_t channels = x.dim() >= 2 ? x.size(1) : 1;
    KILN_CHECK(w.numel() == channels, Runtime,
               "Mismatch of parameter numbers and input channel size. Found parameter numbers = ", w.numel(),
               " and channel size = ", channels, ".");
    Shape s{w.numel()};
    for (int64_t i = 2; i < x.dim(); ++i) s.push_back(1);
    w = reshape(w, s);
  } else {
    w = reshape(w, Shape{});
  }
  return make_tensor(ops::as_node(where(gt(x, num(0)), x, mul(w, x)), "PreluKernelBackward0"));
}

Obj f_softmin(Interp&, const CallArgs& a) {
  auto b = bind("softmin", a, {"input", "dim", "_stacklevel", "dtype"}, 1);
  const Tensor& x = input(b[0], "softmin");
  int64_t dim;
  if (!b[1].is_null() && !b[1].is_none()) {
    dim = to_value(b[1]).to_int();
  } else {
    int64_t n = x.dim();
    dim = (n == 0 || n == 1 || n == 3) ? 0 : 1;
  }
  return make_tensor(op("softmax", {neg(x), dim, val(b[3])}));
}

}  // namespace

void add_activation_functions(ModuleObj& f) {
  const std::pair<const char*, NativeFn> fns[] = {
      {"elu", f_elu}, {"selu", f_selu}, {"celu", f_celu}, {"hardtanh", f_hardtanh}, {"relu6", f_relu6},
      {"hardsigmoid", f_hardsigmoid}, {"hardswish", f_hardswish}, {"softsign", f_softsign},
      {"logsigmoid", f_logsigmoid}, {"tanhshrink", f_tanhshrink}, {"softshrink", f_softshrink},
      {"hardshrink", f_hardshrink}, {"threshold", f_threshold}, {"glu", f_glu}, {"mish", f_mish},
      {"prelu", f_prelu}, {"softmin", f_softmin}};
  for (const auto& [name, fn] : fns) f.attrs.set(name, make_builtin(name, fn));
}

}  // namespace kiln::lang
