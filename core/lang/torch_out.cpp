#include "core/lang/torch_out.h"

#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "core/autograd.h"
#include "core/lang/interp.h"
#include "core/lang/objops.h"
#include "core/lang/torch_bridge.h"

namespace kiln::lang {
namespace {

const std::string kDtype = "dtype";

// A function of torch, torch.linalg or torch.special (not print(out=...)).
bool is_torch_function(Interp& in, const Obj& fn) {
  const std::string& name = fn.as<BuiltinObj>()->name;
  for (const char* m : {"torch", "torch.linalg", "torch.special"}) {
    const Obj mod = in.import_module(m);
    const Obj* f = mod.as<ModuleObj>()->attrs.find(std::string_view(name));
    if (f && f->is(fn)) return true;
  }
  return false;
}

// Factories make their values in out's dtype: arange(4, out=float_t) counts in float.
bool is_factory(std::string_view name) {
  static const std::unordered_set<std::string_view> kNames = {
      "zeros", "ones", "empty", "full", "rand", "randn", "randint", "randperm", "arange", "range",
      "linspace", "logspace", "eye", "normal", "tensor"};
  return kNames.count(name) != 0;
}

const std::vector<Obj>* items_of(const Obj& o) {
  if (ListObj* l = o.as<ListObj>()) return &l->items;
  if (TupleObj* t = o.as<TupleObj>()) return &t->items;
  return nullptr;
}

bool requires_grad(const Obj& o) {
  const TensorObj* t = o.as<TensorObj>();
  return t && t->tensor.requires_grad();
}

// An argument, or an item of a tensor-list argument (cat's), that requires grad.
bool requires_grad_anywhere(const Obj& o) {
  if (requires_grad(o)) return true;
  if (const std::vector<Obj>* items = items_of(o))
    for (const Obj& x : *items)
      if (requires_grad(x)) return true;
  return false;
}

// Writes value into out as PyTorch's out= does: a shape change resizes out
// (with PyTorch's deprecation warning unless out was empty or a factory
// filled it), a dtype change casts.
void write_into(Interp& in, const Obj& out, const Tensor& value, bool warn_resize) {
  const Tensor& t = out.as<TensorObj>()->tensor;
  KILN_CHECK(can_cast(value.dtype(), t.dtype()), Runtime, "result type ", dtype_legacy_name(value.dtype()),
             " can't be cast to the desired output type ", dtype_legacy_name(t.dtype()));
  if (t.sizes() != value.sizes()) {
    if (warn_resize && t.numel() != 0) {
      Obj msg = make_str("An output with one or more elements was resized since it had shape " +
                         shape_str(t.sizes()) + ", which does not match the required output shape " +
                         shape_str(value.sizes()) + ". This behavior is deprecated, and in a future PyTorch release "
                         "outputs will not be resized unless they have zero elements. You can explicitly reuse an "
                         "out tensor t by resizing it, inplace, to zero elements with t.resize_(0).");
      in.call(getattr(in, in.import_module("warnings"), "warn"), {&msg, 1});
    }
    std::vector<Obj> dims;
    for (int64_t d : value.sizes()) dims.push_back(Obj::from_int(d));
    Obj size = make_tuple(std::move(dims));
    in.call_method(out, "resize_", {&size, 1});
  }
  Obj v = make_tensor(value);
  in.call_method(out, "copy_", {&v, 1});
}

Obj write_results(Interp& in, const std::string& name, const Obj& result, const Obj& out) {
  const bool warn_resize = !is_factory(name);
  if (const TensorObj* r = result.as<TensorObj>()) {
    KILN_CHECK(out.kind() == Kind::Tensor, Type, name, "(): argument 'out' must be Tensor, not ", type_name(out));
    write_into(in, out, r->tensor, warn_resize);
    return out;
  }
  const TupleObj* rs = result.as<TupleObj>();
  const std::vector<Obj>* outs = items_of(out);
  KILN_CHECK(rs, Type, name, "() got an unexpected keyword argument 'out'");
  KILN_CHECK(outs && out.kind() != Kind::Tensor, Type, name, "(): argument 'out' must be tuple of Tensors, not ",
             type_name(out));
  KILN_CHECK(outs->size() == rs->items.size(), Type, name, "(): argument 'out' must be tuple of Tensors of size ",
             rs->items.size());
  for (size_t i = 0; i < outs->size(); ++i) {
    KILN_CHECK((*outs)[i].kind() == Kind::Tensor && rs->items[i].kind() == Kind::Tensor, Type, name,
               "(): argument 'out' must be tuple of Tensors");
    write_into(in, (*outs)[i], rs->items[i].as<TensorObj>()->tensor, warn_resize);
  }
  Obj ret = make_tuple(*outs);
  if (!rs->struct_name.empty()) {
    ret.as<TupleObj>()->struct_name = rs->struct_name + "_out";
    ret.as<TupleObj>()->fields = rs->fields;
  }
  return ret;
}

}  // namespace

bool has_out_kwarg(std::span<const Kwarg> kw) {
  for (const Kwarg& k : kw)
    if (*k.name == "out") return true;
  return false;
}

Obj call_with_out(Interp& in, const Obj& fn, std::span<const Obj> pos, std::span<const Kwarg> kw) {
  const BuiltinObj& b = *fn.as<BuiltinObj>();
  if (!is_torch_function(in, fn)) return b.fn(in, CallArgs{pos, kw, b.self, &b});
  Obj out;
  std::vector<Kwarg> rest;
  bool has_dtype = false;
  for (const Kwarg& k : kw) {
    if (*k.name == "out") out = k.value;
    else rest.push_back(k);
    has_dtype = has_dtype || *k.name == "dtype";
  }
  if (out.is_none()) return b.fn(in, CallArgs{pos, rest, b.self, &b});  // out=None: as if absent
  if (GradMode::enabled()) {
    bool grad = false;
    for (const Obj& p : pos) grad = grad || requires_grad_anywhere(p);
    for (const Kwarg& k : rest) grad = grad || requires_grad_anywhere(k.value);
    KILN_CHECK(!grad, Runtime, b.name, "(): functions with out=... arguments don't support automatic "
               "differentiation, but one of the arguments requires grad.");
  }
  if (!has_dtype && out.kind() == Kind::Tensor && is_factory(b.name))
    rest.push_back(Kwarg{&kDtype, Obj::from_dtype(out.as<TensorObj>()->tensor.dtype())});
  Obj result = b.fn(in, CallArgs{pos, rest, b.self, &b});
  return write_results(in, b.name, result, out);
}

}  // namespace kiln::lang
