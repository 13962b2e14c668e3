// Random ops: draws from the default generator (core/random.h) in exactly the
// order and with exactly the arithmetic of PyTorch's CPU kernels, so a seeded
// script prints PyTorch's numbers. In-place forms (normal_, uniform_, ...) and
// dropout are Composites over the drawing ops.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <numbers>
#include <numeric>
#include <optional>

#include "core/format.h"
#include "core/ops/common.h"
#include "core/ops/lane_order.h"
#include "core/random.h"

namespace kiln {
namespace ops {
namespace {

// On x86-64 the Box-Muller block is also compiled for FMA hardware (picked at
// load time), so its many std::fma calls become single instructions.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define KILN_FMA_CLONES __attribute__((target_clones("fma", "default")))
#else
#define KILN_FMA_CLONES
#endif

// ---- visiting order ---------------------------------------------------------------
// The dims of `t` from largest stride to smallest, when they describe a dense,
// non-overlapping layout (a permuted contiguous tensor); nullopt otherwise.
std::optional<std::vector<int64_t>> dense_perm(const Tensor& t) {
  std::vector<int64_t> perm(static_cast<size_t>(t.dim()), 0);
  std::iota(perm.begin(), perm.end(), 0);
  std::stable_sort(perm.begin(), perm.end(), [&](int64_t a, int64_t b) { return t.stride(a) > t.stride(b); });
  int64_t expect = 1;
  for (auto it = perm.rbegin(); it != perm.rend(); ++it) {
    if (t.size(*it) == 1) continue;
    if (t.stride(*it) != expect) return std::nullopt;
    expect *= t.size(*it);
  }
  return perm;
}

// PyTorch fills a fresh output laid out like `like` (empty_like keeps a dense
// tensor's strides, anything else becomes contiguous) in memory order.
// Returns the row-major offsets of our contiguous output in that order;
// empty when that order is row-major.
std::vector<int64_t> memory_order(const Tensor& like) {
  if (like.is_contiguous()) return {};
  std::optional<std::vector<int64_t>> perm = dense_perm(like);
  if (!perm) return {};
  size_t nd = perm->size();
  Shape rm = contiguous_strides(like.sizes());
  std::vector<int64_t> offs(static_cast<size_t>(like.numel()));
  std::vector<int64_t> idx(nd, 0);
  for (int64_t& o : offs) {
    o = 0;
    for (size_t k = 0; k < nd; ++k) o += idx[k] * rm[size_t((*perm)[k])];
    for (size_t k = nd; k-- > 0;) {  // odometer over the permuted sizes
      if (++idx[k] < like.size((*perm)[k])) break;
      idx[k] = 0;
    }
  }
  return offs;
}

// out[i] = draw() for every element of the contiguous `out`, in `like`'s memory order.
template <class T, class F>
void fill_ordered(const Tensor& out, const Tensor& like, F&& draw) {
  T* p = out.data<T>();
  std::vector<int64_t> order = memory_order(like);
  if (order.empty()) {
    for (int64_t i = 0; i < out.numel(); ++i) p[i] = draw();
  } else {
    for (int64_t off : order) p[off] = draw();
  }
}

// ---- uniform ---------------------------------------------------------------------
// at::uniform_real_distribution: the low 53 bits of random64() scaled by
// 2^-53 for double; the low 24 bits of random() scaled by 2^-24 for float,
// which half and bfloat16 use too (bounds and arithmetic in float, then
// rounded). PyTorch's CPU kernels are built by GCC with FMA enabled and
// floating-point contraction on, so x * span + from is one fused operation
// there; std::fma reproduces it (here and in every "a * b + c" below).
template <class T>
T uniform_one(Generator& g, compute_t<T> from, compute_t<T> to) {
  if constexpr (std::is_same_v<T, double>) {
    return std::fma(g.uniform_double(), to - from, from);
  } else {
    return T(std::fma(g.uniform_float(), to - from, from));
  }
}

template <class T>
void fill_uniform(const Tensor& out, const Tensor& like, double from, double to) {
  Generator& g = current_generator();
  std::lock_guard<std::mutex> lock(g.mutex());
  auto f = compute_t<T>(from), t = compute_t<T>(to);
  fill_ordered<T>(out, like, [&] { return uniform_one<T>(g, f, t); });
}

// ---- normal ----------------------------------------------------------------------
// float32 with >= 16 contiguous elements: PyTorch's AVX2 kernel, whose log and
// sincos are the Cephes polynomials of avx_mathfun.h evaluated with fused
// multiply-adds (as GCC compiles them). Re-evaluated here lane by lane, op for
// op, because libm's results differ from them in the last bit.
float bits_to_float(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}
uint32_t float_bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

inline float cephes_log(float x) {
  bool invalid = x <= 0.0f;
  x = std::max(x, bits_to_float(0x00800000u));  // smallest normal
  int32_t exponent = int32_t(float_bits(x) >> 23) - 0x7f;
  x = bits_to_float((float_bits(x) & ~0x7f800000u) | float_bits(0.5f));  // mantissa in [0.5, 1)
  float e = float(exponent) + 1.0f;
  float tmp = x < 0.707106781186547524f ? x : 0.0f;
  if (tmp != 0.0f) e = e - 1.0f;
  x = x - 1.0f;
  x = x + tmp;
  float z = x * x;
  static constexpr float kP[] = {7.0376836292E-2f,  -1.1514610310E-1f, 1.1676998740E-1f,
                                 -1.2420140846E-1f, 1.4249322787E-1f,  -1.6668057665E-1f,
                                 2.0000714765E-1f,  -2.4999993993E-1f, 3.3333331174E-1f};
  float y = kP[0];
  for (int i = 1; i < 9; ++i) y = std::fma(y, x, kP[i]);
  y = y * x;
  float eq1 = e * -2.12194440e-4f;
  y = std::fma(y, z, eq1);
  y = std::fma(-z, 0.5f, y);
  x = x + y;
  x = std::fma(e, 0.693359375f, x);
  return invalid ? NAN : x;
}

inline void cephes_sincos(float x, float* s, float* c) {
  uint32_t sign_sin = float_bits(x) & 0x80000000u;
  x = std::fabs(x);
  float scaled = x * 1.27323954473516f;  // 4 / pi
  int32_t j = (int32_t(scaled) + 1) & ~1;
  float y = float(j);
  sign_sin ^= uint32_t(j & 4) << 29;
  uint32_t sign_cos = uint32_t(~(j - 2) & 4) << 29;
  bool sin_poly = (j & 2) == 0;
  x = std::fma(y, -0.78515625f, x);  // extended-precision reduction by pi/4
  x = std::fma(y, -2.4187564849853515625e-4f, x);
  x = std::fma(y, -3.77489497744594108e-8f, x);
  float z = x * x;
  float yc = 2.443315711809948E-005f;
  yc = std::fma(yc, z, -1.388731625493765E-003f);
  yc = std::fma(yc, z, 4.166664568298827E-002f);
  yc = yc * z;
  float half_z = z * 0.5f;
  yc = std::fma(yc, z, -half_z);
  yc = yc + 1.0f;
  float ys = -1.9515295891E-4f;
  ys = std::fma(ys, z, 8.3321608736E-3f);
  ys = std::fma(ys, z, -1.6666654611E-1f);
  ys = ys * z;
  ys = std::fma(ys, x, x);
  *s = bits_to_float(float_bits(sin_poly ? ys : yc) ^ sign_sin);
  *c = bits_to_float(float_bits(sin_poly ? yc : ys) ^ sign_cos);
}

// Box-Muller over 16 uniforms: the first 8 give radii, the last 8 angles.
KILN_FMA_CLONES void normal_16_float(float* d, float mean, float std) {
  for (int j = 0; j < 8; ++j) {
    float u1 = 1.0f - d[j], u2 = d[j + 8];
    float radius = std::sqrt(-2.0f * cephes_log(u1));
    float theta = float(2.0 * std::numbers::pi) * u2;
    float s, c;
    cephes_sincos(theta, &s, &c);
    float cos_term = radius * c, sin_term = radius * s;
    d[j] = std::fma(cos_term, std, mean);
    d[j + 8] = std::fma(sin_term, std, mean);
  }
}

// The portable kernel PyTorch uses for double.
void normal_16_double(double* d, double mean, double std) {
  for (int j = 0; j < 8; ++j) {
    double u1 = 1.0 - d[j], u2 = d[j + 8];
    double radius = std::sqrt(-2.0 * std::log(u1));
    double theta = 2.0 * std::numbers::pi * u2;
    double cos_term = radius * std::cos(theta), sin_term = radius * std::sin(theta);
    d[j] = std::fma(cos_term, std, mean);
    d[j + 8] = std::fma(sin_term, std, mean);
  }
}

// PyTorch's normal_fill: uniforms for every element, Box-Muller in blocks of
// 16, and a tail handled by redrawing the last 16 elements.
template <class T>
void normal_fill(T* d, int64_t n, double mean, double std, Generator& g) {
  for (int64_t i = 0; i < n; ++i) d[i] = uniform_one<T>(g, 0, 1);
  auto block = [&](T* p) {
    if constexpr (std::is_same_v<T, float>) {
      normal_16_float(p, float(mean), float(std));
    } else {
      normal_16_double(p, mean, std);
    }
  };
  for (int64_t i = 0; i + 16 <= n; i += 16) block(d + i);
  if (n % 16 != 0) {
    T* tail = d + n - 16;
    for (int i = 0; i < 16; ++i) tail[i] = uniform_one<T>(g, 0, 1);
    block(tail);
  }
}

// half and bfloat16: each block of 16 draws its float uniforms just before
// its transform (so the tail block follows the last full one in the stream),
// computes in float and rounds.
template <class T>
void normal_fill_reduced(T* d, int64_t n, float mean, float std, Generator& g) {
  auto block = [&](T* p) {
    float f[16];
    for (float& v : f) v = g.uniform_float();
    normal_16_float(f, mean, std);
    std::copy(f, f + 16, p);
  };
  for (int64_t i = 0; i + 16 <= n; i += 16) block(d + i);
  if (n % 16 != 0) block(d + n - 16);
}

// normal_ into `out`, laid out like `like`.
template <class T>
void fill_normal(const Tensor& out, const Tensor& like, double mean, double std) {
  KILN_CHECK(std >= 0.0, Runtime, "normal expects std >= 0.0, but found std ", std);
  Generator& g = current_generator();
  std::lock_guard<std::mutex> lock(g.mutex());
  if (out.numel() >= 16 && like.is_contiguous()) {
    if constexpr (std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>) {
      normal_fill_reduced<T>(out.data<T>(), out.numel(), float(mean), float(std), g);
    } else {
      normal_fill<T>(out.data<T>(), out.numel(), mean, std, g);
    }
    return;
  }
  fill_ordered<T>(out, like, [&] {
    return T(compute_t<T>(std::fma(g.normal_double(), std, mean)));
  });
}

// ---- integers ------------------------------------------------------------------------
// uniform_int_from_to_distribution: one 32-bit draw unless the range needs 64.
template <class T>
T int_from_to(Generator& g, uint64_t range, int64_t base) {
  constexpr bool wide = std::is_same_v<T, int64_t> || std::is_same_v<T, double> || std::is_same_v<T, float> ||
                        std::is_same_v<T, BFloat16>;
  uint64_t v = (wide && range >= (uint64_t(1) << 32)) ? g.random64() : uint64_t(g.random());
  int64_t r = int64_t(v % range + uint64_t(base));
  if constexpr (std::is_same_v<T, bool>) {
    return r != 0;
  } else {
    return T(compute_t<T>(r));
  }
}

// The dtype bounds PyTorch enforces for random_(from, to) (floats only warn).
void check_int_bounds(DType d, int64_t from, int64_t to_inc) {
  int64_t lo = 0, hi = 0;
  const char* name = nullptr;
  switch (d) {
    case DType::Bool: lo = 0, hi = 1, name = "bool"; break;
    case DType::UInt8: lo = 0, hi = UINT8_MAX, name = "unsigned char"; break;
    case DType::Int8: lo = INT8_MIN, hi = INT8_MAX, name = "signed char"; break;
    case DType::Int16: lo = INT16_MIN, hi = INT16_MAX, name = "short"; break;
    case DType::Int32: lo = INT32_MIN, hi = INT32_MAX, name = "int"; break;
    case DType::Float16: lo = -(1 << 11), hi = 1 << 11, name = "c10::Half"; break;
    default: return;
  }
  KILN_CHECK(from >= lo && from <= hi, Runtime, "from is out of bounds for ", name);
  KILN_CHECK(to_inc >= lo && to_inc <= hi, Runtime, "to - 1 is out of bounds for ", name);
}

// Values base + (draw % range); range 0 stands for 2^64 (every int64).
void fill_random_range(const Tensor& out, const Tensor& like, int64_t base, uint64_t range) {
  Generator& g = current_generator();
  std::lock_guard<std::mutex> lock(g.mutex());
  visit_dtype(out.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if (range == 0) {
      fill_ordered<T>(out, like, [&] { return T(compute_t<T>(int64_t(g.random64()))); });
    } else {
      fill_ordered<T>(out, like, [&] { return int_from_to<T>(g, range, base); });
    }
  });
}

void fill_randint(const Tensor& out, const Tensor& like, int64_t low, int64_t high) {
  KILN_CHECK(low < high, Runtime, "random_ expects 'from' to be less than 'to', but got from=", low,
             " >= to=", high);
  check_int_bounds(out.dtype(), low, high - 1);
  fill_random_range(out, like, low, uint64_t(high) - uint64_t(low));
}

// ---- shared entry plumbing --------------------------------------------------------------
DType dtype_arg(const Args& a, size_t i, DType fallback) { return a[i].is_none() ? fallback : a[i].dtype(); }
std::vector<Shape> shape_size0(const Args& a) { return {a[0].int_list()}; }
std::vector<Shape> shape_size1(const Args& a) { return {a[1].int_list()}; }
std::vector<Shape> shape_size2(const Args& a) { return {a[2].int_list()}; }
template <size_t I>
std::vector<DType> dtype_float_at(const Args& a) { return {dtype_arg(a, I, kDefaultFloat)}; }
template <size_t I>
std::vector<DType> dtype_long_at(const Args& a) { return {dtype_arg(a, I, DType::Int64)}; }
template <size_t I>
std::vector<DType> dtype_self_at(const Args& a) { return {dtype_arg(a, I, a[0].tensor().dtype())}; }

// rand / rand_like: `like` is the tensor whose layout the output copies, if any.
template <bool Like>
void rand_kernel(const Args& a, std::vector<Tensor>& outs) {
  const Tensor& like = Like ? a[0].tensor() : outs[0];
  visit_floating(outs[0].dtype(), "check_uniform_bounds",
                 [&](auto tag) { fill_uniform<typename decltype(tag)::type>(outs[0], like, 0, 1); });
}
template <bool Like>
void randn_kernel(const Args& a, std::vector<Tensor>& outs) {
  const Tensor& like = Like ? a[0].tensor() : outs[0];
  visit_floating(outs[0].dtype(), "normal_kernel_cpu",
                 [&](auto tag) { fill_normal<typename decltype(tag)::type>(outs[0], like, 0, 1); });
}
// randint(high, size) / randint.low(low, high, size) / randint_like forms.
template <bool HasLow, bool Like>
void randint_kernel(const Args& a, std::vector<Tensor>& outs) {
  size_t h = (Like ? 1 : 0) + (HasLow ? 1 : 0);
  int64_t low = HasLow ? a[h - 1].to_int() : 0;
  fill_randint(outs[0], Like ? a[0].tensor() : outs[0], low, a[h].to_int());
}

// ---- functional forms of the in-place draws (self only gives shape, dtype, layout) ----
void uniform_kernel(const Args& a, std::vector<Tensor>& outs) {
  double from = a[1].to_double(), to = a[2].to_double();
  KILN_CHECK(from <= to, Runtime, "uniform_ expects to return a [from, to) range, but found from=", from,
             " > to=", to);
  visit_floating(outs[0].dtype(), "check_uniform_bounds",
                 [&](auto tag) { fill_uniform<typename decltype(tag)::type>(outs[0], a[0].tensor(), from, to); });
}
void normal_kernel(const Args& a, std::vector<Tensor>& outs) {
  visit_floating(outs[0].dtype(), "normal_kernel_cpu", [&](auto tag) {
    fill_normal<typename decltype(tag)::type>(outs[0], a[0].tensor(), a[1].to_double(), a[2].to_double());
  });
}
// at::exponential_distribution<double>: -1/lambda * log1p(-u), in double.
template <class T>
void fill_exponential(const Tensor& out, const Tensor& like, double lambd) {
  KILN_CHECK(lambd > 0.0, Runtime, "exponential_ expects lambda > 0.0, but found lambda=", lambd);
  Generator& g = current_generator();
  std::lock_guard<std::mutex> lock(g.mutex());
  double scale = -1.0 / lambd;
  fill_ordered<T>(out, like, [&] { return T(compute_t<T>(scale * std::log1p(-g.uniform_double()))); });
}
void exponential_kernel(const Args& a, std::vector<Tensor>& outs) {
  visit_floating(outs[0].dtype(), "exponential_cpu", [&](auto tag) {
    fill_exponential<typename decltype(tag)::type>(outs[0], a[0].tensor(), a[1].to_double());
  });
}
// geometric(p), log_normal(mean, std), cauchy(median, sigma): one double
// draw (or normal sample) per element in memory order, transformed as ATen's
// geometric_, log_normal_ and cauchy_ kernels do, then rounded to the dtype.
void geometric_kernel(const Args& a, std::vector<Tensor>& outs) {
  double p = a[1].to_double();
  KILN_CHECK(p > 0 && p < 1, Runtime, "geometric_ expects p to be in (0, 1), but got p=", format_double(p));
  Generator& g = current_generator();
  std::lock_guard<std::mutex> lock(g.mutex());
  const double denom = std::log1p(-p);
  visit_dtype(outs[0].dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    fill_ordered<T>(outs[0], a[0].tensor(), [&] { return T(compute_t<T>(std::ceil(std::log(g.uniform_double()) / denom))); });
  });
}
void log_normal_kernel(const Args& a, std::vector<Tensor>& outs) {
  double mean = a[1].to_double(), sd = a[2].to_double();
  KILN_CHECK(sd > 0, Runtime, "log_normal_ expects std > 0.0, but found std=", format_double(sd));
  Generator& g = current_generator();
  std::lock_guard<std::mutex> lock(g.mutex());
  visit_floating(outs[0].dtype(), "log_normal_cpu", [&](auto tag) {
    using T = typename decltype(tag)::type;
    fill_ordered<T>(outs[0], a[0].tensor(), [&] { return T(compute_t<T>(std::exp(g.normal_double() * sd + mean))); });
  });
}
void cauchy_kernel(const Args& a, std::vector<Tensor>& outs) {
  double median = a[1].to_double(), sigma = a[2].to_double();
  Generator& g = current_generator();
  std::lock_guard<std::mutex> lock(g.mutex());
  visit_floating(outs[0].dtype(), "cauchy_cpu", [&](auto tag) {
    using T = typename decltype(tag)::type;
    fill_ordered<T>(outs[0], a[0].tensor(),
                    [&] { return T(compute_t<T>(median + sigma * std::tan(std::numbers::pi * (g.uniform_double() - 0.5)))); });
  });
}

// random.from(self, from, to?) / random.to(self, to): randint into self's shape.
template <bool HasFrom>
void random_kernel(const Args& a, std::vector<Tensor>& outs) {
  int64_t from = HasFrom ? a[1].to_int() : 0;
  const Value& to = a[HasFrom ? 2 : 1];
  if (!to.is_none()) return fill_randint(outs[0], a[0].tensor(), from, to.to_int());
  // to=None: up to the largest value the dtype holds exactly.
  DType d = outs[0].dtype();
  int64_t to_inc = d == DType::Float64   ? int64_t(1) << 53
                   : d == DType::Float32 ? int64_t(1) << 24
                   : d == DType::Float16 ? int64_t(1) << 11
                   : d == DType::BFloat16 ? int64_t(1) << 8
                   : d == DType::Int32    ? int64_t(INT32_MAX)
                   : d == DType::Int16    ? int64_t(INT16_MAX)
                   : d == DType::Int8     ? int64_t(INT8_MAX)
                   : d == DType::UInt8    ? int64_t(UINT8_MAX)
                   : d == DType::Bool     ? 1
                                          : INT64_MAX;
  KILN_CHECK(from <= to_inc, Runtime, "random_ expects 'from' casted to dtype to be less than or equal to "
             "'to_inc' casted to dtype, but got from=", from, " > to_inc=", to_inc);
  fill_random_range(outs[0], a[0].tensor(), from, uint64_t(to_inc) - uint64_t(from) + 1);
}

// bernoulli.p(self, p): 1 where a uniform double falls below p.
void bernoulli_p_kernel(const Args& a, std::vector<Tensor>& outs) {
  double p = a[1].to_double();
  KILN_CHECK(p >= 0 && p <= 1, Runtime, "bernoulli_ expects p to be in [0, 1], but got p=", p);
  Generator& g = current_generator();
  std::lock_guard<std::mutex> lock(g.mutex());
  visit_dtype(outs[0].dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    fill_ordered<T>(outs[0], outs[0], [&] { return T(compute_t<T>(g.uniform_double() < p ? 1 : 0)); });
  });
}
// bernoulli(self): self holds the probabilities; float ones compare a 24-bit float uniform.
void bernoulli_tensor_kernel(const Args& a, std::vector<Tensor>& outs) {
  Tensor probs = contiguous(a[0].tensor());
  std::vector<double> pv = to_double_vector(probs);
  KILN_CHECK(std::all_of(pv.begin(), pv.end(), [](double p) { return p >= 0 && p <= 1; }), Runtime,
             "Expected p_in >= 0 && p_in <= 1 to be true, but got false.  (Could this error message be improved?  "
             "If so, please report an enhancement request to PyTorch.)");
  bool dbl = probs.dtype() == DType::Float64;
  Generator& g = current_generator();
  std::lock_guard<std::mutex> lock(g.mutex());
  visit_floating(outs[0].dtype(), "bernoulli_tensor_cpu_self_", [&](auto tag) {
    using T = typename decltype(tag)::type;
    size_t i = 0;
    fill_ordered<T>(outs[0], outs[0], [&] {
      double p = pv[i++];
      bool hit = dbl ? g.uniform_double() < p : g.uniform_float() < float(p);
      return T(compute_t<T>(hit ? 1 : 0));
    });
  });
}

