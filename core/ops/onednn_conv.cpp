#include "core/ops/onednn_conv.h"

#include <array>
#include <map>
#include <memory>
#include <mutex>
#include <unordered_map>

#include "core/ops/onednn_runtime.h"

namespace kiln {
namespace ops {
namespace {

using dnnl::memory;
using Tag = memory::format_tag;

// KILN_CONV=im2col keeps every convolution on Kiln's own kernels (A/B
// measurements, and a way out should oneDNN misbehave on some CPU).
bool enabled() {
  static const bool on = onednn_enabled_by("KILN_CONV", "im2col");
  return on;
}

enum class Pass : int64_t { Forward, ForwardAndBias, BackwardData, BackwardWeights };

// The tensors' own (plain) layouts.
struct Plain {
  memory::desc src, weights, dst, bias;
};
// dims with the depth entry put before the last two when the convolution has one.
memory::dims with_depth(memory::dims d, bool vol, int64_t depth) {
  if (vol) d.insert(d.end() - 2, depth);
  return d;
}
Plain plain(const ConvParams& p) {
  const auto f32 = memory::data_type::f32;
  const bool vol = p.depth.D > 0;
  const ConvDepth& z = p.depth;
  Plain d;
  d.src = memory::desc(with_depth({p.N, p.C, p.H, p.W}, vol, z.D), f32, vol ? Tag::ncdhw : Tag::nchw);
  d.dst = memory::desc(with_depth({p.N, p.O, p.Ho, p.Wo}, vol, z.out), f32, vol ? Tag::ncdhw : Tag::nchw);
  d.weights = p.groups == 1
                  ? memory::desc(with_depth({p.O, p.C, p.kh, p.kw}, vol, z.k), f32, vol ? Tag::oidhw : Tag::oihw)
                  : memory::desc(with_depth({p.groups, p.O / p.groups, p.C / p.groups, p.kh, p.kw}, vol, z.k), f32,
                                 vol ? Tag::goidhw : Tag::goihw);
  d.bias = memory::desc({p.O}, f32, Tag::x);
  return d;
}
// The same dims in whatever layout oneDNN's kernel wants.
memory::desc any(const memory::desc& d) { return memory::desc(d.dims(), memory::data_type::f32, Tag::any); }

// A primitive and the layouts it reads and writes, built once per geometry.
struct Primitive {
  bool usable = false;  // false: oneDNN offered only its reference kernel
  dnnl::primitive prim;
  memory::desc src, weights, dst, bias;  // src/dst: the pass's (diff_src for backward data, ...)
};

struct Window {
  memory::dims strides, dilates, pad_l, pad_r;
};
Window window(const ConvParams& p) {
  // The right padding that makes oneDNN's output size PyTorch's floor division.
  auto right = [](int64_t in, int64_t out, int64_t k, int64_t s, int64_t pad, int64_t dil) {
    return (out - 1) * s + (k - 1) * dil + 1 - in - pad;
  };
  Window w{{p.sh, p.sw}, {p.dh - 1, p.dw - 1}, {p.ph, p.pw},
           {right(p.H, p.Ho, p.kh, p.sh, p.ph, p.dh), right(p.W, p.Wo, p.kw, p.sw, p.pw, p.dw)}};
  if (const ConvDepth& z = p.depth; z.D > 0) {
    w.strides.insert(w.strides.begin(), z.s);
    w.dilates.insert(w.dilates.begin(), z.d - 1);
    w.pad_l.insert(w.pad_l.begin(), z.p);
    w.pad_r.insert(w.pad_r.begin(), right(z.D, z.out, z.k, z.s, z.p, z.d));
  }
  return w;
}

dnnl::convolution_forward::primitive_desc forward_pd(const ConvParams& p, bool bias) {
  const Plain d = plain(p);
  const Window w = window(p);
  auto prop = dnnl::prop_kind::forward_training;
  auto alg = dnnl::algorithm::convolution_direct;
  auto desc = bias ? dnnl::convolution_forward::desc(prop, alg, any(d.src), any(d.weights), d.bias, any(d.dst),
                                                     w.strides, w.dilates, w.pad_l, w.pad_r)
                   : dnnl::convolution_forward::desc(prop, alg, any(d.src), any(d.weights), any(d.dst), w.strides,
                                                     w.dilates, w.pad_l, w.pad_r);
  return dnnl::convolution_forward::primitive_desc(desc, onednn_engine());
}

Primitive build(const ConvParams& p, Pass pass) {
  Primitive out;
  const Plain d = plain(p);
  const Window w = window(p);
  const auto alg = dnnl::algorithm::convolution_direct;
  try {
    std::string impl;
    if (pass == Pass::Forward || pass == Pass::ForwardAndBias) {
      auto pd = forward_pd(p, pass == Pass::ForwardAndBias);
      impl = pd.impl_info_str();
      out = {true, dnnl::convolution_forward(pd), pd.src_desc(), pd.weights_desc(), pd.dst_desc(), d.bias};
    } else if (pass == Pass::BackwardData) {
      auto hint = forward_pd(p, false);
      dnnl::convolution_backward_data::primitive_desc pd(
          dnnl::convolution_backward_data::desc(alg, any(d.src), any(d.weights), any(d.dst), w.strides, w.dilates,
                                                w.pad_l, w.pad_r),
          onednn_engine(), hint);
      impl = pd.impl_info_str();
      out = {true, dnnl::convolution_backward_data(pd), pd.diff_src_desc(), pd.weights_desc(), pd.diff_dst_desc(), {}};
    } else {
      auto hint = forward_pd(p, false);
      dnnl::convolution_backward_weights::primitive_desc pd(
          dnnl::convolution_backward_weights::desc(alg, any(d.src), any(d.weights), any(d.dst), w.strides, w.dilates,
                                                   w.pad_l, w.pad_r),
          onednn_engine(), hint);
      impl = pd.impl_info_str();
      out = {true, dnnl::convolution_backward_weights(pd), pd.src_desc(), pd.diff_weights_desc(), pd.diff_dst_desc(),
             {}};
    }
    out.usable = !onednn_is_reference(impl);
  } catch (const dnnl::error&) {
    out.usable = false;  // a geometry oneDNN rejects takes Kiln's kernels
  }
  return out;
}

using Key = std::array<int64_t, 23>;
std::shared_ptr<const Primitive> primitive(const ConvParams& p, Pass pass) {
  static std::mutex mu;
  static std::map<Key, std::shared_ptr<const Primitive>> cache;
  const Key key{p.N,  p.C,  p.H,  p.W,  p.O,  p.kh,     p.kw, p.sh,         p.sw,
                p.ph, p.pw, p.dh, p.dw, p.groups, p.Ho, p.Wo, int64_t(pass), p.depth.D, p.depth.k,
                p.depth.s, p.depth.p, p.depth.d, p.depth.out};
  std::lock_guard<std::mutex> lock(mu);
  auto it = cache.find(key);
  if (it != cache.end()) return it->second;
  if (cache.size() >= 1024) cache.clear();  // programs with ever-changing shapes
  return cache.emplace(key, std::make_shared<const Primitive>(build(p, pass))).first->second;
}

// A tensor in the primitive's layout: itself when they agree, else a
// reordered copy (an input) or a buffer reordered back afterwards (an output).
class Operand {
 public:
  Operand(const memory::desc& plain, const memory::desc& want, void* data)
      : user_(plain, onednn_engine(), data), mem_(plain == want ? user_ : memory(want, onednn_engine())) {}
  memory& in(dnnl::stream& s) {
    if (mem_ != user_) dnnl::reorder(user_, mem_).execute(s, user_, mem_);
    return mem_;
  }
  memory& out() { return mem_; }
  void write_back(dnnl::stream& s) {
    if (mem_ != user_) dnnl::reorder(mem_, user_).execute(s, mem_, user_);
  }

