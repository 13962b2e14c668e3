// The live stream over loopback: StreamSink -> TCP -> TraceReader round
// trips, the address policy, and the faults the runtime must survive without
// crashing or stalling (closed port, peer that leaves, never reads, is slow,
// or sends junk), with an exact count of what was dropped.
#include <gtest/gtest.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <future>
#include <thread>

#include "tests/traces/protocol_test_util.h"
#include "traces/protocol.h"
#include "traces/kilntrace_sink.h"
#include "traces/reader.h"
#include "traces/socket.h"
#include "traces/stream_sink.h"

namespace kiln::trace {
namespace {

using namespace std::chrono_literals;
using test_util::collect;
using test_util::Collected;
using test_util::describe_all;
using test_util::sample_events;
using test_util::sample_info;
using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

StreamOptions options_for(const TraceListener& l) {
  StreamOptions o;
  o.endpoint = parse_endpoint(l.address());
  return o;
}

// A port nobody listens on (bound, then released).
uint16_t closed_port() {
  TraceListener l = TraceListener::listen("127.0.0.1", 0);
  return l.port();
}

// Sends `total` events in batches of `batch` (the recorder's chunk size),
// pausing `pause` between batches like a running script; returns the slowest
// on_events call in seconds.
double send_events(StreamSink& sink, StringTable& strings, uint64_t total, uint64_t batch,
                   std::chrono::microseconds pause = {}) {
  std::vector<Event> events = sample_events(strings, batch);
  double slowest = 0;
  for (uint64_t sent = 0; sent < total; sent += batch) {
    auto t = Clock::now();
    sink.on_events(std::span(events).first(std::min(batch, total - sent)), strings);
    slowest = std::max(slowest, seconds_since(t));
    if (pause.count() > 0) std::this_thread::sleep_for(pause);
  }
  return slowest;
}

// Counts the events a reader yields until END or an error.
uint64_t count_events(TraceReader& r, std::string* error = nullptr) {
  uint64_t n = 0;
  try {
    for (ReadResult res; (res = r.next()) != ReadResult::End;)
      if (res == ReadResult::Events) n += r.events().size();
  } catch (const TraceError& e) {
    if (error) *error = e.what();
  }
  return n;
}

// ---------------------------------------------------------------- addresses

TEST(StreamAddress, ParsesLiteralsAndLocalhost) {
  Endpoint a = parse_endpoint("127.0.0.1:9000");
  EXPECT_EQ(a.host, "127.0.0.1");
  EXPECT_EQ(a.port, 9000);
  Endpoint b = parse_endpoint("[::1]:65535");
  EXPECT_EQ(b.host, "::1");
  EXPECT_EQ(b.str(), "[::1]:65535");
  EXPECT_EQ(parse_endpoint("localhost:1").host, "localhost");
  for (const char* bad : {"127.0.0.1", "127.0.0.1:", ":9000", "127.0.0.1:65536", "::1:9000",
                          "127.0.0.1:9x", "example.com:9000", "[::1]:-1"})
    EXPECT_THROW(parse_endpoint(bad), TraceError) << bad;
}

TEST(StreamAddress, OnlyLoopbackUnlessAllowed) {
  EXPECT_TRUE(is_loopback_host("127.0.0.1"));
  EXPECT_TRUE(is_loopback_host("127.8.9.10"));
  EXPECT_TRUE(is_loopback_host("::1"));
  EXPECT_TRUE(is_loopback_host("::ffff:127.0.0.1"));
  EXPECT_TRUE(is_loopback_host("localhost"));
  EXPECT_FALSE(is_loopback_host("10.0.0.1"));
  EXPECT_FALSE(is_loopback_host("0.0.0.0"));
  EXPECT_FALSE(is_loopback_host("::"));
  StreamOptions o;
  o.endpoint = parse_endpoint("192.0.2.1:9");  // TEST-NET: must be refused before any packet
  auto t = Clock::now();
  try {
    StreamSink sink(o, sample_info());
    FAIL() << "connected to a remote address without allow_remote";
  } catch (const TraceError& e) {
    EXPECT_NE(std::string(e.what()).find("non-loopback address 192.0.2.1:9"), std::string::npos)
        << e.what();
    EXPECT_NE(std::string(e.what()).find("--stream-allow-remote"), std::string::npos);
  }
  EXPECT_LT(seconds_since(t), 0.5);
  EXPECT_THROW(TraceListener::listen("0.0.0.0", 0), TraceError);
  EXPECT_NO_THROW(TraceListener::listen("0.0.0.0", 0, /*allow_remote=*/true));
}

TEST(StreamFaults, ConnectToAClosedPortFailsFastAndClearly) {
  StreamOptions o;
  o.endpoint = {"127.0.0.1", closed_port()};
  auto t = Clock::now();
  try {
    StreamSink sink(o, sample_info());
    FAIL() << "connected to a closed port";
  } catch (const TraceError& e) {
    EXPECT_NE(std::string(e.what()).find("cannot connect to 127.0.0.1:" +
                                         std::to_string(o.endpoint.port)),
              std::string::npos)
        << e.what();
    EXPECT_NE(std::string(e.what()).find("refused"), std::string::npos) << e.what();
  }
  EXPECT_LT(seconds_since(t), 0.5);
  // With --stream-wait it retries for the wait, then gives up.
  o.connect_wait = 300ms;
  t = Clock::now();
  EXPECT_THROW(StreamSink(o, sample_info()), TraceError);
  EXPECT_GE(seconds_since(t), 0.3);
  EXPECT_LT(seconds_since(t), 2.0);
}

TEST(StreamFaults, StreamWaitConnectsToAnInspectorThatStartsLate) {
  uint16_t port = closed_port();
  auto inspector = std::async(std::launch::async, [port] {
    std::this_thread::sleep_for(300ms);
    TraceListener l = TraceListener::listen("127.0.0.1", port);
    std::optional<TraceReader> r = l.accept(5s);
    return r ? collect(*r) : Collected{};
  });
  StreamOptions o;
  o.endpoint = {"127.0.0.1", port};
  o.connect_wait = 5s;
  StreamSink sink(o, sample_info());
  sink.close();
  Collected c = inspector.get();
  EXPECT_TRUE(c.ended) << c.error;
  EXPECT_EQ(c.info.script_path, sample_info().script_path);
}

// ---------------------------------------------------------------- round trips

TEST(Stream, EventsRoundTripOverLoopback) {
  for (const char* host : {"127.0.0.1", "::1"}) {
    TraceListener l = TraceListener::listen(host, 0);
    auto inspector = std::async(std::launch::async, [&l] {
      std::optional<TraceReader> r = l.accept(5s);
      return r ? collect(*r) : Collected{};
    });
    StringTable strings;
    std::vector<Event> all;
    {
      StreamSink sink(options_for(l), sample_info());
      for (int b = 0; b < 20; ++b) {
        std::vector<Event> batch = sample_events(strings, 50, 50 * b);
        sink.on_events(batch, strings);
        all.insert(all.end(), batch.begin(), batch.end());
      }
      sink.close();
      EXPECT_EQ(sink.dropped(), 0u);
    }
    Collected c = inspector.get();
    ASSERT_TRUE(c.ended) << host << ": " << c.error;
    EXPECT_EQ(c.info.argv, sample_info().argv);
    EXPECT_EQ(c.info.source_text, sample_info().source_text);
    EXPECT_EQ(c.events, describe_all(all, strings));
    EXPECT_EQ(c.dropped, 0u);
  }
}

TEST(Stream, ReaderHandlesBytesArrivingInPieces) {
  StringTable strings;
  std::string bytes;
  append_header(bytes);
  append_hello(bytes, sample_info());
  BatchEncoder enc;
  std::vector<Event> ev = sample_events(strings, 4);
  enc.encode(enc.plan(ev, strings), ev, strings, bytes);
  append_end(bytes);

  TraceListener l = TraceListener::listen("127.0.0.1", 0);
  std::thread writer([&] {
    Fd fd = connect_tcp(parse_endpoint(l.address()), false, 0ms);
    for (size_t i = 0; i < bytes.size(); i += 7) {
      std::string_view piece = std::string_view(bytes).substr(i, 7);
      while (send_nosignal(fd.get(), piece.data(), piece.size()) < 0) std::this_thread::yield();
      std::this_thread::sleep_for(200us);
    }
  });
  std::optional<TraceReader> r = l.accept(5s);
  ASSERT_TRUE(r);
  int pending = 0;
  std::vector<ReadResult> results;
  for (ReadResult res = ReadResult::Pending; res != ReadResult::End;) {
    res = r->poll(1ms);
    if (res == ReadResult::Pending) ++pending;
    else results.push_back(res);
  }
  writer.join();
  EXPECT_GT(pending, 0);  // poll() came back while frames were incomplete
  EXPECT_EQ(results, (std::vector<ReadResult>{ReadResult::Session, ReadResult::Strings,
                                               ReadResult::Events, ReadResult::End}));
}

TEST(Stream, ListenerAcceptTimesOut) {
  TraceListener l = TraceListener::listen("127.0.0.1", 0);
  auto t = Clock::now();
  EXPECT_FALSE(l.accept(100ms).has_value());
  EXPECT_GE(seconds_since(t), 0.09);
}

TEST(StreamFaults, ReaderRejectsAPeerSpeakingSomethingElse) {
  TraceListener l = TraceListener::listen("127.0.0.1", 0);
  std::thread client([&] {
    Fd fd = connect_tcp(parse_endpoint(l.address()), false, 0ms);
    const char req[] = "GET / HTTP/1.1\r\n\r\n";
    send_nosignal(fd.get(), req, sizeof req - 1);
    std::this_thread::sleep_for(100ms);
  });
  std::optional<TraceReader> r = l.accept(5s);
  ASSERT_TRUE(r);
  Collected c = collect(*r);
  client.join();
  EXPECT_NE(c.error.find("bad magic at byte 0"), std::string::npos) << c.error;
}

TEST(Stream, LiveStreamAndRecordingOfOneSessionAgree) {
  // The recorder feeds both sinks; the inspector must see the same session
  // live and from the .kilntrace file.
  std::string path = (std::filesystem::temp_directory_path() /
                      ("kiln_" + std::to_string(::getpid()) + "_session.kilntrace"))
                         .string();
  TraceListener l = TraceListener::listen("127.0.0.1", 0);
  auto inspector = std::async(std::launch::async, [&l] {
    std::optional<TraceReader> r = l.accept(5s);
    return r ? collect(*r) : Collected{};
  });
  Session& session = Session::start(sample_info());
  session.add_sink(std::make_unique<StreamSink>(options_for(l), session.info()));
  session.add_sink(std::make_unique<KilntraceSink>(path, session.info()));
  auto work = [](int n) {
    static InternedName kStep("step");
    for (int i = 0; i < n; ++i) SpanScope span(Category::interpreter, kStep, Loc{0, i + 1, 1});
  };
  std::thread other(work, 300);
  work(200);
  other.join();
  Session::stop();
  Collected live = inspector.get();
  TraceReader file = TraceReader::open_file(path);
  Collected recorded = collect(file);
  ASSERT_TRUE(live.ended) << live.error;
  ASSERT_TRUE(recorded.ended) << recorded.error;
  EXPECT_EQ(live.events.size(), 500u);
  EXPECT_EQ(live.events, recorded.events);
  EXPECT_EQ(live.info.start_wall_ns, recorded.info.start_wall_ns);
  EXPECT_NE(live.info.start_wall_ns, 0);
  EXPECT_NE(live.events.at(0).find("name='step'"), std::string::npos) << live.events.at(0);
  std::filesystem::remove(path);
}

// ---------------------------------------------------------------- faults on the sink side

TEST(StreamFaults, PeerClosingEarlyNeitherCrashesNorStalls) {
  TraceListener l = TraceListener::listen("127.0.0.1", 0);
  auto inspector = std::async(std::launch::async, [&l] {
    std::optional<TraceReader> r = l.accept(5s);
    if (r) r->next();  // read the handshake, then hang up
  });
  StreamOptions o = options_for(l);
  o.max_queue_bytes = 1 << 20;
  StreamSink sink(o, sample_info());
  inspector.get();
  StringTable strings;
  // Sends to a closed socket: EPIPE/ECONNRESET, never SIGPIPE.
  auto deadline = Clock::now() + 5s;
  uint64_t sent = 0;
  while (!sink.peer_gone() && Clock::now() < deadline) {
    send_events(sink, strings, 1000, 1000);
    sent += 1000;
    std::this_thread::sleep_for(1ms);
  }
  EXPECT_TRUE(sink.peer_gone());
  double slowest = send_events(sink, strings, 100000, 1000);  // all dropped at once now
  sent += 100000;
  EXPECT_LT(slowest, 0.05);
  auto t = Clock::now();
  sink.close();
  EXPECT_LT(seconds_since(t), 0.5);
  EXPECT_GE(sink.dropped(), 100000u);
  EXPECT_LE(sink.dropped(), sent);
}

TEST(StreamFaults, PeerThatNeverReadsBoundsMemoryAndCountsDropsExactly) {
  constexpr uint64_t kEvents = 1'000'000;
  TraceListener l = TraceListener::listen("127.0.0.1", 0);
  StreamOptions o = options_for(l);
  o.max_queue_bytes = 1 << 20;
  o.close_wait = 200ms;
  StreamSink sink(o, sample_info());
  std::optional<TraceReader> r = l.accept(5s);  // accepted, but not read until the end
  ASSERT_TRUE(r);
  StringTable strings;
  // Spread over ~0.3 s so the sender fills the socket buffers and blocks,
  // and close() has to give up on a stuck queue.
  double slowest = send_events(sink, strings, kEvents, 1000, 300us);
  EXPECT_LT(slowest, 0.05);  // the runtime never waits for the peer
  auto t = Clock::now();
  sink.close();
  EXPECT_GE(seconds_since(t), 0.15);  // waited for the queue to drain...
  EXPECT_LT(seconds_since(t), 1.0);   // ...but only about close_wait
  EXPECT_LE(sink.peak_queued_bytes(), o.max_queue_bytes + 4096);  // + the handshake
  EXPECT_GT(sink.dropped(), kEvents / 2);
  // Whatever reached the socket in whole frames is readable; the rest is counted.
  std::string error;
  uint64_t received = count_events(*r, &error);
  EXPECT_EQ(received + sink.dropped(), kEvents) << error;
  EXPECT_GT(received, 0u);
  EXPECT_NE(error.find("truncated"), std::string::npos) << error;  // END never got out
}

TEST(StreamFaults, StringsOfARefusedBatchGoOutWithALaterOne) {
  TraceListener l = TraceListener::listen("127.0.0.1", 0);
  StreamOptions o = options_for(l);
  o.max_queue_bytes = 256 << 10;
  StreamSink sink(o, sample_info());
  std::optional<TraceReader> r = l.accept(5s);
  ASSERT_TRUE(r);
  // Fill the socket and the queue while nobody reads.
  StringTable strings;
  uint64_t sent = 0;
  while (sink.dropped() == 0) {
    send_events(sink, strings, 1000, 1000);
    sent += 1000;
  }
  // A batch as big as the one just refused, whose name is first used here.
  // The sender may free room between that refusal and this batch, so retry
  // with a fresh name until one such batch is refused as a whole.
  std::vector<Event> late(1000);
  std::string late_name;
  for (int attempt = 0;; ++attempt) {
    ASSERT_LT(attempt, 100) << "the full queue never refused a batch";
    late_name = "late name " + std::to_string(attempt);
    for (Event& e : late) e.name = strings.intern(late_name);
    uint64_t before = sink.dropped();
    sink.on_events(late, strings);
    sent += late.size();
    if (sink.dropped() == before + late.size()) break;
  }
  auto inspector = std::async(std::launch::async, [&] {
    uint64_t n = 0;
    std::string names;
    for (ReadResult res; (res = r->next()) != ReadResult::End;)
      if (res == ReadResult::Events)
        for (const Event& e : r->events()) {
          ++n;
          if (e.text) names = std::string(r->strings().str(e.name)) + "/" +
                              std::string(r->strings().str(e.text));
        }
    return std::pair{n, names};
  });
  // Once the reader has drained the queue, a batch using the refused string
  // (and a new one) must carry both.
  Event again = late[0];
  again.text = strings.intern("newer text");
  for (auto deadline = Clock::now() + 5s; Clock::now() < deadline;) {
    uint64_t before = sink.dropped();
    sink.on_events(std::span(&again, 1), strings);
    ++sent;
    if (sink.dropped() == before) break;  // accepted
    std::this_thread::sleep_for(10ms);
  }
  sink.close();
  auto [received, names] = inspector.get();
  EXPECT_EQ(names, late_name + "/newer text");
  EXPECT_EQ(received + sink.dropped(), sent);
}

TEST(StreamFaults, SlowReaderGetsEverythingNotCountedAsDropped) {
  constexpr uint64_t kEvents = 1'000'000;
  TraceListener l = TraceListener::listen("127.0.0.1", 0);
  StreamOptions o = options_for(l);
  o.max_queue_bytes = 1 << 20;
  o.close_wait = 5s;
  std::atomic<bool> done_sending{false};
  auto inspector = std::async(std::launch::async, [&] {
    std::optional<TraceReader> r = l.accept(5s);
    if (!r) return std::pair<uint64_t, Collected>{};
    // Slow while the script runs: one frame per millisecond.
    uint64_t n = 0;
    Collected c;
    try {
      for (ReadResult res; (res = r->next()) != ReadResult::End;) {
        if (res == ReadResult::Events) n += r->events().size();
        if (!done_sending) std::this_thread::sleep_for(1ms);
      }
      c.ended = true;
    } catch (const TraceError& e) {
      c.error = e.what();
    }
    c.dropped = r->dropped();
    return std::pair{n, c};
  });
  StreamSink sink(o, sample_info());
  StringTable strings;
  double slowest = send_events(sink, strings, kEvents, 1000, 100us);
  done_sending = true;
  sink.close();
  auto [received, c] = inspector.get();
  EXPECT_LT(slowest, 0.05);
  ASSERT_TRUE(c.ended) << c.error;
  EXPECT_GT(sink.dropped(), 0u);
  EXPECT_EQ(received + sink.dropped(), kEvents);
  EXPECT_EQ(c.dropped, sink.dropped());  // the final DROPPED frame carries the exact total
  EXPECT_LE(sink.peak_queued_bytes(), o.max_queue_bytes + 4096);
}

TEST(StreamFaults, PeerSendingJunkIsIgnored) {
  // A raw listener, so the test can write into the sink's socket before
  // handing it to a TraceReader.
  Fd listener = listen_tcp({"127.0.0.1", 0}, false);
  auto inspector = std::async(std::launch::async, [&] {
    Fd fd = accept_tcp(listener.get(), 5s);
    if (!fd.valid()) return Collected{};
    std::string junk(256 << 10, '\xa5');
    for (size_t off = 0; off < junk.size();) {
      long n = send_nosignal(fd.get(), junk.data() + off, junk.size() - off);
      if (n <= 0) break;  // the sink's buffer is full: enough junk
      off += static_cast<size_t>(n);
    }
    TraceReader r = TraceReader::from_socket(fd.release(), "junk peer");
    return collect(r);
  });
  StreamOptions o;
  o.endpoint = {"127.0.0.1", local_port(listener.get())};
  StringTable strings;
  std::vector<Event> all;
  {
    StreamSink sink(o, sample_info());
    for (int b = 0; b < 50; ++b) {
      std::vector<Event> batch = sample_events(strings, 200, 200 * b);
      sink.on_events(batch, strings);
      all.insert(all.end(), batch.begin(), batch.end());
      std::this_thread::sleep_for(1ms);
    }
    sink.close();
    EXPECT_EQ(sink.dropped(), 0u);
    EXPECT_FALSE(sink.peer_gone());
  }
  Collected c = inspector.get();
  ASSERT_TRUE(c.ended) << c.error;
  EXPECT_EQ(c.events, describe_all(all, strings));
}

}  // namespace
}  // namespace kiln::trace
