// Window functions (hann, hamming, bartlett, blackman, kaiser): factories
// built from arange with PyTorch's own sequence of float operations, so a
// float32 window rounds as PyTorch's does (blackman's first value is -2.98e-08,
// not 0). A periodic window is the symmetric one of length n + 1, less its last point.
#include <cmath>
#include <string>

#include "core/ops/common.h"

namespace kiln {
namespace ops {
namespace {

// The C++ type name PyTorch's TensorOptions print names a dtype by.
std::string_view c_type_name(DType d) {
  switch (d) {
    case DType::Int64: return "long int";
    case DType::Int32: return "int";
    case DType::Int16: return "short int";
    case DType::Int8: return "signed char";
    case DType::UInt8: return "unsigned char";
    case DType::Bool: return "bool";
    default: return dtype_legacy_name(d);
  }
}

struct WindowArgs {
  int64_t n;      // the length asked for
  int64_t full;   // the symmetric window's length (n + 1 when periodic)
  DType dtype;
};
// Checks the length and dtype; a[1] is `periodic`, a[dtype_at] the dtype.
WindowArgs window_args(const Args& a, const char* name, size_t dtype_at) {
  const DType d = a[dtype_at].is_none() ? kDefaultFloat : a[dtype_at].dtype();
  KILN_CHECK(is_floating(d), Runtime, name, " expects floating point dtypes, got: TensorOptions(dtype=", c_type_name(d),
             ", device=cpu, layout=Strided (default), requires_grad=false (default), pinned_memory=false, "
             "memory_format=(nullopt))");
  const int64_t n = a[0].to_int();
  KILN_CHECK(n >= 0, Runtime, name, " requires non-negative window_length, got window_length=", n);
  return {n, a[1].to_bool() ? n + 1 : n, d};
}
// The window over 0 .. full-1 that `shape` computes; lengths 0 and 1 are fixed.
template <class F>
std::vector<Tensor> make_window(const Args& a, const char* name, size_t dtype_at, F shape) {
  const WindowArgs w = window_args(a, name, dtype_at);
  Tensor out = w.n <= 1 ? ones({w.n}, w.dtype) : shape(arange(0, double(w.full), 1, w.dtype), w.full);
  if (w.full != w.n && w.n > 1) out = clone(narrow(out, 0, 0, w.n));
  if (a[dtype_at + 1].to_bool()) out.requires_grad_(true);
  return {out};
}

// hamming_window(int window_length, bool periodic=True, float alpha=0.54, float beta=0.46, *, ...):
// alpha - beta cos(2 pi i / (L - 1)); hann is alpha = beta = 0.5.
Tensor hamming_of(const Tensor& i, int64_t full, double alpha, double beta) {
  return add(mul(cos(mul(i, M_PI * 2.0 / double(full - 1))), -beta), alpha);
}
std::vector<Tensor> hamming_composite(const Args& a) {
  const double alpha = a[2].to_double(), beta = a[3].to_double();
  return make_window(a, "hamming_window", 4, [&](const Tensor& i, int64_t full) { return hamming_of(i, full, alpha, beta); });
}
std::vector<Tensor> hann_composite(const Args& a) {
  return make_window(a, "hann_window", 2, [](const Tensor& i, int64_t full) { return hamming_of(i, full, 0.5, 0.5); });
}

// bartlett_window: 2i / (L - 1) rising, then 2 - that falling.
std::vector<Tensor> bartlett_composite(const Args& a) {
  return make_window(a, "bartlett_window", 2, [](const Tensor& i, int64_t full) {
    Tensor w = mul(i, 2.0 / double(full - 1));
    const int64_t half = ((full - 1) >> 1) + 1;
    return cat({narrow(w, 0, 0, half), add(mul(narrow(w, 0, half, full - half), -1.0), 2.0)});
  });
}

// blackman_window: 0.08 cos(4 pi i / (L - 1)) - 0.5 cos(2 pi i / (L - 1)) + 0.42, in PyTorch's order.
std::vector<Tensor> blackman_composite(const Args& a) {
  return make_window(a, "blackman_window", 2, [](const Tensor& i, int64_t full) {
    auto wave = [&](double k) { return cos(mul(i, k * M_PI / double(full - 1))); };
    return add(sub(mul(wave(4.0), 0.08), mul(wave(2.0), 0.5)), 0.42);
  });
}

// kaiser_window(int window_length, bool periodic=True, float beta=12.0, *, ...):
// I0(beta sqrt(1 - ((i - c) / c)^2)) / I0(beta), c = (L - 1) / 2.
std::vector<Tensor> kaiser_composite(const Args& a) {
  const double beta = a[2].to_double();
  return make_window(a, "kaiser_window", 3, [&](const Tensor& i, int64_t len) {
    const double c = double(len - 1) / 2.0;
    Tensor r = div(add(i, -c), full_like(i, c));
    Tensor arg = mul(sqrt(abs(add(neg(mul(r, r)), 1.0))), beta);
    return div(invoke("i0", {arg}), invoke("i0", {full({}, beta, i.dtype())}));
  });
}

}  // namespace
}  // namespace ops

void register_window_ops(OpTable& t) {
  using namespace ops;
  constexpr OpKind C = OpKind::Composite;
#define KILN_WINDOW_TAIL "*, ScalarType? dtype=None, bool requires_grad=False) -> Tensor"
  t.add({.schema_text = "hann_window(int window_length, bool periodic=True, " KILN_WINDOW_TAIL, .kind = C,
         .composite = hann_composite});
  t.add({.schema_text = "hamming_window(int window_length, bool periodic=True, float alpha=0.54, float beta=0.46, "
                        KILN_WINDOW_TAIL,
         .kind = C, .composite = hamming_composite});
  t.add({.schema_text = "bartlett_window(int window_length, bool periodic=True, " KILN_WINDOW_TAIL, .kind = C,
         .composite = bartlett_composite});
  t.add({.schema_text = "blackman_window(int window_length, bool periodic=True, " KILN_WINDOW_TAIL, .kind = C,
         .composite = blackman_composite});
  t.add({.schema_text = "kaiser_window(int window_length, bool periodic=True, float beta=12.0, " KILN_WINDOW_TAIL,
         .kind = C, .composite = kaiser_composite});
#undef KILN_WINDOW_TAIL
}

}  // namespace kiln