// ---- gamma and dirichlet ---------------------------------------------------------------------
// One standard gamma draw as ATen's sample_gamma: Marsaglia and Tsang's
// acceptance-rejection in double, with uniforms and normals (Box-Muller,
// cached pair) from the generator; alpha < 1 is boosted by one and scaled by
// U^(1/alpha). The float-typed constants are PyTorch's.
double sample_gamma(Generator& g, double alpha) {
  double scale = 1.0;
  if (alpha < 1.0) {
    if (alpha == 0.0) return 0.0;
    scale *= std::pow(1 - g.uniform_double(), 1.0f / alpha);
    alpha += 1.0f;
  }
  const double d = alpha - 1.0f / 3.0f;
  const double c = 1.0f / std::sqrt(9.0f * d);
  for (;;) {
    double x, y;
    do {
      x = g.normal_double();
      y = 1.0f + c * x;
    } while (y <= 0);
    const double v = y * y * y;
    const double u = 1 - g.uniform_double();
    const double xx = x * x;
    if (u < 1.0f - 0.0331f * xx * xx) return scale * d * v;
    if (std::log(u) < 0.5f * xx + d * (1.0f - v + std::log(v))) return scale * d * v;
  }
}

// _standard_gamma(self): a Gamma(self, 1) draw per element, in order; never
// below the dtype's smallest normal number (as PyTorch clamps).
void standard_gamma_kernel(const Args& a, std::vector<Tensor>& outs) {
  std::vector<double> alpha = to_double_vector(contiguous(a[0].tensor()));
  Generator& g = current_generator();
  std::lock_guard<std::mutex> lock(g.mutex());
  visit_floating(outs[0].dtype(), "_standard_gamma", [&](auto tag) {
    using T = typename decltype(tag)::type;
    using C = compute_t<T>;
    T* p = outs[0].data<T>();
    for (size_t i = 0; i < alpha.size(); ++i)
      p[i] = T(std::max(C(std::numeric_limits<C>::min()), C(sample_gamma(g, alpha[i]))));
  });
}

