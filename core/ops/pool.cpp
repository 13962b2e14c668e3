// Pooling over the last two dims of a [C, H, W] or [N, C, H, W] input: max
// pooling with indices, average pooling, adaptive average pooling, each an
// op with its own backward op as in aten. The 1-d forms are Composites that
// pool a height-1 plane.
#include <cmath>
#include <limits>

#include "core/ops/spatial.h"
#include "core/thread_pool.h"

namespace kiln {
namespace ops {
namespace {
using namespace spatial;

// ---- geometry --------------------------------------------------------------------------
struct PoolGeom {
  int64_t planes = 1, H = 1, W = 1, Ho = 1, Wo = 1;
  int64_t kh = 1, kw = 1, sh = 1, sw = 1, ph = 0, pw = 0, dh = 1, dw = 1;
};

// An int[2] pooling argument: one value for both dims, or two (stride [] means kernel_size).
Shape pool_param(const Shape& v, const char* op, const char* what, const Shape& fallback) {
  if (v.empty() && !fallback.empty()) return fallback;
  KILN_CHECK(v.size() == 1 || v.size() == 2, Runtime, op, ": ", what,
             " must either be omitted, a single int, or a tuple of two ints");
  return v.size() == 1 ? Shape{v[0], v[0]} : v;
}

// aten's pooling_output_shape: ceil_mode keeps a last window only if it starts inside the input or left pad.
int64_t pool_out(int64_t in, int64_t k, int64_t pad, int64_t stride, int64_t dil, bool ceil) {
  int64_t num = in + 2 * pad - dil * (k - 1) - 1 + (ceil ? stride - 1 : 0);
  int64_t out = (num >= 0 ? num / stride : -((-num + stride - 1) / stride)) + 1;
  if (ceil && (out - 1) * stride >= in + pad) --out;
  return out;
}

PoolGeom pool_geom(const Tensor& x, const Shape& k0, const Shape& s0, const Shape& p0, const Shape& d0, bool ceil,
                   const char* op, bool dilated) {
  Shape k = pool_param(k0, op, "kernel_size", {}), s = pool_param(s0, op, "stride", k);
  Shape p = pool_param(p0, op, "padding", {}), d = pool_param(d0, op, "dilation", {});
  KILN_CHECK(k[0] > 0 && k[1] > 0, Runtime, "kernel size should be greater than zero, but got kH: ", k[0],
             " kW: ", k[1]);
  KILN_CHECK(s[0] > 0 && s[1] > 0, Runtime, "stride should be greater than zero, but got dH: ", s[0], " dW: ", s[1]);
  KILN_CHECK(d[0] > 0 && d[1] > 0, Runtime, "dilation should be greater than zero, but got dilationH: ", d[0],
             " dilationW: ", d[1]);
  bool ok = (x.dim() == 3 && x.size(0) != 0 && x.size(1) != 0 && x.size(2) != 0) ||
            (x.dim() == 4 && x.size(1) != 0 && x.size(2) != 0 && x.size(3) != 0);
  KILN_CHECK(ok, Runtime, "non-empty 3D or 4D (batch mode) tensor expected for input");
  for (int i = 0; i < 2; ++i) {
    if (dilated) {
      KILN_CHECK(p[size_t(i)] <= ((k[size_t(i)] - 1) * d[size_t(i)] + 1) / 2, Runtime,
                 "pad should be at most half of effective kernel size, but got pad=", p[size_t(i)], ", kernel_size=",
                 k[size_t(i)], " and dilation=", d[size_t(i)]);
    } else {
      KILN_CHECK(p[size_t(i)] <= k[size_t(i)] / 2, Runtime, "pad should be at most half of effective kernel size, but got pad=",
                 p[size_t(i)], ", kernel_size=", k[size_t(i)], " and dilation=1");
    }
  }
  PoolGeom g;
  g.H = x.size(-2), g.W = x.size(-1), g.planes = x.numel() / std::max<int64_t>(1, g.H * g.W);
  g.kh = k[0], g.kw = k[1], g.sh = s[0], g.sw = s[1], g.ph = p[0], g.pw = p[1], g.dh = d[0], g.dw = d[1];
  g.Ho = pool_out(g.H, g.kh, g.ph, g.sh, g.dh, ceil);
  g.Wo = pool_out(g.W, g.kw, g.pw, g.sw, g.dw, ceil);
  const int64_t C = x.size(-3);
  KILN_CHECK(g.Ho >= 1 && g.Wo >= 1, Runtime, "Given input size: (", C, "x", g.H, "x", g.W,
             "). Calculated output size: (", C, "x", g.Ho, "x", g.Wo, "). Output size is too small");
  return g;
}

Shape pooled_shape(const Tensor& x, int64_t Ho, int64_t Wo) {
  Shape s = x.sizes();
  s[s.size() - 2] = Ho;
  s[s.size() - 1] = Wo;
  return s;
}

// Runs f(tag) with T the compute type (float for the half types).
template <class F>
void visit_pool(DType d, const char* op, F&& f) {
  visit_floating(d, op, [&](auto) {
    if (compute_dtype(d) == DType::Float64) {
      f(type_tag<double>{});
    } else {
      f(type_tag<float>{});
    }
  });
}

// Runs body(T*) on a compute-typed buffer for out, then stores it into out.
template <class T, class F>
void into(Tensor& out, F&& body) {
  const DType cd = dtype_of<T>();
  Tensor buf = out.dtype() == cd && out.is_contiguous() ? out : empty_tensor(out.sizes(), cd);
  body(buf.data<T>());
  if (!buf.is_same(out)) copy_cast(out, buf);
}

// ---- max_pool2d_with_indices -------------------------------------------------------------
// max_pool2d_with_indices(Tensor self, int[2] kernel_size, int[2] stride=[], int[2] padding=0,
//                         int[2] dilation=1, bool ceil_mode=False) -> (Tensor, Tensor)
PoolGeom max_geom(const Args& a, int self = 0) {
  return pool_geom(a[size_t(self)].tensor(), a[size_t(self) + 1].int_list(), a[size_t(self) + 2].int_list(),
                   a[size_t(self) + 3].int_list(), a[size_t(self) + 4].int_list(), a[size_t(self) + 5].to_bool(),
                   "max_pool2d", true);
}

std::vector<Shape> shape_max_pool(const Args& a) {
  PoolGeom g = max_geom(a);
  Shape s = pooled_shape(a[0].tensor(), g.Ho, g.Wo);
  return {s, s};
}
std::vector<DType> dtype_max_pool(const Args& a) { return {a[0].tensor().dtype(), DType::Int64}; }

void max_pool_kernel(const Args& a, std::vector<Tensor>& outs) {
  const PoolGeom g = max_geom(a);
  visit_pool(a[0].tensor().dtype(), "max_pool2d", [&](auto tag) {
    using T = typename decltype(tag)::type;
    Tensor x = dense(a[0].tensor(), dtype_of<T>());
    const T* px = x.data<T>();
    int64_t* pi = outs[1].data<int64_t>();
    into<T>(outs[0], [&](T* po) {
      parallel_for(0, g.planes, 1, [&](int64_t b, int64_t e) {
        for (int64_t p = b; p < e; ++p) {
          const T* plane = px + p * g.H * g.W;
          for (int64_t oh = 0; oh < g.Ho; ++oh)
            for (int64_t ow = 0; ow < g.Wo; ++ow) {
              int64_t h0 = oh * g.sh - g.ph, w0 = ow * g.sw - g.pw;
              const int64_t h1 = std::min(h0 + (g.kh - 1) * g.dh + 1, g.H), w1 = std::min(w0 + (g.kw - 1) * g.dw + 1, g.W);
              while (h0 < 0) h0 += g.dh;
              while (w0 < 0) w0 += g.dw;
              int64_t best = h0 * g.W + w0;
              T m = -std::numeric_limits<T>::infinity();
              for (int64_t h = h0; h < h1; h += g.dh)
                for (int64_t w = w0; w < w1; w += g.dw) {
                  const T v = plane[h * g.W + w];
                  if (v > m || std::isnan(v)) {  // NaN wins, like aten
                    m = v;
                    best = h * g.W + w;
                  }
                }
              const int64_t o = (p * g.Ho + oh) * g.Wo + ow;
              po[o] = m;
              pi[o] = best;
            }
        }
      });
    });
  });
}

std::vector<Tensor> grad_max_pool(const GradCtx& c) {
  const Args& a = c.args;
  return {invoke("max_pool2d_with_indices_backward", {c.grad(0), c.in(0), a[1], a[2], a[3], a[4], a[5], c.out(1)})};
}

// max_pool2d_with_indices_backward(Tensor grad_output, Tensor self, int[2] kernel_size, int[2] stride,
//                                  int[2] padding, int[2] dilation, bool ceil_mode, Tensor indices)
std::vector<Shape> shape_max_pool_backward(const Args& a) {
  max_geom(a, 1);
  return {a[1].tensor().sizes()};
}
std::vector<DType> dtype_backward(const Args& a) { return {a[1].tensor().dtype()}; }

void max_pool_backward_kernel(const Args& a, std::vector<Tensor>& outs) {
  const PoolGeom g = max_geom(a, 1);
  visit_pool(a[1].tensor().dtype(), "max_pool2d_backward", [&](auto tag) {
    using T = typename decltype(tag)::type;
    Tensor go = dense(a[0].tensor(), dtype_of<T>()), idx = dense(a[7].tensor(), DType::Int64);
    const T* pg = go.data<T>();
    const int64_t* pi = idx.data<int64_t>();
    into<T>(outs[0], [&](T* gi) {
      std::fill(gi, gi + g.planes * g.H * g.W, T(0));
      parallel_for(0, g.planes, 1, [&](int64_t b, int64_t e) {
        for (int64_t p = b; p < e; ++p)
          for (int64_t o = p * g.Ho * g.Wo; o < (p + 1) * g.Ho * g.Wo; ++o) gi[p * g.H * g.W + pi[o]] += pg[o];
      });
    });
  });
}

// ---- avg_pool2d ------------------------------------------------------------------------------
// avg_pool2d(Tensor self, int[2] kernel_size, int[2] stride=[], int[2] padding=0, bool ceil_mode=False,
//            bool count_include_pad=True, int? divisor_override=None)
struct AvgArgs {
  PoolGeom g;
  bool include_pad;
  int64_t divisor;  // 0: none
};

AvgArgs avg_args(const Args& a, int self = 0) {
  const size_t s = size_t(self);
  AvgArgs r;
  r.g = pool_geom(a[s].tensor(), a[s + 1].int_list(), a[s + 2].int_list(), a[s + 3].int_list(), Shape{1},
                  a[s + 4].to_bool(), "avg_pool2d", false);
  r.include_pad = a[s + 5].to_bool();
  r.divisor = a[s + 6].is_none() ? 0 : a[s + 6].to_int();
  KILN_CHECK(a[s + 6].is_none() || r.divisor != 0, Runtime, "divisor must be not zero");
  return r;
}

// The window of output (oh, ow) clipped to the input, and its divisor.
struct Window {
  int64_t h0, h1, w0, w1, div;
};
Window avg_window(const AvgArgs& a, int64_t oh, int64_t ow) {
  const PoolGeom& g = a.g;
  int64_t h0 = oh * g.sh - g.ph, w0 = ow * g.sw - g.pw;
  int64_t h1 = std::min(h0 + g.kh, g.H + g.ph), w1 = std::min(w0 + g.kw, g.W + g.pw);
  const int64_t padded = (h1 - h0) * (w1 - w0);
  h0 = std::max<int64_t>(h0, 0), w0 = std::max<int64_t>(w0, 0);
  h1 = std::min(h1, g.H), w1 = std::min(w1, g.W);
  const int64_t div = a.divisor ? a.divisor : a.include_pad ? padded : (h1 - h0) * (w1 - w0);
  return {h0, h1, w0, w1, div};
}

std::vector<Shape> shape_avg_pool(const Args& a) {
  AvgArgs r = avg_args(a);
  return {pooled_shape(a[0].tensor(), r.g.Ho, r.g.Wo)};
}

void avg_pool_kernel(const Args& a, std::vector<Tensor>& outs) {
  const AvgArgs r = avg_args(a);
  const PoolGeom& g = r.g;
  visit_pool(a[0].tensor().dtype(), "avg_pool2d", [&](auto tag) {
    using T = typename decltype(tag)::type;
    Tensor x = dense(a[0].tensor(), dtype_of<T>());
    const T* px = x.data<T>();
    into<T>(outs[0], [&](T* po) {
      parallel_for(0, g.planes, 1, [&](int64_t b, int64_t e) {
        for (int64_t p = b; p < e; ++p)
          for (int64_t oh = 0; oh < g.Ho; ++oh)
            for (int64_t ow = 0; ow < g.Wo; ++ow) {
              const Window w = avg_window(r, oh, ow);
              T s = 0;  // an empty window (all padding) averages to 0, like aten
              if (w.h0 >= w.h1 || w.w0 >= w.w1) {
                po[(p * g.Ho + oh) * g.Wo + ow] = T(0);
                continue;
              }
              for (int64_t h = w.h0; h < w.h1; ++h)
                for (int64_t c = w.w0; c < w.w1; ++c) s += px[(p * g.H + h) * g.W + c];
              po[(p * g.Ho + oh) * g.Wo + ow] = s / T(w.div);
            }
      });
    });
  });
}

std::vector<Tensor> grad_avg_pool(const GradCtx& c) {
  const Args& a = c.args;
  return {invoke("avg_pool2d_backward", {c.grad(0), c.in(0), a[1], a[2], a[3], a[4], a[5], a[6]})};
}

// avg_pool2d_backward(Tensor grad_output, Tensor self, int[2] kernel_size, int[2] stride, int[2] padding,
//                     bool ceil_mode, bool count_include_pad, int? divisor_override)
std::vector<Shape> shape_avg_pool_backward(const Args& a) {
  avg_args(a, 1);
  return {a[1].tensor().sizes()};
}

void avg_pool_backward_kernel(const Args& a, std::vector<Tensor>& outs) {
  const AvgArgs r = avg_args(a, 1);
  const PoolGeom& g = r.g;
  visit_pool(a[1].tensor().dtype(), "avg_pool2d_backward", [&](auto tag) {
    using T = typename decltype(tag)::type;
    Tensor go = dense(a[0].tensor(), dtype_of<T>());
    const T* pg = go.data<T>();
    into<T>(outs[0], [&](T* gi) {
      std::fill(gi, gi + g.planes * g.H * g.W, T(0));
      parallel_for(0, g.planes, 1, [&](int64_t b, int64_t e) {
        for (int64_t p = b; p < e; ++p)
          for (int64_t oh = 0; oh < g.Ho; ++oh)
            for (int64_t ow = 0; ow < g.Wo; ++ow) {
              const Window w = avg_window(r, oh, ow);
              if (w.h0 >= w.h1 || w.w0 >= w.w1) continue;
              const T v = pg[(p * g.Ho + oh) * g.Wo + ow] / T(w.div);
              for (int64_t h = w.h0; h < w.h1; ++h)
                for (int64_t c = w.w0; c < w.w1; ++c) gi[(p * g.H + h) * g.W + c] += v;
            }
      });
    });
  });
}

// ---- adaptive_avg_pool2d ------------------------------------------------------------------------
// Output o of n over an input of length len covers [floor(o*len/n), ceil((o+1)*len/n)).
int64_t start_index(int64_t o, int64_t n, int64_t len) { return (o * len) / n; }
int64_t end_index(int64_t o, int64_t n, int64_t len) { return ((o + 1) * len + n - 1) / n; }

PoolGeom adaptive_geom(const Tensor& x, const Shape& out0) {
  Shape out = out0.size() == 1 ? Shape{out0[0], out0[0]} : out0;
  KILN_CHECK(out.size() == 2, Runtime, "adaptive_avg_pool2d: output_size must be 2");
  bool ok = x.dim() == 3 || x.dim() == 4;
  for (int64_t i = 1; ok && i < x.dim(); ++i) ok = x.size(i) > 0;
  KILN_CHECK(ok, Runtime,
             "adaptive_avg_pool2d(): Expected 3D or 4D tensor, but got ", list_str(x.sizes()));
  KILN_CHECK(out[0] >= 0 && out[1] >= 0, Runtime, "adaptive_avg_pool2d: elements of output_size must be greater than or equal to 0 but received {",
             out[0], ", ", out[1], "}");
  PoolGeom g;
  g.H = x.size(-2), g.W = x.size(-1), g.planes = x.numel() / (g.H * g.W), g.Ho = out[0], g.Wo = out[1];
  return g;
}

std::vector<Shape> shape_adaptive_avg(const Args& a) {
  PoolGeom g = adaptive_geom(a[0].tensor(), a[1].int_list());
  return {pooled_shape(a[0].tensor(), g.Ho, g.Wo)};
}

void adaptive_avg_kernel(const Args& a, std::vector<Tensor>& outs) {
  const PoolGeom g = adaptive_geom(a[0].tensor(), a[1].int_list());
  visit_pool(a[0].tensor().dtype(), "adaptive_avg_pool2d", [&](auto tag) {
    using T = typename decltype(tag)::type;
    Tensor x = dense(a[0].tensor(), dtype_of<T>());
    const T* px = x.data<T>();
    into<T>(outs[0], [&](T* po) {
      parallel_for(0, g.planes, 1, [&](int64_t b, int64_t e) {
        for (int64_t p = b; p < e; ++p)
          for (int64_t oh = 0; oh < g.Ho; ++oh)
            for (int64_t ow = 0; ow < g.Wo; ++ow) {
              const int64_t h0 = start_index(oh, g.Ho, g.H), h1 = end_index(oh, g.Ho, g.H);
              const int64_t w0 = start_index(ow, g.Wo, g.W), w1 = end_index(ow, g.Wo, g.W);
              T s = 0;
              for (int64_t h = h0; h < h1; ++h)
                for (int64_t c = w0; c < w1; ++c) s += px[(p * g.H + h) * g.W + c];
              po[(p * g.Ho + oh) * g.Wo + ow] = s / T((h1 - h0) * (w1 - w0));
            }
      });
    });
  });
}

std::vector<Tensor> grad_adaptive_avg(const GradCtx& c) {
  return {invoke("adaptive_avg_pool2d_backward", {c.grad(0), c.in(0)})};
}

// adaptive_avg_pool2d_backward(Tensor grad_output, Tensor self)
std::vector<Shape> shape_adaptive_avg_backward(const Args& a) { return {a[1].tensor().sizes()}; }

void adaptive_avg_backward_kernel(const Args& a, std::vector<Tensor>& outs) {
  const Tensor& go0 = a[0].tensor();
  const PoolGeom g = adaptive_geom(a[1].tensor(), {go0.size(-2), go0.size(-1)});
  visit_pool(a[1].tensor().dtype(), "adaptive_avg_pool2d_backward", [&](auto tag) {
    using T = typename decltype(tag)::type;
    Tensor go = dense(go0, dtype_of<T>());
    const T* pg = go.data<T>();
    into<T>(outs[0], [&](T* gi) {
      std::fill(gi, gi + g.planes * g.H * g.W, T(0));
      parallel_for(0, g.planes, 1, [&](int64_t b, int64_t e) {
        for (int64_t p = b; p < e; ++p)
          for (int64_t oh = 0; oh < g.Ho; ++oh)
            for (int64_t ow = 0; ow < g.Wo; ++ow) {
              const int64_t h0 = start_index(oh, g.Ho, g.H), h1 = end_index(oh, g.Ho, g.H);
              const int64_t w0 = start_index(ow, g.Wo, g.W), w1 = end_index(ow, g.Wo, g.W);
              const T v = pg[(p * g.Ho + oh) * g.Wo + ow] / T((h1 - h0) * (w1 - w0));
              for (int64_t h = h0; h < h1; ++h)
                for (int64_t c = w0; c < w1; ++c) gi[(p * g.H + h) * g.W + c] += v;
            }
      });
    });
  });
}

// ---- composites ---------------------------------------------------------------------------------
std::vector<Tensor> max_pool2d_composite(const Args& a) {
  return {invoke_multi("max_pool2d_with_indices", {a[0], a[1], a[2], a[3], a[4], a[5]})[0]};
}

// A 1-d argument as the 2-d one of a height-1 plane (`unit` in the height dim).
Shape as_2d(const Shape& v, int64_t unit) {
  if (v.empty()) return v;
  KILN_CHECK(v.size() == 1, Runtime, "expected a single int or a tuple of one int, but got ", list_str(v));
  return Shape{unit, v[0]};
}

void check_1d(const Tensor& x, const char* op) {
  KILN_CHECK(x.dim() == 2 || x.dim() == 3, Runtime, op, "() Expected 2D or 3D input tensor, but got ",
             list_str(x.sizes()));
}

// The 1-d pools run the 2-d ones on a height-1 view; ATen drops that dim with
// squeeze(dim), whose node is SqueezeBackward1.
Tensor squeeze_height(const Tensor& t) { return as_node(squeeze(t, Shape{-2}), "SqueezeBackward1"); }

// max_pool1d(_with_indices)(Tensor self, int[1] kernel_size, int[1] stride=[], int[1] padding=0,
//                           int[1] dilation=1, bool ceil_mode=False)
std::vector<Tensor> max_pool1d_with_indices_composite(const Args& a) {
  const Tensor& x = a[0].tensor();
  check_1d(x, "max_pool1d");
  auto r = invoke_multi("max_pool2d_with_indices", {unsqueeze(x, -2), as_2d(a[1].int_list(), 1),
                                                    as_2d(a[2].int_list(), 1), as_2d(a[3].int_list(), 0),
                                                    as_2d(a[4].int_list(), 1), a[5]});
  return {squeeze_height(r[0]), squeeze_height(r[1])};
}
std::vector<Tensor> max_pool1d_composite(const Args& a) { return {max_pool1d_with_indices_composite(a)[0]}; }

// avg_pool1d(Tensor self, int[1] kernel_size, int[1] stride=[], int[1] padding=0, bool ceil_mode=False,
//            bool count_include_pad=True)
std::vector<Tensor> avg_pool1d_composite(const Args& a) {
  const Tensor& x = a[0].tensor();
  check_1d(x, "avg_pool1d");
  Tensor y = invoke("avg_pool2d", {unsqueeze(x, -2), as_2d(a[1].int_list(), 1), as_2d(a[2].int_list(), 1),
                                   as_2d(a[3].int_list(), 0), a[4], a[5], Value()});
  return {squeeze_height(y)};
}

// adaptive_avg_pool1d(Tensor self, int[1] output_size)
std::vector<Tensor> adaptive_avg_pool1d_composite(const Args& a) {
  const Tensor& x = a[0].tensor();
  check_1d(x, "adaptive_avg_pool1d");
  Tensor y = invoke("adaptive_avg_pool2d", {unsqueeze(x, -2), as_2d(a[1].int_list(), 1)});
  return {squeeze_height(y)};
}


// ---- adaptive_max_pool2d ------------------------------------------------------------------------
// adaptive_max_pool2d(Tensor self, int[2] output_size) -> (Tensor, Tensor): the windows of
// adaptive_avg_pool2d, each one's max and its flat index in the plane (NaN wins, as in aten).
std::vector<Shape> shape_adaptive_max(const Args& a) {
  PoolGeom g = adaptive_geom(a[0].tensor(), a[1].int_list());
  Shape s = pooled_shape(a[0].tensor(), g.Ho, g.Wo);
  return {s, s};
}

void adaptive_max_kernel(const Args& a, std::vector<Tensor>& outs) {
  const PoolGeom g = adaptive_geom(a[0].tensor(), a[1].int_list());
  visit_pool(a[0].tensor().dtype(), "adaptive_max_pool2d", [&](auto tag) {
    using T = typename decltype(tag)::type;
    Tensor x = dense(a[0].tensor(), dtype_of<T>());
    const T* px = x.data<T>();
    int64_t* pi = outs[1].data<int64_t>();
    into<T>(outs[0], [&](T* po) {
      parallel_for(0, g.planes, 1, [&](int64_t b, int64_t e) {
        for (int64_t p = b; p < e; ++p)
          for (int64_t oh = 0; oh < g.Ho; ++oh)
            for (int64_t ow = 0; ow < g.Wo; ++ow) {
              const int64_t h0 = start_index(oh, g.Ho, g.H), h1 = end_index(oh, g.Ho, g.H);
              const int64_t w0 = start_index(ow, g.Wo, g.W), w1 = end_index(ow, g.Wo, g.W);
              int64_t best = h0 * g.W + w0;
              T m = -std::numeric_limits<T>::infinity();
              for (int64_t h = h0; h < h1; ++h)
                for (int64_t c = w0; c < w1; ++c) {
                  const T v = px[(p * g.H + h) * g.W + c];
                  if (v > m || std::isnan(v)) {
                    m = v;
                    best = h * g.W + c;
                  }
                }
              const int64_t o = (p * g.Ho + oh) * g.Wo + ow;
              po[o] = m;
              pi[o] = best;
            }
      });
    });
  });
}

std::vector<Tensor> grad_adaptive_max(const GradCtx& c) {
  return {invoke("adaptive_max_pool2d_backward", {c.grad(0), c.in(0), c.out(1)})};
}

// adaptive_max_pool2d_backward(Tensor grad_output, Tensor self, Tensor indices): each output's
// gradient added at its index.
void adaptive_max_backward_kernel(const Args& a, std::vector<Tensor>& outs) {
  const Tensor& self = a[1].tensor();
  const int64_t H = self.size(-2), W = self.size(-1), planes = self.numel() / std::max<int64_t>(1, H * W);
  const int64_t per = a[0].tensor().numel() / std::max<int64_t>(1, planes);
  visit_pool(self.dtype(), "adaptive_max_pool2d_backward", [&](auto tag) {
    using T = typename decltype(tag)::type;
    Tensor go = dense(a[0].tensor(), dtype_of<T>()), idx = dense(a[2].tensor(), DType::Int64);
    const T* pg = go.data<T>();
    const int64_t* pi = idx.data<int64_t>();
    into<T>(outs[0], [&](T* gi) {
      std::fill(gi, gi + planes * H * W, T(0));
      parallel_for(0, planes, 1, [&](int64_t b, int64_t e) {
        for (int64_t p = b; p < e; ++p)
          for (int64_t o = p * per; o < (p + 1) * per; ++o) gi[p * H * W + pi[o]] += pg[o];
      });
    });
  });
}

// adaptive_max_pool1d(Tensor self, int[1] output_size) -> (Tensor, Tensor)
std::vector<Tensor> adaptive_max_pool1d_composite(const Args& a) {
  const Tensor& x = a[0].tensor();
  check_1d(x, "adaptive_max_pool1d");
  auto r = invoke_multi("adaptive_max_pool2d", {unsqueeze(x, -2), as_2d(a[1].int_list(), 1)});
  return {squeeze_height(r[0]), squeeze_height(r[1])};
}

}  // namespace
}  // namespace ops

void register_pool_ops(OpTable& t) {
  using namespace ops;
  constexpr OpKind C = OpKind::Composite, R = OpKind::Reduction;
  t.add({.schema_text = "max_pool2d_with_indices(Tensor self, int[2] kernel_size, int[2] stride=[], "
                        "int[2] padding=0, int[2] dilation=1, bool ceil_mode=False) -> (Tensor, Tensor)",
         .kind = R, .shape = shape_max_pool, .dtype = dtype_max_pool, .kernel = max_pool_kernel,
         .grad = grad_max_pool, .saves = save_in(0) | save_out(1)});
  t.add({.schema_text = "max_pool2d_with_indices_backward(Tensor grad_output, Tensor self, int[2] kernel_size, "
                        "int[2] stride, int[2] padding, int[2] dilation, bool ceil_mode, Tensor indices) -> Tensor",
         .kind = R, .shape = shape_max_pool_backward, .dtype = dtype_backward, .kernel = max_pool_backward_kernel});
  t.add({.schema_text = "max_pool2d(Tensor self, int[2] kernel_size, int[2] stride=[], int[2] padding=0, "
                        "int[2] dilation=1, bool ceil_mode=False) -> Tensor",
         .kind = C, .composite = max_pool2d_composite});
  t.add({.schema_text = "max_pool1d_with_indices(Tensor self, int[1] kernel_size, int[1] stride=[], "
                        "int[1] padding=0, int[1] dilation=1, bool ceil_mode=False) -> (Tensor, Tensor)",
         .kind = C, .composite = max_pool1d_with_indices_composite});
  t.add({.schema_text = "max_pool1d(Tensor self, int[1] kernel_size, int[1] stride=[], int[1] padding=0, "
                        "int[1] dilation=1, bool ceil_mode=False) -> Tensor",
         .kind = C, .composite = max_pool1d_composite});
  t.add({.schema_text = "avg_pool2d(Tensor self, int[2] kernel_size, int[2] stride=[], int[2] padding=0, "
                        "bool ceil_mode=False, bool count_include_pad=True, int? divisor_override=None) -> Tensor",
         .kind = R, .shape = shape_avg_pool, .dtype = dtype_like_self, .kernel = avg_pool_kernel,
         .grad = grad_avg_pool, .saves = save_in(0)});
  t.add({.schema_text = "avg_pool2d_backward(Tensor grad_output, Tensor self, int[2] kernel_size, int[2] stride, "
                        "int[2] padding, bool ceil_mode, bool count_include_pad, int? divisor_override) -> Tensor",
         .kind = R, .shape = shape_avg_pool_backward, .dtype = dtype_backward, .kernel = avg_pool_backward_kernel});
  t.add({.schema_text = "avg_pool1d(Tensor self, int[1] kernel_size, int[1] stride=[], int[1] padding=0, "
                        "bool ceil_mode=False, bool count_include_pad=True) -> Tensor",
         .kind = C, .composite = avg_pool1d_composite});
  t.add({.schema_text = "adaptive_avg_pool2d(Tensor self, int[2] output_size) -> Tensor", .kind = R,
         .shape = shape_adaptive_avg, .dtype = dtype_like_self, .kernel = adaptive_avg_kernel,
         .grad = grad_adaptive_avg, .saves = save_in(0)});
  t.add({.schema_text = "adaptive_avg_pool2d_backward(Tensor grad_output, Tensor self) -> Tensor", .kind = R,
         .shape = shape_adaptive_avg_backward, .dtype = dtype_backward, .kernel = adaptive_avg_backward_kernel});
  t.add({.schema_text = "adaptive_avg_pool1d(Tensor self, int[1] output_size) -> Tensor", .kind = C,
         .composite = adaptive_avg_pool1d_composite});
  t.add({.schema_text = "adaptive_max_pool2d(Tensor self, int[2] output_size) -> (Tensor, Tensor)", .kind = R,
         .shape = shape_adaptive_max, .dtype = dtype_max_pool, .kernel = adaptive_max_kernel,
         .grad = grad_adaptive_max, .saves = save_in(0) | save_out(1)});
  t.add({.schema_text = "adaptive_max_pool2d_backward(Tensor grad_output, Tensor self, Tensor indices) -> Tensor",
         .kind = R, .shape = shape_adaptive_avg_backward, .dtype = dtype_backward,
         .kernel = adaptive_max_backward_kernel});
  t.add({.schema_text = "adaptive_max_pool1d(Tensor self, int[1] output_size) -> (Tensor, Tensor)", .kind = C,
         .composite = adaptive_max_pool1d_composite});
}

// ---- typed wrappers ---------------------------------------------------------------
std::vector<Tensor> max_pool2d_with_indices(const Tensor& x, const Shape& kernel_size, const Shape& stride,
                                            const Shape& padding, const Shape& dilation, bool ceil_mode) {
  return invoke_multi("max_pool2d_with_indices", {x, kernel_size, stride, padding, dilation, ceil_mode});
}
Tensor avg_pool2d(const Tensor& x, const Shape& kernel_size, const Shape& stride, const Shape& padding,
                  bool ceil_mode, bool count_include_pad, std::optional<int64_t> divisor_override) {
  return invoke("avg_pool2d", {x, kernel_size, stride, padding, ceil_mode, count_include_pad,
                               divisor_override ? Value(*divisor_override) : Value()});
}
Tensor adaptive_avg_pool2d(const Tensor& x, const Shape& output_size) {
  return invoke("adaptive_avg_pool2d", {x, output_size});
}

}  // namespace kiln
