// What deferring costs: the same chain of small ops run eagerly, and recorded
// by dispatch then run as one graph (core/lazy.h) by a runner that only
// executes kernels, and by one that also builds the signature and looks it
// up in a one-entry cache (what the JIT runtime does on every graph run).
#include <benchmark/benchmark.h>

#include <vector>

#include "core/dispatch.h"
#include "core/lazy.h"
#include "core/ops.h"
#include "jit/guards.h"

using namespace kiln;

namespace {

class KernelRunner : public lazy::Runner {
 public:
  void run_pending(std::vector<lazy::PendingOp>& ops, lazy::SyncReason, const lazy::GraphStart&) override {
    for (const lazy::PendingOp& p : ops) run_deferred(p);
  }
  uint32_t site() override { return 0; }
};

class GuardedRunner : public KernelRunner {
 public:
  void run_pending(std::vector<lazy::PendingOp>& ops, lazy::SyncReason r, const lazy::GraphStart& s) override {
    jit::Signature sig = jit::make_signature(ops, {});
    if (!(sig == cached_)) cached_ = std::move(sig);
    KernelRunner::run_pending(ops, r, s);
  }

 private:
  jit::Signature cached_;
};

// y = ((x * 2 + 1).relu() - x) * 0.5, ten ops a round over [n] tensors.
void chain(const Tensor& x) {
  Tensor y = x;
  for (int i = 0; i < 2; ++i) y = mul(sub(relu(add(mul(y, 2.0), 1.0)), x), 0.5);
  benchmark::DoNotOptimize(y);
}

void BM_EagerChain(benchmark::State& st) {
  Tensor x = randn({st.range(0)});
  for (auto _ : st) chain(x);
  st.SetItemsProcessed(st.iterations() * 10);
}

template <class R>
void deferred(benchmark::State& st) {
  R runner;
  lazy::set_runner(&runner);
  lazy::Region region;
  Tensor x = randn({st.range(0)});
  for (auto _ : st) {
    lazy::begin_capture(region);
    chain(x);
    lazy::end_capture();
  }
  lazy::set_runner(nullptr);
  st.SetItemsProcessed(st.iterations() * 10);
}
void BM_DeferredChain(benchmark::State& st) { deferred<KernelRunner>(st); }
void BM_DeferredGuardedChain(benchmark::State& st) { deferred<GuardedRunner>(st); }

}  // namespace

BENCHMARK(BM_EagerChain)->Arg(16)->Arg(4096);
BENCHMARK(BM_DeferredChain)->Arg(16)->Arg(4096);
BENCHMARK(BM_DeferredGuardedChain)->Arg(16)->Arg(4096);
BENCHMARK_MAIN();
