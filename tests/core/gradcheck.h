// Gradient checks driven by the op table. Each op's test file registers
// sample inputs with KILN_GRAD_SAMPLE; gradcheck_test.cpp walks the table and
// fails for any differentiable op that has no sample, then compares autograd
// with central finite differences in float64 for every sample.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "core/value.h"

namespace kiln::testing {

// Positional arguments for the op (keyword-only ones by position too).
// Float64 tensors that require grad are the ones checked.
using GradSampleFn = std::function<std::vector<Value>()>;

std::map<std::string, std::vector<GradSampleFn>>& grad_samples();
bool register_grad_sample(const std::string& op, GradSampleFn fn);

// A float64 tensor with deterministic, well-spread values that requires grad.
Tensor grad_input(const Shape& shape, double lo = -1.0, double hi = 1.0, uint64_t seed = 1);
// Diagonally dominant square matrices (invertible, positive determinant), float64, requiring grad.
Tensor well_conditioned(Shape shape, uint64_t seed = 1);

#define KILN_GRAD_CAT2(a, b) a##b
#define KILN_GRAD_CAT(a, b) KILN_GRAD_CAT2(a, b)
// KILN_GRAD_SAMPLE("mul", { return {grad_input({2, 3}), grad_input({3})}; });
#define KILN_GRAD_SAMPLE(op, ...)                                                                          \
  static const bool KILN_GRAD_CAT(kiln_grad_sample_, __COUNTER__) =                                        \
      ::kiln::testing::register_grad_sample(op, []() -> std::vector<::kiln::Value> __VA_ARGS__)

}  // namespace kiln::testing
