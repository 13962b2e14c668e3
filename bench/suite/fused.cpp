// Hand-fused C++ loops for the memory-bound rows of the issue-6 suite: the practical limit a
// compiler could reach on this machine. Each workload is one pass over memory, vectorised
// (exp and erf as inline polynomials) and split over OpenMP threads.
// `fused copy` measures the machine's copy bandwidth, the yardstick for the GB/s columns.
// Output lines match the Python workloads': RESULT <name> median_ms=... bytes=... max_err=...
#include <omp.h>

#include <algorithm>
#include <bit>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

// Aligned, first-touched by the threads that will use it, so pages land where they are read.
struct Buffer {
  float* p = nullptr;
  size_t n = 0;
  explicit Buffer(size_t count) : n(count) {
    p = static_cast<float*>(std::aligned_alloc(64, ((count * sizeof(float) + 63) / 64) * 64));
    if (!p) {
      std::fprintf(stderr, "fused: out of memory\n");
      std::exit(1);
    }
#pragma omp parallel for schedule(static)
    for (size_t i = 0; i < count; ++i) p[i] = 0.0f;
  }
  ~Buffer() { std::free(p); }
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
};

void fill_normal(Buffer& b, unsigned seed) {
  std::mt19937 gen(seed);
  std::normal_distribution<float> dist(0.0f, 1.0f);
  for (size_t i = 0; i < b.n; ++i) b.p[i] = dist(gen);
}

