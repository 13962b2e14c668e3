// Moves what one TraceReader::poll() produced into a SessionBuilder: shared by
// the .kilntrace loader and the live session's reader thread.
#pragma once

#include "profiler_ui/model/session.h"
#include "traces/reader.h"

namespace kiln::inspect {

// The session info of a reader's HELLO, as the inspector keeps it.
SessionInfo session_info_of(const trace::TraceReader& reader, SourceFormat format);
// Applies one poll result (new strings, events, drop count, end) to `b`.
void feed_builder(const trace::TraceReader& reader, trace::ReadResult r, SessionBuilder& b, SourceFormat format);

}  // namespace kiln::inspect
