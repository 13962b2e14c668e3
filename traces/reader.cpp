// The trace reader: byte sources (file, memory, socket), the frame splitter
// and the session state (handshake first, dense string ids, nothing after END).
#include "traces/reader.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <vector>

#include "traces/protocol.h"

namespace kiln::trace {

namespace {

// ---------------------------------------------------------------- byte sources

// Where bytes come from. read() returns > 0 bytes, 0 when none arrived within
// timeout_ms (-1: forever), or -1 at end of input.
class Source {
 public:
  virtual ~Source() = default;
  virtual long read(char* buf, size_t n, int timeout_ms) = 0;
};

class MemorySource : public Source {
 public:
  explicit MemorySource(std::string bytes) : bytes_(std::move(bytes)) {}
  long read(char* buf, size_t n, int) override {
    if (pos_ == bytes_.size()) return -1;
    n = std::min(n, bytes_.size() - pos_);
    std::memcpy(buf, bytes_.data() + pos_, n);
    pos_ += n;
    return static_cast<long>(n);
  }

 private:
  std::string bytes_;
  size_t pos_ = 0;
};

// A file or socket. Files never wait; sockets wait with poll().
class FdSource : public Source {
 public:
  FdSource(Fd fd, std::string name, bool socket)
      : fd_(std::move(fd)), name_(std::move(name)), socket_(socket) {}
  long read(char* buf, size_t n, int timeout_ms) override {
    for (;;) {
      long got = socket_ ? ::recv(fd_.get(), buf, n, 0) : ::read(fd_.get(), buf, n);
      if (got > 0) return got;
      if (got == 0) return -1;
      if (errno == EINTR) continue;
      if (errno != EAGAIN && errno != EWOULDBLOCK)
        throw TraceError("reading " + name_ + ": " + std::strerror(errno));
      pollfd p{fd_.get(), POLLIN, 0};
      int r = ::poll(&p, 1, timeout_ms);
      if (r == 0) return 0;
      if (r < 0 && errno != EINTR)
        throw TraceError("reading " + name_ + ": " + std::strerror(errno));
    }
  }

 private:
  Fd fd_;
  std::string name_;
  bool socket_;
};

}  // namespace

// ---------------------------------------------------------------- session state

struct TraceReader::Impl {
  std::string name;
  std::unique_ptr<Source> source;
  FrameSplitter splitter;
  std::optional<SessionInfo> session;
  StringTable strings;          // the reader's own copy
  // Wire id -> id in `strings`: the identity unless a writer repeats a text.
  std::vector<StrId> remap{0};
  bool identity = true;
  std::vector<Event> events;
  uint64_t dropped = 0;
  bool ended = false;

  std::string error;  // set once decoding failed; every later poll repeats it

  [[noreturn]] static void fail(const std::string& what) { throw TraceError(what); }

  // Applies one frame to the session; the handshake must come first, once.
  ReadResult apply(const Frame& f) {
    if (f.type != FrameType::Hello && !session)
      fail(std::string(frame_type_name(f.type)) + " frame at byte " + std::to_string(f.offset) +
           " before the HELLO handshake");
    switch (f.type) {
      case FrameType::Hello:
        if (session) fail("second HELLO frame at byte " + std::to_string(f.offset));
        session = decode_hello(f);
        return ReadResult::Session;
      case FrameType::Strings:
        for (const std::string& s : decode_strings(f, static_cast<StrId>(remap.size()))) {
          StrId local = strings.intern(s);
          identity = identity && local == remap.size();
          remap.push_back(local);
        }
        return ReadResult::Strings;
      case FrameType::Events:
        events.clear();
        decode_events(f, static_cast<StrId>(remap.size()), events);
        if (!identity)
          for (Event& e : events)
            for (StrId* id : {&e.name, &e.loc.file, &e.text, &e.detail, &e.stack}) *id = remap[*id];
        return ReadResult::Events;
      case FrameType::Dropped:
        dropped = decode_dropped(f);
        return ReadResult::Dropped;
      case FrameType::End:
        decode_end(f);
        ended = true;
        return ReadResult::End;
    }
    fail("unhandled frame type");  // unreachable: the splitter rejects unknown types
  }

