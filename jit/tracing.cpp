#include "jit/tracing.h"

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>

#include "traces/chrome_trace.h"
#include "traces/kilntrace_sink.h"
#include "traces/log_sink.h"
#include "traces/recorder.h"
#include "traces/socket.h"
#include "traces/stream_sink.h"

namespace kiln {

namespace {

namespace tr = kiln::trace;

std::string read_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

// Wraps a sink to say at close what it could not deliver: the runtime never
// waits for a slow peer, so losses are reported instead.
template <class S>
class Reporting : public tr::Sink {
 public:
  explicit Reporting(std::unique_ptr<S> s) : inner_(std::move(s)) {}
  void on_events(std::span<const tr::Event> events, const tr::StringTable& strings) override {
    inner_->on_events(events, strings);
  }
  void flush() override { inner_->flush(); }
  void close() override {
    inner_->close();
    report(*inner_);
  }

 private:
  static void report(const tr::StreamSink& s) {
    if (s.dropped() > 0)
      std::cerr << "kiln: " << s.dropped()
                << " trace events were dropped (the inspector did not keep up or disconnected)\n";
  }
  static void report(const tr::KilntraceSink& s) {
    if (!s.error().empty()) std::cerr << "kiln: the .kilntrace recording is incomplete: " << s.error() << "\n";
  }
  std::unique_ptr<S> inner_;
};

template <class S>
std::unique_ptr<tr::Sink> reporting(std::unique_ptr<S> s) {
  return std::make_unique<Reporting<S>>(std::move(s));
}

void add_sinks(tr::Session& s, const TraceRequest& req, const tr::LogSpec& logs, const std::string& stream,
               const std::string& script) {
  if (!logs.empty()) s.add_sink(std::make_unique<tr::LogSink>(logs, std::cerr));
  if (!req.chrome_path.empty()) s.add_sink(std::make_unique<tr::ChromeTraceSink>(req.chrome_path, script));
  if (!req.kilntrace_path.empty())
    s.add_sink(reporting(std::make_unique<tr::KilntraceSink>(req.kilntrace_path, s.info())));
  if (!stream.empty()) {
    tr::StreamOptions so;
    so.endpoint = tr::parse_endpoint(stream);
    so.allow_remote = req.stream_allow_remote;
    so.connect_wait = std::chrono::seconds(req.stream_wait_s);
    s.add_sink(reporting(std::make_unique<tr::StreamSink>(so, s.info())));
  }
}

}  // namespace

bool start_tracing(const TraceRequest& req, const std::string& script, const std::vector<std::string>& argv,
                   const std::string& kiln_version) {
  const char* logs_env = std::getenv("KILN_LOGS");
  const char* stream_env = std::getenv("KILN_STREAM");
  std::string stream = !req.stream.empty() ? req.stream : (stream_env ? stream_env : "");
  bool logs = logs_env && *logs_env;
  if (req.chrome_path.empty() && req.kilntrace_path.empty() && stream.empty() && !logs) return true;
  try {
    tr::LogSpec spec = logs ? tr::parse_log_spec(logs_env) : tr::LogSpec{};
    tr::Session& s = tr::Session::start(tr::SessionInfo{script, argv, kiln_version, read_file(script), 0});
    add_sinks(s, req, spec, stream, script);
  } catch (const std::exception& e) {
    if (tr::Session::current()) tr::Session::stop();
    std::cerr << "kiln: " << e.what() << "\n";
    return false;
  }
  return true;
}

void stop_tracing() {
  if (!tr::Session::current()) return;
  try {
    tr::Session::stop();
  } catch (const std::exception& e) {
    std::cerr << "kiln: finishing the trace failed: " << e.what() << "\n";
  }
}

}  // namespace kiln
