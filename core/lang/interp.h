// The interpreter: owns the built-in modules, runs scripts, and calls any
// callable. One Interp per process in practice (kiln run); tests create
// their own with output captured.
#pragma once

#include <functional>
#include <iosfwd>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/lang/bytecode.h"
#include "core/lang/object.h"

namespace kiln::lang {

// A Python exception in flight through C++ frames: the exception instance
// and the traceback collected while unwinding (innermost frame last).
struct TracebackEntry {
  std::string filename;
  std::string function;
  Pos pos;
};
struct ScriptException {
  Obj exc;  // an InstanceObj whose class derives from BaseException
  std::vector<TracebackEntry> traceback;
  bool reraised = false;  // a bare `raise`: the raising frame is already in the traceback
};

// Hooks the tracing JIT installs (core knows nothing of the JIT).
struct VmHooks {
  uint32_t hot_calls = 2;  // a Code called more often than this is hot
  uint32_t hot_loops = 2;  // a back-edge taken more often than this is hot
  std::function<void(Interp&, Code&)> on_hot_function;
  std::function<void(Interp&, Code&, size_t loop_head)> on_hot_loop;  // loop_head: the back-edge target
  // Regions. A frame of a code with jit_region set calls on_region_enter on
  // entry; true means it opened a region, and on_region_exit is then called
  // when the frame returns or an exception leaves it (unwinding).
  std::function<bool(Interp&, Code&)> on_region_enter;
  std::function<void(Interp&, Code&, bool unwinding)> on_region_exit;
  // Every back-edge of a loop from its hot_loops-th on (its next iteration is
  // the first captured); `captures`: whether this frame already
  // opened a region. Returns whether it has one now (closed at frame exit).
  std::function<bool(Interp&, Code&, size_t loop_head, bool captures)> on_loop_edge;
  // torch.compile'd calls (torch._C._jit_call_compiled): `key` is the compiled
  // wrapper, whose _fullgraph/_dynamic/_backend say how. Unset: a plain call.
  std::function<Obj(Interp&, const Obj& key, const Obj& fn, std::span<const Obj> pos, std::span<const Kwarg> kw)>
      call_compiled;
  std::function<void()> reset;  // torch.compiler.reset(): forget compiled graphs
};

class Interp {
 public:
  explicit Interp(std::ostream* out = nullptr);  // nullptr: std::cout
  ~Interp();
  Interp(const Interp&) = delete;
  Interp& operator=(const Interp&) = delete;

  // Runs a script as the module __main__. Raises ScriptException for an
  // uncaught Python exception and kiln::Error(Syntax) for bad source.
  void run_source(std::string_view source, const std::string& filename);
  void run_file(const std::string& path);
  // Formats an uncaught exception the way CPython does ("Traceback (most
  // recent call last):", file/line/function, the source line, "TypeError: msg").
  std::string format_exception(const ScriptException& e) const;
  // "File", the source line and a caret for a SyntaxError.
  std::string format_syntax_error(const Error& e) const;
  // For a SyntaxError instance with filename/lineno: CPython's "File ..." lines and caret.
  std::string syntax_error_location(const InstanceObj& inst, std::string& msg) const;

  // Calls anything callable: functions, builtins, bound methods, classes
  // (instantiation), instances with __call__.
  Obj call(const Obj& f, std::span<const Obj> pos, std::span<const Kwarg> kw = {});
  // o.name(*pos)
  Obj call_method(const Obj& o, const std::string& name, std::span<const Obj> pos = {});

  std::ostream& out() { return *out_; }
  // The builtins module (print, len, int, ..., exception classes).
  ModuleObj& builtins() { return *builtins_.as<ModuleObj>(); }
  Obj builtin(std::string_view name);  // Null when absent
  // The built-in class for an error kind (TypeError, ...), or by name ("Exception").
  Obj exc_class(ErrorKind k);
  // Creates an exception instance of `cls` with args (message).
  Obj new_exception(const Obj& cls, std::string message);
  // A ScriptException for a kiln::Error (maps its kind to the class).
  ScriptException to_script_exception(const Error& e);

  // Modules importable with `import name` (torch, torch.nn, math, time, sys, ...).
  void register_module(const std::string& name, Obj module);
  Obj import_module(const std::string& name);
  void link_submodules();  // each registered a.b becomes attribute b of module a  // ImportError (kiln::Error) when unknown