// _sample_dirichlet(self): gamma draws (in double) normalized over the last
// dim, each kept within [smallest normal, the float just below 1].
void sample_dirichlet_kernel(const Args& a, std::vector<Tensor>& outs) {
  const Tensor& self = a[0].tensor();
  std::vector<double> alpha = to_double_vector(contiguous(self));
  Generator& g = current_generator();
  std::vector<double> gam(alpha.size());
  {
    std::lock_guard<std::mutex> lock(g.mutex());
    for (size_t i = 0; i < alpha.size(); ++i)
      gam[i] = std::max(std::numeric_limits<double>::min(), sample_gamma(g, alpha[i]));
  }
  const size_t row = self.dim() == 0 ? 1 : size_t(self.size(-1));
  visit_floating(outs[0].dtype(), "_sample_dirichlet", [&](auto tag) {
    using T = typename decltype(tag)::type;
    using C = compute_t<T>;
    T* p = outs[0].data<T>();
    const C lo = std::numeric_limits<C>::min(), hi = std::nextafter(C(1), C(0));
    for (size_t start = 0; row > 0 && start < gam.size(); start += row) {
      double total = 0;
      for (size_t j = 0; j < row; ++j) total += gam[start + j];
      for (size_t j = 0; j < row; ++j) p[start + j] = T(std::min(hi, std::max(lo, C(gam[start + j] / total))));
    }
  });
}

