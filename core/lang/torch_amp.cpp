// torch's autocast state functions (is_autocast_enabled, get_autocast_dtype,
// ...) and the autocast casts for torch.nn.functional builtins that compose
// ops in the interpreter instead of dispatching one listed op (the losses,
// prelu, scaled_dot_product_attention). torch.autocast itself is Python
// (prelude/amp.py); the op lists are in core/autocast.cpp.
#include <unordered_map>
#include <vector>

#include "core/autocast.h"
#include "core/device.h"
#include "core/lang/interp.h"
#include "core/lang/objops.h"
#include "core/lang/torch_bridge.h"

namespace kiln::lang {
namespace {

bool absent(const Obj& o) { return o.is_null() || o.is_none(); }

// 0 cpu, 1 cuda: the devices whose autocast state Kiln keeps.
int device_index(const Obj& spec) {
  const std::string& s = str_of(spec, "device_type");
  return parse_device(s).type == DeviceType::CPU ? 0 : 1;
}

DType dtype_arg(const Obj& o) {
  std::optional<DType> d = dtype_of_obj(o, "dtype");
  KILN_CHECK(d.has_value(), Type, "expected a torch.dtype");
  return *d;
}

// is_autocast_enabled(device_type): without one, CUDA's state (PyTorch's legacy form).
Obj f_is_enabled(Interp&, const CallArgs& a) {
  a.check("is_autocast_enabled", 0, 1, "device_type");
  Obj dev = a.arg(0, "device_type");
  return Obj::from_bool(autocast::enabled(absent(dev) ? 1 : device_index(dev)));
}

// set_autocast_enabled(device_type, enabled), or set_autocast_enabled(enabled) for CUDA.
Obj f_set_enabled(Interp& in, const CallArgs& a) {
  a.check("set_autocast_enabled", 1, 2, "device_type enabled");
  Obj dev = a.arg(0, "device_type"), on = a.arg(1, "enabled");
  if (absent(on)) std::swap(dev, on);
  autocast::set_enabled(absent(dev) ? 1 : device_index(dev), truthy(in, on));
  return Obj();
}

Obj f_get_dtype(Interp&, const CallArgs& a) {
  a.check("get_autocast_dtype", 1, 1, "device_type");
  return Obj::from_dtype(autocast::dtype(device_index(a.arg(0, "device_type"))));
}

Obj f_set_dtype(Interp&, const CallArgs& a) {
  a.check("set_autocast_dtype", 2, 2, "device_type dtype");
  autocast::set_dtype(device_index(a.arg(0, "device_type")), dtype_arg(a.arg(1, "dtype")));
  return Obj();
}

// The deprecated per-device forms: Device 0 cpu, 1 gpu.
template <int Device>
Obj f_legacy_get_dtype(Interp&, const CallArgs& a) {
  a.check(Device ? "get_autocast_gpu_dtype" : "get_autocast_cpu_dtype", 0, 0);
  return Obj::from_dtype(autocast::dtype(Device));
}
template <int Device>
Obj f_legacy_set_dtype(Interp&, const CallArgs& a) {
  a.check(Device ? "set_autocast_gpu_dtype" : "set_autocast_cpu_dtype", 1, 1);
  autocast::set_dtype(Device, dtype_arg(a.pos[0]));
  return Obj();
}
Obj f_is_cpu_enabled(Interp&, const CallArgs& a) {
  a.check("is_autocast_cpu_enabled", 0, 0);
  return Obj::from_bool(autocast::enabled(0));
}
Obj f_set_cpu_enabled(Interp& in, const CallArgs& a) {
  a.check("set_autocast_cpu_enabled", 1, 1);
  autocast::set_enabled(0, truthy(in, a.pos[0]));
  return Obj();
}

// A functional builtin under a policy: its floating tensor arguments cast,
// then the builtin with autocast off (so the ops it composes are not cast again).
struct Wrapped {
  NativeFn fn;
  autocast::Policy policy;
};
std::unordered_map<const BuiltinObj*, Wrapped>& wrapped() {
  static std::unordered_map<const BuiltinObj*, Wrapped> m;
  return m;
}

Obj cast_obj(autocast::Policy policy, const Obj& o) {
  const TensorObj* t = o.as<TensorObj>();
  if (!t) return o;
  Tensor c = autocast::cast(policy, t->tensor);
  return c.impl() == t->tensor.impl() ? o : make_tensor(std::move(c));
}

Obj f_autocast_builtin(Interp& in, const CallArgs& a) {
  const Wrapped& w = wrapped().at(a.callee);
  if (!autocast::armed()) return w.fn(in, a);
  std::vector<Obj> pos;
  for (const Obj& o : a.pos) pos.push_back(cast_obj(w.policy, o));
  std::vector<Kwarg> kw;
  for (const Kwarg& k : a.kw) kw.push_back({k.name, cast_obj(w.policy, k.value)});
  CallArgs cast_args = a;
  cast_args.pos = pos;
  cast_args.kw = kw;
  autocast::ExcludeGuard off;
  return w.fn(in, cast_args);
}

}  // namespace

void add_autocast_natives(ModuleObj& torch) {
  const std::pair<const char*, NativeFn> fns[] = {
      {"is_autocast_enabled", f_is_enabled},
      {"set_autocast_enabled", f_set_enabled},
      {"get_autocast_dtype", f_get_dtype},
      {"set_autocast_dtype", f_set_dtype},
      {"get_autocast_cpu_dtype", f_legacy_get_dtype<0>},
      {"get_autocast_gpu_dtype", f_legacy_get_dtype<1>},
      {"set_autocast_cpu_dtype", f_legacy_set_dtype<0>},
      {"set_autocast_gpu_dtype", f_legacy_set_dtype<1>},
      {"is_autocast_cpu_enabled", f_is_cpu_enabled},
      {"set_autocast_cpu_enabled", f_set_cpu_enabled}};
  for (const auto& [name, fn] : fns) torch.attrs.set(name, make_builtin(name, fn));
}

void wrap_autocast_functional(ModuleObj& functional) {
  for (auto& [key, value] : functional.attrs.items()) {
    BuiltinObj* b = key.is_null() ? nullptr : value.as<BuiltinObj>();
    if (!b) continue;
    autocast::Policy policy = autocast::policy_of(str_of(key));
    if (b->fn == f_autocast_builtin || (policy != autocast::Policy::Lower && policy != autocast::Policy::Fp32))
      continue;
    wrapped()[b] = {b->fn, policy};
    b->fn = f_autocast_builtin;
  }
}

}  // namespace kiln::lang
