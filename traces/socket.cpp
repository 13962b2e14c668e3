// TCP plumbing for the live stream (see socket.h).
#include "traces/socket.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <thread>

#include "traces/event.h"  // TraceError

namespace kiln::trace {

// ---------------------------------------------------------------- Fd

Fd& Fd::operator=(Fd&& o) noexcept {
  if (this != &o) {
    reset();
    fd_ = o.release();
  }
  return *this;
}

int Fd::release() {
  int fd = fd_;
  fd_ = -1;
  return fd;
}

void Fd::reset() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
}

// ---------------------------------------------------------------- addresses

namespace {

struct Addr {
  sockaddr_storage ss{};
  socklen_t len = 0;
  int family() const { return ss.ss_family; }
};

std::string errno_text(int err) { return std::strerror(err); }

// The addresses a host names: a literal, or both loopbacks for "localhost".
std::vector<Addr> resolve(std::string_view host, uint16_t port) {
  std::string h(host);
  if (h == "localhost") {
    std::vector<Addr> v4 = resolve("127.0.0.1", port), v6 = resolve("::1", port);
    v4.insert(v4.end(), v6.begin(), v6.end());
    return v4;
  }
  Addr a;
  auto* in4 = reinterpret_cast<sockaddr_in*>(&a.ss);
  auto* in6 = reinterpret_cast<sockaddr_in6*>(&a.ss);
  if (inet_pton(AF_INET, h.c_str(), &in4->sin_addr) == 1) {
    in4->sin_family = AF_INET;
    in4->sin_port = htons(port);
    a.len = sizeof(sockaddr_in);
  } else if (inet_pton(AF_INET6, h.c_str(), &in6->sin6_addr) == 1) {
    in6->sin6_family = AF_INET6;
    in6->sin6_port = htons(port);
    a.len = sizeof(sockaddr_in6);
  } else {
    throw TraceError("stream host '" + h +
                     "' is not an IPv4/IPv6 address literal or 'localhost' (no DNS lookups)");
  }
  return {a};
}

bool addr_is_loopback(const Addr& a) {
  if (a.family() == AF_INET) {
    auto ip = ntohl(reinterpret_cast<const sockaddr_in*>(&a.ss)->sin_addr.s_addr);
    return (ip >> 24) == 127;
  }
  const in6_addr& ip = reinterpret_cast<const sockaddr_in6*>(&a.ss)->sin6_addr;
  if (IN6_IS_ADDR_LOOPBACK(&ip)) return true;
  return IN6_IS_ADDR_V4MAPPED(&ip) && ip.s6_addr[12] == 127;
}

void check_policy(const Endpoint& ep, bool allow_remote, const char* verb) {
  if (!allow_remote && !is_loopback_host(ep.host))
    throw TraceError(std::string("refusing to ") + verb + " non-loopback address " + ep.str() +
                     ": trace streams are loopback-only unless remote access is allowed "
                     "explicitly (--stream-allow-remote)");
}

void set_nonblocking(int fd) {
  int flags = fcntl(fd, F_GETFL, 0);
  if (flags >= 0) fcntl(fd, F_SETFL, flags | O_NONBLOCK);
}

Fd new_socket(int family) {
  Fd fd(::socket(family, SOCK_STREAM, 0));
  if (!fd.valid()) throw TraceError("cannot create a socket: " + errno_text(errno));
  fcntl(fd.get(), F_SETFD, FD_CLOEXEC);
  set_nonblocking(fd.get());
#ifdef SO_NOSIGPIPE  // macOS/BSD: no MSG_NOSIGNAL there
  int one = 1;
  setsockopt(fd.get(), SOL_SOCKET, SO_NOSIGPIPE, &one, sizeof one);
#endif
  return fd;
}

// poll() one fd for `events`, retrying on EINTR. Returns revents (0: timeout).
short poll_one(int fd, short events, int timeout_ms) {
  pollfd p{fd, events, 0};
  for (;;) {
    int r = ::poll(&p, 1, timeout_ms);
    if (r >= 0) return r == 0 ? 0 : p.revents;
    if (errno != EINTR) return POLLERR;
  }
}

// One connection attempt, bounded by timeout_ms. Returns 0 or an errno.
int try_connect(const Addr& a, int timeout_ms, Fd& out) {
  Fd fd = new_socket(a.family());
  if (::connect(fd.get(), reinterpret_cast<const sockaddr*>(&a.ss), a.len) != 0) {
    if (errno != EINPROGRESS) return errno;
    if (poll_one(fd.get(), POLLOUT, timeout_ms) == 0) return ETIMEDOUT;
    int err = 0;
    socklen_t len = sizeof err;
    if (getsockopt(fd.get(), SOL_SOCKET, SO_ERROR, &err, &len) != 0) return errno;
    if (err != 0) return err;
  }
  out = std::move(fd);
  return 0;
}

}  // namespace

std::string Endpoint::str() const {
  bool v6 = host.find(':') != std::string::npos;
  return (v6 ? "[" + host + "]" : host) + ":" + std::to_string(port);
}

