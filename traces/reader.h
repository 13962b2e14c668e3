// The client library of the Kiln trace protocol: reads a .kilntrace file or a
// live stream (the inspector listens, `kiln run --stream` connects) and yields
// the session info, events with their strings, drop counts and the end.
// Incremental: poll() decodes at most one frame and never waits past its
// timeout, so a UI thread can call it between repaints.
//
//   auto listener = TraceListener::listen("127.0.0.1", 0);
//   std::optional<TraceReader> r = listener.accept(5s);
//   while (r->next() != ReadResult::End)
//     for (const Event& e : r->events()) show(e, r->strings().str(e.name));
//
// Every malformed input (truncation, bad magic, unknown version, oversized or
// unknown frame, undefined string id) raises TraceError naming the byte offset.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>

#include "traces/event.h"
#include "traces/recorder.h"
#include "traces/socket.h"

namespace kiln::trace {

// What one step of reading produced.
enum class ReadResult : uint8_t {
  Pending,  // no complete frame arrived within the timeout (sockets only)
  Session,  // the handshake: session() is now valid
  Strings,  // new strings were added to strings()
  Events,   // events() holds a new batch
  Dropped,  // dropped() changed: the writer reports lost events
  End,      // the session ended cleanly; every later call returns End too
};

class TraceReader {
 public:
  static TraceReader open_file(const std::string& path);  // throws TraceError
  static TraceReader from_bytes(std::string bytes, std::string name = "<memory>");
  // Takes ownership of a connected stream socket.
  static TraceReader from_socket(int fd, std::string peer);

  TraceReader(TraceReader&&) noexcept;
  TraceReader& operator=(TraceReader&&) noexcept;
  ~TraceReader();

  // Decodes at most one frame, waiting at most `timeout` for bytes (negative:
  // forever). A stream that ends before END throws TraceError ("truncated").
  ReadResult poll(std::chrono::milliseconds timeout);
  ReadResult next() { return poll(std::chrono::milliseconds(-1)); }

  bool has_session() const;
  const SessionInfo& session() const;
  // The last Events batch; string ids refer to strings().
  std::span<const Event> events() const;
  const StringTable& strings() const;
  uint64_t dropped() const;  // the writer's latest DROPPED total
  bool ended() const;
  uint64_t offset() const;  // bytes decoded so far
  const std::string& name() const;  // path or peer, for messages

 private:
  struct Impl;
  explicit TraceReader(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

// A listening socket for the inspector's --listen mode. Loopback only unless
// allow_remote; port 0 picks a free port (see port()).
class TraceListener {
 public:
  static TraceListener listen(const std::string& host, uint16_t port, bool allow_remote = false);

  uint16_t port() const;
  std::string address() const;  // "127.0.0.1:PORT", to pass to `kiln run --stream`
  // Waits at most `timeout` (negative: forever) for a writer; nullopt on timeout.
  std::optional<TraceReader> accept(std::chrono::milliseconds timeout);

 private:
  TraceListener(Fd fd, std::string host) : fd_(std::move(fd)), host_(std::move(host)) {}
  Fd fd_;
  std::string host_;
};

}  // namespace kiln::trace
