// The bytecode interpreter loop. Calls between Python functions stay in one
// dispatch loop (inline frames from a per-thread pool); C++ re-enters it only
// when native code calls back into Python (run_function, run_body). Frames
// take their locals, cells and operand stack from one contiguous value stack
// owned by the thread, so a call allocates nothing on the heap.
#include "core/lang/vm.h"

#include <pthread.h>

#include <algorithm>
#include <cmath>

#include "core/small_vector.h"
#include "traces/recorder.h"

#include "core/lang/builtins.h"
#include "core/lang/interp.h"
#include "core/lang/objops.h"
#include "core/lang/set_order.h"

namespace kiln::lang {

namespace {

// GCC only: clang rejects jumping past the initialised locals of later cases.
// GCC runs no destructors when a computed goto leaves a scope (GCC PR 37722), so
// a case's locals must go out of scope before its NEXT: a case with locals closes
// its braces first, or every Obj it still holds (`0.5 * t`'s t, `f(*args)`'s
// tuple) keeps its reference until the interpreter exits.
#if defined(__GNUC__) && !defined(__clang__)
#define KILN_COMPUTED_GOTO 1
#else
#define KILN_COMPUTED_GOTO 0
#endif

constexpr size_t kValueStackSize = 1 << 19;  // Objs (8 MiB); RecursionError long before it fills

struct ValueStack {
  std::unique_ptr<Obj[]> slots{new Obj[kValueStackSize]};
  size_t top = 0;
};
thread_local ValueStack* t_stack = nullptr;

ValueStack& value_stack() {
  if (!t_stack) t_stack = new ValueStack();  // lives for the thread; freed by release_value_stack
  return *t_stack;
}

// A block pushed by SETUP_FINALLY: where to go on an exception and how deep
// the operand stack and the "exceptions being handled" list were.
struct Block {
  uint32_t handler;
  uint32_t stack_depth;
  uint32_t handling_depth;
};

struct Frame {
  Code* code;
  FunctionObj* fn;      // null for module and class bodies
  OrderedMap* globals;  // the module namespace
  OrderedMap* names;    // LOAD_NAME/STORE_NAME namespace (module: == globals; class body: its dict)
  Obj* locals;
  Obj* cells;
  Obj* stack;  // operand stack base
  Obj* sp;     // one past the top
  uint32_t pc = 0;
  SmallVec<Block, 4> blocks;  // try/with nesting is shallow: no allocation per frame
  const Obj* globals_obj = nullptr;  // the module dict object (for MAKE_FUNCTION)
  // Frames the VM pushed itself for a Python-to-Python call return into their
  // caller inside the same dispatch loop; entry frames (caller null) return to C++.
  Frame* caller = nullptr;
  size_t slots_base = 0;  // value-stack index of this frame's first slot (inline frames)
  Obj fn_ref;             // keeps an inline frame's function (and globals) alive
  int64_t span_start = -1;  // trace::now_ns() at entry when a trace session records
  Frame* outer = nullptr;   // entry frames: the frame that was running when C++ called in
  bool captures = false;    // this frame opened a JIT region (VmHooks::on_region_enter/on_loop_edge)
  struct GeneratorObj* gen = nullptr;  // the generator this entry frame resumes (YIELD_VALUE saves into it)
};

// A generator: calling a function whose body yields makes one instead of
// running the body. Between next() calls its frame's slots (locals, cells,
// operand stack), pc and try blocks live here; resuming copies them onto the
// value stack as an entry frame, and YIELD_VALUE copies them back.
struct GeneratorObj : IteratorObj {
  Obj fn;                  // the generator function: its code and globals
  std::vector<Obj> slots;  // locals, cells, then `depth` operand-stack values
  uint32_t pc = 0, depth = 0;
  SmallVec<Block, 4> blocks;
  bool running = false, done = false, yielded = false;
  bool next(Interp& in, Obj& out) override { return resume(in, out, nullptr); }
  // Runs to the next yield (true) or the end; `pending` is raised at the yield first.
  bool resume(Interp& in, Obj& out, ScriptException* pending);
  const char* type_name() const override { return "generator"; }
  void clear_refs() override {
    fn = Obj();
    slots.clear();
  }
};

// The innermost frame of this thread (inline or entry), for current_frame().
thread_local Frame* t_top = nullptr;

// JIT regions: a frame of a code the JIT marked opens one on entry.
void region_enter(Interp& in, Frame& f) {
  if (f.code->jit_region && in.hooks.on_region_enter) f.captures = in.hooks.on_region_enter(in, *f.code);
}
void region_exit(Interp& in, Frame& f, bool unwinding) {
  if (!f.captures) return;
  f.captures = false;  // before the hook: if it throws, unwinding must not close the region twice
  in.hooks.on_region_exit(in, *f.code, unwinding);
}

// Records the interpreter span of a frame that is returning (or unwinding).
void end_call_span(const Frame& f) {
  trace::Session* s = trace::Session::current();
  if (!s) return;
  Code& c = *f.code;
  if (c.trace_generation != s->generation()) {
    c.trace_generation = s->generation();
    c.trace_name = s->strings().intern(c.qualname.empty() ? c.name : c.qualname);
    c.trace_file = s->strings().intern(c.filename);
  }
  trace::Event e;
  e.kind = trace::EventKind::Span;
  e.cat = trace::Category::interpreter;
  e.tid = trace::thread_index();
  e.ts_ns = f.span_start;
  e.dur_ns = trace::now_ns() - f.span_start;
  e.name = c.trace_name;
  e.loc = {c.trace_file, c.firstline, 1};
  s->record(e);
}

int64_t span_start_now() { return trace::enabled() ? trace::now_ns() : -1; }

// Ends an entry frame's span however run() leaves it.
struct SpanEnd {
  const Frame& f;
  ~SpanEnd() {
    if (f.span_start >= 0) end_call_span(f);
  }
};

// Inline frames come from a per-thread pool: calls are strictly nested.
struct FramePool {
  std::vector<std::unique_ptr<Frame>> frames;
  size_t used = 0;
};
thread_local FramePool* t_frames = nullptr;

// Reserves slots on the value stack for one frame; releases them on scope exit.
class FrameSlots {
 public:
  FrameSlots(size_t n) : vs_(value_stack()), base_(vs_.top) {
    if (vs_.top + n > kValueStackSize) throw Error("maximum recursion depth exceeded", ErrorKind::Recursion);
    vs_.top += n;
  }
  ~FrameSlots() {
    for (size_t i = base_; i < vs_.top; ++i) vs_.slots[i] = Obj();
    vs_.top = base_;
  }
  Obj* data() { return vs_.slots.get() + base_; }

 private:
  ValueStack& vs_;
  size_t base_;
};

// The lowest address this thread's C++ stack may reach before Python code
// re-entering the VM through C++ (a __repr__ calling repr, sorted's key=)
// must stop with RecursionError instead of overflowing the stack.
const char* stack_floor() {
  thread_local const char* floor = [] {
    pthread_attr_t attr;
    void* addr = nullptr;
    size_t size = 0;
    if (pthread_getattr_np(pthread_self(), &attr) != 0) return static_cast<const char*>(nullptr);
    pthread_attr_getstack(&attr, &addr, &size);
    pthread_attr_destroy(&attr);
    size_t margin = std::max<size_t>(size / 4, size_t(1) << 20);  // sanitizer frames are large
    return size > margin ? static_cast<const char*>(addr) + margin : static_cast<const char*>(nullptr);
  }();
  return floor;
}

class DepthGuard {
 public:
  explicit DepthGuard(Interp& in) : in_(in) {
    char probe;
    const char* floor = stack_floor();
    if (++in_.depth > in_.recursion_limit || (floor && &probe < floor)) {
      --in_.depth;
      throw Error("maximum recursion depth exceeded", ErrorKind::Recursion);
    }
  }
  ~DepthGuard() { --in_.depth; }