// Median time per call in ms over `repeats` runs of `iters` calls, after `warmup` calls.
double time_ms(const std::function<void()>& body, int iters, int repeats, int warmup = 3) {
  for (int i = 0; i < warmup; ++i) body();
  std::vector<double> t;
  for (int r = 0; r < repeats; ++r) {
    auto t0 = Clock::now();
    for (int i = 0; i < iters; ++i) body();
    t.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count() / iters);
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

void report(const char* name, double ms, size_t bytes, double max_err) {
  std::printf("RESULT %s median_ms=%.4f bytes=%zu threads=%d max_err=%.3g\n", name, ms, bytes,
              omp_get_max_threads(), max_err);
}

// Vector-friendly exp and erf, inlined into the loops so GCC vectorises them whole. glibc's
// libmvec versions are accurate to 1 ulp but cost several times more, enough to make the
// softmax and GELU loops compute-bound at 2 threads; what a code generator can emit is these.

// exp(x) = 2^n * e^r, |r| <= ln2/2, e^r by its degree-6 Taylor polynomial (rel. error ~1.2e-7).
inline float exp_approx(float x) {
  x = std::min(std::max(x, -87.0f), 88.0f);
  const float n = std::nearbyint(x * 1.44269504f);
  const float r = (x - n * 0.693145752f) - n * 1.42860677e-6f;  // ln 2 split in hi + lo
  const float p =
      1.0f + r * (1.0f + r * (0.5f + r * (1.0f / 6 + r * (1.0f / 24 + r * (1.0f / 120 +
                                                                             r * (1.0f / 720))))));
  return p * std::bit_cast<float>((int32_t(n) + 127) << 23);
}

// Abramowitz & Stegun 7.1.26: absolute error below 1.5e-7.
inline float erf_approx(float x) {
  const float a = std::fabs(x);
  const float t = 1.0f / (1.0f + 0.3275911f * a);
  const float poly =
      t * (0.254829592f +
           t * (-0.284496736f + t * (1.421413741f + t * (-1.453152027f + t * 1.061405429f))));
  return std::copysign(1.0f - poly * exp_approx(-a * a), x);
}

// --- (a) tanh-GELU of x*w+b ---------------------------------------------------------------

void gelu_chain(const float* x, const float* w, const float* b, float* y, size_t n) {
#pragma omp parallel for simd schedule(static)
  for (size_t i = 0; i < n; ++i) {
    const float v = x[i] * w[i] + b[i];
    // 0.5 * (1 + tanh(u)) == 1 / (1 + exp(-2u)): one exp and one divide per element.
    const float u = 0.7978845608f * (v + 0.044715f * v * v * v);
    y[i] = v / (1.0f + exp_approx(-2.0f * u));
  }
}

int run_pointwise() {
  const size_t n = size_t{4} << 20;
  Buffer x(n), w(n), b(n), y(n);
  fill_normal(x, 1);
  fill_normal(w, 2);
  fill_normal(b, 3);
  double ms = time_ms([&] { gelu_chain(x.p, w.p, b.p, y.p, n); }, 50, 7);
  double err = 0;
  for (size_t i = 0; i < n; i += 997) {
    double v = double(x.p[i]) * w.p[i] + b.p[i];
    double ref = 0.5 * v * (1.0 + std::tanh(0.7978845608 * (v + 0.044715 * v * v * v)));
    err = std::max(err, std::fabs(ref - y.p[i]) / std::max(1.0, std::fabs(ref)));
  }
  report("pointwise_gelu", ms, 4 * n * sizeof(float), err);
  return 0;
}

// --- (b) layer_norm + erf-GELU over rows ----------------------------------------------------

void layernorm_gelu(const float* x, const float* g, const float* be, float* y, size_t rows,
                    size_t cols) {
#pragma omp parallel for schedule(static)
  for (size_t r = 0; r < rows; ++r) {
    const float* xr = x + r * cols;
    float* yr = y + r * cols;
    // The row (4 KiB) stays in L1 between the statistics pass and the output pass.
    float sum = 0;
#pragma omp simd reduction(+ : sum)
    for (size_t c = 0; c < cols; ++c) sum += xr[c];
    const float mean = sum / float(cols);
    float sq = 0;
#pragma omp simd reduction(+ : sq)
    for (size_t c = 0; c < cols; ++c) sq += (xr[c] - mean) * (xr[c] - mean);
    const float rstd = 1.0f / std::sqrt(sq / float(cols) + 1e-5f);
#pragma omp simd
    for (size_t c = 0; c < cols; ++c) {
      const float v = (xr[c] - mean) * rstd * g[c] + be[c];
      yr[c] = 0.5f * v * (1.0f + erf_approx(v * 0.70710678f));
    }
  }
}

int run_layernorm() {
  const size_t rows = 8192, cols = 1024;
  Buffer x(rows * cols), y(rows * cols), g(cols), be(cols);
  fill_normal(x, 1);
  fill_normal(g, 2);
  fill_normal(be, 3);
  double ms = time_ms([&] { layernorm_gelu(x.p, g.p, be.p, y.p, rows, cols); }, 20, 7);
  double err = 0;
  for (size_t r = 0; r < rows; r += 331) {
    const float* xr = x.p + r * cols;
    double mean = 0, var = 0;
    for (size_t c = 0; c < cols; ++c) mean += xr[c];
    mean /= double(cols);
    for (size_t c = 0; c < cols; ++c) var += (xr[c] - mean) * (xr[c] - mean);
    double rstd = 1.0 / std::sqrt(var / double(cols) + 1e-5);
    for (size_t c = 0; c < cols; ++c) {
      double v = (xr[c] - mean) * rstd * g.p[c] + be.p[c];
      double ref = 0.5 * v * (1.0 + std::erf(v / std::sqrt(2.0)));
      err = std::max(err, std::fabs(ref - y.p[r * cols + c]) / std::max(1.0, std::fabs(ref)));
    }
  }
  report("layernorm_gelu", ms, 2 * rows * cols * sizeof(float), err);
  return 0;
}

// --- (c) softmax over rows ------------------------------------------------------------------

void softmax_rows(const float* x, float* y, size_t rows, size_t cols) {
#pragma omp parallel for schedule(static)
  for (size_t r = 0; r < rows; ++r) {
    const float* xr = x + r * cols;
    float* yr = y + r * cols;
    float mx = xr[0];  // not -inf: -ffast-math assumes finite values
#pragma omp simd reduction(max : mx)
    for (size_t c = 1; c < cols; ++c) mx = xr[c] > mx ? xr[c] : mx;  // std::max stays scalar
    float sum = 0;
#pragma omp simd reduction(+ : sum)
    for (size_t c = 0; c < cols; ++c) {
      const float e = exp_approx(xr[c] - mx);
      yr[c] = e;
      sum += e;
    }
    const float inv = 1.0f / sum;
#pragma omp simd
    for (size_t c = 0; c < cols; ++c) yr[c] *= inv;
  }
}

int run_softmax() {
  const size_t rows = 4096, cols = 1024;
  Buffer x(rows * cols), y(rows * cols);
  fill_normal(x, 1);
  double ms = time_ms([&] { softmax_rows(x.p, y.p, rows, cols); }, 50, 7);
  double err = 0;
  for (size_t r = 0; r < rows; r += 331) {
    const float* xr = x.p + r * cols;
    double mx = xr[0], sum = 0;
    for (size_t c = 1; c < cols; ++c) mx = std::max(mx, double(xr[c]));
    for (size_t c = 0; c < cols; ++c) sum += std::exp(xr[c] - mx);
    for (size_t c = 0; c < cols; ++c)
      err = std::max(err, std::fabs(std::exp(xr[c] - mx) / sum - y.p[r * cols + c]));
  }
  report("softmax", ms, 2 * rows * cols * sizeof(float), err);
  return 0;
}

// --- copy bandwidth -------------------------------------------------------------------------

// memcpy split over the threads, counting bytes read + written (as the GB/s of the workloads
// do). The 32 MiB source matches the largest workload footprints (64 MiB moved a call).
int run_copy() {
  const size_t sizes_mib[] = {16, 32, 512};
  for (size_t mib : sizes_mib) {
    const size_t n = mib * (size_t{1} << 20) / sizeof(float);
    Buffer src(n), dst(n);
    fill_normal(src, 1);
    const int iters = mib >= 512 ? 3 : 40;
    double ms = time_ms(
        [&] {
#pragma omp parallel
          {
            const size_t nt = size_t(omp_get_num_threads()), t = size_t(omp_get_thread_num());
            const size_t lo = n * t / nt, hi = n * (t + 1) / nt;
            std::memcpy(dst.p + lo, src.p + lo, (hi - lo) * sizeof(float));
          }
        },
        iters, 7);
    double err = std::memcmp(src.p, dst.p, n * sizeof(float)) == 0 ? 0.0 : 1.0;
    char name[32];
    std::snprintf(name, sizeof name, "copy_%zumib", mib);
    report(name, ms, 2 * n * sizeof(float), err);
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string what = argc > 1 ? argv[1] : "";
  if (what == "copy") return run_copy();
  if (what == "pointwise_gelu") return run_pointwise();
  if (what == "layernorm_gelu") return run_layernorm();
  if (what == "softmax") return run_softmax();
  std::fprintf(stderr, "usage: fused copy|pointwise_gelu|layernorm_gelu|softmax\n");
  return 2;
}
