// str.maketrans / str.translate / str.isprintable / str.format_map with
// CPython 3.11's results and error wording.
#pragma once

#include "core/lang/object.h"

namespace kiln::lang {

class Interp;

// A static method: the arguments are a.pos whether reached through str or a str.
Obj str_maketrans(Interp& in, const CallArgs& a);
Obj str_translate(Interp& in, const CallArgs& a);
Obj str_isprintable(Interp& in, const CallArgs& a);
// str.isprintable's test for one code point (repr escapes the others).
bool printable_code_point(uint32_t c);
Obj str_format_map(Interp& in, const CallArgs& a);

}  // namespace kiln::lang