 private:
  Interp& in_;
};

[[noreturn]] void name_error(const std::string& name) {
  throw Error("name '" + name + "' is not defined", ErrorKind::Name);
}

// CPython raises UnboundLocalError (a NameError subclass) with this wording.
[[noreturn]] void unbound_local(Interp& in, const std::string& name) {
  std::string msg = "cannot access local variable '" + name + "' where it is not associated with a value";
  Obj cls = in.builtin("UnboundLocalError");
  if (cls.is_null()) throw Error(msg, ErrorKind::Name);
  throw ScriptException{in.new_exception(cls, msg), {}};
}

[[gnu::always_inline]] inline const Obj& name_obj(Code& code, uint32_t i) {
  if (code.name_objs.size() != code.names.size()) [[unlikely]] {
    code.name_objs.clear();
    for (const std::string& n : code.names) code.name_objs.push_back(intern(n));
  }
  return code.name_objs[i];
}

// ---- attribute caches ----------------------------------------------------------------------

[[gnu::always_inline]] inline AttrCache& attr_cache(Code& code, uint32_t pc, const ClassObj* cls, const Obj& key) {
  if (code.attr_cache.size() != code.code.size()) [[unlikely]]
    code.attr_cache.assign(code.code.size(), AttrCache{});
  AttrCache& c = code.attr_cache[pc];
  if (c.cls != cls || c.epoch != g_class_epoch) [[unlikely]] {
    c.cls = cls;
    c.epoch = g_class_epoch;
    c.class_attr = cls->lookup(key);
    // __class__ is no dict entry: storing it takes the generic path (set_instance_class).
    c.custom_setattr = cls->lookup(intern("__setattr__")).kind() == Kind::Function ||
                       key.as<StrObj>()->value == "__class__";
    c.has_getattr = !cls->lookup(intern("__getattr__")).is_null();
  }
  return c;
}

// o.name for an instance through the cache; false when the generic path must decide
// (properties, __getattr__, super objects, bound builtins).
bool load_attr_fast(Code& code, uint32_t pc, const Obj& o, uint32_t name, Obj& out) {
  const InstanceObj* inst = o.as<InstanceObj>();
  if (!inst) return false;
  const Obj& key = name_obj(code, name);
  AttrCache& c = attr_cache(code, pc, inst->cls.as<ClassObj>(), key);
  Kind k = c.class_attr.kind();
  if (k == Kind::Property) return false;
  if (const Obj* v = const_cast<InstanceObj*>(inst)->attrs.find_hinted(key, c.index_hint)) {
    out = *v;
    return true;
  }
  if (k == Kind::Function) {
    out = make<BoundMethodObj>(o, c.class_attr);
    return true;
  }
  if (k == Kind::Null || k == Kind::Builtin || k == Kind::StaticMethod || k == Kind::ClassMethod) return false;
  out = c.class_attr;  // a plain class attribute
  return true;
}

bool store_attr_fast(Code& code, uint32_t pc, const Obj& o, uint32_t name, Obj& v) {
  InstanceObj* inst = o.as<InstanceObj>();
  if (!inst) return false;
  const Obj& key = name_obj(code, name);
  AttrCache& c = attr_cache(code, pc, inst->cls.as<ClassObj>(), key);
  if (c.custom_setattr || c.class_attr.kind() == Kind::Property) return false;
  inst->attrs.set_hinted(key, std::move(v), c.index_hint);
  return true;
}

Obj load_global_slow(Interp& in, Frame& f, uint32_t i, uint32_t pc) {
  const Obj& key = name_obj(*f.code, i);
  Code& c = *f.code;
  if (c.global_cache.size() != c.code.size()) c.global_cache.assign(c.code.size(), GlobalCache{});
  OrderedMap& builtins = in.builtins().attrs;
  Obj* slot = f.globals->find(key);
  if (!slot) slot = builtins.find(key);
  if (!slot) name_error(c.names[i]);
  c.global_cache[pc] = {f.globals->uid(), f.globals->layout_version(), builtins.layout_version(), slot};
  return *slot;
}

// LOAD_GLOBAL at instruction pc: a cached slot while both namespaces keep their keys.
inline const Obj& load_global(Interp& in, Frame& f, uint32_t i, uint32_t pc, Obj& tmp) {
  Code& c = *f.code;
  if (pc < c.global_cache.size()) {
    const GlobalCache& g = c.global_cache[pc];
    if (g.globals_uid == f.globals->uid() && g.globals_version == f.globals->layout_version() &&
        g.builtins_version == in.builtins().attrs.layout_version())
      return *g.slot;
  }
  tmp = load_global_slow(in, f, i, pc);
  return tmp;
}

Obj load_name(Interp& in, Frame& f, uint32_t i) {
  const Obj& key = name_obj(*f.code, i);
  if (Obj* v = f.names->find(key)) return *v;
  if (f.names != f.globals)
    if (Obj* v = f.globals->find(key)) return *v;
  if (Obj* v = in.builtins().attrs.find(key)) return *v;
  name_error(f.code->names[i]);
}

CellObj& cell_at(Frame& f, uint32_t i) { return *f.cells[i].as<CellObj>(); }

const std::string& cell_name(const Code& c, uint32_t i) {
  return i < c.cellvars.size() ? c.cellvars[i] : c.freevars[i - c.cellvars.size()];
}

// ---- int fast paths ------------------------------------------------------------------------

[[gnu::always_inline]] inline bool int_fast(BinOpKind op, int64_t a, int64_t b, Obj& out) {
  int64_t r;
  switch (op) {
    case BinOpKind::Add:
      if (__builtin_add_overflow(a, b, &r)) return false;
      break;
    case BinOpKind::Sub:
      if (__builtin_sub_overflow(a, b, &r)) return false;
      break;
    case BinOpKind::Mult:
      if (__builtin_mul_overflow(a, b, &r)) return false;
      break;
    case BinOpKind::FloorDiv:
      if (b == 0 || (a == INT64_MIN && b == -1)) return false;
      r = a / b;
      if ((a % b != 0) && ((a < 0) != (b < 0))) --r;
      break;
    case BinOpKind::Mod:
      if (b == 0 || b == -1) return false;
      r = a % b;
      if (r != 0 && ((r < 0) != (b < 0))) r += b;
      break;
    case BinOpKind::BitAnd: r = a & b; break;
    case BinOpKind::BitOr: r = a | b; break;
    case BinOpKind::BitXor: r = a ^ b; break;
    default:
      return false;
  }
  out = Obj::from_int(r);
  return true;
}

[[gnu::always_inline]] inline bool float_fast(BinOpKind op, double a, double b, Obj& out) {
  switch (op) {
    case BinOpKind::Add: out = Obj::from_float(a + b); return true;
    case BinOpKind::Sub: out = Obj::from_float(a - b); return true;
    case BinOpKind::Mult: out = Obj::from_float(a * b); return true;
    case BinOpKind::Div:
      if (b == 0) return false;
      out = Obj::from_float(a / b);
      return true;
    default: return false;
  }
}

[[gnu::always_inline]] inline Obj binary(Interp& in, BinOpKind op, const Obj& a, const Obj& b) {
  Obj out;
  if (a.is_int() && b.is_int()) {
    if (int_fast(op, a.as_int(), b.as_int(), out)) return out;
  } else if (a.is_float() && b.is_float()) {
    if (float_fast(op, a.as_float(), b.as_float(), out)) return out;
  }
  return binary_op(in, op, a, b);
}

[[gnu::always_inline]] inline bool compare_fast(CmpOpKind op, const Obj& a, const Obj& b, bool& out) {
  if (!(a.is_int() && b.is_int()) && !(a.is_float() && b.is_float())) return false;
  double x, y;
  if (a.is_int()) {
    int64_t p = a.as_int(), q = b.as_int();
    switch (op) {
      case CmpOpKind::Lt: out = p < q; return true;
      case CmpOpKind::LtE: out = p <= q; return true;
      case CmpOpKind::Gt: out = p > q; return true;
      case CmpOpKind::GtE: out = p >= q; return true;
      case CmpOpKind::Eq: out = p == q; return true;
      case CmpOpKind::NotEq: out = p != q; return true;
      default: return false;
    }
  }
  x = a.as_float(), y = b.as_float();
  switch (op) {
    case CmpOpKind::Lt: out = x < y; return true;
    case CmpOpKind::LtE: out = x <= y; return true;
    case CmpOpKind::Gt: out = x > y; return true;
    case CmpOpKind::GtE: out = x >= y; return true;
    case CmpOpKind::Eq: out = x == y; return true;
    case CmpOpKind::NotEq: out = x != y; return true;
    default: return false;
  }
}

[[gnu::always_inline]] inline bool is_true(Interp& in, const Obj& o) {
  switch (o.kind()) {
    case Kind::Bool: return o.as_bool();
    case Kind::None: return false;
    case Kind::Int: return o.as_int() != 0;
    default: return truthy(in, o);
  }
}

// ---- unpacking --------------------------------------------------------------------------------

std::vector<Obj> sequence_items(Interp& in, const Obj& seq) {
  if (TupleObj* t = seq.as<TupleObj>()) return t->items;
  if (ListObj* l = seq.as<ListObj>()) return l->items;
  std::vector<Obj> items;
  extend_from_iterable(in, items, seq);
  return items;
}

void unpack_sequence(Interp& in, Frame& f, uint32_t n) {
  Obj seq = std::move(*--f.sp);
  std::vector<Obj> items = sequence_items(in, seq);
  if (items.size() != n) {
    if (items.size() > n)
      throw Error(detail::cat("too many values to unpack (expected ", n, ")"), ErrorKind::Value);
    throw Error(detail::cat("not enough values to unpack (expected ", n, ", got ", items.size(), ")"),
                ErrorKind::Value);
  }
  for (size_t i = n; i-- > 0;) *f.sp++ = std::move(items[i]);
}

void unpack_ex(Interp& in, Frame& f, uint32_t arg) {
  size_t before = arg & 0xff, after = arg >> 8;
  Obj seq = std::move(*--f.sp);
  std::vector<Obj> items = sequence_items(in, seq);
  if (items.size() < before + after)
    throw Error(detail::cat("not enough values to unpack (expected at least ", before + after, ", got ",
                            items.size(), ")"),
                ErrorKind::Value);
  for (size_t i = items.size(); i-- > items.size() - after;) *f.sp++ = std::move(items[i]);
  std::vector<Obj> mid(std::make_move_iterator(items.begin() + before),
                       std::make_move_iterator(items.end() - after));
  *f.sp++ = make_list(std::move(mid));
  for (size_t i = before; i-- > 0;) *f.sp++ = std::move(items[i]);
}

// ---- calls from the stack ----------------------------------------------------------------------

// The keyword arguments of a call: the last len(names) values before args_end,
// moved out of the stack.
std::vector<Kwarg> take_kwargs(const TupleObj* names, Obj* args_end) {
  std::vector<Kwarg> kw;
  if (!names) return kw;
  size_t nkw = names->items.size();
  kw.reserve(nkw);
  for (size_t i = 0; i < nkw; ++i)
    kw.push_back({&names->items[i].as<StrObj>()->value, std::move(args_end[i - nkw])});
  return kw;
}

// Pops everything from `base` up and pushes the call's result.
void replace_with_result(Frame& f, Obj* base, Obj result) {
  while (f.sp > base) *--f.sp = Obj();
  *f.sp++ = std::move(result);
}

// Calls f with the n values above it on the stack (the last `names` of them
// keyword arguments) and replaces them all with the result.
void call_from_stack(Interp& in, Frame& f, uint32_t n, const TupleObj* names) {
  Obj* args = f.sp - n;
  Obj* callee = args - 1;
  std::vector<Kwarg> kw = take_kwargs(names, f.sp);
  std::span<const Obj> pos(args, n - kw.size());
  Obj result = kw.empty() && callee->kind() == Kind::Function ? run_function(in, *callee->as<FunctionObj>(), pos, {})
                                                              : in.call(*callee, pos, kw);
  replace_with_result(f, callee, std::move(result));
}

// CALL_METHOD: [meth self args] or [NULL bound args].
void call_method_from_stack(Interp& in, Frame& f, uint32_t n, const TupleObj* names) {
  Obj* meth = f.sp - n - 2;
  std::vector<Kwarg> kw = take_kwargs(names, f.sp);
  Obj result;
  if (meth->is_null()) {
    result = in.call(meth[1], std::span<const Obj>(meth + 2, n - kw.size()), kw);
  } else if (const BuiltinObj* b = meth->as<BuiltinObj>(); b && b->self.is_null()) {
    // A cached built-in method: the receiver travels in CallArgs::self.
    result = b->fn(in, CallArgs{std::span<const Obj>(meth + 2, n - kw.size()), kw, meth[1], b});
  } else {
    // [meth self args]: self becomes the first positional argument.
    std::span<const Obj> pos(meth + 1, n + 1 - kw.size());
    result = kw.empty() && meth->kind() == Kind::Function ? run_function(in, *meth->as<FunctionObj>(), pos, {})
                                                          : in.call(*meth, pos, kw);
  }
  replace_with_result(f, meth, std::move(result));
}

void call_ex(Interp& in, Frame& f, uint32_t has_kw) {
  Obj kwargs = has_kw ? std::move(*--f.sp) : Obj();
  Obj args = std::move(*--f.sp);
  Obj callee = std::move(*--f.sp);
  std::vector<Obj> pos = sequence_items(in, args);
  std::vector<Kwarg> kw;
  if (DictObj* d = kwargs.as<DictObj>()) {
    d->map.for_each([&](const Obj& k, const Obj& v) {
      kw.push_back({&str_of(k, "keywords"), v});
    });
  }
  *f.sp++ = in.call(callee, pos, kw);
}

// Code of kiln's own Python modules: its imports see only the built-in modules.
bool is_prelude_code(const Code& c) { return c.filename.starts_with("<prelude>"); }

// `from m import *`: the names in m.__all__ when it has one, else every
// attribute whose name does not start with an underscore.
void import_star(Interp& in, const Obj& m, OrderedMap& names) {
  const ModuleObj* mod = m.as<ModuleObj>();
  if (!mod) throw Error("import * expects a module", ErrorKind::Type);
  if (const Obj* all = mod->attrs.find(std::string_view("__all__"))) {
    std::vector<Obj> keys;
    extend_from_iterable(in, keys, *all);
    for (const Obj& k : keys) {
      if (k.kind() != Kind::Str)
        throw Error("Item in " + mod->name + ".__all__ must be str, not " + type_name(k), ErrorKind::Type);
      names.set(k, getattr(in, m, k.as<StrObj>()->value));
    }
    return;
  }
  std::vector<std::pair<Obj, Obj>> items;  // copied: the target may be the module's own dict
  mod->attrs.for_each([&](const Obj& k, const Obj& v) {
    if (k.kind() == Kind::Str && !k.as<StrObj>()->value.starts_with('_')) items.emplace_back(k, v);
  });
  for (auto& [k, v] : items) names.set(k, v);
}

// Methods of built-in containers (list.append, dict.get, str.join): the
// method is looked up once per instruction and receiver kind, and called
// with the receiver in CallArgs::self, so no bound object is allocated.
bool load_builtin_method(Interp& in, Code& code, uint32_t pc, const Obj& self, uint32_t name, Obj& out) {
  Kind k = self.kind();
  if (k != Kind::List && k != Kind::Dict && k != Kind::Str && k != Kind::Set && k != Kind::Tuple) return false;
  if (k == Kind::Set && self.as<SetObj>()->frozen) return false;  // lacks the set's mutators: no per-kind cache
  // A tuple subclass's class may define the name itself (tuple's count or index redefined).
  if (k == Kind::Tuple && self.as<TupleObj>()->cls.kind() == Kind::Class) return false;
  if (code.attr_cache.size() != code.code.size()) code.attr_cache.assign(code.code.size(), AttrCache{});
  AttrCache& c = code.attr_cache[pc];
  if (c.receiver != k) {
    Obj bound = builtin_method(in, self, code.names[name]);
    const BuiltinObj* b = bound.as<BuiltinObj>();
    if (!b) return false;
    auto* unbound = new BuiltinObj(b->name, b->fn, b->data);
    unbound->ptr = b->ptr;
    c.receiver = k;
    c.method = Obj(unbound);
  }
  out = c.method;
  return true;
}

// Whether an instance's own attributes lack `key` (so the class's method is
// the answer), remembering the last map seen without it.
bool not_in_instance(AttrCache& c, const OrderedMap& attrs, const Obj& key) {
  if (c.absent_in == attrs.uid() && c.absent_version == attrs.layout_version()) return true;
  if (attrs.find(key)) return false;
  c.absent_in = attrs.uid();
  c.absent_version = attrs.layout_version();
  return true;
}

void load_method(Interp& in, Frame& f, uint32_t name) {
  Obj self = std::move(f.sp[-1]);
  Code& code = *f.code;
  if (InstanceObj* inst = self.as<InstanceObj>()) {
    const Obj& key = name_obj(code, name);
    AttrCache& c = attr_cache(code, f.pc - 1, inst->cls.as<ClassObj>(), key);
    if (c.class_attr.kind() == Kind::Function && not_in_instance(c, inst->attrs, key)) {
      f.sp[-1] = c.class_attr;
      *f.sp++ = std::move(self);
      return;
    }
  }
  if (load_builtin_method(in, code, f.pc - 1, self, name, f.sp[-1])) {
    *f.sp++ = std::move(self);
    return;
  }
  f.sp[-1] = Obj::null();
  *f.sp++ = getattr(in, self, code.names[name]);
}

Obj make_function(Frame& f, uint32_t flags) {
  Obj code = std::move(*--f.sp);
  auto* fn = new FunctionObj();
  Obj result(fn);
  Code& c = *code.as<Code>();
  if (flags & 8) fn->closure = std::move(f.sp[-1].as<TupleObj>()->items), *--f.sp = Obj();
  if (flags & 2) fn->kwdefaults = std::move(*--f.sp);
  if (flags & 1) fn->defaults = f.sp[-1].as<TupleObj>()->items, *--f.sp = Obj();
  fn->name = c.name;
  fn->qualname = c.qualname;
  fn->code = std::move(code);
  return result;
}

Obj exc_instance(Interp& in, const Obj& e) {
  if (ClassObj* c = e.as<ClassObj>()) {
    if (!c->is_exception) throw Error("exceptions must derive from BaseException", ErrorKind::Type);
    return in.call(e, {});
  }
  if (InstanceObj* i = e.as<InstanceObj>(); i && i->get_class().is_exception) return e;
  throw Error("exceptions must derive from BaseException", ErrorKind::Type);
}

}  // namespace

// ---- the loop -------------------------------------------------------------------------------------

struct Vm {
  static Obj run(Interp& in, Frame& entry, ScriptException* pending = nullptr);
  static Obj dispatch(Interp& in, Frame*& current);
  static bool handle(Interp& in, Frame& f, ScriptException& e);
  static bool unwind(Interp& in, Frame*& current, Frame& entry, ScriptException& e, size_t handling_depth);
};

namespace {

// Pushes a frame for fn(args...) inside the running dispatch loop. Only for
// plain positional signatures (Code::simple_args) called with exactly argcount
// positional arguments; the arguments are moved out of the caller's stack.
Frame* push_inline_frame(Interp& in, Frame* caller, const FunctionObj& fn, Obj* args) {
  Code& c = fn.get_code();
  if (in.depth + 1 > in.recursion_limit) throw Error("maximum recursion depth exceeded", ErrorKind::Recursion);
  if (in.step_limit && ++in.steps > in.step_limit) throw Error("kiln step limit exceeded", ErrorKind::Runtime);
  if (++c.call_count == in.hooks.hot_calls + 1 && in.hooks.on_hot_function) in.hooks.on_hot_function(in, c);
  ValueStack& vs = value_stack();
  size_t nl = c.nlocals(), need = nl + size_t(c.max_stack) + 1;
  if (vs.top + need > kValueStackSize) throw Error("maximum recursion depth exceeded", ErrorKind::Recursion);
  if (!t_frames) t_frames = new FramePool();
  FramePool& pool = *t_frames;
  if (pool.used == pool.frames.size()) pool.frames.push_back(std::make_unique<Frame>());
  Frame* f = pool.frames[pool.used++].get();
  ++in.depth;
  Obj* base = vs.slots.get() + vs.top;
  f->slots_base = vs.top;
  vs.top += need;
  size_t argc = size_t(c.argcount);
  for (size_t i = 0; i < argc; ++i) base[i] = std::move(args[i]);
  for (size_t i = argc; i < nl; ++i) base[i] = Obj::null();
  f->code = &c;
  f->fn = const_cast<FunctionObj*>(&fn);
  f->globals = f->names = &globals_map(fn.globals);
  f->globals_obj = &fn.globals;
  f->locals = base;
  f->cells = base + nl;
  f->stack = f->sp = base + nl;
  f->pc = 0;
  f->blocks.clear();
  f->caller = caller;
  f->span_start = span_start_now();
  f->outer = nullptr;
  f->captures = false;
  f->gen = nullptr;
  t_top = f;
  region_enter(in, *f);
  return f;
}

// Releases an inline frame's slots and returns its caller.
Frame* pop_inline_frame(Interp& in, Frame* f, bool unwinding = false) {
  region_exit(in, *f, unwinding);
  if (f->span_start >= 0) end_call_span(*f);
  ValueStack& vs = value_stack();
  for (size_t i = f->slots_base; i < vs.top; ++i) vs.slots[i] = Obj();
  vs.top = f->slots_base;
  f->fn_ref = Obj();
  --in.depth;
  --t_frames->used;
  t_top = f->caller;
  return f->caller;
}

bool can_inline(const Obj& callee, uint32_t nargs) {
  const FunctionObj* fn = callee.as<FunctionObj>();
  if (!fn) return false;
  const Code& c = fn->get_code();
  return c.simple_args() && uint32_t(c.argcount) == nargs && !c.is_generator;
}

}  // namespace

bool Vm::handle(Interp& in, Frame& f, ScriptException& e) {
  if (f.blocks.empty()) return false;
  Block b = f.blocks.back();
  f.blocks.pop_back();
  while (f.sp > f.stack + b.stack_depth) *--f.sp = Obj();
  in.handling.resize(b.handling_depth);
  in.handling.push_back(e.exc);
  in.handling_tb.resize(b.handling_depth);
  in.handling_tb.push_back(std::move(e.traceback));
  *f.sp++ = e.exc;
  f.pc = b.handler;
  return true;
}

// Walks an exception out through inline frames until one handles it; false
// when it leaves the entry frame (the caller of run rethrows it).
bool Vm::unwind(Interp& in, Frame*& cur, Frame& entry, ScriptException& e, size_t handling_depth) {
  for (;;) {
    Frame& f = *cur;
    // A re-raise keeps the entry this frame added when the exception first passed.
    if (e.reraised) e.reraised = false;
    else e.traceback.push_back({f.code->filename, f.code->name, f.code->positions[f.pc - 1]});
    if (handle(in, f, e)) return true;
    if (cur == &entry) {
      in.handling.resize(std::min(in.handling.size(), handling_depth));
      in.handling_tb.resize(in.handling.size());
      return false;
    }
    cur = pop_inline_frame(in, cur, true);
  }
}

// `pending`: an exception to raise where the entry frame stands before running
// on (generator.throw).
Obj Vm::run(Interp& in, Frame& entry, ScriptException* pending) {
  size_t handling_depth = in.handling.size();
  entry.outer = t_top;
  t_top = &entry;
  struct RestoreTop {
    Frame* outer;
    ~RestoreTop() { t_top = outer; }
  } restore{entry.outer};
  region_enter(in, entry);
  Frame* cur = &entry;
  if (pending && !unwind(in, cur, entry, *pending, handling_depth)) {
    region_exit(in, entry, true);
    throw *pending;
  }
  for (;;) {
    try {
      Obj result = dispatch(in, cur);
      region_exit(in, entry, false);
      return result;
    } catch (ScriptException& e) {
      if (!unwind(in, cur, entry, e, handling_depth)) {
        region_exit(in, entry, true);
        throw;
      }
    } catch (Error& err) {
      ScriptException e = in.to_script_exception(err);
      if (!unwind(in, cur, entry, e, handling_depth)) {
        region_exit(in, entry, true);
        throw e;
      }
    }
  }
}

#define POP() (std::move(*--sp))
#define TOP() (sp[-1])
#define PUSH(v) (*sp++ = (v))

Obj Vm::dispatch(Interp& in, Frame*& current) {
  Frame* f = current;
  Code* code = f->code;
  const Instr* instrs = code->code.data();
#if KILN_COMPUTED_GOTO
  // One indirect jump per opcode (better predicted than a shared switch jump).
  static void* const kLabels[] = {
#define KILN_OPCODE_LABEL(n) &&L_##n,
      KILN_OPCODES(KILN_OPCODE_LABEL)
#undef KILN_OPCODE_LABEL
  };
#define CASE(n) L_##n: case Op::n
#define NEXT                          \
  do {                                \
    ins = instrs[pc++];               \
    f->pc = pc;                        \
    f->sp = sp;                        \
    arg = ins.arg();                  \
    goto* kLabels[size_t(ins.op())];  \
  } while (0)
#else
#define CASE(n) case Op::n
#define NEXT continue
#endif
#define SWITCH_TO_FRAME()            \
  do {                               \
    code = f->code;                  \
    instrs = code->code.data();      \
    pc = f->pc;                      \
    sp = f->sp;                      \
  } while (0)
// Enters the function at *callee with the arguments above it as an inline
// frame; the caller resumes at pc with the callee's slot as its stack top.
#define ENTER_INLINE(callee_expr)                                                        \
  do {                                                                                   \
    Obj* callee = (callee_expr);                                                         \
    Frame* next_frame = push_inline_frame(in, f, *callee->as<FunctionObj>(), callee + 1); \
    next_frame->fn_ref = std::move(*callee);                                             \
    f->sp = callee;                                                                      \
    f->pc = pc;                                                                          \
    f = current = next_frame;                                                            \
    SWITCH_TO_FRAME();                                                                   \
  } while (0)
  // pc and sp live in registers; the frame's copies are updated at every
  // instruction so an exception sees where the instruction started.
  uint32_t pc = f->pc;
  Obj* sp = f->sp;
  Instr ins = instrs[0];
  uint32_t arg = 0;
  for (;;) {
    ins = instrs[pc++];
    f->pc = pc;
    f->sp = sp;
    arg = ins.arg();
    switch (ins.op()) {
      CASE(NOP):
      CASE(PRINT_EXPR):
        NEXT;
      CASE(POP_TOP):
        *--sp = Obj();
        NEXT;
      CASE(DUP_TOP):
        *sp = sp[-1];
        ++sp;
        NEXT;
      CASE(DUP_TOP_TWO):
        sp[0] = sp[-2];
        sp[1] = sp[-1];
        sp += 2;
        NEXT;
      CASE(ROT_TWO):
        sp[-1].swap(sp[-2]);
        NEXT;
      CASE(ROT_THREE):  // [a b c] -> [c a b]
        sp[-1].swap(sp[-2]);
        sp[-2].swap(sp[-3]);
        NEXT;
      CASE(ROT_FOUR):
        sp[-1].swap(sp[-2]);
        sp[-2].swap(sp[-3]);
        sp[-3].swap(sp[-4]);
        NEXT;
      CASE(LOAD_CONST):
        PUSH(code->consts[arg]);
        NEXT;
      CASE(LOAD_FAST): {
        const Obj& v = f->locals[arg];
        if (v.is_null())
          unbound_local(in, code->varnames[arg]);
        PUSH(v);
      }
      NEXT;
      CASE(STORE_FAST):
        f->locals[arg] = POP();
        NEXT;
      CASE(DELETE_FAST):
        if (f->locals[arg].is_null()) unbound_local(in, code->varnames[arg]);
        f->locals[arg] = Obj::null();
        NEXT;
      CASE(LOAD_DEREF): {
        const Obj& v = cell_at(*f, arg).value;
        if (v.is_null())
          throw Error("cannot access free variable '" + cell_name(*code, arg) +
                          "' where it is not associated with a value in enclosing scope",
                      ErrorKind::Name);
        PUSH(v);
      }
      NEXT;
      CASE(STORE_DEREF):
        cell_at(*f, arg).value = POP();
        NEXT;
      CASE(DELETE_DEREF):
        cell_at(*f, arg).value = Obj::null();
        NEXT;
      CASE(LOAD_CLOSURE):
        PUSH(f->cells[arg]);
        NEXT;
      CASE(LOAD_GLOBAL): {
        Obj tmp;
        PUSH(load_global(in, *f, arg, pc - 1, tmp));
      }
      NEXT;
      CASE(STORE_GLOBAL):
        f->globals->set(name_obj(*code, arg), POP());
        NEXT;
      CASE(DELETE_GLOBAL):
        if (!f->globals->erase(name_obj(*code, arg))) name_error(code->names[arg]);
        NEXT;
      CASE(LOAD_NAME):
        PUSH(load_name(in, *f, arg));
        NEXT;
      CASE(STORE_NAME):
        f->names->set(name_obj(*code, arg), POP());
        NEXT;
      CASE(DELETE_NAME):
        if (!f->names->erase(name_obj(*code, arg))) name_error(code->names[arg]);
        NEXT;
      CASE(LOAD_ATTR): {
        Obj v;
        if (load_attr_fast(*code, pc - 1, TOP(), arg, v)) TOP() = std::move(v);
        else TOP() = getattr(in, TOP(), code->names[arg]);
      }
      NEXT;
      CASE(STORE_ATTR): {
        Obj o = POP();
        Obj v = POP();
        if (!store_attr_fast(*code, pc - 1, o, arg, v)) setattr(in, o, code->names[arg], std::move(v));
      }
      NEXT;
      CASE(DELETE_ATTR): {
        Obj o = POP();
        delattr(in, o, code->names[arg]);
      }
      NEXT;
      CASE(LOAD_METHOD):
        f->sp = sp;
        load_method(in, *f, arg);
        sp = f->sp;
        NEXT;
      CASE(BINARY_SUBSCR): {
        Obj k = POP();
        Obj& o = TOP();
        bool done = false;
        if (ListObj* l = o.as<ListObj>(); l && k.is_int()) {
          int64_t i = k.as_int(), n = int64_t(l->items.size());
          if (i < 0) i += n;
          if (i >= 0 && i < n) {
            o = Obj(l->items[size_t(i)]);
            done = true;
          }
        }
        if (!done) o = getitem(in, o, k);
      }
      NEXT;
      CASE(STORE_SUBSCR): {
        Obj k = POP();
        Obj o = POP();
        Obj v = POP();
        setitem(in, o, k, std::move(v));
      }
      NEXT;
      CASE(DELETE_SUBSCR): {
        Obj k = POP();
        Obj o = POP();
        delitem(in, o, k);
      }
      NEXT;
      CASE(BINARY_OP): {
        Obj b = POP();
        TOP() = binary(in, BinOpKind(arg), TOP(), b);
      }
      NEXT;
      CASE(INPLACE_OP): {
        Obj b = POP();
        Obj& a = TOP();
        Obj out;
        if (a.is_int() && b.is_int() && int_fast(BinOpKind(arg), a.as_int(), b.as_int(), out)) a = out;
        else if (a.is_float() && b.is_float() && float_fast(BinOpKind(arg), a.as_float(), b.as_float(), out)) a = out;
        else a = inplace_op(in, BinOpKind(arg), a, b);
      }
      NEXT;
      CASE(UNARY_OP): {
        Obj& a = TOP();
        if (UnaryOpKind(arg) == UnaryOpKind::Not) a = Obj::from_bool(!is_true(in, a));
        else if (UnaryOpKind(arg) == UnaryOpKind::USub && a.is_int() && a.as_int() != INT64_MIN)
          a = Obj::from_int(-a.as_int());
        else if (UnaryOpKind(arg) == UnaryOpKind::USub && a.is_float()) a = Obj::from_float(-a.as_float());
        else a = unary_op(in, UnaryOpKind(arg), a);
      }
      NEXT;
      CASE(COMPARE_OP): {
        Obj b = POP();
        Obj& a = TOP();
        CmpOpKind op = CmpOpKind(arg);
        bool r;
        if (compare_fast(op, a, b, r)) a = Obj::from_bool(r);
        else if (op == CmpOpKind::Is) a = Obj::from_bool(a.is(b));
        else if (op == CmpOpKind::IsNot) a = Obj::from_bool(!a.is(b));
        else if (op == CmpOpKind::In) a = Obj::from_bool(contains(in, b, a));
        else if (op == CmpOpKind::NotIn) a = Obj::from_bool(!contains(in, b, a));
        else a = compare(in, op, a, b);
      }
      NEXT;
      CASE(TO_BOOL):
        TOP() = Obj::from_bool(is_true(in, TOP()));
        NEXT;
      CASE(BUILD_TUPLE):
      CASE(BUILD_LIST): {
        std::vector<Obj> items(std::make_move_iterator(sp - arg), std::make_move_iterator(sp));
        for (uint32_t i = 0; i < arg; ++i) *--sp = Obj();
        PUSH(ins.op() == Op::BUILD_TUPLE ? make_tuple(std::move(items)) : make_list(std::move(items)));
      }
      NEXT;
      CASE(BUILD_SET): {
        auto* s = new SetObj();
        Obj so(s);
        for (Obj* p = sp - arg; p < sp; ++p) s->map.set(*p, Obj());
        for (uint32_t i = 0; i < arg; ++i) *--sp = Obj();
        PUSH(so);
      }
      NEXT;
      CASE(BUILD_CONST_SET): {
        Obj folded = make<SetObj>();
        for (Obj* p = sp - arg; p < sp; ++p) folded.as<SetObj>()->map.set(*p, Obj());
        for (uint32_t i = 0; i < arg; ++i) *--sp = Obj();
        Obj rebuilt = make<SetObj>();  // CPython's compiler rebuilds the constant from its items
        for (const Obj& k : set_items_in_order(*folded.as<SetObj>())) rebuilt.as<SetObj>()->map.set(k, Obj());
        Obj so = make<SetObj>();
        set_add_all(in, *so.as<SetObj>(), rebuilt);
        PUSH(so);
      }
      NEXT;
      CASE(BUILD_DICT): {
        auto* d = new DictObj();
        Obj dobj(d);
        for (Obj* p = sp - 2 * arg; p < sp; p += 2) d->map.set(p[0], p[1]);
        for (uint32_t i = 0; i < 2 * arg; ++i) *--sp = Obj();
        PUSH(dobj);
      }
      NEXT;
      CASE(BUILD_SLICE): {
        Obj step = arg == 3 ? POP() : Obj();
        Obj hi = POP();
        Obj lo = POP();
        PUSH(make<SliceObj>(std::move(lo), std::move(hi), std::move(step)));
      }
      NEXT;
      CASE(BUILD_STRING): {
        std::string s;
        for (Obj* p = sp - arg; p < sp; ++p) s += p->as<StrObj>()->value;
        for (uint32_t i = 0; i < arg; ++i) *--sp = Obj();
        PUSH(make_str(std::move(s)));
      }
      NEXT;
      CASE(FORMAT_VALUE): {
        Obj spec = (arg & 4) ? POP() : Obj();
        Obj v = POP();
        uint32_t conv = arg & 3;
        if (conv == 1) v = make_str(str(in, v));
        else if (conv == 2 || conv == 3) v = make_str(repr(in, v));
        std::string_view spec_text = spec.is_none() ? std::string_view() : std::string_view(str_of(spec));
        if (v.kind() == Kind::Str && spec_text.empty()) PUSH(v);
        else PUSH(make_str(format_value(in, v, spec_text)));
      }
      NEXT;
      CASE(LIST_APPEND): {
        Obj v = POP();
        sp[-int(arg)].as<ListObj>()->items.push_back(std::move(v));
      }
      NEXT;
      CASE(SET_ADD): {
        Obj v = POP();
        sp[-int(arg)].as<SetObj>()->map.set(v, Obj());
      }
      NEXT;
      CASE(MAP_ADD): {
        Obj v = POP();
        Obj k = POP();
        sp[-int(arg)].as<DictObj>()->map.set(k, std::move(v));
      }
      NEXT;
      CASE(LIST_EXTEND): {
        Obj it = POP();
        extend_from_iterable(in, sp[-int(arg)].as<ListObj>()->items, it);
      }
      NEXT;
      CASE(DICT_UPDATE): {
        Obj m = POP();
        DictObj* src = m.as<DictObj>();
        if (!src) throw Error("argument after ** must be a mapping, not " + std::string(kind_name(m.kind())), ErrorKind::Type);
        OrderedMap& dst = sp[-int(arg)].as<DictObj>()->map;
        src->map.for_each([&](const Obj& k, const Obj& v) { dst.set(k, v); });
      }
      NEXT;
      CASE(LIST_TO_TUPLE):
        TOP() = make_tuple(std::move(TOP().as<ListObj>()->items));
        NEXT;
      CASE(UNPACK_SEQUENCE):
        if (TupleObj* t = TOP().as<TupleObj>(); t && t->items.size() == arg) {
          Obj seq = POP();
          for (size_t i = arg; i-- > 0;) PUSH(seq.as<TupleObj>()->items[i]);
        } else {
          f->sp = sp;
          unpack_sequence(in, *f, arg);
          sp = f->sp;
        }
        NEXT;
      CASE(UNPACK_EX):
        f->sp = sp;
        unpack_ex(in, *f, arg);
        sp = f->sp;
        NEXT;
      CASE(JUMP):
        pc = arg;
        NEXT;
      CASE(JUMP_BACK):
        // Checks before jumping, so an error here is reported at the back-edge's line.
        if (in.step_limit && ++in.steps > in.step_limit)
          throw Error("kiln step limit exceeded", ErrorKind::Runtime);
        if ((in.hooks.on_hot_loop || in.hooks.on_loop_edge) && !code->is_generator) {
          if (code->loop_counts.size() != code->code.size()) code->loop_counts.assign(code->code.size(), 0);
          uint32_t& count = code->loop_counts[arg];
          if (count <= in.hooks.hot_loops) {
            if (++count == in.hooks.hot_loops + 1 && in.hooks.on_hot_loop) in.hooks.on_hot_loop(in, *code, arg);
          }
          // From the hot_loops-th back-edge on (so the next iteration, the third by
          // default, is captured), the JIT opens a region or ends an iteration's graph.
          if (count >= in.hooks.hot_loops && in.hooks.on_loop_edge)
            f->captures = in.hooks.on_loop_edge(in, *code, arg, f->captures);
        }
        pc = arg;
        NEXT;
      CASE(POP_JUMP_IF_FALSE): {
        Obj c = POP();
        if (!is_true(in, c)) pc = arg;
      }
      NEXT;
      CASE(POP_JUMP_IF_TRUE): {
        Obj c = POP();
        if (is_true(in, c)) pc = arg;
      }
      NEXT;
      CASE(JUMP_IF_FALSE_OR_POP):
        if (!is_true(in, TOP())) pc = arg;
        else *--sp = Obj();
        NEXT;
      CASE(JUMP_IF_TRUE_OR_POP):
        if (is_true(in, TOP())) pc = arg;
        else *--sp = Obj();
        NEXT;
      CASE(GET_ITER):
        TOP() = iter(in, TOP());
        NEXT;
      CASE(FOR_ITER): {
        Obj next;
        if (TOP().as<IteratorObj>()->next(in, next)) {
          PUSH(std::move(next));
        } else {
          *--sp = Obj();
          pc = arg;
        }
      }
      NEXT;
      CASE(CALL):
        if (can_inline(sp[-int(arg) - 1], arg)) {
          ENTER_INLINE(sp - arg - 1);
          NEXT;
        }
        f->sp = sp;
        call_from_stack(in, *f, arg, nullptr);
        sp = f->sp;
        NEXT;
      CASE(CALL_KW): {
        Obj names = POP();
        f->sp = sp;
        call_from_stack(in, *f, arg, names.as<TupleObj>());
        sp = f->sp;
      }
      NEXT;
      CASE(CALL_EX):
        f->sp = sp;
        call_ex(in, *f, arg);
        sp = f->sp;
        NEXT;
      CASE(CALL_METHOD):
        if (!sp[-int(arg) - 2].is_null() && can_inline(sp[-int(arg) - 2], arg + 1)) {
          ENTER_INLINE(sp - arg - 2);
          NEXT;
        }
        f->sp = sp;
        call_method_from_stack(in, *f, arg, nullptr);
        sp = f->sp;
        NEXT;
      CASE(CALL_METHOD_KW): {
        Obj names = POP();
        f->sp = sp;
        call_method_from_stack(in, *f, arg, names.as<TupleObj>());
        sp = f->sp;
      }
      NEXT;
      CASE(MAKE_FUNCTION): {
        f->sp = sp;
        Obj fn = make_function(*f, arg);
        sp = f->sp;
        fn.as<FunctionObj>()->globals = *f->globals_obj;
        PUSH(std::move(fn));
      }
      NEXT;
      CASE(LOAD_BUILD_CLASS):
        PUSH(in.builtin("__build_class__"));
        NEXT;
      CASE(YIELD_VALUE): {
        Obj value = POP();
        PUSH(Obj::none());  // what the yield expression is when the generator resumes
        GeneratorObj* g = f->gen;
        if (!g || f->caller) throw Error("internal error: yield outside a generator's frame", ErrorKind::Runtime);
        g->slots.assign(std::make_move_iterator(f->locals), std::make_move_iterator(sp));
        g->depth = uint32_t(sp - f->stack);
        g->pc = pc;
        g->blocks = f->blocks;
        g->yielded = true;
        f->sp = f->stack;
        return value;
      }
      CASE(RETURN_VALUE): {
        Obj result = POP();
        if (!f->caller) return result;
        f = current = pop_inline_frame(in, f);
        SWITCH_TO_FRAME();
        PUSH(std::move(result));
      }
      NEXT;
      CASE(SETUP_FINALLY):
        f->blocks.push_back({arg, uint32_t(sp - f->stack), uint32_t(in.handling.size())});
        NEXT;
      CASE(POP_BLOCK):
        f->blocks.pop_back();
        NEXT;
      CASE(POP_EXCEPT):
        *--sp = Obj();
        if (!in.handling.empty()) {
          in.handling.pop_back();
          in.handling_tb.pop_back();
        }
        NEXT;
      CASE(RERAISE): {
        Obj exc = POP();
        ScriptException e{exc, {}};
        if (!in.handling.empty() && in.handling.back().is(exc)) {
          e.traceback = std::move(in.handling_tb.back());
          e.reraised = true;
          in.handling.pop_back();
          in.handling_tb.pop_back();
        }
        throw e;
      }
      CASE(RAISE_VARARGS): {
        if (arg == 0) {
          if (in.handling.empty()) throw Error("No active exception to reraise", ErrorKind::Runtime);
          throw ScriptException{in.handling.back(), in.handling_tb.back(), true};
        }
        Obj cause = arg == 2 ? POP() : Obj();
        Obj exc = exc_instance(in, POP());
        if (!cause.is_none()) exc.as<InstanceObj>()->attrs.set("__cause__", exc_instance(in, cause));
        throw ScriptException{exc, {}};
      }
      CASE(JUMP_IF_NOT_EXC_MATCH): {
        Obj cls = POP();
        if (!isinstance(in, TOP(), cls)) pc = arg;
      }
      NEXT;
      CASE(BEFORE_WITH): {
        Obj mgr = POP();
        Obj exit = getattr(in, mgr, "__exit__");
        Obj enter = getattr(in, mgr, "__enter__");
        PUSH(std::move(exit));
        PUSH(in.call(enter, {}));
      }
      NEXT;
      CASE(WITH_EXIT): {
        Obj exit = POP();
        Obj none[3];
        in.call(exit, none);
      }
      NEXT;
      CASE(WITH_EXCEPT): {
        Obj exc = TOP();
        Obj args[3] = {type_of(in, exc), exc, Obj()};
        Obj r = in.call(sp[-2], args);
        PUSH(Obj::from_bool(is_true(in, r)));
      }
      NEXT;
      CASE(IMPORT_NAME):
        PUSH(in.import_name(code->names[arg], *f->globals, is_prelude_code(*code)));
        NEXT;
      CASE(IMPORT_FROM): {
        const Obj& m = TOP();
        const std::string& name = code->names[arg];
        Obj v;
        if (ModuleObj* mod = m.as<ModuleObj>(); mod && mod->attrs.find(name)) v = *mod->attrs.find(name);
        else if (mod) v = in.import_from(m, name, is_prelude_code(*code));
        else v = getattr(in, m, name);
        PUSH(std::move(v));
      }
      NEXT;
      CASE(IMPORT_STAR): {
        Obj m = POP();
        import_star(in, m, *f->names);
      }
      NEXT;
      CASE(LOAD_ASSERTION_ERROR):
        PUSH(in.exc_class(ErrorKind::Assertion));
        NEXT;
      case Op::kCount:
        throw Error("bad opcode", ErrorKind::Runtime);
    }
  }
#undef CASE
#undef NEXT
#undef SWITCH_TO_FRAME
#undef ENTER_INLINE
}

#undef POP
#undef TOP
#undef PUSH

// ---- entry points ----------------------------------------------------------------------------------

namespace {

[[noreturn]] void arg_error(const Code& c, const std::string& msg) {
  throw Error(c.qualname + "() " + msg, ErrorKind::Type);
}

std::string quoted_list(const std::vector<std::string>& names) {
  std::string s;
  for (size_t i = 0; i < names.size(); ++i) {
    if (i) s += names.size() == 2 ? " and " : (i + 1 == names.size() ? ", and " : ", ");
    s += "'" + names[i] + "'";
  }
  return s;
}

// Places positional and keyword arguments into the frame's parameter slots.
void bind_arguments(const FunctionObj& fn, const Code& c, Obj* locals, std::span<const Obj> pos,
                    std::span<const Kwarg> kw) {
  size_t argc = size_t(c.argcount), kwonly = size_t(c.kwonlyargcount);
  size_t npos = std::min(pos.size(), argc);
  for (size_t i = 0; i < npos; ++i) locals[i] = pos[i];
  size_t slot = argc + kwonly;
  if (c.has_varargs) {
    std::vector<Obj> extra(pos.begin() + long(npos), pos.end());
    locals[slot++] = make_tuple(std::move(extra));
  } else if (pos.size() > argc) {
    size_t min = argc - fn.defaults.size();
    std::string takes = min == argc ? detail::cat(argc) : detail::cat("from ", min, " to ", argc);
    arg_error(c, detail::cat("takes ", takes, " positional argument", argc == 1 ? "" : "s", " but ", pos.size(),
                             pos.size() == 1 ? " was" : " were", " given"));
  }
  DictObj* varkw = nullptr;
  if (c.has_varkw) {
    Obj d = make<DictObj>();
    varkw = d.as<DictObj>();
    locals[slot] = std::move(d);
  }
  for (const Kwarg& k : kw) {
    size_t i = 0;
    while (i < argc + kwonly && c.varnames[i] != *k.name) ++i;
    if (i < argc + kwonly) {
      if (!locals[i].is_null()) arg_error(c, "got multiple values for argument '" + *k.name + "'");
      locals[i] = k.value;
    } else if (varkw) {
      varkw->map.set(make_str(*k.name), k.value);
    } else {
      arg_error(c, "got an unexpected keyword argument '" + *k.name + "'");
    }
  }
  size_t first_default = argc - fn.defaults.size();
  std::vector<std::string> missing;
  for (size_t i = npos; i < argc; ++i) {
    if (!locals[i].is_null()) continue;
    if (i >= first_default) locals[i] = fn.defaults[i - first_default];
    else missing.push_back(c.varnames[i]);
  }
  if (!missing.empty())
    arg_error(c, detail::cat("missing ", missing.size(), " required positional argument", missing.size() == 1 ? "" : "s",
                             ": ", quoted_list(missing)));
  for (size_t i = argc; i < argc + kwonly; ++i) {
    if (!locals[i].is_null()) continue;
    DictObj* kd = fn.kwdefaults.as<DictObj>();
    Obj* v = kd ? kd->map.find(c.varnames[i]) : nullptr;
    if (v) locals[i] = *v;
    else missing.push_back(c.varnames[i]);
  }
  if (!missing.empty())
    arg_error(c, detail::cat("missing ", missing.size(), " required keyword-only argument", missing.size() == 1 ? "" : "s",
                             ": ", quoted_list(missing)));
}

}  // namespace

namespace {

// A call's cells: its cellvars (a parameter's moved into its cell), then the
// function's closure for its freevars.
void fill_cells(const FunctionObj& fn, Obj* locals, Obj* cells) {
  const Code& c = fn.get_code();
  for (size_t i = 0; i < c.cellvars.size(); ++i) {
    int p = i < c.cell_param.size() ? c.cell_param[i] : -1;
    cells[i] = make<CellObj>(p >= 0 ? locals[p] : Obj::null());
  }
  for (size_t i = 0; i < c.freevars.size(); ++i) cells[c.cellvars.size() + i] = fn.closure[i];
}

// The generator for a call of `fn`: its arguments bound as a call would bind
// them, the body not started. Generator code never counts calls or loops for
// the JIT: a region cannot be suspended.
Obj make_generator(const FunctionObj& fn, std::span<const Obj> pos, std::span<const Kwarg> kw) {
  Code& c = fn.get_code();
  const size_t nl = c.nlocals(), nc = c.ncells();
  Obj out = make<GeneratorObj>();
  GeneratorObj& g = *out.as<GeneratorObj>();
  g.fn = Obj(const_cast<FunctionObj*>(&fn));
  g.slots.assign(nl + nc, Obj::null());
  Obj* base = g.slots.data();
  bind_arguments(fn, c, base, pos, kw);
  fill_cells(fn, base, base + nl);
  return out;
}

}  // namespace

// Runs the generator's frame from where it stopped to its next yield (true,
// the value in `out`) or its end (false).
bool GeneratorObj::resume(Interp& in, Obj& out, ScriptException* pending) {
  if (pending && (done || pc == 0)) {  // not started or finished: it raises without running
    done = true, slots.clear();
    throw *pending;
  }
  if (done) return false;
  if (running) throw Error("generator already executing", ErrorKind::Value);
  const FunctionObj& f_obj = *fn.as<FunctionObj>();
  Code& c = f_obj.get_code();
  DepthGuard depth_guard(in);
  const size_t nl = c.nlocals(), nc = c.ncells();
  FrameSlots frame_slots(nl + nc + size_t(c.max_stack) + 1);
  Obj* base = frame_slots.data();
  for (size_t i = 0; i < slots.size(); ++i) base[i] = std::move(slots[i]);
  Frame f{&c, const_cast<FunctionObj*>(&f_obj), &globals_map(f_obj.globals), nullptr, base, base + nl,
          base + nl + nc, base + nl + nc + depth};
  f.names = f.globals;
  f.globals_obj = &f_obj.globals;
  f.pc = pc;
  f.blocks = blocks;
  f.gen = this;
  f.span_start = span_start_now();
  SpanEnd span_end{f};
  running = true;
  yielded = false;
  struct Stop {
    GeneratorObj& g;
    ~Stop() {
      g.running = false;
      if (!g.yielded) g.done = true, g.slots.clear();  // returned or raised: finished for good
    }
  } stop{*this};
  // A yield inside an except block leaves the handler's exception behind:
  // it belongs to the suspended frame, not to the caller's code.
  const size_t handling = in.handling.size();
  out = Vm::run(in, f, pending);
  in.handling.resize(std::min(in.handling.size(), handling));
  in.handling_tb.resize(in.handling.size());
  return yielded;
}

bool is_generator(const Obj& o) {
  auto* it = o.as<IteratorObj>();
  return it && dynamic_cast<GeneratorObj*>(it);
}

Obj generator_throw(Interp& in, const CallArgs& a) {
  a.check("throw", 1, 1);
  auto* g = dynamic_cast<GeneratorObj*>(a.self.as<IteratorObj>());
  KILN_CHECK(g, Type, "throw() needs a generator");
  ScriptException pending{exc_instance(in, a.pos[0]), {}};
  Obj out;
  if (g->resume(in, out, &pending)) return out;
  raise_exception(in, find_builtin_class(in, "StopIteration"), {});
}

Obj run_function(Interp& in, const FunctionObj& fn, std::span<const Obj> pos, std::span<const Kwarg> kw) {
  Code& c = fn.get_code();
  if (c.is_generator) return make_generator(fn, pos, kw);
  DepthGuard depth(in);
  if (in.step_limit && ++in.steps > in.step_limit) throw Error("kiln step limit exceeded", ErrorKind::Runtime);
  if (++c.call_count == in.hooks.hot_calls + 1 && in.hooks.on_hot_function) in.hooks.on_hot_function(in, c);
  size_t nl = c.nlocals(), nc = c.ncells();
  FrameSlots slots(nl + nc + size_t(c.max_stack) + 1);
  Obj* base = slots.data();
  for (size_t i = 0; i < nl; ++i) base[i] = Obj::null();
  Frame f{&c, const_cast<FunctionObj*>(&fn), &globals_map(fn.globals), nullptr, base, base + nl,
          base + nl + nc, base + nl + nc};
  f.names = f.globals;
  f.globals_obj = &fn.globals;
  f.span_start = span_start_now();
  SpanEnd span_end{f};
  if (kw.empty() && pos.size() == size_t(c.argcount) && c.simple_args())
    std::copy(pos.begin(), pos.end(), base);
  else
    bind_arguments(fn, c, base, pos, kw);
  fill_cells(fn, base, f.cells);
  return Vm::run(in, f);
}

Obj run_body(Interp& in, Code& c, const Obj& globals, OrderedMap& names, const std::vector<Obj>& closure) {
  DepthGuard depth(in);
  size_t nl = c.nlocals(), nc = c.ncells();
  FrameSlots slots(nl + nc + size_t(c.max_stack) + 1);
  Obj* base = slots.data();
  for (size_t i = 0; i < nl; ++i) base[i] = Obj::null();
  Frame f{&c, nullptr, &globals_map(globals), &names, base, base + nl, base + nl + nc, base + nl + nc};
  f.globals_obj = &globals;
  f.span_start = span_start_now();
  SpanEnd span_end{f};
  for (size_t i = 0; i < c.cellvars.size(); ++i) f.cells[i] = make<CellObj>();
  for (size_t i = 0; i < c.freevars.size() && i < closure.size(); ++i) f.cells[c.cellvars.size() + i] = closure[i];
  return Vm::run(in, f);
}

FrameRef current_frame() {
  if (!t_top) return {};
  return {t_top->code, t_top->pc > 0 ? t_top->pc - 1 : 0, t_top->globals};
}

std::vector<FrameRef> current_stack(size_t max) {
  std::vector<FrameRef> out;
  for (Frame* f = t_top; f && out.size() < max; f = f->caller ? f->caller : f->outer)
    out.push_back({f->code, f->pc > 0 ? f->pc - 1 : 0, f->globals});
  return out;
}

void release_value_stack() {
  delete t_stack;
  t_stack = nullptr;
  delete t_frames;
  t_frames = nullptr;
}

}  // namespace kiln::lang
