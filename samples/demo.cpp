// A first look at Kiln's tensor core: a two-layer MLP learns a toy
// classification task with eager ops, autograd and a hand-written SGD step.
// Everything here goes through the one op table (core/op_table.h).
#include <cstdio>

#include "core/autograd.h"
#include "core/ops.h"

using namespace kiln;

int main() {
  manual_seed(0);
  // 256 points in 2-D; the class is which side of a circle they fall on.
  Tensor x = randn({256, 2});
  Tensor r2 = sum(mul(x, x), Shape{1});
  Tensor y = to_dtype(gt(r2, full({}, 1.0)), DType::Int64);

  Tensor w1 = mul(randn({16, 2}), 0.5).requires_grad_(true);
  Tensor b1 = zeros({16}).requires_grad_(true);
  Tensor w2 = mul(randn({2, 16}), 0.5).requires_grad_(true);
  Tensor b2 = zeros({2}).requires_grad_(true);
  std::vector<Tensor> params{w1, b1, w2, b2};

  for (int step = 0; step <= 200; ++step) {
    Tensor h = gelu(linear(x, w1, b1));
    Tensor logits = linear(h, w2, b2);
    Tensor loss = cross_entropy(logits, y);
    for (Tensor& p : params) p.set_grad(Tensor());
    loss.backward();
    {
      NoGradGuard no_grad;
      for (Tensor& p : params) sub_(p, p.grad(), 0.5);
    }
    if (step % 50 == 0) {
      Tensor acc = mean(to_dtype(eq(argmax(logits, 1), y), DType::Float32));
      std::printf("step %3d  loss %.4f  accuracy %.3f\n", step, loss.item_double(), acc.item_double());
    }
  }
  std::printf("b2 = %s\n", b2.str().c_str());
  return 0;
}
