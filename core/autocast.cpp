#include "core/autocast.h"

#include <unordered_map>

#include "core/error.h"
#include "core/op_table.h"
#include "core/ops.h"

namespace kiln::autocast {

namespace {

struct State {
  bool on[2] = {false, false};
  DType dtype[2] = {DType::BFloat16, DType::Float16};  // PyTorch's defaults for cpu and cuda
  bool excluded = false;
};
thread_local State g_state;

// PyTorch 2.15's CPU lists, by Kiln's op names (found by running each op
// under torch.autocast("cpu") and reading its result's dtype).
const std::unordered_map<std::string_view, Policy>& table() {
  static const std::unordered_map<std::string_view, Policy> t = [] {
    std::unordered_map<std::string_view, Policy> m;
    for (std::string_view n : {"mm", "bmm", "matmul", "addmm", "addbmm", "baddbmm", "linear", "conv1d", "conv2d",
                               "conv3d", "conv_transpose1d", "conv_transpose2d", "conv_transpose3d", "prelu",
                               "scaled_dot_product_attention", "linalg_vecdot"})
      m[n] = Policy::Lower;
    for (std::string_view n :
         {"mse_loss", "l1_loss", "smooth_l1_loss", "huber_loss", "binary_cross_entropy",
          "binary_cross_entropy_with_logits", "cross_entropy", "nll_loss", "kl_div", "cosine_embedding_loss",
          "margin_ranking_loss", "soft_margin_loss", "hinge_embedding_loss", "poisson_nll_loss",
          "triplet_margin_loss", "multi_margin_loss", "multilabel_margin_loss", "ctc_loss", "prod", "cdist", "trace",
          "quantile", "nanquantile", "inverse", "pinverse", "linalg_inv", "linalg_inv_ex", "svd", "linalg_svd",
          "linalg_svdvals", "qr", "linalg_qr", "linalg_eigh", "linalg_eigvalsh", "linalg_solve", "linalg_lstsq",
          "linalg_cholesky", "linalg_cholesky_ex", "cholesky_solve", "cholesky_inverse", "triangular_solve",
          "linalg_cond", "linalg_matrix_rank", "lu_solve", "avg_pool3d", "max_pool3d", "adaptive_avg_pool3d",
          "adaptive_max_pool3d", "max_unpool2d", "max_unpool3d", "fractional_max_pool2d", "grid_sample",
          // The recurrent layers' kernels are float32/float64 only: PyTorch's GRU gives float32 too
          // (its cells mix float32 h in), its LSTM bfloat16 (one oneDNN kernel).
          "_kiln_gru_layer", "_kiln_lstm_layer"})
      m[n] = Policy::Fp32;
    for (std::string_view n : {"cat", "stack", "index_copy"}) m[n] = Policy::Promote;
    // Single kernels in PyTorch that Kiln composes from listed ops.
    for (std::string_view n : {"dot", "vdot", "mv", "addmv", "addr", "outer", "ger", "bilinear", "addmm_", "addbmm_",
                               "baddbmm_", "index_copy_"})
      m[n] = Policy::Native;
    return m;
  }();
  return t;
}

// PyTorch casts floating tensors on the autocast device, float64 excepted.
bool eligible(const Tensor& t) {
  return t.defined() && is_floating(t.dtype()) && t.dtype() != DType::Float64 &&
         t.device().type == DeviceType::CPU;
}

// The widest eligible input type, starting from the autocast dtype (float32
// wins; float16 beside bfloat16 is PyTorch's error).
DType widest(const std::vector<Value>& args) {
  DType cur = g_state.dtype[0];
  for_each_tensor(args, [&](const Tensor& t) {
    if (!eligible(t)) return;
    DType d = t.dtype();
    if (cur == DType::Float32 || d == DType::Float32) cur = DType::Float32;
    else KILN_CHECK(d == cur, Runtime, "Unexpected floating ScalarType in at::autocast::prioritize");
  });
  return cur;
}

Tensor cast_to(const Tensor& t, DType d) { return eligible(t) ? to_dtype(t, d) : t; }

void cast_all(std::vector<Value>& args, DType d) {
  for (Value& v : args) {
    if (v.is_tensor()) {
      v = Value(cast_to(v.tensor(), d));
    } else if (v.is_tensor_list()) {
      std::vector<Tensor> list = v.tensor_list();
      for (Tensor& t : list) t = cast_to(t, d);
      v = Value(std::move(list));
    }
  }
}

}  // namespace

Policy policy_of(std::string_view name) {
  auto it = table().find(name.substr(0, name.find('.')));
  return it == table().end() ? Policy::None : it->second;
}

Policy policy_of(const OpDef& op) { return policy_of(std::string_view(op.name())); }

bool enabled(int device) { return g_state.on[device]; }
void set_enabled(int device, bool on) { g_state.on[device] = on; }
DType dtype(int device) { return g_state.dtype[device]; }
void set_dtype(int device, DType d) { g_state.dtype[device] = d; }
bool armed() { return g_state.on[0] && !g_state.excluded; }

Tensor cast(Policy policy, const Tensor& t) {
  if (policy == Policy::Lower) return cast_to(t, g_state.dtype[0]);
  if (policy == Policy::Fp32) return cast_to(t, DType::Float32);
  return t;
}

void cast_args(Policy policy, std::vector<Value>& args) {
  switch (policy) {
    case Policy::Lower: return cast_all(args, g_state.dtype[0]);
    case Policy::Fp32: return cast_all(args, DType::Float32);
    case Policy::Promote: return cast_all(args, widest(args));
    default: return;
  }
}

ExcludeGuard::ExcludeGuard() : saved_(g_state.excluded) { g_state.excluded = true; }
ExcludeGuard::~ExcludeGuard() { g_state.excluded = saved_; }

}  // namespace kiln::autocast
