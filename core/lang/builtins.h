// The built-in classes the rest of the VM needs by name: the exception
// hierarchy (for turning kiln::Error into exception objects), the classes of
// built-in types (for type(), isinstance) and the NotImplemented singleton.
// All live in the builtins module made by make_builtins_module (interp.h).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"
#include "core/lang/object.h"

namespace kiln::lang {

class Interp;

// The built-in exception class for an error kind (TypeError for ErrorKind::Type, ...).
Obj exception_class_for(Interp& in, ErrorKind k);
// A built-in class by name: "int", "ValueError", "object", and the types that
// have no builtin name ("NoneType", "function", "module", ...). Null when absent.
Obj find_builtin_class(Interp& in, std::string_view name);
// The shared class of named result tuples with this struct_name (torch.return_types.max).
Obj return_type_class(Interp& in, std::string_view struct_name);
// The NotImplemented and Ellipsis singletons (binary dunders return NotImplemented to decline).
Obj not_implemented(Interp& in);
Obj ellipsis(Interp& in);
// An exception instance of `cls` whose args are exactly `args` (KeyError(1), SystemExit(2)).
Obj new_exception_with_args(Interp& in, const Obj& cls, std::vector<Obj> args);
// Raises that exception through the VM (throws ScriptException).
[[noreturn]] void raise_exception(Interp& in, const Obj& cls, std::vector<Obj> args);
// MemoryError unless `count` items of `item_bytes` each fit under kiln::alloc_limit():
// checked before building a huge list or str ([0] * 10**12), which would otherwise fail inside new.
void check_alloc(Interp& in, uint64_t count, uint64_t item_bytes);

// Shared by methods.cpp and builtins.cpp: dict.update / dict(...) from a
// mapping or pairs plus keywords, and list.sort / sorted (stable, key=, reverse=).
void dict_update_from(Interp& in, OrderedMap& m, const Obj& other, std::span<const Kwarg> kw);
void sort_objs(Interp& in, std::vector<Obj>& v, const Obj& key, bool reverse);

// Sets in.argv and sys.argv together (the runner calls it after constructing the Interp).
void set_argv(Interp& in, std::vector<std::string> argv);

}  // namespace kiln::lang
