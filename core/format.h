// Tensor printing in PyTorch's style: tensor([[1., 2.], [3., 4.]]) with its
// precision, scientific switch, summarisation and dtype suffix rules.
#pragma once

#include <string>

#include "core/tensor.h"

namespace kiln {

std::string format_tensor(const Tensor& t);
// Python's repr of a double: shortest round-trip ("0.1", "1e-05", "inf").
std::string format_double(double v);

}  // namespace kiln