 private:
  memory user_, mem_;
};

// Runs pass `pass` of p: a, b are read, c written (and the forward's bias read).
bool run(const ConvParams& p, Pass pass, const float* a, const float* b, float* c, float* bias) {
  const int64_t depths = p.depth.D > 0 ? p.depth.D * p.depth.out : 1;
  if (!enabled() || p.N * p.C * p.H * p.W * p.O * p.Ho * p.Wo * depths == 0) return false;
  const std::shared_ptr<const Primitive> shared = primitive(p, pass);
  const Primitive& pr = *shared;
  if (!pr.usable) return false;
  onednn_match_threads();
  dnnl::stream& s = onednn_stream();
  const Plain d = plain(p);
  auto mut = [](const float* x) { return const_cast<float*>(x); };  // oneDNN only reads inputs
  try {
    if (pass == Pass::Forward || pass == Pass::ForwardAndBias) {  // a: x, b: w, c: y, bias: read
      Operand x(d.src, pr.src, mut(a)), w(d.weights, pr.weights, mut(b)), y(d.dst, pr.dst, c);
      std::unordered_map<int, memory> args{{DNNL_ARG_SRC, x.in(s)}, {DNNL_ARG_WEIGHTS, w.in(s)}, {DNNL_ARG_DST, y.out()}};
      if (bias) args.emplace(DNNL_ARG_BIAS, memory(d.bias, onednn_engine(), bias));
      pr.prim.execute(s, args);
      y.write_back(s);
    } else if (pass == Pass::BackwardData) {  // a: gy, b: w, c: gx
      Operand gy(d.dst, pr.dst, mut(a)), w(d.weights, pr.weights, mut(b)), gx(d.src, pr.src, c);
      pr.prim.execute(s, {{DNNL_ARG_DIFF_DST, gy.in(s)}, {DNNL_ARG_WEIGHTS, w.in(s)}, {DNNL_ARG_DIFF_SRC, gx.out()}});
      gx.write_back(s);
    } else {  // a: gy, b: x, c: gw
      Operand gy(d.dst, pr.dst, mut(a)), x(d.src, pr.src, mut(b)), gw(d.weights, pr.weights, c);
      pr.prim.execute(s, {{DNNL_ARG_DIFF_DST, gy.in(s)}, {DNNL_ARG_SRC, x.in(s)}, {DNNL_ARG_DIFF_WEIGHTS, gw.out()}});
      gw.write_back(s);
    }
    s.wait();
  } catch (const dnnl::error&) {
    return false;  // e.g. no memory for a reorder buffer: Kiln's kernels write everything
  }
  return true;
}

}  // namespace

bool onednn_conv_forward(const ConvParams& p, const float* x, const float* w, const float* bias, float* y) {
  return run(p, bias ? Pass::ForwardAndBias : Pass::Forward, x, w, y, const_cast<float*>(bias));
}

bool onednn_conv_backward_data(const ConvParams& p, const float* gy, const float* w, float* gx) {
  return run(p, Pass::BackwardData, gy, w, gx, nullptr);
}

bool onednn_conv_backward_weights(const ConvParams& p, const float* gy, const float* x, float* gw) {
  return run(p, Pass::BackwardWeights, gy, x, gw, nullptr);
}

}  // namespace ops
}  // namespace kiln
