#include "core/lang/interp.h"

#include <algorithm>
#include <fstream>
#include <iostream>
#include <sstream>

#include "core/grad_hooks.h"
#include "core/lang/builtins.h"
#include "core/lang/compiler.h"
#include "core/lang/objops.h"
#include "core/lang/parser.h"
#include "core/lang/prelude.h"
#include "core/lang/torch_out.h"
#include "core/lang/vm.h"

namespace kiln::lang {

Obj build_class(Interp& in, const CallArgs& a);  // attrs.cpp
Obj make_super(Interp& in, const CallArgs& a);

namespace {

Obj self_or_first(const CallArgs& a, size_t& next) {
  if (!a.self.is_null()) return next = 0, a.self;
  if (a.pos.empty()) throw Error("descriptor needs an argument", ErrorKind::Type);
  return next = 1, a.pos[0];
}

// object.__init__: accepts nothing beyond self.
Obj object_init(Interp&, const CallArgs&) { return Obj(); }

// object.__setattr__(self, name, value): stores without calling a user __setattr__.
Obj object_setattr(Interp&, const CallArgs& a) {
  size_t i;
  Obj self = self_or_first(a, i);
  if (a.pos.size() != i + 2) throw Error("__setattr__ expected 2 arguments", ErrorKind::Type);
  InstanceObj* inst = self.as<InstanceObj>();
  if (!inst) throw Error("object.__setattr__ needs an instance", ErrorKind::Type);
  std::string name = str_of(a.pos[i], "attribute name");
  if (name == "__class__") {
    set_instance_class(*inst, a.pos[i + 1]);
    return Obj();
  }
  inst->attrs.set(name, a.pos[i + 1]);
  return Obj();
}

// object.__delattr__(self, name): removes without calling a user __delattr__.
Obj object_delattr(Interp&, const CallArgs& a) {
  size_t i;
  Obj self = self_or_first(a, i);
  if (a.pos.size() != i + 1) throw Error("__delattr__ expected 1 argument", ErrorKind::Type);
  InstanceObj* inst = self.as<InstanceObj>();
  if (!inst) throw Error("object.__delattr__ needs an instance", ErrorKind::Type);
  std::string name = str_of(a.pos[i], "attribute name");
  if (!inst->attrs.erase(make_str(name)))
    throw Error("'" + inst->get_class().name + "' object has no attribute '" + name + "'", ErrorKind::Attribute);
  return Obj();
}

// object.__new__(cls, *args): a bare instance of a class statement's class,
// its __init__ not run (what copy.copy and copy.deepcopy build on).
Obj object_new(Interp&, const CallArgs& a) {
  size_t i;
  Obj cls = self_or_first(a, i);
  const ClassObj* c = cls.as<ClassObj>();
  if (!c) throw Error("object.__new__(X): X is not a type object (" + type_name(cls) + ")", ErrorKind::Type);
  if (c->native_kind != Kind::Instance || c->is_exception)
    throw Error("object.__new__(" + c->name + ") is not safe, use " + c->name + ".__new__()", ErrorKind::Type);
  return make<InstanceObj>(cls);
}

// tuple.__new__(cls, iterable=()): a tuple of the iterable's items, of class
// `cls` when that is a subclass (a namedtuple's __new__ ends here).
Obj tuple_new(Interp& in, const CallArgs& a) {
  size_t i;
  Obj cls = self_or_first(a, i);
  const ClassObj* c = cls.as<ClassObj>();
  if (!c) throw Error("tuple.__new__(X): X is not a type object (" + type_name(cls) + ")", ErrorKind::Type);
  Obj tuple = find_builtin_class(in, "tuple");
  if (!c->is_subclass_of(tuple.as<ClassObj>()) || c->native_kind != Kind::Tuple)
    throw Error("tuple.__new__(" + c->name + "): " + c->name + " is not a subtype of tuple", ErrorKind::Type);
  KILN_CHECK(a.kw.empty(), Type, "tuple() takes no keyword arguments");
  KILN_CHECK(a.pos.size() <= i + 1, Type, "tuple expected at most 1 argument, got ", a.pos.size() - i);
  std::vector<Obj> items;
  if (a.pos.size() > i) extend_from_iterable(in, items, a.pos[i]);
  Obj r = make_tuple(std::move(items));
  if (!cls.is(tuple)) r.as<TupleObj>()->cls = cls;
  return r;
}

// BaseException.__init__(self, *args): records args.
Obj exception_init(Interp&, const CallArgs& a) {
  size_t i;
  Obj self = self_or_first(a, i);
  if (InstanceObj* inst = self.as<InstanceObj>())
    inst->attrs.set("args", make_tuple(std::vector<Obj>(a.pos.begin() + long(i), a.pos.end())));
  return Obj();
}

// OSError.__init__(self, *args): as CPython's, OSError(errno, strerror[, filename[, winerror[,
// filename2]]]) sets those attributes (None otherwise), and args keeps (errno, strerror).
Obj os_error_init(Interp&, const CallArgs& a) {
  size_t i;
  Obj self = self_or_first(a, i);
  InstanceObj* inst = self.as<InstanceObj>();
  if (!inst) return Obj();
  std::vector<Obj> args(a.pos.begin() + long(i), a.pos.end());
  const bool named = args.size() >= 2 && args.size() <= 5;
  auto at = [&](size_t k) { return named && k < args.size() ? args[k] : Obj(); };
  inst->attrs.set("errno", at(0));
  inst->attrs.set("strerror", at(1));
  inst->attrs.set("filename", at(2));
  inst->attrs.set("filename2", at(4));
  if (named && args.size() > 2) args.resize(2);
  inst->attrs.set("args", make_tuple(std::move(args)));
  return Obj();
}

// object.__init_subclass__(): what a subclass hook's super() call ends at.
Obj object_init_subclass(Interp&, const CallArgs& a) {
  KILN_CHECK(a.kw.empty(), Type, "object.__init_subclass__() takes no keyword arguments");
  return Obj();
}

// SystemExit.__init__(self, *args): args, and CPython's `code` (None, the
// one argument, or the tuple of them).
Obj system_exit_init(Interp& in, const CallArgs& a) {
  exception_init(in, a);
  size_t i;
  Obj self = self_or_first(a, i);
  if (InstanceObj* inst = self.as<InstanceObj>()) {
    const Obj& args = *inst->attrs.find(std::string_view("args"));
    const auto& items = args.as<TupleObj>()->items;
    inst->attrs.set("code", items.empty() ? Obj() : items.size() == 1 ? items[0] : args);
  }
  return Obj();
}

void ensure_method(Interp& in, const char* cls, const char* name, NativeFn fn) {
  Obj c = in.builtin(cls);
  ClassObj* k = c.as<ClassObj>();
  if (k && !k->attrs.find(name)) k->attrs.set(name, make_builtin(name, fn));
}

std::string strip(std::string_view s) {
  size_t a = s.find_first_not_of(" \t\r\n");
  if (a == std::string_view::npos) return "";
  size_t b = s.find_last_not_of(" \t\r\n");
  return std::string(s.substr(a, b - a + 1));
}

// Runs a prelude module's source and registers the module it defines.
Obj load_prelude(Interp& in, const PreludeModule& m) {
  Obj globals = make<DictObj>();
  OrderedMap& g = globals.as<DictObj>()->map;
  g.set("__name__", make_str(m.name));
  in.add_source(m.filename, m.source);
  Obj code = compile_module(parse_module(m.source, m.filename));
  run_body(in, *code.as<Code>(), globals, g, {});
  Obj mod = make<ModuleObj>(m.name);
  g.for_each([&](const Obj& k, const Obj& v) { mod.as<ModuleObj>()->attrs.set(k, v); });
  in.register_module(m.name, mod);
  return mod;
}

}  // namespace

Interp::Interp(std::ostream* out) : out_(out ? out : &std::cout) {
  builtins_ = make_builtins_module(*this);
  builtins().attrs.set("__build_class__", make_builtin("__build_class__", build_class));
  builtins().attrs.set("super", make_builtin("super", make_super));
  ensure_method(*this, "object", "__init__", object_init);
  ensure_method(*this, "object", "__setattr__", object_setattr);
  ensure_method(*this, "object", "__delattr__", object_delattr);
  ensure_method(*this, "object", "__new__", object_new);
  ensure_method(*this, "object", "__init_subclass__", object_init_subclass);
  ensure_method(*this, "tuple", "__new__", tuple_new);
  ensure_method(*this, "BaseException", "__init__", exception_init);
  ensure_method(*this, "SystemExit", "__init__", system_exit_init);
  ensure_method(*this, "OSError", "__init__", os_error_init);
  register_module("builtins", builtins_);
  register_stdlib_modules(*this);
  make_torch_module(*this);
  // torch's prelude modules run now, the standard library's on their first
  // import (None marks them until then).
  for (const PreludeModule& m : prelude_modules()) {
    if (!*m.source) continue;
    if (std::string_view(m.name).starts_with("torch")) load_prelude(*this, m);
    else modules_[m.name] = Obj();
  }
  link_submodules();
}


// `import torch` gives torch.nn, torch.nn.functional, torch.optim, ... as
// attributes, as in PyTorch, where torch/__init__ imports them all.
void Interp::link_submodules() {
  for (const auto& [name, mod] : modules_) {
    const size_t dot = name.rfind('.');
    if (dot == std::string::npos) continue;
    auto parent = modules_.find(name.substr(0, dot));
    if (parent == modules_.end() || !parent->second.as<ModuleObj>() || !mod.as<ModuleObj>()) continue;
    OrderedMap& attrs = parent->second.as<ModuleObj>()->attrs;
    const std::string leaf = name.substr(dot + 1);
    if (!attrs.find(leaf)) attrs.set(std::string_view(leaf), mod);
  }
}

Interp::~Interp() {
  clear_grad_hooks();  // tensor hooks call into this interpreter
  handling.clear();
  handling_tb.clear();
  modules_.clear();
  exc_classes_.clear();
  builtins_ = Obj();
  main_globals = Obj();
  heap::clear_all();
  release_value_stack();
}

void Interp::run_source(std::string_view source, const std::string& filename) {
  add_source(filename, std::string(source));
  Obj code = compile_module(parse_module(source, filename));
  Obj globals = make<DictObj>();
  OrderedMap& g = globals.as<DictObj>()->map;
  g.set("__name__", make_str("__main__"));
  g.set("__file__", make_str(filename));
  main_globals = globals;
  run_body(*this, *code.as<Code>(), globals, g, {});
}

void Interp::run_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw Error("can't open file '" + path + "': No such file or directory", ErrorKind::Runtime);
  std::stringstream ss;
  ss << f.rdbuf();
  set_script_path(path);
  run_source(ss.str(), path);
}

