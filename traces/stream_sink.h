// The live stream: a Sink that sends the trace protocol (protocol.h) to an
// inspector over TCP. The runtime never blocks on the inspector: on_events
// encodes into a queue bounded in bytes and returns; a sender thread writes
// to the socket. When the queue is full or the peer is gone, events are
// dropped and counted (dropped(), and DROPPED frames the reader sees).
// A peer that disconnects, never reads or sends garbage costs the script
// nothing but the dropped events: no crash, no SIGPIPE, no stall.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>
#include <string>
#include <thread>

#include "traces/protocol.h"
#include "traces/recorder.h"
#include "traces/socket.h"

namespace kiln::trace {

struct StreamOptions {
  Endpoint endpoint;                           // parse_endpoint("127.0.0.1:9000")
  bool allow_remote = false;                   // --stream-allow-remote
  std::chrono::milliseconds connect_wait{0};   // --stream-wait: retry a refused connect this long
  size_t max_queue_bytes = size_t{64} << 20;   // encoded bytes waiting for the socket
  std::chrono::milliseconds close_wait{2000};  // close(): how long to wait for the queue to drain
};

class StreamSink : public Sink {
 public:
  // Connects and queues the handshake. Throws TraceError when the address is
  // not allowed or nobody accepts the connection within connect_wait.
  StreamSink(const StreamOptions& options, const SessionInfo& info);
  ~StreamSink() override;  // close()
  StreamSink(const StreamSink&) = delete;
  StreamSink& operator=(const StreamSink&) = delete;

  void on_events(std::span<const Event> events, const StringTable& strings) override;
  // Sending is continuous; flush() does not wait for the peer (never blocks).
  void flush() override {}
  // Sends DROPPED (if any) and END, waits at most close_wait for the queue to
  // drain, then stops the sender. Events still queued then count as dropped.
  void close() override;

  // Events not delivered: refused by a full queue, queued when the peer went
  // away, or still queued when close() gave up. Exact: every event handed to
  // on_events either reaches the socket inside a complete frame or is counted.
  uint64_t dropped() const { return dropped_.load(std::memory_order_relaxed); }
  size_t peak_queued_bytes() const;
  bool peer_gone() const;

 private:
  // Encoded frames ready to send, with the number of events they carry.
  struct Chunk {
    std::string bytes;
    uint64_t events = 0;
  };
  enum class SendResult { Sent, PeerGone, Aborted };

  void enqueue_batch(std::span<const Event> events, const StringTable& strings);
  void push(Chunk chunk);  // ignores the byte bound: only for the handshake and END
  void sender_loop();
  SendResult send_chunk(const Chunk& c);
  void discard_input();  // reads and drops whatever the peer sent
  void drop_queue_locked();

  StreamOptions options_;
  Fd fd_;
  std::thread sender_;

  std::mutex encode_mu_;  // serializes producers (on_events, close)
  BatchEncoder encoder_;  // guarded by encode_mu_
  uint64_t dropped_reported_ = 0;  // guarded by encode_mu_
  bool closed_ = false;            // guarded by encode_mu_

  mutable std::mutex mu_;  // guards the queue and the flags below
  std::condition_variable wake_sender_, drained_;
  std::deque<Chunk> queue_;  // front() is being sent; counted until fully sent
  size_t queued_bytes_ = 0, peak_queued_bytes_ = 0;
  bool stop_ = false, peer_gone_ = false;

  // Sender thread only (and close() after joining it): false once the peer
  // shut its side, so POLLIN (always set at EOF) is no longer polled.
  bool peer_reads_ = true;

  std::atomic<bool> abort_{false};  // close() timed out: give up mid-chunk
  std::atomic<uint64_t> dropped_{0};
};

}  // namespace kiln::trace
