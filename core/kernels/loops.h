// Elementwise loops shared by every eager pointwise kernel: broadcasting by
// zero strides, dimension coalescing, a unit-stride fast path the compiler
// vectorises, and parallel chunks over the flattened index space.
#pragma once

#include <array>
#include <cstdint>

#include "core/tensor.h"
#include "core/thread_pool.h"

namespace kiln::kernels {

// Elements per parallel chunk: below this a loop runs on the calling thread.
constexpr int64_t kGrain = 32768;

// Strides (in elements) of `t` viewed at shape `out` by broadcasting.
Shape broadcast_strides(const Tensor& t, const Shape& out);

// N operands sharing one iteration shape; operand 0 is the output.
template <size_t N>
struct Iter {
  Shape sizes;
  std::array<Shape, N> strides;  // elements
  std::array<char*, N> base;
  std::array<int64_t, N> elem;   // element sizes in bytes

  // Merges dims that are contiguous with each other in every operand.
  void coalesce() {
    Shape s;
    std::array<Shape, N> st;
    for (size_t d = 0; d < sizes.size(); ++d) {
      if (sizes[d] == 1) continue;
      bool merge = !s.empty();
      for (size_t k = 0; merge && k < N; ++k) merge = st[k].back() == strides[k][d] * sizes[d];
      if (merge) {
        s.back() *= sizes[d];
        for (size_t k = 0; k < N; ++k) st[k].back() = strides[k][d];
      } else {
        s.push_back(sizes[d]);
        for (size_t k = 0; k < N; ++k) st[k].push_back(strides[k][d]);
      }
    }
    if (s.empty()) {
      s.push_back(1);
      for (size_t k = 0; k < N; ++k) st[k].push_back(0);
    }
    sizes = std::move(s);
    strides = std::move(st);
  }