// ---- multinomial ---------------------------------------------------------------------------
// PyTorch CPU: without replacement (or for one sample) the exponential trick,
// topk(p / q) with q ~ Exp(1) drawn like empty_like(p).exponential_(); with
// replacement, inverse CDF over the row's normalised running sum by binary
// search on uniform doubles.
std::vector<Shape> shape_multinomial(const Args& a) {
  const Tensor& p = a[0].tensor();
  int64_t n = a[1].to_int();
  bool replacement = a[2].to_bool();
  KILN_CHECK(p.dim() > 0 && p.dim() <= 2, Runtime, "prob_dist must be 1 or 2 dim");
  KILN_CHECK(is_floating(p.dtype()), Runtime, "multinomial only supports floating-point dtypes for input, got: ",
             dtype_legacy_name(p.dtype()));
  KILN_CHECK(n > 0, Runtime, "cannot sample n_sample <= 0 samples");
  KILN_CHECK(replacement || n <= p.size(-1), Runtime,
             "cannot sample n_sample > prob_dist.size(-1) samples without replacement");
  KILN_CHECK(p.size(-1) <= (int64_t(1) << 24), Runtime, "number of categories cannot exceed 2^24");
  return {p.dim() == 1 ? Shape{n} : Shape{p.size(0), n}};
}
std::vector<DType> dtype_int64(const Args&) { return {DType::Int64}; }

