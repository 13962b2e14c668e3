// One direction of one LSTM or GRU layer over a whole sequence as a single op,
// with its backward as one op too. The prelude's nn.LSTM and nn.GRU
// (core/lang/prelude/nn/rnn.py) compute the input projection of every step in
// one product and hand the rest here. Written step by step with ops, each
// step's hidden product is its own autograd node: backward then runs a
// weight-gradient product and a bias sum per step, and accumulates both. Here
// backward runs one product per step (the hidden state's gradient) and the
// weight gradient over all steps as one product, as oneDNN's RNNs (PyTorch's
// CPU kernels) do.
//
// Forward arithmetic is the prelude's, with the eager kernels' sigmoid and tanh:
// hidden product first, its bias next, then the step's input projection, in
// ATen's gate orders (LSTM: input, forget, cell, output; GRU: reset, update, new).
#include <cmath>

#include "core/autograd.h"
#include "core/float_math.h"
#include "core/ops/common.h"
#include "core/ops/spatial.h"

namespace kiln {
namespace ops {
namespace {

using spatial::dense;
using spatial::opt_tensor;

// The sizes every argument must agree on: T steps, N rows, H hidden units. `gates` is the
// number of gate blocks of H in a projection (4 for the LSTM, 3 for the GRU); c0 is the LSTM's.
struct RnnDims {
  int64_t T, N, H;
};

RnnDims rnn_dims(const char* op, int64_t gates, const Tensor& xg, const Tensor& h0, const Tensor& c0,
                 const Tensor& w, const Tensor& b) {
  KILN_CHECK(xg.dim() == 3 && w.dim() == 2 && xg.size(2) % gates == 0, Runtime, op, ": expected x_gates [T, N, ",
             gates, "H] and w_hh [", gates, "H, H], got ", xg.shape_str(), " and ", w.shape_str());
  const RnnDims d{xg.size(0), xg.size(1), xg.size(2) / gates};
  const Shape state{d.N, d.H};
  KILN_CHECK(h0.sizes() == state && (!c0.defined() || c0.sizes() == state), Runtime, op,
             ": expected states of shape ", shape_str(state), ", got ", h0.shape_str());
  KILN_CHECK(w.sizes() == Shape({gates * d.H, d.H}) && (!b.defined() || b.sizes() == Shape({gates * d.H})), Runtime,
             op, ": w_hh ", w.shape_str(), " or b_hh does not match hidden size ", d.H);
  for (const Tensor* t : {&h0, &c0, &w, &b})
    KILN_CHECK(!t->defined() || t->dtype() == xg.dtype(), Runtime, op, ": expected every tensor in ",
               dtype_legacy_name(xg.dtype()), ", got ", dtype_legacy_name(t->dtype()));
  return d;
}

// The recurrent ops compute in float32 or float64.
DType rnn_dtype(const char* op, DType t) {
  KILN_CHECK(t == DType::Float32 || t == DType::Float64, NotImplemented, op, ": float32 and float64 only, got ",
             dtype_legacy_name(t));
  return t;
}

// Inlined, so the gate loops vectorize (the eager sigmoid kernel's formula).
template <class T>
[[gnu::always_inline]] inline T sigmoid_of(T x) {
  return T(1) / (T(1) + fmath::exp_of(-x));
}

// Step s of the processing order is sequence position t; its previous state is
// at t - 1 going forward, t + 1 in reverse (none at the first step processed).
int64_t position(int64_t s, int64_t steps, bool reverse) { return reverse ? steps - 1 - s : s; }

// Row-block t of a dense [T, rows, cols] tensor as a [rows, cols] matrix, outside autograd.
Tensor block(const Tensor& t, int64_t i) {
  const int64_t rows = t.size(1), cols = t.size(2);
  return storage_view(t.storage(), {rows, cols}, {cols, 1}, t.offset() + i * rows * cols, t.dtype());
}

// W^T of a dense matrix, as a view outside autograd.
Tensor transposed(const Tensor& w) {
  return storage_view(w.storage(), {w.size(1), w.size(0)}, {1, w.size(1)}, w.offset(), w.dtype());
}

// The hidden weights' gradients of all steps at once: grad_w = dg^T @ h_prev over the T * N
// rows of dg [T, N, G] (the hidden product's gradient) and h_prev [T, N, H] (the state each
// position read), grad_b = dg's column sums (zeros without a bias).
template <class T>
void weight_grads(const Tensor& dg, const Tensor& h_prev, const Tensor& grad_w, const Tensor& grad_b, bool bias) {
  const int64_t rows = dg.size(0) * dg.size(1), G = dg.size(2), H = h_prev.size(2);
  const DType dt = dtype_of<T>();
  mm_into(storage_view(dg.storage(), {G, rows}, {1, G}, dg.offset(), dt),
          storage_view(h_prev.storage(), {rows, H}, {H, 1}, h_prev.offset(), dt), grad_w);
  T* db = grad_b.data<T>();
  std::fill_n(db, G, T(0));
  if (!bias) return;
  for (int64_t r = 0; r < rows; ++r) {
    const T* row = dg.data<T>() + r * G;
    for (int64_t j = 0; j < G; ++j) db[j] += row[j];
  }
}

// What every backward step starts with, at position t: records the state the step read
// (block `tp` of `states`: h0, or the output at the previous position) in h_prev for the
// weight gradient, and sums the gradient reaching h there (grad_output's plus what the later
// step sent back) into dh. Returns the state read.
template <class T>
const T* begin_step_backward(const Tensor& states, int64_t tp, int64_t t, const Tensor& go, const Tensor& dh_step,
                             const Tensor& h_prev, T* dh) {
  const int64_t S = h_prev.size(1) * h_prev.size(2);
  const T* hp = states.data<T>() + tp * S;
  std::copy_n(hp, S, h_prev.data<T>() + t * S);
  const T* pgo = go.data<T>() + t * S;
  const T* pstep = dh_step.data<T>();
  for (int64_t e = 0; e < S; ++e) dh[e] = pgo[e] + pstep[e];
  return hp;
}

// ---- _kiln_lstm_layer ---------------------------------------------------------------------------
// _kiln_lstm_layer(Tensor x_gates, Tensor h0, Tensor c0, Tensor w_hh, Tensor? b_hh, bool reverse=False)
//   -> (Tensor output, Tensor cells, Tensor gates)
// output [T, N, H]: h at each position; cells [T, N, H]: c at each position;
// gates [T, N, 4H]: the activated gates (what backward reads).
std::vector<Shape> shape_lstm(const Args& a) {
  const RnnDims d = rnn_dims("_kiln_lstm_layer", 4, a[0].tensor(), a[1].tensor(), a[2].tensor(), a[3].tensor(),
                             opt_tensor(a[4]));
  return {{d.T, d.N, d.H}, {d.T, d.N, d.H}, {d.T, d.N, 4 * d.H}};
}
std::vector<DType> dtype_lstm(const Args& a) {
  return std::vector<DType>(3, rnn_dtype("_kiln_lstm_layer", a[0].tensor().dtype()));
}

// One row of a step: g holds h @ W_hh^T and becomes the activated gates; then the new c and h.
// A loop per gate kind, so each vectorizes (no per-element choice of function).
template <class T>
void activate_row(T* g, const T* x, const T* b, const T* c, T* c_next, T* h_next, int64_t H) {
  if (b) {
    for (int64_t j = 0; j < 4 * H; ++j) g[j] = (g[j] + b[j]) + x[j];
  } else {
    for (int64_t j = 0; j < 4 * H; ++j) g[j] = g[j] + x[j];
  }
  for (int64_t j = 0; j < 2 * H; ++j) g[j] = sigmoid_of(g[j]);
  for (int64_t j = 2 * H; j < 3 * H; ++j) g[j] = fmath::tanh_of(g[j]);
  for (int64_t j = 3 * H; j < 4 * H; ++j) g[j] = sigmoid_of(g[j]);
  for (int64_t k = 0; k < H; ++k) {
    const T cn = g[H + k] * c[k] + g[k] * g[2 * H + k];
    c_next[k] = cn;
    h_next[k] = g[3 * H + k] * fmath::tanh_of(cn);
  }
}

template <class T>
void lstm_forward(const Args& a, std::vector<Tensor>& outs) {
  const Tensor xg = dense(a[0].tensor(), dtype_of<T>()), w = a[3].tensor(), b = opt_tensor(a[4]);
  const RnnDims d = rnn_dims("_kiln_lstm_layer", 4, xg, a[1].tensor(), a[2].tensor(), w, b);
  const bool reverse = a[5].to_bool();
  const Tensor bias = b.defined() ? dense(b, dtype_of<T>()) : Tensor();
  const Tensor wt = transposed(dense(w, dtype_of<T>()));
  Tensor h = dense(a[1].tensor(), dtype_of<T>()), c = dense(a[2].tensor(), dtype_of<T>());
  const int64_t H = d.H, G = 4 * H;
  for (int64_t s = 0; s < d.T; ++s) {
    const int64_t t = position(s, d.T, reverse);
    const Tensor gates = block(outs[2], t), h_next = block(outs[0], t), c_next = block(outs[1], t);
    mm_into(h, wt, gates);
    T* pg = gates.data<T>();
    const T* px = xg.data<T>() + t * d.N * G;
    const T* pb = bias.defined() ? bias.data<T>() : nullptr;
    const T* pc = c.data<T>();
    T* ph = h_next.data<T>();
    T* pcn = c_next.data<T>();
    for (int64_t n = 0; n < d.N; ++n) activate_row(pg + n * G, px + n * G, pb, pc + n * H, pcn + n * H, ph + n * H, H);
    h = h_next;
    c = c_next;
  }
}

void lstm_kernel(const Args& a, std::vector<Tensor>& outs) {
  if (a[0].tensor().dtype() == DType::Float64) return lstm_forward<double>(a, outs);
  lstm_forward<float>(a, outs);
}

// Under create_graph: backpropagation through time from differentiable ops on the
// saved outputs, which carry this node's history there, so second derivatives
// flow. It runs a handful of ops per step; the kernel keeps first derivatives.
Tensor one_minus(const Tensor& t) { return sub(ones_like(t), t); }
std::vector<Tensor> lstm_backward_composite(const GradCtx& c) {
  const Tensor &out = c.out(0), &cells = c.out(1), &gates = c.out(2), &w = c.in(3);
  const bool reverse = c.args[5].to_bool(), bias = c.args[4].is_tensor();
  const int64_t T = gates.size(0), H = gates.size(2) / 4;
  Tensor dh_next = zeros_like(c.in(1)), dc_next = zeros_like(c.in(2)), dw, db;
  std::vector<Tensor> dxg(static_cast<size_t>(T));
  for (int64_t s = T - 1; s >= 0; --s) {
    const int64_t t = position(s, T, reverse), prev = position(s - 1, T, reverse);
    const Tensor h_prev = s == 0 ? c.in(1) : select(out, 0, prev), c_prev = s == 0 ? c.in(2) : select(cells, 0, prev);
    const Tensor gt = select(gates, 0, t);
    const Tensor i = narrow(gt, 1, 0, H), f = narrow(gt, 1, H, H), g = narrow(gt, 1, 2 * H, H), o = narrow(gt, 1, 3 * H, H);
    const Tensor tc = tanh(select(cells, 0, t));
    Tensor dh = add(select(c.grad(0), 0, t), dh_next);
    Tensor dc = add(dc_next, mul(mul(dh, o), one_minus(mul(tc, tc))));
    if (c.flowed(1)) dc = add(dc, select(c.grad(1), 0, t));
    // Gradients of the activated gates, then through their activations.
    Tensor d_act = cat({mul(dc, g), mul(dc, c_prev), mul(dc, i), mul(dh, tc)}, 1);
    if (c.flowed(2)) d_act = add(d_act, select(c.grad(2), 0, t));
    Tensor slope = cat({mul(i, one_minus(i)), mul(f, one_minus(f)), one_minus(mul(g, g)), mul(o, one_minus(o))}, 1);
    Tensor dA = mul(d_act, slope);
    dxg[size_t(t)] = dA;
    dh_next = mm(dA, w);
    dc_next = mul(dc, f);
    Tensor dw_t = mm(transpose(dA, 0, 1), h_prev);
    dw = dw.defined() ? add(dw, dw_t) : dw_t;
    if (bias) db = db.defined() ? add(db, sum(dA, Shape{0})) : sum(dA, Shape{0});
  }
  return {stack(dxg, 0), dh_next, dc_next, dw, db};
}

// Gradients of outputs that received none are not passed (None).
std::vector<Tensor> grad_lstm(const GradCtx& c) {
  if (GradMode::enabled() && c.grad(0).dim() == 3 && c.out(2).size(0) > 0) return lstm_backward_composite(c);
  auto flowed = [&](int i) { return c.flowed(i) ? Value(c.grad(i)) : Value(); };
  const bool bias = c.args[4].is_tensor();
  std::vector<Tensor> g = invoke_multi("_kiln_lstm_layer_backward",
                                       {c.grad(0), flowed(1), flowed(2), c.in(1), c.in(2), c.in(3), c.out(0),
                                        c.out(1), c.out(2), c.args[5], bias});
  return {g[0], g[1], g[2], g[3], bias ? g[4] : Tensor()};
}

// ---- _kiln_lstm_layer_backward ------------------------------------------------------------------
// _kiln_lstm_layer_backward(Tensor grad_output, Tensor? grad_cells, Tensor? grad_gates, Tensor h0,
//   Tensor c0, Tensor w_hh, Tensor output, Tensor cells, Tensor gates, bool reverse, bool bias)
//   -> (Tensor grad_x_gates, Tensor grad_h0, Tensor grad_c0, Tensor grad_w_hh, Tensor grad_b_hh)
std::vector<Shape> shape_lstm_backward(const Args& a) {
  const Tensor& gates = a[8].tensor();
  const int64_t T = gates.size(0), N = gates.size(1), H = gates.size(2) / 4;
  return {{T, N, 4 * H}, {N, H}, {N, H}, {4 * H, H}, {4 * H}};
}
std::vector<DType> dtype_lstm_backward(const Args& a) { return std::vector<DType>(5, a[8].tensor().dtype()); }

// The per-step work of backward, over dense buffers of one dtype. dh: the gradient
// reaching h at this position (output's plus the next step's); dc: reaching c from
// the next step, replaced by what reaches the previous c. The flags say whether
// the cells and gates outputs received gradients, as template arguments so the
// element loop has no branch and vectorizes.
template <class T, bool Cell, bool Gates>
void lstm_step_backward(int64_t N, int64_t H, const T* g, const T* cell, const T* c_prev, const T* dh, T* dc,
                        const T* d_cell, const T* d_gates, T* dx) {
  const int64_t G = 4 * H;
  for (int64_t n = 0; n < N; ++n)
    for (int64_t k = 0; k < H; ++k) {
      const int64_t e = n * H + k, r = n * G;
      const T i = g[r + k], f = g[r + H + k], gg = g[r + 2 * H + k], o = g[r + 3 * H + k];
      const T tc = fmath::tanh_of(cell[e]);
      T dct = dc[e] + dh[e] * o * (T(1) - tc * tc);
      if constexpr (Cell) dct += d_cell[e];
      T di = dct * gg, df = dct * c_prev[e], dg = dct * i, d_o = dh[e] * tc;
      if constexpr (Gates) {
        di += d_gates[r + k];
        df += d_gates[r + H + k];
        dg += d_gates[r + 2 * H + k];
        d_o += d_gates[r + 3 * H + k];
      }
      dx[r + k] = di * i * (T(1) - i);
      dx[r + H + k] = df * f * (T(1) - f);
      dx[r + 2 * H + k] = dg * (T(1) - gg * gg);
      dx[r + 3 * H + k] = d_o * o * (T(1) - o);
      dc[e] = dct * f;
    }
}

template <class T>
using StepBackward = void (*)(int64_t, int64_t, const T*, const T*, const T*, const T*, T*, const T*, const T*, T*);
template <class T>
StepBackward<T> step_backward(bool cell, bool gates) {
  if (cell) return gates ? lstm_step_backward<T, true, true> : lstm_step_backward<T, true, false>;
  return gates ? lstm_step_backward<T, false, true> : lstm_step_backward<T, false, false>;
}

template <class T>
void lstm_backward(const Args& a, std::vector<Tensor>& outs) {
  const DType dt = dtype_of<T>();
  const Tensor go = dense(a[0].tensor(), dt), h0 = dense(a[3].tensor(), dt), c0 = dense(a[4].tensor(), dt);
  const Tensor gcell = a[1].is_tensor() ? dense(a[1].tensor(), dt) : Tensor();
  const Tensor ggates = a[2].is_tensor() ? dense(a[2].tensor(), dt) : Tensor();
  const Tensor w = dense(a[5].tensor(), dt), out = dense(a[6].tensor(), dt), cells = dense(a[7].tensor(), dt);
  const Tensor gates = dense(a[8].tensor(), dt);
  const bool reverse = a[9].to_bool();
  const int64_t L = gates.size(0), N = gates.size(1), H = gates.size(2) / 4, G = 4 * H, S = N * H;
  const StepBackward<T> step = step_backward<T>(gcell.defined(), ggates.defined());
  Tensor dh = empty_tensor({N, H}, dt), dh_step = empty_tensor({N, H}, dt);
  Tensor& dc = outs[2];
  std::fill_n(dc.data<T>(), S, T(0));
  std::fill_n(dh_step.data<T>(), S, T(0));
  // h before each position, for the weight gradient: h0 at the first position processed.
  Tensor h_prev = empty_tensor({L, N, H}, dt);
  for (int64_t s = L - 1; s >= 0; --s) {
    const int64_t t = position(s, L, reverse), tp = position(s - 1, L, reverse);
    const T* cp = s == 0 ? c0.data<T>() : cells.data<T>() + tp * S;
    T* pdh = dh.data<T>();
    begin_step_backward<T>(s == 0 ? h0 : out, s == 0 ? 0 : tp, t, go, dh_step, h_prev, pdh);
    step(N, H, gates.data<T>() + t * N * G, cells.data<T>() + t * S, cp, pdh, dc.data<T>(),
         gcell.defined() ? gcell.data<T>() + t * S : nullptr, ggates.defined() ? ggates.data<T>() + t * N * G : nullptr,
         outs[0].data<T>() + t * N * G);
    mm_into(block(outs[0], t), w, dh_step);
  }
  std::copy_n(dh_step.data<T>(), S, outs[1].data<T>());
  weight_grads<T>(outs[0], h_prev, outs[3], outs[4], a[10].to_bool());
}

void lstm_backward_kernel(const Args& a, std::vector<Tensor>& outs) {
  if (a[8].tensor().dtype() == DType::Float64) return lstm_backward<double>(a, outs);
  lstm_backward<float>(a, outs);
}


// ---- _kiln_gru_layer ----------------------------------------------------------------------------
// _kiln_gru_layer(Tensor x_gates, Tensor h0, Tensor w_hh, Tensor? b_hh, bool reverse=False)
//   -> (Tensor output, Tensor gates)
// ATen's GRU: hg = h @ W_hh^T + b_hh, r = sigmoid(hg_r + x_r), z = sigmoid(hg_z + x_z),
// n = tanh(x_n + hg_n * r), h' = (h - n) * z + n. output [T, N, H]: h at each position;
// gates [T, N, 4H]: r, z, n and hg_n (what backward reads).
std::vector<Shape> shape_gru(const Args& a) {
  const RnnDims d = rnn_dims("_kiln_gru_layer", 3, a[0].tensor(), a[1].tensor(), Tensor(), a[2].tensor(),
                             opt_tensor(a[3]));
  return {{d.T, d.N, d.H}, {d.T, d.N, 4 * d.H}};
}
std::vector<DType> dtype_gru(const Args& a) {
  return std::vector<DType>(2, rnn_dtype("_kiln_gru_layer", a[0].tensor().dtype()));
}

// One row of a step: hg holds h @ W_hh^T; writes the gates row and the new h.
template <class T>
void gru_row(T* hg, const T* x, const T* b, const T* h, T* gates, T* h_next, int64_t H) {
  if (b)
    for (int64_t j = 0; j < 3 * H; ++j) hg[j] = hg[j] + b[j];
  for (int64_t k = 0; k < H; ++k) {
    const T r = sigmoid_of(hg[k] + x[k]), z = sigmoid_of(hg[H + k] + x[H + k]);
    const T n = fmath::tanh_of(x[2 * H + k] + hg[2 * H + k] * r);
    gates[k] = r;
    gates[H + k] = z;
    gates[2 * H + k] = n;
    gates[3 * H + k] = hg[2 * H + k];
    h_next[k] = (h[k] - n) * z + n;
  }
}

template <class T>
void gru_forward(const Args& a, std::vector<Tensor>& outs) {
  const DType dt = dtype_of<T>();
  const Tensor xg = dense(a[0].tensor(), dt), b = opt_tensor(a[3]);
  const RnnDims d = rnn_dims("_kiln_gru_layer", 3, xg, a[1].tensor(), Tensor(), a[2].tensor(), b);
  const bool reverse = a[4].to_bool();
  const Tensor bias = b.defined() ? dense(b, dt) : Tensor(), wt = transposed(dense(a[2].tensor(), dt));
  const int64_t H = d.H;
  Tensor h = dense(a[1].tensor(), dt), hg = empty_tensor({d.N, 3 * H}, dt);
  for (int64_t s = 0; s < d.T; ++s) {
    const int64_t t = position(s, d.T, reverse);
    const Tensor h_next = block(outs[0], t);
    mm_into(h, wt, hg);
    for (int64_t n = 0; n < d.N; ++n)
      gru_row(hg.data<T>() + n * 3 * H, xg.data<T>() + (t * d.N + n) * 3 * H,
              bias.defined() ? bias.data<T>() : nullptr, h.data<T>() + n * H,
              outs[1].data<T>() + (t * d.N + n) * 4 * H, h_next.data<T>() + n * H, H);
    h = h_next;
  }
}

void gru_kernel(const Args& a, std::vector<Tensor>& outs) {
  if (a[0].tensor().dtype() == DType::Float64) return gru_forward<double>(a, outs);
  gru_forward<float>(a, outs);
}

// Under create_graph, as the LSTM's: through time from differentiable ops on the
// saved outputs (gates: r, z, n and the hidden product of n).
std::vector<Tensor> gru_backward_composite(const GradCtx& c) {
  const Tensor &out = c.out(0), &gates = c.out(1), &w = c.in(2);
  const bool reverse = c.args[4].to_bool(), bias = c.args[3].is_tensor();
  const int64_t T = gates.size(0), H = gates.size(2) / 4;
  Tensor dh_next = zeros_like(c.in(1)), dw, db;
  std::vector<Tensor> dxg(static_cast<size_t>(T));
  for (int64_t s = T - 1; s >= 0; --s) {
    const int64_t t = position(s, T, reverse), prev = position(s - 1, T, reverse);
    const Tensor h_prev = s == 0 ? c.in(1) : select(out, 0, prev);
    const Tensor gt = select(gates, 0, t);
    const Tensor r = narrow(gt, 1, 0, H), z = narrow(gt, 1, H, H), n = narrow(gt, 1, 2 * H, H);
    const Tensor hn = narrow(gt, 1, 3 * H, H);
    const Tensor dh = add(select(c.grad(0), 0, t), dh_next);
    Tensor dn = mul(dh, one_minus(z)), dz = mul(dh, sub(h_prev, n)), dr_extra, dhn_extra;
    if (c.flowed(1)) {
      const Tensor gg = select(c.grad(1), 0, t);
      dr_extra = narrow(gg, 1, 0, H);
      dz = add(dz, narrow(gg, 1, H, H));
      dn = add(dn, narrow(gg, 1, 2 * H, H));
      dhn_extra = narrow(gg, 1, 3 * H, H);
    }
    const Tensor dn_pre = mul(dn, one_minus(mul(n, n)));
    Tensor dr = mul(dn_pre, hn);
    if (dr_extra.defined()) dr = add(dr, dr_extra);
    const Tensor dr_pre = mul(dr, mul(r, one_minus(r))), dz_pre = mul(dz, mul(z, one_minus(z)));
    Tensor dhg_n = mul(dn_pre, r);
    if (dhn_extra.defined()) dhg_n = add(dhg_n, dhn_extra);
    dxg[static_cast<size_t>(t)] = cat({dr_pre, dz_pre, dn_pre}, 1);
    const Tensor dhg = cat({dr_pre, dz_pre, dhg_n}, 1);
    dh_next = add(mul(dh, z), mm(dhg, w));
    const Tensor dw_t = mm(transpose(dhg, 0, 1), h_prev);
    dw = dw.defined() ? add(dw, dw_t) : dw_t;
    if (bias) db = db.defined() ? add(db, sum(dhg, Shape{0})) : sum(dhg, Shape{0});
  }
  return {stack(dxg, 0), dh_next, dw, db};
}

std::vector<Tensor> grad_gru(const GradCtx& c) {
  if (GradMode::enabled() && c.grad(0).dim() == 3 && c.out(1).size(0) > 0) return gru_backward_composite(c);
  const bool bias = c.args[3].is_tensor();
  std::vector<Tensor> g = invoke_multi("_kiln_gru_layer_backward",
                                       {c.grad(0), c.flowed(1) ? Value(c.grad(1)) : Value(), c.in(1), c.in(2),
                                        c.out(0), c.out(1), c.args[4], bias});
  return {g[0], g[1], g[2], bias ? g[3] : Tensor()};
}

// ---- _kiln_gru_layer_backward -------------------------------------------------------------------
// _kiln_gru_layer_backward(Tensor grad_output, Tensor? grad_gates, Tensor h0, Tensor w_hh, Tensor output,
//   Tensor gates, bool reverse, bool bias) -> (Tensor grad_x_gates, Tensor grad_h0, Tensor grad_w_hh,
//   Tensor grad_b_hh)
std::vector<Shape> shape_gru_backward(const Args& a) {
  const Tensor& gates = a[5].tensor();
  const int64_t T = gates.size(0), N = gates.size(1), H = gates.size(2) / 4;
  return {{T, N, 3 * H}, {N, H}, {3 * H, H}, {3 * H}};
}
std::vector<DType> dtype_gru_backward(const Args& a) { return std::vector<DType>(4, a[5].tensor().dtype()); }

// One step's element-wise derivatives. dh: the gradient reaching h at this position; writes the
// gradients of x_gates (dx) and of the hidden product (dhg), and what reaches h_prev directly
// (through (h_prev - n) * z). Gates: whether the gates output received a gradient (d_gates).
template <class T, bool Gates>
void gru_step_backward(int64_t N, int64_t H, const T* g, const T* h_prev, const T* dh, const T* d_gates, T* dx,
                       T* dhg, T* direct) {
  for (int64_t n = 0; n < N; ++n)
    for (int64_t k = 0; k < H; ++k) {
      const int64_t e = n * H + k, r4 = n * 4 * H, r3 = n * 3 * H;
      const T r = g[r4 + k], z = g[r4 + H + k], nn = g[r4 + 2 * H + k], hn = g[r4 + 3 * H + k];
      T dn = dh[e] * (T(1) - z), dz = dh[e] * (h_prev[e] - nn), dr_extra = T(0), dhn_extra = T(0);
      if constexpr (Gates) {
        dr_extra = d_gates[r4 + k];
        dz += d_gates[r4 + H + k];
        dn += d_gates[r4 + 2 * H + k];
        dhn_extra = d_gates[r4 + 3 * H + k];
      }
      const T dn_pre = dn * (T(1) - nn * nn), dr = dn_pre * hn + dr_extra;
      dx[r3 + k] = dhg[r3 + k] = dr * r * (T(1) - r);
      dx[r3 + H + k] = dhg[r3 + H + k] = dz * z * (T(1) - z);
      dx[r3 + 2 * H + k] = dn_pre;
      dhg[r3 + 2 * H + k] = dn_pre * r + dhn_extra;
      direct[e] = dh[e] * z;
    }
}

template <class T>
void gru_backward(const Args& a, std::vector<Tensor>& outs) {
  const DType dt = dtype_of<T>();
  const Tensor go = dense(a[0].tensor(), dt), ggates = a[1].is_tensor() ? dense(a[1].tensor(), dt) : Tensor();
  const Tensor h0 = dense(a[2].tensor(), dt), w = dense(a[3].tensor(), dt), out = dense(a[4].tensor(), dt);
  const Tensor gates = dense(a[5].tensor(), dt);
  const bool reverse = a[6].to_bool();
  const int64_t L = gates.size(0), N = gates.size(1), H = gates.size(2) / 4, S = N * H;
  auto step = ggates.defined() ? gru_step_backward<T, true> : gru_step_backward<T, false>;
  Tensor dh = empty_tensor({N, H}, dt), direct = empty_tensor({N, H}, dt), dh_step = outs[1];
  Tensor dhg = empty_tensor({L, N, 3 * H}, dt), h_prev = empty_tensor({L, N, H}, dt);
  std::fill_n(dh_step.data<T>(), S, T(0));
  for (int64_t s = L - 1; s >= 0; --s) {
    const int64_t t = position(s, L, reverse), tp = position(s - 1, L, reverse);
    const T* hp = begin_step_backward<T>(s == 0 ? h0 : out, s == 0 ? 0 : tp, t, go, dh_step, h_prev, dh.data<T>());
    T* pdh = dh.data<T>();
    T* pstep = dh_step.data<T>();
    step(N, H, gates.data<T>() + t * N * 4 * H, hp, pdh, ggates.defined() ? ggates.data<T>() + t * N * 4 * H : nullptr,
         outs[0].data<T>() + t * N * 3 * H, dhg.data<T>() + t * N * 3 * H, direct.data<T>());
    mm_into(block(dhg, t), w, dh_step);
    const T* pdirect = direct.data<T>();
    for (int64_t e = 0; e < S; ++e) pstep[e] += pdirect[e];
  }
  weight_grads<T>(dhg, h_prev, outs[2], outs[3], a[7].to_bool());
}

void gru_backward_kernel(const Args& a, std::vector<Tensor>& outs) {
  if (a[5].tensor().dtype() == DType::Float64) return gru_backward<double>(a, outs);
  gru_backward<float>(a, outs);
}

}  // namespace
}  // namespace ops

void register_rnn_ops(OpTable& t) {
  using namespace ops;
  t.add({.schema_text = "_kiln_lstm_layer(Tensor x_gates, Tensor h0, Tensor c0, Tensor w_hh, Tensor? b_hh, "
                        "bool reverse=False) -> (Tensor output, Tensor cells, Tensor gates)",
         .kind = OpKind::Extern, .shape = shape_lstm, .dtype = dtype_lstm, .kernel = lstm_kernel,
         .grad = grad_lstm, .saves = save_in(1) | save_in(2) | save_in(3) | save_out(0) | save_out(1) | save_out(2)});
  t.add({.schema_text = "_kiln_lstm_layer_backward(Tensor grad_output, Tensor? grad_cells, Tensor? grad_gates, "
                        "Tensor h0, Tensor c0, Tensor w_hh, Tensor output, Tensor cells, Tensor gates, bool reverse, "
                        "bool bias) -> (Tensor, Tensor, Tensor, Tensor, Tensor)",
         .kind = OpKind::Extern, .shape = shape_lstm_backward, .dtype = dtype_lstm_backward,
         .kernel = lstm_backward_kernel});
  t.add({.schema_text = "_kiln_gru_layer(Tensor x_gates, Tensor h0, Tensor w_hh, Tensor? b_hh, bool reverse=False) "
                        "-> (Tensor output, Tensor gates)",
         .kind = OpKind::Extern, .shape = shape_gru, .dtype = dtype_gru, .kernel = gru_kernel, .grad = grad_gru,
         .saves = save_in(1) | save_in(2) | save_out(0) | save_out(1)});
  t.add({.schema_text = "_kiln_gru_layer_backward(Tensor grad_output, Tensor? grad_gates, Tensor h0, Tensor w_hh, "
                        "Tensor output, Tensor gates, bool reverse, bool bias) -> (Tensor, Tensor, Tensor, Tensor)",
         .kind = OpKind::Extern, .shape = shape_gru_backward, .dtype = dtype_gru_backward,
         .kernel = gru_backward_kernel});
}

}  // namespace kiln
