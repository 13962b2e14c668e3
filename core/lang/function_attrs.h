// Attributes of functions, bound methods, built-ins and code objects, as
// CPython shows them: __name__, __defaults__, __kwdefaults__, __code__ (with
// co_varnames, co_argcount, co_flags, ...), __wrapped__ and whatever a script
// stores on a function (its __dict__). inspect.signature is built on these.
#pragma once

#include <string>

#include "core/lang/object.h"

namespace kiln::lang {

// Null when the object has no such attribute.
Obj function_attr(const Obj& o, const std::string& name);
Obj code_attr(const Obj& code, const std::string& name);
// f.name = value on a function; false when `name` cannot be stored there.
bool function_setattr(const Obj& f, const std::string& name, const Obj& value);
// del f.name; false when f has no such stored attribute.
bool function_delattr(const Obj& f, const std::string& name);

}  // namespace kiln::lang