// ---- calling --------------------------------------------------------------------------------

namespace {

// An instance of a tuple subclass: the class's own __new__ (a namedtuple's)
// makes it, else tuple.__new__(cls, iterable); a script __init__ then runs.
Obj instantiate_tuple(Interp& in, const Obj& c, std::span<const Obj> pos, std::span<const Kwarg> kw) {
  const ClassObj& cls = *c.as<ClassObj>();
  Obj new_fn = cls.lookup("__new__");
  if (const auto* sm = new_fn.as<StaticMethodObj>()) new_fn = sm->func;
  std::vector<Obj> args{c};
  args.insert(args.end(), pos.begin(), pos.end());
  Obj inst = new_fn.kind() == Kind::Function ? in.call(new_fn, args, kw) : tuple_new(in, CallArgs{args, kw, Obj::null()});
  if (!isinstance(in, inst, c)) return inst;
  Obj init = cls.lookup("__init__");
  if (init.kind() != Kind::Function) return inst;
  args[0] = inst;
  Obj r = in.call(init, args, kw);
  if (!r.is_none()) throw Error("__init__() should return None, not '" + type_name(r) + "'", ErrorKind::Type);
  return inst;
}

Obj instantiate(Interp& in, const Obj& c, std::span<const Obj> pos, std::span<const Kwarg> kw) {
  ClassObj& cls = *c.as<ClassObj>();
  if (cls.construct) return cls.construct(in, CallArgs{pos, kw, Obj::null()});
  if (cls.native_kind == Kind::Tuple) return instantiate_tuple(in, c, pos, kw);
  // A class statement's own __new__ (object's is a builtin) makes the
  // instance; as in CPython, __init__ runs only on an instance of the class.
  Obj new_fn = cls.lookup("__new__");
  if (const auto* sm = new_fn.as<StaticMethodObj>()) new_fn = sm->func;
  const bool own_new = new_fn.kind() == Kind::Function;
  Obj inst;
  if (own_new) {
    std::vector<Obj> args{c};
    args.insert(args.end(), pos.begin(), pos.end());
    inst = in.call(new_fn, args, kw);
    if (!isinstance(in, inst, c)) return inst;
  } else {
    inst = make<InstanceObj>(c);
  }
  if (cls.is_exception) inst.as<InstanceObj>()->attrs.set("args", make_tuple({pos.begin(), pos.end()}));
  Obj init = cls.lookup("__init__");
  if (init.is_null() || (init.kind() == Kind::Builtin && init.as<BuiltinObj>()->fn == object_init)) {
    if (!own_new && (!pos.empty() || !kw.empty())) throw Error(cls.name + "() takes no arguments", ErrorKind::Type);
    return inst;
  }
  std::vector<Obj> args;
  args.reserve(pos.size() + 1);
  args.push_back(inst);
  args.insert(args.end(), pos.begin(), pos.end());
  Obj r = in.call(init, args, kw);
  if (!r.is_none()) throw Error("__init__() should return None, not '" + std::string(kind_name(r.kind())) + "'",
                                ErrorKind::Type);
  return inst;
}

}  // namespace

