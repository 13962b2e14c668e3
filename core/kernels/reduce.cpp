#include "core/kernels/reduce.h"

namespace kiln::kernels {

std::vector<bool> reduced_mask(int64_t ndim, const Shape* dims) {
  std::vector<bool> mask(size_t(ndim), dims == nullptr || dims->empty());
  if (dims == nullptr) return mask;
  for (int64_t d : *dims) {
    int64_t w = wrap_dim(d, ndim);
    if (ndim == 0) continue;
    KILN_CHECK(!mask[size_t(w)] || dims->size() <= 1, Runtime, "dim ", w,
               " appears multiple times in the list of dims");
    mask[size_t(w)] = true;
  }
  return mask;
}

Shape reduced_shape(const Shape& in, const std::vector<bool>& reduced, bool keepdim) {
  Shape out;
  for (size_t d = 0; d < in.size(); ++d) {
    if (!reduced[d]) out.push_back(in[d]);
    else if (keepdim) out.push_back(1);
  }
  return out;
}

ReducePlan make_reduce_plan(const Tensor& in, const std::vector<bool>& reduced) {
  ReducePlan p;
  for (int64_t d = 0; d < in.dim(); ++d) {
    int64_t sz = in.sizes()[size_t(d)], st = in.strides()[size_t(d)];
    if (!reduced[size_t(d)]) {
      p.kept_sizes.push_back(sz);
      p.kept_strides.push_back(st);
      p.num_outputs *= sz;
    } else {
      p.reduced_count *= sz;
      if (sz == 1) continue;
      // Merge with the previous reduced dim when contiguous with it.
      if (!p.red_sizes.empty() && p.red_strides.back() == st * sz) {
        p.red_sizes.back() *= sz;
        p.red_strides.back() = st;
      } else {
        p.red_sizes.push_back(sz);
        p.red_strides.push_back(st);
      }
    }
  }
  return p;
}

}  // namespace kiln::kernels