// argmax for one sample, else PyTorch's CPU topk, whose order among ties
// (zero probabilities) is part of the result.
template <class Acc>
void top_k(std::vector<std::pair<Acc, int64_t>>& queue, int64_t k) {
  if (k > 1) return topk_order(queue, k, true, true);
  auto best = queue.begin();
  for (auto it = queue.begin() + 1; it != queue.end(); ++it)
    if (!std::isnan(best->first) && (std::isnan(it->first) || it->first > best->first)) best = it;
  queue[0] = *best;
}

template <class T>
void multinomial_exponential(const Tensor& probs, int64_t n, int64_t* out) {
  using C = compute_t<T>;
  int64_t rows = probs.dim() == 1 ? 1 : probs.size(0), cats = probs.size(-1);
  std::vector<double> pv = to_double_vector(probs);
  bool valid = std::all_of(pv.begin(), pv.end(), [](double v) { return v >= 0 && v < INFINITY; });
  KILN_CHECK(valid, Runtime, "probability tensor contains either `inf`, `nan` or element < 0");
  for (int64_t r = 0; r < rows; ++r) {
    double s = std::accumulate(pv.begin() + r * cats, pv.begin() + (r + 1) * cats, 0.0);
    KILN_CHECK(s != 0, Runtime, "invalid multinomial distribution (sum of probabilities <= 0)");
  }
  Tensor q = empty_tensor(probs.sizes(), probs.dtype());
  fill_exponential<T>(q, probs, 1.0);
  const T* qp = q.data<T>();
  using Acc = std::conditional_t<std::is_same_v<C, float>, double, C>;  // at::acc_type on CPU
  std::vector<std::pair<Acc, int64_t>> queue(static_cast<size_t>(cats));
  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t c = 0; c < cats; ++c) {
      int64_t i = r * cats + c;
      queue[size_t(c)] = {Acc(T(C(pv[size_t(i)]) / C(qp[i]))), c};
    }
    top_k(queue, n);
    for (int64_t k = 0; k < n; ++k) out[r * n + k] = queue[size_t(k)].second;
  }
}

