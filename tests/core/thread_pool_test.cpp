#include <gtest/gtest.h>

#include <atomic>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "core/error.h"
#include "core/thread_pool.h"
#include "traces/recorder.h"

namespace kiln {
namespace {

TEST(ThreadPool, CoversRangeExactlyOnce) {
  std::vector<std::atomic<int>> hits(100000);
  parallel_for(0, 100000, 1000, [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i) hits[size_t(i)]++;
  });
  for (auto& h : hits) ASSERT_EQ(h.load(), 1);
}

// While a trace records, each chunk a worker runs is a "pool chunk" span on
// the worker's own thread (the inspector's worker lanes); the submitting
// thread records none, its chunks being inside the kernel event it records.
TEST(ThreadPool, WorkerChunksAreSpansOnTheirThreads) {
  struct Names : trace::Sink {
    std::vector<std::pair<std::string, uint32_t>> seen;
    void on_events(std::span<const trace::Event> events, const trace::StringTable& strings) override {
      for (const trace::Event& e : events) seen.emplace_back(std::string(strings.str(e.name)), e.tid);
    }
  };
  const int before = num_threads();
  set_num_threads(2);
  auto sink = std::make_unique<Names>();
  Names* names = sink.get();
  trace::Session::start({}).add_sink(std::move(sink));
  const uint32_t me = trace::thread_index();
  std::atomic<int> on_worker{0};
  // Chunks that wait until the worker took one, so both threads run some.
  parallel_for(0, 64, 1, [&](int64_t, int64_t) {
    if (trace::thread_index() != me) ++on_worker;
    for (int spin = 0; spin < 2000000 && on_worker.load() == 0; ++spin) std::this_thread::yield();
  });
  trace::Session::current()->flush();
  std::vector<std::pair<std::string, uint32_t>> seen = names->seen;
  trace::Session::stop();
  set_num_threads(before);
  ASSERT_GT(on_worker.load(), 0) << "the worker ran no chunk";
  int chunks = 0;
  for (const auto& [name, tid] : seen) {
    if (name != "pool chunk") continue;
    ++chunks;
    EXPECT_NE(tid, me);
  }
  EXPECT_EQ(chunks, on_worker.load());
}

TEST(ThreadPool, SmallRangesRunInline) {
  int calls = 0;
  parallel_for(0, 10, 1000, [&](int64_t b, int64_t e) {
    ++calls;
    EXPECT_EQ(b, 0);
    EXPECT_EQ(e, 10);
  });
  EXPECT_EQ(calls, 1);
}

TEST(ThreadPool, ExceptionsReachTheCaller) {
  EXPECT_THROW(parallel_for(0, 1 << 20, 1024,
                            [&](int64_t b, int64_t) {
                              if (b > 0) throw Error("boom");
                            }),
               Error);
  // The pool is still usable afterwards.
  std::atomic<int64_t> total{0};
  parallel_for(0, 1 << 20, 1024, [&](int64_t b, int64_t e) { total += e - b; });
  EXPECT_EQ(total.load(), 1 << 20);
}

TEST(ThreadPool, NestedCallsRunInline) {
  std::atomic<int64_t> total{0};
  parallel_for(0, 1 << 16, 1024, [&](int64_t b, int64_t e) {
    parallel_for(b, e, 1, [&](int64_t ib, int64_t ie) { total += ie - ib; });
  });
  EXPECT_EQ(total.load(), 1 << 16);
}

}  // namespace
}  // namespace kiln
