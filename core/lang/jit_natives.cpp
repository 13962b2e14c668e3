// torch._C._jit_*: the natives prelude/compiler.py and prelude/_dynamo.py call.
// They hand compiled calls to the JIT through VmHooks (core knows nothing of
// the JIT) and do what needs no JIT themselves: disabled calls run with
// deferral suspended, mark_dynamic marks the tensor.
#include <string>
#include <vector>

#include "core/lang/interp.h"
#include "core/lang/objops.h"
#include "core/lang/torch_bridge.h"
#include "core/lazy.h"

namespace kiln::lang {

namespace {

// fn(*args, **kwargs) from a tuple and a dict, as the prelude passes them.
struct Unpacked {
  std::vector<Obj> pos;
  std::vector<std::string> names;
  std::vector<Kwarg> kw;
};
Unpacked unpack(const Obj& args, const Obj& kwargs) {
  Unpacked u;
  if (const TupleObj* t = args.as<TupleObj>()) u.pos = t->items;
  if (const DictObj* d = kwargs.as<DictObj>()) {
    d->map.for_each([&](const Obj& k, const Obj&) { u.names.push_back(str_of(k, "keyword")); });
    size_t i = 0;
    d->map.for_each([&](const Obj&, const Obj& v) { u.kw.push_back({&u.names[i++], v}); });
  }
  return u;
}

Obj f_call_compiled(Interp& in, const CallArgs& a) {
  a.check("_jit_call_compiled", 4, 4);
  Unpacked u = unpack(a.pos[2], a.pos[3]);
  if (in.hooks.call_compiled) return in.hooks.call_compiled(in, a.pos[0], a.pos[1], u.pos, u.kw);
  return in.call(a.pos[1], u.pos, u.kw);
}

Obj f_call_disabled(Interp& in, const CallArgs& a) {
  a.check("_jit_call_disabled", 3, 3);
  Unpacked u = unpack(a.pos[1], a.pos[2]);
  lazy::Suspend eager(lazy::SyncReason::Disabled);
  return in.call(a.pos[0], u.pos, u.kw);
}

Obj f_mark_dynamic(Interp&, const CallArgs& a) {
  a.check("mark_dynamic", 2, 2);
  const Tensor& t = tensor_of(a.pos[0], "t");
  KILN_CHECK(a.pos[1].is_intlike(), Type, "mark_dynamic: index must be an int, got ", type_name(a.pos[1]));
  int64_t d = a.pos[1].as_int();
  KILN_CHECK(d >= 0 && d < t.dim() && d < 64, Value, "mark_dynamic: dim ", d, " is out of range for a tensor with ",
             t.dim(), " dims");
  t.impl()->dynamic_dims |= uint64_t(1) << d;
  return Obj();
}

Obj f_reset(Interp& in, const CallArgs& a) {
  a.check("reset", 0, 0);
  if (in.hooks.reset) in.hooks.reset();
  return Obj();
}

}  // namespace

void add_jit_natives(ModuleObj& c) {
  c.attrs.set("_jit_call_compiled", make_builtin("_jit_call_compiled", f_call_compiled));
  c.attrs.set("_jit_call_disabled", make_builtin("_jit_call_disabled", f_call_disabled));
  c.attrs.set("_jit_mark_dynamic", make_builtin("mark_dynamic", f_mark_dynamic));
  c.attrs.set("_jit_reset", make_builtin("reset", f_reset));
}

}  // namespace kiln::lang
