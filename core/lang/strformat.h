// String formatting: the format-spec mini-language (format(v, spec), f-string
// `{v:spec}`), printf-style `fmt % args`, and str.format. Every entry point
// follows CPython 3.11's output and error wording.
#pragma once

#include <string>
#include <string_view>

#include "core/lang/object.h"

namespace kiln::lang {

class Interp;

// format(v, spec) for the built-in number kinds and str; TypeError for a spec
// that does not apply ("Unknown format code 'x' for object of type 'float'").
std::string format_int(int64_t v, std::string_view spec);
std::string format_float(double v, std::string_view spec);
std::string format_str(const std::string& s, std::string_view spec);

// fmt % args: args is a tuple (one value per conversion), a mapping for
// %(name)s conversions, or any single value.
std::string percent_format(Interp& in, const std::string& fmt, const Obj& args);

// fmt.format(*args, **kwargs); with a mapping, fmt.format_map(mapping).
std::string str_format(Interp& in, const std::string& fmt, const CallArgs& args, const Obj* mapping = nullptr);

}  // namespace kiln::lang
