// Chrome Trace Event Format export (`kiln run --trace out.json`).
//
// Writes the JSON *array* form, streaming: "[" at open, then one event per
// line, each line after the first starting with the separating comma. A file
// cut short by a crash is therefore a valid array once "]" is appended, and
// Perfetto / chrome://tracing load it as is. close() writes the "]".
//
// Mapping (pid 1 is the host, pid 2+d is GPU d; tid is the recording thread
// or GPU stream):
//   Span, Kernel, GpuKernel, MemCopy      -> "X" (ts, dur in us, 3 decimals)
//   GraphBreak, Recompile, GuardFail, Log -> "i" with "s":"t", details in args
//   Counter                               -> "C" with args {name: value}
//   first event of a process / thread     -> "M" process_name, thread_name,
//                                            process_sort_index, thread_sort_index
//   the session (at open)                 -> "M" kiln_session on pid 1, args
//                                            script, argv, kiln_version,
//                                            start_unix_ns, source
//   flow_id != 0                          -> "s" on the host launch, "f" with
//                                            "bp":"e" on the device kernel
// graph_id goes into args (of spans, kernels and instants alike), never into
// names, so spans and kernels with the same name still merge in flame views.
// Span args also carry text (a codegen span's plan, an LLVM phase's kernel)
// and, on "run graph N", fused_launches and eager_steps (event.h's a, b).
#pragma once

#include <cstdio>
#include <set>
#include <span>
#include <string>
#include <utility>

#include "traces/event.h"
#include "traces/recorder.h"

namespace kiln::trace {

class ChromeTraceSink : public Sink {
 public:
  // Creates or truncates `path`; throws TraceError when it cannot. The
  // session's script names the host process ("kiln: <script>", or "kiln" if
  // empty); the whole info opens the file as the kiln_session metadata event.
  ChromeTraceSink(std::string path, const SessionInfo& info);
  // The same with only a script name. When a Session is running, its info
  // (source, argv, version) is written too, so a runner that passes only the
  // script still records them.
  ChromeTraceSink(std::string path, std::string script);
  ~ChromeTraceSink() override;
  ChromeTraceSink(const ChromeTraceSink&) = delete;
  ChromeTraceSink& operator=(const ChromeTraceSink&) = delete;

  void on_events(std::span<const Event> events, const StringTable& strings) override;
  void flush() override;
  void close() override;  // throws TraceError if any write failed

 private:
  void append_event(const Event& e, const StringTable& strings);
  void append_metadata(int pid, uint32_t tid);
  void append_session(const SessionInfo& info);
  void begin_line();
  void write_buffer();

  std::string path_;
  std::string script_;
  std::FILE* file_ = nullptr;
  std::string buf_;                  // lines formatted but not yet written
  bool first_line_ = true;
  std::set<int> seen_pids_;
  std::set<std::pair<int, uint32_t>> seen_threads_;
};

// Writes `events` as a complete trace file (used by tests and tools).
void write_chrome_trace(const std::string& path, std::span<const Event> events,
                        const StringTable& strings);

}  // namespace kiln::trace
