// Pooling over the last two or three dims of a [C, (D,) H, W] or
// [N, C, (D,) H, W] input: max pooling with indices, average pooling,
// adaptive average and max pooling, each an op with its own backward op as in
// aten. One set of kernels serves both: a 2-d plane is a 3-d one of depth 1.
// The 1-d forms are Composites that pool a height-1 plane.
#include <algorithm>
#include <cmath>
#include <deque>
#include <limits>
#include <string>

#include "core/ops/spatial.h"
#include "core/thread_pool.h"

namespace kiln {
namespace ops {
namespace {
using namespace spatial;

// ---- geometry --------------------------------------------------------------------------
// Every pool is a 3-d one: a 2-d pool's planes have depth 1.
struct PoolGeom {
  int64_t planes = 1, D = 1, H = 1, W = 1, Do = 1, Ho = 1, Wo = 1;
  int64_t kd = 1, kh = 1, kw = 1, sd = 1, sh = 1, sw = 1, pd = 0, ph = 0, pw = 0, dd = 1, dh = 1, dw = 1;
  int64_t nd = 2;  // the op's spatial dims
  int64_t in_plane() const { return D * H * W; }
  int64_t out_plane() const { return Do * Ho * Wo; }
};

const char* count_word(int64_t nd) { return nd == 3 ? "three" : "two"; }

// An int[nd] pooling argument: one value for every dim, or nd (stride [] means kernel_size).
// avg_pool3d words its message without "either", as aten does.
Shape pool_param(const Shape& v, int64_t nd, const std::string& op, const char* what, const Shape& fallback) {
  if (v.empty() && !fallback.empty()) return fallback;
  const bool stride = std::string_view(what) == "stride", plain = op == "avg_pool3d";
  KILN_CHECK(v.size() == 1 || int64_t(v.size()) == nd, Runtime, op, ": ", what,
             plain ? " must be " : std::string_view(what) == "dilation" ? " must be either " : " must either be ",
             stride ? "omitted, " : "", "a single int, or a tuple of ", count_word(nd), " ints");
  return v.size() == 1 ? Shape(size_t(nd), v[0]) : v;
}

// aten's pooling_output_shape: ceil_mode keeps a last window only if it starts inside the input or left pad.
int64_t pool_out(int64_t in, int64_t k, int64_t pad, int64_t stride, int64_t dil, bool ceil) {
  int64_t num = in + 2 * pad - dil * (k - 1) - 1 + (ceil ? stride - 1 : 0);
  int64_t out = (num >= 0 ? num / stride : -((-num + stride - 1) / stride)) + 1;
  if (ceil && (out - 1) * stride >= in + pad) --out;
  return out;
}

// "a: 1 b: 2" from names and values, aten's way of listing per-dim arguments.
std::string named(std::initializer_list<const char*> names, const Shape& v) {
  std::string out;
  size_t i = 0;
  for (const char* n : names) {
    out += (i ? " " : "") + std::string(n) + ": " + std::to_string(v[i]);
    ++i;
  }
  return out;
}

void check_positive(const Shape& k, const Shape& s, const Shape& d, int64_t nd) {
  auto pos = [](const Shape& v) { return std::ranges::all_of(v, [](int64_t x) { return x > 0; }); };
  const bool vol = nd == 3;
  KILN_CHECK(pos(k), Runtime, "kernel size should be greater than zero, but got ",
             vol ? named({"kT", "kH", "kW"}, k) : named({"kH", "kW"}, k));
  KILN_CHECK(pos(s), Runtime, "stride should be greater than zero, but got ",
             vol ? named({"dT", "dH", "dW"}, s) : named({"dH", "dW"}, s));
  KILN_CHECK(pos(d), Runtime, "dilation should be greater than zero, but got ",
             vol ? named({"dilationT", "dilationH", "dilationW"}, d) : named({"dilationH", "dilationW"}, d));
}

// Fills dims (D, H, W) of g from the last nd entries of per-dim arguments.
void set_dims(PoolGeom& g, const Tensor& x, const Shape& k, const Shape& s, const Shape& p, const Shape& d) {
  int64_t* in[3] = {&g.D, &g.H, &g.W};
  int64_t* kk[3] = {&g.kd, &g.kh, &g.kw};
  int64_t* ss[3] = {&g.sd, &g.sh, &g.sw};
  int64_t* pp[3] = {&g.pd, &g.ph, &g.pw};
  int64_t* dd[3] = {&g.dd, &g.dh, &g.dw};
  for (int64_t i = 0; i < g.nd; ++i) {
    const size_t j = size_t(3 - g.nd + i), a = size_t(i);
    *in[j] = x.size(x.dim() - g.nd + i), *kk[j] = k[a], *ss[j] = s[a], *pp[j] = p[a], *dd[j] = d[a];
  }
  g.planes = x.numel() / std::max<int64_t>(1, g.in_plane());
}

PoolGeom pool_geom(const Tensor& x, const Shape& k0, const Shape& s0, const Shape& p0, const Shape& d0, bool ceil,
                   const std::string& op, bool dilated, int64_t nd) {
  Shape k = pool_param(k0, nd, op, "kernel_size", {}), s = pool_param(s0, nd, op, "stride", k);
  Shape p = pool_param(p0, nd, op, "padding", {}), d = pool_param(d0, nd, op, "dilation", {});
  check_positive(k, s, d, nd);
  bool ok = x.dim() == nd + 1 || x.dim() == nd + 2;
  for (int64_t i = x.dim() - nd - 1; ok && i < x.dim(); ++i) ok = x.size(i) != 0;
  KILN_CHECK(ok, Runtime, "non-empty ", nd + 1, "D or ", nd + 2, "D (batch mode) tensor expected for input");
  for (size_t i = 0; i < size_t(nd); ++i) {
    const int64_t eff = dilated ? ((k[i] - 1) * d[i] + 1) / 2 : k[i] / 2;
    KILN_CHECK(p[i] <= eff, Runtime, "pad should be at most half of effective kernel size, but got pad=", p[i],
               ", kernel_size=", k[i], " and dilation=", dilated ? d[i] : 1);
  }
  PoolGeom g;
  g.nd = nd;
  set_dims(g, x, k, s, p, d);
  KILN_CHECK(op != "avg_pool3d" || (g.D >= g.kd && g.H >= g.kh && g.W >= g.kw), Runtime, "input image (T: ", g.D,
             " H: ", g.H, " W: ", g.W, ") smaller than kernel size (kT: ", g.kd, " kH: ", g.kh, " kW: ", g.kw, ")");
  g.Do = pool_out(g.D, g.kd, g.pd, g.sd, g.dd, ceil);
  g.Ho = pool_out(g.H, g.kh, g.ph, g.sh, g.dh, ceil);
  g.Wo = pool_out(g.W, g.kw, g.pw, g.sw, g.dw, ceil);
  const int64_t C = x.size(-nd - 1);
  const std::string in_d = nd == 3 ? std::to_string(g.D) + "x" : "", out_d = nd == 3 ? std::to_string(g.Do) + "x" : "";
  KILN_CHECK(g.Do >= 1 && g.Ho >= 1 && g.Wo >= 1, Runtime, "Given input size: (", C, "x", in_d, g.H, "x", g.W,
             "). Calculated output size: (", C, "x", out_d, g.Ho, "x", g.Wo, "). Output size is too small");
  return g;
}

Shape pooled_shape(const Tensor& x, const PoolGeom& g) {
  Shape s = x.sizes();
  const int64_t outs[3] = {g.Do, g.Ho, g.Wo};
  for (int64_t i = 0; i < g.nd; ++i) s[size_t(x.dim() - g.nd + i)] = outs[3 - g.nd + i];
  return s;
}

// The op's name for its spatial dims: "max_pool" + "3d" (for messages).
std::string op_name(const char* base, int64_t nd) { return base + std::to_string(nd) + "d"; }

// The 2-d or 3-d op to invoke, as a literal: invoke() caches ops by the name's address.
template <int ND>
constexpr const char* pick(const char* two, const char* three) {
  return ND == 2 ? two : three;
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

// Calls f(od, oh, ow, o) for each output position of a plane, o its flat index.
template <class F>
void each_out(const PoolGeom& g, F&& f) {
  int64_t o = 0;
  for (int64_t od = 0; od < g.Do; ++od)
    for (int64_t oh = 0; oh < g.Ho; ++oh)
      for (int64_t ow = 0; ow < g.Wo; ++ow) f(od, oh, ow, o++);
}

// A box of a plane, [d0, d1) x [h0, h1) x [w0, w1), visited with a step per dim.
struct Box {
  int64_t d0, d1, h0, h1, w0, w1, sd = 1, sh = 1, sw = 1;
  bool empty() const { return d0 >= d1 || h0 >= h1 || w0 >= w1; }
  int64_t volume() const { return (d1 - d0) * (h1 - h0) * (w1 - w0); }
  // f(flat index in a plane of H x W) for each element.
  template <class F>
  void each(int64_t H, int64_t W, F&& f) const {
    for (int64_t d = d0; d < d1; d += sd)
      for (int64_t h = h0; h < h1; h += sh)
        for (int64_t w = w0; w < w1; w += sw) f((d * H + h) * W + w);
  }
};

// The max of a box and its flat index (NaN wins, like aten; the first index on ties).
template <class T>
void box_max(const T* plane, const PoolGeom& g, const Box& b, T& m, int64_t& best) {
  best = (b.d0 * g.H + b.h0) * g.W + b.w0;
  m = -std::numeric_limits<T>::infinity();
  b.each(g.H, g.W, [&](int64_t i) {
    const T v = plane[i];
    if (v > m || std::isnan(v)) {
      m = v;
      best = i;
    }
  });
}

// ---- max_pool{2,3}d_with_indices -------------------------------------------------------------
// max_pool{n}d_with_indices(Tensor self, int[n] kernel_size, int[n] stride=[], int[n] padding=0,
//                           int[n] dilation=1, bool ceil_mode=False) -> (Tensor, Tensor)
template <int ND>
PoolGeom max_geom(const Args& a, int self = 0) {
  const size_t s = size_t(self);
  return pool_geom(a[s].tensor(), a[s + 1].int_list(), a[s + 2].int_list(), a[s + 3].int_list(), a[s + 4].int_list(),
                   a[s + 5].to_bool(), op_name("max_pool", ND), true, ND);
}

template <int ND>
std::vector<Shape> shape_max_pool(const Args& a) {
  Shape s = pooled_shape(a[0].tensor(), max_geom<ND>(a));
  return {s, s};
}
std::vector<DType> dtype_max_pool(const Args& a) { return {a[0].tensor().dtype(), DType::Int64}; }

// The window of output (od, oh, ow): its dilated taps inside the input.
Box max_window(const PoolGeom& g, int64_t od, int64_t oh, int64_t ow) {
  int64_t d0 = od * g.sd - g.pd, h0 = oh * g.sh - g.ph, w0 = ow * g.sw - g.pw;
  const int64_t d1 = std::min(d0 + (g.kd - 1) * g.dd + 1, g.D), h1 = std::min(h0 + (g.kh - 1) * g.dh + 1, g.H),
                w1 = std::min(w0 + (g.kw - 1) * g.dw + 1, g.W);
  while (d0 < 0) d0 += g.dd;
  while (h0 < 0) h0 += g.dh;
  while (w0 < 0) w0 += g.dw;
  return {d0, d1, h0, h1, w0, w1, g.dd, g.dh, g.dw};
}

// The 2-d pools without dilation (nearly all of them), a row of outputs at a time: each tap
// of the window updates the whole row, so the outputs' compare-and-select chains are
// independent and the inner loop has no bounds checks (each tap's valid outputs are a range).
// Per output the taps come in box_max's order (rows, then columns), with its NaN rule and its
// first index on ties.
template <class T>
void max_plane_2d(const T* plane, const PoolGeom& g, T* po, int64_t* pi) {
  for (int64_t oh = 0; oh < g.Ho; ++oh) {
    const int64_t hs = oh * g.sh - g.ph, h0 = std::max<int64_t>(hs, 0), h1 = std::min(hs + g.kh, g.H);
    T* m = po + oh * g.Wo;
    int64_t* best = pi + oh * g.Wo;
    for (int64_t ow = 0; ow < g.Wo; ++ow) {
      m[ow] = -std::numeric_limits<T>::infinity();
      best[ow] = h0 * g.W + std::max<int64_t>(ow * g.sw - g.pw, 0);
    }
    for (int64_t h = h0; h < h1; ++h)
      for (int64_t k = 0; k < g.kw; ++k) {
        // Outputs whose tap k lands inside the row: 0 <= ow * sw - pw + k < W.
        const int64_t off = k - g.pw, lo = off >= 0 ? 0 : (-off + g.sw - 1) / g.sw;
        const int64_t hi = std::min(g.Wo, g.W - off > 0 ? (g.W - off - 1) / g.sw + 1 : 0);
        const T* row = plane + h * g.W;  // off may be negative: indexed, not added to the pointer
        for (int64_t ow = lo; ow < hi; ++ow) {
          const T v = row[off + ow * g.sw];
          const bool take = v > m[ow] || std::isnan(v);
          m[ow] = take ? v : m[ow];
          best[ow] = take ? h * g.W + off + ow * g.sw : best[ow];
        }
      }
  }
}

template <int ND>
void max_pool_kernel(const Args& a, std::vector<Tensor>& outs) {
  const PoolGeom g = max_geom<ND>(a);
  const bool dense_2d = ND == 2 && g.dh == 1 && g.dw == 1;
  visit_pool(a[0].tensor().dtype(), op_name("max_pool", ND).c_str(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    Tensor x = dense(a[0].tensor(), dtype_of<T>());
    const T* px = x.data<T>();
    int64_t* pi = outs[1].data<int64_t>();
    into<T>(outs[0], [&](T* po) {
      parallel_for(0, g.planes, 1, [&](int64_t b, int64_t e) {
        for (int64_t p = b; p < e; ++p) {
          if (dense_2d) {
            max_plane_2d(px + p * g.in_plane(), g, po + p * g.out_plane(), pi + p * g.out_plane());
            continue;
          }
          each_out(g, [&](int64_t od, int64_t oh, int64_t ow, int64_t o) {
            const int64_t at = p * g.out_plane() + o;
            box_max(px + p * g.in_plane(), g, max_window(g, od, oh, ow), po[at], pi[at]);
          });
        }
      });
    });
  });
}

template <int ND>
std::vector<Tensor> grad_max_pool(const GradCtx& c) {
  const Args& a = c.args;
  return {invoke(pick<ND>("max_pool2d_with_indices_backward", "max_pool3d_with_indices_backward"),
                 {c.grad(0), c.in(0), a[1], a[2], a[3], a[4], a[5], c.out(1)})};
}

// max_pool{n}d_with_indices_backward(Tensor grad_output, Tensor self, int[n] kernel_size, int[n] stride,
//                                    int[n] padding, int[n] dilation, bool ceil_mode, Tensor indices)
template <int ND>
std::vector<Shape> shape_max_pool_backward(const Args& a) {
  max_geom<ND>(a, 1);
  return {a[1].tensor().sizes()};
}
std::vector<DType> dtype_backward(const Args& a) { return {a[1].tensor().dtype()}; }

// Each output's gradient added at its index in its plane (the max pools' and adaptive max pools' backward).
void scatter_by_index(const Tensor& self, const Tensor& grad, const Tensor& indices, int64_t nd, const char* op,
                      Tensor& out) {
  int64_t in_plane = 1;
  for (int64_t i = self.dim() - nd; i < self.dim(); ++i) in_plane *= self.size(i);
  const int64_t planes = self.numel() / std::max<int64_t>(1, in_plane);
  const int64_t per = grad.numel() / std::max<int64_t>(1, planes);
  visit_pool(self.dtype(), op, [&](auto tag) {
    using T = typename decltype(tag)::type;
    Tensor go = dense(grad, dtype_of<T>()), idx = dense(indices, DType::Int64);
    const T* pg = go.data<T>();
    const int64_t* pi = idx.data<int64_t>();
    into<T>(out, [&](T* gi) {
      std::fill(gi, gi + planes * in_plane, T(0));
      parallel_for(0, planes, 1, [&](int64_t b, int64_t e) {
        for (int64_t p = b; p < e; ++p)
          for (int64_t o = p * per; o < (p + 1) * per; ++o) gi[p * in_plane + pi[o]] += pg[o];
      });
    });
  });
}

template <int ND>
void max_pool_backward_kernel(const Args& a, std::vector<Tensor>& outs) {
  max_geom<ND>(a, 1);
  scatter_by_index(a[1].tensor(), a[0].tensor(), a[7].tensor(), ND, (op_name("max_pool", ND) + "_backward").c_str(),
                   outs[0]);
}

// ---- avg_pool{2,3}d ------------------------------------------------------------------------------
// avg_pool{n}d(Tensor self, int[n] kernel_size, int[n] stride=[], int[n] padding=0, bool ceil_mode=False,
//              bool count_include_pad=True, int? divisor_override=None)
struct AvgArgs {
  PoolGeom g;
  bool include_pad;
  int64_t divisor;  // 0: none
};

template <int ND>
AvgArgs avg_args(const Args& a, int self = 0) {
  const size_t s = size_t(self);
  AvgArgs r;
  r.g = pool_geom(a[s].tensor(), a[s + 1].int_list(), a[s + 2].int_list(), a[s + 3].int_list(), Shape{1},
                  a[s + 4].to_bool(), op_name("avg_pool", ND), false, ND);
  r.include_pad = a[s + 5].to_bool();
  r.divisor = a[s + 6].is_none() ? 0 : a[s + 6].to_int();
  KILN_CHECK(a[s + 6].is_none() || r.divisor != 0, Runtime, "divisor must be not zero");
  return r;
}

// The window of output (od, oh, ow) clipped to the input, and its divisor.
struct AvgWindow {
  Box box;
  int64_t div;
};
AvgWindow avg_window(const AvgArgs& a, int64_t od, int64_t oh, int64_t ow) {
  const PoolGeom& g = a.g;
  const int64_t d0 = od * g.sd - g.pd, h0 = oh * g.sh - g.ph, w0 = ow * g.sw - g.pw;
  const Box padded{d0, std::min(d0 + g.kd, g.D + g.pd), h0, std::min(h0 + g.kh, g.H + g.ph), w0,
                   std::min(w0 + g.kw, g.W + g.pw)};
  const Box box{std::max<int64_t>(d0, 0), std::min(padded.d1, g.D), std::max<int64_t>(h0, 0),
                std::min(padded.h1, g.H), std::max<int64_t>(w0, 0), std::min(padded.w1, g.W)};
  return {box, a.divisor ? a.divisor : a.include_pad ? padded.volume() : box.volume()};
}

template <int ND>
std::vector<Shape> shape_avg_pool(const Args& a) {
  return {pooled_shape(a[0].tensor(), avg_args<ND>(a).g)};
}

template <int ND>
void avg_pool_kernel(const Args& a, std::vector<Tensor>& outs) {
  const AvgArgs r = avg_args<ND>(a);
  const PoolGeom& g = r.g;
  visit_pool(a[0].tensor().dtype(), op_name("avg_pool", ND).c_str(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    Tensor x = dense(a[0].tensor(), dtype_of<T>());
    const T* px = x.data<T>();
    into<T>(outs[0], [&](T* po) {
      parallel_for(0, g.planes, 1, [&](int64_t b, int64_t e) {
        for (int64_t p = b; p < e; ++p)
          each_out(g, [&](int64_t od, int64_t oh, int64_t ow, int64_t o) {
            const AvgWindow w = avg_window(r, od, oh, ow);
            T s = 0;  // an empty window (all padding) averages to 0, like aten
            if (!w.box.empty()) w.box.each(g.H, g.W, [&](int64_t i) { s += px[p * g.in_plane() + i]; });
            po[p * g.out_plane() + o] = w.box.empty() ? T(0) : s / T(w.div);
          });
      });
    });
  });
}

template <int ND>
std::vector<Tensor> grad_avg_pool(const GradCtx& c) {
  const Args& a = c.args;
  return {invoke(pick<ND>("avg_pool2d_backward", "avg_pool3d_backward"),
                 {c.grad(0), c.in(0), a[1], a[2], a[3], a[4], a[5], a[6]})};
}

// avg_pool{n}d_backward(Tensor grad_output, Tensor self, int[n] kernel_size, int[n] stride, int[n] padding,
//                       bool ceil_mode, bool count_include_pad, int? divisor_override)
template <int ND>
std::vector<Shape> shape_avg_pool_backward(const Args& a) {
  avg_args<ND>(a, 1);
  return {a[1].tensor().sizes()};
}

template <int ND>
void avg_pool_backward_kernel(const Args& a, std::vector<Tensor>& outs) {
  const AvgArgs r = avg_args<ND>(a, 1);
  const PoolGeom& g = r.g;
  visit_pool(a[1].tensor().dtype(), (op_name("avg_pool", ND) + "_backward").c_str(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    Tensor go = dense(a[0].tensor(), dtype_of<T>());
    const T* pg = go.data<T>();
    into<T>(outs[0], [&](T* gi) {
      std::fill(gi, gi + g.planes * g.in_plane(), T(0));
      parallel_for(0, g.planes, 1, [&](int64_t b, int64_t e) {
        for (int64_t p = b; p < e; ++p)
          each_out(g, [&](int64_t od, int64_t oh, int64_t ow, int64_t o) {
            const AvgWindow w = avg_window(r, od, oh, ow);
            if (w.box.empty()) return;
            const T v = pg[p * g.out_plane() + o] / T(w.div);
            w.box.each(g.H, g.W, [&](int64_t i) { gi[p * g.in_plane() + i] += v; });
          });
      });
    });
  });
}

// ---- adaptive_avg_pool{2,3}d / adaptive_max_pool{2,3}d ----------------------------------------------
// Output o of n over an input of length len covers [floor(o*len/n), ceil((o+1)*len/n)).
int64_t start_index(int64_t o, int64_t n, int64_t len) { return (o * len) / n; }
int64_t end_index(int64_t o, int64_t n, int64_t len) { return ((o + 1) * len + n - 1) / n; }

Box adaptive_box(const PoolGeom& g, int64_t od, int64_t oh, int64_t ow) {
  return {start_index(od, g.Do, g.D), end_index(od, g.Do, g.D), start_index(oh, g.Ho, g.H),
          end_index(oh, g.Ho, g.H),   start_index(ow, g.Wo, g.W), end_index(ow, g.Wo, g.W)};
}

// aten's checks, in its words for each op (`base`: "adaptive_avg_pool" or "adaptive_max_pool").
PoolGeom adaptive_geom(const Tensor& x, const Shape& out0, int64_t nd, const char* base) {
  const std::string op = op_name(base, nd);
  const bool is_max = std::string_view(base) == "adaptive_max_pool";
  Shape out = out0.size() == 1 ? Shape(size_t(nd), out0[0]) : out0;
  KILN_CHECK(int64_t(out.size()) == nd, Runtime, op,
             is_max ? "(): internal error: output_size.size() must be " : ": output_size must be ", nd);
  bool ok = x.dim() == nd + 1 || x.dim() == nd + 2;
  for (int64_t i = 1; ok && i < x.dim(); ++i) ok = x.size(i) > 0;
  KILN_CHECK(ok, Runtime, op, "(): Expected ", nd + 1, "D or ", nd + 2, "D tensor, but got", is_max ? ": " : " ",
             list_str(x.sizes()));
  std::string braced = list_str(out);
  braced.front() = '{', braced.back() = '}';
  for (int64_t o : out)
    KILN_CHECK(o >= 0, Runtime, op, ": elements of output_size must be greater than or equal to 0 but received ",
               braced);
  PoolGeom g;
  g.nd = nd;
  const Shape ones(size_t(nd), 1), zeros(size_t(nd), 0);
  set_dims(g, x, ones, ones, zeros, ones);
  const int64_t* o = out.data();
  if (nd == 3) g.Do = *o++;
  g.Ho = o[0], g.Wo = o[1];
  return g;
}

template <int ND>
std::vector<Shape> shape_adaptive_avg(const Args& a) {
  return {pooled_shape(a[0].tensor(), adaptive_geom(a[0].tensor(), a[1].int_list(), ND, "adaptive_avg_pool"))};
}

template <int ND>
void adaptive_avg_kernel(const Args& a, std::vector<Tensor>& outs) {
  const PoolGeom g = adaptive_geom(a[0].tensor(), a[1].int_list(), ND, "adaptive_avg_pool");
  visit_pool(a[0].tensor().dtype(), op_name("adaptive_avg_pool", ND).c_str(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    Tensor x = dense(a[0].tensor(), dtype_of<T>());
    const T* px = x.data<T>();
    into<T>(outs[0], [&](T* po) {
      parallel_for(0, g.planes, 1, [&](int64_t b, int64_t e) {
        for (int64_t p = b; p < e; ++p)
          each_out(g, [&](int64_t od, int64_t oh, int64_t ow, int64_t o) {
            const Box box = adaptive_box(g, od, oh, ow);
            T s = 0;
            box.each(g.H, g.W, [&](int64_t i) { s += px[p * g.in_plane() + i]; });
            po[p * g.out_plane() + o] = s / T(box.volume());
          });
      });
    });
  });
}

template <int ND>
std::vector<Tensor> grad_adaptive_avg(const GradCtx& c) {
  return {invoke(pick<ND>("adaptive_avg_pool2d_backward", "adaptive_avg_pool3d_backward"), {c.grad(0), c.in(0)})};
}

// adaptive_avg_pool{n}d_backward(Tensor grad_output, Tensor self)
std::vector<Shape> shape_adaptive_avg_backward(const Args& a) { return {a[1].tensor().sizes()}; }

// The output size of a pooled gradient: its last nd dims.
Shape last_dims(const Tensor& t, int64_t nd) {
  Shape s;
  for (int64_t i = t.dim() - nd; i < t.dim(); ++i) s.push_back(t.size(i));
  return s;
}

template <int ND>
void adaptive_avg_backward_kernel(const Args& a, std::vector<Tensor>& outs) {
  const Tensor& go0 = a[0].tensor();
  const PoolGeom g = adaptive_geom(a[1].tensor(), last_dims(go0, ND), ND, "adaptive_avg_pool");
  visit_pool(a[1].tensor().dtype(), (op_name("adaptive_avg_pool", ND) + "_backward").c_str(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    Tensor go = dense(go0, dtype_of<T>());
    const T* pg = go.data<T>();
    into<T>(outs[0], [&](T* gi) {
      std::fill(gi, gi + g.planes * g.in_plane(), T(0));
      parallel_for(0, g.planes, 1, [&](int64_t b, int64_t e) {
        for (int64_t p = b; p < e; ++p)
          each_out(g, [&](int64_t od, int64_t oh, int64_t ow, int64_t o) {
            const Box box = adaptive_box(g, od, oh, ow);
            const T v = pg[p * g.out_plane() + o] / T(box.volume());
            box.each(g.H, g.W, [&](int64_t i) { gi[p * g.in_plane() + i] += v; });
          });
      });
    });
  });
}

// adaptive_max_pool{n}d(Tensor self, int[n] output_size) -> (Tensor, Tensor): the windows of
// adaptive_avg_pool, each one's max and its flat index in the plane.
template <int ND>
std::vector<Shape> shape_adaptive_max(const Args& a) {
  Shape s = pooled_shape(a[0].tensor(), adaptive_geom(a[0].tensor(), a[1].int_list(), ND, "adaptive_max_pool"));
  return {s, s};
}

template <int ND>
void adaptive_max_kernel(const Args& a, std::vector<Tensor>& outs) {
  const PoolGeom g = adaptive_geom(a[0].tensor(), a[1].int_list(), ND, "adaptive_max_pool");
  visit_pool(a[0].tensor().dtype(), op_name("adaptive_max_pool", ND).c_str(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    Tensor x = dense(a[0].tensor(), dtype_of<T>());
    const T* px = x.data<T>();
    int64_t* pi = outs[1].data<int64_t>();
    into<T>(outs[0], [&](T* po) {
      parallel_for(0, g.planes, 1, [&](int64_t b, int64_t e) {
        for (int64_t p = b; p < e; ++p)
          each_out(g, [&](int64_t od, int64_t oh, int64_t ow, int64_t o) {
            const int64_t at = p * g.out_plane() + o;
            box_max(px + p * g.in_plane(), g, adaptive_box(g, od, oh, ow), po[at], pi[at]);
          });
      });
    });
  });
}

template <int ND>
std::vector<Tensor> grad_adaptive_max(const GradCtx& c) {
  return {invoke(pick<ND>("adaptive_max_pool2d_backward", "adaptive_max_pool3d_backward"),
                 {c.grad(0), c.in(0), c.out(1)})};
}

// adaptive_max_pool{n}d_backward(Tensor grad_output, Tensor self, Tensor indices)
template <int ND>
void adaptive_max_backward_kernel(const Args& a, std::vector<Tensor>& outs) {
  scatter_by_index(a[1].tensor(), a[0].tensor(), a[2].tensor(), ND,
                   (op_name("adaptive_max_pool", ND) + "_backward").c_str(), outs[0]);
}

// ---- second derivatives ----------------------------------------------------------------------
// Each pooling backward is linear in grad_output and reads self only for its
// shape, so its derivative is the forward pooling applied to the incoming
// gradient (one per tensor input: grad_output, self[, indices]).

// Max pools: the gradient at each output is the incoming one at its argmax.
Tensor gather_at_indices(const Tensor& gg, const Tensor& indices, int64_t nd) {
  Tensor picked = gather(flatten(gg, gg.dim() - nd), -1, flatten(indices, indices.dim() - nd));
  return reshape(picked, indices.sizes());
}
template <int ND>
std::vector<Tensor> grad_max_pool_backward(const GradCtx& c) {
  return {c.need(0) ? gather_at_indices(c.grad(), c.in(7), ND) : Tensor(), Tensor(), Tensor()};
}
template <int ND>
std::vector<Tensor> grad_adaptive_max_backward(const GradCtx& c) {
  return {c.need(0) ? gather_at_indices(c.grad(), c.in(2), ND) : Tensor(), Tensor(), Tensor()};
}
template <int ND>
std::vector<Tensor> grad_avg_pool_backward(const GradCtx& c) {
  if (!c.need(0)) return {Tensor(), Tensor()};
  const Args& a = c.args;
  return {invoke(pick<ND>("avg_pool2d", "avg_pool3d"), {c.grad(), a[2], a[3], a[4], a[5], a[6], a[7]}), Tensor()};
}
// The pooled size is grad_output's own.
template <int ND>
std::vector<Tensor> grad_adaptive_avg_backward(const GradCtx& c) {
  if (!c.need(0)) return {Tensor(), Tensor()};
  const Shape& go = c.in_sizes[0];
  Shape out(go.end() - ND, go.end());
  return {invoke(pick<ND>("adaptive_avg_pool2d", "adaptive_avg_pool3d"), {c.grad(), out}), Tensor()};
}

// ---- composites ---------------------------------------------------------------------------------
template <int ND>
std::vector<Tensor> max_pool_composite(const Args& a) {
  return {invoke_multi(pick<ND>("max_pool2d_with_indices", "max_pool3d_with_indices"),
                       {a[0], a[1], a[2], a[3], a[4], a[5]})[0]};
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


// adaptive_max_pool1d(Tensor self, int[1] output_size) -> (Tensor, Tensor)
std::vector<Tensor> adaptive_max_pool1d_composite(const Args& a) {
  const Tensor& x = a[0].tensor();
  check_1d(x, "adaptive_max_pool1d");
  auto r = invoke_multi("adaptive_max_pool2d", {unsqueeze(x, -2), as_2d(a[1].int_list(), 1)});
  return {squeeze_height(r[0]), squeeze_height(r[1])};
}

// Schemas built at registration, kept as long as the table (an OpDef points at its text).
const char* keep(std::string text) {
  static std::deque<std::string> texts;
  return texts.emplace_back(std::move(text)).c_str();
}

// The 2-d and 3-d forms of each pooling op and its backward.
template <int ND>
void register_spatial_pools(OpTable& t) {
  using namespace ops;
  constexpr OpKind C = OpKind::Composite, R = OpKind::Reduction;
  const std::string n = std::to_string(ND), ints = "int[" + n + "] ";
  auto schema = [&](const std::string& op, const std::string& rest) { return keep(op + n + "d" + rest); };
  t.add({.schema_text = schema("max_pool", "_with_indices(Tensor self, " + ints + "kernel_size, " + ints +
                                               "stride=[], " + ints + "padding=0, " + ints +
                                               "dilation=1, bool ceil_mode=False) -> (Tensor, Tensor)"),
         .kind = R, .shape = shape_max_pool<ND>, .dtype = dtype_max_pool, .kernel = max_pool_kernel<ND>,
         .grad = grad_max_pool<ND>, .saves = save_in(0) | save_out(1)});
  t.add({.schema_text = schema("max_pool", "_with_indices_backward(Tensor grad_output, Tensor self, " + ints +
                                               "kernel_size, " + ints + "stride, " + ints + "padding, " + ints +
                                               "dilation, bool ceil_mode, Tensor indices) -> Tensor"),
         .kind = R, .shape = shape_max_pool_backward<ND>, .dtype = dtype_backward,
         .kernel = max_pool_backward_kernel<ND>, .grad = grad_max_pool_backward<ND>, .saves = save_in(7)});
  t.add({.schema_text = schema("max_pool", "(Tensor self, " + ints + "kernel_size, " + ints + "stride=[], " + ints +
                                               "padding=0, " + ints + "dilation=1, bool ceil_mode=False) -> Tensor"),
         .kind = C, .composite = max_pool_composite<ND>});
  t.add({.schema_text = schema("avg_pool", "(Tensor self, " + ints + "kernel_size, " + ints + "stride=[], " + ints +
                                               "padding=0, bool ceil_mode=False, bool count_include_pad=True, "
                                               "int? divisor_override=None) -> Tensor"),
         .kind = R, .shape = shape_avg_pool<ND>, .dtype = dtype_like_self, .kernel = avg_pool_kernel<ND>,
         .grad = grad_avg_pool<ND>, .saves = save_in(0)});
  t.add({.schema_text = schema("avg_pool", "_backward(Tensor grad_output, Tensor self, " + ints + "kernel_size, " +
                                               ints + "stride, " + ints + "padding, bool ceil_mode, "
                                               "bool count_include_pad, int? divisor_override) -> Tensor"),
         .kind = R, .shape = shape_avg_pool_backward<ND>, .dtype = dtype_backward,
         .kernel = avg_pool_backward_kernel<ND>, .grad = grad_avg_pool_backward<ND>});
  t.add({.schema_text = schema("adaptive_avg_pool", "(Tensor self, " + ints + "output_size) -> Tensor"), .kind = R,
         .shape = shape_adaptive_avg<ND>, .dtype = dtype_like_self, .kernel = adaptive_avg_kernel<ND>,
         .grad = grad_adaptive_avg<ND>, .saves = save_in(0)});
  t.add({.schema_text = schema("adaptive_avg_pool", "_backward(Tensor grad_output, Tensor self) -> Tensor"),
         .kind = R, .shape = shape_adaptive_avg_backward, .dtype = dtype_backward,
         .kernel = adaptive_avg_backward_kernel<ND>, .grad = grad_adaptive_avg_backward<ND>});
  t.add({.schema_text = schema("adaptive_max_pool", "(Tensor self, " + ints + "output_size) -> (Tensor, Tensor)"),
         .kind = R, .shape = shape_adaptive_max<ND>, .dtype = dtype_max_pool, .kernel = adaptive_max_kernel<ND>,
         .grad = grad_adaptive_max<ND>, .saves = save_in(0) | save_out(1)});
  t.add({.schema_text = schema("adaptive_max_pool", "_backward(Tensor grad_output, Tensor self, Tensor indices) "
                                                    "-> Tensor"),
         .kind = R, .shape = shape_adaptive_avg_backward, .dtype = dtype_backward,
         .kernel = adaptive_max_backward_kernel<ND>, .grad = grad_adaptive_max_backward<ND>,
         .saves = save_in(2)});
}

}  // namespace
}  // namespace ops

void register_pool_ops(OpTable& t) {
  using namespace ops;
  constexpr OpKind C = OpKind::Composite;
  register_spatial_pools<2>(t);
  register_spatial_pools<3>(t);
  t.add({.schema_text = "max_pool1d_with_indices(Tensor self, int[1] kernel_size, int[1] stride=[], "
                        "int[1] padding=0, int[1] dilation=1, bool ceil_mode=False) -> (Tensor, Tensor)",
         .kind = C, .composite = max_pool1d_with_indices_composite});
  t.add({.schema_text = "max_pool1d(Tensor self, int[1] kernel_size, int[1] stride=[], int[1] padding=0, "
                        "int[1] dilation=1, bool ceil_mode=False) -> Tensor",
         .kind = C, .composite = max_pool1d_composite});
  t.add({.schema_text = "avg_pool1d(Tensor self, int[1] kernel_size, int[1] stride=[], int[1] padding=0, "
                        "bool ceil_mode=False, bool count_include_pad=True) -> Tensor",
         .kind = C, .composite = avg_pool1d_composite});
  t.add({.schema_text = "adaptive_avg_pool1d(Tensor self, int[1] output_size) -> Tensor", .kind = C,
         .composite = adaptive_avg_pool1d_composite});
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
