// Helpers for core tests: build tensors from literals, compare with tolerance.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "core/autograd.h"
#include "core/dispatch.h"
#include "core/op_table.h"
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

// f's gradient at x (a contiguous float64 leaf) by autograd against central differences.
template <class F>
void expect_gradient_matches_finite_differences(const Tensor& x, F f) {
  f(x).backward();
  std::vector<double> analytic = to_double_vector(x.grad());
  NoGradGuard ng;
  const double eps = 1e-6;
  for (int64_t e = 0; e < x.numel(); ++e) {
    double* p = x.data<double>() + e;
    const double orig = *p;
    *p = orig + eps;
    double hi = f(x).item_double();
    *p = orig - eps;
    double lo = f(x).item_double();
    *p = orig;
    EXPECT_NEAR(analytic[size_t(e)], (hi - lo) / (2 * eps), 1e-5) << "element " << e;
  }
}

// The op's outputs, every argument given by position (keyword-only ones
// included: dispatch binds by position), defaults filling the rest.
inline std::vector<Tensor> run_op(const char* name, std::vector<Value> args) {
  const OpDef& def = op_table().get(name);
  for (size_t i = args.size(); i < def.schema.args.size(); ++i) args.push_back(*def.schema.args[i].default_value);
  return dispatch(def, args);
}

}  // namespace kiln::testing
