// Loads a .kilntrace byte stream with traces/reader.h. Damage after the HELLO
// keeps what was read before it and is reported as a load error.
#include "profiler_ui/model/load_kilntrace.h"

#include "profiler_ui/model/reader_feed.h"

namespace kiln::inspect {

LoadResult load_kilntrace_bytes(std::string bytes, const std::string& name) {
  SessionBuilder b;
  trace::TraceReader reader = trace::TraceReader::from_bytes(std::move(bytes), name);
  try {
    for (;;) {
      trace::ReadResult r = reader.poll(std::chrono::milliseconds(0));
      // Memory never waits: Pending would mean no progress, so stop rather than spin.
      if (r == trace::ReadResult::Pending) throw trace::TraceError(name + ": the reader made no progress");
      feed_builder(reader, r, b, SourceFormat::Kilntrace);
      if (r == trace::ReadResult::End) break;
    }
  } catch (const trace::TraceError& e) {
    if (!reader.has_session())
      return {nullptr, std::string(e.what()) + " (not a usable .kilntrace file: re-record it with kiln run --record)"};
    b.add_load_error(std::string(e.what()) + "; showing the " + std::to_string(b.event_count()) +
                     " events read before it");
  } catch (const std::exception& e) {  // bad_alloc on a hostile length, say
    return {nullptr, name + ": " + e.what()};
  }
  return {b.publish(), {}};
}

}  // namespace kiln::inspect
