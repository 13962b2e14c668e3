// Convolution and constant padding. `convolution` is aten's op (batched
// input, 1-d, 2-d or 3-d; transposed convolutions are not supported): float32 on
// oneDNN's convolution primitives (onednn_conv.h), else an im2col + gemm
// kernel over the thread pool; its derivative is the `convolution_backward`
// op, on the same two paths. conv1d/conv2d/conv3d are
// Composites that check and expand arguments, add the batch dim to
// unbatched inputs and pad for padding='same', as in aten's Convolution.cpp.
#include <cblas.h>

#include <algorithm>
#include <cstring>
#include <optional>

#include "core/ops/onednn_conv.h"
#include "core/ops/spatial.h"
#include "core/thread_pool.h"

namespace kiln {
namespace ops {
namespace {
using namespace spatial;

// ---- geometry ----------------------------------------------------------------------
// Every convolution is a 3-d one: a 2-d one has depth 1, a 1-d one height 1 too.
struct ConvGeom {
  int64_t N = 1, C = 1, D = 1, H = 1, W = 1, O = 1, kd = 1, kh = 1, kw = 1;
  int64_t sd = 1, sh = 1, sw = 1, pd = 0, ph = 0, pw = 0, dd = 1, dh = 1, dw = 1, groups = 1;
  int64_t Do = 1, Ho = 1, Wo = 1, nd = 2;  // nd: the input's spatial dims
  int64_t Cg() const { return C / groups; }
  int64_t Og() const { return O / groups; }
  int64_t ck() const { return Cg() * kd * kh * kw; }  // im2col rows
  int64_t L() const { return Do * Ho * Wo; }          // im2col columns
  int64_t S() const { return D * H * W; }             // one input channel's elements
};

std::string sizes_x(const Shape& s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) out += (i ? " x " : "") + std::to_string(s[i]);
  return out;
}

int64_t conv_out(int64_t in, int64_t k, int64_t s, int64_t p, int64_t d) {
  return (in + 2 * p - d * (k - 1) - 1) / s + 1;
}

// Checks in aten's order (check_shape_forward) and the output geometry.
ConvGeom conv_geom(const Tensor& x, const Tensor& w, const Tensor& bias, const Shape& stride0, const Shape& pad0,
                   const Shape& dil0, int64_t groups) {
  const int64_t nd = x.dim() - 2;
  KILN_CHECK(nd >= 1 && nd <= 3, NotImplemented, "kiln supports 1-d, 2-d and 3-d convolutions, got input of size: ",
             x.shape_str());
  Shape stride = expand_param(stride0, size_t(nd), "stride"), pad = expand_param(pad0, size_t(nd), "padding");
  Shape dil = expand_param(dil0, size_t(nd), "dilation");
  for (int64_t s : stride) KILN_CHECK(s > 0, Runtime, "non-positive stride is not supported");
  for (int64_t p : pad) KILN_CHECK(p >= 0, Runtime, "negative padding is not supported");
  for (int64_t d : dil) KILN_CHECK(d > 0, Runtime, "dilation should be greater than zero");
  KILN_CHECK(groups > 0, Runtime, "non-positive groups is not supported");
  KILN_CHECK(w.dim() == x.dim(), Runtime, "Expected ", x.dim(), "-dimensional input for ", x.dim(),
             "-dimensional weight ", list_str(w.sizes()), ", but got ", w.dim(), "-dimensional input of size ",
             list_str(x.sizes()), " instead");
  KILN_CHECK(w.size(0) >= groups && w.size(0) % groups == 0, Runtime, "Given groups=", groups,
             ", expected weight to be divisible by ", groups, " at dimension 0, but got weight of size [",
             list_str(w.sizes()), "] instead");
  KILN_CHECK(x.size(1) == w.size(1) * groups, Runtime, "Given groups=", groups, ", weight of size ",
             list_str(w.sizes()), ", expected input", list_str(x.sizes()), " to have ", w.size(1) * groups,
             " channels, but got ", x.size(1), " channels instead");
  KILN_CHECK(!bias.defined() || (bias.dim() == 1 && bias.size(0) == w.size(0)), Runtime, "Given weight of size ",
             list_str(w.sizes()), ", expected bias to be 1-dimensional with ", w.size(0),
             " elements, but got bias of size ", list_str(bias.sizes()), " instead");
  Shape padded, kernel;
  bool fits = true;
  for (int64_t i = 0; i < nd; ++i) {
    padded.push_back(x.size(2 + i) + 2 * pad[size_t(i)]);
    kernel.push_back(dil[size_t(i)] * (w.size(2 + i) - 1) + 1);
    fits = fits && padded.back() >= kernel.back();
  }
  KILN_CHECK(fits, Runtime, "Calculated padded input size per channel: (", sizes_x(padded), "). Kernel size: (",
             sizes_x(kernel), "). Kernel size can't be greater than actual input size");
  KILN_CHECK(x.dtype() == w.dtype(), Runtime, "expected scalar type ", dtype_legacy_name(x.dtype()),
             " but found ", dtype_legacy_name(w.dtype()));
  ConvGeom g;
  g.N = x.size(0), g.C = x.size(1), g.O = w.size(0), g.groups = groups, g.nd = nd;
  // Spatial dim i of the input fills the last nd of (D, H, W).
  int64_t* in[3] = {&g.D, &g.H, &g.W};
  int64_t* k[3] = {&g.kd, &g.kh, &g.kw};
  int64_t* s[3] = {&g.sd, &g.sh, &g.sw};
  int64_t* p[3] = {&g.pd, &g.ph, &g.pw};
  int64_t* d[3] = {&g.dd, &g.dh, &g.dw};
  for (int64_t i = 0; i < nd; ++i) {
    const size_t j = size_t(3 - nd + i), a = size_t(i);
    *in[j] = x.size(2 + i), *k[j] = w.size(2 + i), *s[j] = stride[a], *p[j] = pad[a], *d[j] = dil[a];
  }
  g.Do = conv_out(g.D, g.kd, g.sd, g.pd, g.dd);
  g.Ho = conv_out(g.H, g.kh, g.sh, g.ph, g.dh);
  g.Wo = conv_out(g.W, g.kw, g.sw, g.pw, g.dw);
  return g;
}

// The geometry as oneDNN takes it, for float32 outside the pool (inside,
// each chunk is one thread's work and oneDNN would thread again).
template <class T>
std::optional<ConvParams> onednn_params(const ConvGeom& g) {
  if (!std::is_same_v<T, float> || detail::in_parallel_region()) return std::nullopt;
  ConvParams p{g.N, g.C, g.H, g.W, g.O, g.kh, g.kw, g.sh, g.sw, g.ph, g.pw, g.dh, g.dw, g.groups, g.Ho, g.Wo};
  if (g.nd == 3) p.depth = {g.D, g.kd, g.sd, g.pd, g.dd, g.Do};
  return p;
}

Shape conv_out_shape(const ConvGeom& g, int64_t nd) {
  if (nd == 3) return Shape{g.N, g.O, g.Do, g.Ho, g.Wo};
  return nd == 1 ? Shape{g.N, g.O, g.Wo} : Shape{g.N, g.O, g.Ho, g.Wo};
}

// ---- im2col / col2im -----------------------------------------------------------------
// col[((c*kd + a)*kh + i)*kw + j][(od*Ho + oh)*Wo + ow] =
//   x[c][od*sd - pd + a*dd][oh*sh - ph + i*dh][ow*sw - pw + j*dw] (0 outside).
// visit_col(g, f) calls f(row, dst, src, in_range) for each run of Wo columns:
// row = the column row's offset, dst = the run's column, src = the input row (when in range).
template <class F>
void visit_col(const ConvGeom& g, F&& f) {
  for (int64_t c = 0; c < g.Cg(); ++c)
    for (int64_t a = 0; a < g.kd; ++a)
      for (int64_t i = 0; i < g.kh; ++i)
        for (int64_t j = 0; j < g.kw; ++j) {
          const int64_t row = (((c * g.kd + a) * g.kh + i) * g.kw + j) * g.L();
          for (int64_t od = 0; od < g.Do; ++od) {
            const int64_t d = od * g.sd - g.pd + a * g.dd;
            for (int64_t oh = 0; oh < g.Ho; ++oh) {
              const int64_t h = oh * g.sh - g.ph + i * g.dh;
              const bool inside = d >= 0 && d < g.D && h >= 0 && h < g.H;
              f(row + (od * g.Ho + oh) * g.Wo, inside ? (c * g.D + d) * g.H * g.W + h * g.W : -1, j);
            }
          }
        }
}

template <class T>
void im2col(const ConvGeom& g, const T* x, T* col) {
  visit_col(g, [&](int64_t at, int64_t src_row, int64_t j) {
    T* dst = col + at;
    if (src_row < 0) {
      std::fill(dst, dst + g.Wo, T(0));
      return;
    }
    const T* src = x + src_row;
    for (int64_t ow = 0; ow < g.Wo; ++ow) {
      const int64_t wi = ow * g.sw - g.pw + j * g.dw;
      dst[ow] = wi >= 0 && wi < g.W ? src[wi] : T(0);
    }
  });
}

// The adjoint of im2col: x (zeroed by the caller) accumulates every column entry.
template <class T>
void col2im(const ConvGeom& g, const T* col, T* x) {
  visit_col(g, [&](int64_t at, int64_t src_row, int64_t j) {
    if (src_row < 0) return;
    const T* row = col + at;
    T* dst = x + src_row;
    for (int64_t ow = 0; ow < g.Wo; ++ow) {
      const int64_t wi = ow * g.sw - g.pw + j * g.dw;
      if (wi >= 0 && wi < g.W) dst[wi] += row[ow];
    }
  });
}

// C[m, n] = alpha A B + beta C, row-major, single-threaded (the pool splits the work).
template <class T>
void gemm(bool ta, bool tb, int64_t m, int64_t n, int64_t k, const T* a, int64_t lda, const T* b, int64_t ldb,
          T beta, T* c, int64_t ldc) {
  static const bool once = (openblas_set_num_threads(1), true);
  (void)once;
  const auto TA = ta ? CblasTrans : CblasNoTrans, TB = tb ? CblasTrans : CblasNoTrans;
  if constexpr (std::is_same_v<T, float>) {
    cblas_sgemm(CblasRowMajor, TA, TB, blasint(m), blasint(n), blasint(k), 1.0f, a, blasint(lda), b, blasint(ldb),
                beta, c, blasint(ldc));
  } else {
    cblas_dgemm(CblasRowMajor, TA, TB, blasint(m), blasint(n), blasint(k), 1.0, a, blasint(lda), b, blasint(ldb),
                beta, c, blasint(ldc));
  }
}

// Runs f(tag) for the compute type of d (float for the half types).
template <class F>
void visit_conv(DType d, const char* op, F&& f) {
  visit_floating(d, op, [&](auto) {
    if (compute_dtype(d) == DType::Float64) {
      f(type_tag<double>{});
    } else {
      f(type_tag<float>{});
    }
  });
}

// Writes the compute-typed result into out (out itself when types agree).
Tensor out_buffer(const Tensor& out, DType cd) {
  return out.dtype() == cd && out.is_contiguous() ? out : empty_tensor(out.sizes(), cd);
}
void finish_out(Tensor& out, const Tensor& buf) {
  if (!buf.is_same(out)) copy_cast(out, buf);
}

// ---- convolution ------------------------------------------------------------------------
// convolution(Tensor input, Tensor weight, Tensor? bias, int[] stride, int[] padding, int[] dilation,
//             bool transposed, int[] output_padding, int groups)
ConvGeom geom_of(const Args& a) {
  KILN_CHECK(!a[6].to_bool(), NotImplemented, "kiln does not support transposed convolutions");
  return conv_geom(a[0].tensor(), a[1].tensor(), opt_tensor(a[2]), a[3].int_list(), a[4].int_list(),
                   a[5].int_list(), a[8].to_int());
}

std::vector<Shape> shape_convolution(const Args& a) {
  return {conv_out_shape(geom_of(a), a[0].tensor().dim() - 2)};
}

void convolution_kernel(const Args& a, std::vector<Tensor>& outs) {
  const ConvGeom g = geom_of(a);
  const DType cd = compute_dtype(a[0].tensor().dtype());
  visit_conv(a[0].tensor().dtype(), "conv2d", [&](auto tag) {
    using T = typename decltype(tag)::type;
    Tensor x = dense(a[0].tensor(), cd), w = dense(a[1].tensor(), cd), bias = opt_tensor(a[2]);
    if (bias.defined()) bias = dense(bias, cd);
    Tensor buf = out_buffer(outs[0], cd);
    const T *px = x.data<T>(), *pw = w.data<T>(), *pb = bias.defined() ? bias.data<T>() : nullptr;
    T* po = buf.data<T>();
    if constexpr (std::is_same_v<T, float>) {
      const std::optional<ConvParams> p = onednn_params<T>(g);
      if (p && onednn_conv_forward(*p, px, pw, pb, po)) return finish_out(outs[0], buf);
    }
    parallel_for(0, g.N * g.groups, 1, [&](int64_t begin, int64_t end) {
      std::vector<T> col(size_t(g.ck() * g.L()));
      for (int64_t item = begin; item < end; ++item) {
        const int64_t n = item / g.groups, gi = item % g.groups;
        im2col(g, px + (n * g.C + gi * g.Cg()) * g.S(), col.data());
        T* o = po + (n * g.O + gi * g.Og()) * g.L();
        gemm<T>(false, false, g.Og(), g.L(), g.ck(), pw + gi * g.Og() * g.ck(), g.ck(), col.data(), g.L(), T(0), o,
                g.L());
        if (pb)
          for (int64_t oc = 0; oc < g.Og(); ++oc) {
            const T b = pb[gi * g.Og() + oc];
            for (int64_t l = 0; l < g.L(); ++l) o[oc * g.L() + l] += b;
          }
      }
    });
    finish_out(outs[0], buf);
  });
}

std::vector<Tensor> grad_convolution(const GradCtx& c) {
  const Args& a = c.args;
  bool bias = a[2].is_tensor();
  auto gs = invoke_multi("convolution_backward",
                         {c.grad(), c.in(0), c.in(1), a[3], a[4], a[5], a[8], need_arg(c, 0), need_arg(c, 1),
                          bias && need_arg(c, 2)});
  return per_tensor_arg(c, {need_arg(c, 0) ? gs[0] : Tensor(), need_arg(c, 1) ? gs[1] : Tensor(),
                            bias && need_arg(c, 2) ? gs[2] : Tensor()});
}

// ---- second derivatives ---------------------------------------------------------------------
// convolution_backward is bilinear: grad_input pairs grad_output with the
// weight, grad_weight pairs it with the input. Differentiating
// <gg_in, grad_input> + <gg_w, grad_weight> + <gg_b, grad_bias> gives plain
// convolutions for grad_output and convolution_backward again for the input
// and weight, so derivatives of every order follow.
Tensor plain_conv(const Args& a, const Tensor& x, const Tensor& w) {
  Shape zeros(size_t(x.dim() - 2), 0);
  return invoke("convolution", {x, w, Value(), a[3], a[4], a[5], false, zeros, a[6]});
}
std::vector<Tensor> grad_convolution_backward(const GradCtx& c) {
  const Args& a = c.args;
  const Tensor &go = c.in(0), &x = c.in(1), &w = c.in(2);
  bool gi_term = a[7].to_bool() && c.flowed(0), gw_term = a[8].to_bool() && c.flowed(1);
  bool gb_term = a[9].to_bool() && c.flowed(2);
  Tensor d_go, d_x, d_w;
  if (c.need(0)) {
    auto acc = [&](const Tensor& t) { d_go = d_go.defined() ? add(d_go, t) : t; };
    if (gi_term) acc(plain_conv(a, c.grad(0), w));
    if (gw_term) acc(plain_conv(a, x, c.grad(1)));
    if (gb_term) {
      Shape per_channel(size_t(go.dim()), 1);
      per_channel[1] = go.size(1);
      acc(expand(reshape(c.grad(2), per_channel), go.sizes()));
    }
  }
  if (c.need(1) && gw_term)
    d_x = invoke_multi("convolution_backward",
                       {go, x, c.grad(1), a[3], a[4], a[5], a[6], true, false, false})[0];
  if (c.need(2) && gi_term)
    d_w = invoke_multi("convolution_backward",
                       {go, c.grad(0), w, a[3], a[4], a[5], a[6], false, true, false})[1];
  return {d_go, d_x, d_w};
}

// ---- convolution_backward -------------------------------------------------------------------
// convolution_backward(Tensor grad_output, Tensor input, Tensor weight, int[] stride, int[] padding,
//                      int[] dilation, int groups, bool input_grad, bool weight_grad, bool bias_grad)
// -> (grad_input, grad_weight, grad_bias); outputs not asked for are zeros.
ConvGeom backward_geom(const Args& a) {
  return conv_geom(a[1].tensor(), a[2].tensor(), Tensor(), a[3].int_list(), a[4].int_list(), a[5].int_list(),
                   a[6].to_int());
}

std::vector<Shape> shape_convolution_backward(const Args& a) {
  const ConvGeom g = backward_geom(a);
  KILN_CHECK(a[0].tensor().sizes() == conv_out_shape(g, a[1].tensor().dim() - 2), Runtime,
             "convolution_backward: grad_output of size ", list_str(a[0].tensor().sizes()),
             " does not match the convolution's output");
  return {a[1].tensor().sizes(), a[2].tensor().sizes(), Shape{g.O}};
}
std::vector<DType> dtype_convolution_backward(const Args& a) {
  DType d = a[1].tensor().dtype();
  return {d, d, d};
}

template <class T>
void input_grad(const ConvGeom& g, const T* go, const T* pw, T* gi) {
  std::fill(gi, gi + g.N * g.C * g.S(), T(0));
  parallel_for(0, g.N * g.groups, 1, [&](int64_t begin, int64_t end) {
    std::vector<T> col(size_t(g.ck() * g.L()));
    for (int64_t item = begin; item < end; ++item) {
      const int64_t n = item / g.groups, gr = item % g.groups;
      gemm<T>(true, false, g.ck(), g.L(), g.Og(), pw + gr * g.Og() * g.ck(), g.ck(),
              go + (n * g.O + gr * g.Og()) * g.L(), g.L(), T(0), col.data(), g.L());
      col2im(g, col.data(), gi + (n * g.C + gr * g.Cg()) * g.S());
    }
  });
}

// One partial per batch element, summed in batch order: the same result on any number of threads.
template <class T>
void weight_grad(const ConvGeom& g, const T* go, const T* px, T* gw) {
  const int64_t wsize = g.O * g.ck();
  std::vector<T> parts(size_t(g.N * wsize));
  parallel_for(0, g.N * g.groups, 1, [&](int64_t begin, int64_t end) {
    std::vector<T> col(size_t(g.ck() * g.L()));
    for (int64_t item = begin; item < end; ++item) {
      const int64_t n = item / g.groups, gr = item % g.groups;
      im2col(g, px + (n * g.C + gr * g.Cg()) * g.S(), col.data());
      gemm<T>(false, true, g.Og(), g.ck(), g.L(), go + (n * g.O + gr * g.Og()) * g.L(), g.L(), col.data(), g.L(),
              T(0), parts.data() + n * wsize + gr * g.Og() * g.ck(), g.ck());
    }
  });
  std::fill(gw, gw + wsize, T(0));
  for (int64_t n = 0; n < g.N; ++n)
    for (int64_t i = 0; i < wsize; ++i) gw[i] += parts[size_t(n * wsize + i)];
}

// Each channel's sum in one order (batch, then position), the same on any
// number of threads: each row in 16 lanes of T (which vectorise), the rows
// in double.
template <class T>
void bias_grad(const ConvGeom& g, const T* go, T* gb) {
  constexpr int64_t kLanes = 16;
  parallel_for(0, g.O, 1, [&](int64_t begin, int64_t end) {
    for (int64_t o = begin; o < end; ++o) {
      double s = 0;
      for (int64_t n = 0; n < g.N; ++n) {
        const T* row = go + (n * g.O + o) * g.L();
        T lanes[kLanes] = {};
        int64_t l = 0;
        for (; l + kLanes <= g.L(); l += kLanes)
          for (int64_t k = 0; k < kLanes; ++k) lanes[k] += row[l + k];
        for (; l < g.L(); ++l) s += double(row[l]);
        for (T v : lanes) s += double(v);
      }
      gb[o] = T(s);
    }
  });
}

void convolution_backward_kernel(const Args& a, std::vector<Tensor>& outs) {
  const ConvGeom g = backward_geom(a);
  const DType cd = compute_dtype(a[1].tensor().dtype());
  visit_conv(a[1].tensor().dtype(), "conv2d_backward", [&](auto tag) {
    using T = typename decltype(tag)::type;
    Tensor go = dense(a[0].tensor(), cd), x = dense(a[1].tensor(), cd), w = dense(a[2].tensor(), cd);
    std::vector<Tensor> bufs;
    for (Tensor& o : outs) bufs.push_back(out_buffer(o, cd));
    const bool want[3] = {a[7].to_bool(), a[8].to_bool(), a[9].to_bool()};
    for (int i = 0; i < 3; ++i)
      if (!want[i]) std::fill(bufs[size_t(i)].data<T>(), bufs[size_t(i)].data<T>() + bufs[size_t(i)].numel(), T(0));
    const std::optional<ConvParams> p = onednn_params<T>(g);
    bool by_data = false, by_weights = false;  // done by oneDNN
    if constexpr (std::is_same_v<T, float>) {
      by_data = p && want[0] && onednn_conv_backward_data(*p, go.data<T>(), w.data<T>(), bufs[0].data<T>());
      by_weights = p && want[1] && onednn_conv_backward_weights(*p, go.data<T>(), x.data<T>(), bufs[1].data<T>());
    }
    if (want[0] && !by_data) input_grad<T>(g, go.data<T>(), w.data<T>(), bufs[0].data<T>());
    if (want[1] && !by_weights) weight_grad<T>(g, go.data<T>(), x.data<T>(), bufs[1].data<T>());
    if (want[2]) bias_grad<T>(g, go.data<T>(), bufs[2].data<T>());
    for (size_t i = 0; i < 3; ++i) finish_out(outs[i], bufs[i]);
  });
}

// ---- conv1d / conv2d ---------------------------------------------------------------------------
// conv{n}d(Tensor input, Tensor weight, Tensor? bias, int[n] stride, int[n] padding | str padding,
//          int[n] dilation, int groups)
template <int ND>
std::vector<Tensor> conv_composite(const Args& a) {
  Tensor x = a[0].tensor();
  const Tensor& w = a[1].tensor();
  const char* name = ND == 1 ? "conv1d" : ND == 2 ? "conv2d" : "conv3d";
  KILN_CHECK(x.dim() == ND + 1 || x.dim() == ND + 2, Runtime, "Expected ", ND + 1, "D (unbatched) or ", ND + 2,
             "D (batched) input to ", name, ", but got input of size: ", list_str(x.sizes()));
  const bool unbatched = x.dim() == ND + 1;
  if (unbatched) x = unsqueeze(x, 0);
  Shape stride = expand_param(a[3].int_list(), ND, "stride"), dil = expand_param(a[5].int_list(), ND, "dilation");
  Shape pad(ND, 0);
  if (a[4].is_string()) {
    const std::string& mode = a[4].str();
    KILN_CHECK(mode == "same" || mode == "valid", Runtime, "Invalid padding string: '", mode, "'");
    if (mode == "same") {
      for (int64_t s : stride)
        KILN_CHECK(s == 1, Runtime, "padding='same' is not supported for strided convolutions");
      // Total padding d*(k-1); an odd total puts its extra element on the right (aten's _convolution_mode).
      Shape extra(2 * ND, 0);
      bool asymmetric = false;
      for (int i = 0; i < ND; ++i) {
        const int64_t k = w.dim() == ND + 2 ? w.size(2 + i) : 1, total = dil[size_t(i)] * (k - 1);
        pad[size_t(i)] = total / 2;
        if (total % 2) {
          extra[size_t(2 * (ND - 1 - i) + 1)] = 1;
          asymmetric = true;
        }
      }
      if (asymmetric) x = constant_pad_nd(x, extra, 0);
    }
  } else {
    pad = expand_param(a[4].int_list(), ND, "padding");
  }
  Tensor y = invoke("convolution", {x, w, a[2], stride, pad, dil, false, Shape(ND, 0), a[6]});
  return {unbatched ? squeeze(y, Shape{0}) : y};
}

// ---- constant_pad_nd ------------------------------------------------------------------------------
// constant_pad_nd(Tensor self, int[] pad, Scalar value=0): pad pairs from the last dim; negative crops.
std::vector<Shape> shape_constant_pad_nd(const Args& a) {
  const Tensor& x = a[0].tensor();
  const Shape& pad = a[1].int_list();
  KILN_CHECK(pad.size() % 2 == 0, Runtime, "Length of pad must be even but instead it equals ", pad.size());
  KILN_CHECK(int64_t(pad.size()) / 2 <= x.dim(), Runtime,
             "Length of pad should be no more than twice the number of dimensions of the input. Pad length is ",
             pad.size(), " while the input has ", x.dim(), " dimensions.");
  Shape out = x.sizes();
  for (size_t i = 0; i < pad.size() / 2; ++i) {
    const size_t d = size_t(x.dim()) - 1 - i;
    const int64_t l = pad[2 * i], r = pad[2 * i + 1], n = x.size(int64_t(d)) + l + r;
    KILN_CHECK(n >= 0, Runtime, "The input size ", x.size(int64_t(d)), ", plus negative padding ", l, " and ", r,
               " resulted in a negative output size, which is invalid. Check dimension ", d, " of your input.");
    out[d] = n;
  }
  return {out};
}

void constant_pad_nd_kernel(const Args& a, std::vector<Tensor>& outs) {
  Tensor& out = outs[0];
  const Tensor& x = a[0].tensor();
  const Shape& pad = a[1].int_list();
  copy_cast(out, scalar_tensor(a[2].to_double(), DType::Float64, true));
  // The part of x that survives, and where it lands in out.
  Shape sizes = x.sizes();
  int64_t src_off = x.offset(), dst_off = out.offset();
  for (size_t i = 0; i < pad.size() / 2; ++i) {
    const int64_t d = x.dim() - 1 - int64_t(i), l = pad[2 * i], r = pad[2 * i + 1];
    const int64_t crop_l = std::max<int64_t>(0, -l), crop_r = std::max<int64_t>(0, -r);
    sizes[size_t(d)] = std::max<int64_t>(0, x.size(d) - crop_l - crop_r);
    src_off += crop_l * x.stride(d);
    dst_off += std::max<int64_t>(0, l) * out.stride(d);
  }
  for (int64_t s : sizes)
    if (s == 0) return;
  copy_cast(make_view(out, sizes, out.strides(), dst_off), make_view(x, sizes, x.strides(), src_off));
}

std::vector<Tensor> grad_constant_pad_nd(const GradCtx& c) {
  Shape neg_pad = c.args[1].int_list();
  for (int64_t& p : neg_pad) p = -p;
  return {constant_pad_nd(c.grad(), neg_pad, 0)};
}

}  // namespace
}  // namespace ops

