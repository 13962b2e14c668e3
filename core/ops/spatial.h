// Shared by the spatial ops (core/ops/conv.cpp, pool.cpp, norm.cpp): optional
// tensor arguments, dense operands, the gradient-slot mapping, and PyTorch's
// rules for int-or-tuple window arguments. Included only by those files.
#pragma once

#include <string>

#include "core/ops/common.h"
#include "core/ops_spatial.h"

namespace kiln::ops::spatial {

// An optional Tensor argument (None, or an undefined Tensor passed from C++).
inline Tensor opt_tensor(const Value& v) { return v.is_tensor() ? v.tensor() : Tensor(); }
inline Value opt_value(const Tensor& t) { return t.defined() ? Value(t) : Value(); }

// A contiguous copy in dtype d (t itself when it already is one); kernels read these flat.
inline Tensor dense(const Tensor& t, DType d) {
  if (t.dtype() == d && t.is_contiguous()) return t;
  Tensor out = empty_tensor(t.sizes(), d);
  copy_cast(out, t);
  return out;
}

// The dtype the kernels compute in: float64 stays, every other float is float32.
inline DType compute_dtype(DType d) { return d == DType::Float64 ? d : DType::Float32; }

// Gradients in the engine's order: one per argument that holds a Tensor.
inline std::vector<Tensor> per_tensor_arg(const GradCtx& c, const std::vector<Tensor>& by_arg) {
  std::vector<Tensor> out;
  for (size_t i = 0; i < c.args.size(); ++i)
    if (c.args[i].is_tensor()) out.push_back(i < by_arg.size() ? by_arg[i] : Tensor());
  return out;
}
// Whether argument `arg` is a tensor input that wants a gradient.
inline bool need_arg(const GradCtx& c, size_t arg) {
  if (!c.args[arg].is_tensor()) return false;
  int slot = 0;
  for (size_t i = 0; i < arg; ++i) slot += c.args[i].is_tensor() ? 1 : 0;
  return c.need(slot);
}

inline std::string list_str(const Shape& s) {
  std::string out = "[";
  for (size_t i = 0; i < s.size(); ++i) out += (i ? ", " : "") + std::to_string(s[i]);
  return out + "]";
}

// An int[n] argument: one value repeats n times (PyTorch's expand_param_if_needed).
inline Shape expand_param(const Shape& v, size_t n, const char* name) {
  if (v.size() == 1) return Shape(n, v[0]);
  KILN_CHECK(v.size() == n, Runtime, "expected ", name, " to be a single integer value or a list of ", n,
             " values to match the convolution dimensions, but got ", name, "=", list_str(v));
  return v;
}

}  // namespace kiln::ops::spatial
