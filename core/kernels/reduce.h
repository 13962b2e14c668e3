// The reduction loop shared by eager reduction kernels: one accumulator per
// output element, walked over the reduced dims with their strides; outputs
// are split across the thread pool.
#pragma once

#include <vector>

#include "core/tensor.h"
#include "core/thread_pool.h"

namespace kiln::kernels {

// Which dims of `in` are reduced, with the kept dims' and reduced dims'
// sizes and strides split apart (reduced dims coalesced where contiguous).
struct ReducePlan {
  Shape kept_sizes, kept_strides;  // outputs, row-major over kept dims
  Shape red_sizes, red_strides;    // innermost last
  int64_t num_outputs = 1, reduced_count = 1;
};
// dims: reduced dims (already wrapped, unique); empty means all dims.
ReducePlan make_reduce_plan(const Tensor& in, const std::vector<bool>& reduced);
// Mask of reduced dims from an optional dim list; PyTorch's "dim appears multiple times" check.
std::vector<bool> reduced_mask(int64_t ndim, const Shape* dims);
// Output shape of a reduction.
Shape reduced_shape(const Shape& in, const std::vector<bool>& reduced, bool keepdim);

// Op provides: using Acc; Acc init() const; void step(Acc&, C value, int64_t red_index) const;
// Out finish(const Acc&, int64_t count) const. `out` must be contiguous with num_outputs elements.
template <class In, class Out, class Op>
void reduce_loop(const Tensor& in, const ReducePlan& p, Out* out, const Op& op) {
  using C = compute_t<In>;
  const In* base = in.template data<In>();
  int nk = int(p.kept_sizes.size()), nr = int(p.red_sizes.size());
  int64_t inner = nr ? p.red_sizes[nr - 1] : 1, inner_st = nr ? p.red_strides[nr - 1] : 0;
  int64_t grain = std::max<int64_t>(1, 32768 / std::max<int64_t>(p.reduced_count, 1));
  parallel_for(0, p.num_outputs, grain, [&](int64_t ob, int64_t oe) {
    for (int64_t o = ob; o < oe; ++o) {
      int64_t off = 0, rem = o;
      for (int d = nk - 1; d >= 0; --d) {
        off += (rem % p.kept_sizes[d]) * p.kept_strides[d];
        rem /= p.kept_sizes[d];
      }
      auto acc = op.init();
      int64_t outer = p.reduced_count / std::max<int64_t>(inner, 1);
      for (int64_t r = 0; r < outer; ++r) {
        int64_t roff = off, rrem = r;
        for (int d = nr - 2; d >= 0; --d) {
          roff += (rrem % p.red_sizes[d]) * p.red_strides[d];
          rrem /= p.red_sizes[d];
        }
        const In* q = base + roff;
        int64_t idx0 = r * inner;
        if (inner_st == 1) {
          for (int64_t i = 0; i < inner; ++i) op.step(acc, C(q[i]), idx0 + i);
        } else {
          for (int64_t i = 0; i < inner; ++i) op.step(acc, C(q[i * inner_st]), idx0 + i);
        }
      }
      out[o] = op.finish(acc, p.reduced_count);
    }
  });
}

}  // namespace kiln::kernels
