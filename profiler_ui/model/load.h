// Opening a recorded session: a .kilntrace file (the trace protocol, read
// with traces/reader.h) or a Chrome trace JSON array written by
// `kiln run --trace` (traces/chrome_trace.cpp's format). The format is
// detected from the bytes, not the file name.
//
// Never throws and never crashes on bad input. A file that is not a trace at
// all is an error; a trace cut short (a crashed writer, a bad frame in the
// middle) loads what came before the damage and lists the damage in
// Session::load_errors(), so the UI can show both the data and a banner.
//
// What Chrome JSON cannot carry (it has no HELLO): the script's source,
// argv and kiln version (the script path comes from the process name); graph
// ids on spans (SessionIndex recovers them by pairing each compile span with
// the "graph" event that follows it); the fusion plan text of codegen spans
// (kernels are then matched to graph nodes by name alone).
#pragma once

#include <memory>
#include <string>

#include "profiler_ui/model/session.h"

namespace kiln::inspect {

struct LoadResult {
  std::shared_ptr<const Session> session;  // set on success (maybe with load_errors)
  std::string error;                       // set on failure: names the file and the fix
  bool ok() const { return session != nullptr; }
};

LoadResult load_file(const std::string& path);
// The same from bytes already in memory; `name` is used in messages.
LoadResult load_bytes(std::string bytes, const std::string& name);

// Files larger than this are refused with a clear error (both formats).
inline constexpr size_t kMaxTraceFileBytes = size_t(4) << 30;

}  // namespace kiln::inspect
