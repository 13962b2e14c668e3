#include "core/lang/function_attrs.h"

#include <vector>

#include "core/lang/bytecode.h"

namespace kiln::lang {
namespace {

Obj str_tuple(const std::vector<std::string>& names) {
  std::vector<Obj> items;
  for (const std::string& n : names) items.push_back(make_str(n));
  return make_tuple(std::move(items));
}

// CPython's CO_* bits that a script can observe through co_flags.
int64_t code_flags(const Code& c) {
  enum : int64_t { kOptimized = 1, kNewLocals = 2, kVarArgs = 4, kVarKeywords = 8, kNested = 16, kGenerator = 32 };
  if (c.code_kind != CodeKind::Function) return 0;
  int64_t f = kOptimized | kNewLocals;
  if (c.has_varargs) f |= kVarArgs;
  if (c.has_varkw) f |= kVarKeywords;
  if (c.qualname.find("<locals>") != std::string::npos) f |= kNested;
  if (c.is_generator) f |= kGenerator;
  return f;
}

DictObj* function_dict(FunctionObj& f) {
  if (f.dict.kind() != Kind::Dict) f.dict = Obj(new DictObj());
  return f.dict.as<DictObj>();
}

Obj plain_function_attr(const Obj& o, const std::string& name) {
  auto* f = o.as<FunctionObj>();
  if (auto* d = f->dict.as<DictObj>())
    if (const Obj* v = d->map.find(std::string_view(name))) return *v;
  if (name == "__name__") return make_str(f->name);
  if (name == "__qualname__") return make_str(f->qualname);
  if (name == "__module__") {  // the defining module's __name__, as CPython's
    const Obj* n = f->globals.is_null() ? nullptr : globals_map(f->globals).find(std::string_view("__name__"));
    return n && n->kind() == Kind::Str ? *n : make_str("__main__");
  }
  if (name == "__doc__") return Obj();
  if (name == "__defaults__") return f->defaults.empty() ? Obj() : make_tuple(f->defaults);
  if (name == "__kwdefaults__") return f->kwdefaults.kind() == Kind::Dict ? f->kwdefaults : Obj();
  if (name == "__code__") return f->code;
  if (name == "__dict__") {
    function_dict(*f);
    return f->dict;
  }
  if (name == "__annotations__") {  // an empty dict, kept, when the def has none
    if (f->annotations.kind() != Kind::Dict) f->annotations = make<DictObj>();
    return f->annotations;
  }
  return Obj::null();
}

}  // namespace

Obj function_attr(const Obj& o, const std::string& name) {
  if (o.kind() == Kind::Function) return plain_function_attr(o, name);
  if (auto* b = o.as<BuiltinObj>()) {
    if (name == "__name__" || name == "__qualname__") return make_str(b->name);
    if (name == "__self__") return b->self.is_null() ? Obj() : b->self;
  }
  if (auto* m = o.as<BoundMethodObj>()) {
    if (name == "__self__") return m->self;
    if (name == "__func__") return m->func;
    // Everything else is the function's (CPython forwards unknown names to __func__).
    if (m->func.kind() == Kind::Function || m->func.kind() == Kind::Builtin) return function_attr(m->func, name);
  }
  return Obj::null();
}

Obj code_attr(const Obj& code, const std::string& name) {
  const Code& c = *static_cast<const Code*>(code.heap());
  if (name == "co_name") return make_str(c.name);
  if (name == "co_qualname") return make_str(c.qualname);
  if (name == "co_filename") return make_str(c.filename);
  if (name == "co_firstlineno") return Obj::from_int(c.firstline);
  if (name == "co_argcount") return Obj::from_int(c.argcount);
  if (name == "co_posonlyargcount") return Obj::from_int(0);  // `/` is not in the subset
  if (name == "co_kwonlyargcount") return Obj::from_int(c.kwonlyargcount);
  if (name == "co_nlocals") return Obj::from_int(int64_t(c.nlocals()));
  if (name == "co_varnames") return str_tuple(c.varnames);
  if (name == "co_cellvars") return str_tuple(c.cellvars);
  if (name == "co_freevars") return str_tuple(c.freevars);
  if (name == "co_flags") return Obj::from_int(code_flags(c));
  return Obj::null();
}

bool function_setattr(const Obj& o, const std::string& name, const Obj& value) {
  auto* f = o.as<FunctionObj>();
  if (name == "__name__" || name == "__qualname__") {
    (name == "__name__" ? f->name : f->qualname) = str_of(value, name.c_str());
    return true;
  }
  if (name == "__code__" || name == "__defaults__" || name == "__kwdefaults__" || name == "__dict__") return false;
  if (name == "__annotations__") {
    KILN_CHECK(value.kind() == Kind::Dict || value.is_none(), Type, "__annotations__ must be set to a dict object");
    f->annotations = value;
    return true;
  }
  function_dict(*f)->map.set(make_str(name), value);
  return true;
}

bool function_delattr(const Obj& o, const std::string& name) {
  if (name == "__annotations__") {
    o.as<FunctionObj>()->annotations = Obj();
    return true;
  }
  auto* d = o.as<FunctionObj>()->dict.as<DictObj>();
  return d && d->map.erase(make_str(name));
}

}  // namespace kiln::lang
