// Helpers for core tests: build tensors from literals, compare with tolerance.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "core/ops.h"

namespace kiln::testing {

inline Tensor T(std::vector<double> v, Shape shape = {}, DType d = DType::Float32) {
  if (shape.empty() && v.size() != 1) shape = {int64_t(v.size())};
  return tensor_from(v, shape, d);
}

// 0, 1, 2, ... laid out in `shape`.
inline Tensor seq(const Shape& shape, DType d = DType::Float32) {
  return reshape(arange(0, double(shape_numel(shape)), 1, d), shape);
}

// Values equal within tolerance (nan matches nan, inf matches inf), and shapes equal.
inline ::testing::AssertionResult Near(const Tensor& got, std::vector<double> want, Shape shape, double tol = 1e-5) {
  if (got.sizes() != shape)
    return ::testing::AssertionFailure() << "shape " << got.shape_str() << " != " << shape_str(shape);
  auto g = to_double_vector(got);
  for (size_t i = 0; i < want.size(); ++i) {
    bool same = g[i] == want[i] || (std::isnan(g[i]) && std::isnan(want[i]));  // equal infinities too
    if (!same && !(std::abs(g[i] - want[i]) <= tol * (1 + std::abs(want[i]))))
      return ::testing::AssertionFailure() << "element " << i << ": " << g[i] << " != " << want[i] << " in "
                                           << got.str();
  }
  return ::testing::AssertionSuccess();
}

// EXPECT_KILN_ERROR(stmt, "substring"): stmt throws kiln::Error containing substring.
#define EXPECT_KILN_ERROR(stmt, substr)                                                  \
  do {                                                                                  \
    try {                                                                               \
      stmt;                                                                             \
      ADD_FAILURE() << "expected kiln::Error containing \"" << substr << "\"";          \
    } catch (const ::kiln::Error& e) {                                                  \
      EXPECT_NE(std::string(e.what()).find(substr), std::string::npos) << e.what();     \
    }                                                                                   \
  } while (0)

}  // namespace kiln::testing
