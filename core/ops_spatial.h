// Typed C++ wrappers of the convolution, pooling, normalization and padding
// ops (core/ops/conv.cpp, pool.cpp, norm.cpp), like core/ops.h's.
#pragma once

#include "core/ops.h"

namespace kiln {

// stride/padding/dilation: one value for every spatial dim, or one per dim.
Tensor conv2d(const Tensor& x, const Tensor& w, const Tensor& b = {}, const Shape& stride = {1},
              const Shape& padding = {0}, const Shape& dilation = {1}, int64_t groups = 1);
Tensor conv1d(const Tensor& x, const Tensor& w, const Tensor& b = {}, const Shape& stride = {1},
              const Shape& padding = {0}, const Shape& dilation = {1}, int64_t groups = 1);
// pad: (left, right) pairs from the last dim backwards; negative pads crop.
Tensor constant_pad_nd(const Tensor& x, const Shape& pad, double value = 0);
// {output, indices}; stride {} means kernel_size.
std::vector<Tensor> max_pool2d_with_indices(const Tensor& x, const Shape& kernel_size, const Shape& stride = {},
                                            const Shape& padding = {0}, const Shape& dilation = {1},
                                            bool ceil_mode = false);
Tensor avg_pool2d(const Tensor& x, const Shape& kernel_size, const Shape& stride = {}, const Shape& padding = {0},
                  bool ceil_mode = false, bool count_include_pad = true,
                  std::optional<int64_t> divisor_override = std::nullopt);
Tensor adaptive_avg_pool2d(const Tensor& x, const Shape& output_size);
// aten's argument order: weight, bias before the running statistics (updated in place when training).
Tensor batch_norm(const Tensor& x, const Tensor& weight, const Tensor& bias, const Tensor& running_mean,
                  const Tensor& running_var, bool training, double momentum, double eps);
Tensor group_norm(const Tensor& x, int64_t num_groups, const Tensor& weight = {}, const Tensor& bias = {},
                  double eps = 1e-5);

}  // namespace kiln
