// Argument handling shared by the torch.nn.functional files: Python-style
// binding of F's signatures, defaults, op calls and the legacy reduction args.
#pragma once

#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "core/autograd.h"
#include "core/dispatch.h"
#include "core/lang/objops.h"
#include "core/lang/torch_bridge.h"
#include "core/ops.h"

namespace kiln::lang {

struct ModuleObj;

namespace fargs {

// Python-style binding of a call to `names` (the first `required` are
// required); absent optional parameters come back as Null.
inline std::vector<Obj> bind(const char* fn, const CallArgs& a, std::initializer_list<const char*> names,
                      size_t required) {
  std::vector<const char*> params(names);
  KILN_CHECK(a.pos.size() <= params.size(), Type, fn, "() takes from ", required, " to ", params.size(),
             " positional arguments but ", a.pos.size(), " were given");
  std::vector<Obj> out(params.size(), Obj::null());
  for (size_t i = 0; i < a.pos.size(); ++i) out[i] = a.pos[i];
  for (const Kwarg& k : a.kw) {
    size_t i = 0;
    while (i < params.size() && *k.name != params[i]) ++i;
    KILN_CHECK(i < params.size(), Type, fn, "() got an unexpected keyword argument '", *k.name, "'");
    KILN_CHECK(out[i].is_null(), Type, fn, "() got multiple values for argument '", *k.name, "'");
    out[i] = k.value;
  }
  for (size_t i = 0; i < required; ++i)
    KILN_CHECK(!out[i].is_null(), Type, fn, "() missing 1 required positional argument: '", params[i], "'");
  return out;
}

inline Obj or_default(const Obj& v, Obj def) { return v.is_null() ? def : v; }
inline bool flag(Interp& in, const Obj& v, bool def) { return v.is_null() ? def : truthy(in, v); }
inline const Tensor& input(const Obj& v, const char* fn) { return tensor_of(v, fn); }
// What an activation called with inplace=True computes from: a copy of the input when autograd
// records the call. Our in-place activations are compositions whose nodes save that input;
// writing the result back into it would fail backward's version check and let the input's own
// history hold it (a reference cycle, never freed).
inline Tensor inplace_input(Interp& in, const Obj& v, const Obj& inplace, const char* fn) {
  const Tensor& x = input(v, fn);
  bool record = flag(in, inplace, false) && GradMode::enabled() && x.requires_grad();
  return record ? clone(x) : x;
}

inline Tensor op(std::string_view name, std::initializer_list<Value> pos, const Kwargs& kw = {}) {
  return call_op(name, std::span<const Value>(pos.begin(), pos.size()), kw)[0];
}
inline Value val(const Obj& v) { return v.is_null() ? Value() : to_value(v); }

// PyTorch's legacy size_average/reduce arguments override `reduction`.
inline std::string reduction_of(const std::vector<Obj>& b, size_t size_average, size_t reduce, size_t reduction,
                         Interp& in) {
  const Obj& sa = b[size_average];
  const Obj& re = b[reduce];
  if ((!sa.is_null() && !sa.is_none()) || (!re.is_null() && !re.is_none())) {
    bool s = sa.is_null() || sa.is_none() || truthy(in, sa);
    bool r = re.is_null() || re.is_none() || truthy(in, re);
    return !r ? "none" : s ? "mean" : "sum";
  }
  std::string red = b[reduction].is_null() ? "mean" : str_of(b[reduction], "reduction");
  KILN_CHECK(red == "mean" || red == "sum" || red == "none", Value, red, " is not a valid value for reduction");
  return red;
}

inline Tensor reduce(const Tensor& t, const std::string& reduction) {
  if (reduction == "mean") return mean(t);
  if (reduction == "sum") return sum(t);
  return t;
}

}  // namespace fargs

// The activation and loss functions, added to torch.nn.functional.
void add_activation_functions(ModuleObj& f);
void add_loss_functions(ModuleObj& f);

}  // namespace kiln::lang
