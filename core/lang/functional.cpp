// torch.nn.functional: PyTorch's F signatures (argument names, order and
// defaults) mapped onto the op table's aten-style schemas, plus the few
// functions composed from ops (l1_loss, one_hot, softplus, attention, ...).
#include <cmath>
#include <limits>

#include "core/autograd.h"
#include "core/dispatch.h"
#include "core/format.h"
#include "core/lang/functional_args.h"
#include "core/lang/interp.h"
#include "core/lang/objops.h"
#include "core/lang/torch_bridge.h"
#include "core/ops.h"
#include "core/ops/common.h"

namespace kiln::lang {
namespace {

using namespace fargs;

// ---- activations --------------------------------------------------------------------------------

// relu / silu / ...(input, inplace=False): `Inplace` names the in-place op when the table has one.
template <const char* Op, const char* Inplace>
Obj f_activation(Interp& in, const CallArgs& a) {
  auto b = bind(Op, a, {"input", "inplace"}, 1);
  const Tensor& x = input(b[0], Op);
  if (!flag(in, b[1], false)) return make_tensor(op(Op, {x}));
  if constexpr (Inplace[0] != '\0') {
    op(Inplace, {x});
  } else {
    // ATen's in-place kernel keeps the op's node name (SiluBackward0), where ours is a copy.
    ops::write_into_self(x, op(Op, {inplace_input(in, b[0], b[1], Op)}));
  }
  return b[0];
}
constexpr char kRelu[] = "relu", kRelu_[] = "relu_", kSilu[] = "silu", kNone[] = "";

template <const char* Op>
Obj f_unary(Interp&, const CallArgs& a) {
  auto b = bind(Op, a, {"input"}, 1);
  return make_tensor(op(Op, {input(b[0], Op)}));
}
constexpr char kSigmoid[] = "sigmoid", kTanh[] = "tanh";

Obj f_relu_(Interp&, const CallArgs& a) {
  auto b = bind("relu_", a, {"input"}, 1);
  op("relu_", {input(b[0], "relu_")});
  return b[0];
}

Obj f_gelu(Interp&, const CallArgs& a) {
  auto b = bind("gelu", a, {"input", "approximate"}, 1);
  Kwargs kw{{"approximate", Value(str_of(or_default(b[1], make_str("none")), "approximate"))}};
  return make_tensor(op("gelu", {input(b[0], "gelu")}, kw));
}

Obj f_leaky_relu(Interp& in, const CallArgs& a) {
  auto b = bind("leaky_relu", a, {"input", "negative_slope", "inplace"}, 1);
  Tensor x = inplace_input(in, b[0], b[2], "leaky_relu");
  double slope = or_default(b[1], Obj::from_float(0.01)).as_number();
  Tensor y = where(gt(x, scalar_tensor(0, DType::Int64, true)), x, mul(x, slope));
  if (!flag(in, b[2], false)) return make_tensor(ops::as_node(y, "LeakyReluBackward0"));
  Tensor self = tensor_of(b[0]);
  copy_(self, y);
  ops::as_node(self, "LeakyReluBackward1");
  return b[0];
}

// softplus(x) = log1p(exp(beta x)) / beta, linear above threshold.
Obj f_softplus(Interp&, const CallArgs& a) {
  auto b = bind("softplus", a, {"input", "beta", "threshold"}, 1);
  const Tensor& x = input(b[0], "softplus");
  double beta = or_default(b[1], Obj::from_int(1)).as_number();
  double threshold = or_default(b[2], Obj::from_int(20)).as_number();
  Tensor bx = mul(x, beta);
  // exp of the clamped value: the branch where() drops must not overflow, or its 0 * inf gradient is NaN.
  Tensor soft = div(log1p(exp(clamp(bx, std::nullopt, threshold))), scalar_tensor(beta, DType::Float64, true));
  return make_tensor(
      ops::as_node(where(gt(bx, scalar_tensor(threshold, DType::Float64, true)), x, soft), "SoftplusBackward0"));
}

// PyTorch's implicit softmax dim (deprecated, still accepted).
int64_t softmax_dim(const Obj& dim, const Tensor& x) {
  if (!dim.is_null() && !dim.is_none()) return to_value(dim).to_int();
  int64_t n = x.dim();
  return (n == 0 || n == 1 || n == 3) ? 0 : 1;
}

template <const char* Op>
Obj f_softmax(Interp&, const CallArgs& a) {
  auto b = bind(Op, a, {"input", "dim", "_stacklevel", "dtype"}, 1);
  const Tensor& x = input(b[0], Op);
  return make_tensor(op(Op, {x, softmax_dim(b[1], x), val(b[3])}));
}
constexpr char kSoftmax[] = "softmax", kLogSoftmax[] = "log_softmax";

Obj f_dropout(Interp& in, const CallArgs& a) {
  auto b = bind("dropout", a, {"input", "p", "training", "inplace"}, 1);
  Tensor x = inplace_input(in, b[0], b[3], "dropout");
  double p = or_default(b[1], Obj::from_float(0.5)).as_number();
  KILN_CHECK(p >= 0 && p <= 1, Value, "dropout probability has to be between 0 and 1, but got ", format_double(p));
  Tensor y = op("dropout", {x, p, flag(in, b[2], true)});
  if (!flag(in, b[3], false)) return make_tensor(y);
  Tensor self = tensor_of(b[0]);
  copy_(self, y);
  return b[0];
}

// ---- layers ---------------------------------------------------------------------------------------

Obj f_linear(Interp&, const CallArgs& a) {
  auto b = bind("linear", a, {"input", "weight", "bias"}, 2);
  return make_tensor(op("linear", {input(b[0], "linear"), input(b[1], "linear"), val(b[2])}));
}

Obj f_layer_norm(Interp&, const CallArgs& a) {
  auto b = bind("layer_norm", a, {"input", "normalized_shape", "weight", "bias", "eps"}, 2);
  Value eps = b[4].is_null() ? Value(1e-5) : to_value(b[4]);
  return make_tensor(op("layer_norm", {input(b[0], "layer_norm"), to_value(b[1]), val(b[2]), val(b[3]), eps}));
}

// embedding's max_norm: each row the indices select whose norm exceeds
// max_norm is scaled in place to max_norm / (norm + 1e-7) of itself, outside
// autograd, before the lookup (PyTorch's embedding_renorm_, row by row in
// ascending index order).
void renorm_rows(const Tensor& w, const Tensor& idx, double max_norm, double norm_type) {
  NoGradGuard no_grad;
  Tensor rows = invoke_multi("_unique2", {flatten(idx)})[0];
  const int64_t n = w.size(0);
  for (int64_t i = 0; i < rows.numel(); ++i) {
    int64_t r = select(rows, 0, i).item_int();
    KILN_CHECK(r >= -n && r < n, Index, "index out of range in self");
    Tensor row = select(w, 0, r);
    double norm = invoke("linalg_vector_norm", {row, norm_type}).item_double();
    if (norm > max_norm) invoke("mul_", {row, max_norm / (norm + 1e-7)});
  }
}

Obj f_embedding(Interp&, const CallArgs& a) {
  auto b = bind("embedding", a,
                {"input", "weight", "padding_idx", "max_norm", "norm_type", "scale_grad_by_freq", "sparse"}, 2);
  const Tensor& idx = input(b[0], "embedding");
  const Tensor& w = input(b[1], "embedding");
  if (!b[3].is_null() && !b[3].is_none()) {
    double norm_type = b[4].is_null() || b[4].is_none() ? 2.0 : to_value(b[4]).to_double();
    renorm_rows(w, idx, to_value(b[3]).to_double(), norm_type);
  }
  int64_t pad = -1;
  if (!b[2].is_null() && !b[2].is_none()) {
    pad = to_value(b[2]).to_int();
    int64_t n = w.size(0);
    KILN_CHECK(pad < n && pad >= -n, Assertion, "Padding_idx must be within num_embeddings");
    if (pad < 0) pad += n;
  }
  bool by_freq = !b[5].is_null() && b[5].as_bool();
  return make_tensor(op("embedding", {w, idx, pad, by_freq, false}));
}

// ---- losses -------------------------------------------------------------------------------------

Obj f_cross_entropy(Interp& in, const CallArgs& a) {
  auto b = bind("cross_entropy", a,
                {"input", "target", "weight", "size_average", "ignore_index", "reduce", "reduction",
                 "label_smoothing"},
                2);
  std::string red = reduction_of(b, 3, 5, 6, in);
  Value ignore = b[4].is_null() ? Value(int64_t(-100)) : to_value(b[4]);
  Value smoothing = b[7].is_null() ? Value(0.0) : to_value(b[7]);
  return make_tensor(op("cross_entropy", {input(b[0], "cross_entropy"), input(b[1], "cross_entropy"), val(b[2]),
                                          Value(red), ignore, smoothing}));
}

Obj f_nll_loss(Interp& in, const CallArgs& a) {
  auto b = bind("nll_loss", a, {"input", "target", "weight", "size_average", "ignore_index", "reduce", "reduction"},
                2);
  std::string red = reduction_of(b, 3, 5, 6, in);
  int64_t r = red == "none" ? 0 : red == "mean" ? 1 : 2;
  Value ignore = b[4].is_null() ? Value(int64_t(-100)) : to_value(b[4]);
  const Tensor x = input(b[0], "nll_loss"), target = input(b[1], "nll_loss");
  // F.nll_loss's own check on one unbatched sample, before the op's.
  KILN_CHECK(!(x.dim() == 1 && target.dim() == 1 && target.size(0) != 1 && !target.is_floating_point()), Value,
             "For 1D input, 1D target must have size 1, but got target size: ", target.size(0));
  return make_tensor(op("nll_loss", {x, target, val(b[2]), r, ignore}));
}

Obj f_mse_loss(Interp& in, const CallArgs& a) {
  auto b = bind("mse_loss", a, {"input", "target", "size_average", "reduce", "reduction"}, 2);
  std::string red = reduction_of(b, 2, 3, 4, in);
  return make_tensor(op("mse_loss", {input(b[0], "mse_loss"), input(b[1], "mse_loss"), Value(red)}));
}

Obj f_l1_loss(Interp& in, const CallArgs& a) {
  auto b = bind("l1_loss", a, {"input", "target", "size_average", "reduce", "reduction"}, 2);
  std::string red = reduction_of(b, 2, 3, 4, in);
  return make_tensor(reduce(abs(sub(input(b[0], "l1_loss"), input(b[1], "l1_loss"))), red));
}

// ---- other ----------------------------------------------------------------------------------------

Obj f_one_hot(Interp&, const CallArgs& a) {
  auto b = bind("one_hot", a, {"tensor", "num_classes"}, 1);
  const Tensor& t = input(b[0], "one_hot");
  KILN_CHECK(t.dtype() == DType::Int64, Runtime, "one_hot is only applicable to index tensor of type LongTensor.");
  int64_t n = b[1].is_null() ? -1 : to_value(b[1]).to_int();
  if (n == -1) n = t.numel() == 0 ? 0 : max(t).item_int() + 1;
  if (t.numel() > 0) {
    KILN_CHECK(min(t).item_int() >= 0, Runtime, "Class values must be non-negative.");
    KILN_CHECK(max(t).item_int() < n, Runtime, "Class values must be smaller than num_classes.");
  }
  Tensor classes = arange(0, double(n), 1, DType::Int64);
  return make_tensor(to_dtype(eq(unsqueeze(t, -1), classes), DType::Int64));
}

Obj f_normalize(Interp&, const CallArgs& a) {
  auto b = bind("normalize", a, {"input", "p", "dim", "eps", "out"}, 1);
  const Tensor& x = input(b[0], "normalize");
  double p = b[1].is_null() ? 2.0 : b[1].as_number();
  int64_t dim = b[2].is_null() ? 1 : to_value(b[2]).to_int();
  double eps = or_default(b[3], Obj::from_float(1e-12)).as_number();
  Tensor norm = p == 2 ? sqrt(sum(mul(x, x), Shape{dim}, true))
                       : op("linalg_vector_norm", {x, p, Value(Shape{dim}), true});
  return make_tensor(div(x, clamp(norm, eps, std::nullopt)));
}

// Grouped-query attention: each key/value head serves q_heads / kv_heads
// query heads, so it is repeated in place (repeat_interleave on dim -3).
Tensor repeat_heads(const Tensor& kv, int64_t q_heads) {
  if (kv.dim() < 3) return kv;
  int64_t heads = kv.size(-3);
  KILN_CHECK(heads > 0 && q_heads % heads == 0, Runtime,
             "Number of heads in key and value must divide the number of heads in query");
  if (heads == q_heads) return kv;
  Shape grouped = kv.sizes(), expanded = kv.sizes();
  int64_t d = kv.dim() - 3;
  grouped.insert(grouped.begin() + d + 1, int64_t(1));
  expanded.insert(expanded.begin() + d + 1, q_heads / heads);
  Shape merged = kv.sizes();
  merged[size_t(d)] = q_heads;
  return reshape(expand(reshape(kv, grouped), expanded), merged);
}

// softmax(q kᵀ · scale + mask) v, with PyTorch's causal and boolean-mask rules.
Obj f_sdpa(Interp& in, const CallArgs& a) {
  auto b = bind("scaled_dot_product_attention", a,
                {"query", "key", "value", "attn_mask", "dropout_p", "is_causal", "scale", "enable_gqa"}, 3);
  const char* fn = "scaled_dot_product_attention";
  const Tensor& q = input(b[0], fn);
  Tensor k = input(b[1], fn), v = input(b[2], fn);
  KILN_CHECK(q.dtype() == k.dtype() && q.dtype() == v.dtype(), Runtime,
             "Expected query, key, and value to have the same dtype, but got query.dtype: ",
             dtype_cpp_name(q.dtype()), " key.dtype: ", dtype_cpp_name(k.dtype()),
             " and value.dtype: ", dtype_cpp_name(v.dtype()), " instead.");
  bool has_mask = !b[3].is_null() && !b[3].is_none();
  KILN_CHECK(!(has_mask && flag(in, b[5], false)), Runtime,
             "_scaled_dot_product_attention: Explicit attn_mask should not be set when is_causal=True");
  if (flag(in, b[7], false) && q.dim() >= 3) {
    k = repeat_heads(k, q.size(-3));
    v = repeat_heads(v, q.size(-3));
  }
  int64_t L = q.size(-2), S = k.size(-2);
  double scale = b[6].is_null() || b[6].is_none() ? 1.0 / std::sqrt(double(q.size(-1))) : b[6].as_number();
  Tensor attn = mul(matmul(q, transpose(k, -2, -1)), scale);
  Tensor neg_inf = scalar_tensor(-std::numeric_limits<double>::infinity(), DType::Float64, true);
  if (flag(in, b[5], false)) {
    Tensor keep = tril(ones(Shape{L, S}, DType::Bool));
    attn = masked_fill(attn, logical_not(keep), neg_inf);
  }
  if (has_mask) {
    const Tensor& mask = input(b[3], fn);
    attn = mask.dtype() == DType::Bool ? masked_fill(attn, logical_not(mask), neg_inf) : add(attn, mask);
  }
  if (has_mask || flag(in, b[5], false)) {
    // PyTorch's _safe_softmax: a row every key is masked out of attends to
    // nothing (zeros, not NaN). Its logits are replaced before the softmax
    // too, so no NaN reaches the gradient either.
    Tensor masked_rows = all(eq(attn, neg_inf), Shape{-1}, true);
    Tensor zero = scalar_tensor(0.0, attn.dtype(), true);
    attn = where(masked_rows, zero, softmax(where(masked_rows, zero, attn), -1));
  } else {
    attn = softmax(attn, -1);
  }
  double p = or_default(b[4], Obj::from_float(0)).as_number();
  if (p > 0) attn = dropout(attn, p, true);
  // PyTorch's CPU kernel is flash attention on 4-d inputs, which 3-d ones are unsqueezed to.
  const char* node = q.dim() == 4 ? "ScaledDotProductFlashAttentionForCpuBackward0"
                     : q.dim() == 3 ? "SqueezeBackward1"
                                    : nullptr;
  Tensor out = matmul(attn, v);
  return make_tensor(node ? ops::as_node(out, node) : out);
}

}  // namespace

void register_conv_functional(ModuleObj& f);  // functional_conv.cpp

Obj make_functional_module(Interp&) {
  Obj m = make<ModuleObj>("torch.nn.functional");
  ModuleObj& f = *m.as<ModuleObj>();
  const std::pair<const char*, NativeFn> fns[] = {
      {"relu", f_activation<kRelu, kRelu_>}, {"relu_", f_relu_}, {"silu", f_activation<kSilu, kNone>},
      {"sigmoid", f_unary<kSigmoid>}, {"tanh", f_unary<kTanh>}, {"gelu", f_gelu}, {"leaky_relu", f_leaky_relu},
      {"softplus", f_softplus}, {"softmax", f_softmax<kSoftmax>}, {"log_softmax", f_softmax<kLogSoftmax>},
      {"dropout", f_dropout}, {"linear", f_linear}, {"layer_norm", f_layer_norm}, {"embedding", f_embedding},
      {"cross_entropy", f_cross_entropy}, {"nll_loss", f_nll_loss}, {"mse_loss", f_mse_loss},
      {"l1_loss", f_l1_loss}, {"one_hot", f_one_hot}, {"normalize", f_normalize},
      {"scaled_dot_product_attention", f_sdpa}};
  for (const auto& [name, fn] : fns) f.attrs.set(name, make_builtin(name, fn));
  add_activation_functions(f);
  add_loss_functions(f);
  register_conv_functional(f);
  return m;
}

}  // namespace kiln::lang
