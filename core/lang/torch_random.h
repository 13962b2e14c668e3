// torch.Generator's native side, the generator= argument of random ops, and
// torch.get_rng_state / set_rng_state. A torch.Generator (prelude
// core/lang/prelude/_generator.py) keeps its state in an int64 tensor in
// Generator::save()'s layout, so it is an ordinary object the VM frees.
#pragma once

#include <optional>
#include <string_view>

#include "core/lang/object.h"
#include "core/random.h"

namespace kiln::lang {

// For one op call: when `a` passes a torch.Generator as generator=, the
// random ops this thread runs meanwhile draw from it, and its state is
// written back when the call ends. Ops that draw nothing refuse the keyword.
class GeneratorArg {
 public:
  GeneratorArg(const CallArgs& a, std::string_view op);
  ~GeneratorArg();
  GeneratorArg(const GeneratorArg&) = delete;
  GeneratorArg& operator=(const GeneratorArg&) = delete;

 private:
  Tensor state_;
  std::optional<Generator> gen_;
  std::optional<GeneratorScope> scope_;
};

// torch.get_rng_state, torch.set_rng_state, and torch._C's generator helpers.
void add_random_functions(ModuleObj& torch, ModuleObj& c);

}  // namespace kiln::lang
