// Reads and fills at index positions, written as composites: take (of the
// flattened tensor), take_along_dim (gather after broadcasting) and index_fill
// (a masked_fill whose mask marks the indexed positions along dim).
#include "core/device.h"
#include "core/ops/common.h"

namespace kiln {
namespace ops {
namespace {

// An index tensor's values on the host, for the range checks PyTorch's kernels make.
std::vector<int64_t> host_indices(const Tensor& idx) {
  std::vector<double> v = to_double_vector(copy_to_device(idx, Device{}));
  return std::vector<int64_t>(v.begin(), v.end());
}

// Negative indices in [-n, 0) counted from the end.
Tensor wrap_negative(const Tensor& idx, int64_t n) {
  return remainder(idx, scalar_tensor(double(n), DType::Int64, true));
}

// take(Tensor self, Tensor index): self's flattened elements at index, in index's shape.
std::vector<Tensor> take_composite(const Args& a) {
  const Tensor &self = a[0].tensor(), &idx = a[1].tensor();
  KILN_CHECK(idx.dtype() == DType::Int64, Runtime, "take(): Expected a long tensor for index, but got ",
             dtype_legacy_name(idx.dtype()));
  int64_t n = self.numel();
  for (int64_t i : host_indices(idx))
    KILN_CHECK(i >= -n && i < n, Index, "out of range: tried to access index ", i, " on a tensor of ", n,
               " elements.");
  Tensor flat = reshape(self, {-1});
  if (idx.numel() == 0) return {reshape(narrow(flat, 0, 0, 0), idx.sizes())};
  return {reshape(index_select(flat, 0, flatten(wrap_negative(idx, n))), idx.sizes())};
}

// take_along_dim(Tensor self, Tensor indices, int? dim=None): gather, each of
// self and indices broadcast to the other's sizes outside dim.
std::vector<Tensor> take_along_dim_composite(const Args& a) {
  const Tensor &self = a[0].tensor(), &idx = a[1].tensor();
  if (a[2].is_none()) return {gather(reshape(self, {-1}), 0, reshape(idx, {-1}))};
  KILN_CHECK(self.dim() == idx.dim(), Runtime,
             "torch.take_along_dim(): input and indices should have the same number of dimensions, but got ",
             self.dim(), " dimensions for input, and ", idx.dim(), " dimensions for indices");
  KILN_CHECK(idx.dtype() == DType::Int64, Runtime, "torch.take_along_dim(): dtype of indices should be Long but got ",
             dtype_legacy_name(idx.dtype()));
  int64_t d = wrap_dim(a[2].to_int(), self.dim());
  if (self.dim() == 0) return {gather(self, d, idx)};
  Shape self_at = self.sizes(), idx_at = idx.sizes();
  self_at[size_t(d)] = idx.size(d);
  idx_at[size_t(d)] = self.size(d);
  return {gather(expand(self, broadcast_shapes(idx_at, self.sizes())), d,
                 expand(idx, broadcast_shapes(self_at, idx.sizes())))};
}

// index_fill: positions i along dim with i in index (negatives from the end) take value.
Tensor index_fill_mask(const Tensor& self, int64_t dim, const Tensor& idx) {
  KILN_CHECK(idx.dtype() == DType::Int64, Index, "index_fill_(): Expected dtype int64 for index.");
  KILN_CHECK(idx.dim() <= 1, Index, "index_fill_(): Index is supposed to be a vector");
  int64_t d = wrap_dim(dim, self.dim());
  int64_t n = self.dim() == 0 ? 1 : self.size(d);
  for (int64_t i : host_indices(idx))
    KILN_CHECK(i >= -n && i < n, Index, "index ", i, " is out of bounds for dimension ", d, " with size ", n);
  Tensor positions = reshape(arange(0, double(n), 1, DType::Int64), {n, 1});
  Tensor hit = any(eq(positions, reshape(idx.numel() ? wrap_negative(idx, n) : idx, {1, -1})), Shape{1});
  Shape along(size_t(self.dim()), 1);
  if (self.dim() > 0) along[size_t(d)] = n;
  return reshape(hit, along);
}
std::vector<Tensor> index_fill_scalar_composite(const Args& a) {
  const Tensor& self = a[0].tensor();
  return {invoke("masked_fill.Scalar", {self, index_fill_mask(self, a[1].to_int(), a[2].tensor()), a[3]})};
}
std::vector<Tensor> index_fill_tensor_composite(const Args& a) {
  const Tensor &self = a[0].tensor(), &value = a[3].tensor();
  KILN_CHECK(value.dim() == 0, Runtime,
             "index_fill_ only supports a 0-dimensional value tensor, but got tensor with ", value.dim(),
             " dimension(s).");
  return {masked_fill(self, index_fill_mask(self, a[1].to_int(), a[2].tensor()), value)};
}

}  // namespace
}  // namespace ops

void register_take_ops(OpTable& t) {
  using namespace ops;
  constexpr OpKind C = OpKind::Composite;
  t.add({.schema_text = "take(Tensor self, Tensor index) -> Tensor", .kind = C, .composite = take_composite,
         .grad_node = "TakeBackward0"});
  t.add({.schema_text = "take_along_dim(Tensor self, Tensor indices, int? dim=None) -> Tensor", .kind = C,
         .composite = take_along_dim_composite});
  // The Tensor overloads first, as masked_fill's (a 0-dim value keeps its autograd history).
  t.add({.schema_text = "index_fill.int_Tensor(Tensor self, int dim, Tensor index, Tensor value) -> Tensor",
         .kind = C, .composite = index_fill_tensor_composite, .grad_node = "IndexFillBackward1"});
  t.add({.schema_text = "index_fill.int_Scalar(Tensor self, int dim, Tensor index, Scalar value) -> Tensor",
         .kind = C, .composite = index_fill_scalar_composite, .grad_node = "IndexFillBackward0"});
  t.add({.schema_text = "index_fill_.int_Tensor(Tensor self, int dim, Tensor index, Tensor value) -> Tensor",
         .kind = C, .composite = write_back_composite<index_fill_tensor_composite>});
  t.add({.schema_text = "index_fill_.int_Scalar(Tensor self, int dim, Tensor index, Scalar value) -> Tensor",
         .kind = C, .composite = write_back_composite<index_fill_scalar_composite>});
}

}  // namespace kiln