  // Calls run(ptrs, inner_strides_in_elements, count) over linear range [begin, end).
  // Offsets advance with the index (a carry rewinds a dim and steps the next
  // one out) instead of being recomputed from every dim per run: a run can be
  // as short as one head's 64 elements (a transposed attention gradient).
  template <class Run>
  void for_range(int64_t begin, int64_t end, const Run& run) const {
    const int nd = int(sizes.size());
    const int64_t inner = sizes[nd - 1];
    Shape idx(nd, 0);
    int64_t rem = begin;
    for (int d = nd - 1; d >= 0; --d) {
      idx[d] = rem % sizes[d];
      rem /= sizes[d];
    }
    std::array<int64_t, N> off{}, inner_st;
    for (size_t k = 0; k < N; ++k) {
      for (int d = 0; d < nd; ++d) off[k] += idx[d] * strides[k][d];
      inner_st[k] = strides[k][nd - 1];
    }
    for (int64_t pos = begin; pos < end;) {
      const int64_t count = std::min(inner - idx[nd - 1], end - pos);
      std::array<char*, N> p;
      for (size_t k = 0; k < N; ++k) p[k] = base[k] + off[k] * elem[k];
      run(p, inner_st, count);
      pos += count;
      idx[nd - 1] += count;
      for (size_t k = 0; k < N; ++k) off[k] += count * inner_st[k];
      for (int d = nd - 1; d > 0 && idx[d] == sizes[d]; --d) {
        idx[d] = 0;
        ++idx[d - 1];
        for (size_t k = 0; k < N; ++k) off[k] += strides[k][d - 1] - sizes[d] * strides[k][d];
      }
    }
  }
};

// Fast path: out and every input contiguous with out's shape, or (binary
// ops) one side a single element. Returns false when the general strided
// loop is needed. These loops are plain enough for the compiler to vectorise.
template <class Out, class In, size_t NIn, class F>
bool pointwise_flat(const Tensor& out, const std::array<Tensor, NIn>& ins, const F& f) {
  using C = compute_t<In>;
  if (!out.is_contiguous()) return false;
  int64_t n = out.numel();
  Out* o = out.data<Out>();
  std::array<const In*, NIn> in;
  bool same = true;
  for (size_t k = 0; k < NIn; ++k) {
    in[k] = ins[k].template data<In>();
    same = same && ins[k].is_contiguous() && ins[k].sizes() == out.sizes();
  }
  if (same) {
    parallel_for(0, n, kGrain, [&](int64_t b, int64_t e) {
      const F fn = f;  // a local copy: the stores to o cannot change it, so its fields stay in registers
      [&]<size_t... K>(std::index_sequence<K...>) {
        for (int64_t i = b; i < e; ++i) o[i] = static_cast<Out>(fn(C(in[K][i])...));
      }(std::make_index_sequence<NIn>{});
    });
    return true;
  }
  if constexpr (NIn == 2) {
    bool s0 = ins[0].numel() == 1, s1 = ins[1].numel() == 1;
    if (s1 && ins[0].is_contiguous() && ins[0].sizes() == out.sizes()) {
      C y = C(in[1][0]);
      parallel_for(0, n, kGrain, [&](int64_t b, int64_t e) {
        const F fn = f;
        for (int64_t i = b; i < e; ++i) o[i] = static_cast<Out>(fn(C(in[0][i]), y));
      });
      return true;
    }
    if (s0 && ins[1].is_contiguous() && ins[1].sizes() == out.sizes()) {
      C x = C(in[0][0]);
      parallel_for(0, n, kGrain, [&](int64_t b, int64_t e) {
        const F fn = f;
        for (int64_t i = b; i < e; ++i) o[i] = static_cast<Out>(fn(x, C(in[1][i])));
      });
      return true;
    }
  }
  return false;
}

// out[i] = f(in0[i], in1[i], ...). Every input must already have storage type
// In; out has storage type Out; f computes in compute_t<In>.
template <class Out, class In, size_t NIn, class F>
void pointwise_loop(const Tensor& out, const std::array<Tensor, NIn>& ins, const F& f) {
  constexpr size_t N = NIn + 1;
  using C = compute_t<In>;
  if (out.numel() == 0 || pointwise_flat<Out, In>(out, ins, f)) return;
  Iter<N> it;
  it.sizes = out.sizes();
  it.strides[0] = out.strides();
  it.base[0] = static_cast<char*>(out.raw_data());
  it.elem[0] = sizeof(Out);
  for (size_t k = 0; k < NIn; ++k) {
    it.strides[k + 1] = broadcast_strides(ins[k], out.sizes());
    it.base[k + 1] = static_cast<char*>(ins[k].raw_data());
    it.elem[k + 1] = sizeof(In);
  }
  it.coalesce();
  int64_t n = out.numel();
  if (n == 0) return;
  parallel_for(0, n, kGrain, [&](int64_t b, int64_t e) {
    const F fn = f;
    it.for_range(b, e, [&](const std::array<char*, N>& p, const std::array<int64_t, N>& st, int64_t cnt) {
      Out* o = reinterpret_cast<Out*>(p[0]);
      std::array<const In*, NIn> in;
      bool unit = st[0] == 1;
      for (size_t k = 0; k < NIn; ++k) {
        in[k] = reinterpret_cast<const In*>(p[k + 1]);
        unit = unit && st[k + 1] == 1;
      }
      auto at = [&](int64_t i, auto... k) { return fn(C(in[k][i * st[k + 1]])...); };
      auto at_unit = [&](int64_t i, auto... k) { return fn(C(in[k][i])...); };
      [&]<size_t... K>(std::index_sequence<K...>) {
        if (unit) {
          for (int64_t i = 0; i < cnt; ++i) o[i] = static_cast<Out>(at_unit(i, K...));
        } else {
          for (int64_t i = 0; i < cnt; ++i) o[i * st[0]] = static_cast<Out>(at(i, K...));
        }
      }(std::make_index_sequence<NIn>{});
    });
  });
}

}  // namespace kiln::kernels