Obj Interp::call(const Obj& f, std::span<const Obj> pos, std::span<const Kwarg> kw) {
  switch (f.kind()) {
    case Kind::Function:
      return run_function(*this, *f.as<FunctionObj>(), pos, kw);
    case Kind::Builtin: {
      const BuiltinObj& b = *f.as<BuiltinObj>();
      if (!kw.empty() && b.self.is_null() && has_out_kwarg(kw)) return call_with_out(*this, f, pos, kw);
      return b.fn(*this, CallArgs{pos, kw, b.self, &b});
    }
    case Kind::BoundMethod: {
      const BoundMethodObj& m = *f.as<BoundMethodObj>();
      Obj buf[8];
      if (pos.size() < 8) {
        buf[0] = m.self;
        std::copy(pos.begin(), pos.end(), buf + 1);
        return call(m.func, std::span<const Obj>(buf, pos.size() + 1), kw);
      }
      std::vector<Obj> args;
      args.push_back(m.self);
      args.insert(args.end(), pos.begin(), pos.end());
      return call(m.func, args, kw);
    }
    case Kind::Class:
      return instantiate(*this, f, pos, kw);
    default: {
      Obj c = special_method(*this, f, "__call__");
      if (!c.is_null()) return call(c, pos, kw);
      throw Error("'" + std::string(f.kind() == Kind::Instance ? f.as<InstanceObj>()->get_class().name
                                                               : std::string(kind_name(f.kind()))) +
                      "' object is not callable",
                  ErrorKind::Type);
    }
  }
}

