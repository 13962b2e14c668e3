// Cost of recording: a SpanScope with a session and a sink that discards
// (the per-event price of tracing), and with no session (the price of the
// instrumentation points when nothing listens; target: one branch).
#include <benchmark/benchmark.h>

#include "traces/recorder.h"

namespace kiln::trace {
namespace {

class NullSink : public Sink {
 public:
  void on_events(std::span<const Event> events, const StringTable&) override {
    benchmark::DoNotOptimize(events.data());
  }
};

void BM_SpanNoSession(benchmark::State& state) {
  for (auto _ : state) {
    SpanScope span(Category::interpreter, StrId{1});
    benchmark::ClobberMemory();
  }
}
BENCHMARK(BM_SpanNoSession);

// With ->Threads(n), thread 0 owns the session; the benchmark's barriers at
// loop entry and exit keep the others inside it.
void BM_SpanNullSink(benchmark::State& state) {
  if (state.thread_index() == 0) {
    Session& s = Session::start({.script_path = "bench.py"});
    s.add_sink(std::make_unique<NullSink>());
  }
  static InternedName kName("call");
  for (auto _ : state) {
    SpanScope span(Category::interpreter, kName);
    benchmark::ClobberMemory();
  }
  if (state.thread_index() == 0) Session::stop();
}
BENCHMARK(BM_SpanNullSink);
BENCHMARK(BM_SpanNullSink)->Threads(2);

// The clock alone: a span reads it twice.
void BM_NowNs(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(now_ns());
}
BENCHMARK(BM_NowNs);

// An instant event built by hand (graph break, log line): no clock in the loop.
void BM_RecordInstant(benchmark::State& state) {
  Session& s = Session::start({});
  s.add_sink(std::make_unique<NullSink>());
  Event e;
  e.kind = EventKind::GraphBreak;
  e.cat = Category::jit;
  for (auto _ : state) {
    e.ts_ns += 1;
    s.record(e);
  }
  Session::stop();
}
BENCHMARK(BM_RecordInstant);

}  // namespace
}  // namespace kiln::trace

BENCHMARK_MAIN();
