// A session that is still running: a reader thread polls a TraceReader (a
// socket from `kiln run --stream`) and publishes immutable snapshots for the
// UI at most every `publish_every`. The UI calls snapshot() each frame; it
// takes a mutex only to copy a shared_ptr, so the UI never blocks the reader
// for long, and the reader never blocks the script (the runtime's stream sink
// drops events rather than wait; drops show in Session::dropped()).
//
//   auto live = LiveSession::listen(TraceListener::listen("127.0.0.1", 0));
//   ... every frame:
//   std::shared_ptr<const Session> s = live->snapshot();   // may be null before HELLO
//   LiveStatus st = live->status();                          // banner text
#pragma once

#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "profiler_ui/model/session.h"
#include "traces/reader.h"

namespace kiln::inspect {

enum class LiveState : uint8_t {
  Waiting,    // listening, no writer connected yet
  Connected,  // events arriving
  Ended,      // the writer sent END: the session is complete
  Error,      // the stream broke (truncated, malformed, connection lost): see message
  Stopped,    // stop() was called before the session ended
};
const char* live_state_name(LiveState s);  // "waiting", "connected", ...

struct LiveStatus {
  LiveState state = LiveState::Waiting;
  std::string message;     // for Error: what broke and where; else a short status line
  std::string peer;        // "127.0.0.1:PORT" of the writer once connected
  uint64_t events = 0;     // received so far
  uint64_t dropped = 0;    // reported lost by the writer
  uint64_t snapshots = 0;  // snapshots published so far
};

class LiveSession {
 public:
  struct Options {
    std::chrono::milliseconds publish_every{100};  // snapshot rate cap
    std::chrono::milliseconds poll_timeout{20};    // how long one poll may wait
  };

  // Reads an already connected reader on a new thread.
  static std::unique_ptr<LiveSession> attach(trace::TraceReader reader, Options options);
  static std::unique_ptr<LiveSession> attach(trace::TraceReader reader) { return attach(std::move(reader), Options{}); }
  // Waits (on the thread) for one writer on `listener`, then reads it.
  static std::unique_ptr<LiveSession> listen(trace::TraceListener listener, Options options);
  static std::unique_ptr<LiveSession> listen(trace::TraceListener listener) { return listen(std::move(listener), Options{}); }

  ~LiveSession();  // stops and joins the thread
  LiveSession(const LiveSession&) = delete;
  LiveSession& operator=(const LiveSession&) = delete;

  // The latest published snapshot; null until the HELLO arrived.
  std::shared_ptr<const Session> snapshot() const;
  LiveStatus status() const;
  // True once the session ended, broke or was stopped (the last snapshot is final).
  bool finished() const;
  // Asks the thread to stop and waits for it (a final snapshot is published).
  void stop();

 private:
  LiveSession(Options options);
  void run(std::optional<trace::TraceReader> reader, std::optional<trace::TraceListener> listener);
  void publish(SessionBuilder& b);
  void set_state(LiveState s, std::string message);

  Options options_;
  mutable std::mutex mu_;
  std::shared_ptr<const Session> snapshot_;  // guarded by mu_
  LiveStatus status_;                        // guarded by mu_
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

}  // namespace kiln::inspect
