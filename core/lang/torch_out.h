// torch.f(..., out=t): PyTorch's out= argument on the torch module's functions.
#pragma once

#include <span>

#include "core/lang/object.h"

namespace kiln::lang {

class Interp;

// True when the keywords include out=.
bool has_out_kwarg(std::span<const Kwarg> kw);
// Calls the built-in `fn` with out=: for torch's own functions, the function
// runs without it and its result is written into the out tensor (or each of
// a tuple of them), resized when its shape differs and cast when PyTorch's
// casting rule allows, through copy_ (which the tracer records); the out
// tensor comes back. Other built-ins see the keyword as usual.
Obj call_with_out(Interp& in, const Obj& fn, std::span<const Obj> pos, std::span<const Kwarg> kw);

}  // namespace kiln::lang
