// Neural-network ops: layer norm, embedding and the losses. Each op with its
// own kernel (native_layer_norm, embedding, nll_loss_forward and their
// backward helpers) follows PyTorch's aten op; layer_norm, nll_loss,
// cross_entropy and mse_loss are Composites over them, as in
// torch.nn.functional.
#include <algorithm>
#include <cmath>

#include "core/lowering.h"
#include "core/device.h"
#include "core/ops/common.h"

namespace kiln {
namespace ops {
namespace {

// ---- helpers ------------------------------------------------------------------------
// An optional Tensor argument (None, or an undefined Tensor passed from C++).
Tensor opt_tensor(const Value& v) { return v.is_tensor() ? v.tensor() : Tensor(); }

// A contiguous copy in dtype d (t itself when it already is one); kernels read these flat.
Tensor dense(const Tensor& t, DType d) {
  if (t.dtype() == d && t.is_contiguous()) return t;
  Tensor out = empty_tensor(t.sizes(), d);
  copy_cast(out, t);
  return out;
}

// Gradients in the engine's order: one per argument that holds a Tensor
// (None arguments have no slot). by_arg is indexed by argument position.
std::vector<Tensor> per_tensor_arg(const GradCtx& c, std::vector<Tensor> by_arg) {
  std::vector<Tensor> out;
  for (size_t i = 0; i < c.args.size(); ++i)
    if (c.args[i].is_tensor()) out.push_back(i < by_arg.size() ? by_arg[i] : Tensor());
  return out;
}
// Whether argument `arg` is a tensor input that wants a gradient.
bool need_arg(const GradCtx& c, size_t arg) {
  if (!c.args[arg].is_tensor()) return false;
  int slot = 0;
  for (size_t i = 0; i < arg; ++i) slot += c.args[i].is_tensor() ? 1 : 0;
  return c.need(slot);
}

// ---- layer norm -------------------------------------------------------------------------
// native_layer_norm(Tensor input, int[] normalized_shape, Tensor? weight, Tensor? bias, float eps)
struct LayerNormDims {
  int64_t rows = 1, cols = 1;  // rows normalised independently over cols elements
  Shape stat_shape;            // input's shape with the normalized dims set to 1
  Shape norm_dims;             // the normalized dims' indices
};

std::string normalized_shape_str(const Shape& s) {
  std::string out = "[*";
  for (int64_t v : s) out += ", " + std::to_string(v);
  return out + "]";
}

LayerNormDims layer_norm_dims(const Args& a) {
  const Tensor& x = a[0].tensor();
  const Shape& ns = a[1].int_list();
  Tensor w = opt_tensor(a[2]), b = opt_tensor(a[3]);
  KILN_CHECK(!ns.empty(), Runtime,
             "Expected normalized_shape to be at least 1-dimensional, i.e., containing at least one element, but "
             "got normalized_shape = ",
             shape_str(ns));
  KILN_CHECK(!w.defined() || w.sizes() == ns, Runtime,
             "Expected weight to be of same shape as normalized_shape, but got weight of shape ", w.shape_str(),
             " and normalized_shape = ", shape_str(ns));
  KILN_CHECK(!b.defined() || b.sizes() == ns, Runtime,
             "Expected bias to be of same shape as normalized_shape, but got bias of shape ", b.shape_str(),
             " and normalized_shape = ", shape_str(ns));
  int64_t nd = int64_t(ns.size()), axis = x.dim() - nd;
  KILN_CHECK(axis >= 0 && Shape(x.sizes().begin() + axis, x.sizes().end()) == ns, Runtime,
             "Given normalized_shape=", shape_str(ns), ", expected input with shape ", normalized_shape_str(ns),
             ", but got input of size", x.shape_str());
  LayerNormDims d;
  d.stat_shape = x.sizes();
  for (int64_t i = 0; i < x.dim(); ++i) {
    if (i < axis) {
      d.rows *= x.size(i);
    } else {
      d.cols *= x.size(i);
      d.stat_shape[size_t(i)] = 1;
      d.norm_dims.push_back(i);
    }
  }
  return d;
}

std::vector<Shape> shape_layer_norm(const Args& a) {
  LayerNormDims d = layer_norm_dims(a);
  return {a[0].tensor().sizes(), d.stat_shape, d.stat_shape};
}
std::vector<DType> dtype_layer_norm(const Args& a) {
  DType d = a[0].tensor().dtype();
  return {d, d, d};
}

void layer_norm_kernel(const Args& a, std::vector<Tensor>& outs) {
  LayerNormDims dims = layer_norm_dims(a);
  double eps = a[4].to_double();
  DType dt = a[0].tensor().dtype();
  visit_floating(dt, "LayerNormKernelImpl", [&](auto tag) {
    using T = typename decltype(tag)::type;
    using C = compute_t<T>;
    DType cd = dtype_of<C>();
    Tensor x = dense(a[0].tensor(), dt);
    Tensor w = opt_tensor(a[2]), b = opt_tensor(a[3]);
    if (w.defined()) w = dense(w, cd);
    if (b.defined()) b = dense(b, cd);
    const T* px = x.data<T>();
    const C* pw = w.defined() ? w.data<C>() : nullptr;
    const C* pb = b.defined() ? b.data<C>() : nullptr;
    T *py = outs[0].data<T>(), *pmean = outs[1].data<T>(), *prstd = outs[2].data<T>();
    int64_t n = dims.cols;
    parallel_for(0, dims.rows, std::max<int64_t>(1, 32768 / std::max<int64_t>(n, 1)), [&](int64_t rb, int64_t re) {
      for (int64_t r = rb; r < re; ++r) {
        const T* xr = px + r * n;
        double sum = 0, sq = 0;  // two passes in double: the biased variance without cancellation
        for (int64_t i = 0; i < n; ++i) sum += double(C(xr[i]));
        double mean = sum / double(n);
        for (int64_t i = 0; i < n; ++i) sq += (double(C(xr[i])) - mean) * (double(C(xr[i])) - mean);
        double rstd = 1.0 / std::sqrt(sq / double(n) + eps);
        pmean[r] = T(C(mean));
        prstd[r] = T(C(rstd));
        C cm = C(mean), cr = C(rstd);
        T* yr = py + r * n;
        for (int64_t i = 0; i < n; ++i) {
          C v = (C(xr[i]) - cm) * cr;
          if (pw) v = v * pw[i];
          if (pb) v = v + pb[i];
          yr[i] = T(v);
        }
      }
    });
  });
}

// The fused code generators' layer norm over the last dim (core/lowering.h):
// the eager kernel's two passes (mean, then squared deviations: no
// cancellation), accumulated in the input's type across vector lanes so the
// kernel keeps the full vector width, then (x - mean) * rstd * w + b.
bool lower_layer_norm(kir::Lowering& L) {
  using KOp = kir::Op;
  DType t = L.outs[0].dtype();
  if (!kir::lowerable_float(t) || L.args[1].int_list().size() != 1 || !L.can_reduce(0, -1)) return false;
  kir::Builder& b = L.b;
  const DType D = t;
  kir::ExprId x = L.tensor(0, t), xd = b.cast(x, D), n = L.row_length(D);
  kir::ExprId mean = b.binary(KOp::Div, b.reduce(kir::ReduceOp::Sum, xd), n);
  kir::ExprId dev = b.binary(KOp::Sub, xd, mean);
  kir::ExprId var = b.binary(KOp::Div, b.reduce(kir::ReduceOp::Sum, b.binary(KOp::Mul, dev, dev)), n);
  kir::ExprId rstd = b.binary(KOp::Div, b.constant(1, D), b.unary(KOp::Sqrt, b.binary(KOp::Add, var, L.scalar(4, D))));
  kir::ExprId cm = b.cast(mean, t), cr = b.cast(rstd, t);
  kir::ExprId y = b.binary(KOp::Mul, b.binary(KOp::Sub, x, cm), cr);
  kir::ExprId w = L.tensor(2, t), bias = L.tensor(3, t);
  if (w >= 0) y = b.binary(KOp::Mul, y, w);
  if (bias >= 0) y = b.binary(KOp::Add, y, bias);
  L.set_out(0, y);
  L.set_out(1, cm, true);
  L.set_out(2, cr, true);
  return true;
}

// d/dx of (x - mu) * rstd * w + b, plus the paths through the mean and rstd outputs.
std::vector<Tensor> grad_layer_norm(const GradCtx& c) {
  const Tensor& x = c.in(0);
  Tensor w = opt_tensor(c.args[2]);
  const Tensor &mu = c.out(1), &rstd = c.out(2), &g = c.grad(0);
  Shape dims;
  int64_t nd = int64_t(c.args[1].int_list().size()), n = 1;
  for (int64_t i = x.dim() - nd; i < x.dim(); ++i) {
    dims.push_back(i);
    n *= x.size(i);
  }
  Tensor xmu = sub(x, mu), xhat = mul(xmu, rstd);
  std::vector<Tensor> by_arg(4);
  if (need_arg(c, 0)) {
    Tensor gy = w.defined() ? mul(g, w) : g;
    Tensor centred = sub(sub(gy, mean(gy, dims, true)), mul(xhat, mean(mul(gy, xhat), dims, true)));
    Tensor gx = mul(centred, rstd);
    // Terms of the mean and rstd outputs, when something used them (no data read to decide).
    if (c.flowed(1)) gx = add(gx, mul(c.grad(1), 1.0 / double(n)));
    if (c.flowed(2))  // d rstd / dx = -rstd^3 (x - mu) / n
      gx = add(gx, mul(mul(xmu, mul(mul(mul(rstd, rstd), rstd), c.grad(2))), -1.0 / double(n)));
    by_arg[0] = gx;
  }
  if (need_arg(c, 2)) by_arg[2] = mul(g, xhat);  // broadcast: autograd sums the leading dims
  if (need_arg(c, 3)) by_arg[3] = g;
  return per_tensor_arg(c, by_arg);
}

std::vector<Tensor> layer_norm_composite(const Args& a) {
  return {invoke_multi("native_layer_norm", {a[0], a[1], a[2], a[3], a[4]})[0]};
}

// ---- embedding -----------------------------------------------------------------------------
void check_index_dtype(const Tensor& idx, const char* arg, const char* op) {
  KILN_CHECK(idx.dtype() == DType::Int64 || idx.dtype() == DType::Int32, Runtime, "Expected tensor for argument ",
             arg, " to have one of the following scalar types: Long, Int; but got torch.",
             dtype_legacy_name(idx.dtype()), "Tensor instead (while checking arguments for ", op, ")");
}

std::vector<Shape> shape_embedding(const Args& a) {
  const Tensor &w = a[0].tensor(), &idx = a[1].tensor();
  KILN_CHECK(w.dim() == 2, Runtime, "'weight' must be 2-D");
  check_index_dtype(idx, "#1 'indices'", "embedding");
  Shape s = idx.sizes();
  s.push_back(w.size(1));
  return {s};
}

void embedding_kernel(const Args& a, std::vector<Tensor>& outs) {
  const Tensor& w = a[0].tensor();
  Tensor idx = dense(a[1].tensor(), DType::Int64);
  const int64_t* pi = idx.data<int64_t>();
  int64_t rows = w.size(0), cols = w.size(1), n = idx.numel();
  for (int64_t i = 0; i < n; ++i)
    KILN_CHECK(pi[i] >= 0 && pi[i] < rows, Index, "index out of range in self");
  visit_dtype(w.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* pw = w.data<T>();
    T* po = outs[0].data<T>();
    int64_t s0 = w.stride(0), s1 = w.stride(1);
    parallel_for(0, n, std::max<int64_t>(1, 32768 / std::max<int64_t>(cols, 1)), [&](int64_t b, int64_t e) {
      for (int64_t i = b; i < e; ++i) {
        const T* src = pw + pi[i] * s0;
        for (int64_t j = 0; j < cols; ++j) po[i * cols + j] = src[j * s1];
      }
    });
  });
}

// out[..., j] = weight[indices[...], j]: each row one gather (a moved
// vector load on the CPU). The check has bounded the indices.
bool lower_embedding(kir::Lowering& L) {
  const DType t = L.outs[0].dtype();
  if (L.args[0].tensor().dim() != 2 || !kir::lowerable_type(t)) return false;
  L.set_out(0, L.gather(0, 0, L.tensor(1, DType::Int64, 1), t));
  return true;
}

// The kernels' row check, in index order.
void check_rows(const Tensor& indices, int64_t rows) {
  Tensor idx = dense(indices, DType::Int64);
  const int64_t* pi = idx.data<int64_t>();
  for (int64_t i = 0; i < idx.numel(); ++i)
    KILN_CHECK(pi[i] >= 0 && pi[i] < rows, Index, "index out of range in self");
}

// Run by dispatch before the kernel (CheckFn), and before the shape rules:
// those come first here, as they would have without a check.
void check_embedding(const Args& a) {
  shape_embedding(a);
  check_rows(a[1].tensor(), a[0].tensor().size(0));
}

std::vector<Tensor> grad_embedding(const GradCtx& c) {
  return {embedding_dense_backward(c.grad(), c.in(1), c.in_sizes[0][0], c.args[2].to_int(), c.args[3].to_bool()),
          Tensor()};
}

// embedding_dense_backward is linear in grad_output: its derivative looks the
// incoming gradient's rows up again, zero at padding_idx. As in PyTorch,
// scale_grad_by_freq is left out here (the first backward applied it).
std::vector<Tensor> grad_embedding_backward(const GradCtx& c) {
  if (!c.need(0)) return {Tensor(), Tensor()};
  Tensor flat = reshape(c.in(1), Shape{-1});
  Tensor rows = index_select(c.grad(), 0, flat);
  int64_t padding_idx = c.args[3].to_int();
  if (padding_idx >= 0) rows = masked_fill(rows, unsqueeze(eq(flat, full_like(flat, double(padding_idx))), 1), 0.0);
  return {reshape(rows, c.in_sizes[0]), Tensor()};
}

// embedding_dense_backward(Tensor grad_output, Tensor indices, int num_weights, int padding_idx, bool scale_grad_by_freq)
std::vector<Shape> shape_embedding_backward(const Args& a) {
  check_index_dtype(a[1].tensor(), "#2 'indices'", "embedding_backward");
  return {{a[2].to_int(), a[0].tensor().dim() > 0 ? a[0].tensor().sizes().back() : 1}};
}

void check_embedding_backward(const Args& a) {
  Shape out = shape_embedding_backward(a)[0];
  if (out[0] < 0) return;  // allocating the output fails first
  int64_t rows = out[0], cols = out[1], n = a[1].tensor().numel();
  KILN_CHECK(a[0].tensor().numel() == n * cols, Runtime, "embedding_backward: grad_output has ",
             a[0].tensor().numel(), " elements, expected ", n * cols);
  check_rows(a[1].tensor(), rows);
}

// grad_weight[ids[i], j] += grad[i, j] over the gradient's elements, the
// padding row adding nothing: one scatter-add kernel (serial on the CPU,
// in the eager kernel's order). scale_grad_by_freq needs the counts first:
// its eager kernel runs.
bool lower_embedding_backward(kir::Lowering& L) {
  const Tensor &g = L.args[0].tensor(), &ids = L.args[1].tensor();
  const DType t = L.outs[0].dtype();
  if (L.args[4].to_bool() || !kir::lowerable_float(t) || g.dim() != ids.dim() + 1) return false;
  if (!std::equal(ids.sizes().begin(), ids.sizes().end(), g.sizes().begin()) || !L.domain_of(0)) return false;
  kir::Builder& b = L.b;
  kir::ExprId id = L.tensor(1, DType::Int64, 1), x = L.tensor(0, t);
  kir::ExprId kept = b.compare(kir::Op::Ne, id, L.scalar(3, DType::Int64));
  L.scatter_add_out(0, 0, id, b.select(kept, x, b.constant(0, t)));
  return true;
}

// Scatter-adds gradient rows into their weight rows, skipping padding_idx; serial, so sums are deterministic.
void embedding_backward_kernel(const Args& a, std::vector<Tensor>& outs) {
  Tensor& out = outs[0];
  Tensor idx = dense(a[1].tensor(), DType::Int64);
  int64_t rows = a[2].to_int(), pad = a[3].to_int(), n = idx.numel(), cols = out.size(1);
  bool by_freq = a[4].to_bool();
  const int64_t* pi = idx.data<int64_t>();
  KILN_CHECK(a[0].tensor().numel() == n * cols, Runtime, "embedding_backward: grad_output has ",
             a[0].tensor().numel(), " elements, expected ", n * cols);
  std::vector<int64_t> counts(size_t(std::max<int64_t>(rows, 0)), 0);
  for (int64_t i = 0; i < n; ++i) {
    KILN_CHECK(pi[i] >= 0 && pi[i] < rows, Index, "index out of range in self");
    ++counts[size_t(pi[i])];
  }
  visit_floating(out.dtype(), "embedding_dense_backward_cpu", [&](auto tag) {
    using T = typename decltype(tag)::type;
    using C = compute_t<T>;
    Tensor g = dense(a[0].tensor(), dtype_of<C>());
    Tensor acc = empty_tensor(out.sizes(), dtype_of<C>());
    C* pa = acc.data<C>();
    const C* pg = g.data<C>();
    std::fill(pa, pa + acc.numel(), C(0));
    for (int64_t i = 0; i < n; ++i) {
      int64_t r = pi[i];
      if (r == pad) continue;
      C scale = by_freq ? C(1) / C(counts[size_t(r)]) : C(1);
      for (int64_t j = 0; j < cols; ++j) pa[r * cols + j] += pg[i * cols + j] * scale;
    }
    copy_cast(out, acc);
  });
}

// ---- nll_loss ------------------------------------------------------------------------------
// The loss's layout: self viewed as [batch, classes, inner] against target [batch, inner].
struct NllLayout {
  int64_t batch = 1, classes = 1, inner = 1;
};

NllLayout nll_layout(const Tensor& self, const Tensor& target, const Tensor& weight) {
  KILN_CHECK(self.dim() >= 1, Value, "Expected 1 or more dimensions (got ", self.dim(), ")");
  KILN_CHECK(self.dim() == 1 || (target.dim() > 0 && self.size(0) == target.size(0)), Value,
             "Expected input batch_size (", self.size(0), ") to match target batch_size (",
             target.dim() > 0 ? target.size(0) : 1, ").");
  NllLayout l;
  if (self.dim() <= 2) {
    KILN_CHECK(target.dim() <= 1, Runtime, "0D or 1D target tensor expected, multi-target not supported");
    // A 1-D input is one sample: a 0-d target, or (as PyTorch accepts) a one-element one.
    bool ok = self.dim() == 1 ? target.numel() == 1 : self.size(0) == target.size(0);
    KILN_CHECK(ok, Runtime, "size mismatch (got input: ", self.shape_str(),
               ", target: ", target.shape_str(), ")");
    l.batch = self.dim() == 2 ? self.size(0) : 1;
    l.classes = self.sizes().back();
  } else {
    Shape want{self.size(0)};
    want.insert(want.end(), self.sizes().begin() + 2, self.sizes().end());
    KILN_CHECK(target.sizes() == want, Runtime, "Expected target size ", shape_str(want), ", got ",
               target.shape_str());
    l.batch = self.size(0);
    l.classes = self.size(1);
    l.inner = shape_numel(want) / std::max<int64_t>(l.batch, 1);
  }
  KILN_CHECK(!weight.defined() || (weight.dim() == 1 && weight.numel() == l.classes), Runtime,
             "weight tensor should be defined either for all ", l.classes,
             " classes or no classes but got weight tensor of shape: ", weight.shape_str());
  KILN_CHECK(target.dtype() == DType::Int64, Runtime, "expected target dtype to be Long or Byte, but got ",
             dtype_legacy_name(target.dtype()));
  return l;
}

// Per target element: its class (or -1 when ignored) and class weight; bounds-checked.
struct NllTargets {
  std::vector<int64_t> cls;
  std::vector<double> w;
  double total_weight = 0;
};

NllTargets nll_targets(const Tensor& target, const Tensor& weight, int64_t classes, int64_t ignore_index) {
  Tensor t = copy_to_device(dense(target, DType::Int64), Device{});  // read on the host
  std::vector<double> wv = weight.defined() ? to_double_vector(weight) : std::vector<double>();
  NllTargets r;
  const int64_t* pt = t.data<int64_t>();
  r.cls.resize(size_t(t.numel()));
  r.w.resize(size_t(t.numel()));
  for (int64_t i = 0; i < t.numel(); ++i) {
    int64_t c = pt[i];
    if (c == ignore_index) {
      r.cls[size_t(i)] = -1;
      r.w[size_t(i)] = 0;
      continue;
    }
    KILN_CHECK(c >= 0 && c < classes, Index, "Target ", c, " is out of bounds.");
    r.cls[size_t(i)] = c;
    r.w[size_t(i)] = weight.defined() ? wv[size_t(c)] : 1.0;
    r.total_weight += r.w[size_t(i)];
  }
  return r;
}

// nll_targets' bounds check alone, for the CheckFns.
void check_targets(const Tensor& target, int64_t classes, int64_t ignore_index) {
  Tensor t = copy_to_device(dense(target, DType::Int64), Device{});
  const int64_t* pt = t.data<int64_t>();
  for (int64_t i = 0; i < t.numel(); ++i) {
    int64_t c = pt[i];
    KILN_CHECK(c == ignore_index || (c >= 0 && c < classes), Index, "Target ", c, " is out of bounds.");
  }
}

// nll_loss_forward(Tensor self, Tensor target, Tensor? weight, int reduction, int ignore_index)
//   -> (output, total_weight): the weight summed over the targets not ignored,
// which the mean divides by and the backward reads (as PyTorch's does).
std::vector<Shape> shape_nll_loss(const Args& a) {
  nll_layout(a[0].tensor(), a[1].tensor(), opt_tensor(a[2]));
  return {a[3].to_int() == 0 ? a[1].tensor().sizes() : Shape{}, Shape{}};
}
std::vector<DType> dtype_nll_loss(const Args& a) { return {a[0].tensor().dtype(), a[0].tensor().dtype()}; }

// Layout first: it is the shape rule, which dispatch runs after the check.
void check_nll_loss(const Args& a) {
  NllLayout l = nll_layout(a[0].tensor(), a[1].tensor(), opt_tensor(a[2]));
  check_targets(a[1].tensor(), l.classes, a[4].to_int());
}

void nll_loss_kernel(const Args& a, std::vector<Tensor>& outs) {
  const Tensor &self = a[0].tensor(), &target = a[1].tensor();
  Tensor weight = opt_tensor(a[2]);
  int64_t reduction = a[3].to_int();
  NllLayout l = nll_layout(self, target, weight);
  NllTargets tg = nll_targets(target, weight, l.classes, a[4].to_int());
  visit_floating(self.dtype(), "nll_loss_out_frame", [&](auto tag) {
    using T = typename decltype(tag)::type;
    Tensor x = dense(self, self.dtype());
    const T* px = x.data<T>();
    int64_t n = int64_t(tg.cls.size());
    std::vector<double> loss(size_t(n), 0.0);
    for (int64_t e = 0; e < n; ++e) {
      int64_t c = tg.cls[size_t(e)];
      if (c < 0) continue;
      int64_t b = e / l.inner, s = e % l.inner;
      loss[size_t(e)] = -tg.w[size_t(e)] * double(px[(b * l.classes + c) * l.inner + s]);
    }
    T* po = outs[0].data<T>();
    outs[1].data<T>()[0] = T(tg.total_weight);
    if (reduction == 0) {
      for (int64_t e = 0; e < n; ++e) po[e] = T(loss[size_t(e)]);
      return;
    }
    double total = 0;
    for (double v : loss) total += v;
    po[0] = T(reduction == 1 ? total / tg.total_weight : total);
  });
}

// 2-D input: one Row kernel over the targets [N]. Each target's loss is
// -w[t] * x[i, t] (0 when ignored); the output is their sum, or the mean
// over the weights, and the weights' sum is total_weight. Float64
// throughout, like the eager kernel's accumulators.
bool lower_nll_loss(kir::Lowering& L) {
  using KOp = kir::Op;
  const Tensor& self = L.args[0].tensor();
  if (self.dim() != 2 || !kir::lowerable_float(self.dtype()) || !L.can_reduce(1, 0)) return false;
  kir::Builder& b = L.b;
  const DType D = DType::Float64;
  kir::ExprId t = L.tensor(1, DType::Int64), zero = b.constant(0, D);
  kir::ExprId valid = b.compare(KOp::Ne, t, L.scalar(4, DType::Int64));
  kir::ExprId cls = b.select(valid, t, b.constant(0, DType::Int64));  // an ignored target reads class 0
  kir::ExprId x = L.gather(0, 1, cls, D);
  kir::ExprId w = L.args[2].is_tensor() ? L.gather(2, 0, cls, D) : b.constant(1, D);
  kir::ExprId loss = b.select(valid, b.unary(KOp::Neg, b.binary(KOp::Mul, w, x)), zero);
  kir::ExprId total_weight = b.reduce(kir::ReduceOp::Sum, b.select(valid, w, zero));
  const int64_t reduction = L.args[3].to_int();
  if (reduction == 0) {
    L.set_out(0, loss);
  } else {
    kir::ExprId total = b.reduce(kir::ReduceOp::Sum, loss);
    L.set_out(0, reduction == 1 ? b.binary(KOp::Div, total, total_weight) : total, true);
  }
  L.set_out(1, total_weight, true);
  return true;
}

std::vector<Tensor> grad_nll_loss(const GradCtx& c) {
  return per_tensor_arg(c, {nll_loss_grad(c.grad(), c.in(1), opt_tensor(c.args[2]), c.in_sizes[0],
                                          c.args[3].to_int(), c.args[4].to_int(), c.out(1))});
}

// nll_loss_grad is linear in grad_output and reads self only for its shape:
// its derivative is the loss itself taken of the incoming gradient.
std::vector<Tensor> grad_nll_loss_grad(const GradCtx& c) {
  Tensor gg = c.need(0) ? invoke_multi("nll_loss_forward", {c.grad(), c.args[1], c.args[2], c.args[4], c.args[5]})[0]
                        : Tensor();
  return per_tensor_arg(c, {gg});
}

// Beyond 2-d scores ATen runs nll_loss2d (on a 4-d view), whose unreduced
// loss other than 4-d scores' is viewed back to the target's shape.
std::vector<Tensor> nll_loss_composite(const Args& a) {
  Tensor loss = invoke_multi("nll_loss_forward", {a[0], a[1], a[2], a[3], a[4]})[0];
  const int64_t dims = a[0].tensor().dim();
  if (dims < 3) return {loss};
  return {as_node(loss, a[3].to_int() == 0 && dims != 4 ? "ViewBackward0" : "NllLoss2DBackward0")};
}

// nll_loss_grad(Tensor grad_output, Tensor target, Tensor? weight, int[] self_size, int reduction,
//               int ignore_index, Tensor total_weight)
std::vector<Shape> shape_nll_loss_grad(const Args& a) { return {a[3].int_list()}; }

// The kernel lays the loss out over its output; a zero-stride stand-in of
// self_size's shape gives the same layout without allocating it.
void check_nll_loss_grad(const Args& a) {
  Shape self_size = shape_nll_loss_grad(a)[0];
  for (int64_t s : self_size)
    if (s < 0) return;  // allocating the output fails first
  Tensor self = make_view(scalar_tensor(0, DType::Float32, false), self_size, Shape(self_size.size(), 0), 0);
  NllLayout l = nll_layout(self, a[1].tensor(), opt_tensor(a[2]));
  check_targets(a[1].tensor(), l.classes, a[5].to_int());
}

void nll_loss_grad_kernel(const Args& a, std::vector<Tensor>& outs) {
  Tensor& out = outs[0];
  const Tensor& target = a[1].tensor();
  Tensor weight = opt_tensor(a[2]);
  int64_t reduction = a[4].to_int();
  NllLayout l = nll_layout(out, target, weight);
  NllTargets tg = nll_targets(target, weight, l.classes, a[5].to_int());
  std::vector<double> g = to_double_vector(a[0].tensor());
  const double total_weight = reduction == 1 ? a[6].tensor().item_double() : 1.0;
  copy_cast(out, scalar_tensor(0, DType::Float64, true));
  visit_floating(out.dtype(), "nll_loss_backward_out_frame", [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* po = out.data<T>();
    for (size_t e = 0; e < tg.cls.size(); ++e) {
      int64_t c = tg.cls[e];
      if (c < 0) continue;
      double ge = reduction == 0 ? g[e] : reduction == 1 ? g[0] / total_weight : g[0];
      int64_t b = int64_t(e) / l.inner, s = int64_t(e) % l.inner;
      po[(b * l.classes + c) * l.inner + s] = T(-tg.w[e] * ge);
    }
  });
}

// 2-D: grad_input[i, c] = -w[t_i] * g (over total_weight for the mean) where
// c == t_i, else 0; one pointwise kernel over [N, C].
bool lower_nll_loss_grad(kir::Lowering& L) {
  using KOp = kir::Op;
  if (L.args[3].int_list().size() != 2 || !kir::lowerable_float(L.outs[0].dtype())) return false;
  kir::Builder& b = L.b;
  const DType D = DType::Float64;
  kir::ExprId t = L.tensor(1, DType::Int64, 1);
  kir::ExprId valid = b.compare(KOp::Ne, t, L.scalar(5, DType::Int64));
  kir::ExprId hit = b.binary(KOp::And, valid, b.compare(KOp::Eq, L.index(1), t));
  kir::ExprId cls = b.select(valid, t, b.constant(0, DType::Int64));
  kir::ExprId w = L.args[2].is_tensor() ? L.gather(2, 0, cls, D) : b.constant(1, D);
  const int64_t reduction = L.args[4].to_int();
  kir::ExprId g = L.tensor(0, D, reduction == 0 ? 1 : 0);
  if (reduction == 1) g = b.binary(KOp::Div, g, L.tensor(6, D));
  L.set_out(0, b.select(hit, b.unary(KOp::Neg, b.binary(KOp::Mul, w, g)), b.constant(0, D)));
  return true;
}

// ---- cross_entropy ---------------------------------------------------------------------------
int64_t reduction_enum(const std::string& r) {
  if (r == "none") return 0;
  if (r == "mean") return 1;
  if (r == "sum") return 2;
  throw Error(r + " is not a valid value for reduction", ErrorKind::Value);
}

Tensor reduce_loss(const Tensor& loss, int64_t reduction) {
  return reduction == 0 ? loss : reduction == 1 ? mean(loss) : sum(loss);
}

// weight [C] shaped to broadcast along the class dim of a [N, C, d...] input.
Tensor class_weight_view(const Tensor& weight, const Tensor& input, int64_t class_dim) {
  Shape s(size_t(input.dim() - class_dim), 1);
  s[0] = weight.numel();
  return reshape(weight, s);
}

// Targets given as class probabilities (same shape as the input).
Tensor cross_entropy_probs(const Tensor& logp, Tensor target, const Tensor& weight, int64_t reduction,
                           double smoothing, int64_t class_dim) {
  KILN_CHECK(is_floating(target.dtype()), Runtime,
             "Expected floating point type for target with class probabilities, got ",
             dtype_legacy_name(target.dtype()));
  int64_t classes = logp.size(class_dim);
  if (smoothing > 0) target = add(mul(target, 1 - smoothing), smoothing / double(classes));
  Tensor prod = mul(logp, target);
  if (weight.defined()) prod = mul(prod, class_weight_view(weight, logp, class_dim));
  if (reduction == 0) return neg(sum(prod, Shape{class_dim}));
  Tensor total = neg(sum(prod));
  if (reduction == 2) return total;
  // A division by a Python int in ATen: div.Scalar's node.
  return as_node(div(total, scalar_tensor(double(logp.numel() / std::max<int64_t>(classes, 1)), DType::Int64, true)),
                 "DivBackward1");
}

// Target class indices, with label smoothing mixing in the uniform distribution's loss.
Tensor cross_entropy_indices(const Tensor& logp, const Tensor& target, const Tensor& weight, int64_t reduction,
                             int64_t ignore_index, double smoothing, int64_t class_dim) {
  Tensor nll = nll_loss(logp, target, weight, reduction, ignore_index);
  if (smoothing <= 0) return nll;
  int64_t classes = logp.size(class_dim);
  Tensor per_class = weight.defined() ? mul(logp, class_weight_view(weight, logp, class_dim)) : logp;
  // The ignored targets' mask and the mean's denominator depend only on target and weight: no gradient.
  NllTargets tg = nll_targets(target, weight, classes, ignore_index);
  std::vector<double> keep(tg.cls.size());
  double kept = 0;
  for (size_t i = 0; i < keep.size(); ++i) {
    keep[i] = tg.cls[i] < 0 ? 0.0 : 1.0;
    kept += keep[i];
  }
  Tensor smooth = mul(neg(sum(per_class, Shape{class_dim})), move_to(tensor_from(keep, target.sizes(), logp.dtype()), logp.device()));
  Tensor ret = reduction == 0   ? smooth
               : reduction == 2 ? sum(smooth)
                                : div(sum(smooth), scalar_tensor(weight.defined() ? tg.total_weight : kept,
                                                                 DType::Float64, true));
  return add(mul(nll, 1 - smoothing), mul(ret, smoothing / double(classes)));
}

// cross_entropy(Tensor self, Tensor target, Tensor? weight, str reduction, int ignore_index, float label_smoothing)
std::vector<Tensor> cross_entropy_composite(const Args& a) {
  const Tensor &self = a[0].tensor(), &target = a[1].tensor();
  Tensor weight = opt_tensor(a[2]);
  int64_t reduction = reduction_enum(a[3].str()), ignore_index = a[4].to_int();
  double smoothing = a[5].to_double();
  KILN_CHECK(smoothing >= 0.0 && smoothing <= 1.0, Runtime, "label_smoothing must be between 0.0 and 1.0. Got: ",
             smoothing);
  KILN_CHECK(self.dim() >= 1, Value, "Expected 1 or more dimensions (got ", self.dim(), ")");
  int64_t class_dim = self.dim() == 1 ? 0 : 1;
  Tensor logp = log_softmax(self, class_dim);
  if (self.sizes() == target.sizes()) {
    KILN_CHECK(ignore_index < 0, Runtime, "ignore_index is not supported for floating point target");
    return {cross_entropy_probs(logp, target, weight, reduction, smoothing, class_dim)};
  }
  return {cross_entropy_indices(logp, target, weight, reduction, ignore_index, smoothing, class_dim)};
}

// ---- mse_loss -------------------------------------------------------------------------------
std::vector<Tensor> mse_loss_composite(const Args& a) {
  int64_t reduction = reduction_enum(a[2].str());
  Tensor d = sub(a[0].tensor(), a[1].tensor());
  return {as_node(reduce_loss(mul(d, d), reduction), "MseLossBackward0")};
}

}  // namespace
}  // namespace ops

