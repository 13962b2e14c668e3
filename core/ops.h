// The typed C++ face of the op table, like ATen's functions: each wrapper
// binds its arguments and goes through dispatch, so autograd, the tracer and
// the observer see C++ callers (derivative formulas included) exactly as they
// see the VM. Definitions live beside their op-table entries (core/ops/*.cpp).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/value.h"

namespace kiln {

struct OpDef;

// Binds positional args to `op`'s schema and dispatches; returns output 0 / all.
Tensor invoke(const char* op, std::initializer_list<Value> args);
std::vector<Tensor> invoke_multi(const char* op, std::initializer_list<Value> args);

using OptDType = std::optional<DType>;
inline Value dtype_value(OptDType d) { return d ? Value(*d) : Value(); }

// ---- creation -----------------------------------------------------------------
Tensor zeros(const Shape& size, DType dtype = DType::Float32);
Tensor ones(const Shape& size, DType dtype = DType::Float32);
Tensor full(const Shape& size, double value, OptDType dtype = std::nullopt);
Tensor empty(const Shape& size, DType dtype = DType::Float32);
Tensor zeros_like(const Tensor& t, OptDType dtype = std::nullopt);
Tensor ones_like(const Tensor& t, OptDType dtype = std::nullopt);
Tensor full_like(const Tensor& t, double value, OptDType dtype = std::nullopt);
Tensor arange(double start, double end, double step = 1, OptDType dtype = std::nullopt);
Tensor linspace(double start, double end, int64_t steps, OptDType dtype = std::nullopt);
Tensor eye(int64_t n, std::optional<int64_t> m = std::nullopt, OptDType dtype = std::nullopt);
// c10::checked_convert: a Scalar that does not fit dtype d (an int out of its
// range, a float out of float32's, NaN for an int) raises PyTorch's "value
// cannot be converted to type uint8_t without overflow". `type` is the name the
// message gives; by default the C++ name Scalar::to<T>() uses ("uint8_t",
// "int", "float"). Unsigned types take negatives as two's complement (-1 is
// 255), as PyTorch does.
void check_scalar_fits(const Value& v, DType d, std::string_view type = {});
// torch.tensor from flat data and a shape (the VM flattens nested lists).
Tensor tensor_from(const std::vector<double>& data, const Shape& shape, DType dtype);

// ---- random -------------------------------------------------------------------
void manual_seed(uint64_t seed);
Tensor rand(const Shape& size, DType dtype = DType::Float32);
Tensor randn(const Shape& size, DType dtype = DType::Float32);
Tensor randint(int64_t low, int64_t high, const Shape& size, DType dtype = DType::Int64);
Tensor multinomial(const Tensor& probs, int64_t num_samples, bool replacement = false);
Tensor dropout(const Tensor& x, double p = 0.5, bool train = true);
uint64_t initial_seed();
Tensor rand_like(const Tensor& t, OptDType dtype = std::nullopt);
Tensor randn_like(const Tensor& t, OptDType dtype = std::nullopt);
Tensor bernoulli(const Tensor& self, double p);  // shape and dtype of self
Tensor bernoulli(const Tensor& probs);           // probabilities per element
Tensor& normal_(Tensor& self, double mean = 0, double std = 1);
Tensor& uniform_(Tensor& self, double from = 0, double to = 1);
Tensor& exponential_(Tensor& self, double lambd = 1);

// ---- pointwise ----------------------------------------------------------------
Tensor add(const Tensor& a, const Tensor& b, double alpha = 1);
Tensor sub(const Tensor& a, const Tensor& b, double alpha = 1);
Tensor mul(const Tensor& a, const Tensor& b);
Tensor div(const Tensor& a, const Tensor& b);
Tensor add(const Tensor& a, double b);
Tensor mul(const Tensor& a, double b);
Tensor floor_divide(const Tensor& a, const Tensor& b);
Tensor remainder(const Tensor& a, const Tensor& b);
Tensor neg(const Tensor& a);
Tensor abs(const Tensor& a);
Tensor exp(const Tensor& a);
Tensor log(const Tensor& a);
Tensor log1p(const Tensor& a);
Tensor sqrt(const Tensor& a);
Tensor rsqrt(const Tensor& a);
Tensor pow(const Tensor& a, const Tensor& b);
Tensor pow(const Tensor& a, double b);
Tensor sin(const Tensor& a);
Tensor cos(const Tensor& a);
Tensor tanh(const Tensor& a);
Tensor sigmoid(const Tensor& a);
Tensor relu(const Tensor& a);
Tensor gelu(const Tensor& a, const std::string& approximate = "none");
Tensor silu(const Tensor& a);
Tensor erf(const Tensor& a);
Tensor sign(const Tensor& a);
Tensor maximum(const Tensor& a, const Tensor& b);
Tensor minimum(const Tensor& a, const Tensor& b);
Tensor clamp(const Tensor& a, std::optional<double> min, std::optional<double> max);
Tensor where(const Tensor& cond, const Tensor& a, const Tensor& b);
Tensor eq(const Tensor& a, const Tensor& b);
Tensor ne(const Tensor& a, const Tensor& b);
Tensor lt(const Tensor& a, const Tensor& b);
Tensor le(const Tensor& a, const Tensor& b);
Tensor gt(const Tensor& a, const Tensor& b);
Tensor ge(const Tensor& a, const Tensor& b);
Tensor logical_not(const Tensor& a);
Tensor to_dtype(const Tensor& a, DType dtype);
Tensor clone(const Tensor& a);
// in place
Tensor& add_(Tensor& self, const Tensor& other, double alpha = 1);
Tensor& sub_(Tensor& self, const Tensor& other, double alpha = 1);
Tensor& mul_(Tensor& self, const Tensor& other);
Tensor& zero_(Tensor& self);
Tensor& fill_(Tensor& self, double value);
Tensor& copy_(Tensor& self, const Tensor& src);
// Overloads beyond the list above: Scalar ** Tensor, Tensor bounds (undefined = None).
Tensor pow(double base, const Tensor& exponent);
Tensor clamp(const Tensor& a, const Tensor& min, const Tensor& max);
Tensor gelu_backward(const Tensor& grad, const Tensor& self, const std::string& approximate = "none");
Tensor& relu_(Tensor& self);
Tensor& clamp_(Tensor& self, std::optional<double> min, std::optional<double> max);
// core/ops/pointwise_math.cpp
Tensor floor(const Tensor& a);
Tensor ceil(const Tensor& a);
Tensor trunc(const Tensor& a);
Tensor round(const Tensor& a);
Tensor reciprocal(const Tensor& a);
Tensor isnan(const Tensor& a);
Tensor isinf(const Tensor& a);
Tensor isfinite(const Tensor& a);
Tensor logical_and(const Tensor& a, const Tensor& b);
Tensor logical_or(const Tensor& a, const Tensor& b);
Tensor logical_xor(const Tensor& a, const Tensor& b);
Tensor bitwise_not(const Tensor& a);
Tensor sinh(const Tensor& a);
Tensor cosh(const Tensor& a);
Tensor exp2(const Tensor& a);
Tensor xlogy(const Tensor& a, const Tensor& b);

// ---- reductions ---------------------------------------------------------------
using Dims = std::optional<Shape>;  // nullopt: all dims
Tensor sum(const Tensor& a, Dims dim = std::nullopt, bool keepdim = false, OptDType dtype = std::nullopt);
Tensor mean(const Tensor& a, Dims dim = std::nullopt, bool keepdim = false, OptDType dtype = std::nullopt);
Tensor prod(const Tensor& a, std::optional<int64_t> dim = std::nullopt, bool keepdim = false);
Tensor amax(const Tensor& a, const Shape& dim = {}, bool keepdim = false);
Tensor amin(const Tensor& a, const Shape& dim = {}, bool keepdim = false);
Tensor max(const Tensor& a);
Tensor min(const Tensor& a);
std::pair<Tensor, Tensor> max(const Tensor& a, int64_t dim, bool keepdim = false);
std::pair<Tensor, Tensor> min(const Tensor& a, int64_t dim, bool keepdim = false);
Tensor argmax(const Tensor& a, std::optional<int64_t> dim = std::nullopt, bool keepdim = false);
Tensor argmin(const Tensor& a, std::optional<int64_t> dim = std::nullopt, bool keepdim = false);
Tensor var(const Tensor& a, Dims dim = std::nullopt, double correction = 1, bool keepdim = false);
Tensor std(const Tensor& a, Dims dim = std::nullopt, double correction = 1, bool keepdim = false);
Tensor all(const Tensor& a, Dims dim = std::nullopt, bool keepdim = false);
Tensor any(const Tensor& a, Dims dim = std::nullopt, bool keepdim = false);
Tensor logsumexp(const Tensor& a, const Shape& dim, bool keepdim = false);
Tensor softmax(const Tensor& a, int64_t dim, OptDType dtype = std::nullopt);
Tensor log_softmax(const Tensor& a, int64_t dim, OptDType dtype = std::nullopt);
// Sums a broadcast gradient back to `shape` (autograd's reduction of broadcasts).
Tensor sum_to(const Tensor& a, const Shape& shape);

// ---- shape and views ------------------------------------------------------------
Tensor reshape(const Tensor& a, const Shape& shape);
Tensor view(const Tensor& a, const Shape& shape);
Tensor transpose(const Tensor& a, int64_t d0, int64_t d1);
Tensor permute(const Tensor& a, const Shape& dims);
Tensor unsqueeze(const Tensor& a, int64_t dim);
Tensor squeeze(const Tensor& a, std::optional<Shape> dim = std::nullopt);
Tensor flatten(const Tensor& a, int64_t start_dim = 0, int64_t end_dim = -1);
Tensor expand(const Tensor& a, const Shape& size);
Tensor contiguous(const Tensor& a);
Tensor as_strided(const Tensor& a, const Shape& size, const Shape& stride, int64_t storage_offset);
Tensor narrow(const Tensor& a, int64_t dim, int64_t start, int64_t length);
Tensor slice(const Tensor& a, int64_t dim, std::optional<int64_t> start, std::optional<int64_t> end, int64_t step = 1);
Tensor select(const Tensor& a, int64_t dim, int64_t index);
Tensor cat(const std::vector<Tensor>& ts, int64_t dim = 0);
Tensor stack(const std::vector<Tensor>& ts, int64_t dim = 0);
std::vector<Tensor> split(const Tensor& a, int64_t split_size, int64_t dim = 0);
std::vector<Tensor> split_with_sizes(const Tensor& a, const Shape& sizes, int64_t dim = 0);
std::vector<Tensor> chunk(const Tensor& a, int64_t chunks, int64_t dim = 0);
Tensor masked_fill(const Tensor& a, const Tensor& mask, const Tensor& value);
Tensor tril(const Tensor& a, int64_t diagonal = 0);
Tensor triu(const Tensor& a, int64_t diagonal = 0);
bool equal(const Tensor& a, const Tensor& b);
bool allclose(const Tensor& a, const Tensor& b, double rtol = 1e-5, double atol = 1e-8, bool equal_nan = false);
Tensor t(const Tensor& a);
std::vector<Tensor> unbind(const Tensor& a, int64_t dim = 0);
Tensor masked_fill(const Tensor& a, const Tensor& mask, double value);
Tensor& masked_fill_(Tensor& self, const Tensor& mask, const Tensor& value);
Tensor& masked_fill_(Tensor& self, const Tensor& mask, double value);
// The gradient of as_strided (input geometry → view geometry) for non-overlapping memory.
Tensor as_strided_backward(const Tensor& grad, const Shape& in_sizes, const Shape& in_strides, int64_t in_offset,
                           const Shape& sizes, const Shape& strides, int64_t offset);

// ---- indexing ---------------------------------------------------------------------
// One entry of a Python subscript: t[1:, 0, None, ...].
struct TensorIndex {
  enum Kind { Int, Slice, None, Ellipsis, Tensor_ } kind = Int;
  int64_t index = 0;
  std::optional<int64_t> start, stop;
  int64_t step = 1;
  Tensor tensor;  // Kind::Tensor_: integer or bool index tensor
  static TensorIndex integer(int64_t i) { return {Int, i, {}, {}, 1, {}}; }
  static TensorIndex slice(std::optional<int64_t> a, std::optional<int64_t> b, int64_t s = 1) {
    return {Slice, 0, a, b, s, {}};
  }
  static TensorIndex none() { return {None, 0, {}, {}, 1, {}}; }
  static TensorIndex ellipsis() { return {Ellipsis, 0, {}, {}, 1, {}}; }
};
// t[indices]: basic indexing is a view (slices, ints, None, Ellipsis).
Tensor index(const Tensor& t, const std::vector<TensorIndex>& indices);
// t[indices] = value; with accumulate, t[indices] += value, repeated positions adding up
// (Tensor.index_put_(..., accumulate=True)).
void index_put(Tensor& t, const std::vector<TensorIndex>& indices, const Tensor& value, bool accumulate = false);
Tensor index_select(const Tensor& a, int64_t dim, const Tensor& index);
Tensor gather(const Tensor& a, int64_t dim, const Tensor& index);
Tensor scatter_add(const Tensor& a, int64_t dim, const Tensor& index, const Tensor& src);
Tensor index_add(const Tensor& a, int64_t dim, const Tensor& index, const Tensor& source, double alpha = 1);
Tensor index_copy(const Tensor& a, int64_t dim, const Tensor& index, const Tensor& source);
// Indices of non-zero elements, shape [n, a.dim()], int64.
Tensor nonzero(const Tensor& a);

// ---- blas -------------------------------------------------------------------------
Tensor matmul(const Tensor& a, const Tensor& b);
Tensor mm(const Tensor& a, const Tensor& b);
Tensor bmm(const Tensor& a, const Tensor& b);
Tensor linear(const Tensor& x, const Tensor& w, const Tensor& b = {});
Tensor dot(const Tensor& a, const Tensor& b);
Tensor mv(const Tensor& mat, const Tensor& vec);

// ---- nn -------------------------------------------------------------------------
Tensor layer_norm(const Tensor& x, const Shape& normalized_shape, const Tensor& w = {}, const Tensor& b = {},
                  double eps = 1e-5);
Tensor embedding(const Tensor& weight, const Tensor& indices);
Tensor cross_entropy(const Tensor& logits, const Tensor& target);
Tensor mse_loss(const Tensor& a, const Tensor& b);
// Full signatures; reduction strings are "mean", "sum" or "none", nll_loss's ints 0 none, 1 mean, 2 sum.
Tensor embedding(const Tensor& weight, const Tensor& indices, int64_t padding_idx, bool scale_grad_by_freq = false,
                 bool sparse = false);
Tensor embedding_dense_backward(const Tensor& grad, const Tensor& indices, int64_t num_weights, int64_t padding_idx,
                                bool scale_grad_by_freq);
Tensor cross_entropy(const Tensor& logits, const Tensor& target, const Tensor& weight,
                     const std::string& reduction = "mean", int64_t ignore_index = -100, double label_smoothing = 0);
Tensor mse_loss(const Tensor& a, const Tensor& b, const std::string& reduction);
Tensor nll_loss(const Tensor& logp, const Tensor& target, const Tensor& weight = {}, int64_t reduction = 1,
                int64_t ignore_index = -100);
// nll_loss_forward's derivative for self, given its total_weight output (a
// Kiln helper op: PyTorch's nll_loss_backward takes self instead of its sizes).
Tensor nll_loss_grad(const Tensor& grad, const Tensor& target, const Tensor& weight, const Shape& self_size,
                     int64_t reduction, int64_t ignore_index, const Tensor& total_weight);
// {output, mean, rstd}; mean and rstd keep the normalized dims as size 1.
std::vector<Tensor> native_layer_norm(const Tensor& x, const Shape& normalized_shape, const Tensor& w,
                                      const Tensor& b, double eps);

// Operators, as on torch.Tensor.
inline Tensor operator+(const Tensor& a, const Tensor& b) { return add(a, b); }
inline Tensor operator-(const Tensor& a, const Tensor& b) { return sub(a, b); }
inline Tensor operator*(const Tensor& a, const Tensor& b) { return mul(a, b); }
inline Tensor operator/(const Tensor& a, const Tensor& b) { return div(a, b); }
inline Tensor operator-(const Tensor& a) { return neg(a); }

}  // namespace kiln