Obj Interp::call_function(const Obj& fn, std::span<const Obj> pos, std::span<const Kwarg> kw) {
  return run_function(*this, *fn.as<FunctionObj>(), pos, kw);
}

Obj Interp::call_method(const Obj& o, const std::string& name, std::span<const Obj> pos) {
  return call(getattr(*this, o, name), pos);
}

Obj Interp::builtin(std::string_view name) {
  if (Obj* v = builtins().attrs.find(name)) return *v;
  return Obj::null();
}

// ---- exceptions -----------------------------------------------------------------------------

Obj Interp::exc_class(ErrorKind k) {
  size_t i = size_t(k);
  if (exc_classes_.size() <= i) exc_classes_.resize(i + 1);
  if (exc_classes_[i].is_none() || exc_classes_[i].is_null()) {
    // A missing module is ModuleNotFoundError, as in CPython (a subclass of ImportError).
    Obj c = builtin(k == ErrorKind::Import ? "ModuleNotFoundError" : error_kind_name(k));
    if (c.is_null()) c = builtin(error_kind_name(k));
    if (c.is_null()) c = builtin("RuntimeError");
    exc_classes_[i] = c;
  }
  return exc_classes_[i];
}

Obj Interp::new_exception(const Obj& cls, std::string message) {
  Obj arg[1] = {make_str(std::move(message))};
  return call(cls, arg);
}

ScriptException Interp::to_script_exception(const Error& e) {
  return ScriptException{new_exception(exc_class(e.kind()), e.what()), {}};
}

std::string Interp::format_exception(const ScriptException& e) const {
  std::string s = "Traceback (most recent call last):\n";
  for (auto it = e.traceback.rbegin(); it != e.traceback.rend(); ++it) {
    s += detail::cat("  File \"", it->filename, "\", line ", it->pos.line, ", in ", it->function, "\n");
    std::string line = strip(source_line(it->filename, it->pos.line));
    if (!line.empty()) s += "    " + line + "\n";
  }
  Interp& self = const_cast<Interp&>(*this);
  const InstanceObj* inst = e.exc.as<InstanceObj>();
  std::string name = inst ? inst->get_class().name : "Exception";
  std::string msg;
  try {
    msg = str(self, e.exc);
  } catch (...) {
    msg = "<exception str() failed>";
  }
  if (inst) s += syntax_error_location(*inst, msg);
  return s + name + (msg.empty() ? "" : ": " + msg) + "\n";
}

