// One direction of one LSTM layer over a whole sequence as a single op, with
// its backward as one op too. The prelude's nn.LSTM (core/lang/prelude/nn/rnn.py)
// computes the input projection of every step in one product and hands the rest
// here. Written step by step with ops, each step's hidden product is its own
// autograd node: backward then runs a weight-gradient product and a bias sum
// per step, and accumulates both. Here backward runs one product per step (the
// hidden state's gradient) and the weight gradient over all steps as one
// product, as oneDNN's LSTM (PyTorch's CPU kernel) does.
//
// Forward arithmetic is the prelude's: gates = (h @ W_hh^T + b_hh) + x_gates,
// ATen's gate order (input, forget, cell, output), c = f * c + i * g,
// h = o * tanh(c), with the eager kernels' sigmoid and tanh.
#include <cmath>

#include "core/float_math.h"
#include "core/ops/common.h"
#include "core/ops/spatial.h"

namespace kiln {
namespace ops {
namespace {

using spatial::dense;
using spatial::opt_tensor;

// The sizes every argument must agree on: T steps, N rows, H hidden units.
struct LstmDims {
  int64_t T, N, H;
};

LstmDims lstm_dims(const Tensor& xg, const Tensor& h0, const Tensor& c0, const Tensor& w, const Tensor& b) {
  KILN_CHECK(xg.dim() == 3 && w.dim() == 2 && xg.size(2) % 4 == 0, Runtime,
             "_kiln_lstm_layer: expected x_gates [T, N, 4H] and w_hh [4H, H], got ", xg.shape_str(), " and ",
             w.shape_str());
  const LstmDims d{xg.size(0), xg.size(1), xg.size(2) / 4};
  const Shape state{d.N, d.H};
  KILN_CHECK(h0.sizes() == state && c0.sizes() == state, Runtime, "_kiln_lstm_layer: expected states of shape ",
             shape_str(state), ", got ", h0.shape_str(), " and ", c0.shape_str());
  KILN_CHECK(w.sizes() == Shape({4 * d.H, d.H}) && (!b.defined() || b.sizes() == Shape({4 * d.H})), Runtime,
             "_kiln_lstm_layer: w_hh ", w.shape_str(), " or b_hh does not match hidden size ", d.H);
  for (const Tensor* t : {&h0, &c0, &w, &b})
    KILN_CHECK(!t->defined() || t->dtype() == xg.dtype(), Runtime, "_kiln_lstm_layer: expected every tensor in ",
               dtype_legacy_name(xg.dtype()), ", got ", dtype_legacy_name(t->dtype()));
  return d;
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

// ---- _kiln_lstm_layer ---------------------------------------------------------------------------
// _kiln_lstm_layer(Tensor x_gates, Tensor h0, Tensor c0, Tensor w_hh, Tensor? b_hh, bool reverse=False)
//   -> (Tensor output, Tensor cells, Tensor gates)
// output [T, N, H]: h at each position; cells [T, N, H]: c at each position;
// gates [T, N, 4H]: the activated gates (what backward reads).
std::vector<Shape> shape_lstm(const Args& a) {
  const LstmDims d = lstm_dims(a[0].tensor(), a[1].tensor(), a[2].tensor(), a[3].tensor(), opt_tensor(a[4]));
  return {{d.T, d.N, d.H}, {d.T, d.N, d.H}, {d.T, d.N, 4 * d.H}};
}
std::vector<DType> dtype_lstm(const Args& a) {
  const DType t = a[0].tensor().dtype();
  KILN_CHECK(t == DType::Float32 || t == DType::Float64, NotImplemented,
             "_kiln_lstm_layer: float32 and float64 only, got ", dtype_legacy_name(t));
  return {t, t, t};
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
  const LstmDims d = lstm_dims(xg, a[1].tensor(), a[2].tensor(), w, b);
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

// Gradients of outputs that received none are not passed (None).
std::vector<Tensor> grad_lstm(const GradCtx& c) {
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
    const T* hp = s == 0 ? h0.data<T>() : out.data<T>() + tp * S;
    const T* cp = s == 0 ? c0.data<T>() : cells.data<T>() + tp * S;
    std::copy_n(hp, S, h_prev.data<T>() + t * S);
    const T* pgo = go.data<T>() + t * S;
    T* pdh = dh.data<T>();
    const T* pstep = dh_step.data<T>();
    for (int64_t e = 0; e < S; ++e) pdh[e] = pgo[e] + pstep[e];
    step(N, H, gates.data<T>() + t * N * G, cells.data<T>() + t * S, cp, pdh, dc.data<T>(),
         gcell.defined() ? gcell.data<T>() + t * S : nullptr, ggates.defined() ? ggates.data<T>() + t * N * G : nullptr,
         outs[0].data<T>() + t * N * G);
    mm_into(block(outs[0], t), w, dh_step);
  }
  std::copy_n(dh_step.data<T>(), S, outs[1].data<T>());
  // All steps at once: grad_w = dx^T @ h_prev over the L * N rows, grad_b = dx's column sums.
  const Tensor dx_t = storage_view(outs[0].storage(), {G, L * N}, {1, G}, outs[0].offset(), dt);
  mm_into(dx_t, storage_view(h_prev.storage(), {L * N, H}, {H, 1}, 0, dt), outs[3]);
  T* db = outs[4].data<T>();
  std::fill_n(db, G, T(0));
  if (!a[10].to_bool()) return;
  for (int64_t r = 0; r < L * N; ++r) {
    const T* row = outs[0].data<T>() + r * G;
    for (int64_t j = 0; j < G; ++j) db[j] += row[j];
  }
}

void lstm_backward_kernel(const Args& a, std::vector<Tensor>& outs) {
  if (a[8].tensor().dtype() == DType::Float64) return lstm_backward<double>(a, outs);
  lstm_backward<float>(a, outs);
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
}

}  // namespace kiln
