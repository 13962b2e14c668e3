// Runs a script in a fresh interpreter and returns what it printed, followed
// by the formatted traceback when it raised (the tests compare both).
#pragma once

#include <sstream>
#include <string>

#include "core/lang/interp.h"

namespace kiln::lang {

inline std::string run(const std::string& src) {
  std::ostringstream out;
  Interp in(&out);
  try {
    in.run_source(src, "test.py");
  } catch (const ScriptException& e) {
    return out.str() + in.format_exception(e);
  }
  return out.str();
}

}  // namespace kiln::lang