  // After END the writer must stop: trailing bytes mean a corrupt file.
  void check_nothing_after_end() {
    char c;
    if (splitter.buffered() > 0 || source->read(&c, 1, 0) > 0)
      fail("data after the END frame (at byte " + std::to_string(splitter.offset()) + ")");
  }

  // Errors are prefixed with the source's name once, here, and remembered: a
  // stream that went bad stays bad.
  ReadResult poll(std::chrono::milliseconds timeout) {
    if (!error.empty()) throw TraceError(error);
    try {
      return poll_frame(timeout);
    } catch (const TraceError& e) {
      error = name + ": " + e.what();
      throw TraceError(error);
    }
  }

  ReadResult poll_frame(std::chrono::milliseconds timeout) {
    if (ended) return ReadResult::End;
    auto deadline = std::chrono::steady_clock::now() + timeout;
    char buf[64 * 1024];
    for (;;) {
      if (auto f = splitter.next()) {
        ReadResult r = apply(*f);
        if (r == ReadResult::End) check_nothing_after_end();
        return r;
      }
      long got = source->read(buf, sizeof buf, poll_timeout_ms(deadline, timeout.count() < 0));
      if (got == 0) return ReadResult::Pending;
      if (got < 0) at_eof();
      splitter.feed(std::string_view(buf, static_cast<size_t>(got)));
    }
  }

  [[noreturn]] void at_eof() {
    splitter.finish();
    fail("truncated: the stream ends at byte " + std::to_string(splitter.offset()) +
         " without an END frame (the writer stopped or crashed)");
  }
};

TraceReader::TraceReader(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
TraceReader::TraceReader(TraceReader&&) noexcept = default;
TraceReader& TraceReader::operator=(TraceReader&&) noexcept = default;
TraceReader::~TraceReader() = default;

TraceReader TraceReader::open_file(const std::string& path) {
  Fd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (!fd.valid()) throw TraceError("cannot open " + path + ": " + std::strerror(errno));
  auto impl = std::make_unique<Impl>();
  impl->name = path;
  impl->source = std::make_unique<FdSource>(std::move(fd), path, false);
  return TraceReader(std::move(impl));
}

TraceReader TraceReader::from_bytes(std::string bytes, std::string name) {
  auto impl = std::make_unique<Impl>();
  impl->name = std::move(name);
  impl->source = std::make_unique<MemorySource>(std::move(bytes));
  return TraceReader(std::move(impl));
}

TraceReader TraceReader::from_socket(int fd, std::string peer) {
  auto impl = std::make_unique<Impl>();
  impl->name = peer;
  impl->source = std::make_unique<FdSource>(Fd(fd), std::move(peer), true);
  return TraceReader(std::move(impl));
}

ReadResult TraceReader::poll(std::chrono::milliseconds timeout) { return impl_->poll(timeout); }
bool TraceReader::has_session() const { return impl_->session.has_value(); }
const SessionInfo& TraceReader::session() const {
  if (!impl_->session) throw TraceError(impl_->name + ": no HELLO handshake read yet");
  return *impl_->session;
}
std::span<const Event> TraceReader::events() const { return impl_->events; }
const StringTable& TraceReader::strings() const { return impl_->strings; }
uint64_t TraceReader::dropped() const { return impl_->dropped; }
bool TraceReader::ended() const { return impl_->ended; }
uint64_t TraceReader::offset() const { return impl_->splitter.offset(); }
const std::string& TraceReader::name() const { return impl_->name; }

// ---------------------------------------------------------------- listening

TraceListener TraceListener::listen(const std::string& host, uint16_t port, bool allow_remote) {
  return TraceListener(listen_tcp(Endpoint{host, port}, allow_remote), host);
}

uint16_t TraceListener::port() const { return local_port(fd_.get()); }
std::string TraceListener::address() const { return Endpoint{host_, port()}.str(); }

std::optional<TraceReader> TraceListener::accept(std::chrono::milliseconds timeout) {
  Fd fd = accept_tcp(fd_.get(), timeout);
  if (!fd.valid()) return std::nullopt;
  return TraceReader::from_socket(fd.release(), "stream on " + address());
}

}  // namespace kiln::trace