void register_conv_ops(OpTable& t) {
  using namespace ops;
  constexpr OpKind C = OpKind::Composite;
  t.add({.schema_text = "convolution(Tensor input, Tensor weight, Tensor? bias, int[] stride, int[] padding, "
                        "int[] dilation, bool transposed, int[] output_padding, int groups) -> Tensor",
         .kind = OpKind::Extern, .shape = shape_convolution, .dtype = dtype_like_self, .kernel = convolution_kernel,
         .grad = grad_convolution, .saves = save_in(0) | save_in(1)});
  t.add({.schema_text = "convolution_backward(Tensor grad_output, Tensor input, Tensor weight, int[] stride, "
                        "int[] padding, int[] dilation, int groups, bool input_grad=True, bool weight_grad=True, "
                        "bool bias_grad=True) -> (Tensor, Tensor, Tensor)",
         .kind = OpKind::Extern, .shape = shape_convolution_backward, .dtype = dtype_convolution_backward,
         .kernel = convolution_backward_kernel, .grad = grad_convolution_backward,
         .saves = save_in(0) | save_in(1) | save_in(2)});
  t.add({.schema_text = "conv1d(Tensor input, Tensor weight, Tensor? bias=None, int[1] stride=1, int[1] padding=0, "
                        "int[1] dilation=1, int groups=1) -> Tensor",
         .kind = C, .composite = conv_composite<1>});
  t.add({.schema_text = "conv1d.padding(Tensor input, Tensor weight, Tensor? bias=None, int[1] stride=1, "
                        "str padding=\"valid\", int[1] dilation=1, int groups=1) -> Tensor",
         .kind = C, .composite = conv_composite<1>});
  t.add({.schema_text = "conv2d(Tensor input, Tensor weight, Tensor? bias=None, int[2] stride=1, int[2] padding=0, "
                        "int[2] dilation=1, int groups=1) -> Tensor",
         .kind = C, .composite = conv_composite<2>});
  t.add({.schema_text = "conv2d.padding(Tensor input, Tensor weight, Tensor? bias=None, int[2] stride=1, "
                        "str padding=\"valid\", int[2] dilation=1, int groups=1) -> Tensor",
         .kind = C, .composite = conv_composite<2>});
  t.add({.schema_text = "conv3d(Tensor input, Tensor weight, Tensor? bias=None, int[3] stride=1, int[3] padding=0, "
                        "int[3] dilation=1, int groups=1) -> Tensor",
         .kind = C, .composite = conv_composite<3>});
  t.add({.schema_text = "conv3d.padding(Tensor input, Tensor weight, Tensor? bias=None, int[3] stride=1, "
                        "str padding=\"valid\", int[3] dilation=1, int groups=1) -> Tensor",
         .kind = C, .composite = conv_composite<3>});
  t.add({.schema_text = "constant_pad_nd(Tensor self, int[] pad, Scalar value=0) -> Tensor", .kind = OpKind::Shape,
         .shape = shape_constant_pad_nd, .dtype = dtype_like_self, .kernel = constant_pad_nd_kernel,
         .grad = grad_constant_pad_nd});
}

// ---- typed wrappers ---------------------------------------------------------------
Tensor conv2d(const Tensor& x, const Tensor& w, const Tensor& b, const Shape& stride, const Shape& padding,
              const Shape& dilation, int64_t groups) {
  return invoke("conv2d", {x, w, ops::spatial::opt_value(b), stride, padding, dilation, groups});
}
Tensor conv1d(const Tensor& x, const Tensor& w, const Tensor& b, const Shape& stride, const Shape& padding,
              const Shape& dilation, int64_t groups) {
  return invoke("conv1d", {x, w, ops::spatial::opt_value(b), stride, padding, dilation, groups});
}
Tensor constant_pad_nd(const Tensor& x, const Shape& pad, double value) {
  return invoke("constant_pad_nd", {x, pad, value});
}

}  // namespace kiln
