// Tests for convolution, pooling, normalization and padding: values from
// PyTorch 2.x (F.conv2d, F.max_pool2d, ...), output shapes over stride,
// padding, dilation and groups, PyTorch's error wording, and gradient samples.
#include <map>
#include <memory>

#include "core/autograd.h"
#include "core/ops.h"
#include "core/ops/onednn_conv.h"
#include "core/ops_spatial.h"
#include "tests/core/gradcheck.h"
#include "tests/core/test_util.h"
#include "traces/recorder.h"

namespace kiln {
namespace {
using testing::grad_input;
using testing::Near;
using testing::T;

Tensor seq(double lo, double hi, Shape s) { return reshape(arange(lo, hi), s); }

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

// ---- convolution ------------------------------------------------------------------------
TEST(Conv, GroupedPaddedValues) {
  Tensor x = seq(1, 19, {1, 2, 3, 3});
  Tensor w = T({1, 0, -1, 2, 0.5, 0.5, -1, 1}, {2, 1, 2, 2});
  Tensor y = conv2d(x, w, T({0.5, -1}), {1}, {1}, {1}, 2);
  EXPECT_TRUE(Near(y, {2.5, 3.5, 4.5, -2.5, 8.5, 7.5, 9.5, -2.5, 14.5, 13.5, 15.5, -2.5, 0.5, 7.5, 8.5, 9.5,
                       9.0, 0.0, 0.0, -13.0, 17.0, 10.5, 11.5, -10.0, 21.5, 13.5, 14.5, -11.5, 7.0, 15.5, 16.5, 8.0},
                   {1, 2, 4, 4}));
}

TEST(Conv, StrideAndDilation) {
  Tensor x = seq(1, 19, {1, 2, 3, 3});
  Tensor w = T({1, 2, 0, -1, 1, 1, 1, 1}, {1, 2, 2, 2});
  EXPECT_TRUE(Near(conv2d(x, w, {}, {1, 2}, {0}, {1, 2}), {51, 69}, {1, 1, 2, 1}));
}

TEST(Conv, OneDimensional) {
  Tensor x = seq(1, 9, {1, 2, 4});
  EXPECT_TRUE(Near(conv1d(x, T({1, -1, 2, 0.5, 0, 1}, {2, 1, 3}), {}, {2}, {1}, {1}, 2), {3, 7, 6, 11}, {1, 2, 2}));
  // padding='same' with an even kernel: the extra zero goes on the right.
  Tensor y = invoke("conv1d.padding", {x, T({1, -1, 2, 0.5}, {1, 2, 2}), Value(), Shape{1}, std::string("same")});
  EXPECT_TRUE(Near(y, {12, 14.5, 17, 20}, {1, 1, 4}));
}

TEST(Conv, Shapes) {
  for (int64_t s : {1, 2, 3})
    for (int64_t p : {0, 1, 2})
      for (int64_t d : {1, 2})
        for (int64_t g : {1, 2}) {
          Tensor y = conv2d(zeros({2, 4, 9, 8}), zeros({6, 4 / g, 3, 2}), zeros({6}), {s}, {p}, {d}, g);
          Shape want{2, 6, (9 + 2 * p - d * 2 - 1) / s + 1, (8 + 2 * p - d - 1) / s + 1};
          EXPECT_EQ(y.sizes(), want) << s << p << d << g;
        }
  EXPECT_EQ(conv2d(zeros({3, 5, 5}), zeros({2, 3, 3, 3})).sizes(), (Shape{2, 3, 3}));  // unbatched
  EXPECT_EQ(conv1d(zeros({3, 7}), zeros({2, 3, 3}), {}, {2}).sizes(), (Shape{2, 3}));
}

TEST(Conv, Errors) {
  Tensor w = zeros({8, 3, 3, 3});
  EXPECT_EQ(error_of([&] { conv2d(zeros({2, 3}), w); }),
            "Expected 3D (unbatched) or 4D (batched) input to conv2d, but got input of size: [2, 3]");
  EXPECT_EQ(error_of([&] { conv2d(zeros({2, 4, 5, 5}), w); }),
            "Given groups=1, weight of size [8, 3, 3, 3], expected input[2, 4, 5, 5] to have 3 channels, but got 4 "
            "channels instead");
  EXPECT_EQ(error_of([&] { conv2d(zeros({2, 4, 5, 5}), zeros({3, 2, 3, 3}), {}, {1}, {0}, {1}, 2); }),
            "Given groups=2, expected weight to be divisible by 2 at dimension 0, but got weight of size [[3, 2, 3, "
            "3]] instead");
  EXPECT_EQ(error_of([&] { conv2d(zeros({1, 3, 2, 2}), w); }),
            "Calculated padded input size per channel: (2 x 2). Kernel size: (3 x 3). Kernel size can't be greater "
            "than actual input size");
  EXPECT_EQ(error_of([&] { conv2d(zeros({1, 3, 5, 5}), w, zeros({3})); }),
            "Given weight of size [8, 3, 3, 3], expected bias to be 1-dimensional with 8 elements, but got bias of "
            "size [3] instead");
  EXPECT_EQ(error_of([&] { conv2d(zeros({1, 3, 5, 5}), w, {}, {0}); }), "non-positive stride is not supported");
  EXPECT_EQ(error_of([&] { invoke("conv2d.padding", {zeros({1, 3, 5, 5}), w, Value(), Shape{2}, std::string("same")}); }),
            "padding='same' is not supported for strided convolutions");
}

TEST(Conv, GradientsMatchPyTorch) {
  Tensor x = seq(1, 19, {1, 2, 3, 3}), w = T({1, 2, 0, -1, 1, 1, 1, 1}, {1, 2, 2, 2}), b = T({0.5}, {1});
  x.requires_grad_(), w.requires_grad_(), b.requires_grad_();
  Tensor y = conv2d(x, w, b, {1}, {1});
  sum(mul(y, y)).backward();
  EXPECT_TRUE(Near(x.grad(), {164, 264, 238, 212, 314, 260, 174, 216, 156, 198, 286, 236, 334, 484, 394, 368, 514, 402},
                   {1, 2, 3, 3}));
  EXPECT_TRUE(Near(w.grad(), {4499, 4781, 4297, 4327, 12734, 12746, 10858, 10510}, {1, 2, 2, 2}));
  EXPECT_TRUE(Near(b.grad(), {1204}, {1}));
}

// oneDNN's three convolution passes on integer data (exact sums) against a
// direct loop, over the geometries models use; each must really run on
// oneDNN (false would mean a silent fall back to im2col).
TEST(OnednnConv, EveryPassMatchesADirectLoop) {
  using ops::ConvParams;
  const std::vector<ConvParams> cases = {
      // N, C, H, W, O, kh, kw, sh, sw, ph, pw, dh, dw, groups (Ho, Wo filled below)
      {4, 3, 16, 16, 16, 3, 3, 1, 1, 1, 1, 1, 1, 1, 0, 0},   // a first layer, padded
      {2, 16, 15, 13, 32, 3, 3, 2, 2, 0, 1, 1, 1, 1, 0, 0},  // strided, a row left over
      {2, 16, 12, 12, 16, 3, 3, 1, 1, 2, 2, 2, 2, 1, 0, 0},  // dilated
      {2, 16, 10, 10, 32, 3, 1, 1, 1, 1, 0, 1, 1, 4, 0, 0},  // grouped, asymmetric kernel
      {2, 32, 9, 9, 32, 3, 3, 1, 1, 1, 1, 1, 1, 32, 0, 0},   // depthwise
      {3, 24, 7, 7, 48, 1, 1, 1, 1, 0, 0, 1, 1, 1, 0, 0},    // pointwise
      {2, 8, 1, 50, 16, 1, 5, 1, 2, 0, 2, 1, 1, 1, 0, 0},    // conv1d as height 1
  };
  for (ConvParams p : cases) {
    p.Ho = (p.H + 2 * p.ph - p.dh * (p.kh - 1) - 1) / p.sh + 1;
    p.Wo = (p.W + 2 * p.pw - p.dw * (p.kw - 1) - 1) / p.sw + 1;
    const int64_t Cg = p.C / p.groups, Og = p.O / p.groups;
    auto fill = [](int64_t n, int mod) {
      std::vector<float> v(static_cast<size_t>(n));
      for (size_t i = 0; i < v.size(); ++i) v[i] = float(int64_t(i * 7 + 3) % mod - mod / 2);
      return v;
    };
    std::vector<float> x = fill(p.N * p.C * p.H * p.W, 5), w = fill(p.O * Cg * p.kh * p.kw, 3), b = fill(p.O, 7);
    std::vector<float> gy = fill(p.N * p.O * p.Ho * p.Wo, 5);
    std::vector<float> y(gy.size()), gx(x.size()), gw(w.size());
    std::vector<double> ry(y.size()), rgx(x.size()), rgw(w.size());
    for (int64_t n = 0; n < p.N; ++n)
      for (int64_t o = 0; o < p.O; ++o)
        for (int64_t oh = 0; oh < p.Ho; ++oh)
          for (int64_t ow = 0; ow < p.Wo; ++ow) {
            const size_t yi = size_t(((n * p.O + o) * p.Ho + oh) * p.Wo + ow);
            ry[yi] = b[size_t(o)];
            for (int64_t c = 0; c < Cg; ++c)
              for (int64_t i = 0; i < p.kh; ++i)
                for (int64_t j = 0; j < p.kw; ++j) {
                  const int64_t h = oh * p.sh - p.ph + i * p.dh, ww = ow * p.sw - p.pw + j * p.dw;
                  if (h < 0 || h >= p.H || ww < 0 || ww >= p.W) continue;
                  const size_t xi = size_t(((n * p.C + o / Og * Cg + c) * p.H + h) * p.W + ww);
                  const size_t wi = size_t(((o * Cg + c) * p.kh + i) * p.kw + j);
                  ry[yi] += double(x[xi]) * w[wi];
                  rgx[xi] += double(gy[yi]) * w[wi];
                  rgw[wi] += double(gy[yi]) * x[xi];
                }
          }
    const std::string at = "N" + std::to_string(p.N) + " C" + std::to_string(p.C) + " groups" + std::to_string(p.groups);
    ASSERT_TRUE(ops::onednn_conv_forward(p, x.data(), w.data(), b.data(), y.data())) << at;
    ASSERT_TRUE(ops::onednn_conv_backward_data(p, gy.data(), w.data(), gx.data())) << at;
    ASSERT_TRUE(ops::onednn_conv_backward_weights(p, gy.data(), x.data(), gw.data())) << at;
    for (size_t i = 0; i < y.size(); ++i) ASSERT_EQ(y[i], ry[i]) << at << " y " << i;
    for (size_t i = 0; i < x.size(); ++i) ASSERT_EQ(gx[i], rgx[i]) << at << " gx " << i;
    for (size_t i = 0; i < w.size(); ++i) ASSERT_EQ(gw[i], rgw[i]) << at << " gw " << i;
    std::vector<float> y2(y.size());  // without a bias: another primitive, no bias read
    ASSERT_TRUE(ops::onednn_conv_forward(p, x.data(), w.data(), nullptr, y2.data())) << at;
    for (size_t i = 0; i < y.size(); ++i) ASSERT_EQ(y2[i], ry[i] - b[i / size_t(p.Ho * p.Wo) % size_t(p.O)]) << at;
  }
}

// A 3-d convolution (strided, padded, dilated in depth, grouped) on oneDNN
// against a direct loop, each pass on integer data (exact sums).
TEST(OnednnConv, ThreeDimensionalMatchesADirectLoop) {
  ops::ConvParams p{2, 4, 5, 6, 6, 3, 2, 1, 2, 1, 0, 1, 1, 2, 0, 0};  // H, W dims as in the 2-d cases
  p.depth = {4, 2, 1, 1, 2, 0};                                        // D, k, s, p, d (out below)
  auto out = [](int64_t in, int64_t k, int64_t s, int64_t pad, int64_t d) {
    return (in + 2 * pad - d * (k - 1) - 1) / s + 1;
  };
  p.Ho = out(p.H, p.kh, p.sh, p.ph, p.dh), p.Wo = out(p.W, p.kw, p.sw, p.pw, p.dw);
  ops::ConvDepth& z = p.depth;
  z.out = out(z.D, z.k, z.s, z.p, z.d);
  const int64_t Cg = p.C / p.groups, Og = p.O / p.groups;
  auto fill = [](int64_t n, int mod) {
    std::vector<float> v(static_cast<size_t>(n));
    for (size_t i = 0; i < v.size(); ++i) v[i] = float(int64_t(i * 7 + 3) % mod - mod / 2);
    return v;
  };
  std::vector<float> x = fill(p.N * p.C * z.D * p.H * p.W, 5), w = fill(p.O * Cg * z.k * p.kh * p.kw, 3);
  std::vector<float> gy = fill(p.N * p.O * z.out * p.Ho * p.Wo, 5);
  std::vector<float> y(gy.size()), gx(x.size()), gw(w.size());
  std::vector<double> ry(y.size()), rgx(x.size()), rgw(w.size());
  for (int64_t n = 0; n < p.N; ++n)
    for (int64_t o = 0; o < p.O; ++o)
      for (int64_t od = 0; od < z.out; ++od)
        for (int64_t oh = 0; oh < p.Ho; ++oh)
          for (int64_t ow = 0; ow < p.Wo; ++ow) {
            const size_t yi = size_t((((n * p.O + o) * z.out + od) * p.Ho + oh) * p.Wo + ow);
            for (int64_t c = 0; c < Cg; ++c)
              for (int64_t a = 0; a < z.k; ++a)
                for (int64_t i = 0; i < p.kh; ++i)
                  for (int64_t j = 0; j < p.kw; ++j) {
                    const int64_t d = od * z.s - z.p + a * z.d, h = oh * p.sh - p.ph + i * p.dh,
                                  ww = ow * p.sw - p.pw + j * p.dw;
                    if (d < 0 || d >= z.D || h < 0 || h >= p.H || ww < 0 || ww >= p.W) continue;
                    const size_t xi = size_t((((n * p.C + o / Og * Cg + c) * z.D + d) * p.H + h) * p.W + ww);
                    const size_t wi = size_t((((o * Cg + c) * z.k + a) * p.kh + i) * p.kw + j);
                    ry[yi] += double(x[xi]) * w[wi];
                    rgx[xi] += double(gy[yi]) * w[wi];
                    rgw[wi] += double(gy[yi]) * x[xi];
                  }
          }
  ASSERT_TRUE(ops::onednn_conv_forward(p, x.data(), w.data(), nullptr, y.data()));
  ASSERT_TRUE(ops::onednn_conv_backward_data(p, gy.data(), w.data(), gx.data()));
  ASSERT_TRUE(ops::onednn_conv_backward_weights(p, gy.data(), x.data(), gw.data()));
  for (size_t i = 0; i < y.size(); ++i) ASSERT_EQ(y[i], ry[i]) << "y " << i;
  for (size_t i = 0; i < x.size(); ++i) ASSERT_EQ(gx[i], rgx[i]) << "gx " << i;
  for (size_t i = 0; i < w.size(); ++i) ASSERT_EQ(gw[i], rgw[i]) << "gw " << i;
}

// A convolution's Kernel event counts its multiply-adds (2 flops each): one
// per weight element of a group for every output, once per gradient asked for.
TEST(Conv, KernelEventsCountItsFlops) {
  struct Flops : trace::Sink {
    std::vector<std::pair<std::string, uint64_t>> seen;
    void on_events(std::span<const trace::Event> events, const trace::StringTable& strings) override {
      for (const trace::Event& e : events)
        if (e.kind == trace::EventKind::Kernel) seen.emplace_back(std::string(strings.str(e.name)), e.c);
    }
  };
  auto sink = std::make_unique<Flops>();
  Flops* flops = sink.get();
  trace::Session::start({}).add_sink(std::move(sink));
  Tensor x = zeros({2, 4, 6, 6}), w = zeros({8, 2, 3, 3});  // groups 2: 2*3*3 = 18 per output
  Tensor y = conv2d(x, w, {}, {1}, {1}, {1}, 2);             // [2, 8, 6, 6]: 576 outputs
  invoke_multi("convolution_backward", {y, x, w, Shape{1, 1}, Shape{1, 1}, Shape{1, 1}, int64_t(2), true, true, false});
  trace::Session::current()->flush();
  std::vector<std::pair<std::string, uint64_t>> seen = flops->seen;
  trace::Session::stop();
  std::map<std::string, uint64_t> by_name(seen.begin(), seen.end());
  EXPECT_EQ(by_name["convolution"], 2u * 576 * 18);
  EXPECT_EQ(by_name["convolution_backward"], 2u * 2 * 576 * 18);
}

// ---- pooling ---------------------------------------------------------------------------------
TEST(Pool, MaxWithIndices) {
  Tensor z = T({1, 5, 2, 0, 3, -1, 4, 7, 2, 2, 8, 1}, {1, 1, 3, 4});
  auto r = max_pool2d_with_indices(z, {2}, {1});
  EXPECT_TRUE(Near(r[0], {5, 5, 7, 3, 8, 8}, {1, 1, 2, 3}));
  EXPECT_TRUE(Near(to_dtype(r[1], DType::Float64), {1, 1, 7, 4, 10, 10}, {1, 1, 2, 3}));
  r = max_pool2d_with_indices(z, {2}, {}, {0}, {1}, true);
  EXPECT_TRUE(Near(r[0], {5, 7, 2, 8}, {1, 1, 2, 2}));
  EXPECT_TRUE(Near(to_dtype(r[1], DType::Float64), {1, 7, 8, 10}, {1, 1, 2, 2}));
  r = invoke_multi("adaptive_max_pool2d", {z, Shape{2, 3}});
  EXPECT_TRUE(Near(r[0], {5, 5, 7, 3, 8, 8}, {1, 1, 2, 3}));
  EXPECT_TRUE(Near(to_dtype(r[1], DType::Float64), {1, 1, 7, 4, 10, 10}, {1, 1, 2, 3}));
}

TEST(Pool, Average) {
  Tensor z = T({1, 5, 2, 0, 3, -1, 4, 7, 2, 2, 8, 1}, {1, 1, 3, 4});
  EXPECT_TRUE(Near(avg_pool2d(z, {2}, {}, {1}, false, false), {1, 3.5, 0, 2.5, 3.25, 4}, {1, 1, 2, 3}));
  EXPECT_TRUE(Near(avg_pool2d(z, {2}, {}, {1}), {0.25, 1.75, 0, 1.25, 3.25, 2}, {1, 1, 2, 3}));
  EXPECT_TRUE(Near(avg_pool2d(z, {3}, {2}, {0}, true, true, 2), {13, 11}, {1, 1, 1, 2}));
  EXPECT_TRUE(Near(adaptive_avg_pool2d(z, {2, 3}), {2, 2.5, 3.25, 1.5, 3.25, 5}, {1, 1, 2, 3}));
}

// A 3-d pool over a depth-1 volume is the 2-d pool of its plane.
TEST(Pool, ThreeDimensionalOfDepthOneIsTwoDimensional) {
  Tensor z = T({1, 5, 2, 0, 3, -1, 4, 7, 2, 2, 8, 1}, {1, 1, 3, 4});
  Tensor v = unsqueeze(z, 2);
  auto r = invoke_multi("max_pool3d_with_indices", {v, Shape{1, 2, 2}, Shape{1}});
  EXPECT_TRUE(Near(r[0], {5, 5, 7, 3, 8, 8}, {1, 1, 1, 2, 3}));
  EXPECT_TRUE(Near(to_dtype(r[1], DType::Float64), {1, 1, 7, 4, 10, 10}, {1, 1, 1, 2, 3}));
  EXPECT_TRUE(Near(invoke("avg_pool3d", {v, Shape{1, 2, 2}, Shape{}, Shape{0, 1, 1}, false, false, Value()}),
                   {1, 3.5, 0, 2.5, 3.25, 4}, {1, 1, 1, 2, 3}));
  EXPECT_TRUE(Near(invoke("adaptive_avg_pool3d", {v, Shape{1, 2, 3}}), {2, 2.5, 3.25, 1.5, 3.25, 5}, {1, 1, 1, 2, 3}));
  EXPECT_EQ(error_of([&] { invoke("avg_pool3d", {v, Shape{2}, Shape{}, Shape{0}, false, true, Value()}); }),
            "input image (T: 1 H: 3 W: 4) smaller than kernel size (kT: 2 kH: 2 kW: 2)");
}

TEST(Pool, Errors) {
  EXPECT_EQ(error_of([&] { max_pool2d_with_indices(zeros({1, 3, 5, 5}), {3}, {}, {2}); }),
            "pad should be at most half of effective kernel size, but got pad=2, kernel_size=3 and dilation=1");
  EXPECT_EQ(error_of([&] { max_pool2d_with_indices(zeros({1, 3, 2, 2}), {3}); }),
            "Given input size: (3x2x2). Calculated output size: (3x0x0). Output size is too small");
  EXPECT_EQ(error_of([&] { max_pool2d_with_indices(zeros({3, 2}), {2}); }),
            "non-empty 3D or 4D (batch mode) tensor expected for input");
}

// ---- normalization and padding -----------------------------------------------------------------
TEST(Norm, BatchNormTrainingUpdatesRunningStats) {
  Tensor x = T({1, 2, 3, 4, 5, 6, 7, 8}, {2, 2, 2});
  Tensor rm = zeros({2}), rv = ones({2});
  Tensor y = batch_norm(x, {}, {}, rm, rv, true, 0.1, 1e-5);
  // Channel 0 holds {1, 2, 5, 6}: mean 3.5, biased variance 4.25, unbiased 17/3.
  EXPECT_NEAR(select(reshape(y, {8}), 0, 0).item_double(), -2.5 / std::sqrt(4.25 + 1e-5),
              1e-5);
  EXPECT_TRUE(Near(rm, {0.35, 0.55}, {2}));
  EXPECT_TRUE(Near(rv, {0.9 + 0.1 * 17 / 3.0, 0.9 + 0.1 * 17 / 3.0}, {2}));
  Tensor e = batch_norm(x, {}, {}, rm, rv, false, 0.1, 0);  // eval: the running statistics
  EXPECT_NEAR(select(reshape(e, {8}), 0, 0).item_double(), (1 - 0.35) / std::sqrt(0.9 + 0.1 * 17 / 3.0), 1e-5);
}

TEST(Norm, GroupNormErrors) {
  EXPECT_EQ(error_of([&] { group_norm(zeros({2, 6, 4}), 4); }),
            "Expected number of channels in input to be divisible by num_groups, but got input of shape [2, 6, 4] "
            "and num_groups=4");
}

TEST(Pad, ConstantAndCrop) {
  Tensor p = seq(0, 6, {2, 3});
  EXPECT_TRUE(Near(constant_pad_nd(p, {1, 0}, -1), {-1, 0, 1, 2, -1, 3, 4, 5}, {2, 4}));
  EXPECT_TRUE(Near(constant_pad_nd(p, {-1, 0, 0, 1}), {1, 2, 4, 5, 0, 0}, {3, 2}));
  EXPECT_EQ(error_of([&] { constant_pad_nd(p, {1}); }), "Length of pad must be even but instead it equals 1");
}

KILN_GRAD_SAMPLE("convolution", {
  return {grad_input({2, 4, 5, 4}), grad_input({6, 2, 3, 2}, -1, 1, 2), grad_input({6}, -1, 1, 3), Shape{2, 1},
          Shape{1, 0}, Shape{1, 2}, false, Shape{0, 0}, 2};
});
KILN_GRAD_SAMPLE("convolution", {
  return {grad_input({2, 3, 7}), grad_input({2, 3, 3}, -1, 1, 2), Value(), Shape{2}, Shape{1}, Shape{1}, false,
          Shape{0}, 1};
});
KILN_GRAD_SAMPLE("conv2d", {
  return {grad_input({1, 2, 4, 4}), grad_input({3, 2, 2, 3}, -1, 1, 2), grad_input({3}, -1, 1, 3)};
});
KILN_GRAD_SAMPLE("conv2d.padding", {
  return {grad_input({2, 4, 4}), grad_input({3, 2, 2, 3}, -1, 1, 2), Value(), Shape{1}, std::string("same")};
});
KILN_GRAD_SAMPLE("conv1d", { return {grad_input({2, 2, 6}), grad_input({3, 2, 3}, -1, 1, 2)}; });
KILN_GRAD_SAMPLE("conv1d.padding", {
  return {grad_input({2, 2, 6}), grad_input({3, 2, 2}, -1, 1, 2), Value(), Shape{1}, std::string("same")};
});
KILN_GRAD_SAMPLE("convolution", {
  return {grad_input({1, 4, 4, 3, 5}), grad_input({4, 2, 2, 2, 3}, -1, 1, 2), grad_input({4}, -1, 1, 3),
          Shape{2, 1, 2}, Shape{1, 0, 1}, Shape{1, 2, 1}, false, Shape{0, 0, 0}, 2};
});
KILN_GRAD_SAMPLE("conv3d", {
  return {grad_input({1, 2, 3, 4, 3}), grad_input({3, 2, 2, 3, 2}, -1, 1, 2), grad_input({3}, -1, 1, 3)};
});
KILN_GRAD_SAMPLE("conv3d.padding", {
  return {grad_input({2, 3, 4, 3}), grad_input({3, 2, 2, 3, 2}, -1, 1, 2), Value(), Shape{1}, std::string("same")};
});
KILN_GRAD_SAMPLE("constant_pad_nd", { return {grad_input({2, 3}), Shape{1, -1, 0, 2}, 0.5}; });
KILN_GRAD_SAMPLE("max_pool2d_with_indices", {
  return {grad_input({1, 2, 5, 5}), Shape{3}, Shape{2}, Shape{1}, Shape{1}, true};
});
// The backward ops: their derivatives are the convolution's and the pools' second derivatives.
KILN_GRAD_SAMPLE("convolution_backward", {
  return {grad_input({2, 6, 3, 2}, -1, 1, 4), grad_input({2, 4, 5, 4}), grad_input({6, 2, 3, 2}, -1, 1, 2),
          Shape{2, 1}, Shape{1, 0}, Shape{1, 2}, 2, true, true, true};
});
KILN_GRAD_SAMPLE("convolution_backward", {
  return {grad_input({2, 2, 4}, -1, 1, 4), grad_input({2, 3, 7}), grad_input({2, 3, 3}, -1, 1, 2), Shape{2},
          Shape{1}, Shape{1}, 1, true, true, false};
});
KILN_GRAD_SAMPLE("max_pool2d_with_indices_backward", {
  Tensor x = grad_input({1, 2, 5, 5}).detach();
  auto r = invoke_multi("max_pool2d_with_indices", {x, Shape{3}, Shape{2}, Shape{1}, Shape{1}, true});
  return {grad_input(r[0].sizes(), -1, 1, 4), x, Shape{3}, Shape{2}, Shape{1}, Shape{1}, true, r[1]};
});
KILN_GRAD_SAMPLE("max_pool3d_with_indices_backward", {
  Tensor x = grad_input({1, 2, 4, 5, 4}).detach();
  auto r = invoke_multi("max_pool3d_with_indices", {x, Shape{2}, Shape{2}, Shape{0}, Shape{1}, false});
  return {grad_input(r[0].sizes(), -1, 1, 4), x, Shape{2}, Shape{2}, Shape{0}, Shape{1}, false, r[1]};
});
KILN_GRAD_SAMPLE("adaptive_max_pool2d_backward", {
  Tensor x = grad_input({1, 2, 5, 7}).detach();
  auto r = invoke_multi("adaptive_max_pool2d", {x, Shape{3, 4}});
  return {grad_input(r[0].sizes(), -1, 1, 4), x, r[1]};
});
KILN_GRAD_SAMPLE("adaptive_max_pool3d_backward", {
  Tensor x = grad_input({2, 4, 5, 3}).detach();
  auto r = invoke_multi("adaptive_max_pool3d", {x, Shape{3, 2, 2}});
  return {grad_input(r[0].sizes(), -1, 1, 4), x, r[1]};
});
KILN_GRAD_SAMPLE("avg_pool2d_backward", {
  return {grad_input({1, 2, 3, 3}, -1, 1, 4), grad_input({1, 2, 5, 5}).detach(), Shape{3}, Shape{2}, Shape{1},
          true, false, Value()};
});
KILN_GRAD_SAMPLE("avg_pool3d_backward", {
  return {grad_input({2, 2, 2, 2}, -1, 1, 4), grad_input({2, 4, 4, 4}).detach(), Shape{2}, Shape{2}, Shape{0},
          false, true, 3};
});
KILN_GRAD_SAMPLE("adaptive_avg_pool2d_backward", {
  return {grad_input({1, 2, 3, 4}, -1, 1, 4), grad_input({1, 2, 5, 7}).detach()};
});
KILN_GRAD_SAMPLE("adaptive_avg_pool3d_backward", {
  return {grad_input({2, 3, 2, 2}, -1, 1, 4), grad_input({2, 4, 5, 3}).detach()};
});
KILN_GRAD_SAMPLE("max_pool2d", { return {grad_input({2, 4, 4}), Shape{2, 2}, Shape{}, Shape{0}, Shape{2, 1}}; });
KILN_GRAD_SAMPLE("max_pool3d_with_indices", {
  return {grad_input({1, 2, 4, 5, 4}), Shape{2, 3, 2}, Shape{2, 1, 2}, Shape{1}, Shape{1, 1, 2}, true};
});
KILN_GRAD_SAMPLE("max_pool3d", { return {grad_input({2, 4, 4, 3}), Shape{2}, Shape{}, Shape{0}, Shape{1}}; });
KILN_GRAD_SAMPLE("avg_pool3d", {
  return {grad_input({1, 2, 4, 5, 4}), Shape{3}, Shape{2}, Shape{1}, true, false, Value()};
});
KILN_GRAD_SAMPLE("avg_pool3d", {
  return {grad_input({2, 4, 3, 5}), Shape{2, 1, 3}, Shape{}, Shape{1, 0, 1}, false, true, 5};
});
KILN_GRAD_SAMPLE("adaptive_avg_pool3d", { return {grad_input({1, 2, 4, 5, 3}), Shape{3, 2, 2}}; });
KILN_GRAD_SAMPLE("adaptive_max_pool3d", { return {grad_input({2, 4, 5, 3}), Shape{3, 2, 2}}; });
KILN_GRAD_SAMPLE("max_pool1d", { return {grad_input({2, 3, 7}), Shape{3}, Shape{2}, Shape{1}}; });
KILN_GRAD_SAMPLE("max_pool1d_with_indices", { return {grad_input({2, 7}), Shape{2}}; });
KILN_GRAD_SAMPLE("avg_pool2d", {
  return {grad_input({1, 2, 5, 5}), Shape{3}, Shape{2}, Shape{1}, true, false, Value()};
});
KILN_GRAD_SAMPLE("avg_pool2d", { return {grad_input({2, 4, 5}), Shape{2, 3}, Shape{}, Shape{1}, false, true, 4}; });
KILN_GRAD_SAMPLE("avg_pool1d", { return {grad_input({2, 3, 7}), Shape{3}, Shape{2}, Shape{1}}; });
KILN_GRAD_SAMPLE("adaptive_avg_pool2d", { return {grad_input({1, 2, 5, 7}), Shape{3, 4}}; });
KILN_GRAD_SAMPLE("adaptive_max_pool2d", { return {grad_input({1, 2, 5, 7}), Shape{3, 4}}; });
KILN_GRAD_SAMPLE("adaptive_max_pool1d", { return {grad_input({2, 7}), Shape{3}}; });
KILN_GRAD_SAMPLE("adaptive_avg_pool1d", { return {grad_input({2, 7}), Shape{3}}; });
KILN_GRAD_SAMPLE("batch_norm", {
  return {grad_input({3, 2, 4}), grad_input({2}, 0.5, 1.5, 2), grad_input({2}, -1, 1, 3), Value(), Value(), true,
          0.1, 1e-5, false};
});
KILN_GRAD_SAMPLE("batch_norm", {
  return {grad_input({3, 2}), Value(), Value(), T({0.1, -0.2}, {}, DType::Float64),
          T({1.5, 0.5}, {}, DType::Float64), false, 0.1, 1e-5, false};
});
KILN_GRAD_SAMPLE("group_norm", {
  return {grad_input({2, 4, 3}), 2, grad_input({4}, 0.5, 1.5, 2), grad_input({4}, -1, 1, 3)};
});
KILN_GRAD_SAMPLE("instance_norm", {
  return {grad_input({2, 3, 5}), grad_input({3}, 0.5, 1.5, 2), Value(), Value(), Value(), true, 0.1, 1e-5, false};
});

}  // namespace
}  // namespace kiln
