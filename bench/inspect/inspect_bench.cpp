// The timeline's level-of-detail query over 1M synthetic events: what one
// frame of the Timeline view costs, for the whole run on a 1920 px wide view
// and for a zoom to 1/1000 of it. Also the one-off build per snapshot.
// Numbers go to docs/benchmarks.md.
#include <benchmark/benchmark.h>

#include <random>

#include "profiler_ui/model/analysis.h"
#include "profiler_ui/model/session_index.h"
#include "profiler_ui/model/timeline.h"

namespace kiln::inspect {
namespace {

constexpr size_t kEvents = 1'000'000;

// A training-loop-shaped session: on the interpreter, calls (2 us) each
// holding 4 kernels; breaks every 50 calls; a compile span with 3 phases
// every 2000 calls; 4 worker threads running kernels. About kEvents events.
std::shared_ptr<const Session> synthetic_session() {
  std::vector<std::string> strings = {"", "Module.__call__", "mm", "fused_add_relu", "graph_break", "compile f",
                                      "llvm codegen", "llvm optimize", "llvm jit", "item"};
  std::vector<trace::Event> ev;
  ev.reserve(kEvents + 1000);
  std::mt19937_64 rng(1);
  auto add = [&](trace::EventKind kind, trace::Category cat, trace::StrId name, int64_t ts, int64_t dur, uint32_t tid) {
    trace::Event e;
    e.kind = kind;
    e.cat = cat;
    e.name = name;
    e.ts_ns = ts;
    e.dur_ns = dur;
    e.tid = tid;
    ev.push_back(e);
  };
  int64_t t = 0;
  for (size_t call = 0; ev.size() < kEvents; ++call) {
    add(trace::EventKind::Span, trace::Category::interpreter, 1, t, 2000, 1);
    for (int k = 0; k < 4; ++k)
      add(trace::EventKind::Kernel, trace::Category::kernel, k % 2 ? 2 : 3, t + 100 + k * 450, 300 + int64_t(rng() % 100), 1);
    add(trace::EventKind::Kernel, trace::Category::kernel, 2, t + 200, 1500, uint32_t(2 + call % 4));
    if (call % 50 == 0) {
      trace::Event& b = (add(trace::EventKind::GraphBreak, trace::Category::jit, 4, t + 1999, 0, 1), ev.back());
      b.detail = 9;
    }
    if (call % 2000 == 0) {
      add(trace::EventKind::Span, trace::Category::compile, 5, t, 1800, 1);
      for (int p = 0; p < 3; ++p) add(trace::EventKind::Span, trace::Category::compile, trace::StrId(6 + p), t + p * 600, 590, 1);
    }
    t += 2100;
  }
  return Session::from_events({}, std::move(ev), std::move(strings));
}

struct Fixture {
  std::shared_ptr<const Session> session = synthetic_session();
  std::shared_ptr<const SessionIndex> index = SessionIndex::build(session);
  std::shared_ptr<const Timeline> timeline = Timeline::build(*index);
};

Fixture& fixture() {
  static Fixture f;
  return f;
}

void BM_TimelineQueryFullRange(benchmark::State& state) {
  const Timeline& t = *fixture().timeline;
  TimelineView v;
  for (auto _ : state) {
    t.query(t.start_ns(), t.end_ns(), 1920, 1.0f, v);
    benchmark::DoNotOptimize(v.lanes.data());
  }
  state.counters["events"] = double(fixture().session->event_count());
  state.counters["items"] = double(v.item_count());
}
BENCHMARK(BM_TimelineQueryFullRange)->Unit(benchmark::kMicrosecond);

void BM_TimelineQueryZoomed(benchmark::State& state) {
  const Timeline& t = *fixture().timeline;
  int64_t span = (t.end_ns() - t.start_ns()) / 1000, mid = t.start_ns() + (t.end_ns() - t.start_ns()) / 2;
  TimelineView v;
  for (auto _ : state) {
    t.query(mid, mid + span, 1920, 1.0f, v);
    benchmark::DoNotOptimize(v.lanes.data());
  }
  state.counters["events"] = double(fixture().session->event_count());
  state.counters["items"] = double(v.item_count());
}
BENCHMARK(BM_TimelineQueryZoomed)->Unit(benchmark::kMicrosecond);

// Per snapshot, not per frame: index + timeline build over 1M events.
void BM_TimelineBuild(benchmark::State& state) {
  auto session = fixture().session;
  for (auto _ : state) {
    auto idx = SessionIndex::build(session);
    auto t = Timeline::build(*idx);
    benchmark::DoNotOptimize(t.get());
  }
}
BENCHMARK(BM_TimelineBuild)->Unit(benchmark::kMillisecond)->Iterations(3);

void BM_SessionIndexBuild(benchmark::State& state) {
  auto session = fixture().session;
  for (auto _ : state) benchmark::DoNotOptimize(SessionIndex::build(session).get());
}
BENCHMARK(BM_SessionIndexBuild)->Unit(benchmark::kMillisecond)->Iterations(3);

// Everything the views show for a new 1M-event snapshot (what a live UI pays per publish).
void BM_AnalyzeAll(benchmark::State& state) {
  auto session = fixture().session;
  for (auto _ : state) benchmark::DoNotOptimize(analyze(session).get());
}
BENCHMARK(BM_AnalyzeAll)->Unit(benchmark::kMillisecond)->Iterations(3);

}  // namespace
}  // namespace kiln::inspect

BENCHMARK_MAIN();
