// Planning for reduce_loop: which dims are reduced, the output shape, and the
// kept/reduced dims split apart with contiguous neighbours merged.
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

namespace {
// Appends a dim to (sizes, strides), merging it into the previous one when
// the previous dim steps exactly over this one (row-major order is kept).
void push_dim(Shape& sizes, Shape& strides, int64_t sz, int64_t st) {
  if (sz == 1) return;
  if (!sizes.empty() && sz != 0 && sizes.back() != 0 && strides.back() == st * sz) {
    sizes.back() *= sz;
    strides.back() = st;
    return;
  }
  sizes.push_back(sz);
  strides.push_back(st);
}
}  // namespace

ReducePlan make_reduce_plan(const Tensor& in, const std::vector<bool>& reduced) {
  ReducePlan p;
  for (int64_t d = 0; d < in.dim(); ++d) {
    int64_t sz = in.sizes()[size_t(d)], st = in.strides()[size_t(d)];
    if (reduced[size_t(d)]) {
      p.reduced_count *= sz;
      push_dim(p.red_sizes, p.red_strides, sz, st);
    } else {
      p.num_outputs *= sz;
      push_dim(p.kept_sizes, p.kept_strides, sz, st);
    }
  }
  return p;
}

}  // namespace kiln::kernels
