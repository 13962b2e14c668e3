// A first look at Kiln's tensor core: broadcasting, autograd, printing.
#include <cstdio>

#include "core/ops.h"

int main() {
  using namespace kiln;
  Tensor x = arange(0, 6, 1, DType::Float32);
  x = reshape(x, {2, 3});
  x.requires_grad_(true);
  Tensor y = sum(mul(x, x));
  y.backward();
  std::printf("x = %s\ny = %s\ndy/dx = %s\n", x.str().c_str(), y.str().c_str(), x.grad().str().c_str());
  return 0;
}
