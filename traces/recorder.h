// Recording events: the session, its sinks, per-thread buffers and SpanScope.
//
// A Session exists while something listens (a trace file, a stream, logs).
// Threads append events to their own fixed-size chunk with no lock and no
// allocation; a chunk goes to the hub (one mutex) only when it fills, when it
// holds events older than ~20 ms (so a live viewer is never far behind), at
// flush() and at stop(). The hub passes events to every sink, in per-thread
// order (threads interleave chunk by chunk). When no session exists the whole
// cost of an instrumentation point is enabled(): one relaxed atomic load.
//
// Threading contract: record()/SpanScope are safe from any thread at any time.
// start()/stop() are called by one controlling thread (the runner); events a
// thread records while stop() runs are discarded, never delivered late.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "traces/event.h"

namespace kiln::trace {

// Steady clock, nanoseconds since the current session started (since process
// start when no session has run yet).
int64_t now_ns();

// Small stable id per thread: 1 for the main thread, then 2, 3, ... in order
// of first use. Never reused.
uint32_t thread_index();

// Names the calling thread in trace viewers. The runner names the thread
// that runs the script "interpreter" (it is not the process's main thread,
// because scripts get a larger stack); unnamed threads keep the default
// names (thread 1 "interpreter", others "worker N").
void set_thread_name(const std::string& name);
std::string thread_name(uint32_t tid);  // "" when the thread was not named

// What a session is about; the stream and .kilntrace handshake carry it.
struct SessionInfo {
  std::string script_path;
  std::vector<std::string> argv;
  std::string kiln_version;
  std::string source_text;     // the script's source, so viewers can show lines
  int64_t start_wall_ns = 0;   // Unix time in ns; start() fills it when 0
};

// A consumer of events. All calls on one sink are serialized by the hub lock
// (never two at once), but may come from any recording thread.
class Sink {
 public:
  virtual ~Sink() = default;
  // Events of one thread in recording order; threads interleaved by chunk.
  // Runs with the hub lock held: must not record events nor call
  // Session::flush()/stop() (report losses with Session::note_dropped()).
  virtual void on_events(std::span<const Event> events, const StringTable& strings) = 0;
  virtual void flush() {}  // make everything written durable (file flush / send)
  virtual void close() {}  // session end: finish the file / stream
};

class Session {
 public:
  static Session* current();                 // null when no session (recording disabled)
  static Session& start(SessionInfo info);   // throws TraceError if one is running
  static void stop();                        // delivers all pending events, closes sinks, destroys the session

  void add_sink(std::unique_ptr<Sink> s);
  StringTable& strings() { return strings_; }
  const SessionInfo& info() const { return info_; }
  uint64_t generation() const { return generation_; }  // unique per session, > 0

  void record(const Event& e);               // appends to the calling thread's chunk
  void flush();                              // hand every thread's pending events to the sinks, then flush them
  uint64_t dropped() const { return dropped_.load(std::memory_order_relaxed); }
  void note_dropped(uint64_t n) { dropped_.fetch_add(n, std::memory_order_relaxed); }

  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

 private:
  friend struct Hub;
  Session(SessionInfo info, uint64_t generation);
  ~Session();

  SessionInfo info_;
  uint64_t generation_;
  StringTable strings_;
  std::vector<std::unique_ptr<Sink>> sinks_;  // guarded by the hub lock
  std::atomic<uint64_t> dropped_{0};
};

namespace detail {
inline std::atomic<bool> g_enabled{false};
void record(const Event& e);  // the hot path behind Session::record and SpanScope
}  // namespace detail

// True while a session is recording. The only cost when nothing listens.
inline bool enabled() { return detail::g_enabled.load(std::memory_order_relaxed); }

// A name interned lazily into the current session, cached across calls:
// `static InternedName kName("compile");` then `kName.id()` costs one atomic
// load when the cache is warm. Re-interns after a new session starts.
class InternedName {
 public:
  constexpr explicit InternedName(const char* s) : s_(s) {}
  StrId id() const;  // 0 when no session
  const char* c_str() const { return s_; }

 private:
  const char* s_;
  mutable std::atomic<uint64_t> cache_{0};  // (generation << 32) | id
};

// RAII span: records a Span event (cat, name, loc) with its start time and
// duration when the scope exits. Does nothing when !enabled() at entry.
class SpanScope {
 public:
  SpanScope(Category cat, StrId name, Loc loc = {}, uint64_t graph_id = 0) {
    if (enabled()) begin(cat, name, loc, graph_id);
  }
  SpanScope(Category cat, const InternedName& name, Loc loc = {}, uint64_t graph_id = 0) {
    if (enabled()) begin(cat, name.id(), loc, graph_id);
  }
  ~SpanScope() {
    if (active_) end();
  }
  SpanScope(const SpanScope&) = delete;
  SpanScope& operator=(const SpanScope&) = delete;

 private:
  void begin(Category cat, StrId name, Loc loc, uint64_t graph_id);
  void end();

  // Only active_ is set when disabled, so a disabled span costs one branch.
  bool active_ = false;
  Category cat_;
  StrId name_;
  StrId file_;
  int32_t line_, col_;
  uint64_t graph_id_;
  int64_t start_ns_;
};

}  // namespace kiln::trace