void register_nn_ops(OpTable& t) {
  using namespace ops;
  constexpr OpKind C = OpKind::Composite;
  t.add({.schema_text = "native_layer_norm(Tensor input, int[] normalized_shape, Tensor? weight, Tensor? bias, "
                        "float eps) -> (Tensor, Tensor, Tensor)",
         .kind = OpKind::Reduction, .shape = shape_layer_norm, .dtype = dtype_layer_norm,
         .kernel = layer_norm_kernel, .grad = grad_layer_norm,
         .saves = save_in(0) | save_in(2) | save_out(1) | save_out(2), .lower = lower_layer_norm});
  t.add({.schema_text = "layer_norm(Tensor input, int[] normalized_shape, Tensor? weight=None, Tensor? bias=None, "
                        "float eps=1e-05, bool cudnn_enable=True) -> Tensor",
         .kind = C, .composite = layer_norm_composite});
  t.add({.schema_text = "embedding(Tensor weight, Tensor indices, int padding_idx=-1, bool scale_grad_by_freq=False, "
                        "bool sparse=False) -> Tensor",
         .kind = OpKind::Shape, .shape = shape_embedding, .dtype = dtype_like_self, .kernel = embedding_kernel,
         .grad = grad_embedding, .saves = save_in(1), .check = check_embedding, .lower = lower_embedding});
  t.add({.schema_text = "embedding_dense_backward(Tensor grad_output, Tensor indices, int num_weights, "
                        "int padding_idx, bool scale_grad_by_freq) -> Tensor",
         .kind = OpKind::Shape, .shape = shape_embedding_backward, .dtype = dtype_like_self,
         .kernel = embedding_backward_kernel, .grad = grad_embedding_backward, .saves = save_in(1),
         .check = check_embedding_backward, .lower = lower_embedding_backward});
  t.add({.schema_text = "nll_loss_forward(Tensor self, Tensor target, Tensor? weight=None, int reduction=1, "
                        "int ignore_index=-100) -> (Tensor output, Tensor total_weight)",
         .kind = OpKind::Reduction, .shape = shape_nll_loss, .dtype = dtype_nll_loss, .kernel = nll_loss_kernel,
         .grad = grad_nll_loss, .saves = save_in(1) | save_in(2) | save_out(1), .check = check_nll_loss,
         .lower = lower_nll_loss});
  t.add({.schema_text = "nll_loss(Tensor self, Tensor target, Tensor? weight=None, int reduction=1, "
                        "int ignore_index=-100) -> Tensor",
         .kind = C, .composite = nll_loss_composite});
  t.add({.schema_text = "nll_loss_grad(Tensor grad_output, Tensor target, Tensor? weight, int[] self_size, "
                        "int reduction, int ignore_index, Tensor total_weight) -> Tensor",
         .kind = OpKind::Reduction, .shape = shape_nll_loss_grad, .dtype = dtype_like_self,
         .kernel = nll_loss_grad_kernel, .grad = grad_nll_loss_grad, .saves = save_in(1) | save_in(2),
         .check = check_nll_loss_grad, .lower = lower_nll_loss_grad});
  t.add({.schema_text = "cross_entropy(Tensor self, Tensor target, Tensor? weight=None, str reduction=\"mean\", "
                        "int ignore_index=-100, float label_smoothing=0.0) -> Tensor",
         .kind = C, .composite = cross_entropy_composite});
  t.add({.schema_text = "mse_loss(Tensor self, Tensor target, str reduction=\"mean\") -> Tensor", .kind = C,
         .composite = mse_loss_composite});
}

