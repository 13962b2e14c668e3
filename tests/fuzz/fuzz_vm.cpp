// libFuzzer target over the whole interpreter: any bytes run as a script
// must finish, raise a Python exception or be rejected as bad source; never
// crash, hang or leak. The step and recursion limits bound what a script can
// spend, so loops and runaway recursion end in an error, not a timeout.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string_view>

#include "core/alloc_limit.h"
#include "core/error.h"
#include "core/lang/interp.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view source(reinterpret_cast<const char*>(data), size);
  // Scripts asking for more than this get MemoryError / RuntimeError, well
  // under libFuzzer's default malloc and RSS limits (2 GB); small scripts
  // never need this much, and doubling loops stop sooner.
  kiln::set_alloc_limit(size_t(64) << 20);
  std::ostringstream out;
  try {
    kiln::lang::Interp in(&out);
    in.step_limit = 20000;
    in.recursion_limit = 200;
    // Formatting the failure is part of what a bad script exercises (kiln run prints it).
    try {
      in.run_source(source, "fuzz.py");
    } catch (const kiln::lang::ScriptException& e) {
      out << in.format_exception(e);
    } catch (const kiln::Error& e) {
      out << (e.kind() == kiln::ErrorKind::Syntax ? in.format_syntax_error(e) : e.describe());
    }
  } catch (const kiln::lang::ScriptException&) {
    // The interpreter failed to start: not the input's doing, but not a crash either.
  } catch (const kiln::Error&) {
  }
  return 0;
}
