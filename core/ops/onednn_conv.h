// float32 2-d and 3-d convolutions (1-d ones as height 1) through oneDNN's
// convolution primitives: forward, backward by data and by weights. oneDNN
// picks blocked layouts for its AVX-512 kernels; the tensors stay NCHW/OIHW
// (NCDHW/OIDHW) and are reordered on the way in and out, as PyTorch's CPU
// convolutions do.
// Kiln's im2col + gemm kernels (conv.cpp) stay for float64, calls from inside
// the pool, and anything oneDNN would run on its reference implementation.
#pragma once

#include <cstdint>

namespace kiln {
namespace ops {

// The depth dim of a 3-d convolution: input depth, kernel, stride, padding, dilation, output depth.
struct ConvDepth {
  int64_t D = 0, k = 1, s = 1, p = 0, d = 1, out = 1;  // D == 0: a 2-d convolution
};

// The geometry of one convolution: input [N, C, H, W], weight
// [O, C / groups, kh, kw], output [N, O, Ho, Wo], all dense (with depth:
// [N, C, D, H, W], [O, C / groups, kd, kh, kw], [N, O, Do, Ho, Wo]).
struct ConvParams {
  int64_t N, C, H, W, O, kh, kw, sh, sw, ph, pw, dh, dw, groups, Ho, Wo;
  ConvDepth depth = {};
};

// Each returns false, having written nothing, when oneDNN is switched off
// (KILN_CONV=im2col) or has no optimized kernel for the geometry.
bool onednn_conv_forward(const ConvParams& p, const float* x, const float* w, const float* bias, float* y);
bool onednn_conv_backward_data(const ConvParams& p, const float* gy, const float* w, float* gx);
// No bias gradient: conv.cpp sums it per channel on the pool, in one order
// whatever the thread count, as before oneDNN. (oneDNN 2.6 also loses 3.4 KB
// building some of these primitives: tests/lsan.supp.)
bool onednn_conv_backward_weights(const ConvParams& p, const float* gy, const float* x, float* gw);

}  // namespace ops
}  // namespace kiln
