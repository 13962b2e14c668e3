// A Sink that records a session to a .kilntrace file (`kiln run --record`):
// exactly the bytes the live stream would carry (protocol.h), so the
// inspector replays a recording like a live session.
#pragma once

#include <cstdio>
#include <mutex>
#include <string>

#include "traces/protocol.h"
#include "traces/recorder.h"

namespace kiln::trace {

class KilntraceSink : public Sink {
 public:
  // Creates `path` and writes the header and handshake. Throws TraceError.
  KilntraceSink(const std::string& path, const SessionInfo& info);
  ~KilntraceSink() override;  // close()
  KilntraceSink(const KilntraceSink&) = delete;
  KilntraceSink& operator=(const KilntraceSink&) = delete;

  void on_events(std::span<const Event> events, const StringTable& strings) override;
  void flush() override;  // hands buffered bytes to the OS (what a crash would lose)
  void close() override;  // writes END and closes the file

  // The first write error ("" if none). Writing stops at the first error
  // rather than throwing into the runtime; the runner reports it at exit.
  std::string error() const;
  const std::string& path() const { return path_; }

 private:
  void write(const std::string& bytes);  // requires mu_
  void fail(const char* what);           // requires mu_

  std::string path_;
  mutable std::mutex mu_;
  std::FILE* file_ = nullptr;
  BatchEncoder encoder_;
  std::string buf_;  // reused encoding buffer
  std::string error_;
};

}  // namespace kiln::trace
