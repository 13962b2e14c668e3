// Showing code: a scrollable monospace text view (IR, generated kernels) and
// a window of the script's source around one line, that line highlighted.
#pragma once

#include <string_view>

#include "profiler_ui/model/graphs.h"
#include "profiler_ui/model/session.h"

namespace kiln::inspect::ui {

// A child region of `height` (0: the rest) showing `code` in the monospace
// font, scrollable both ways. Clips by line, so long listings stay cheap.
void code_view(const char* id, std::string_view code, float height = 0);

// Lines [loc.line - context, loc.line + context] of the session's script,
// numbered, with loc.line highlighted; a note when the source is not in the
// recording (Chrome JSON) or `loc` is in another file (the prelude).
void source_context(const Session& session, const SourceLoc& loc, int context = 6);

}  // namespace kiln::inspect::ui
