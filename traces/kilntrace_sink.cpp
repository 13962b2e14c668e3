// The .kilntrace file sink (see kilntrace_sink.h).
#include "traces/kilntrace_sink.h"

#include <cerrno>
#include <cstring>

namespace kiln::trace {

KilntraceSink::KilntraceSink(const std::string& path, const SessionInfo& info) : path_(path) {
  file_ = std::fopen(path.c_str(), "wb");
  if (!file_) throw TraceError("cannot create " + path + ": " + std::strerror(errno));
  std::lock_guard lock(mu_);
  buf_.clear();
  append_header(buf_);
  append_hello(buf_, info);
  write(buf_);
  if (!error_.empty()) {
    std::fclose(file_);
    file_ = nullptr;
    throw TraceError(error_);
  }
}

KilntraceSink::~KilntraceSink() { close(); }

void KilntraceSink::on_events(std::span<const Event> events, const StringTable& strings) {
  std::lock_guard lock(mu_);
  if (!file_ || !error_.empty()) return;
  for (size_t i = 0; i < events.size(); i += kMaxEventsPerFrame) {
    auto batch = events.subspan(i, std::min(kMaxEventsPerFrame, events.size() - i));
    buf_.clear();
    encoder_.encode(encoder_.plan(batch, strings), batch, strings, buf_);
    write(buf_);
  }
}

void KilntraceSink::flush() {
  std::lock_guard lock(mu_);
  if (file_ && error_.empty() && std::fflush(file_) != 0) fail("flushing");
}

void KilntraceSink::close() {
  std::lock_guard lock(mu_);
  if (!file_) return;
  buf_.clear();
  append_end(buf_);
  write(buf_);
  if (std::fclose(file_) != 0 && error_.empty()) fail("closing");
  file_ = nullptr;
}

std::string KilntraceSink::error() const {
  std::lock_guard lock(mu_);
  return error_;
}

void KilntraceSink::write(const std::string& bytes) {
  if (error_.empty() && std::fwrite(bytes.data(), 1, bytes.size(), file_) != bytes.size())
    fail("writing");
}

void KilntraceSink::fail(const char* what) {
  error_ = std::string(what) + " " + path_ + " failed: " + std::strerror(errno);
}

}  // namespace kiln::trace
