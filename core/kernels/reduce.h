// The reduction loop shared by eager reduction kernels: one accumulator per
// output element, walked over the reduced dims with their strides; outputs
// are split across the thread pool. Two memory orders are handled: reducing
// the innermost (contiguous) dims walks each output's elements in a row, and
// reducing outer dims while the kept dims are contiguous sweeps whole rows
// into a block of accumulators, so both stay unit-stride and vectorise.
#pragma once

#include <algorithm>
#include <array>
#include <memory>
#include <vector>

#include "core/tensor.h"
#include "core/thread_pool.h"

namespace kiln::kernels {

// Which dims of `in` are reduced, with the kept dims' and reduced dims'
// sizes and strides split apart. Both lists drop size-1 dims and merge
// neighbours that are contiguous with each other, which keeps row-major
// order: output o and reduced index r still count in logical order.
struct ReducePlan {
  Shape kept_sizes, kept_strides;  // outputs, row-major over kept dims
  Shape red_sizes, red_strides;    // innermost last
  int64_t num_outputs = 1, reduced_count = 1;
};
// reduced: one flag per dim of `in` (see reduced_mask).
ReducePlan make_reduce_plan(const Tensor& in, const std::vector<bool>& reduced);
// Mask of reduced dims from an optional dim list (nullptr or empty: all);
// PyTorch's "dim appears multiple times" check.
std::vector<bool> reduced_mask(int64_t ndim, const Shape* dims);
// Output shape of a reduction.
Shape reduced_shape(const Shape& in, const std::vector<bool>& reduced, bool keepdim);

// n contiguous values folded with op in Acc, through independent partial
// results so the compiler can vectorise (the order differs from a sequential
// fold, like PyTorch's cascade sum and its vectorised prod).
template <class Acc, class In, class Op>
Acc fold_contiguous(const In* q, int64_t n, Acc init, Op op) {
  using C = compute_t<In>;
  constexpr int kLanes = 16;
  std::array<Acc, kLanes> part;
  part.fill(init);
  int64_t i = 0;
  for (; i + kLanes <= n; i += kLanes)
    for (int j = 0; j < kLanes; ++j) part[size_t(j)] = op(part[size_t(j)], Acc(C(q[i + j])));
  Acc s = init;
  for (int j = 0; j < kLanes; ++j) s = op(s, part[size_t(j)]);
  for (; i < n; ++i) s = op(s, Acc(C(q[i])));
  return s;
}
template <class Acc, class In>
Acc sum_contiguous(const In* q, int64_t n) {
  return fold_contiguous<Acc>(q, n, Acc(0), [](Acc x, Acc y) { return Acc(x + y); });
}

namespace detail {

// Offset of linear index `lin` over (sizes, strides), row-major.
inline int64_t offset_of(int64_t lin, const Shape& sizes, const Shape& strides, int ndim) {
  int64_t off = 0;
  for (int d = ndim - 1; d >= 0; --d) {
    off += (lin % sizes[size_t(d)]) * strides[size_t(d)];
    lin /= sizes[size_t(d)];
  }
  return off;
}

// Steps a multi-index over (sizes, strides) forward by one, keeping the offset.
struct Walker {
  const Shape& sizes;
  const Shape& strides;
  Shape idx;
  int64_t off = 0;
  Walker(const Shape& s, const Shape& st) : sizes(s), strides(st), idx(s.size(), 0) {}
  void next() {
    for (int d = int(sizes.size()) - 1; d >= 0; --d) {
      off += strides[size_t(d)];
      if (++idx[size_t(d)] < sizes[size_t(d)]) return;
      off -= strides[size_t(d)] * sizes[size_t(d)];
      idx[size_t(d)] = 0;
    }
  }
};

constexpr int64_t kColumnBlock = 1024;
constexpr int64_t kLanes = 16;

// Inner reduction: each output walks its own elements, the innermost reduced
// dim as a (usually unit-stride) row. sink(o, acc) receives the raw
// accumulator; red indices start at first_index.
template <class In, class Op, class Sink>
void reduce_rows(const In* base, const ReducePlan& p, int64_t first_index, const Op& op, const Sink& sink) {
  using C = compute_t<In>;
  int nk = int(p.kept_sizes.size()), nr = int(p.red_sizes.size());
  int64_t inner = nr ? p.red_sizes[size_t(nr - 1)] : 1, inner_st = nr ? p.red_strides[size_t(nr - 1)] : 0;
  int64_t outer = inner == 0 ? 0 : p.reduced_count / inner;
  Shape outer_sizes(p.red_sizes.begin(), p.red_sizes.end() - (nr ? 1 : 0));
  Shape outer_strides(p.red_strides.begin(), p.red_strides.end() - (nr ? 1 : 0));
  int64_t grain = std::max<int64_t>(1, 32768 / std::max<int64_t>(p.reduced_count, 1));
  // Rows that are one unit-stride run each, at a fixed stride (a contiguous [N, n] reduced
  // over its last dim): no index arithmetic per output, which dominated short rows.
  if constexpr (requires(decltype(op.init()) a) { op.step_contiguous(a, base, inner, first_index); }) {
    if (nk <= 1 && nr == 1 && inner_st == 1) {
      const int64_t row_st = nk ? p.kept_strides[0] : 0;
      parallel_for(0, p.num_outputs, grain, [&](int64_t ob, int64_t oe) {
        for (int64_t o = ob; o < oe; ++o) {
          auto acc = op.init();
          op.step_contiguous(acc, base + o * row_st, inner, first_index);
          sink(o, acc);
        }
      });
      return;
    }
  }
  parallel_for(0, p.num_outputs, grain, [&](int64_t ob, int64_t oe) {
    for (int64_t o = ob; o < oe; ++o) {
      int64_t off = offset_of(o, p.kept_sizes, p.kept_strides, nk);
      auto acc = op.init();
      Walker w(outer_sizes, outer_strides);
      for (int64_t r = 0; r < outer; ++r, w.next()) {
        const In* q = base + off + w.off;
        int64_t idx0 = first_index + r * inner;
        if constexpr (requires { op.step_contiguous(acc, q, inner, idx0); }) {
          if (inner_st == 1) {
            op.step_contiguous(acc, q, inner, idx0);
            continue;
          }
        }
        if (inner_st == 1) {
          for (int64_t i = 0; i < inner; ++i) op.step(acc, C(q[i]), idx0 + i);
        } else {
          for (int64_t i = 0; i < inner; ++i) op.step(acc, C(q[i * inner_st]), idx0 + i);
        }
      }
      sink(o, acc);
    }
  });
}

// Outer reduction with a unit-stride innermost kept dim: a block of
// neighbouring outputs is accumulated together, one input row segment per
// reduced index, so loads are contiguous and the step loop vectorises.
// (A block of 1024 reads whole 4 KiB rows of float32, which the hardware
// prefetchers stream well; smaller blocks measured 2-3x slower.)
template <class In, class Op, class Sink>
void reduce_columns(const In* base, const ReducePlan& p, int64_t first_index, const Op& op, const Sink& sink) {
  using C = compute_t<In>;
  using Acc = decltype(op.init());
  constexpr int64_t kBlock = kColumnBlock;
  int nk = int(p.kept_sizes.size());
  int64_t width = p.kept_sizes[size_t(nk - 1)];
  int64_t blocks = (width + kBlock - 1) / kBlock, rows = p.num_outputs / width;
  Shape outer_sizes(p.kept_sizes.begin(), p.kept_sizes.end() - 1);
  Shape outer_strides(p.kept_strides.begin(), p.kept_strides.end() - 1);
  int64_t grain = std::max<int64_t>(1, 32768 / std::max<int64_t>(p.reduced_count * std::min(width, kBlock), 1));
  parallel_for(0, rows * blocks, grain, [&](int64_t wb, int64_t we) {
    auto acc = std::make_unique<Acc[]>(size_t(std::min(width, kBlock)));
    for (int64_t item = wb; item < we; ++item) {
      int64_t row = item / blocks, j0 = (item % blocks) * kBlock;
      int64_t n = std::min(kBlock, width - j0);
      const In* start = base + offset_of(row, outer_sizes, outer_strides, nk - 1) + j0;
      Acc* a = acc.get();
      for (int64_t j = 0; j < n; ++j) a[j] = op.init();
      Walker w(p.red_sizes, p.red_strides);
      for (int64_t r = 0; r < p.reduced_count; ++r, w.next()) {
        const In* __restrict q = start + w.off;
        Acc* __restrict ar = a;
        const int64_t idx = first_index + r;
        // Whole groups of kLanes: a trip count the compiler knows lets it
        // vectorise at -O2 (whose cost model refuses loops needing a
        // remainder), 9x faster on a float column sum.
        int64_t j = 0;
        for (; j + kLanes <= n; j += kLanes)
          for (int64_t l = 0; l < kLanes; ++l) op.step(ar[j + l], C(q[j + l]), idx);
        for (; j < n; ++j) op.step(ar[j], C(q[j]), idx);
      }
      for (int64_t j = 0; j < n; ++j) sink(row * width + j0 + j, a[j]);
    }
  });
}

// Whether reduce_columns fits the plan, and how many parallel work items it makes.
inline bool use_columns(const ReducePlan& p) {
  int nk = int(p.kept_sizes.size()), nr = int(p.red_sizes.size());
  return nk > 0 && nr > 0 && p.kept_strides[size_t(nk - 1)] == 1 && p.kept_sizes[size_t(nk - 1)] >= 4 &&
         p.red_strides[size_t(nr - 1)] != 1;
}
inline int64_t work_items(const ReducePlan& p) {
  if (!use_columns(p)) return p.num_outputs;
  int64_t width = p.kept_sizes.back();
  return p.num_outputs / width * ((width + kColumnBlock - 1) / kColumnBlock);
}

template <class In, class Op, class Sink>
void reduce_serial_or_parallel(const In* base, const ReducePlan& p, int64_t first_index, const Op& op,
                               const Sink& sink) {
  if (use_columns(p)) {
    reduce_columns<In>(base, p, first_index, op, sink);
  } else {
    reduce_rows<In>(base, p, first_index, op, sink);
  }
}

// Too few outputs to keep the pool busy (a full sum, a column sum of a
// narrow matrix): ops that can merge accumulators (combine(Acc&, const Acc&))
// get the outermost reduced dim split into chunks, reduced in parallel and
// merged in order.
template <class In, class Op, class Store>
bool reduce_split(const In* base, const ReducePlan& p, const Op& op, const Store& store) {
  using Acc = decltype(op.init());
  int64_t threads = num_threads();
  if (threads == 1 || p.red_sizes.empty() || work_items(p) >= threads || p.red_sizes[0] < 2 ||
      p.reduced_count * p.num_outputs < 8 * 32768)
    return false;
  int64_t outer = p.red_sizes[0], per_outer = p.reduced_count / outer;
  int64_t chunks = std::min(threads, outer);
  std::vector<std::vector<Acc>> partial(size_t(chunks), std::vector<Acc>(size_t(p.num_outputs)));
  parallel_for(0, chunks, 1, [&](int64_t cb, int64_t ce) {
    for (int64_t c = cb; c < ce; ++c) {
      int64_t s = int64_t(__int128(outer) * c / chunks), e = int64_t(__int128(outer) * (c + 1) / chunks);
      ReducePlan sub = p;
      sub.red_sizes[0] = e - s;
      sub.reduced_count = per_outer * (e - s);
      auto& mine = partial[size_t(c)];
      reduce_serial_or_parallel<In>(base + s * p.red_strides[0], sub, s * per_outer, op,
                                    [&](int64_t o, const Acc& a) { mine[size_t(o)] = a; });
    }
  });
  for (int64_t o = 0; o < p.num_outputs; ++o) {
    Acc acc = partial[0][size_t(o)];
    for (int64_t c = 1; c < chunks; ++c) op.combine(acc, partial[size_t(c)][size_t(o)]);
    store(o, op.finish(acc, p.reduced_count));
  }
  return true;
}

}  // namespace detail

// Op provides: Acc init() const; void step(Acc&, C value, int64_t red_index) const;
// R finish(const Acc&, int64_t count) const; optionally
// step_contiguous(Acc&, const In*, int64_t n, int64_t first_index) for a unit-stride run
// and combine(Acc& into, const Acc& later) to merge partial reductions.
// red_index counts the reduced elements in logical row-major order and is
// visited in increasing order for each output (first-index tie rules rely on it).
// store(o, R) receives output o's result, o row-major over the kept dims.
template <class In, class Op, class Store>
void reduce_each(const Tensor& in, const ReducePlan& p, const Op& op, const Store& store) {
  const In* base = in.template data<In>();
  using Acc = decltype(op.init());
  if constexpr (requires(Acc a) { op.combine(a, a); }) {
    if (detail::reduce_split<In>(base, p, op, store)) return;
  }
  detail::reduce_serial_or_parallel<In>(base, p, 0, op,
                                        [&](int64_t o, const Acc& a) { store(o, op.finish(a, p.reduced_count)); });
}

// reduce_each writing op.finish(...) to out[o]; `out` holds num_outputs elements.
template <class In, class Out, class Op>
void reduce_loop(const Tensor& in, const ReducePlan& p, Out* out, const Op& op) {
  reduce_each<In>(in, p, op, [out](int64_t o, const auto& r) { out[o] = static_cast<Out>(r); });
}

}  // namespace kiln::kernels