template <class T>
void multinomial_replacement(const Tensor& probs, int64_t n, int64_t* out) {
  using Acc = std::conditional_t<std::is_same_v<T, double>, double, float>;
  int64_t rows = probs.dim() == 1 ? 1 : probs.size(0), cats = probs.size(-1);
  std::vector<double> pv = to_double_vector(probs);
  std::vector<Acc> cum(static_cast<size_t>(cats));
  Generator& g = current_generator();
  std::lock_guard<std::mutex> lock(g.mutex());
  for (int64_t r = 0; r < rows; ++r) {
    Acc sum = 0;
    for (int64_t c = 0; c < cats; ++c) {
      Acc v = Acc(pv[size_t(r * cats + c)]);
      KILN_CHECK(v >= 0, Runtime, "invalid multinomial distribution (encountering probability entry < 0)");
      KILN_CHECK(std::isfinite(v), Runtime,
                 "invalid multinomial distribution (encountering probability entry = infinity or NaN)");
      sum += v;
      cum[size_t(c)] = sum;
    }
    KILN_CHECK(sum > 0, Runtime, "invalid multinomial distribution (sum of probabilities <= 0)");
    for (Acc& c : cum) c /= sum;
    cum.back() = 1;
    for (int64_t k = 0; k < n; ++k) {
      double u = g.uniform_double();
      out[r * n + k] = int64_t(std::lower_bound(cum.begin(), cum.end(), u,
                                                [](Acc c, double x) { return double(c) < x; }) -
                               cum.begin());
    }
  }
}

void multinomial_kernel(const Args& a, std::vector<Tensor>& outs) {
  const Tensor& probs = a[0].tensor();
  int64_t n = a[1].to_int();
  bool replacement = a[2].to_bool();
  visit_floating(probs.dtype(), "multinomial", [&](auto tag) {
    using T = typename decltype(tag)::type;
    if (!replacement || n == 1) {
      multinomial_exponential<T>(probs, n, outs[0].data<int64_t>());
    } else {
      multinomial_replacement<T>(probs, n, outs[0].data<int64_t>());
    }
  });
}

// ---- permutations --------------------------------------------------------------------------
// randperm(n): PyTorch's CPU Fisher-Yates, one 32-bit draw a step while n is
// below 2^32 / 20 (its "old behaviour"), above that the inside-out variant on
// 64-bit draws, which no 32-bit modulo skews.
std::vector<Shape> shape_randperm(const Args& a) {
  int64_t n = a[0].to_int();
  KILN_CHECK(n >= 0, Runtime, "Trying to create tensor with negative dimension ", n, ": [", n, "]");
  return {{n}};
}
std::vector<int64_t> permutation(Generator& g, int64_t n) {
  std::vector<int64_t> r(static_cast<size_t>(n));
  if (n < int64_t(UINT32_MAX / 20)) {
    std::iota(r.begin(), r.end(), 0);
    for (int64_t i = 0; i + 1 < n; ++i) std::swap(r[size_t(i)], r[size_t(i + int64_t(g.random() % uint64_t(n - i)))]);
    return r;
  }
  for (int64_t i = 0; i < n; ++i) {
    auto z = size_t(g.random64() % uint64_t(i + 1));
    r[size_t(i)] = r[z];
    r[z] = i;
  }
  return r;
}
void randperm_kernel(const Args& a, std::vector<Tensor>& outs) {
  Generator& g = current_generator();
  std::vector<int64_t> r;
  {
    std::lock_guard<std::mutex> lock(g.mutex());
    r = permutation(g, a[0].to_int());
  }
  KILN_CHECK(outs[0].dtype() != DType::Bool || r.size() <= 2, Runtime, "n cannot be greater than 2 for bool, but got ",
             r.size());
  visit_dtype(outs[0].dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* p = outs[0].data<T>();
    for (size_t i = 0; i < r.size(); ++i) p[i] = T(compute_t<T>(r[i]));
  });
}

// ---- composites -------------------------------------------------------------------------------
// In-place draws: the functional form's values copied into self
// (write_back_composite), so a leaf that requires grad is refused and the
// version counter moves, as in PyTorch.
constexpr char kNormal[] = "normal_functional";
constexpr char kUniform[] = "uniform";
constexpr char kExponential[] = "exponential";
constexpr char kBernoulliP[] = "bernoulli.p";
constexpr char kRandomFrom[] = "random.from";
constexpr char kGeometric[] = "geometric";
constexpr char kLogNormal[] = "log_normal";
constexpr char kCauchy[] = "cauchy";
constexpr char kRandomTo[] = "random.to";

// dropout: input * (bernoulli(1 - p) / (1 - p)); the noise is laid out like
// the input (empty_like), so it is drawn in the input's memory order.
std::vector<Tensor> dropout_composite(const Args& a) {
  const Tensor& x = a[0].tensor();
  double p = a[1].to_double();
  KILN_CHECK(p >= 0 && p <= 1, Value, "dropout probability has to be between 0 and 1, but got ",
             format_double(p));
  if (p == 0 || !a[2].to_bool() || x.numel() == 0) return {x};
  if (p == 1) return {mul(x, zeros({}, x.dtype()))};
  std::vector<int64_t> perm(static_cast<size_t>(x.dim()), 0), inverse(perm.size(), 0);
  std::iota(perm.begin(), perm.end(), 0);
  if (auto dense = dense_perm(x)) perm = *dense;
  for (size_t i = 0; i < perm.size(); ++i) inverse[size_t(perm[i])] = int64_t(i);
  Shape perm_shape(perm.begin(), perm.end()), inverse_shape(inverse.begin(), inverse.end());
  Tensor noise = invoke("bernoulli.p", {permute(x.detach(), perm_shape), 1 - p});
  noise = permute(noise, inverse_shape);
  noise = div(noise, scalar_tensor(1 - p, DType::Float64, true));
  return {mul(x, noise)};
}