Endpoint parse_endpoint(std::string_view text) {
  auto bad = [&](const char* why) {
    return TraceError("bad stream address '" + std::string(text) + "': " + why +
                      " (expected HOST:PORT, e.g. 127.0.0.1:9000 or [::1]:9000)");
  };
  size_t colon = text.rfind(':');
  if (colon == std::string_view::npos) throw bad("no port");
  std::string_view host = text.substr(0, colon), port = text.substr(colon + 1);
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') {
    host = host.substr(1, host.size() - 2);
  } else if (host.find(':') != std::string_view::npos) {
    throw bad("IPv6 addresses must be written in brackets");
  }
  if (host.empty()) throw bad("no host");
  auto digit = [](char c) { return c >= '0' && c <= '9'; };
  if (port.empty() || port.size() > 5 || !std::all_of(port.begin(), port.end(), digit))
    throw bad("port is not a number");
  unsigned long p = std::stoul(std::string(port));
  if (p > 65535) throw bad("port is out of range");
  Endpoint ep{std::string(host), static_cast<uint16_t>(p)};
  resolve(ep.host, ep.port);  // reject non-literal hosts now, with the address in the message
  return ep;
}

bool is_loopback_host(std::string_view host) {
  auto addrs = resolve(host, 0);
  return std::all_of(addrs.begin(), addrs.end(), addr_is_loopback);
}

int poll_timeout_ms(std::chrono::steady_clock::time_point deadline, bool forever) {
  if (forever) return -1;
  auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
      deadline - std::chrono::steady_clock::now());
  return static_cast<int>(std::clamp<int64_t>(left.count(), 0, 1 << 30));
}

// ---------------------------------------------------------------- connect / listen

Fd connect_tcp(const Endpoint& ep, bool allow_remote, std::chrono::milliseconds wait) {
  using clock = std::chrono::steady_clock;
  check_policy(ep, allow_remote, "stream to");
  auto addrs = resolve(ep.host, ep.port);
  auto deadline = clock::now() + wait;
  // Each attempt gets at least this long, so a remote SYN has time to answer
  // even with wait = 0, and at most the wait itself otherwise.
  constexpr int kMinAttemptMs = 1000;
  int last_err = 0;
  for (;;) {
    for (const Addr& a : addrs) {
      Fd fd;
      int timeout = std::max(kMinAttemptMs, poll_timeout_ms(deadline, false));
      last_err = try_connect(a, timeout, fd);
      if (last_err == 0) return fd;
    }
    if (clock::now() >= deadline) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  throw TraceError("cannot connect to " + ep.str() + ": " + errno_text(last_err) +
                   " (is the inspector listening? waited " + std::to_string(wait.count()) +
                   " ms)");
}

Fd listen_tcp(const Endpoint& ep, bool allow_remote) {
  check_policy(ep, allow_remote, "listen on");
  Addr a = resolve(ep.host, ep.port).front();
  Fd fd = new_socket(a.family());
  int one = 1;
  setsockopt(fd.get(), SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  if (::bind(fd.get(), reinterpret_cast<const sockaddr*>(&a.ss), a.len) != 0)
    throw TraceError("cannot listen on " + ep.str() + ": bind: " + errno_text(errno));
  if (::listen(fd.get(), 4) != 0)
    throw TraceError("cannot listen on " + ep.str() + ": " + errno_text(errno));
  return fd;
}

uint16_t local_port(int fd) {
  sockaddr_storage ss{};
  socklen_t len = sizeof ss;
  if (getsockname(fd, reinterpret_cast<sockaddr*>(&ss), &len) != 0) return 0;
  if (ss.ss_family == AF_INET) return ntohs(reinterpret_cast<sockaddr_in*>(&ss)->sin_port);
  return ntohs(reinterpret_cast<sockaddr_in6*>(&ss)->sin6_port);
}

Fd accept_tcp(int listen_fd, std::chrono::milliseconds timeout) {
  auto deadline = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    short ev = poll_one(listen_fd, POLLIN, poll_timeout_ms(deadline, timeout.count() < 0));
    if (ev == 0) return Fd();
    Fd fd(::accept(listen_fd, nullptr, nullptr));
    if (fd.valid()) {
      fcntl(fd.get(), F_SETFD, FD_CLOEXEC);
      set_nonblocking(fd.get());
      return fd;
    }
    // A connection that was reset before we took it: keep waiting for another.
    if (errno != EAGAIN && errno != EWOULDBLOCK && errno != ECONNABORTED && errno != EINTR)
      throw TraceError("accept failed: " + errno_text(errno));
  }
}

long send_nosignal(int fd, const char* data, size_t n) {
#ifdef MSG_NOSIGNAL
  return ::send(fd, data, n, MSG_NOSIGNAL);
#else
  return ::send(fd, data, n, 0);  // SO_NOSIGPIPE was set on the socket
#endif
}

}  // namespace kiln::trace
