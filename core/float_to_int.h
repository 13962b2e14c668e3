// Float to integer conversion with PyTorch's CPU results: a value in range
// truncates toward zero; NaN, infinities and out-of-range values give the
// most negative int64 (what x86's truncating conversion returns), then
// narrow like any integer. A plain cast would be undefined behaviour there.
#pragma once

#include <cstdint>
#include <type_traits>

namespace kiln {

template <class Out, class F>
Out float_to_int(F x) {
  static_assert(std::is_integral_v<Out> && !std::is_same_v<Out, bool>);
  constexpr double kLimit = 9223372036854775808.0;  // 2**63
  double d = double(x);
  int64_t i = d >= -kLimit && d < kLimit ? int64_t(d) : INT64_MIN;
  return static_cast<Out>(i);
}

// static_cast, except that float to integer goes through float_to_int.
template <class Out, class V>
Out convert_value(V v) {
  if constexpr (std::is_integral_v<Out> && !std::is_same_v<Out, bool> && std::is_floating_point_v<V>)
    return float_to_int<Out>(v);
  else
    return static_cast<Out>(v);
}

}  // namespace kiln
