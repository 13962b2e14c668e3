// The attributes of a Tensor object: properties (.shape, .grad, ...), the
// op-table ops whose first argument is `Tensor self` as methods, and the
// methods PyTorch defines outside its op schemas (.item(), .to(), ...).
#include <cctype>
#include <cstdio>
#include <unordered_map>
#include <unordered_set>

#include "core/lazy.h"
#include "core/autograd.h"
#include "core/device.h"
#include "core/dispatch.h"
#include "core/format.h"
#include "core/grad_hooks.h"
#include "core/lang/builtins.h"
#include "core/lang/interp.h"
#include "core/lang/objops.h"
#include "core/lang/strformat.h"
#include "core/lang/torch_bridge.h"
#include "core/ops.h"
#include "core/ops/common.h"

namespace kiln::lang {

Obj torch_unique(Interp& in, const CallArgs& a);              // torch_module.cpp
Obj torch_unique_consecutive(Interp& in, const CallArgs& a);  // torch_module.cpp
Obj torch_histogram(Interp& in, const CallArgs& a);           // torch_module.cpp

namespace {

const Tensor& self_of(const CallArgs& a) { return tensor_of(a.self, "self"); }

Obj element_obj(const Tensor& t, int64_t off) {
  return visit_dtype(t.dtype(), [&](auto tag) -> Obj {
    using T = typename decltype(tag)::type;
    T v = t.data<T>()[off];
    if constexpr (std::is_same_v<T, bool>) return Obj::from_bool(v);
    else if constexpr (std::is_integral_v<T>) return Obj::from_int(int64_t(v));
    else return Obj::from_float(double(compute_t<T>(v)));
  });
}

Obj tolist_at(const Tensor& t, int64_t dim, int64_t off) {
  if (dim == t.dim()) return element_obj(t, off);
  std::vector<Obj> items;
  int64_t n = t.sizes()[size_t(dim)], stride = t.strides()[size_t(dim)];
  items.reserve(size_t(n));
  for (int64_t i = 0; i < n; ++i) items.push_back(tolist_at(t, dim + 1, off + i * stride));
  return make_list(std::move(items));
}

Obj size_obj(const Shape& s) {
  std::vector<Obj> items;
  for (int64_t d : s) items.push_back(Obj::from_int(d));
  return make<TupleObj>(std::move(items), true);
}

// self unchanged when already of dtype `d` (PyTorch returns the same object).
// The tensor `t` (a TensorObj) on `d`, through the op autograd sees.
Obj to_device_obj(const Obj& t, Device d) {
  const Tensor& src = tensor_of(t);
  if (src.device() == d) return t;
  if (d.type == DeviceType::CUDA) (void)cuda_backend();  // PyTorch's error before any work
  return make_tensor(invoke("_to_device", {src, device_code(d), device_code(src.device())}));
}

Obj to_dtype_obj(const CallArgs& a, DType d, bool copy = false) {
  const Tensor& t = self_of(a);
  if (t.dtype() == d && !copy) return a.self;
  return make_tensor(t.dtype() == d ? clone(t) : to_dtype(t, d));
}

// A shape given as view(2, 3), view((2, 3)) or repeat(2).
Value shape_arg(std::span<const Obj> pos) {
  if (pos.size() == 1 && !pos[0].is_int()) return to_value(pos[0]);
  Shape s;
  for (const Obj& o : pos) {
    KILN_CHECK(o.is_int(), Type, "expected ints for the size, got ", kind_name(o.kind()));
    s.push_back(o.as_int());
  }
  return Value(std::move(s));
}

// ---- methods outside the op table --------------------------------------------------------

Obj m_item(Interp&, const CallArgs& a) {
  a.check("item", 0, 0);
  lazy::ReasonScope why(lazy::SyncReason::Item);
  const Tensor& t = self_of(a);
  KILN_CHECK(t.numel() == 1, Runtime, "a Tensor with ", t.numel(), " elements cannot be converted to Scalar");
  return element_obj(copy_to_device(t, Device{}), 0);  // read on the host
}

Obj m_tolist(Interp& in, const CallArgs& a) {
  a.check("tolist", 0, 0);
  lazy::ReasonScope why(lazy::SyncReason::Tolist);
  // An expanded tensor can have far more elements than memory holds.
  check_alloc(in, uint64_t(self_of(a).numel()), sizeof(Obj));
  return tolist_at(copy_to_device(self_of(a), Device{}), 0, 0);  // read on the host
}

// size(d) / stride(d) of a 0-dim tensor: no dim to read, even the 0 and -1 other ops accept.
void check_has_dims(const Tensor& t, int64_t dim) {
  KILN_CHECK(t.dim() > 0, Index, "Dimension specified as ", dim, " but tensor has no dimensions");
}

// The dunders scripts call directly (t.__repr__()), as the builtins that use them.
Obj m_dunder_repr(Interp& in, const CallArgs& a) {
  a.check("__repr__", 0, 0);
  return make_str(repr(in, a.self));
}
Obj m_dunder_str(Interp& in, const CallArgs& a) {
  a.check("__str__", 0, 0);
  return make_str(str(in, a.self));
}
Obj m_dunder_len(Interp& in, const CallArgs& a) {
  a.check("__len__", 0, 0);
  return Obj::from_int(len(in, a.self));
}
Obj m_dunder_getitem(Interp& in, const CallArgs& a) {
  a.check("__getitem__", 1, 1);
  return getitem(in, a.self, a.pos[0]);
}
Obj m_dunder_setitem(Interp& in, const CallArgs& a) {
  a.check("__setitem__", 2, 2);
  setitem(in, a.self, a.pos[0], a.pos[1]);
  return Obj();
}
Obj m_dunder_format(Interp& in, const CallArgs& a) {
  a.check("__format__", 1, 1);
  KILN_CHECK(a.pos[0].kind() == Kind::Str, Type, "__format__() argument must be str, not ", type_name(a.pos[0]));
  return make_str(format_value(in, a.self, a.pos[0].as<StrObj>()->value));
}

Obj m_size(Interp&, const CallArgs& a) {
  a.check("size", 0, 1, "dim");
  const Tensor& t = self_of(a);
  Obj dim = a.arg(0, "dim");
  if (dim.is_none()) return size_obj(t.sizes());
  KILN_CHECK(dim.is_int(), Type, "size(): argument 'dim' must be int, not ", kind_name(dim.kind()));
  check_has_dims(t, dim.as_int());
  return Obj::from_int(t.size(dim.as_int()));
}

Obj m_stride(Interp&, const CallArgs& a) {
  a.check("stride", 0, 1, "dim");
  const Tensor& t = self_of(a);
  Obj dim = a.arg(0, "dim");
  if (dim.is_none()) {
    std::vector<Obj> items;
    for (int64_t s : t.strides()) items.push_back(Obj::from_int(s));
    return make_tuple(std::move(items));
  }
  KILN_CHECK(dim.is_int(), Type, "stride(): argument 'dim' must be int, not ", kind_name(dim.kind()));
  check_has_dims(t, dim.as_int());
  return Obj::from_int(t.stride(dim.as_int()));
}

Obj m_dim(Interp&, const CallArgs& a) {
  a.check("dim", 0, 0);
  return Obj::from_int(self_of(a).dim());
}
Obj m_numel(Interp&, const CallArgs& a) {
  a.check("numel", 0, 0);
  return Obj::from_int(self_of(a).numel());
}
Obj m_is_contiguous(Interp&, const CallArgs& a) {
  a.check("is_contiguous", 0, 1, "memory_format");
  const Obj format = a.arg(0, "memory_format");
  std::optional<int> rank = format.is_none() ? 0 : memory_format_rank(format);
  KILN_CHECK(rank, Type, "is_contiguous(): argument 'memory_format' must be torch.memory_format");
  return Obj::from_bool(is_contiguous_as(self_of(a), *rank));
}
Obj m_is_floating_point(Interp&, const CallArgs& a) {
  a.check("is_floating_point", 0, 0);
  return Obj::from_bool(self_of(a).is_floating_point());
}
// A view's root tensor (make_view records it); detach(), .data and copies have none.
Obj m_is_view(Interp&, const CallArgs& a) {
  a.check("_is_view", 0, 0);
  return Obj::from_bool(self_of(a).impl()->view_base.defined());
}
// What a Kiln tensor is: real, dense, never conjugated or negated lazily, so
// conj() and friends are the tensor itself, as PyTorch's are for real dtypes.
Obj m_is_complex(Interp&, const CallArgs& a) {
  a.check("is_complex", 0, 0);
  self_of(a);
  return Obj::from_bool(false);
}
Obj m_is_signed(Interp&, const CallArgs& a) {
  a.check("is_signed", 0, 0);
  const DType d = self_of(a).dtype();
  return Obj::from_bool(d != DType::UInt8 && d != DType::Bool);
}
Obj m_is_same_size(Interp&, const CallArgs& a) {
  a.check("is_same_size", 1, 1);
  return Obj::from_bool(self_of(a).sizes() == tensor_of(a.pos[0], "other").sizes());
}
template <const char* Name>
Obj m_false(Interp&, const CallArgs& a) {
  a.check(Name, 0, 0);
  return Obj::from_bool(false);
}
constexpr char kIsInference[] = "is_inference", kIsConj[] = "is_conj", kIsNeg[] = "is_neg",
               kIsShared[] = "is_shared", kIsPinned[] = "is_pinned";
template <const char* Name>
Obj m_self(Interp&, const CallArgs& a) {
  a.check(Name, 0, 0);
  return a.self;
}
constexpr char kConj[] = "conj", kResolveConj[] = "resolve_conj", kResolveNeg[] = "resolve_neg",
               kConjPhysical[] = "conj_physical", kShareMemory[] = "share_memory_";
Obj m_get_device(Interp&, const CallArgs& a) {
  a.check("get_device", 0, 0);
  const Device d = self_of(a).device();
  return Obj::from_int(d.type == DeviceType::CPU ? -1 : d.index);
}
// sum_to_size(*size): the sums that reduce a broadcast to `size`.
Obj m_sum_to_size(Interp&, const CallArgs& a) {
  const Tensor& self = self_of(a);
  const Shape size = shape_arg(a.pos).int_list();
  bool expandable = size.size() <= self.sizes().size();
  for (size_t i = 0; expandable && i < size.size(); ++i) {
    const int64_t s = size[size.size() - 1 - i], t = self.sizes()[self.sizes().size() - 1 - i];
    expandable = s == t || s == 1;
  }
  KILN_CHECK(expandable, Runtime, "size {", shape_str(size), "} is not expandable to size {", shape_str(self.sizes()),
             "}.");
  // ATen sums with keepdim, then views away the leading dims if size has fewer.
  Tensor r = sum_to(self, size);
  if (size.size() == self.sizes().size() && !r.is_same(self)) r = ops::as_node(r, "SumBackward1");
  return make_tensor(r);
}
// fill_diagonal_(fill_value, wrap=False): the main diagonal of a matrix (or of
// an n-cube), and with wrap a tall matrix's diagonal again every cols + 1 rows.
Obj m_fill_diagonal_(Interp& in, const CallArgs& a) {
  a.check("fill_diagonal_", 1, 2, "fill_value wrap");
  Tensor self = self_of(a);
  KILN_CHECK(self.dim() >= 2, Runtime, "dimensions must larger than 1");
  const int64_t n = self.size(0);
  int64_t step = 0;
  for (int64_t d = 0; d < self.dim(); ++d) {
    KILN_CHECK(self.dim() == 2 || self.size(d) == n, Runtime, "all dimensions of input must be of equal length");
    step += self.stride(d);
  }
  const int64_t len = self.dim() == 2 ? std::min(n, self.size(1)) : n;
  const Value fill = to_value(a.arg(0, "fill_value"));
  Tensor diag = as_strided(self, {len}, {step}, self.impl()->offset);
  invoke("fill_", {diag, fill});
  const bool wrap = truthy(in, a.arg(1, "wrap", Obj::from_bool(false)));
  if (wrap && self.dim() == 2 && n > self.size(1) + 1) {
    const int64_t cols = self.size(1), rest = (self.numel() + cols) / (cols + 1) - len;
    Tensor again = as_strided(self, {rest}, {step}, self.impl()->offset + self.stride(0) * (cols + 1));
    invoke("fill_", {again, fill});
  }
  return a.self;
}
Obj m_element_size(Interp&, const CallArgs& a) {
  a.check("element_size", 0, 0);
  return Obj::from_int(int64_t(self_of(a).element_size()));
}
Obj m_data_ptr(Interp&, const CallArgs& a) {
  a.check("data_ptr", 0, 0);
  return Obj::from_int(int64_t(reinterpret_cast<intptr_t>(self_of(a).raw_data())));
}

Obj m_detach(Interp&, const CallArgs& a) {
  a.check("detach", 0, 0);
  return make_tensor(self_of(a).detach());
}

Obj m_detach_(Interp&, const CallArgs& a) {
  a.check("detach_", 0, 0);
  TensorImpl* impl = self_of(a).impl();
  impl->grad_fn.reset();
  impl->requires_grad = false;
  impl->output_nr = 0;
  return a.self;
}

Obj m_requires_grad_(Interp& in, const CallArgs& a) {
  a.check("requires_grad_", 0, 1, "requires_grad");
  Tensor t = self_of(a);
  t.requires_grad_(truthy(in, a.arg(0, "requires_grad", Obj::from_bool(true))));
  return a.self;
}

Obj m_storage_offset(Interp&, const CallArgs& a) {
  a.check("storage_offset", 0, 0);
  return Obj::from_int(self_of(a).offset());
}

Obj m_retain_grad(Interp&, const CallArgs& a) {
  a.check("retain_grad", 0, 0);
  Tensor t = self_of(a);
  t.retain_grad();
  return Obj();
}

// The hook a.pos[0] added to the dict of hooks its tensor's runner calls;
// `existing` is the tensor's runner, if any, and `install` sets a new one
// (of type Runner, holding a fresh dict) when that is not one of this kind.
template <class Runner, class Hook, class Install>
Obj add_tensor_hook(Interp& in, const CallArgs& a, Hook* existing, Install install) {
  Obj hooks;
  if (existing && existing->template target<Runner>()) {
    hooks = existing->template target<Runner>()->hooks;
  } else {
    hooks = make<DictObj>();
    install(Runner{&in, hooks});
  }
  Obj add = getattr(in, in.import_module("torch.nn"), "_add_tensor_hook");
  return in.call(add, std::vector<Obj>{hooks, a.pos[0]});
}

// Tensor.register_hook(hook): the tensor's hooks live in a dict (id -> hook)
// that torch.nn's RemovableHandle removes from; the tensor's runner calls them
// in order through the prelude, each seeing the previous one's result.
struct TensorHookRunner {
  Interp* in;
  Obj hooks;
  Tensor operator()(const Tensor& grad) const {
    Obj run = getattr(*in, in->import_module("torch.nn"), "_run_tensor_hooks");
    Obj r = in->call(run, std::vector<Obj>{hooks, make_tensor(grad)});
    return r.is_none() ? Tensor() : tensor_of(r, "hook result");
  }
};
Obj m_register_hook(Interp& in, const CallArgs& a) {
  a.check("register_hook", 1, 1, "hook");
  Tensor t = self_of(a);
  return add_tensor_hook<TensorHookRunner>(in, a, find_grad_hook(t),
                                           [&](TensorHookRunner r) { set_grad_hook(t, std::move(r)); });
}

// Tensor.register_post_accumulate_grad_hook(hook): hook(tensor) once backward
// has accumulated the leaf's .grad (optimizer steps run in backward); the
// hooks live in a dict as register_hook's do.
struct PostAccumulateRunner {
  Interp* in;
  Obj hooks;
  void operator()(const Tensor& leaf) const {
    Obj run = getattr(*in, in->import_module("torch.nn"), "_run_post_accumulate_hooks");
    in->call(run, std::vector<Obj>{hooks, make_tensor(leaf)});
  }
};
Obj m_register_post_accumulate_grad_hook(Interp& in, const CallArgs& a) {
  a.check("register_post_accumulate_grad_hook", 1, 1, "hook");
  Tensor t = self_of(a);
  return add_tensor_hook<PostAccumulateRunner>(
      in, a, find_post_accumulate_hook(t), [&](PostAccumulateRunner r) { set_post_accumulate_hook(t, std::move(r)); });
}

Obj m_backward(Interp& in, const CallArgs& a) {
  a.check("backward", 0, 4, "gradient retain_graph create_graph inputs");
  Obj g = a.arg(0, "gradient"), retain = a.arg(1, "retain_graph"), create = a.arg(2, "create_graph");
  KILN_CHECK(a.arg(3, "inputs").is_none(), NotImplemented, "kiln does not support backward(inputs=...)");
  Tensor grad = g.is_none() ? Tensor() : tensor_of(g, "gradient");
  const bool create_graph = truthy(in, create);  // retain_graph defaults to create_graph, as PyTorch's
  run_backward({self_of(a)}, {grad}, retain.is_none() ? create_graph : truthy(in, retain), create_graph);
  return Obj();
}

// to(dtype), to(device), to(device, dtype), to(tensor), with dtype=/device=/copy=/non_blocking=.
Obj m_to(Interp& in, const CallArgs& a) {
  a.check("to", 0, 3, "dtype device non_blocking copy memory_format");
  const Obj* kd = a.find_kw("dtype");
  bool odd = kd && kd->kind() == Kind::Instance;
  for (const Obj& o : a.pos) odd = odd || o.kind() == Kind::Instance;
  if (odd) {  // x.to(torch.complex64): prelude/_complex.py's __torch_function__
    Obj r = torch_function_override(in, a);
    if (!r.is_null()) return r;
  }
  std::optional<DType> dtype;
  std::optional<Device> device;
  for (const Obj& o : a.pos) {
    if (o.kind() == Kind::DType) dtype = o.as_dtype();
    else if (TensorObj* other = o.as<TensorObj>()) dtype = other->tensor.dtype(), device = other->tensor.device();
    else if (o.is_bool()) continue;  // positional non_blocking / copy
    else device = device_arg(o);
  }
  if (const Obj* d = a.find_kw("dtype")) {
    if (auto kd = dtype_of_obj(*d, "to(): argument 'dtype'")) dtype = kd;
  }
  if (const Obj* d = a.find_kw("device")) device = device_arg(*d);
  const Obj* copy = a.find_kw("copy");
  bool force = copy && truthy(in, *copy);
  Obj converted = to_dtype_obj(a, dtype.value_or(self_of(a).dtype()), force);
  return apply_memory_format(device ? to_device_obj(converted, *device) : converted, a);
}

template <DType D>
Obj m_cast(Interp&, const CallArgs& a) {
  a.check(std::string(dtype_name(D)).c_str(), 0, 0, "memory_format");
  return to_dtype_obj(a, D);
}

Obj m_cpu(Interp&, const CallArgs& a) {
  a.check("cpu", 0, 0, "memory_format");
  return to_device_obj(a.self, Device{});
}

Obj m_cuda(Interp&, const CallArgs& a) {
  a.check("cuda", 0, 1, "device non_blocking memory_format");
  std::optional<Device> d = device_arg(a.arg(0, "device"));
  return to_device_obj(a.self, d.value_or(Device{DeviceType::CUDA, 0}));
}

// The dtype a legacy tensor type names: torch.LongTensor, or 'torch.LongTensor'.
std::optional<DType> legacy_type_dtype(const Obj& o) {
  if (auto* c = o.as<ClassObj>())
    if (const Obj* d = const_cast<ClassObj*>(c)->attrs.find(std::string_view("dtype")); d && d->kind() == Kind::DType)
      return d->as_dtype();
  const StrObj* s = o.as<StrObj>();
  if (!s) return std::nullopt;
  for (int i = 0; i < kNumDTypes; ++i) {
    DType d = static_cast<DType>(i);
    if (!dtype_legacy_name(d).empty() && s->value == "torch." + std::string(dtype_legacy_name(d)) + "Tensor") return d;
  }
  throw Error("invalid type: '" + s->value + "'", ErrorKind::Value);
}

// t.type(): the legacy type name ('torch.FloatTensor'); t.type(T): a copy as
// type T (a dtype, torch.LongTensor or its name).
Obj m_type(Interp&, const CallArgs& a) {
  a.check("type", 0, 2, "dtype non_blocking");
  Obj d = a.arg(0, "dtype");
  if (d.is_none()) return make_str("torch." + std::string(dtype_legacy_name(self_of(a).dtype())) + "Tensor");
  if (std::optional<DType> legacy = legacy_type_dtype(d)) return to_dtype_obj(a, *legacy);
  return to_dtype_obj(a, *dtype_of_obj(d, "type(): argument 'dtype'"));
}

// index_put_(indices, values, accumulate=False): self[indices] = values (or
// +=, repeated positions adding up); indices a tuple of index tensors.
// index_put: the same on a copy.
template <bool InPlace>
Obj m_index_put(Interp& in, const CallArgs& a) {
  const char* name = InPlace ? "index_put_" : "index_put";
  a.check(name, 2, 3, "indices values accumulate");
  const Obj idx = a.arg(0, "indices");
  const std::vector<Obj>* items = idx.kind() == Kind::Tuple ? &idx.as<TupleObj>()->items
                                  : idx.kind() == Kind::List ? &idx.as<ListObj>()->items
                                                             : nullptr;
  KILN_CHECK(items, Type, name, "(): argument 'indices' must be tuple of Tensors, not ", type_name(idx));
  std::vector<TensorIndex> indices;
  for (size_t k = 0; k < items->size(); ++k) {
    const Obj& i = (*items)[k];
    KILN_CHECK(i.kind() == Kind::Tensor, Type, "expected Tensor as element ", k, " in argument 0, but got ",
               type_name(i));
    indices.push_back(TensorIndex{TensorIndex::Tensor_, 0, {}, {}, 1, tensor_of(i)});
  }
  Tensor self = InPlace ? self_of(a) : clone(self_of(a));
  index_put(self, indices, tensor_of(a.arg(1, "values"), "index_put(): argument 'values'"),
            truthy(in, a.arg(2, "accumulate", Obj::from_bool(false))));
  if (const std::shared_ptr<Node>& node = self.grad_fn()) node->display_name = "IndexPutBackward0";
  return InPlace ? a.self : make_tensor(self);
}

Obj m_type_as(Interp& in, const CallArgs& a) {
  a.check("type_as", 1, 1);
  if (a.pos[0].kind() == Kind::Instance) {  // a complex tensor (prelude/_complex.py)
    Obj r = torch_function_override(in, a);
    if (!r.is_null()) return r;
  }
  return to_dtype_obj(a, tensor_of(a.pos[0], "type_as(): argument 'other'").dtype());
}

// view_as / expand_as / reshape_as: the op with other's shape.
template <const char* Op>
Obj m_as(Interp&, const CallArgs& a) {
  a.check(Op, 1, 1);
  Value args[2] = {Value(self_of(a)), Value(tensor_of(a.pos[0], "other").sizes())};
  return call_op_obj(Op, args);
}
constexpr char kView[] = "view", kExpand[] = "expand", kReshape[] = "reshape";

// new_*'s device: device= or self's.
Device new_device(const CallArgs& a) {
  const Obj* d = a.find_kw("device");
  return (d ? device_arg(*d) : std::nullopt).value_or(self_of(a).device());
}

// new_zeros(size) / new_ones / new_empty: the creation op with self's dtype by default.
template <const char* Op>
Obj m_new(Interp&, const CallArgs& a) {
  KILN_CHECK(!a.pos.empty(), Type, "new_", Op, "() missing required argument 'size'");
  std::vector<Value> pos{shape_arg(a.pos)};
  // Checked here: new_zeros words it as the allocator does, torch.zeros in words of its own.
  const Shape sizes = pos[0].int_list();
  for (int64_t d : sizes)
    KILN_CHECK(d >= 0, Runtime, "Trying to create tensor with negative dimension ", d, ": ", shape_str(sizes));
  Kwargs kw = to_kwargs(a);
  bool has_dtype = false;
  for (auto& [k, v] : kw) has_dtype = has_dtype || (k == "dtype" && !v.is_none());
  if (!has_dtype) {
    std::erase_if(kw, [](const auto& e) { return e.first == "dtype"; });
    kw.emplace_back("dtype", Value(self_of(a).dtype()));
  }
  return place_on(call_op_obj(Op, pos, kw), new_device(a));
}
constexpr char kZeros[] = "zeros", kOnes[] = "ones", kEmpty[] = "empty";

Obj m_new_full(Interp&, const CallArgs& a) {
  a.check("new_full", 2, 2, "dtype device requires_grad");
  std::vector<Value> pos{to_value(a.pos[0]), to_value(a.pos[1])};
  Kwargs kw = to_kwargs(a);
  bool has_dtype = false;
  for (auto& [k, v] : kw) has_dtype = has_dtype || (k == "dtype" && !v.is_none());
  if (!has_dtype) {
    std::erase_if(kw, [](const auto& e) { return e.first == "dtype"; });
    kw.emplace_back("dtype", Value(self_of(a).dtype()));
  }
  return place_on(call_op_obj("full", pos, kw), new_device(a));
}

Obj m_new_tensor(Interp& in, const CallArgs& a) {
  a.check("new_tensor", 1, 1, "dtype device requires_grad");
  Obj dt = a.arg(1, "dtype");
  Device d = device_arg(a.arg(2, "device")).value_or(self_of(a).device());
  Tensor t = tensor_from_data(a.pos[0], dtype_of_obj(dt, "new_tensor(): argument 'dtype'").value_or(self_of(a).dtype()));
  if (truthy(in, a.arg(3, "requires_grad", Obj::from_bool(false)))) {
    KILN_CHECK(is_floating(t.dtype()), Runtime, "Only Tensors of floating point and complex dtype can require gradients");
    t.requires_grad_(true);
  }
  return place_on(make_tensor(t), d);
}

// x.where(condition, y) is torch.where(condition, x, y).
Obj m_where(Interp&, const CallArgs& a) {
  a.check("where", 2, 2);
  Value args[3] = {to_value(a.pos[0]), Value(self_of(a)), to_value(a.pos[1])};
  return call_op_obj("where", args);
}

// repeat(*sizes): view as (1, s0, 1, s1, ...), expand to (r0, s0, r1, s1, ...), merge pairs.
Obj m_repeat(Interp&, const CallArgs& a) {
  Tensor t = self_of(a);
  Value sv = shape_arg(a.pos);
  const Shape& reps = sv.int_list();
  KILN_CHECK(int64_t(reps.size()) >= t.dim(), Runtime,
             "Number of dimensions of repeat dims can not be smaller than number of dimensions of tensor");
  Shape padded(reps.size() - size_t(t.dim()), 1);
  padded.insert(padded.end(), t.sizes().begin(), t.sizes().end());
  Shape pairs, expanded, merged;
  for (size_t i = 0; i < reps.size(); ++i) {
    pairs.push_back(1);
    pairs.push_back(padded[i]);
    expanded.push_back(reps[i]);
    expanded.push_back(padded[i]);
    merged.push_back(reps[i] * padded[i]);
  }
  Tensor r = reshape(expand(reshape(t, pairs), expanded), merged);
  if (r.storage() == t.storage()) r = clone(r);  // all repeats 1: still a copy, as in PyTorch
  return make_tensor(ops::as_node(std::move(r), "RepeatBackward0"));
}

// x.unique(...) is torch.unique(x, ...); x.unique_consecutive(...) likewise.
template <NativeFn F>
Obj m_with_self_first(Interp& in, const CallArgs& a) {
  std::vector<Obj> pos{a.self};
  pos.insert(pos.end(), a.pos.begin(), a.pos.end());
  return F(in, CallArgs{pos, a.kw, Obj::null(), a.callee});
}

// Ops whose first argument is `Tensor self` but that are not Tensor methods in PyTorch.
bool excluded_method(std::string_view base) {
  static const std::unordered_set<std::string_view> kNot = {
      "_to_copy", "copy", "fill", "zero", "uniform", "exponential", "random", "normal_functional", "nll_loss",
      "nll_loss_grad", "cross_entropy", "mse_loss", "slice", "zeros_like", "ones_like", "empty_like",
      "full_like", "rand_like", "randn_like", "randint_like", "linalg_vector_norm", "linalg_matrix_norm", "linalg_norm",
      "_cumprod_backward", "tensordot", "linalg_cross", "atleast_1d", "atleast_2d", "atleast_3d", "std_mean",
      "var_mean", "linalg_inv", "linalg_det", "linalg_slogdet", "linalg_solve", "linalg_qr", "linalg_cholesky",
      "_linalg_inv", "_linalg_det", "_linalg_slogdet", "_linalg_solve", "_linalg_cholesky", "linalg_matrix_power",
      "linalg_svd", "linalg_svdvals", "linalg_eigh", "linalg_eigvalsh", "_linalg_lstsq", "linalg_lstsq",
      "linalg_pinv", "linalg_matrix_rank", "linalg_vecdot", "linalg_diagonal", "linalg_solve_triangular",
      "linalg_cond", "linalg_matrix_exp", "pdist", "combinations", "linalg_vander", "vander", "special_i1",
      "_linalg_lu_factor", "linalg_lu_factor", "linalg_lu_factor_ex", "linalg_lu", "lu_unpack",
      "_lu_pivots_to_permutation", "_linalg_lu_solve", "linalg_lu_solve"};
  return kNot.count(base) != 0;
}

struct MethodInfo {
  NativeFn fn = nullptr;
  std::string op;  // op-table base name for op methods
};

// PyTorch's node for an in-place view op follows its out-of-place ones in
// derivatives.yaml: TransposeBackward0 becomes TransposeBackward1, and
// squeeze's three overloads (SqueezeBackward0-2) become SqueezeBackward3-5.
std::string inplace_node_name(std::string name) {
  if (name.empty() || !std::isdigit(static_cast<unsigned char>(name.back()))) return name;
  const int shift = name.starts_with("SqueezeBackward") ? 3 : 1;
  name.back() = char(name.back() + shift);
  return name;
}

// t_(), transpose_(), squeeze_(), unsqueeze_(), swapdims_(), swapaxes_(),
// as_strided_(): self takes the sizes, strides, offset and history of the
// view its out-of-place method returns (info->op), as PyTorch's in-place
// view ops rewrite the tensor they are called on. Pending ops read self as
// it was, so they run first.
Obj view_inplace_method(Interp& in, const CallArgs& a) {
  const auto* info = static_cast<const MethodInfo*>(callee_of(a).ptr);
  Tensor self = self_of(a);
  KILN_CHECK(!(self.requires_grad() && self.is_leaf()), Runtime,
             "a leaf Variable that requires grad is being used in an in-place operation.");
  // The view is taken of an alias with self's history, not of self: its node
  // would otherwise hold self, which is about to hold the node (a cycle).
  CallArgs on_alias = a;
  on_alias.self = make_tensor(Tensor(std::make_shared<TensorImpl>(*self.impl())));
  Obj r = call_torch_op(in, info->op, on_alias);
  const Tensor& v = tensor_of(r, info->op.c_str());
  lazy::sync(lazy::SyncReason::MetadataMutation);
  TensorImpl* impl = self.impl();
  impl->sizes = v.sizes();
  impl->strides = v.strides();
  impl->offset = v.offset();
  if (v.grad_fn()) {
    impl->grad_fn = v.grad_fn();
    impl->output_nr = v.impl()->output_nr;
    impl->grad_fn->display_name = inplace_node_name(grad_fn_name(*impl->grad_fn));
  }
  return a.self;
}

// resize_(*sizes): contiguous sizes over the same storage when it holds
// them; a larger size gets a larger storage holding the old elements (zeros
// after them, where PyTorch leaves whatever memory held).
Obj m_resize_(Interp&, const CallArgs& a) {
  Tensor self = self_of(a);
  KILN_CHECK(!self.requires_grad(), Runtime, "cannot resize variables that require grad");
  const Shape sizes = shape_arg(a.pos).int_list();
  for (int64_t d : sizes)
    KILN_CHECK(d >= 0, Runtime, "Trying to create tensor with negative dimension ", d, ": ", shape_str(sizes));
  TensorImpl* impl = self.impl();
  const int64_t held = int64_t(impl->storage->nbytes / dtype_size(impl->dtype));
  const int64_t needed = impl->offset + shape_numel(sizes);
  Tensor grown;
  if (needed > held) {
    NoGradGuard no_grad;
    DeviceScope on(impl->storage->device);
    grown = zeros({needed}, impl->dtype);
    Tensor head = narrow(grown, 0, 0, held);
    copy_(head, storage_view(impl->storage, {held}, {1}, 0, impl->dtype));
  }
  // Pending ops read self as it was (and fill the grown storage).
  lazy::sync(lazy::SyncReason::MetadataMutation);
  if (grown.defined()) impl->storage = grown.storage();
  impl->sizes = sizes;
  impl->strides = contiguous_strides(sizes);
  ++impl->storage->version;
  return a.self;
}

Obj op_method(Interp& in, const CallArgs& a) {
  const auto* info = static_cast<const MethodInfo*>(callee_of(a).ptr);
  Obj r = call_torch_op(in, info->op, a);
  // In-place ops return self itself (a Parameter stays a Parameter).
  return info->op.back() == '_' ? a.self : r;
}

const std::unordered_map<std::string, MethodInfo>& methods() {
  static const auto* table = [] {
    auto* m = new std::unordered_map<std::string, MethodInfo>();
    for (const OpDef* d : op_table().all()) {
      const Schema& s = d->schema;
      std::string base = s.name.substr(0, s.name.find('.'));
      if (s.args.empty() || s.args[0].name != "self" || s.args[0].type != ArgType::Tensor) continue;
      if (excluded_method(base)) continue;
      (*m)[base] = MethodInfo{op_method, base};
    }
    const std::pair<const char*, NativeFn> natives[] = {
        {"__repr__", m_dunder_repr}, {"__str__", m_dunder_str}, {"__len__", m_dunder_len},
        {"__format__", m_dunder_format}, {"__getitem__", m_dunder_getitem}, {"__setitem__", m_dunder_setitem},
        {"item", m_item}, {"tolist", m_tolist}, {"size", m_size}, {"stride", m_stride}, {"dim", m_dim},
        {"ndimension", m_dim}, {"numel", m_numel}, {"nelement", m_numel}, {"is_contiguous", m_is_contiguous},
        {"is_floating_point", m_is_floating_point}, {"_is_view", m_is_view}, {"element_size", m_element_size}, {"data_ptr", m_data_ptr},
        {"detach", m_detach}, {"detach_", m_detach_}, {"requires_grad_", m_requires_grad_},
        {"retain_grad", m_retain_grad}, {"register_hook", m_register_hook},
        {"register_post_accumulate_grad_hook", m_register_post_accumulate_grad_hook},
        {"storage_offset", m_storage_offset}, {"backward", m_backward}, {"to", m_to},
        {"index_put_", m_index_put<true>}, {"index_put", m_index_put<false>},
        {"float", m_cast<DType::Float32>}, {"double", m_cast<DType::Float64>}, {"half", m_cast<DType::Float16>},
        {"bfloat16", m_cast<DType::BFloat16>}, {"long", m_cast<DType::Int64>}, {"int", m_cast<DType::Int32>},
        {"short", m_cast<DType::Int16>}, {"char", m_cast<DType::Int8>}, {"byte", m_cast<DType::UInt8>},
        {"bool", m_cast<DType::Bool>}, {"cpu", m_cpu}, {"cuda", m_cuda}, {"type", m_type},
        {"type_as", m_type_as}, {"view_as", m_as<kView>}, {"expand_as", m_as<kExpand>},
        {"reshape_as", m_as<kReshape>}, {"new_zeros", m_new<kZeros>}, {"new_ones", m_new<kOnes>},
        {"new_empty", m_new<kEmpty>}, {"new_full", m_new_full}, {"new_tensor", m_new_tensor},
        {"where", m_where}, {"repeat", m_repeat}, {"unique", m_with_self_first<torch_unique>},
        {"unique_consecutive", m_with_self_first<torch_unique_consecutive>},
        {"histogram", m_with_self_first<torch_histogram>}, {"resize_", m_resize_},
        {"is_complex", m_is_complex}, {"is_signed", m_is_signed}, {"is_same_size", m_is_same_size},
        {"is_inference", m_false<kIsInference>}, {"is_conj", m_false<kIsConj>}, {"is_neg", m_false<kIsNeg>},
        {"is_shared", m_false<kIsShared>}, {"is_pinned", m_false<kIsPinned>}, {"conj", m_self<kConj>},
        {"resolve_conj", m_self<kResolveConj>}, {"resolve_neg", m_self<kResolveNeg>},
        {"conj_physical", m_self<kConjPhysical>}, {"share_memory_", m_self<kShareMemory>},
        {"get_device", m_get_device}, {"sum_to_size", m_sum_to_size}, {"fill_diagonal_", m_fill_diagonal_}};
    for (const auto& [name, fn] : natives) (*m)[name] = MethodInfo{fn, ""};
    // The unsafe_ splits skip a version-counter check PyTorch makes; ours are the splits.
    for (const char* split : {"chunk", "split", "split_with_sizes"}) (*m)[std::string("unsafe_") + split] = (*m)[split];
    for (const char* view : {"t", "transpose", "squeeze", "unsqueeze", "swapdims", "swapaxes", "as_strided"})
      (*m)[std::string(view) + "_"] = MethodInfo{view_inplace_method, view};
    return m;
  }();
  return *table;
}

// ---- grad_fn objects ----------------------------------------------------------------------------

Obj node_repr(Interp& in, const CallArgs& a) {
  Obj name = getattr(in, a.self, "_name"), addr = getattr(in, a.self, "_addr");
  char buf[32];
  std::snprintf(buf, sizeof buf, "%llx", static_cast<unsigned long long>(addr.as_int()));
  return make_str("<" + str_of(name) + " object at 0x" + buf + ">");
}
Obj node_name_method(Interp& in, const CallArgs& a) { return getattr(in, a.self, "_name"); }
Obj grad_fn_obj(Interp& in, const std::shared_ptr<Node>& node);

// next_functions: ((next node or None, input number), ...) per input edge.
Obj node_next_functions(Interp& in, const CallArgs& a) {
  a.check("next_functions", 1, 1);
  Obj carrier = getattr(in, a.pos[0], "_node");
  const std::shared_ptr<Node>& node = carrier.as<TensorObj>()->tensor.grad_fn();
  std::vector<Obj> out;
  for (const Edge& e : node->next_edges)
    out.push_back(make_tuple({e.valid() ? grad_fn_obj(in, e.node) : Obj(), Obj::from_int(e.input_nr)}));
  return make_tuple(std::move(out));
}

// The class of a node named `name` ("MulBackward0"), a subclass of Node, as
// type(grad_fn).__name__ reads in PyTorch. One set per interpreter, kept in
// torch._C so no C++ static holds them.
Obj node_class(Interp& in, const std::string& name) {
  Obj c = in.import_module("torch._C");
  ModuleObj* m = c.as<ModuleObj>();
  Obj* base = m->attrs.find("_GradFnNode");
  if (!base) {
    Obj cls = make<ClassObj>("Node");
    OrderedMap& at = cls.as<ClassObj>()->attrs;
    at.set("__repr__", make_builtin("__repr__", node_repr));
    at.set("name", make_builtin("name", node_name_method));
    at.set("next_functions", make<PropertyObj>(make_builtin("next_functions", node_next_functions), Obj()));
    at.set("__module__", make_str("torch.autograd.graph"));
    m->attrs.set("_GradFnNode", cls);
    m->attrs.set("_GradFnClasses", make<DictObj>());
    base = m->attrs.find("_GradFnNode");
  }
  OrderedMap& classes = m->attrs.find("_GradFnClasses")->as<DictObj>()->map;
  Obj key = make_str(name);
  if (Obj* cls = classes.find(key)) return *cls;
  Obj cls = make<ClassObj>(name);
  cls.as<ClassObj>()->set_base(*base);
  cls.as<ClassObj>()->attrs.set("__module__", make_str("torch.autograd.function"));
  classes.set(key, cls);
  return cls;
}

Obj grad_fn_obj(Interp& in, const std::shared_ptr<Node>& node) {
  if (!node) return Obj();
  const std::string name = grad_fn_name(*node);
  Obj inst = make<InstanceObj>(node_class(in, name));
  InstanceObj* i = inst.as<InstanceObj>();
  i->attrs.set("_name", make_str(name));
  i->attrs.set("_addr", Obj::from_int(int64_t(reinterpret_cast<intptr_t>(node.get()))));
  // The node rides on an empty tensor: instances hold objects, not nodes.
  Tensor carrier = empty_tensor(Shape{0}, DType::Float32);
  carrier.impl()->grad_fn = node;
  i->attrs.set("_node", make_tensor(carrier));
  if (const Tensor* leaf = node->variable()) i->attrs.set("variable", make_tensor(*leaf));
  return inst;
}

// ---- properties -----------------------------------------------------------------------------

// PyTorch's .T is a permute (PermuteBackward0) whatever the rank; a matrix's
// stays our t(), which the JIT's matmul patterns read as a transposed operand.
Obj transpose_all(const Tensor& t) {
  if (t.dim() == 2) return make_tensor(ops::as_node(kiln::t(t), "PermuteBackward0"));
  Shape dims;
  for (int64_t d = t.dim() - 1; d >= 0; --d) dims.push_back(d);
  return make_tensor(permute(t, dims));
}

bool property(Interp& in, const Obj& self, const Tensor& t, const std::string& name, Obj& out) {
  if (name == "shape") out = size_obj(t.sizes());
  else if (name == "dtype") out = Obj::from_dtype(t.dtype());
  else if (name == "device") out = t.device().type == DeviceType::CPU ? make<DeviceObj>("cpu", -1)
                                                                     : make<DeviceObj>("cuda", t.device().index);
  else if (name == "ndim") out = Obj::from_int(t.dim());
  else if (name == "T") out = t.dim() == 0 ? self : transpose_all(t);
  else if (name == "mT" || name == "mH") {  // real tensors: the adjoint is the transpose
    KILN_CHECK(t.dim() >= 2, Runtime, "tensor.", name, " is only supported on matrices or batches of matrices. Got ",
               t.dim(), "-D tensor.");
    out = make_tensor(transpose(t, -2, -1));
  } else if (name == "H") {
    KILN_CHECK(t.dim() == 2, Runtime, "tensor.H is only supported on matrices (2-D tensors). Got ", t.dim(),
               "-D tensor.", t.dim() > 2 ? " For batches of matrices, consider using tensor.mH" : "");
    out = make_tensor(transpose(t, 0, 1));
  } else if (name == "grad") out = t.grad().defined() ? make_tensor(t.grad()) : Obj();
  else if (name == "requires_grad") out = Obj::from_bool(t.requires_grad());
  else if (name == "is_leaf") out = Obj::from_bool(t.is_leaf());
  else if (name == "grad_fn") out = grad_fn_obj(in, t.grad_fn());
  else if (name == "data") out = make_tensor(t.detach());
  else if (name == "_base") out = t.impl()->view_base.defined() ? make_tensor(t.impl()->view_base) : Obj();
  else if (name == "is_cuda") out = Obj::from_bool(t.device().type == DeviceType::CUDA);
  else if (name == "is_cpu") out = Obj::from_bool(t.device().type == DeviceType::CPU);
  else if (name == "itemsize") out = Obj::from_int(int64_t(t.element_size()));
  else if (name == "is_sparse" || name == "is_quantized" || name == "is_meta" || name == "is_nested" ||
           name == "is_mkldnn" || name == "is_sparse_csr")
    out = Obj::from_bool(false);
  else if (name == "layout") out = getattr(in, in.import_module("torch"), "strided");
  else if (name == "real") out = self;  // real dtypes only: the tensor itself
  else if (name == "imag")
    throw Error("imag is not implemented for tensors with non-complex dtypes.", ErrorKind::Type);
  else if (name == "retains_grad") out = Obj::from_bool(t.impl()->retains_grad);
  else if (name == "nbytes") out = Obj::from_int(t.numel() * int64_t(t.element_size()));
  else return false;
  return true;
}

}  // namespace

Obj tensor_getattr(Interp& in, const Obj& self, const std::string& name) {
  const Tensor& t = tensor_of(self, "self");
  Obj out;
  if (property(in, self, t, name, out)) return out;
  // The object's own attributes come after the properties (data descriptors)
  // and before the methods, as in CPython's lookup.
  const OrderedMap& attrs = self.as<TensorObj>()->attrs;
  if (attrs.size() != 0)
    if (const Obj* v = const_cast<OrderedMap&>(attrs).find(std::string_view(name))) return *v;
  if (name == "__dict__") {  // a snapshot, where PyTorch gives the dict itself
    Obj d = make<DictObj>();
    attrs.for_each([&](const Obj& k, const Obj& v) { d.as<DictObj>()->map.set(k, v); });
    return d;
  }
  const auto& m = methods();
  auto it = m.find(name);
  if (it == m.end()) return Obj::null();
  Obj b = make_builtin(name, it->second.fn);
  BuiltinObj* bo = b.as<BuiltinObj>();
  bo->ptr = &it->second;
  bo->self = self;
  return b;
}

namespace {
Obj unbound_method(Interp& in, const CallArgs& a) {
  const BuiltinObj& callee = callee_of(a);
  KILN_CHECK(!a.pos.empty() && a.pos[0].kind() == Kind::Tensor, Type, "descriptor '", callee.name,
             "' for 'torch._C.TensorBase' objects doesn't apply to a '",
             a.pos.empty() ? std::string("nothing") : type_name(a.pos[0]), "' object");
  CallArgs bound{a.pos.subspan(1), a.kw, a.pos[0], a.callee};
  return static_cast<const MethodInfo*>(callee.ptr)->fn(in, bound);
}
}  // namespace

Obj tensor_class_getattr(const std::string& name) {
  const auto& m = methods();
  auto it = m.find(name);
  if (it == m.end()) return Obj::null();
  Obj b = make_builtin(name, unbound_method);
  b.as<BuiltinObj>()->ptr = &it->second;
  return b;
}

void tensor_setattr(Interp& in, const Obj& self, const std::string& name, Obj value) {
  Tensor t = tensor_of(self, "self");
  if (name == "grad") {
    if (value.is_none()) {
      t.set_grad(Tensor());
      return;
    }
    const Tensor& g = tensor_of(value, "assigned grad");
    KILN_CHECK(g.dtype() == t.dtype(), Runtime, "assigned grad has data of a different type");
    KILN_CHECK(g.sizes() == t.sizes(), Runtime, "assigned grad has data of a different size");
    t.set_grad(g);
  } else if (name == "requires_grad") {
    const bool grad = truthy(in, value);
    // Setting the attribute words it so; requires_grad_() leaves out "complex".
    KILN_CHECK(!grad || is_floating(t.dtype()) || !t.is_leaf(), Runtime,
               "only Tensors of floating point and complex dtype can require gradients");
    t.requires_grad_(grad);
  } else if (name == "data") {
    const Tensor& src = tensor_of(value, "data");
    // Pending ops hold this tensor: they must run on what it was.
    lazy::sync(lazy::SyncReason::MetadataMutation);
    TensorImpl* impl = t.impl();
    impl->storage = src.storage();
    impl->sizes = src.sizes();
    impl->strides = src.strides();
    impl->offset = src.offset();
    impl->dtype = src.dtype();
  } else {
    Obj probe;
    KILN_CHECK(!property(in, self, t, name, probe), Attribute, "attribute '", name,
               "' of 'torch._C.TensorBase' objects is not writable");
    self.as<TensorObj>()->attrs.set(std::string_view(name), std::move(value));
  }
}

}  // namespace kiln::lang