// random_(): every value the dtype holds from 0 (integers: [0, max]; floats:
// [0, 2^mantissa]), as random_.from(0, None).
std::vector<Tensor> random_all_composite(const Args& a) { return {invoke("random_.from", {a[0], int64_t(0), Value()})}; }

// torch.normal's four forms, as ATen's normal_out_impl: standard normal draws
// into a fresh tensor, scaled by std and shifted by mean (so the derivative
// reaches both), or N(0, std) shifted when std is a number.
void check_std(const Tensor& std) {
  KILN_CHECK(!any(lt(std.detach(), zeros({}, std.dtype()))).item_bool(), Runtime,
             "normal expects all elements of std >= 0.0");
}
Tensor standard_normal(const Shape& shape, DType d, double std = 1.0) {
  return invoke("normal_functional", {empty(shape, d), 0.0, std});
}
std::vector<Tensor> normal_tensor_tensor(const Args& a) {
  const Tensor &mean = a[0].tensor(), &std = a[1].tensor();
  check_std(std);
  Tensor z = standard_normal(broadcast_shapes(mean.sizes(), std.sizes()), mean.dtype());
  return {add(mul(z, std), mean)};
}
std::vector<Tensor> normal_tensor_float(const Args& a) {
  const Tensor& mean = a[0].tensor();
  return {add(standard_normal(mean.sizes(), mean.dtype(), a[1].to_double()), mean)};
}
std::vector<Tensor> normal_float_tensor(const Args& a) {
  const Tensor& std = a[1].tensor();
  check_std(std);
  return {add(mul(standard_normal(std.sizes(), std.dtype()), std), a[0].to_double())};
}
std::vector<Tensor> normal_float_float(const Args& a) {
  Tensor r = invoke("normal_functional", {empty(a[2].int_list(), dtype_arg(a, 3, kDefaultFloat)), a[0], a[1]});
  if (a[4].to_bool()) r.requires_grad_(true);  // a fresh leaf, as the factories' requires_grad=
  return {r};
}

}  // namespace
}  // namespace ops

