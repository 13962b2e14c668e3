// Reductions over one or more dims (negative allowed, keepdim), plus the
// normalisations built on them (softmax, log_softmax, logsumexp).
#include <cmath>

#include "core/kernels/reduce.h"
#include "core/ops/common.h"

namespace kiln {
namespace ops {
namespace {

using kernels::reduced_mask;
using kernels::reduced_shape;

// The dim argument (int[1]? at index 1) as a mask over self's dims.
std::vector<bool> mask_of(const Args& a, int dim_arg = 1) {
  const Tensor& self = a[0].tensor();
  return reduced_mask(self.dim(), a[size_t(dim_arg)].is_none() ? nullptr : &a[size_t(dim_arg)].int_list());
}

// Reshapes a reduced gradient back to keepdim form and expands it to the input.
Tensor expand_reduced_grad(const Tensor& g, const Shape& in_sizes, const std::vector<bool>& mask) {
  return expand(reshape(g, reduced_shape(in_sizes, mask, true)), in_sizes);
}

// ---- sum / mean ----------------------------------------------------------------
// sum(Tensor self, int[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None)
std::vector<Shape> shape_reduce(const Args& a) {
  return {reduced_shape(a[0].tensor().sizes(), mask_of(a), a[2].to_bool())};
}
std::vector<DType> dtype_sum(const Args& a) {
  if (!a[3].is_none()) return {a[3].dtype()};
  DType d = a[0].tensor().dtype();
  return {is_floating(d) ? d : DType::Int64};
}
std::vector<DType> dtype_mean(const Args& a) {
  DType d = a[3].is_none() ? a[0].tensor().dtype() : a[3].dtype();
  KILN_CHECK(is_floating(d), Runtime,
             "mean(): could not infer output dtype. Input dtype must be either a floating point or complex "
             "dtype. Got: ",
             dtype_legacy_name(d));
  return {d};
}

template <class Acc, bool Mean>
struct SumOp {
  Acc init() const { return Acc(0); }
  template <class C> void step(Acc& acc, C v, int64_t) const { acc += Acc(v); }
  Acc finish(const Acc& acc, int64_t n) const { return Mean ? Acc(acc / Acc(n)) : acc; }
};

template <bool Mean>
void sum_kernel(const Args& a, std::vector<Tensor>& outs) {
  Tensor& out = outs[0];
  Tensor in = cast_to(a[0].tensor(), out.dtype());
  auto plan = kernels::make_reduce_plan(in, mask_of(a));
  visit_dtype(out.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using Acc = std::conditional_t<std::is_floating_point_v<compute_t<T>>, double, int64_t>;
    Tensor tmp = empty_tensor(out.sizes(), is_floating(out.dtype()) ? DType::Float64 : DType::Int64);
    kernels::reduce_loop<T>(in, plan, tmp.data<Acc>(), SumOp<Acc, Mean>{});
    copy_cast(out, tmp);
  });
}

std::vector<Tensor> grad_sum(const GradCtx& c) {
  return {expand_reduced_grad(c.grad(), c.in_sizes[0], reduced_mask(int64_t(c.in_sizes[0].size()),
                                                                     c.args[1].is_none() ? nullptr : &c.args[1].int_list()))};
}
std::vector<Tensor> grad_mean(const GradCtx& c) {
  const Shape& in = c.in_sizes[0];
  auto mask = reduced_mask(int64_t(in.size()), c.args[1].is_none() ? nullptr : &c.args[1].int_list());
  int64_t n = 1;
  for (size_t d = 0; d < in.size(); ++d)
    if (mask[d]) n *= in[d];
  return {div(expand_reduced_grad(c.grad(), in, mask), scalar_tensor(double(n), DType::Int64, true))};
}

}  // namespace
}  // namespace ops

void register_reduction_ops(OpTable& t) {
  using namespace ops;
  constexpr OpKind R = OpKind::Reduction;
  t.add({.schema_text = "sum(Tensor self, int[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor",
         .kind = R, .shape = shape_reduce, .dtype = dtype_sum, .kernel = sum_kernel<false>, .grad = grad_sum});
  t.add({.schema_text = "mean(Tensor self, int[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor",
         .kind = R, .shape = shape_reduce, .dtype = dtype_mean, .kernel = sum_kernel<true>, .grad = grad_mean});
}

// ---- typed wrappers ---------------------------------------------------------------
namespace {
Value dims_value(const Dims& d) { return d ? Value(*d) : Value(); }
}  // namespace
Tensor sum(const Tensor& a, Dims dim, bool keepdim, OptDType dtype) {
  return invoke("sum", {a, dims_value(dim), keepdim, dtype_value(dtype)});
}
Tensor mean(const Tensor& a, Dims dim, bool keepdim, OptDType dtype) {
  return invoke("mean", {a, dims_value(dim), keepdim, dtype_value(dtype)});
}

Tensor sum_to(const Tensor& a, const Shape& shape) {
  int64_t lead = a.dim() - int64_t(shape.size());
  KILN_CHECK(lead >= 0, Runtime, "sum_to: cannot reduce ", a.shape_str(), " to ", shape_str(shape));
  Shape dims;
  for (int64_t d = 0; d < a.dim(); ++d) {
    if (d < lead) {
      dims.push_back(d);
    } else if (shape[size_t(d - lead)] == 1 && a.sizes()[size_t(d)] != 1) {
      dims.push_back(d);
    } else {
      KILN_CHECK(shape[size_t(d - lead)] == a.sizes()[size_t(d)], Runtime, "sum_to: cannot reduce ",
                 a.shape_str(), " to ", shape_str(shape));
    }
  }
  if (dims.empty()) return a.sizes() == shape ? a : reshape(a, shape);
  return reshape(sum(a, dims, true), shape);
}

}  // namespace kiln
