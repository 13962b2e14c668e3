#include "core/ops/lapack_util.h"

namespace kiln::ops::lapack {

void check_float(const Tensor& t, const char* op) {
  visit_lapack(t.dtype(), op, [](auto) {});
}
void check_square(const Tensor& t, const char* op, const char* name) {
  KILN_CHECK(t.dim() >= 2, Runtime, op, ": The input tensor ", name, " must have at least 2 dimensions.");
  KILN_CHECK(t.size(-1) == t.size(-2), Runtime, op, ": ", name, " must be batches of square matrices, but they are ",
             t.size(-2), " by ", t.size(-1), " matrices");
  check_float(t, op);
}
void check_matrix(const Tensor& t, const char* op, const char* name) {
  KILN_CHECK(t.dim() >= 2, Runtime, op, ": The input tensor ", name, " must have at least 2 dimensions.");
  check_float(t, op);
}
int64_t batch_of(const Tensor& t) {
  int64_t per = t.size(-1) * t.size(-2);
  return per == 0 ? 0 : t.numel() / per;
}
Shape batch_shape(const Tensor& t) { return Shape(t.sizes().begin(), t.sizes().end() - 2); }
std::string batch_prefix(const Tensor& t, int64_t b) {
  return t.dim() > 2 ? detail::cat("(Batch element ", b, "): ") : std::string();
}
Tensor dense_copy(const Tensor& t) {
  Tensor c = empty_tensor(t.sizes(), t.dtype());
  copy_cast(c, t);
  return c;
}

}  // namespace kiln::ops::lapack
