// Tests for the fused LSTM and GRU layers (core/ops/rnn.cpp): their forward
// against the same steps written with ops, both directions, shape errors, and
// gradient samples (finite differences of every output, in both directions,
// with and without the hidden bias).
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

std::vector<Tensor> gru_by_ops(const Tensor& xg, Tensor h, const Tensor& w, const Tensor& b, bool reverse) {
  const int64_t steps = xg.size(0);
  std::vector<Tensor> outs(static_cast<size_t>(steps));
  for (int64_t s = 0; s < steps; ++s) {
    const int64_t t = reverse ? steps - 1 - s : s;
    std::vector<Tensor> hg = chunk(add(mm(h, transpose(w, 0, 1)), b), 3, 1), x = chunk(select(xg, 0, t), 3, 1);
    Tensor r = sigmoid(add(hg[0], x[0])), z = sigmoid(add(hg[1], x[1]));
    Tensor n = tanh(add(x[2], mul(hg[2], r)));
    h = add(mul(sub(h, n), z), n);
    outs[size_t(t)] = h;
  }
  return {stack(outs, 0)};
}

TEST(GruLayer, MatchesTheStepsWrittenWithOps) {
  for (bool reverse : {false, true}) {
    Tensor xg = to_dtype(grad_input({5, 3, 6}, -2, 2, 1), DType::Float32);
    Tensor h0 = to_dtype(grad_input({3, 2}, -1, 1, 2), DType::Float32);
    Tensor w = to_dtype(grad_input({6, 2}, -1, 1, 4), DType::Float32);
    Tensor b = to_dtype(grad_input({6}, -1, 1, 5), DType::Float32);
    std::vector<Tensor> fused = invoke_multi("_kiln_gru_layer", {xg, h0, w, b, reverse});
    EXPECT_LT(max(abs(sub(fused[0], gru_by_ops(xg, h0, w, b, reverse)[0]))).item_double(), 1e-6) << reverse;
  }
  EXPECT_THROW(invoke_multi("_kiln_gru_layer", {zeros({4, 2, 8}), zeros({2, 2}), zeros({6, 2}), Value(), false}),
               Error);
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

KILN_GRAD_SAMPLE("_kiln_gru_layer", {
  return {grad_input({3, 2, 6}, -2, 2, 1), grad_input({2, 2}, -1, 1, 2), grad_input({6, 2}, -1, 1, 4),
          grad_input({6}, -1, 1, 5), false};
});
KILN_GRAD_SAMPLE("_kiln_gru_layer", {
  return {grad_input({3, 1, 9}, -2, 2, 6), grad_input({1, 3}, -1, 1, 7), grad_input({9, 3}, -1, 1, 9), Value(),
          true};
});

}  // namespace
}  // namespace kiln
