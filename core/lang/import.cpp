// Importing the script's own modules: mymod.py and packages (pkg/__init__.py)
// found on sys.path, run once each with the module object as their globals,
// as CPython's import system does for source files. Built-in modules (torch,
// math, the prelude's stdlib) stay in Interp::modules_; user code sees them
// after the files on sys.path, prelude code sees nothing else.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/lang/compiler.h"
#include "core/lang/interp.h"
#include "core/lang/objops.h"
#include "core/lang/parser.h"
#include "core/lang/vm.h"

namespace kiln::lang {
namespace {

namespace fs = std::filesystem;

bool is_file(const fs::path& p) {
  std::error_code ec;
  return fs::is_regular_file(p, ec);
}

bool is_dir(const fs::path& p) {
  std::error_code ec;
  return fs::is_directory(p, ec);
}

// CPython's built-in modules (sys.builtin_module_names) that kiln also has:
// a file of the same name on sys.path does not shadow them.
bool never_shadowed(const std::string& name) {
  static const char* const kNames[] = {"sys", "builtins", "time", "itertools"};
  if (name.starts_with('_')) return true;  // kiln's internal modules (_random, _os, ...)
  return std::any_of(std::begin(kNames), std::end(kNames), [&](const char* n) { return name == n; });
}

[[noreturn]] void raise_class(Interp& in, const char* cls, const std::string& msg) {
  throw ScriptException{in.new_exception(in.builtin(cls), msg), {}};
}

// A module's location for ImportError texts: its file, or CPython's "unknown location".
std::string location_of(const ModuleObj& m) {
  const Obj* file = const_cast<OrderedMap&>(m.attrs).find(std::string_view("__file__"));
  return file && file->kind() == Kind::Str ? file->as<StrObj>()->value : "unknown location";
}

std::string read_source(Interp& in, const std::string& file) {
  std::ifstream f(file, std::ios::binary);
  if (!f) raise_class(in, "ImportError", "cannot read '" + file + "'");
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

// The SyntaxError a bad imported file raises: CPython's str(e) is
// "msg (file.py, line N)", with msg/filename/lineno/offset/text attributes
// that format_exception prints the caret from.
ScriptException syntax_exception(Interp& in, const Error& e) {
  const SourceLoc& loc = e.loc();
  std::string base = fs::path(loc.file).filename().string();
  std::string text(in.source_line(loc.file, loc.line));
  Obj exc = in.new_exception(in.builtin("SyntaxError"),
                             std::string(e.what()) + " (" + base + ", line " + std::to_string(loc.line) + ")");
  if (auto* inst = exc.as<InstanceObj>()) {
    inst->attrs.set("msg", make_str(e.what()));
    inst->attrs.set("filename", make_str(loc.file));
    inst->attrs.set("lineno", Obj::from_int(loc.line));
    inst->attrs.set("offset", Obj::from_int(loc.col));
    inst->attrs.set("text", text.empty() ? Obj() : make_str(text + "\n"));
  }
  return ScriptException{exc, {}};
}

// "..m" in a module whose __package__ is "a.b" names "a.m".
std::string resolve_relative(Interp& in, const std::string& name, const OrderedMap& globals) {
  size_t level = name.find_first_not_of('.');
  if (level == std::string::npos) level = name.size();
  if (level == 0) return name;
  const Obj* pkg = const_cast<OrderedMap&>(globals).find(std::string_view("__package__"));
  if (!pkg || pkg->kind() != Kind::Str || pkg->as<StrObj>()->value.empty())
    raise_class(in, "ImportError", "attempted relative import with no known parent package");
  std::string base = pkg->as<StrObj>()->value;
  for (size_t i = 1; i < level; ++i) {
    size_t dot = base.rfind('.');
    if (dot == std::string::npos) raise_class(in, "ImportError", "attempted relative import beyond top-level package");
    base.resize(dot);
  }
  std::string rest = name.substr(level);
  return rest.empty() ? base : base + "." + rest;
}

std::vector<std::string> str_items(const Obj* list) {
  std::vector<std::string> out;
  if (const ListObj* l = list ? list->as<ListObj>() : nullptr)
    for (const Obj& o : l->items)
      if (o.kind() == Kind::Str) out.push_back(o.as<StrObj>()->value);
  return out;
}

// Where `leaf` lives in the directories `dirs`: a package directory (its
// __init__.py), else leaf.py. A directory without __init__.py found on the
// way is a namespace package when nothing else is (PEP 420).
struct Found {
  std::string file;               // "" for a namespace package
  std::vector<std::string> path;  // a package's __path__; empty for a plain module
  bool any = false;
};

Found find_module(const std::string& leaf, const std::vector<std::string>& dirs) {
  Found namespace_pkg;
  for (const std::string& d : dirs) {
    fs::path dir = d.empty() ? fs::path(".") : fs::path(d);
    fs::path pkg = dir / leaf;
    if (is_dir(pkg) && is_file(pkg / "__init__.py")) return {(pkg / "__init__.py").string(), {pkg.string()}, true};
    if (is_file(dir / (leaf + ".py"))) return {(dir / (leaf + ".py")).string(), {}, true};
    if (is_dir(pkg)) {
      namespace_pkg.path.push_back(pkg.string());
      namespace_pkg.any = true;
    }
  }
  return namespace_pkg;
}

}  // namespace

// A built-in module with built-in submodules (torch, torch.nn, os).
bool Interp::builtin_package(const std::string& name) const {
  const std::string prefix = name + ".";
  return std::any_of(modules_.begin(), modules_.end(), [&](const auto& m) { return m.first.starts_with(prefix); });
}

bool Interp::is_file_module(const Obj& m) const {
  const ModuleObj* mod = m.as<ModuleObj>();
  if (!mod) return false;
  auto it = modules_.find(mod->name);
  return it == modules_.end() || it->second.as<ModuleObj>() != mod;
}

void Interp::set_script_path(const std::string& path) {
  std::error_code ec;
  fs::path dir = fs::weakly_canonical(fs::absolute(path, ec), ec).parent_path();
  auto sys = modules_.find("sys");
  if (sys == modules_.end() || !sys->second.as<ModuleObj>()) return;
  Obj* list = sys->second.as<ModuleObj>()->attrs.find(std::string_view("path"));
  if (ListObj* l = list ? list->as<ListObj>() : nullptr) l->items.insert(l->items.begin(), make_str(dir.string()));
}

Obj Interp::import_name(const std::string& name, const OrderedMap& importer_globals, bool from_prelude) {
  if (from_prelude) return import_module(name);
  return load_user_module(resolve_relative(*this, name, importer_globals));
}

Obj Interp::import_from(const Obj& module, const std::string& name, bool from_prelude) {
  const ModuleObj* mod = module.as<ModuleObj>();
  const std::string full = mod->name + "." + name;
  if (from_prelude) return import_module(full);
  if (mod->attrs.find(std::string_view("__path__")) || !is_file_module(module)) {
    try {
      return load_user_module(full);
    } catch (const Error& e) {
      // Only "this submodule does not exist" becomes "cannot import name".
      if (e.kind() != ErrorKind::Import || !std::string_view(e.what()).starts_with("No module named '" + full + "'"))
        throw;
    }
  }
  bool partial = std::find(initializing_.begin(), initializing_.end(), mod->name) != initializing_.end();
  raise_class(*this, "ImportError",
              "cannot import name '" + name + "' from " +
                  (partial ? "partially initialized module '" + mod->name + "' (most likely due to a circular import)"
                           : "'" + mod->name + "'") +
                  " (" + location_of(*mod) + ")");
}

Obj Interp::load_user_module(const std::string& name) {
  if (auto it = user_modules_.find(name); it != user_modules_.end()) return it->second;
  size_t dot = name.rfind('.');
  Obj result;
  if (dot == std::string::npos) {
    Found f;
    if (!never_shadowed(name)) {
      auto sys = modules_.find("sys");
      const Obj* path = sys != modules_.end() ? sys->second.as<ModuleObj>()->attrs.find(std::string_view("path"))
                                              : nullptr;
      f = find_module(name, str_items(path));
    }
    if (!f.any) return user_modules_[name] = import_module(name);
    return exec_file_module(name, f.file, f.path);
  }
  Obj parent = load_user_module(name.substr(0, dot));
  if (!is_file_module(parent)) {
    if (!builtin_package(name.substr(0, dot)))
      throw Error("No module named '" + name + "'; '" + name.substr(0, dot) + "' is not a package", ErrorKind::Import);
    return user_modules_[name] = import_module(name);
  }
  ModuleObj& p = *parent.as<ModuleObj>();
  // The parent's body may have imported this submodule already.
  if (auto it = user_modules_.find(name); it != user_modules_.end()) return it->second;
  const Obj* path = p.attrs.find(std::string_view("__path__"));
  if (!path)
    throw Error("No module named '" + name + "'; '" + p.name + "' is not a package", ErrorKind::Import);
  Found f = find_module(name.substr(dot + 1), str_items(path));
  if (!f.any) throw Error("No module named '" + name + "'", ErrorKind::Import);
  return exec_file_module(name, f.file, f.path);
}

// Runs a module's file with the module object as its globals. It is in
// user_modules_ while it runs and leaves it again if its body raises, as in
// CPython; a package's submodule becomes an attribute of the package.
Obj Interp::exec_file_module(const std::string& name, const std::string& file, std::vector<std::string> path) {
  Obj mod = make<ModuleObj>(name);
  OrderedMap& g = mod.as<ModuleObj>()->attrs;
  const bool package = !path.empty();
  size_t dot = name.rfind('.');
  g.set("__name__", make_str(name));
  g.set("__file__", file.empty() ? Obj() : make_str(file));
  g.set("__package__", make_str(package ? name : dot == std::string::npos ? "" : name.substr(0, dot)));
  if (package) {
    std::vector<Obj> dirs;
    for (const std::string& d : path) dirs.push_back(make_str(d));
    g.set("__path__", make_list(std::move(dirs)));
  }
  user_modules_[name] = mod;
  initializing_.push_back(name);
  struct Done {
    Interp& in;
    const std::string& name;
    bool ok = false;
    ~Done() {
      in.initializing_.erase(std::find(in.initializing_.begin(), in.initializing_.end(), name));
      if (!ok) in.user_modules_.erase(name);
    }
  } done{*this, name};
  if (!file.empty()) {
    std::string text = read_source(*this, file);
    add_source(file, text);
    Obj code;
    try {
      code = compile_module(parse_module(text, file));
    } catch (const Error& e) {
      if (e.kind() != ErrorKind::Syntax) throw;
      throw syntax_exception(*this, e);
    }
    run_body(*this, *code.as<Code>(), mod, g, {});
  }
  done.ok = true;
  if (dot != std::string::npos)
    if (auto parent = user_modules_.find(name.substr(0, dot)); parent != user_modules_.end())
      if (ModuleObj* pm = parent->second.as<ModuleObj>()) pm->attrs.set(name.substr(dot + 1), mod);
  return user_modules_[name];
}

}  // namespace kiln::lang
