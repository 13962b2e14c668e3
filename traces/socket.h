// TCP plumbing for the live stream: parsing "host:port", the loopback-only
// policy, connect with a deadline, listen/accept, and an owning fd. Hosts are
// address literals or "localhost" only: a trace stream is a local tool, and
// no DNS lookup should ever stall a script at startup.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace kiln::trace {

// An owned file descriptor (closed on destruction). Move-only.
class Fd {
 public:
  Fd() = default;
  explicit Fd(int fd) : fd_(fd) {}
  Fd(Fd&& o) noexcept : fd_(o.release()) {}
  Fd& operator=(Fd&& o) noexcept;
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  ~Fd() { reset(); }

  int get() const { return fd_; }
  bool valid() const { return fd_ >= 0; }
  int release();
  void reset();

 private:
  int fd_ = -1;
};

struct Endpoint {
  std::string host;  // "127.0.0.1", "::1", "localhost", ...
  uint16_t port = 0;
  std::string str() const;  // "127.0.0.1:9000", "[::1]:9000"
};

// "127.0.0.1:9000", "[::1]:9000", "localhost:9000". Throws TraceError.
Endpoint parse_endpoint(std::string_view text);

// Whether `host` (a literal or "localhost") names this machine only.
// Throws TraceError for a host that is neither a literal nor "localhost".
bool is_loopback_host(std::string_view host);

// Connects to `ep`. A non-loopback host needs allow_remote (TraceError
// otherwise). A refused connection is retried until `wait` has passed (0: one
// attempt); each attempt is itself bounded, so this never hangs. The socket
// comes back non-blocking with SIGPIPE suppressed. Throws TraceError.
Fd connect_tcp(const Endpoint& ep, bool allow_remote, std::chrono::milliseconds wait);

// Listens on `ep` (port 0: any free port). A non-loopback host (including
// 0.0.0.0 and ::) needs allow_remote. Throws TraceError.
Fd listen_tcp(const Endpoint& ep, bool allow_remote);
uint16_t local_port(int fd);

// Accepts one connection, waiting at most `timeout` (negative: forever).
// Returns an invalid Fd on timeout. The socket comes back non-blocking.
Fd accept_tcp(int listen_fd, std::chrono::milliseconds timeout);

// Milliseconds left until `deadline` for poll(): 0 when passed, -1 for "never".
int poll_timeout_ms(std::chrono::steady_clock::time_point deadline, bool forever);

// send() that never raises SIGPIPE. Same return convention as send().
long send_nosignal(int fd, const char* data, size_t n);

}  // namespace kiln::trace
