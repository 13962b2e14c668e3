// The two loaders behind load.h, one per format (internal to the model).
#pragma once

#include <string>

#include "profiler_ui/model/load.h"

namespace kiln::inspect {

// Bytes starting with the KILNTRC1 magic.
LoadResult load_kilntrace_bytes(std::string bytes, const std::string& name);
// Bytes of a Chrome trace JSON array (or {"traceEvents": [...]}) written by kiln.
LoadResult load_chrome_json_bytes(const std::string& bytes, const std::string& name);

}  // namespace kiln::inspect
