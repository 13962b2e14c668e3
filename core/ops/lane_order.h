// The orders PyTorch's CPU order statistics put one lane in, as algorithms
// over (value, index) pairs compared by value alone. Which of several equal
// values lands where is part of their results (the indices), and PyTorch
// leaves it to the algorithm; the same algorithm from the same library over
// the same sequence makes the same permutation, so running these reproduces
// its ties. NaN orders above every number.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <type_traits>
#include <utility>
#include <vector>

namespace kiln::ops {

template <class C>
bool is_nan_key(C v) {
  if constexpr (std::is_floating_point_v<C>) return std::isnan(v);
  else return false;
}
template <class C>
using Keyed = std::pair<C, int64_t>;  // a lane element: its value and its index
template <class C>
bool ascending(const Keyed<C>& l, const Keyed<C>& r) {
  return (!is_nan_key(l.first) && is_nan_key(r.first)) || l.first < r.first;
}
template <class C>
bool descending(const Keyed<C>& l, const Keyed<C>& r) {
  return (is_nan_key(l.first) && !is_nan_key(r.first)) || l.first > r.first;
}

// topk: a heap (partial_sort) when k is small against the lane, else
// nth_element with the k - 1 before the k-th sorted (the k-th is in place).
template <class C>
void topk_order(std::vector<Keyed<C>>& lane, int64_t k, bool largest, bool sorted) {
  if (k == 0) return;
  auto by = largest ? descending<C> : ascending<C>;
  const auto b = lane.begin();
  if (k * 64 <= int64_t(lane.size())) {
    std::partial_sort(b, b + k, lane.end(), by);
    return;
  }
  std::nth_element(b, b + (k - 1), lane.end(), by);
  if (sorted) std::sort(b, b + (k - 1), by);
}

// kthvalue: Sedgewick's quickselect (median-of-three pivot, then a Hoare
// partition) move for move, leaving the (k+1)-th smallest at lane[k].
template <class C>
void quickselect(std::vector<Keyed<C>>& a, int64_t k) {
  auto gt = descending<C>;
  auto swap_at = [&](int64_t i, int64_t j) { std::swap(a[size_t(i)], a[size_t(j)]); };
  int64_t lo = 0, hi = int64_t(a.size()) - 1;
  while (hi > lo) {
    if (hi == lo + 1) {
      if (gt(a[size_t(lo)], a[size_t(hi)])) swap_at(lo, hi);
      return;
    }
    swap_at((lo + hi) >> 1, lo + 1);  // then a[lo + 1] <= a[lo] <= a[hi]
    if (gt(a[size_t(lo + 1)], a[size_t(hi)])) swap_at(lo + 1, hi);
    if (gt(a[size_t(lo)], a[size_t(hi)])) swap_at(lo, hi);
    if (gt(a[size_t(lo + 1)], a[size_t(lo)])) swap_at(lo + 1, lo);
    const Keyed<C> pivot = a[size_t(lo)];
    int64_t i = lo + 1, j = hi;
    for (;;) {
      do ++i;
      while (gt(pivot, a[size_t(i)]));
      do --j;
      while (gt(a[size_t(j)], pivot));
      if (j < i) break;
      swap_at(i, j);
    }
    swap_at(lo, j);
    if (j <= k) lo = i;
    if (j >= k) hi = j - 1;
  }
}

}  // namespace kiln::ops
