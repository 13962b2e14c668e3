// Helpers shared by the LAPACK op files (lapack.cpp: inv, det, solve, qr,
// cholesky; lapack_spectral.cpp: svd, eigh, lstsq, pinv): dtype dispatch to
// float32/float64 with PyTorch's errors, shape checks, batch iteration.
#pragma once

#include <string>

#include "core/ops/common.h"

namespace kiln::ops::lapack {

// Calls f(type_tag<T>) for float32/float64, else PyTorch's errors for other dtypes.
template <class F>
void visit_lapack(DType d, const char* op, F&& f) {
  if (d == DType::Float32) return f(type_tag<float>{});
  if (d == DType::Float64) return f(type_tag<double>{});
  KILN_CHECK(is_floating(d), NotImplemented, op, ": Expected a floating point or complex tensor as input. Got ",
             dtype_legacy_name(d));
  throw Error(detail::cat(op, ": Low precision dtypes not supported. Got ", dtype_legacy_name(d)),
              ErrorKind::NotImplemented);
}
void check_float(const Tensor& t, const char* op);
void check_square(const Tensor& t, const char* op, const char* name = "A");
void check_matrix(const Tensor& t, const char* op, const char* name = "A");  // at least 2-D, float
int64_t batch_of(const Tensor& t);  // matrices in t
Shape batch_shape(const Tensor& t);
// "(Batch element 3): " before an error, as PyTorch prefixes batched failures.
std::string batch_prefix(const Tensor& t, int64_t b);
// A contiguous copy of t (the kernels factor in place).
Tensor dense_copy(const Tensor& t);
inline Tensor mT(const Tensor& t) { return transpose(t, -2, -1); }

}  // namespace kiln::ops::lapack
