// libFuzzer target over the whole interpreter: any bytes run as a script
// must finish, raise a Python exception or be rejected as bad source; never
// crash, hang or leak. The step and recursion limits bound what a script can
// spend, so loops and runaway recursion end in an error, not a timeout.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string_view>

#include "core/error.h"
#include "core/lang/interp.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view source(reinterpret_cast<const char*>(data), size);
  std::ostringstream out;
  try {
    kiln::lang::Interp in(&out);
    in.step_limit = 20000;
    in.recursion_limit = 200;
    in.run_source(source, "fuzz.py");
  } catch (const kiln::lang::ScriptException&) {
    // An uncaught Python exception is a fine outcome.
  } catch (const kiln::Error&) {
    // So is rejected source or a step-limit stop.
  }
  return 0;
}
