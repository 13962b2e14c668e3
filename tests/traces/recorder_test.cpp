// The recorder: sessions, per-thread chunks, delivery order, SpanScope.
#include "traces/recorder.h"

#include <gtest/gtest.h>

#include <condition_variable>
#include <chrono>
#include <map>
#include <mutex>
#include <thread>
#include <vector>

namespace kiln::trace {
namespace {

// What a sink saw, with names resolved (the string table dies with the session).
struct Seen {
  std::vector<Event> events;
  std::vector<std::string> names;
  int batches = 0, flushes = 0, closes = 0;
};

class CollectSink : public Sink {
 public:
  explicit CollectSink(Seen& seen) : seen_(seen) {}
  void on_events(std::span<const Event> events, const StringTable& strings) override {
    ++seen_.batches;
    for (const Event& e : events) {
      seen_.events.push_back(e);
      seen_.names.emplace_back(strings.str(e.name));
    }
  }
  void flush() override { ++seen_.flushes; }
  void close() override { ++seen_.closes; }

 private:
  Seen& seen_;
};

class ThrowingSink : public Sink {
 public:
  void on_events(std::span<const Event>, const StringTable&) override {
    throw TraceError("disk on fire");
  }
};

Event counter_event(uint64_t seq, int64_t ts = 0) {
  Event e;
  e.kind = EventKind::Counter;
  e.a = seq;
  e.ts_ns = ts;
  return e;
}

// Starts a session with a CollectSink; stops it at scope exit.
struct ScopedSession {
  explicit ScopedSession(Seen& seen) : session(Session::start({.script_path = "t.py"})) {
    session.add_sink(std::make_unique<CollectSink>(seen));
  }
  ~ScopedSession() { Session::stop(); }
  Session& session;
};

TEST(Recorder, DisabledWithoutSession) {
  EXPECT_FALSE(enabled());
  EXPECT_EQ(Session::current(), nullptr);
  { SpanScope span(Category::interpreter, StrId{1}); }  // must be a no-op
  detail::record(counter_event(1));                     // dropped: nobody listens
  Seen seen;
  {
    ScopedSession s(seen);
    EXPECT_TRUE(enabled());
    EXPECT_EQ(Session::current(), &s.session);
  }
  EXPECT_TRUE(seen.events.empty());
  EXPECT_EQ(seen.closes, 1);
  EXPECT_FALSE(enabled());
}

TEST(Recorder, StartTwiceIsAnError) {
  Seen seen;
  ScopedSession s(seen);
  EXPECT_THROW(Session::start({}), TraceError);
}

TEST(Recorder, SessionInfoKeepsFieldsAndFillsWallTime) {
  Session& s = Session::start({.script_path = "m.py", .argv = {"m.py", "-x"}, .kiln_version = "0.1"});
  EXPECT_EQ(s.info().script_path, "m.py");
  EXPECT_EQ(s.info().argv.size(), 2u);
  EXPECT_GT(s.info().start_wall_ns, 1'600'000'000'000'000'000);  // after 2020
  Session::stop();
}

TEST(Recorder, MainThreadIsOneAndOthersDiffer) {
  EXPECT_EQ(thread_index(), 1u);
  EXPECT_EQ(thread_index(), 1u);
  uint32_t other = 0;
  std::thread([&] { other = thread_index(); }).join();
  EXPECT_GT(other, 1u);
}

TEST(Recorder, SpansNestAndCarryTheirFields) {
  Seen seen;
  {
    ScopedSession s(seen);
    StrId outer = s.session.strings().intern("compile");
    StrId inner = s.session.strings().intern("capture");
    StrId file = s.session.strings().intern("model.py");
    SpanScope a(Category::compile, outer, Loc{file, 12, 5}, 7);
    { SpanScope b(Category::compile, inner); }
  }
  ASSERT_EQ(seen.events.size(), 2u);
  const Event& child = seen.events[0];  // recorded at scope exit: children first
  const Event& parent = seen.events[1];
  EXPECT_EQ(seen.names[0], "capture");
  EXPECT_EQ(seen.names[1], "compile");
  EXPECT_EQ(parent.kind, EventKind::Span);
  EXPECT_EQ(parent.cat, Category::compile);
  EXPECT_EQ(parent.loc.line, 12);
  EXPECT_EQ(parent.loc.col, 5);
  EXPECT_EQ(parent.graph_id, 7u);
  EXPECT_EQ(parent.tid, 1u);
  EXPECT_LE(parent.ts_ns, child.ts_ns);
  EXPECT_LE(child.ts_ns + child.dur_ns, parent.ts_ns + parent.dur_ns);
}

TEST(Recorder, ManyThreadsKeepPerThreadOrderAndLoseNothing) {
  constexpr int kThreads = 4, kPerThread = 5000;  // several chunks each
  Seen seen;
  {
    ScopedSession s(seen);
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t)
      threads.emplace_back([] {
        for (int i = 0; i < kPerThread; ++i) detail::record(counter_event(i, now_ns()));
      });
    for (auto& t : threads) t.join();
  }
  std::map<uint32_t, std::vector<uint64_t>> by_thread;
  for (const Event& e : seen.events) by_thread[e.tid].push_back(e.a);
  ASSERT_EQ(by_thread.size(), size_t{kThreads});
  for (auto& [tid, seqs] : by_thread) {
    ASSERT_EQ(seqs.size(), size_t{kPerThread}) << "thread " << tid;
    for (int i = 0; i < kPerThread; ++i) ASSERT_EQ(seqs[i], uint64_t(i)) << "thread " << tid;
  }
}

TEST(Recorder, FullChunkIsDeliveredWithoutFlush) {
  Seen seen;
  ScopedSession s(seen);
  for (int i = 0; i < 1024; ++i) s.session.record(counter_event(i));
  EXPECT_EQ(seen.events.size(), 1024u);
  s.session.record(counter_event(1024));
  EXPECT_EQ(seen.events.size(), 1024u);  // the next chunk is still pending
}

TEST(Recorder, StaleChunkIsDeliveredPromptly) {
  Seen seen;
  ScopedSession s(seen);
  s.session.record(counter_event(0, 1'000'000));
  s.session.record(counter_event(1, 2'000'000));
  EXPECT_TRUE(seen.events.empty());
  s.session.record(counter_event(2, 30'000'000));  // 29 ms after the chunk's first event
  EXPECT_EQ(seen.events.size(), 3u);
}

TEST(Recorder, FlushDeliversEveryThreadAndFlushesSinks) {
  Seen seen;
  ScopedSession s(seen);
  s.session.record(counter_event(1));
  std::thread([&] { s.session.record(counter_event(2)); }).join();  // exited: handed over
  EXPECT_EQ(seen.events.size(), 1u);
  s.session.flush();
  EXPECT_EQ(seen.events.size(), 2u);
  EXPECT_EQ(seen.flushes, 1);
}

TEST(Recorder, FlushReachesALiveThreadsPendingEvents) {
  Seen seen;
  ScopedSession s(seen);
  std::mutex mu;
  std::condition_variable cv;
  int stage = 0;
  std::thread worker([&] {
    s.session.record(counter_event(42));
    std::unique_lock lock(mu);
    stage = 1;
    cv.notify_all();
    cv.wait(lock, [&] { return stage == 2; });
  });
  {
    std::unique_lock lock(mu);
    cv.wait(lock, [&] { return stage == 1; });
  }
  s.session.flush();  // the worker is alive and has not handed anything over
  ASSERT_EQ(seen.events.size(), 1u);
  EXPECT_EQ(seen.events[0].a, 42u);
  {
    std::lock_guard lock(mu);
    stage = 2;
  }
  cv.notify_all();
  worker.join();
  s.session.flush();
  EXPECT_EQ(seen.events.size(), 1u);  // delivered exactly once
}

TEST(Recorder, EventsNeverLeakIntoTheNextSession) {
  Seen first, second;
  {
    ScopedSession s(first);
    s.session.record(counter_event(1));
  }
  detail::record(counter_event(2));  // after stop: discarded
  {
    ScopedSession s(second);
    s.session.record(counter_event(3));
  }
  ASSERT_EQ(first.events.size(), 1u);
  ASSERT_EQ(second.events.size(), 1u);
  EXPECT_EQ(second.events[0].a, 3u);
}

TEST(Recorder, AFailingSinkCountsDropsAndOthersStillReceive) {
  Seen seen;
  Session& s = Session::start({});
  s.add_sink(std::make_unique<ThrowingSink>());
  s.add_sink(std::make_unique<CollectSink>(seen));
  s.record(counter_event(1));
  s.record(counter_event(2));
  s.flush();
  EXPECT_EQ(s.dropped(), 2u);
  s.note_dropped(5);
  EXPECT_EQ(s.dropped(), 7u);
  EXPECT_EQ(seen.events.size(), 2u);
  Session::stop();
}

TEST(Recorder, InternedNameIsCachedPerSession) {
  static InternedName kName("forward");
  EXPECT_EQ(kName.id(), 0u);  // no session
  Seen seen;
  {
    ScopedSession s(seen);
    s.session.strings().intern("padding");  // shifts ids between sessions
    StrId id = kName.id();
    EXPECT_EQ(s.session.strings().str(id), "forward");
    EXPECT_EQ(kName.id(), id);
    { SpanScope span(Category::interpreter, kName); }
  }
  ASSERT_EQ(seen.names.size(), 1u);
  EXPECT_EQ(seen.names[0], "forward");
  Seen again;
  ScopedSession s(again);
  EXPECT_EQ(s.session.strings().str(kName.id()), "forward");
}

TEST(Recorder, NowIsMonotone) {
  int64_t prev = now_ns();
  for (int i = 0; i < 1000; ++i) {
    int64_t t = now_ns();
    ASSERT_GE(t, prev);
    prev = t;
  }
}

TEST(Recorder, ClockTracksSteadyClockDuringASession) {
  Session::start({});
  auto steady0 = std::chrono::steady_clock::now();
  int64_t t0 = now_ns();
  std::this_thread::sleep_for(std::chrono::milliseconds(30));
  int64_t t1 = now_ns();
  auto steady_ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
                       std::chrono::steady_clock::now() - steady0)
                       .count();
  Session::stop();
  EXPECT_GE(t0, 0);
  EXPECT_LT(t0, 1'000'000'000);  // measured from the session start
  EXPECT_NEAR(static_cast<double>(t1 - t0), static_cast<double>(steady_ns), steady_ns * 0.01);
}

TEST(StringTable, InternsOnceAndIsThreadSafe) {
  StringTable table;
  EXPECT_EQ(table.intern(""), 0u);
  EXPECT_EQ(table.str(0), "");
  EXPECT_EQ(table.str(999), "");
  StrId a = table.intern("matmul");
  EXPECT_EQ(table.intern("matmul"), a);
  EXPECT_EQ(table.str(a), "matmul");
  std::vector<std::thread> threads;
  std::vector<std::vector<StrId>> ids(4);
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      for (int i = 0; i < 500; ++i) ids[t].push_back(table.intern(std::string("s").append(std::to_string(i))));
    });
  for (auto& t : threads) t.join();
  for (int t = 1; t < 4; ++t) EXPECT_EQ(ids[t], ids[0]);
  EXPECT_EQ(table.size(), 502u);  // "", "matmul", s0..s499
  EXPECT_EQ(table.str(ids[0][7]), "s7");
}

TEST(EventNames, KindsAndCategories) {
  EXPECT_STREQ(event_kind_name(EventKind::GraphBreak), "GraphBreak");
  EXPECT_STREQ(event_kind_name(EventKind::Log), "Log");
  EXPECT_STREQ(category_name(Category::interpreter), "interpreter");
  EXPECT_STREQ(category_name(Category::log), "log");
}

}  // namespace
}  // namespace kiln::trace
