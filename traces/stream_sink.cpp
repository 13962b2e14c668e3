// The live stream sink (see stream_sink.h): a byte-bounded queue of encoded
// frames between the recording threads and one sender thread.
#include "traces/stream_sink.h"

#include <poll.h>
#include <sys/socket.h>

#include <cerrno>

namespace kiln::trace {

namespace {
// How often a sender blocked on a full socket checks whether close() gave up.
constexpr int kSendPollMs = 20;
}  // namespace

StreamSink::StreamSink(const StreamOptions& options, const SessionInfo& info)
    : options_(options),
      fd_(connect_tcp(options.endpoint, options.allow_remote, options.connect_wait)) {
  Chunk hello;
  append_header(hello.bytes);
  append_hello(hello.bytes, info);
  push(std::move(hello));
  sender_ = std::thread([this] { sender_loop(); });
}

StreamSink::~StreamSink() { close(); }

size_t StreamSink::peak_queued_bytes() const {
  std::lock_guard lock(mu_);
  return peak_queued_bytes_;
}

bool StreamSink::peer_gone() const {
  std::lock_guard lock(mu_);
  return peer_gone_;
}

// ---------------------------------------------------------------- producers

void StreamSink::on_events(std::span<const Event> events, const StringTable& strings) {
  std::lock_guard lock(encode_mu_);
  // One EVENTS frame per chunk, so a chunk is delivered or dropped as a whole.
  for (size_t i = 0; i < events.size(); i += kMaxEventsPerFrame)
    enqueue_batch(events.subspan(i, std::min(kMaxEventsPerFrame, events.size() - i)), strings);
}

void StreamSink::enqueue_batch(std::span<const Event> events, const StringTable& strings) {
  uint64_t n = events.size();
  BatchEncoder::Plan plan = encoder_.plan(events, strings);
  uint64_t dropped = dropped_.load(std::memory_order_relaxed);
  bool report = dropped != dropped_reported_;
  size_t bytes = plan.bytes + (report ? kFrameHeaderSize + 8 : 0);
  {
    // Only the sender removes bytes meanwhile, so the room found here stays.
    std::lock_guard lock(mu_);
    if (closed_ || peer_gone_ || queued_bytes_ + bytes > options_.max_queue_bytes) {
      // The encoder's strings stay unsent, so they go out with a later batch.
      dropped_.fetch_add(n, std::memory_order_relaxed);
      return;
    }
  }
  Chunk c{std::string(), n};
  c.bytes.reserve(bytes);
  if (report) append_dropped(c.bytes, dropped);
  encoder_.encode(plan, events, strings, c.bytes);
  if (report) dropped_reported_ = dropped;
  push(std::move(c));
}

void StreamSink::push(Chunk chunk) {
  std::lock_guard lock(mu_);
  if (peer_gone_) {
    dropped_.fetch_add(chunk.events, std::memory_order_relaxed);
    return;
  }
  queued_bytes_ += chunk.bytes.size();
  peak_queued_bytes_ = std::max(peak_queued_bytes_, queued_bytes_);
  queue_.push_back(std::move(chunk));
  wake_sender_.notify_one();
}

void StreamSink::close() {
  {
    std::lock_guard lock(encode_mu_);
    if (closed_) return;
    closed_ = true;
    Chunk end;
    uint64_t dropped = dropped_.load(std::memory_order_relaxed);
    if (dropped != dropped_reported_) append_dropped(end.bytes, dropped);
    append_end(end.bytes);
    push(std::move(end));
  }
  {
    std::unique_lock lock(mu_);
    bool drained = drained_.wait_for(lock, options_.close_wait,
                                     [this] { return queue_.empty() || peer_gone_; });
    if (!drained) abort_.store(true);
    stop_ = true;
    wake_sender_.notify_one();
  }
  if (sender_.joinable()) sender_.join();
  {
    std::lock_guard lock(mu_);
    drop_queue_locked();
  }
  // Unread input would turn our FIN into a RST, and a RST can make the peer
  // discard the tail of the stream it has not read yet.
  discard_input();
  ::shutdown(fd_.get(), SHUT_WR);
  fd_.reset();
}

void StreamSink::drop_queue_locked() {
  for (const Chunk& c : queue_) dropped_.fetch_add(c.events, std::memory_order_relaxed);
  queue_.clear();
  queued_bytes_ = 0;
  drained_.notify_all();
}

// ---------------------------------------------------------------- the sender thread

void StreamSink::sender_loop() {
  for (;;) {
    const Chunk* c = nullptr;
    {
      std::unique_lock lock(mu_);
      wake_sender_.wait(lock, [this] { return stop_ || !queue_.empty(); });
      if (queue_.empty() || abort_.load()) return;
      c = &queue_.front();  // deque::push_back keeps references valid
    }
    SendResult r = send_chunk(*c);
    std::lock_guard lock(mu_);
    if (r == SendResult::Aborted) return;  // close() counts what is left
    if (r == SendResult::PeerGone) {
      peer_gone_ = true;
      drop_queue_locked();
      return;
    }
    queued_bytes_ -= c->bytes.size();
    queue_.pop_front();
    if (queue_.empty()) drained_.notify_all();
  }
}

StreamSink::SendResult StreamSink::send_chunk(const Chunk& c) {
  size_t off = 0;
  while (off < c.bytes.size()) {
    if (abort_.load(std::memory_order_relaxed)) return SendResult::Aborted;
    long n = send_nosignal(fd_.get(), c.bytes.data() + off, c.bytes.size() - off);
    if (n > 0) {
      off += static_cast<size_t>(n);
      continue;
    }
    if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)
      return SendResult::PeerGone;  // EPIPE, ECONNRESET, ...
    // The socket is full: wait for room, and keep reading whatever the peer
    // sends so its garbage cannot fill our receive buffer.
    pollfd p{fd_.get(), static_cast<short>(POLLOUT | (peer_reads_ ? POLLIN : 0)), 0};
    if (::poll(&p, 1, kSendPollMs) > 0 && (p.revents & POLLIN)) discard_input();
  }
  return SendResult::Sent;
}

void StreamSink::discard_input() {
  char buf[4096];
  // Bounded, so a peer flooding us cannot keep this loop spinning forever.
  for (int i = 0; i < 256 && peer_reads_; ++i) {
    long n = ::recv(fd_.get(), buf, sizeof buf, MSG_DONTWAIT);
    if (n == 0) peer_reads_ = false;  // the peer shut its side; POLLIN would stay set
    if (n <= 0) return;
  }
}

}  // namespace kiln::trace
