// Cost of the JIT's per-flush work on a cached graph: reducing a region's
// pending ops to a Signature, checking an entry, finding it among cached
// variants, and gathering the graph's inputs. Target: well under 1 µs for a
// 10-op region.
#include <benchmark/benchmark.h>

#include <unordered_map>

#include "core/ops.h"
#include "jit/graph.h"
#include "jit/guards.h"

namespace kiln::jit {
namespace {

using lazy::PendingOp;

PendingOp pending(std::string_view name, std::vector<Value> positional, std::vector<Tensor> outs) {
  const OpDef& op = op_table().get(name);
  return {&op, bind_args(op.schema, positional, {}, true), std::move(outs)};
}

// Five linear layers, mm then add: 10 ops, 20 tensor arguments, 11 inputs, 5 scalars.
std::vector<PendingOp> region(int64_t batch) {
  std::vector<PendingOp> ops;
  Tensor h = empty_tensor({batch, 16}, DType::Float32);
  for (int i = 0; i < 5; ++i) {
    Tensor w = empty_tensor({16, 16}, DType::Float32), b = empty_tensor({16}, DType::Float32);
    Tensor y = empty_tensor({batch, 16}, DType::Float32), z = empty_tensor({batch, 16}, DType::Float32);
    ops.push_back(pending("mm", {h, w}, {y}));
    ops.push_back(pending("add", {y, b, int64_t(1)}, {z}));
    h = z;
  }
  return ops;
}

void BM_MakeSignature10Ops(benchmark::State& state) {
  auto ops = region(64);
  for (auto _ : state) benchmark::DoNotOptimize(make_signature(ops, {}));
  state.counters["guards"] = double(make_signature(ops, {}).guards.size());
}
BENCHMARK(BM_MakeSignature10Ops);

void BM_CollectInputs10Ops(benchmark::State& state) {
  auto ops = region(64);
  for (auto _ : state) benchmark::DoNotOptimize(collect_inputs(ops));
}
BENCHMARK(BM_CollectInputs10Ops);

// One op on a 2-d input: 10 guards.
void BM_CheckEntry10Guards(benchmark::State& state) {
  Tensor x = empty_tensor({8, 8}, DType::Float32);
  std::vector<PendingOp> a{pending("relu", {x}, {empty_tensor({8, 8}, DType::Float32)})};
  Signature entry = make_signature(a, {}), now = make_signature(a, {});
  for (auto _ : state) {
    benchmark::DoNotOptimize(entry == now);
    benchmark::ClobberMemory();
  }
  state.counters["guards"] = double(entry.guards.size());
}
BENCHMARK(BM_CheckEntry10Guards);

void BM_CheckEntry10Ops(benchmark::State& state) {
  auto ops = region(64);
  Signature entry = make_signature(ops, {}), now = make_signature(region(64), {});
  for (auto _ : state) {
    benchmark::DoNotOptimize(entry == now);
    benchmark::ClobberMemory();
  }
  state.counters["guards"] = double(entry.guards.size());
}
BENCHMARK(BM_CheckEntry10Ops);

// A cache holding the region at 20 batch sizes; the lookup finds batch 20.
struct Cache {
  std::unordered_multimap<uint64_t, Signature> entries;
  Cache() {
    for (int64_t b = 1; b <= 20; ++b) {
      Signature s = make_signature(region(b), {});
      entries.emplace(s.hash, std::move(s));
    }
  }
  const Signature* find(const Signature& s) const {
    auto [lo, hi] = entries.equal_range(s.hash);
    for (auto it = lo; it != hi; ++it)
      if (it->second == s) return &it->second;
    return nullptr;
  }
};

void BM_Lookup20Variants(benchmark::State& state) {
  Cache cache;
  Signature now = make_signature(region(20), {});
  for (auto _ : state) benchmark::DoNotOptimize(cache.find(now));
  if (!cache.find(now)) state.SkipWithError("variant not found");
}
BENCHMARK(BM_Lookup20Variants);

// The whole per-flush path of a cache hit: signature, lookup, inputs.
void BM_FlushHit10Ops(benchmark::State& state) {
  Cache cache;
  auto ops = region(20);
  for (auto _ : state) {
    Signature now = make_signature(ops, {});
    benchmark::DoNotOptimize(cache.find(now));
    benchmark::DoNotOptimize(collect_inputs(ops));
  }
}
BENCHMARK(BM_FlushHit10Ops);

}  // namespace
}  // namespace kiln::jit
BENCHMARK_MAIN();
