// The `torch` module: every op-table op as torch.<name>, tensor construction,
// dtypes and devices, grad-mode context managers, seeds, the small torch.cuda
// and torch._C modules (with the JIT's natives, jit_natives.cpp; torch.compile
// itself is prelude/compiler.py). torch.nn and torch.optim come from the Python prelude.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <unordered_set>

#include "core/autograd.h"
#include "core/device.h"
#include "core/dispatch.h"
#include "core/format.h"
#include "core/lazy.h"
#include "core/lang/interp.h"
#include "core/lang/objops.h"
#include "core/lang/torch_bridge.h"
#include "core/lang/torch_random.h"
#include "core/ops.h"
#include "core/ops/common.h"
#include "core/random.h"
#include "core/thread_pool.h"

namespace kiln::lang {
namespace {

// Op-table entries that are internal helpers rather than torch functions.
bool internal_op(std::string_view base) {
  static const std::unordered_set<std::string_view> kInternal = {
      "normal_functional", "nll_loss_grad", "uniform", "exponential", "random", "copy", "zero", "fill"};
  static const std::unordered_set<std::string_view> kInplaceInTorch = {"relu_", "clamp_", "zero_", "fill_"};
  if (kInternal.count(base)) return true;
  return base.back() == '_' && !kInplaceInTorch.count(base);
}

// torch.<op>(...). A builtin function never binds to an instance in Python,
// so a receiver the VM attached (the op stored as a class attribute) is dropped.
Obj op_function(Interp& in, const CallArgs& a) {
  CallArgs unbound{a.pos, a.kw, Obj::null(), a.callee};
  return call_torch_op(in, str_of(callee_of(a).data), unbound);
}

void def(ModuleObj& m, const std::string& name, NativeFn fn, Obj data = Obj()) {
  m.attrs.set(name, make_builtin(name, fn, std::move(data)));
}

// torch.einsum(equation, *operands) or torch.einsum(equation, [operands]).
Obj f_einsum(Interp&, const CallArgs& a) {
  KILN_CHECK(!a.pos.empty(), Type, "einsum() missing required argument: 'equation'");
  Value pos[2];
  pos[0] = to_value(a.pos[0]);
  if (a.pos.size() == 2 && a.pos[1].kind() != Kind::Tensor) {
    pos[1] = to_value(a.pos[1]);
  } else {
    std::vector<Tensor> ts;
    for (size_t i = 1; i < a.pos.size(); ++i) ts.push_back(tensor_of(a.pos[i], "operand"));
    pos[1] = Value(std::move(ts));
  }
  return call_op_obj("einsum", pos, to_kwargs(a));
}

// torch.chain_matmul(*matrices): the op takes them as one list.
Obj f_chain_matmul(Interp&, const CallArgs& a) {
  std::vector<Tensor> ms;
  for (const Obj& o : a.pos) ms.push_back(tensor_of(o, "matrices"));
  Value pos[1] = {Value(std::move(ms))};
  return call_op_obj("chain_matmul", pos, to_kwargs(a));
}

}  // namespace

namespace {
// The values alone, or a tuple with the inverse and/or counts.
Obj unique_result(std::vector<Tensor> outs, bool inverse, bool counts) {
  if (!inverse && !counts) return make_tensor(std::move(outs[0]));
  std::vector<Obj> items{make_tensor(std::move(outs[0]))};
  if (inverse) items.push_back(make_tensor(std::move(outs[1])));
  if (counts) items.push_back(make_tensor(std::move(outs[2])));
  return make_tuple(std::move(items));
}
}  // namespace

// torch.unique(input, sorted=True, return_inverse=False, return_counts=False, dim=None):
// the values alone, or a tuple with the inverse and/or counts (also Tensor.unique).
Obj torch_unique(Interp& in, const CallArgs& a) {
  a.check("unique", 1, 5, "input sorted return_inverse return_counts dim");
  bool inverse = truthy(in, a.arg(2, "return_inverse", Obj::from_bool(false)));
  bool counts = truthy(in, a.arg(3, "return_counts", Obj::from_bool(false)));
  Value self(tensor_of(a.arg(0, "input"), "input"));
  Value sorted(truthy(in, a.arg(1, "sorted", Obj::from_bool(true))));
  Obj dim = a.arg(4, "dim");
  std::vector<Tensor> outs;
  if (dim.is_none()) {
    Value args[4] = {self, sorted, Value(inverse), Value(counts)};
    outs = call_op("_unique2", args);
  } else {
    Value args[5] = {self, to_value(dim), sorted, Value(inverse), Value(counts)};
    outs = call_op("unique_dim", args);
  }
  return unique_result(std::move(outs), inverse, counts);
}

// torch.unique_consecutive(input, return_inverse=False, return_counts=False, dim=None), as torch.unique
// (also Tensor.unique_consecutive).
Obj torch_unique_consecutive(Interp& in, const CallArgs& a) {
  a.check("unique_consecutive", 1, 4, "input return_inverse return_counts dim");
  bool inverse = truthy(in, a.arg(1, "return_inverse", Obj::from_bool(false)));
  bool counts = truthy(in, a.arg(2, "return_counts", Obj::from_bool(false)));
  Value args[4] = {Value(tensor_of(a.arg(0, "input"), "input")), Value(inverse), Value(counts),
                   to_value(a.arg(3, "dim"))};
  return unique_result(call_op("unique_consecutive", args), inverse, counts);
}

// torch.histogram(input, bins, *, range=None, weight=None, density=False): bins is a count
// (histogram.bin_ct, whose range the op takes as two numbers) or the edges (histogram.bins_tensor).
Obj torch_histogram(Interp& in, const CallArgs& a) {
  a.check("histogram", 1, 2, "input bins range weight density");
  const Value input(tensor_of(a.arg(0, "input"), "input"));
  const Obj bins = a.arg(1, "bins", Obj::from_int(100));
  const Obj* w = a.find_kw("weight");
  const Obj* d = a.find_kw("density");
  const Value weight = w ? to_value(*w) : Value(), density(d && truthy(in, *d));
  if (bins.kind() == Kind::Tensor) {
    Value args[4] = {input, to_value(bins), weight, density};
    return call_op_obj("histogram.bins_tensor", args, {});
  }
  Value lo, hi;
  if (const Obj* r = a.find_kw("range"); r && !r->is_none()) {
    const std::vector<Obj>& items =
        r->kind() == Kind::Tuple ? r->as<TupleObj>()->items : r->as<ListObj>()->items;
    KILN_CHECK(items.size() == 2, Type, "histogram(): argument 'range' must be a tuple of 2 floats");
    lo = to_value(items[0]), hi = to_value(items[1]);
  }
  Value args[6] = {input, to_value(bins), lo, hi, weight, density};
  return call_op_obj("histogram.bin_ct", args, {});
}

namespace {

// torch.linalg: the norms, cross and the LAPACK ops, bound to their linalg_* ops.
Obj linalg_op(Interp& in, const CallArgs& a) {
  CallArgs unbound{a.pos, a.kw, Obj::null(), a.callee};
  return call_torch_op(in, str_of(callee_of(a).data), unbound);
}
Obj make_linalg_module() {
  Obj m = make<ModuleObj>("torch.linalg");
  ModuleObj& linalg = *m.as<ModuleObj>();
  for (const char* name : {"vector_norm", "matrix_norm", "norm", "cross", "inv", "det", "slogdet", "solve", "qr",
                           "cholesky", "matrix_power", "svd", "svdvals", "eigh", "eigvalsh", "lstsq", "pinv",
                           "matrix_rank", "vecdot", "multi_dot", "diagonal", "solve_triangular", "cond",
                           "matrix_exp", "vander", "lu_factor", "lu_factor_ex", "lu", "lu_solve", "inv_ex", "cholesky_ex",
                           "solve_ex"})
    def(linalg, name, linalg_op, make_str(std::string("linalg_") + name));
  return m;
}

// torch.special: PyTorch's names for op-table functions (expit is sigmoid,
// gammaln is lgamma, psi is digamma).
Obj make_special_module() {
  Obj m = make<ModuleObj>("torch.special");
  ModuleObj& special = *m.as<ModuleObj>();
  const std::pair<const char*, const char*> names[] = {
      {"expit", "sigmoid"},   {"erf", "erf"},       {"erfc", "erfc"},         {"erfinv", "erfinv"},
      {"logit", "logit"},     {"exp2", "exp2"},     {"expm1", "expm1"},       {"log1p", "log1p"},
      {"round", "round"},     {"sinc", "sinc"},     {"gammaln", "lgamma"},    {"digamma", "digamma"},
      {"psi", "digamma"},     {"polygamma", "polygamma"}, {"xlogy", "xlogy"}, {"logsumexp", "logsumexp"},
      {"softmax", "softmax"}, {"log_softmax", "log_softmax"}, {"i0", "i0"}, {"i1", "special_i1"}};
  for (const auto& [name, op] : names) def(special, name, op_function, make_str(op));
  return m;
}

bool callable_arg(const Obj& o) {
  switch (o.kind()) {
    case Kind::Function:
    case Kind::Builtin:
    case Kind::BoundMethod:
    case Kind::Class:
    case Kind::Instance: return true;
    default: return false;
  }
}

ModuleObj& torch_c(Interp& in) { return *in.import_module("torch._C").as<ModuleObj>(); }

// ---- tensors ----------------------------------------------------------------------------------

Obj kwarg(const CallArgs& a, std::string_view name, Obj def = Obj()) {
  const Obj* v = a.find_kw(name);
  return v ? *v : def;
}

// A Python complex number or a complex tensor (instances of prelude classes)
// somewhere in torch.tensor's data. Each list is looked into once (`seen`):
// data sharing one row many times stays linear, a list holding itself ends.
bool holds_complex(const Obj& o, std::unordered_set<const void*>& seen, int depth) {
  if (o.kind() == Kind::Instance) {
    const std::string name = type_name(o);
    return name == "complex" || name == "ComplexTensor";
  }
  const std::vector<Obj>* items = nullptr;
  if (const ListObj* l = o.as<ListObj>()) items = &l->items;
  if (const TupleObj* t = o.as<TupleObj>()) items = &t->items;
  if (!items || depth > 1000 || !seen.insert(items).second) return false;  // deeper: no tensor's data
  for (const Obj& x : *items)
    if (holds_complex(x, seen, depth + 1)) return true;
  return false;
}
bool holds_complex(const Obj& o) {
  std::unordered_set<const void*> seen;
  return holds_complex(o, seen, 0);
}

// torch.tensor(data) / torch.as_tensor(data) of complex numbers or with a
// complex dtype (an instance, not a DType): prelude/_complex.py's _tensor
// makes the complex tensor. Null when neither applies.
Obj complex_tensor(Interp& in, const CallArgs& a, const Obj& dtype) {
  if (dtype.kind() != Kind::Instance && !holds_complex(a.pos[0])) return Obj::null();
  Obj make_fn = getattr(in, in.import_module("torch._complex"), "_tensor");
  Obj args[] = {a.pos[0], dtype, kwarg(a, "device"), kwarg(a, "requires_grad", Obj::from_bool(false))};
  return in.call(make_fn, args);
}

// PyTorch reads data through the sequence protocol, so a user sequence (a
// class with __len__ and __getitem__, collections.deque) is data too: its
// items become a list here. Other objects pass through unchanged.
Obj as_data(Interp& in, const Obj& o) {
  const InstanceObj* inst = o.as<InstanceObj>();
  if (!inst) return o;
  const ClassObj& cls = inst->get_class();
  if (cls.lookup("__getitem__").is_null() || cls.lookup("__len__").is_null()) return o;
  std::vector<Obj> items;
  extend_from_iterable(in, items, o);
  return make_list(std::move(items));
}

Obj f_tensor(Interp& in, const CallArgs& a) {
  a.check("tensor", 1, 1, "dtype device requires_grad pin_memory");
  if (Obj z = complex_tensor(in, a, kwarg(a, "dtype")); !z.is_null()) return z;
  std::optional<Device> device = device_arg(kwarg(a, "device"));
  Tensor t = tensor_from_data(as_data(in, a.pos[0]), dtype_of_obj(kwarg(a, "dtype"), "tensor(): argument 'dtype'"));
  if (truthy(in, kwarg(a, "requires_grad", Obj::from_bool(false)))) {
    // The factories' words (requires_grad_() has its own).
    KILN_CHECK(is_floating(t.dtype()), Runtime, "Only Tensors of floating point and complex dtype can require gradients");
    t.requires_grad_(true);
  }
  return place_on(make_tensor(t), device.value_or(default_device()));
}

Obj f_as_tensor(Interp& in, const CallArgs& a) {
  a.check("as_tensor", 1, 3, "dtype device");
  if (a.pos[0].kind() != Kind::Tensor)
    if (Obj z = complex_tensor(in, a, a.arg(1, "dtype")); !z.is_null()) return z;
  std::optional<Device> device = device_arg(a.arg(2, "device"));
  std::optional<DType> d = dtype_of_obj(a.arg(1, "dtype"), "as_tensor(): argument 'dtype'");
  if (TensorObj* t = a.pos[0].as<TensorObj>()) {
    if (!d || *d == t->tensor.dtype()) return place_on(a.pos[0], device);
    return place_on(make_tensor(to_dtype(t->tensor, *d)), device);
  }
  return place_on(make_tensor(tensor_from_data(as_data(in, a.pos[0]), d)), device.value_or(default_device()));
}

Obj typed_tensor_on_cpu(Interp& in, const CallArgs& a, DType d, const char* name) {
  bool sizes = !a.pos.empty();
  for (const Obj& o : a.pos) sizes = sizes && o.is_int();
  if (sizes || (a.pos.size() == 1 && a.pos[0].kind() == Kind::Tuple && a.pos[0].as<TupleObj>()->is_size)) {
    Shape s;
    for (const Obj& o : sizes ? std::vector<Obj>(a.pos.begin(), a.pos.end()) : a.pos[0].as<TupleObj>()->items)
      s.push_back(o.as_int());
    return make_tensor(zeros(s, d));
  }
  if (a.pos.empty()) return make_tensor(zeros(Shape{0}, d));
  a.check(name, 1, 1);
  if (const TensorObj* t = a.pos[0].as<TensorObj>()) {  // an alias, of the constructor's type only
    auto options = [](DType t) {  // PyTorch's words for the mismatch, its TensorOptions printed
      return "TensorOptions(dtype=" + std::string(dtype_cpp_name(t)) +
             ", device=cpu, layout=Strided, requires_grad=false (default), pinned_memory=false (default), "
             "memory_format=(nullopt))";
    };
    KILN_CHECK(t->tensor.dtype() == d, Type, "expected ", options(d), " (got ", options(t->tensor.dtype()), ")");
    return make_tensor(t->tensor.detach());
  }
  return make_tensor(tensor_from_data(as_data(in, a.pos[0]), d));
}

// torch.Tensor(...) and the legacy typed constructors (torch.LongTensor(...)):
// a tensor of dtype `d` from data, or of the given sizes (zeros where PyTorch
// leaves them uninitialized), on the default device.
Obj construct_typed_tensor(Interp& in, const CallArgs& a, DType d, const char* name) {
  Obj t = typed_tensor_on_cpu(in, a, d, name);
  // A tensor argument gives an alias of itself, where it is.
  return a.pos.size() == 1 && a.pos[0].kind() == Kind::Tensor ? t : place_on(t, default_device());
}

Obj construct_tensor(Interp& in, const CallArgs& a) { return construct_typed_tensor(in, a, DType::Float32, "Tensor"); }

template <DType D>
Obj construct_legacy_tensor(Interp& in, const CallArgs& a) {
  static const std::string name = std::string(dtype_legacy_name(D)) + "Tensor";
  return construct_typed_tensor(in, a, D, name.c_str());
}

// nn.Parameter(data=None, requires_grad=True): a detached alias flagged as a parameter.
Obj construct_parameter(Interp& in, const CallArgs& a) {
  a.check("Parameter", 0, 2, "data requires_grad");
  Obj data = a.arg(0, "data");
  Tensor t = data.is_none() ? empty_tensor(Shape{0}, DType::Float32) : tensor_of(data, "data").detach();
  const bool grad = truthy(in, a.arg(1, "requires_grad", Obj::from_bool(true)));
  KILN_CHECK(!grad || is_floating(t.dtype()), Runtime, "Only Tensors of floating point and complex dtype can require gradients");
  t.requires_grad_(grad);
  return make<TensorObj>(t, true);
}

// torch._C._set_grad_fn_name(t, name): PyTorch's name for the node of a prelude composite's
// result (nn.EmbeddingBag's is EmbeddingBagBackward0, not its last op's).
Obj f_set_grad_fn_name(Interp&, const CallArgs& a) {
  a.check("_set_grad_fn_name", 2, 2);
  const Tensor& t = tensor_of(a.pos[0], "tensor");
  KILN_CHECK(a.pos[1].kind() == Kind::Str, Type, "_set_grad_fn_name: expected a str name");
  if (const std::shared_ptr<Node>& n = t.grad_fn()) n->display_name = a.pos[1].as<StrObj>()->value;
  return a.pos[0];
}

// torch._C._complex_repr(pairs): the repr of the complex tensor whose
// torch.view_as_real is `pairs` (prelude/_complex.py keeps complex tensors so).
Obj f_complex_repr(Interp&, const CallArgs& a) {
  a.check("_complex_repr", 1, 1);
  const Tensor& t = tensor_of(a.pos[0], "pairs");
  KILN_CHECK(t.dim() >= 1 && t.sizes().back() == 2 && is_floating(t.dtype()), Value,
             "_complex_repr: expected a floating tensor whose last dimension has size 2");
  return make_str(format_complex_tensor(t));
}

Obj f_is_parameter(Interp&, const CallArgs& a) {
  a.check("_is_parameter", 1, 1);
  TensorObj* t = a.pos[0].as<TensorObj>();
  return Obj::from_bool(t && t->is_parameter);
}

Obj f_size(Interp& in, const CallArgs& a) {
  a.check("Size", 0, 1);
  std::vector<Obj> items;
  if (!a.pos.empty()) extend_from_iterable(in, items, a.pos[0]);
  for (const Obj& o : items)
    KILN_CHECK(o.is_int(), Type, "torch.Size() takes an iterable of 'int' (item 0 is '", kind_name(o.kind()), "')");
  return make<TupleObj>(std::move(items), true);
}

// torch.broadcast_shapes(*shapes): each shape an int or a sequence of ints;
// the broadcast shape as a torch.Size (PyTorch 2.x's rules and messages).
Obj f_broadcast_shapes(Interp&, const CallArgs& a) {
  a.check("broadcast_shapes", 0, a.pos.size());
  std::vector<Shape> shapes;
  size_t rank = 0;
  for (const Obj& o : a.pos) {
    Value v = o.is_int() || o.kind() == Kind::List || o.kind() == Kind::Tuple ? to_value(o) : Value();
    KILN_CHECK(v.is_int() || v.is_int_list(), Runtime,
               "Input shapes should be of type ints, a tuple of ints, or a list of ints, got ", type_name(o));
    shapes.push_back(v.is_int() ? Shape{v.to_int()} : v.int_list());
    rank = std::max(rank, shapes.back().size());
  }
  Shape out(rank, 1);
  for (const Shape& s : shapes) {
    for (size_t k = 1; k <= s.size(); ++k) {
      int64_t d = s[s.size() - k];
      int64_t& r = out[rank - k];
      KILN_CHECK(d >= 0, Runtime, "Trying to create tensor with negative dimension (", d, "): (", d, ")");
      if (d == 1 || d == r) continue;
      KILN_CHECK(r == 1, Runtime, "Shape mismatch: objects cannot be broadcast to a single shape");
      r = d;
    }
  }
  std::vector<Obj> items;
  for (int64_t d : out) items.push_back(Obj::from_int(d));
  return make<TupleObj>(std::move(items), true);
}

// torch.tensordot(a, b, dims=2): dims an int n (a's last n dims against b's
// first n) or a pair of dim lists, as PyTorch's Python wrapper reads it.
Obj f_tensordot(Interp&, const CallArgs& a) {
  a.check("tensordot", 2, 3, "a b dims out");
  const Tensor &x = tensor_of(a.arg(0, "a"), "a"), &y = tensor_of(a.arg(1, "b"), "b");
  Obj dims = a.arg(2, "dims", Obj::from_int(2));
  Shape da, db;
  if (dims.is_int()) {
    int64_t n = dims.as_int();
    KILN_CHECK(n >= 0, Runtime, "tensordot expects dims >= 0, but got dims=", n);
    KILN_CHECK(n <= std::min(x.dim(), y.dim()), Runtime, "tensordot expects dims < ndim_a or ndim_b, but got dims=", n);
    for (int64_t i = 0; i < n; ++i) da.push_back(i - n), db.push_back(i);
  } else {
    const std::vector<Obj>* pair = dims.kind() == Kind::List    ? &dims.as<ListObj>()->items
                                   : dims.kind() == Kind::Tuple ? &dims.as<TupleObj>()->items
                                                                : nullptr;
    KILN_CHECK(pair && pair->size() == 2, Runtime,
               "tensordot expects dims to be int or Tuple[List[int], List[int]] or List[List[int]] containing two "
               "lists, but got dims=", type_name(dims));
    auto dim_list = [](const Obj& o, const char* name, int position) {
      Value v = o.kind() == Kind::List || o.kind() == Kind::Tuple ? to_value(o) : Value();
      KILN_CHECK(v.is_int_list(), Type, "tensordot(): argument '", name, "' (position ", position,
                 ") must be tuple of ints, not ", type_name(o));
      return v.int_list();
    };
    da = dim_list((*pair)[0], "dims_self", 3);
    db = dim_list((*pair)[1], "dims_other", 4);
  }
  Value pos[4] = {Value(x), Value(y), Value(da), Value(db)};
  return call_op_obj("tensordot", pos, {});
}

Obj f_device(Interp&, const CallArgs& a) {
  a.check("device", 1, 2, "type index");
  Obj spec = a.arg(0, "type");
  if (DeviceObj* d = spec.as<DeviceObj>()) return make<DeviceObj>(d->type, d->index);
  const std::string& s = str_of(spec, "device(): argument 'type'");
  std::string type = s.substr(0, s.find(':'));
  int index = -1;
  if (type.size() < s.size()) index = std::stoi(s.substr(type.size() + 1));
  Obj idx = a.arg(1, "index");
  if (idx.is_int()) index = int(idx.as_int());
  KILN_CHECK(type == "cpu" || type == "cuda", Runtime,
             "Expected one of cpu, cuda, ipu, xpu, mkldnn, opengl, opencl, ideep, hip, ve, fpga, maia, xla, lazy, "
             "vulkan, mps, meta, hpu, mtia, privateuseone device type at start of device string: ", s);
  return make<DeviceObj>(type, index);
}

Obj f_is_tensor(Interp&, const CallArgs& a) {
  a.check("is_tensor", 1, 1);
  return Obj::from_bool(a.pos[0].kind() == Kind::Tensor || tensor_like(a.pos[0]));
}

Obj f_is_floating_point(Interp&, const CallArgs& a) {
  a.check("is_floating_point", 1, 1);
  return Obj::from_bool(tensor_of(a.pos[0], "is_floating_point(): argument 'input'").is_floating_point());
}

// torch.result_type(tensor1, tensor2): the dtype an arithmetic op on them gives,
// a Python number taking part as PyTorch's wrapped numbers do.
Obj f_result_type(Interp&, const CallArgs& a) {
  a.check("result_type", 2, 2);
  auto operand = [](const Obj& o) {
    if (const TensorObj* t = o.as<TensorObj>()) return t->tensor;
    KILN_CHECK(o.is_number(), Type, "result_type(): argument 'tensor' must be Tensor or Number, not ", type_name(o));
    DType d = o.is_bool() ? DType::Bool : o.is_int() ? DType::Int64 : DType::Float64;
    return scalar_tensor(o.is_bool() ? double(o.as_bool()) : o.is_int() ? 0.0 : o.as_float(), d, true);
  };
  return Obj::from_dtype(ops::result_type({operand(a.pos[0]), operand(a.pos[1])}));
}

// A required dtype argument (None is a TypeError too).
DType dtype_arg(const Obj& o, const char* what) {
  std::optional<DType> d = dtype_of_obj(o, what);
  KILN_CHECK(d, Type, what, " must be torch.dtype, not NoneType");
  return *d;
}

Obj f_promote_types(Interp&, const CallArgs& a) {
  a.check("promote_types", 2, 2);
  return Obj::from_dtype(promote_types(dtype_arg(a.pos[0], "promote_types(): argument 'type1' (position 1)"),
                                       dtype_arg(a.pos[1], "promote_types(): argument 'type2' (position 2)")));
}

Obj f_can_cast(Interp&, const CallArgs& a) {
  a.check("can_cast", 2, 2);
  return Obj::from_bool(can_cast(dtype_arg(a.pos[0], "can_cast(): argument 'from_' (position 1)"),
                                 dtype_arg(a.pos[1], "can_cast(): argument 'to' (position 2)")));
}

Obj f_numel(Interp&, const CallArgs& a) {
  a.check("numel", 1, 1);
  return Obj::from_int(tensor_of(a.pos[0], "numel(): argument 'input'").numel());
}

Obj f_get_default_dtype(Interp&, const CallArgs& a) {
  a.check("get_default_dtype", 0, 0);
  return Obj::from_dtype(kDefaultFloat);
}

Obj f_set_default_dtype(Interp&, const CallArgs& a) {
  a.check("set_default_dtype", 1, 1);
  auto d = dtype_of_obj(a.pos[0], "set_default_dtype(): argument 'd'");
  KILN_CHECK(d == kDefaultFloat, NotImplemented, "kiln's default dtype is fixed at torch.float32");
  return Obj();
}

// ---- finfo / iinfo ------------------------------------------------------------------------------

Obj info_repr(Interp& in, const CallArgs& a) { return getattr(in, a.self, "_repr"); }

// PyTorch prints the numbers of finfo/iinfo through a C++ stream: %g with 6 digits.
std::string info_num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

// An instance of torch._C._finfo/_iinfo holding `fields`; its repr lists `shown` in order.
Obj info_object(Interp& in, const char* cls_name, std::vector<std::pair<const char*, Obj>> fields,
                std::initializer_list<const char*> shown) {
  ModuleObj& c = torch_c(in);
  std::string key = std::string("_") + cls_name;
  Obj* cls = c.attrs.find(key);
  if (!cls) {
    Obj k = make<ClassObj>(cls_name);
    k.as<ClassObj>()->attrs.set("__repr__", make_builtin("__repr__", info_repr));
    c.attrs.set(key, k);
    cls = c.attrs.find(key);
  }
  Obj inst = make<InstanceObj>(*cls);
  std::string repr = std::string(cls_name) + "(";
  for (const char* name : shown) {
    for (auto& [k, v] : fields) {
      if (std::string_view(k) != name) continue;
      std::string text = v.kind() == Kind::Str ? str_of(v) : info_num(v.is_intlike() ? double(v.as_int()) : v.as_float());
      repr += std::string(repr.back() == '(' ? "" : ", ") + k + "=" + text;
    }
  }
  for (auto& [k, v] : fields) inst.as<InstanceObj>()->attrs.set(k, std::move(v));
  inst.as<InstanceObj>()->attrs.set("_repr", make_str(repr + ")"));
  return inst;
}

Obj f_finfo(Interp& in, const CallArgs& a) {
  a.check("finfo", 0, 1, "type");
  DType d = dtype_of_obj(a.arg(0, "type"), "finfo(): argument 'type'").value_or(kDefaultFloat);
  KILN_CHECK(is_floating(d), Type, "torch.finfo() requires a floating point input type. Use torch.iinfo to handle '",
             "torch.finfo'");
  double eps, max, tiny, res;
  int bits;
  switch (d) {
    case DType::Float16: eps = 0.0009765625, max = 65504.0, tiny = 6.103515625e-05, res = 0.001, bits = 16; break;
    case DType::BFloat16:
      eps = 0.0078125, max = 3.3895313892515355e+38, tiny = 1.1754943508222875e-38, res = 0.01, bits = 16;
      break;
    case DType::Float64:
      eps = std::numeric_limits<double>::epsilon(), max = std::numeric_limits<double>::max(),
      tiny = std::numeric_limits<double>::min(), res = 1e-15, bits = 64;
      break;
    default:
      eps = std::numeric_limits<float>::epsilon(), max = std::numeric_limits<float>::max(),
      tiny = std::numeric_limits<float>::min(), res = 1e-06, bits = 32;
  }
  return info_object(in, "finfo",
                     {{"bits", Obj::from_int(bits)}, {"eps", Obj::from_float(eps)}, {"max", Obj::from_float(max)},
                      {"min", Obj::from_float(-max)}, {"tiny", Obj::from_float(tiny)},
                      {"smallest_normal", Obj::from_float(tiny)}, {"resolution", Obj::from_float(res)},
                      {"dtype", make_str(std::string(dtype_name(d)))}},
                     {"resolution", "min", "max", "eps", "smallest_normal", "tiny", "dtype"});
}

Obj f_iinfo(Interp& in, const CallArgs& a) {
  a.check("iinfo", 1, 1);
  DType d = *dtype_of_obj(a.pos[0], "iinfo(): argument 'type'");
  KILN_CHECK(is_integral(d, true), Type, "torch.iinfo() requires an integer input type. Use torch.finfo to handle '",
             dtype_name(d), "'");
  int64_t max = d == DType::Int64   ? std::numeric_limits<int64_t>::max()
                : d == DType::Int32 ? std::numeric_limits<int32_t>::max()
                : d == DType::Int16 ? std::numeric_limits<int16_t>::max()
                : d == DType::Int8  ? std::numeric_limits<int8_t>::max()
                : d == DType::UInt8 ? std::numeric_limits<uint8_t>::max()
                                    : 1;
  int64_t min = d == DType::Bool || d == DType::UInt8 ? 0 : -max - 1;
  return info_object(in, "iinfo",
                     {{"bits", Obj::from_int(int64_t(dtype_size(d)) * 8)}, {"max", Obj::from_int(max)},
                      {"min", Obj::from_int(min)}, {"dtype", make_str(std::string(dtype_name(d)))}},
                     {"min", "max", "dtype"});
}

// ---- seeds and threads --------------------------------------------------------------------------

Obj f_manual_seed(Interp&, const CallArgs& a) {
  a.check("manual_seed", 1, 1, "seed");
  Obj s = a.arg(0, "seed");
  KILN_CHECK(s.is_intlike(), Type, "manual_seed expected an int, got ", kind_name(s.kind()));
  manual_seed(uint64_t(s.as_int()));
  return Obj();
}

Obj f_seed(Interp&, const CallArgs& a) {
  a.check("seed", 0, 0);
  uint64_t s = nondeterministic_seed();
  manual_seed(s);
  return Obj::from_int(int64_t(s));
}

Obj f_initial_seed(Interp&, const CallArgs& a) {
  a.check("initial_seed", 0, 0);
  return Obj::from_int(int64_t(initial_seed()));
}

// torch.set_printoptions(precision, threshold, edgeitems, linewidth, profile,
// sci_mode): a profile first, then the named options; sci_mode is always
// assigned (None gives the per-tensor choice back), as in torch/_tensor_str.py.
Obj f_set_printoptions(Interp&, const CallArgs& a) {
  a.check("set_printoptions", 0, 6, "precision threshold edgeitems linewidth profile sci_mode");
  auto arg = [&](size_t i, const char* name) {
    Obj v = a.arg(i, name);
    return v.is_null() || v.is_none() ? Obj::null() : v;
  };
  auto count = [&](const Obj& v, const char* name) {
    if (v.is_float() && std::isinf(v.as_float())) return std::numeric_limits<int64_t>::max();
    KILN_CHECK(v.is_intlike(), Type, "set_printoptions(): ", name, " must be an int, not ", type_name(v));
    return v.as_int();
  };
  PrintOptions& o = print_options();
  if (Obj p = arg(4, "profile"); !p.is_null()) {
    const std::string profile = str_of(p, "profile");
    KILN_CHECK(profile == "default" || profile == "short" || profile == "full", Value,
               "set_printoptions(): profile must be 'default', 'short' or 'full', not '", profile, "'");
    o = PrintOptions{};
    if (profile == "short") o.precision = 2, o.edgeitems = 2;
    if (profile == "full") o.threshold = std::numeric_limits<int64_t>::max();
  }
  if (Obj v = arg(0, "precision"); !v.is_null()) o.precision = int(std::clamp<int64_t>(count(v, "precision"), 0, 100));
  if (Obj v = arg(1, "threshold"); !v.is_null()) o.threshold = count(v, "threshold");
  if (Obj v = arg(2, "edgeitems"); !v.is_null()) o.edgeitems = count(v, "edgeitems");
  if (Obj v = arg(3, "linewidth"); !v.is_null()) o.linewidth = count(v, "linewidth");
  Obj sci = arg(5, "sci_mode");
  KILN_CHECK(sci.is_null() || sci.is_intlike(), Type, "set_printoptions(): sci_mode must be a bool or None");
  o.sci_mode = sci.is_null() ? -1 : sci.as_int() != 0 ? 1 : 0;
  return Obj::none();
}

Obj f_get_num_threads(Interp&, const CallArgs& a) {
  a.check("get_num_threads", 0, 0);
  return Obj::from_int(num_threads());
}

constexpr int64_t kMaxThreads = 256;

Obj f_set_num_threads(Interp&, const CallArgs& a) {
  a.check("set_num_threads", 1, 1);
  KILN_CHECK(a.pos[0].is_int() && a.pos[0].as_int() > 0, Runtime, "set_num_threads expects a positive integer");
  // Threads are started eagerly: a huge request would exhaust the process, and
  // beyond a few per core they only add overhead, so the count is capped.
  set_num_threads(int(std::min<int64_t>(a.pos[0].as_int(), kMaxThreads)));
  return Obj();
}

// ---- grad mode ----------------------------------------------------------------------------------
// torch.no_grad() etc. are instances of small classes whose __enter__/__exit__
// switch GradMode; called on a function they return a wrapper running it in
// that mode (the decorator form).

struct GradModeRestore {
  bool prev = GradMode::enabled();
  ~GradModeRestore() { GradMode::set(prev); }
};

Obj grad_mode_wrapper(Interp& in, const CallArgs& a) {
  TupleObj* d = callee_of(a).data.as<TupleObj>();
  GradModeRestore restore;
  GradMode::set(d->items[1].as_bool());
  if (a.self.is_null()) return in.call(d->items[0], a.pos, a.kw);
  std::vector<Obj> pos{a.self};
  pos.insert(pos.end(), a.pos.begin(), a.pos.end());
  return in.call(d->items[0], pos, a.kw);
}

Obj wrap_in_mode(const Obj& fn, bool mode) {
  std::string name = "wrapper";
  if (FunctionObj* f = fn.as<FunctionObj>()) name = f->name;
  return make_builtin(name, grad_mode_wrapper, make_tuple({fn, Obj::from_bool(mode)}));
}

bool instance_flag(const Obj& self, const char* name) {
  Obj* v = self.as<InstanceObj>()->attrs.find(name);
  return v && v->as_bool();
}

Obj ctx_enter(Interp&, const CallArgs& a) {
  InstanceObj* self = a.self.as<InstanceObj>();
  KILN_CHECK(self, Type, "__enter__ needs a grad-mode instance");
  if (!instance_flag(a.self, "_eager")) {
    self->attrs.set("_prev", Obj::from_bool(GradMode::enabled()));
    GradMode::set(instance_flag(a.self, "_mode"));
  }
  return Obj();
}

Obj ctx_exit(Interp&, const CallArgs& a) {
  InstanceObj* self = a.self.as<InstanceObj>();
  KILN_CHECK(self, Type, "__exit__ needs a grad-mode instance");
  if (Obj* prev = self->attrs.find("_prev")) GradMode::set(prev->as_bool());
  return Obj::from_bool(false);
}

Obj ctx_call(Interp&, const CallArgs& a) {
  a.check("__call__", 1, 1);
  return wrap_in_mode(a.pos[0], instance_flag(a.self, "_mode"));
}

Obj grad_mode_class(Interp& in, const std::string& name) {
  ModuleObj& c = torch_c(in);
  std::string key = "_cls_" + name;
  if (Obj* cls = c.attrs.find(key)) return *cls;
  Obj cls = make<ClassObj>(name);
  ClassObj* k = cls.as<ClassObj>();
  k->attrs.set("__enter__", make_builtin("__enter__", ctx_enter));
  k->attrs.set("__exit__", make_builtin("__exit__", ctx_exit));
  k->attrs.set("__call__", make_builtin("__call__", ctx_call));
  c.attrs.set(key, cls);
  return cls;
}

Obj grad_mode_instance(Interp& in, const std::string& cls, bool mode) {
  Obj inst = make<InstanceObj>(grad_mode_class(in, cls));
  inst.as<InstanceObj>()->attrs.set("_mode", Obj::from_bool(mode));
  return inst;
}

// no_grad() / enable_grad(): an instance; no_grad(fn) (bare decorator): the wrapper.
template <bool Mode>
Obj f_grad_ctx(Interp& in, const CallArgs& a) {
  const char* name = Mode ? "enable_grad" : "no_grad";
  a.check(name, 0, 1, "orig_func");
  Obj fn = a.arg(0, "orig_func");
  if (!fn.is_none()) return wrap_in_mode(fn, Mode);
  return grad_mode_instance(in, name, Mode);
}

Obj f_inference_mode(Interp& in, const CallArgs& a) {
  a.check("inference_mode", 0, 1, "mode");
  Obj mode = a.arg(0, "mode", Obj::from_bool(true));
  if (callable_arg(mode)) return wrap_in_mode(mode, false);
  return grad_mode_instance(in, "inference_mode", !truthy(in, mode));
}

// set_grad_enabled(mode) takes effect at once; as a context manager it restores on exit.
Obj f_set_grad_enabled(Interp& in, const CallArgs& a) {
  a.check("set_grad_enabled", 1, 1, "mode");
  bool mode = truthy(in, a.arg(0, "mode"));
  Obj inst = grad_mode_instance(in, "set_grad_enabled", mode);
  InstanceObj* i = inst.as<InstanceObj>();
  i->attrs.set("_prev", Obj::from_bool(GradMode::enabled()));
  i->attrs.set("_eager", Obj::from_bool(true));
  GradMode::set(mode);
  return inst;
}

Obj f_is_grad_enabled(Interp&, const CallArgs& a) {
  a.check("is_grad_enabled", 0, 0);
  return Obj::from_bool(GradMode::enabled());
}

Obj f_is_inference_mode_enabled(Interp&, const CallArgs& a) {
  a.check("is_inference_mode_enabled", 0, 0);
  return Obj::from_bool(false);
}

// ---- torch.cuda ---------------------------------------------------------------------------------

Obj f_false(Interp&, const CallArgs&) { return Obj::from_bool(false); }
Obj f_none(Interp&, const CallArgs&) { return Obj(); }

// torch.cuda answers from the installed backend (core/device.h): False and 0
// without one or without a device, so scripts can pick their device.
bool cuda_usable() {
  DeviceBackend* b = cuda_backend_if_any();
  return b && b->available();
}
Obj f_cuda_is_available(Interp&, const CallArgs& a) {
  a.check("is_available", 0, 0);
  return Obj::from_bool(cuda_usable());
}
Obj f_cuda_device_count(Interp&, const CallArgs& a) {
  a.check("device_count", 0, 0);
  return Obj::from_int(cuda_usable() ? cuda_backend().device_count() : 0);
}
// Waits for every queued kernel, as in PyTorch: what a captured region has
// pending runs first (a graph break), so timing around it is honest.
Obj f_cuda_synchronize(Interp&, const CallArgs& a) {
  a.check("synchronize", 0, 1, "device");
  if (!cuda_usable()) return Obj();
  lazy::sync(lazy::SyncReason::DeviceSync);
  cuda_backend().synchronize();
  return Obj();
}
Obj f_cuda_empty_cache(Interp&, const CallArgs& a) {
  a.check("empty_cache", 0, 0);
  if (cuda_usable()) cuda_backend().empty_cache();
  return Obj();
}
Obj f_cuda_current_device(Interp&, const CallArgs& a) {
  a.check("current_device", 0, 0);
  (void)cuda_backend();  // PyTorch raises without a device
  return Obj::from_int(0);
}
int cuda_index_arg(const CallArgs& a) {
  std::optional<Device> d = device_arg(a.arg(0, "device"));
  return d ? d->index : 0;
}
Obj f_cuda_get_device_name(Interp&, const CallArgs& a) {
  a.check("get_device_name", 0, 1, "device");
  return make<StrObj>(cuda_backend().device_name(cuda_index_arg(a)));
}
// memory_stats() as a dict; memory_allocated() and friends read one key of it.
double cuda_stat(const CallArgs& a, const std::string& key) {
  for (const auto& [name, value] : cuda_backend().memory_stats(cuda_index_arg(a)))
    if (name == key) return value;
  return 0;
}
template <const char* Key>
Obj f_cuda_stat(Interp&, const CallArgs& a) {
  a.check(Key, 0, 1, "device");
  return Obj::from_int(int64_t(cuda_stat(a, Key)));
}
constexpr char kAllocated[] = "allocated_bytes.all.current", kMaxAllocated[] = "allocated_bytes.all.peak",
               kReserved[] = "reserved_bytes.all.current", kMaxReserved[] = "reserved_bytes.all.peak";
Obj f_cuda_memory_stats(Interp&, const CallArgs& a) {
  a.check("memory_stats", 0, 1, "device");
  Obj d = make<DictObj>();
  for (const auto& [name, value] : cuda_backend().memory_stats(cuda_index_arg(a)))
    d.as<DictObj>()->map.set(std::string_view(name), Obj::from_int(int64_t(value)));
  return d;
}

Obj make_cuda_module() {
  Obj m = make<ModuleObj>("torch.cuda");
  ModuleObj& cuda = *m.as<ModuleObj>();
  def(cuda, "is_available", f_cuda_is_available);
  def(cuda, "device_count", f_cuda_device_count);
  def(cuda, "is_bf16_supported", f_false);
  def(cuda, "manual_seed", f_none);
  def(cuda, "manual_seed_all", f_none);
  def(cuda, "synchronize", f_cuda_synchronize);
  def(cuda, "empty_cache", f_cuda_empty_cache);
  def(cuda, "current_device", f_cuda_current_device);
  def(cuda, "get_device_name", f_cuda_get_device_name);
  def(cuda, "memory_allocated", f_cuda_stat<kAllocated>);
  def(cuda, "max_memory_allocated", f_cuda_stat<kMaxAllocated>);
  def(cuda, "memory_reserved", f_cuda_stat<kReserved>);
  def(cuda, "max_memory_reserved", f_cuda_stat<kMaxReserved>);
  def(cuda, "memory_stats", f_cuda_memory_stats);
  return m;
}

Obj make_c_module() {
  Obj m = make<ModuleObj>("torch._C");
  ModuleObj& c = *m.as<ModuleObj>();
  def(c, "_is_parameter", f_is_parameter);
  def(c, "_set_grad_fn_name", f_set_grad_fn_name);
  def(c, "_complex_repr", f_complex_repr);
  add_jit_natives(c);
  add_profiler_natives(c);
  add_autograd_natives(c);
  add_serialize_natives(c);
  return m;
}

Obj no_dtype_instances(Interp&, const CallArgs&) {
  throw Error("cannot create 'torch.dtype' instances", ErrorKind::Type);
}

Obj native_class(const char* name, Kind kind, NativeFn construct) {
  Obj cls = make<ClassObj>(name);
  cls.as<ClassObj>()->native_kind = kind;
  cls.as<ClassObj>()->construct = construct;
  return cls;
}

// torch.Tensor, nn.Parameter, torch.dtype and torch.device as classes, so
// type(), isinstance() and construction work.
void add_classes(ModuleObj& torch, ModuleObj& c) {
  torch.attrs.set("dtype", native_class("dtype", Kind::DType, no_dtype_instances));
  torch.attrs.set("device", native_class("device", Kind::Device, f_device));
  Obj tensor_cls = native_class("Tensor", Kind::Tensor, construct_tensor);
  Obj param_cls = native_class("Parameter", Kind::Tensor, construct_parameter);
  param_cls.as<ClassObj>()->set_base(tensor_cls);
  param_cls.as<ClassObj>()->attrs.set("__module__", make_str("torch.nn.parameter"));
  torch.attrs.set("Tensor", tensor_cls);
  c.attrs.set("Parameter", param_cls);
  // torch.FloatTensor, torch.LongTensor, ...: constructors of CPU tensors of one
  // dtype (their `dtype`), and isinstance tests for them.
  const std::pair<DType, NativeFn> legacy[] = {
      {DType::Float32, construct_legacy_tensor<DType::Float32>}, {DType::Float64, construct_legacy_tensor<DType::Float64>},
      {DType::Float16, construct_legacy_tensor<DType::Float16>}, {DType::BFloat16, construct_legacy_tensor<DType::BFloat16>},
      {DType::UInt8, construct_legacy_tensor<DType::UInt8>},     {DType::Int8, construct_legacy_tensor<DType::Int8>},
      {DType::Int16, construct_legacy_tensor<DType::Int16>},     {DType::Int32, construct_legacy_tensor<DType::Int32>},
      {DType::Int64, construct_legacy_tensor<DType::Int64>},     {DType::Bool, construct_legacy_tensor<DType::Bool>}};
  for (const auto& [d, fn] : legacy) {
    std::string name = std::string(dtype_legacy_name(d)) + "Tensor";
    Obj cls = native_class(name.c_str(), Kind::Tensor, fn);
    cls.as<ClassObj>()->attrs.set("__module__", make_str("torch"));
    cls.as<ClassObj>()->attrs.set("dtype", Obj::from_dtype(d));
    cls.as<ClassObj>()->attrs.set("is_cuda", Obj::from_bool(false));
    torch.attrs.set(name, cls);
  }
}

void add_ops(ModuleObj& torch) {
  for (const OpDef* d : op_table().all()) {
    std::string base = d->schema.name.substr(0, d->schema.name.find('.'));
    if (internal_op(base) || torch.attrs.find(base)) continue;
    def(torch, base, op_function, make_str(base));
  }
}

void add_dtypes(ModuleObj& torch) {
  const std::pair<const char*, DType> names[] = {
      {"float32", DType::Float32}, {"float", DType::Float32},   {"float64", DType::Float64},
      {"double", DType::Float64},  {"float16", DType::Float16}, {"half", DType::Float16},
      {"bfloat16", DType::BFloat16}, {"int32", DType::Int32},   {"int", DType::Int32},
      {"int64", DType::Int64},     {"long", DType::Int64},      {"bool", DType::Bool},
      {"int16", DType::Int16},     {"short", DType::Int16},     {"int8", DType::Int8},
      {"uint8", DType::UInt8}};
  for (const auto& [name, d] : names) torch.attrs.set(name, Obj::from_dtype(d));
  torch.attrs.set("pi", Obj::from_float(M_PI));
  torch.attrs.set("e", Obj::from_float(M_E));
  torch.attrs.set("inf", Obj::from_float(std::numeric_limits<double>::infinity()));
  torch.attrs.set("nan", Obj::from_float(std::numeric_limits<double>::quiet_NaN()));
  // The PyTorch release whose API Kiln follows (scripts print or compare it).
  torch.attrs.set("__version__", make_str("2.5.0+kiln"));
}

void add_functions(ModuleObj& t) {
  const std::pair<const char*, NativeFn> fns[] = {
      {"tensor", f_tensor}, {"as_tensor", f_as_tensor}, {"Size", f_size},
      {"is_tensor", f_is_tensor}, {"is_floating_point", f_is_floating_point}, {"numel", f_numel},
      {"get_default_dtype", f_get_default_dtype}, {"set_default_dtype", f_set_default_dtype},
      {"finfo", f_finfo}, {"result_type", f_result_type}, {"promote_types", f_promote_types}, {"can_cast", f_can_cast}, {"iinfo", f_iinfo}, {"manual_seed", f_manual_seed}, {"seed", f_seed},
      {"initial_seed", f_initial_seed}, {"get_num_threads", f_get_num_threads},
      {"set_num_threads", f_set_num_threads}, {"no_grad", f_grad_ctx<false>}, {"enable_grad", f_grad_ctx<true>},
      {"inference_mode", f_inference_mode}, {"set_grad_enabled", f_set_grad_enabled},
      {"is_grad_enabled", f_is_grad_enabled}, {"is_inference_mode_enabled", f_is_inference_mode_enabled},
      {"set_printoptions", f_set_printoptions}, {"einsum", f_einsum}, {"unique", torch_unique},
      {"unique_consecutive", torch_unique_consecutive}, {"histogram", torch_histogram},
      {"broadcast_shapes", f_broadcast_shapes}, {"tensordot", f_tensordot},
      {"chain_matmul", f_chain_matmul}};
  for (const auto& [name, fn] : fns) def(t, name, fn);
}

}  // namespace

Obj make_torch_module(Interp& in) {
  Obj torch = make<ModuleObj>("torch");
  ModuleObj& t = *torch.as<ModuleObj>();
  Obj c = make_c_module(), cuda = make_cuda_module(), linalg = make_linalg_module(), special = make_special_module();
  in.register_module("torch._C", c);  // first: grad-mode classes are cached there
  add_classes(t, *c.as<ModuleObj>());
  add_functions(t);
  add_dtypes(t);
  add_ops(t);
  add_random_functions(t, *c.as<ModuleObj>());
  t.attrs.set("cuda", cuda);
  t.attrs.set("linalg", linalg);
  t.attrs.set("special", special);
  t.attrs.set("_C", c);
  in.register_module("torch", torch);
  in.register_module("torch.cuda", cuda);
  in.register_module("torch.linalg", linalg);
  in.register_module("torch.special", special);
  Obj functional = make_functional_module(in);
  in.register_module("torch.nn.functional", functional);
  // The same functions under both names, as in PyTorch.
  ModuleObj& f = *functional.as<ModuleObj>();
  for (const char* name : {"cosine_similarity", "pairwise_distance"}) t.attrs.set(name, *f.attrs.find(name));
  f.attrs.set("pdist", *t.attrs.find("pdist"));
  add_autocast_natives(t);
  wrap_autocast_functional(f);
  return torch;
}

}  // namespace kiln::lang
