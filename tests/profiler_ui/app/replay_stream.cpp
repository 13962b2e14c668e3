// A stand-in for `kiln run --stream HOST:PORT` in the live-session tests:
// sends a recorded .kilntrace (the exact bytes of a live stream) to the
// inspector in small pieces with pauses, so the inspector sees a session
// arrive over time. The address comes from --stream (what kiln-inspect
// inserts after `run`) or KILN_STREAM.
//   replay_stream run [--stream HOST:PORT] [--cut BYTES] FILE
// --cut stops after BYTES and closes the socket (a writer that died).
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>
#include <algorithm>
#include <cerrno>
#include <stdexcept>

#include "traces/socket.h"

using namespace kiln::trace;

int main(int argc, char** argv) {
  std::string addr = std::getenv("KILN_STREAM") ? std::getenv("KILN_STREAM") : "", file;
  size_t cut = std::string::npos;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "run") continue;
    if (a == "--stream" && i + 1 < argc) addr = argv[++i];
    else if (a == "--cut" && i + 1 < argc) cut = std::strtoull(argv[++i], nullptr, 10);
    else file = a;
  }
  if (addr.empty() || file.empty()) {
    std::fprintf(stderr, "usage: replay_stream run [--stream HOST:PORT] [--cut BYTES] FILE\n");
    return 2;
  }
  try {
    std::ifstream in(file, std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (bytes.empty()) throw std::runtime_error("cannot read " + file);
    if (cut < bytes.size()) bytes.resize(cut);
    Fd fd = connect_tcp(parse_endpoint(addr), false, std::chrono::seconds(20));
    const size_t piece = 4096;
    for (size_t off = 0; off < bytes.size();) {
      long n = send_nosignal(fd.get(), bytes.data() + off, std::min(piece, bytes.size() - off));
      if (n < 0) {
        if (errno == EAGAIN || errno == EWOULDBLOCK) {
          std::this_thread::sleep_for(std::chrono::milliseconds(1));
          continue;
        }
        throw std::runtime_error("send failed");
      }
      off += static_cast<size_t>(n);
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    std::printf("replay_stream: sent %zu bytes of %s to %s\n", bytes.size(), file.c_str(), addr.c_str());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "replay_stream: %s\n", e.what());
    return 1;
  }
  return 0;
}
