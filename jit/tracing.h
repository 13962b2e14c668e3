// The runner's trace set-up: which sinks `kiln run` attaches (--trace,
// --record, --stream / KILN_STREAM, KILN_LOGS) and what it reports at exit.
#pragma once

#include <string>
#include <vector>

namespace kiln {

struct TraceRequest {
  std::string chrome_path;     // --trace FILE
  std::string kilntrace_path;  // --record FILE
  std::string stream;          // --stream HOST:PORT (else KILN_STREAM)
  int stream_wait_s = 0;       // --stream-wait
  bool stream_allow_remote = false;
};

// Starts a trace session when any sink is asked for. Returns false after
// printing why when a sink cannot start (a bad KILN_LOGS topic, nobody
// listening on the stream address, an unwritable file).
bool start_tracing(const TraceRequest& req, const std::string& script, const std::vector<std::string>& argv,
                   const std::string& kiln_version);
// Delivers everything recorded, closes the sinks, and reports lost events
// and write errors on stderr.
void stop_tracing();

}  // namespace kiln
