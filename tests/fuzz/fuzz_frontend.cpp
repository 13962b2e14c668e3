// libFuzzer target over the front end: any bytes must parse and compile or
// raise kiln::Error, never crash, hang or leak.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/error.h"
#include "core/lang/compiler.h"
#include "core/lang/parser.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view source(reinterpret_cast<const char*>(data), size);
  try {
    kiln::lang::Module module = kiln::lang::parse_module(source, "fuzz.py");
    kiln::lang::compile_module(module);
  } catch (const kiln::Error&) {
    // Rejecting the input is a fine outcome.
  }
  return 0;
}
