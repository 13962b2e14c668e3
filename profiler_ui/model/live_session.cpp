// The live session's reader thread: poll, feed the builder, publish a
// snapshot when the rate cap allows (and always at the end).
#include "profiler_ui/model/live_session.h"

#include "profiler_ui/model/reader_feed.h"

namespace kiln::inspect {

const char* live_state_name(LiveState s) {
  switch (s) {
    case LiveState::Waiting: return "waiting";
    case LiveState::Connected: return "connected";
    case LiveState::Ended: return "ended";
    case LiveState::Error: return "error";
    case LiveState::Stopped: return "stopped";
  }
  return "unknown";
}

LiveSession::LiveSession(Options options) : options_(options) {}

std::unique_ptr<LiveSession> LiveSession::attach(trace::TraceReader reader, Options options) {
  std::unique_ptr<LiveSession> s(new LiveSession(options));
  s->status_.state = LiveState::Connected;
  s->status_.peer = reader.name();
  s->thread_ = std::thread([p = s.get(), r = std::move(reader)]() mutable { p->run(std::move(r), std::nullopt); });
  return s;
}

std::unique_ptr<LiveSession> LiveSession::listen(trace::TraceListener listener, Options options) {
  std::unique_ptr<LiveSession> s(new LiveSession(options));
  s->status_.message = "waiting for `kiln run --stream " + listener.address() + "`";
  s->thread_ = std::thread([p = s.get(), l = std::move(listener)]() mutable { p->run(std::nullopt, std::move(l)); });
  return s;
}

LiveSession::~LiveSession() { stop(); }

void LiveSession::stop() {
  stop_.store(true);
  if (thread_.joinable()) thread_.join();
}

std::shared_ptr<const Session> LiveSession::snapshot() const {
  std::lock_guard<std::mutex> lock(mu_);
  return snapshot_;
}

LiveStatus LiveSession::status() const {
  std::lock_guard<std::mutex> lock(mu_);
  return status_;
}

bool LiveSession::finished() const {
  std::lock_guard<std::mutex> lock(mu_);
  return status_.state == LiveState::Ended || status_.state == LiveState::Error ||
         status_.state == LiveState::Stopped;
}

void LiveSession::set_state(LiveState s, std::string message) {
  std::lock_guard<std::mutex> lock(mu_);
  status_.state = s;
  status_.message = std::move(message);
}

// Builds the snapshot outside the lock; the lock only swaps the pointer.
void LiveSession::publish(SessionBuilder& b) {
  std::shared_ptr<const Session> snap = b.publish();
  std::lock_guard<std::mutex> lock(mu_);
  snapshot_ = std::move(snap);
  status_.events = b.event_count();
  status_.dropped = snapshot_->dropped();
  ++status_.snapshots;
}

void LiveSession::run(std::optional<trace::TraceReader> reader, std::optional<trace::TraceListener> listener) {
  try {
    while (!reader && !stop_.load()) {
      reader = listener->accept(options_.poll_timeout * 5);
      if (reader) {
        std::lock_guard<std::mutex> lock(mu_);
        status_.state = LiveState::Connected;
        status_.peer = reader->name();
        status_.message = "connected";
      }
    }
  } catch (const std::exception& e) {
    set_state(LiveState::Error, std::string("accepting a connection failed: ") + e.what());
    return;
  }
  if (!reader) {
    set_state(LiveState::Stopped, "stopped before a writer connected");
    return;
  }
  SessionBuilder b;
  auto last_publish = std::chrono::steady_clock::now();
  bool dirty = false;
  try {
    while (!stop_.load()) {
      trace::ReadResult r = reader->poll(options_.poll_timeout);
      feed_builder(*reader, r, b, SourceFormat::Live);
      dirty = dirty || r != trace::ReadResult::Pending;
      if (r == trace::ReadResult::End) {
        publish(b);
        set_state(LiveState::Ended, "the session ended");
        return;
      }
      auto now = std::chrono::steady_clock::now();
      if (dirty && reader->has_session() && now - last_publish >= options_.publish_every) {
        publish(b);
        last_publish = now;
        dirty = false;
      }
    }
  } catch (const std::exception& e) {
    b.add_load_error(e.what());
    if (reader->has_session()) publish(b);
    set_state(LiveState::Error, e.what());
    return;
  }
  if (reader->has_session()) publish(b);
  set_state(LiveState::Stopped, "stopped by the user");
}

}  // namespace kiln::inspect