  // Imports for a script and the modules it imports from files (import.cpp).
  // `name` may be relative ("..m", "."), resolved against the importer's
  // __package__; user code finds modules on sys.path first (the script's
  // directory), then the built-in ones. Prelude code (`from_prelude`) sees only
  // the built-in modules, so a user's random.py never replaces kiln's own.
  Obj import_name(const std::string& name, const OrderedMap& importer_globals, bool from_prelude);
  // `from m import name` where m has no attribute `name`: the submodule m.name.
  Obj import_from(const Obj& module, const std::string& name, bool from_prelude);
  // sys.path[0] becomes the script's directory (CPython's rule for `python script.py`).
  void set_script_path(const std::string& path);

  // Source text of every file run, for tracebacks and syntax-error carets.
  void add_source(const std::string& filename, std::string text);
  std::string_view source_line(const std::string& filename, int line) const;

  std::vector<std::string> argv;  // sys.argv
  std::string kiln_version = "unknown";  // the runner's, for traces torch.profiler starts
  Obj main_globals;  // the script's module dict while it runs (torch.load finds __main__'s classes there)
  VmHooks hooks;
  int recursion_limit = 1000;
  int64_t step_limit = 0;  // >0: raise RuntimeError after this many instructions (fuzzing)

  // The VM (vm.cpp): runs a function's code with arguments bound.
  Obj call_function(const Obj& fn, std::span<const Obj> pos, std::span<const Kwarg> kw);

 private:
  friend struct Vm;
  std::ostream* out_;
  Obj builtins_;
  std::unordered_map<std::string, Obj> modules_;
  // What user code's imports resolved to, files and built-ins alike (CPython's
  // sys.modules as the script sees it); a module from a file is here while its
  // body runs (circular imports see it partially initialised).
  std::unordered_map<std::string, Obj> user_modules_;
  std::vector<std::string> initializing_;  // modules from files whose body is running
  Obj load_user_module(const std::string& name);
  Obj exec_file_module(const std::string& name, const std::string& file, std::vector<std::string> path);
  bool is_file_module(const Obj& m) const;
  bool builtin_package(const std::string& name) const;
  std::unordered_map<std::string, std::string> sources_;
  std::vector<Obj> exc_classes_;  // indexed by ErrorKind
 public:
  int depth = 0;            // Python call depth (RecursionError)
  int64_t steps = 0;        // instructions executed (for step_limit)
  std::vector<Obj> handling;  // exceptions being handled (bare `raise`), innermost last
  std::vector<std::vector<TracebackEntry>> handling_tb;  // their tracebacks
};

// Built-in modules (builtins.cpp, torch_module.cpp, math/time/sys in stdlib.cpp).
Obj make_builtins_module(Interp& in);
Obj make_torch_module(Interp& in);  // registers torch, torch.nn, torch.nn.functional, torch.optim, ...
void add_jit_natives(ModuleObj& torch_c);  // torch._C._jit_*: what prelude/compiler.py calls
void add_profiler_natives(ModuleObj& torch_c);  // torch._C._profiler_*: what prelude/profiler.py calls
void add_autograd_natives(ModuleObj& torch_c);  // torch._C's side of torch.autograd (torch_autograd.cpp)
void add_autocast_natives(ModuleObj& torch);  // torch.is_autocast_enabled, ... (torch_amp.cpp)
// Gives the functional builtins autocast lists their casts (torch_amp.cpp).
void wrap_autocast_functional(ModuleObj& functional);
void add_serialize_natives(ModuleObj& torch_c);  // torch._C's side of torch.save/load (torch_serialize.cpp)
void register_stdlib_modules(Interp& in);  // math, time, sys, _random, _os, _re, _frames (see docs/language.md)
Obj make_random_core();                    // _random: the Mersenne Twister under prelude/random.py
Obj make_os_core();                        // _os: the system calls under prelude/os.py and io.py
Obj make_re_core();                        // _re: std::regex matching under prelude/re.py

}  // namespace kiln::lang

namespace kiln::lang {
// sys.exit(code) raises SystemExit; the runner turns it into the exit status.
bool is_system_exit(Interp& in, const ScriptException& e, int& code);
}  // namespace kiln::lang
