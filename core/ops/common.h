// Building blocks for op-table entries: the shape and dtype rules most ops
// share (broadcasting, PyTorch's result_type), and the dtype-dispatching
// pointwise kernel runner. Included only by core/ops/*.cpp.
#pragma once

#include <array>
#include <initializer_list>
#include <optional>
#include <vector>

#include "core/dispatch.h"
#include "core/kernels/loops.h"
#include "core/op_table.h"
#include "core/ops.h"

namespace kiln::ops {

// ---- shapes -------------------------------------------------------------------
// PyTorch's broadcasting; errors name the mismatching dimension.
Shape broadcast_shapes(const Shape& a, const Shape& b);
// Broadcast shape of every tensor argument (lists excluded).
std::vector<Shape> shape_broadcast_args(const Args& a);
std::vector<Shape> shape_like_self(const Args& a);

// ---- dtypes -------------------------------------------------------------------
// torch.result_type over the tensor arguments: dimensioned tensors outrank
// 0-dim tensors, which outrank wrapped Python numbers, within each category.
DType result_type(std::initializer_list<Tensor> ts);
DType result_type_args(const Args& a);  // over every tensor argument
std::vector<DType> dtype_promote(const Args& a);        // result_type
std::vector<DType> dtype_promote_float(const Args& a);  // result_type, ints → float32
std::vector<DType> dtype_bool(const Args& a);
std::vector<DType> dtype_like_self(const Args& a);
inline DType to_float_type(DType d) { return is_floating(d) ? d : kDefaultFloat; }
// dtype_like_self, checking that the Scalar a[ValueArg] fits self (fill, masked_fill).
template <int ValueArg>
std::vector<DType> dtype_fill(const Args& a) {
  check_scalar_fits(a[ValueArg], a[0].tensor().dtype());
  return {a[0].tensor().dtype()};
}

// ---- kernels ------------------------------------------------------------------
// Calls f(type_tag<T>) for floating dtypes only; others raise PyTorch's
// "not implemented for 'Long'" error naming `op`.
template <class F>
void visit_floating(DType d, const char* op, F&& f) {
  switch (d) {
    case DType::Float16: return f(type_tag<Half>{});
    case DType::BFloat16: return f(type_tag<BFloat16>{});
    case DType::Float32: return f(type_tag<float>{});
    case DType::Float64: return f(type_tag<double>{});
    default:
      throw Error(detail::cat("\"", op, "\" not implemented for '", dtype_legacy_name(d), "'"),
                  ErrorKind::NotImplemented);
  }
}

// out = a @ b for 2-D matrices of one float dtype, out dense: the library call mm's kernel makes,
// for kernels that run products of their own (a recurrent layer's steps) outside dispatch.
void mm_into(const Tensor& a, const Tensor& b, const Tensor& out);

// PyTorch's name for the node that made `out` (what grad_fn=<...> prints),
// where Kiln composes the op from others: the last of them made the node.
Tensor as_node(Tensor out, const char* name);
// An in-place op composed as its functional op plus a copy into self: self's
// node keeps the functional result's name (AddmmBackward0), as ATen's does.
std::vector<Tensor> write_into_self(Tensor self, const Tensor& result);
// A result PyTorch's kernel makes fresh where Kiln composes it of views of a
// temporary (reshape's copy, an advanced index): not a view (no _base).
Tensor not_a_view(Tensor out);

// Copies src into dst (same shape after broadcasting), converting dtype.
void copy_cast(const Tensor& dst, const Tensor& src);
// src as dtype d (src itself when it already is).
Tensor cast_to(const Tensor& src, DType d);

// The standard pointwise kernel: casts inputs to compute dtype `ct`, runs the
// functor object F (templated operator() over compute types) and stores into
// out, converting to out's dtype. `floating_only` rejects int/bool compute.
template <class F, size_t NIn>
void run_pointwise(const Tensor& out, std::array<Tensor, NIn> ins, DType ct, const F& f, const char* name,
                   bool floating_only) {
  for (auto& t : ins) t = cast_to(t, ct);
  auto body = [&](auto tag) {
    using T = typename decltype(tag)::type;
    if (out.dtype() == ct) {
      kernels::pointwise_loop<T, T>(out, ins, f);
    } else if (out.dtype() == DType::Bool) {
      kernels::pointwise_loop<bool, T>(out, ins, f);
    } else {
      Tensor tmp = empty_tensor(out.sizes(), ct);
      kernels::pointwise_loop<T, T>(tmp, ins, f);
      copy_cast(out, tmp);
    }
  };
  if (floating_only) {
    visit_floating(ct, name, body);
  } else {
    visit_dtype(ct, body);
  }
}

// Bound-argument helpers.
inline std::optional<DType> opt_dtype(const Value& v) {
  return v.is_none() ? std::nullopt : std::optional<DType>(v.dtype());
}

}  // namespace kiln::ops

namespace kiln::ops {
// The op named Name on the same bound arguments: write_back_composite's F for
// an in-place op whose functional form has the same schema (index_add_, tril_).
template <const char* Name>
std::vector<Tensor> functional_of(const Args& a) {
  return dispatch(op_table().get(Name), std::vector<Value>(a.begin(), a.end()));
}
// The in-place form of a composite or non-pointwise op (index_fill_,
// scatter_): the functional result F computes, copied into self, so copy_'s
// checks (a leaf that requires grad, an overlapping view) and autograd apply.
template <CompositeFn F>
std::vector<Tensor> write_back_composite(const Args& a) {
  Tensor self = a[0].tensor();
  copy_(self, F(a).at(0));
  return {self};
}
}  // namespace kiln::ops