// ---- typed wrappers ---------------------------------------------------------------
namespace {
Value opt_value(const Tensor& t) { return t.defined() ? Value(t) : Value(); }
}  // namespace

std::vector<Tensor> native_layer_norm(const Tensor& x, const Shape& normalized_shape, const Tensor& w,
                                      const Tensor& b, double eps) {
  return invoke_multi("native_layer_norm", {x, normalized_shape, opt_value(w), opt_value(b), eps});
}
Tensor layer_norm(const Tensor& x, const Shape& normalized_shape, const Tensor& w, const Tensor& b, double eps) {
  return invoke("layer_norm", {x, normalized_shape, opt_value(w), opt_value(b), eps, true});
}
Tensor embedding(const Tensor& weight, const Tensor& indices) { return invoke("embedding", {weight, indices}); }
Tensor embedding(const Tensor& weight, const Tensor& indices, int64_t padding_idx, bool scale_grad_by_freq,
                 bool sparse) {
  return invoke("embedding", {weight, indices, padding_idx, scale_grad_by_freq, sparse});
}
Tensor embedding_dense_backward(const Tensor& grad, const Tensor& indices, int64_t num_weights, int64_t padding_idx,
                                bool scale_grad_by_freq) {
  return invoke("embedding_dense_backward", {grad, indices, num_weights, padding_idx, scale_grad_by_freq});
}
Tensor nll_loss(const Tensor& logp, const Tensor& target, const Tensor& weight, int64_t reduction,
                int64_t ignore_index) {
  return invoke("nll_loss", {logp, target, opt_value(weight), reduction, ignore_index});
}
Tensor nll_loss_grad(const Tensor& grad, const Tensor& target, const Tensor& weight, const Shape& self_size,
                     int64_t reduction, int64_t ignore_index, const Tensor& total_weight) {
  return invoke("nll_loss_grad", {grad, target, opt_value(weight), self_size, reduction, ignore_index, total_weight});
}
Tensor cross_entropy(const Tensor& logits, const Tensor& target) {
  return invoke("cross_entropy", {logits, target});
}
Tensor cross_entropy(const Tensor& logits, const Tensor& target, const Tensor& weight, const std::string& reduction,
                     int64_t ignore_index, double label_smoothing) {
  return invoke("cross_entropy", {logits, target, opt_value(weight), reduction, ignore_index, label_smoothing});
}
Tensor mse_loss(const Tensor& a, const Tensor& b) { return invoke("mse_loss", {a, b}); }
Tensor mse_loss(const Tensor& a, const Tensor& b, const std::string& reduction) {
  return invoke("mse_loss", {a, b, reduction});
}

}  // namespace kiln
