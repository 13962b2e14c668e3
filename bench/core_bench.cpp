// Eager tensor-core benchmarks: memory bandwidth (STREAM-like copy) beside
// pointwise add and gelu, a row reduction, matmul against OpenBLAS called
// directly, and per-op dispatch overhead on a 1-element tensor.
// Run: build/release/bench/core_bench  (results go in docs/benchmarks.md)
#include <benchmark/benchmark.h>
#include <cblas.h>

#include <cstring>
#include <vector>

#include "core/ops.h"
#include "core/thread_pool.h"

namespace {

using namespace kiln;

constexpr int64_t kN = 4 << 20;  // 4M float32 elements

// The bandwidth ceiling: dst[i] = src[i] with the same threads and chunking
// as eager kernels, at the benchmark's size and at a size beyond the L3 cache.
void BM_StreamCopy(benchmark::State& state) {
  int64_t n = state.range(0);
  std::vector<float> src(size_t(n), 1.0f);
  std::vector<float> dst(size_t(n), 0.0f);
  for (auto _ : state) {
    parallel_for(0, n, 1 << 16, [&](int64_t b, int64_t e) {
      std::memcpy(dst.data() + b, src.data() + b, size_t(e - b) * sizeof(float));
    });
    benchmark::DoNotOptimize(dst.data());
  }
  state.SetBytesProcessed(state.iterations() * n * 8);
}
BENCHMARK(BM_StreamCopy)->Arg(kN)->Arg(int64_t(128) << 20)->UseRealTime();

void BM_EagerAdd(benchmark::State& state) {
  Tensor a = ones({kN}), b = ones({kN});
  for (auto _ : state) benchmark::DoNotOptimize(add(a, b));
  state.SetBytesProcessed(state.iterations() * kN * 12);
}
BENCHMARK(BM_EagerAdd)->UseRealTime();

void BM_EagerGelu(benchmark::State& state) {
  Tensor a = ones({kN});
  for (auto _ : state) benchmark::DoNotOptimize(gelu(a));
  state.SetBytesProcessed(state.iterations() * kN * 8);
}
BENCHMARK(BM_EagerGelu)->UseRealTime();

void BM_SumRows(benchmark::State& state) {
  Tensor a = ones({4096, 1024});
  for (auto _ : state) benchmark::DoNotOptimize(sum(a, Shape{1}));
  state.SetBytesProcessed(state.iterations() * 4096 * 1024 * 4);
}
BENCHMARK(BM_SumRows)->UseRealTime();

void BM_SumCols(benchmark::State& state) {
  Tensor a = ones({4096, 1024});
  for (auto _ : state) benchmark::DoNotOptimize(sum(a, Shape{0}));
  state.SetBytesProcessed(state.iterations() * 4096 * 1024 * 4);
}
BENCHMARK(BM_SumCols)->UseRealTime();

constexpr int64_t kM = 1024;
void BM_Matmul(benchmark::State& state) {
  Tensor a = ones({kM, kM}), b = ones({kM, kM});
  for (auto _ : state) benchmark::DoNotOptimize(matmul(a, b));
  state.counters["GFLOP/s"] = benchmark::Counter(double(state.iterations()) * 2.0 * kM * kM * kM / 1e9,
                                                 benchmark::Counter::kIsRate);
}
BENCHMARK(BM_Matmul)->UseRealTime()->Unit(benchmark::kMillisecond);

void BM_OpenBLASDirect(benchmark::State& state) {
  std::vector<float> a(size_t(kM * kM), 1.0f), b(size_t(kM * kM), 1.0f), c(size_t(kM * kM));
  for (auto _ : state) {
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, kM, kM, kM, 1.0f, a.data(), kM, b.data(), kM, 0.0f,
                c.data(), kM);
    benchmark::DoNotOptimize(c.data());
  }
  state.counters["GFLOP/s"] = benchmark::Counter(double(state.iterations()) * 2.0 * kM * kM * kM / 1e9,
                                                 benchmark::Counter::kIsRate);
}
BENCHMARK(BM_OpenBLASDirect)->UseRealTime()->Unit(benchmark::kMillisecond);

// Full eager path for one tiny op: bind, shape/dtype rules, allocation, kernel.
void BM_DispatchOverhead(benchmark::State& state) {
  Tensor a = ones({1}), b = ones({1});
  for (auto _ : state) benchmark::DoNotOptimize(add(a, b));
}
BENCHMARK(BM_DispatchOverhead);

}  // namespace

BENCHMARK_MAIN();
