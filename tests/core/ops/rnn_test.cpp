// Tests for the fused LSTM layer (core/ops/rnn.cpp): its forward against the
// same steps written with ops, both directions, its shape errors, and gradient
// samples (finite differences of all three outputs, in both directions, with
// and without the hidden bias).
#include "core/ops.h"
#include "tests/core/gradcheck.h"
#include "tests/core/test_util.h"

namespace kiln {
namespace {
using testing::grad_input;

// The prelude's steps before the fused op: gates = (h @ W^T + b) + x_t.
std::vector<Tensor> lstm_by_ops(const Tensor& xg, Tensor h, Tensor c, const Tensor& w, const Tensor& b,
                                bool reverse) {
  const int64_t steps = xg.size(0);
  const size_t n = size_t(steps);
  std::vector<Tensor> outs(n), cells(n);
  for (int64_t s = 0; s < steps; ++s) {
    const int64_t t = reverse ? steps - 1 - s : s;
    Tensor g = add(add(mm(h, transpose(w, 0, 1)), b), select(xg, 0, t));
    std::vector<Tensor> q = chunk(g, 4, 1);
    c = add(mul(sigmoid(q[1]), c), mul(sigmoid(q[0]), tanh(q[2])));
    h = mul(sigmoid(q[3]), tanh(c));
    outs[size_t(t)] = h;
    cells[size_t(t)] = c;
  }
  return {stack(outs, 0), stack(cells, 0)};
}

TEST(LstmLayer, MatchesTheStepsWrittenWithOps) {
  for (bool reverse : {false, true}) {
    Tensor xg = to_dtype(grad_input({5, 3, 8}, -2, 2, 1), DType::Float32);
    Tensor h0 = to_dtype(grad_input({3, 2}, -1, 1, 2), DType::Float32);
    Tensor c0 = to_dtype(grad_input({3, 2}, -1, 1, 3), DType::Float32);
    Tensor w = to_dtype(grad_input({8, 2}, -1, 1, 4), DType::Float32);
    Tensor b = to_dtype(grad_input({8}, -1, 1, 5), DType::Float32);
    std::vector<Tensor> fused = invoke_multi("_kiln_lstm_layer", {xg, h0, c0, w, b, reverse});
    std::vector<Tensor> ref = lstm_by_ops(xg, h0, c0, w, b, reverse);
    EXPECT_LT(max(abs(sub(fused[0], ref[0]))).item_double(), 1e-6) << "reverse " << reverse;
    EXPECT_LT(max(abs(sub(fused[1], ref[1]))).item_double(), 1e-6) << "reverse " << reverse;
  }
}

TEST(LstmLayer, RefusesMismatchedShapes) {
  Tensor xg = zeros({4, 2, 8}), h = zeros({2, 2}), w = zeros({8, 2});
  EXPECT_THROW(invoke_multi("_kiln_lstm_layer", {xg, zeros({2, 3}), h, w, Value(), false}), Error);
  EXPECT_THROW(invoke_multi("_kiln_lstm_layer", {xg, h, h, zeros({8, 3}), Value(), false}), Error);
  EXPECT_THROW(invoke_multi("_kiln_lstm_layer", {zeros({4, 2, 7}), h, h, w, Value(), false}), Error);
  EXPECT_THROW(invoke_multi("_kiln_lstm_layer", {xg, h, h, w, zeros({4}), false}), Error);
}

KILN_GRAD_SAMPLE("_kiln_lstm_layer", {
  return {grad_input({3, 2, 8}, -2, 2, 1), grad_input({2, 2}, -1, 1, 2), grad_input({2, 2}, -1, 1, 3),
          grad_input({8, 2}, -1, 1, 4), grad_input({8}, -1, 1, 5), false};
});
KILN_GRAD_SAMPLE("_kiln_lstm_layer", {
  return {grad_input({3, 1, 12}, -2, 2, 6), grad_input({1, 3}, -1, 1, 7), grad_input({1, 3}, -1, 1, 8),
          grad_input({12, 3}, -1, 1, 9), Value(), true};
});

}  // namespace
}  // namespace kiln