// A SyntaxError raised by importing a bad file (import.cpp) carries where it
// is: CPython prints that file, line and caret under the traceback and then
// the bare message (its `msg`, replacing `msg`).
std::string Interp::syntax_error_location(const InstanceObj& inst, std::string& msg) const {
  auto& attrs = const_cast<OrderedMap&>(inst.attrs);
  const Obj* file = attrs.find(std::string_view("filename"));
  const Obj* line = attrs.find(std::string_view("lineno"));
  const Obj* text = attrs.find(std::string_view("msg"));
  if (!file || file->kind() != Kind::Str || !line || !line->is_intlike() || !text || text->kind() != Kind::Str)
    return "";
  const std::string& path = file->as<StrObj>()->value;
  std::string out = detail::cat("  File \"", path, "\", line ", line->as_int(), "\n");
  std::string_view raw = source_line(path, int(line->as_int()));
  size_t indent = raw.find_first_not_of(" \t");
  if (indent != std::string_view::npos) {
    std::string src = strip(raw);
    out += "    " + src + "\n";
    const Obj* offset = attrs.find(std::string_view("offset"));
    int col = offset && offset->is_intlike() ? int(offset->as_int()) : 0;
    int caret = std::max(0, col - 1 - int(indent));
    out += "    " + std::string(size_t(std::min<int>(caret, int(src.size()))), ' ') + "^\n";
  }
  msg = text->as<StrObj>()->value;
  return out;
}

std::string Interp::format_syntax_error(const Error& e) const {
  const SourceLoc& loc = e.loc();
  std::string s;
  if (loc.known()) {
    s += detail::cat("  File \"", loc.file, "\", line ", loc.line, "\n");
    std::string_view raw = source_line(loc.file, loc.line);
    size_t indent = raw.find_first_not_of(" \t");
    if (indent != std::string_view::npos) {
      std::string line = strip(raw);
      s += "    " + line + "\n";
      int caret = std::max(0, loc.col - 1 - int(indent));
      s += "    " + std::string(size_t(std::min<int>(caret, int(line.size()))), ' ') + "^\n";
    }
  }
  return s + "SyntaxError: " + e.what() + (loc.known() ? " (" + loc.str() + ")" : "") + "\n";
}

// ---- modules and sources --------------------------------------------------------------------

void Interp::register_module(const std::string& name, Obj module) {
  modules_[name] = module;
  size_t dot = name.rfind('.');
  if (dot == std::string::npos) return;
  auto parent = modules_.find(name.substr(0, dot));
  if (parent != modules_.end())
    if (ModuleObj* p = parent->second.as<ModuleObj>()) p->attrs.set(name.substr(dot + 1), module);
}

Obj Interp::import_module(const std::string& name) {
  auto it = modules_.find(name);
  if (it != modules_.end() && !it->second.is_none()) return it->second;
  if (it != modules_.end())
    for (const PreludeModule& m : prelude_modules())
      if (m.name == name) return load_prelude(*this, m);
  throw Error("No module named '" + name + "'", ErrorKind::Import);
}

void Interp::add_source(const std::string& filename, std::string text) { sources_[filename] = std::move(text); }

std::string_view Interp::source_line(const std::string& filename, int line) const {
  auto it = sources_.find(filename);
  if (it == sources_.end() || line <= 0) return {};
  std::string_view s = it->second;
  for (int i = 1; i < line; ++i) {
    size_t nl = s.find('\n');
    if (nl == std::string_view::npos) return {};
    s.remove_prefix(nl + 1);
  }
  return s.substr(0, s.find('\n'));
}

}  // namespace kiln::lang

namespace kiln::lang {

bool is_system_exit(Interp& in, const ScriptException& e, int& code) {
  const InstanceObj* inst = e.exc.as<InstanceObj>();
  if (!inst || inst->get_class().name != "SystemExit") return false;
  code = 0;
  const Obj* args = const_cast<OrderedMap&>(inst->attrs).find("args");
  const TupleObj* t = args ? args->as<TupleObj>() : nullptr;
  if (t && !t->items.empty()) {
    const Obj& c = t->items[0];
    if (c.is_intlike()) code = int(c.as_int());
    else if (!c.is_none()) {
      in.out().flush();
      std::cerr << str(in, c) << "\n";
      code = 1;
    }
  }
  return true;
}

}  // namespace kiln::lang
