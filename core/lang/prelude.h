// Modules written in the Kiln language itself (core/lang/prelude/*.py),
// embedded into the binary at build time: the torch ones run when an Interp
// starts, the standard-library ones on their first import.
#pragma once

#include <span>

namespace kiln::lang {

struct PreludeModule {
  const char* name;      // "torch.nn"
  const char* filename;  // "<prelude>/nn.py", shown in tracebacks
  const char* source;
};
// In dependency order.
std::span<const PreludeModule> prelude_modules();

}  // namespace kiln::lang