void register_random_ops(OpTable& t) {
  using namespace ops;
  constexpr OpKind R = OpKind::Random;
  constexpr OpKind C = OpKind::Composite;
#define KILN_TAIL "*, ScalarType? dtype=None, bool requires_grad=False) -> Tensor"
  t.add({.schema_text = "rand(int[] size, " KILN_TAIL, .kind = R, .shape = shape_size0,
         .dtype = dtype_float_at<1>, .kernel = rand_kernel<false>});
  t.add({.schema_text = "randn(int[] size, " KILN_TAIL, .kind = R, .shape = shape_size0,
         .dtype = dtype_float_at<1>, .kernel = randn_kernel<false>});
  t.add({.schema_text = "randint(int high, int[] size, " KILN_TAIL, .kind = R, .shape = shape_size1,
         .dtype = dtype_long_at<2>, .kernel = randint_kernel<false, false>});
  t.add({.schema_text = "randint.low(int low, int high, int[] size, " KILN_TAIL, .kind = R,
         .shape = shape_size2, .dtype = dtype_long_at<3>, .kernel = randint_kernel<true, false>});
  t.add({.schema_text = "rand_like(Tensor self, " KILN_TAIL, .kind = R, .shape = shape_like_self,
         .dtype = dtype_self_at<1>, .kernel = rand_kernel<true>});
  t.add({.schema_text = "randn_like(Tensor self, " KILN_TAIL, .kind = R, .shape = shape_like_self,
         .dtype = dtype_self_at<1>, .kernel = randn_kernel<true>});
  t.add({.schema_text = "randint_like(Tensor self, int high, " KILN_TAIL, .kind = R, .shape = shape_like_self,
         .dtype = dtype_self_at<2>, .kernel = randint_kernel<false, true>});
  t.add({.schema_text = "randint_like.low_dtype(Tensor self, int low, int high, " KILN_TAIL, .kind = R,
         .shape = shape_like_self, .dtype = dtype_self_at<3>, .kernel = randint_kernel<true, true>});
#undef KILN_TAIL
  t.add({.schema_text = "normal_functional(Tensor self, float mean=0., float std=1.) -> Tensor", .kind = R,
         .shape = shape_like_self, .dtype = dtype_like_self, .kernel = normal_kernel});
  t.add({.schema_text = "uniform(Tensor self, float from=0., float to=1.) -> Tensor", .kind = R,
         .shape = shape_like_self, .dtype = dtype_like_self, .kernel = uniform_kernel});
  t.add({.schema_text = "exponential(Tensor self, float lambd=1.) -> Tensor", .kind = R,
         .shape = shape_like_self, .dtype = dtype_like_self, .kernel = exponential_kernel});
  t.add({.schema_text = "geometric(Tensor self, float p) -> Tensor", .kind = R, .shape = shape_like_self,
         .dtype = dtype_like_self, .kernel = geometric_kernel});
  t.add({.schema_text = "log_normal(Tensor self, float mean=1., float std=2.) -> Tensor", .kind = R,
         .shape = shape_like_self, .dtype = dtype_like_self, .kernel = log_normal_kernel});
  t.add({.schema_text = "cauchy(Tensor self, float median=0., float sigma=1.) -> Tensor", .kind = R,
         .shape = shape_like_self, .dtype = dtype_like_self, .kernel = cauchy_kernel});
  t.add({.schema_text = "random.from(Tensor self, int from, int? to) -> Tensor", .kind = R,
         .shape = shape_like_self, .dtype = dtype_like_self, .kernel = random_kernel<true>});
  t.add({.schema_text = "random.to(Tensor self, int to) -> Tensor", .kind = R, .shape = shape_like_self,
         .dtype = dtype_like_self, .kernel = random_kernel<false>});
  t.add({.schema_text = "bernoulli.p(Tensor self, float p) -> Tensor", .kind = R, .shape = shape_like_self,
         .dtype = dtype_like_self, .kernel = bernoulli_p_kernel});
  t.add({.schema_text = "bernoulli(Tensor self) -> Tensor", .kind = R, .shape = shape_like_self,
         .dtype = dtype_like_self, .kernel = bernoulli_tensor_kernel});
  t.add({.schema_text = "_standard_gamma(Tensor self) -> Tensor", .kind = R, .shape = shape_like_self,
         .dtype = dtype_like_self, .kernel = standard_gamma_kernel});
  t.add({.schema_text = "_sample_dirichlet(Tensor self) -> Tensor", .kind = R, .shape = shape_like_self,
         .dtype = dtype_like_self, .kernel = sample_dirichlet_kernel});
  t.add({.schema_text = "multinomial(Tensor self, int num_samples, bool replacement=False) -> Tensor", .kind = R,
         .shape = shape_multinomial, .dtype = dtype_int64, .kernel = multinomial_kernel});
  t.add({.schema_text = "normal_(Tensor self, float mean=0., float std=1.) -> Tensor", .kind = C,
         .composite = write_back_composite<functional_of<kNormal>>});
  t.add({.schema_text = "uniform_(Tensor self, float from=0., float to=1.) -> Tensor", .kind = C,
         .composite = write_back_composite<functional_of<kUniform>>});
  t.add({.schema_text = "exponential_(Tensor self, float lambd=1.) -> Tensor", .kind = C,
         .composite = write_back_composite<functional_of<kExponential>>});
  t.add({.schema_text = "geometric_(Tensor self, float p) -> Tensor", .kind = C,
         .composite = write_back_composite<functional_of<kGeometric>>});
  t.add({.schema_text = "log_normal_(Tensor self, float mean=1., float std=2.) -> Tensor", .kind = C,
         .composite = write_back_composite<functional_of<kLogNormal>>});
  t.add({.schema_text = "cauchy_(Tensor self, float median=0., float sigma=1.) -> Tensor", .kind = C,
         .composite = write_back_composite<functional_of<kCauchy>>});
  t.add({.schema_text = "bernoulli_.float(Tensor self, float p=0.5) -> Tensor", .kind = C,
         .composite = write_back_composite<functional_of<kBernoulliP>>});
  t.add({.schema_text = "random_.from(Tensor self, int from, int? to) -> Tensor", .kind = C,
         .composite = write_back_composite<functional_of<kRandomFrom>>});
  t.add({.schema_text = "random_.to(Tensor self, int to) -> Tensor", .kind = C,
         .composite = write_back_composite<functional_of<kRandomTo>>});
  t.add({.schema_text = "randperm(int n, *, ScalarType? dtype=None, bool requires_grad=False) -> Tensor", .kind = R,
         .shape = shape_randperm, .dtype = dtype_long_at<1>, .kernel = randperm_kernel});
  t.add({.schema_text = "random_(Tensor self) -> Tensor", .kind = C, .composite = random_all_composite});
  // Number forms first: a number would bind to a Tensor parameter as a
  // wrapped tensor, but a tensor never binds as a float.
  t.add({.schema_text = "normal.float_float(float mean, float std, int[] size, *, ScalarType? dtype=None, "
                        "bool requires_grad=False) -> Tensor",
         .kind = C, .composite = normal_float_float});
  t.add({.schema_text = "normal.Tensor_float(Tensor mean, float std=1.) -> Tensor", .kind = C,
         .composite = normal_tensor_float});
  t.add({.schema_text = "normal.float_Tensor(float mean, Tensor std) -> Tensor", .kind = C,
         .composite = normal_float_tensor});
  t.add({.schema_text = "normal.Tensor_Tensor(Tensor mean, Tensor std) -> Tensor", .kind = C,
         .composite = normal_tensor_tensor});
  t.add({.schema_text = "dropout(Tensor input, float p=0.5, bool train=True) -> Tensor", .kind = C,
         .composite = dropout_composite});
}

// ---- typed wrappers ---------------------------------------------------------------
void manual_seed(uint64_t seed) {
  Generator& g = default_generator();
  std::lock_guard<std::mutex> lock(g.mutex());
  g.manual_seed(seed);
}
uint64_t initial_seed() { return default_generator().initial_seed(); }
Tensor rand(const Shape& s, DType d) { return invoke("rand", {s, d}); }
Tensor randn(const Shape& s, DType d) { return invoke("randn", {s, d}); }
Tensor randint(int64_t low, int64_t high, const Shape& s, DType d) { return invoke("randint.low", {low, high, s, d}); }
Tensor rand_like(const Tensor& t, OptDType d) { return invoke("rand_like", {t, dtype_value(d)}); }
Tensor randn_like(const Tensor& t, OptDType d) { return invoke("randn_like", {t, dtype_value(d)}); }
Tensor multinomial(const Tensor& p, int64_t n, bool replacement) { return invoke("multinomial", {p, n, replacement}); }
Tensor bernoulli(const Tensor& self, double p) { return invoke("bernoulli.p", {self, p}); }
Tensor bernoulli(const Tensor& probs) { return invoke("bernoulli", {probs}); }
Tensor dropout(const Tensor& x, double p, bool train) { return invoke("dropout", {x, p, train}); }
Tensor& normal_(Tensor& self, double mean, double std) {
  invoke("normal_", {self, mean, std});
  return self;
}
Tensor& uniform_(Tensor& self, double from, double to) {
  invoke("uniform_", {self, from, to});
  return self;
}
Tensor& exponential_(Tensor& self, double lambd) {
  invoke("exponential_", {self, lambd});
  return self;
}

}  // namespace kiln
