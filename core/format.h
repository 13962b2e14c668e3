// Tensor printing in PyTorch's style: tensor([[1., 2.], [3., 4.]]) with its
// precision, scientific switch, summarisation and dtype suffix rules.
#pragma once

#include <string>

#include "core/tensor.h"

namespace kiln {

// torch.set_printoptions: its defaults, for every tensor printed after a change.
struct PrintOptions {
  int precision = 4;
  int64_t threshold = 1000;  // more elements than this are summarised with "..."
  int64_t edgeitems = 3;
  int64_t linewidth = 80;
  int sci_mode = -1;  // -1: chosen per tensor, 0: never, 1: always scientific
};
PrintOptions& print_options();

std::string format_tensor(const Tensor& t);
// A complex tensor's repr from its (..., 2) real view (torch.view_as_real's layout):
// tensor([1.+0.5000j]) with complex64 / complex128 as the dtype names.
std::string format_complex_tensor(const Tensor& pairs);
// Python's repr of a double: shortest round-trip ("0.1", "1e-05", "inf").
std::string format_double(double v);
// PyTorch's name of an autograd node, as grad_fn=<...> prints it ("MulBackward0").
std::string grad_fn_name(const Node& node);

}  // namespace kiln
