// VM values <-> op Values, op calls, and tensor operators, indexing, iteration
// and printing. Methods and properties of tensors are in tensor_methods.cpp.
#include "core/lazy.h"
#include "core/lang/torch_bridge.h"

#include <unordered_set>

#include "core/device.h"
#include "core/dispatch.h"
#include "core/format.h"
#include "core/float_to_int.h"
#include "core/lang/builtins.h"
#include "core/lang/interp.h"
#include "core/lang/objops.h"
#include "core/lang/torch_random.h"
#include "core/ops.h"

namespace kiln::lang {
namespace {

// A 1-element integer tensor used where Python wants an int (PyTorch's __index__).
bool int_tensor_scalar(const Obj& o, int64_t* out) {
  TensorObj* t = o.as<TensorObj>();
  if (!t || t->tensor.numel() != 1 || !is_integral(t->tensor.dtype(), false)) return false;
  lazy::ReasonScope why(lazy::SyncReason::Item);
  *out = t->tensor.item_int();
  return true;
}

// The dtype a Python builtin type stands for where PyTorch accepts it (dtype=float).
bool python_type_dtype(const Obj& o, DType* out) {
  ClassObj* c = o.as<ClassObj>();
  if (!c) return false;
  switch (c->native_kind) {
    case Kind::Float: *out = DType::Float64; return true;
    case Kind::Int: *out = DType::Int64; return true;
    case Kind::Bool: *out = DType::Bool; return true;
    default: return false;
  }
}

Value sequence_value(const std::vector<Obj>& items) {
  bool all_tensors = !items.empty();
  for (const Obj& o : items) all_tensors = all_tensors && o.kind() == Kind::Tensor;
  if (all_tensors) {
    std::vector<Tensor> ts;
    ts.reserve(items.size());
    for (const Obj& o : items) ts.push_back(o.as<TensorObj>()->tensor);
    return Value(std::move(ts));
  }
  Shape ints;
  for (const Obj& o : items) {
    int64_t v = 0;
    if (o.is_intlike()) v = o.as_int();
    else if (!int_tensor_scalar(o, &v))
      throw Error("expected a sequence of ints or of Tensors, but found an element of type " + type_name(o),
                  ErrorKind::Type);
    ints.push_back(v);
  }
  return Value(std::move(ints));
}

const char* binop_op_name(BinOpKind op) {
  switch (op) {
    case BinOpKind::Add: return "add";
    case BinOpKind::Sub: return "sub";
    case BinOpKind::Mult: return "mul";
    case BinOpKind::Div: return "div";
    case BinOpKind::FloorDiv: return "floor_divide";
    case BinOpKind::Mod: return "remainder";
    case BinOpKind::Pow: return "pow";
    case BinOpKind::MatMult: return "matmul";
    case BinOpKind::BitAnd: return "bitwise_and";
    case BinOpKind::BitOr: return "bitwise_or";
    case BinOpKind::BitXor: return "bitwise_xor";
    case BinOpKind::LShift: return "bitwise_left_shift";
    case BinOpKind::RShift: return "bitwise_right_shift";
    default: return nullptr;
  }
}

bool is_operand(const Obj& o) { return o.kind() == Kind::Tensor || o.is_number(); }

Value operand(const Obj& o) {
  if (TensorObj* t = o.as<TensorObj>()) return Value(t->tensor);
  if (o.is_bool()) return Value(o.as_bool());
  if (o.is_int()) return Value(o.as_int());
  return Value(o.as_float());
}

Tensor operand_tensor(const Obj& o) {
  if (TensorObj* t = o.as<TensorObj>()) return t->tensor;
  if (o.is_bool()) return scalar_tensor(double(o.as_bool()), DType::Bool, true);
  if (o.is_int()) {
    Tensor t = scalar_tensor(0, DType::Int64, true);
    *t.data<int64_t>() = o.as_int();
    return t;
  }
  return scalar_tensor(o.as_float(), DType::Float64, true);
}

Tensor binary_tensor(BinOpKind op, const Obj& a, const Obj& b) {
  const char* name = binop_op_name(op);
  if (!name)
    throw Error(std::string("kiln does not support the operator ") + binop_symbol(op) + " on tensors",
                ErrorKind::NotImplemented);
  // A number on the left is the right operand's reflected method in PyTorch:
  // `2 - x` is rsub(x, 2), `2 / x` is x.reciprocal() * 2 (and rounds as that).
  if (a.is_number() && b.kind() == Kind::Tensor) {
    if (op == BinOpKind::Sub) {
      Value args[2] = {operand(b), operand(a)};
      return call_op("rsub", args)[0];
    }
    if (op == BinOpKind::Div) {
      Value recip[1] = {operand(b)};
      Value args[2] = {Value(call_op("reciprocal", recip)[0]), operand(a)};
      return call_op("mul", args)[0];
    }
  }
  Value args[2] = {operand(a), operand(b)};
  return call_op(name, args)[0];
}

[[noreturn]] void unsupported_operands(BinOpKind op, const Obj& a, const Obj& b, bool inplace) {
  throw Error(std::string("unsupported operand type(s) for ") + binop_symbol(op) + (inplace ? "=" : "") + ": '" +
                  type_name(a) + "' and '" + type_name(b) + "'",
              ErrorKind::Type);
}

Obj inplace_binary(BinOpKind op, const Obj& a, const Obj& b) {
  // @= rebinds like PyTorch's __imatmul__ fallback: a new tensor.
  if (op == BinOpKind::MatMult) return make_tensor(binary_tensor(op, a, b));
  Tensor self = a.as<TensorObj>()->tensor;
  // The op's in-place form where the table has one (add_, bitwise_and_, ...).
  const char* name = binop_op_name(op);
  if (name && !op_table().overloads(std::string(name) + "_").empty()) {
    Value args[2] = {Value(self), operand(b)};
    call_op(std::string(name) + "_", args);
    return a;
  }
  // No in-place kernel: compute, then write back under PyTorch's casting rule.
  Tensor r = binary_tensor(op, a, b);
  KILN_CHECK(can_cast(r.dtype(), self.dtype()), Runtime, "result type ", dtype_legacy_name(r.dtype()),
             " can't be cast to the desired output type ", dtype_legacy_name(self.dtype()));
  copy_(self, r);
  return a;
}

CmpOpKind mirror(CmpOpKind op) {
  switch (op) {
    case CmpOpKind::Lt: return CmpOpKind::Gt;
    case CmpOpKind::Gt: return CmpOpKind::Lt;
    case CmpOpKind::LtE: return CmpOpKind::GtE;
    case CmpOpKind::GtE: return CmpOpKind::LtE;
    default: return op;
  }
}

const char* cmp_op_name(CmpOpKind op) {
  switch (op) {
    case CmpOpKind::Eq: return "eq";
    case CmpOpKind::NotEq: return "ne";
    case CmpOpKind::Lt: return "lt";
    case CmpOpKind::LtE: return "le";
    case CmpOpKind::Gt: return "gt";
    case CmpOpKind::GtE: return "ge";
    default: return nullptr;
  }
}

// ---- indexing ------------------------------------------------------------------------------

std::optional<int64_t> slice_part(const Obj& o) {
  if (o.is_none()) return std::nullopt;
  if (o.is_intlike()) return o.as_int();
  int64_t v = 0;
  if (int_tensor_scalar(o, &v)) return v;
  throw Error("slice indices must be integers or None or have an __index__ method", ErrorKind::Type);
}

// A sequence index is a bool or uint8 mask, else int64 whatever its items
// (PyTorch's indexing_tensor_from_data): x[[]] and x[[0.0, 1.0]] index rows.
Tensor sequence_index(const Obj& k) {
  Tensor t = tensor_from_data(k, std::nullopt);
  if (t.dtype() == DType::Bool || t.dtype() == DType::UInt8 || t.dtype() == DType::Int64) return t;
  return to_dtype(t, DType::Int64);
}

// NumPy's heuristic, which PyTorch keeps: a short list holding a tensor,
// sequence, slice, None or Ellipsis is a tuple of indices (x[[0, slice(1)]]),
// any other list one sequence index.
bool list_as_tuple(Interp& in, const ListObj& l) {
  if (l.items.size() >= 32) return false;
  for (const Obj& o : l.items) {
    switch (o.kind()) {
      case Kind::Tensor: case Kind::List: case Kind::Tuple: case Kind::Range: case Kind::Slice:
      case Kind::None: case Kind::Str: case Kind::Bytes:
        return true;
      default:
        if (o.is(ellipsis(in))) return true;
    }
  }
  return false;
}

TensorIndex index_entry(Interp& in, const Obj& k) {
  switch (k.kind()) {
    case Kind::Int: return TensorIndex::integer(k.as_int());
    case Kind::Bool: {
      TensorIndex i{TensorIndex::Tensor_, 0, {}, {}, 1, scalar_tensor(double(k.as_bool()), DType::Bool, false)};
      return i;
    }
    case Kind::None: return TensorIndex::none();
    case Kind::Slice: {
      SliceObj* s = k.as<SliceObj>();
      std::optional<int64_t> step = slice_part(s->step);
      KILN_CHECK(!step || *step > 0, Value, "step must be greater than zero");
      return TensorIndex::slice(slice_part(s->start), slice_part(s->stop), step.value_or(1));
    }
    case Kind::Tensor: return {TensorIndex::Tensor_, 0, {}, {}, 1, k.as<TensorObj>()->tensor};
    case Kind::List:
    case Kind::Tuple:  // a tuple inside the subscript tuple is a sequence index, as in PyTorch
    case Kind::Range:  // y_hat[range(n), y]: any int sequence indexes like its list
      return {TensorIndex::Tensor_, 0, {}, {}, 1, sequence_index(k)};
    default:
      if (k.is(ellipsis(in))) return TensorIndex::ellipsis();
      throw Error("only integers, slices (`:`), ellipsis (`...`), None and long or byte Variables are valid "
                  "indices (got " + type_name(k) + ")",
                  ErrorKind::Index);
  }
}

std::vector<TensorIndex> to_indices(Interp& in, const Obj& key) {
  std::vector<TensorIndex> out;
  const std::vector<Obj>* items = nullptr;
  if (TupleObj* t = key.as<TupleObj>()) items = &t->items;
  if (ListObj* l = key.as<ListObj>(); l && list_as_tuple(in, *l)) items = &l->items;
  if (items) {
    out.reserve(items->size());
    for (const Obj& k : *items) out.push_back(index_entry(in, k));
  } else {
    out.push_back(index_entry(in, key));
  }
  return out;
}

// ---- torch.tensor data ---------------------------------------------------------------------

struct Scalar {
  double f = 0;
  int64_t i = 0;
  bool is_float = false;
};

struct Gathered {
  Shape shape;
  std::vector<Scalar> values;
  std::optional<DType> dtype;  // inferred
};

const std::vector<Obj>* seq_items(const Obj& o) {
  if (ListObj* l = o.as<ListObj>()) return &l->items;
  if (TupleObj* t = o.as<TupleObj>()) return &t->items;
  return nullptr;
}

// PyTorch's limit (MAX_DIMS in tensor_new.cpp); it also stops a list that contains itself.
constexpr size_t kMaxDataDims = 1000;

void infer_shape(const Obj& o, Shape& shape) {
  for (const Obj* cur = &o;;) {
    const std::vector<Obj>* items = seq_items(*cur);
    if (!items) return;
    KILN_CHECK(shape.size() < kMaxDataDims, Value, "too many dimensions '", type_name(*cur), "'");
    shape.push_back(int64_t(items->size()));
    if (items->empty()) return;
    cur = &(*items)[0];
  }
}

void note_dtype(Gathered& g, DType d) { g.dtype = g.dtype ? promote_types(*g.dtype, d) : d; }

void gather_scalar(const Obj& o, size_t depth, Gathered& g) {
  Scalar s;
  if (o.is_bool()) {
    s.i = o.as_int();
    note_dtype(g, DType::Bool);
  } else if (o.is_int()) {
    s.i = o.as_int();
    note_dtype(g, DType::Int64);
  } else if (o.is_float()) {
    s.f = o.as_float();
    s.is_float = true;
    note_dtype(g, kDefaultFloat);
  } else if (TensorObj* t = o.as<TensorObj>()) {
    KILN_CHECK(t->tensor.numel() == 1, Value, "only one element tensors can be converted to Python scalars");
    s.is_float = t->tensor.is_floating_point();
    if (s.is_float) s.f = t->tensor.item_double();
    else s.i = t->tensor.item_int();
    note_dtype(g, t->tensor.dtype());
  } else if (o.kind() == Kind::Str) {
    // PyTorch measures the shape through the first elements, where a str is one more (unsupported) dimension.
    KILN_CHECK(depth == 0 || !g.values.empty(), Value, "too many dimensions 'str'");
    throw Error("new(): invalid data type 'str'", ErrorKind::Type);
  } else {
    throw Error("Could not infer dtype of " + type_name(o), ErrorKind::Runtime);
  }
  g.values.push_back(s);
}

void gather(const Obj& o, size_t depth, Gathered& g) {
  const std::vector<Obj>* items = seq_items(o);
  if (depth == g.shape.size()) {
    KILN_CHECK(!items, Value, "expected sequence of length 0 at dim ", depth, " (got ", items ? items->size() : 0,
               ")");
    gather_scalar(o, depth, g);
    return;
  }
  int64_t want = g.shape[depth];
  KILN_CHECK(items && int64_t(items->size()) == want, Value, "expected sequence of length ", want, " at dim ",
             depth, " (got ", items ? int64_t(items->size()) : int64_t(0), ")");
  for (const Obj& x : *items) gather(x, depth + 1, g);
}

Tensor fill_tensor(const Gathered& g, DType dtype) {
  if (is_integral(dtype, false))  // torch.tensor([300], dtype=torch.uint8) is an error, not 44
    for (const Scalar& s : g.values)
      check_scalar_fits(s.is_float ? Value(s.f) : Value(s.i), dtype, dtype_name(dtype));
  Tensor t = empty_tensor(g.shape, dtype);
  visit_dtype(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* p = t.data<T>();
    for (size_t k = 0; k < g.values.size(); ++k) {
      const Scalar& s = g.values[k];
      if constexpr (std::is_same_v<T, bool>) p[k] = s.is_float ? s.f != 0 : s.i != 0;
      else if constexpr (std::is_integral_v<T>) p[k] = s.is_float ? float_to_int<T>(s.f) : T(s.i);
      else p[k] = T(compute_t<T>(s.is_float ? s.f : double(s.i)));
    }
  });
  return t;
}

// Rows of a tensor along dim 0 (PyTorch iterates over unbind(0)).
struct TensorRowIter : IteratorObj {
  explicit TensorRowIter(std::vector<Tensor> r) : rows(std::move(r)) {}
  bool next(Interp&, Obj& out) override {
    if (pos >= rows.size()) return false;
    out = make_tensor(rows[pos++]);
    return true;
  }
  const char* type_name() const override { return "iterator"; }
  std::vector<Tensor> rows;
  size_t pos = 0;
};

}  // namespace

// ---- values ----------------------------------------------------------------------------------

Value to_value(const Obj& o) {
  switch (o.kind()) {
    case Kind::None: return Value();
    case Kind::Bool: return Value(o.as_bool());
    case Kind::Int: return Value(o.as_int());
    case Kind::Float: return Value(o.as_float());
    case Kind::DType: return Value(o.as_dtype());
    case Kind::Str: return Value(o.as<StrObj>()->value);
    case Kind::Tensor: return Value(o.as<TensorObj>()->tensor);
    case Kind::List: return sequence_value(o.as<ListObj>()->items);
    case Kind::Tuple: return sequence_value(o.as<TupleObj>()->items);
    default: {
      DType d;
      if (python_type_dtype(o, &d)) return Value(d);
      throw Error("unsupported argument type '" + type_name(o) + "'", ErrorKind::Type);
    }
  }
}

Obj from_value(const Value& v) {
  return std::visit(
      [](const auto& x) -> Obj {
        using T = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<T, std::monostate>) return Obj();
        else if constexpr (std::is_same_v<T, Tensor>) return make_tensor(x);
        else if constexpr (std::is_same_v<T, int64_t>) return Obj::from_int(x);
        else if constexpr (std::is_same_v<T, double>) return Obj::from_float(x);
        else if constexpr (std::is_same_v<T, bool>) return Obj::from_bool(x);
        else if constexpr (std::is_same_v<T, Shape>) {
          std::vector<Obj> items;
          for (int64_t i : x) items.push_back(Obj::from_int(i));
          return make_tuple(std::move(items));
        } else if constexpr (std::is_same_v<T, std::vector<Tensor>>) {
          std::vector<Obj> items;
          for (const Tensor& t : x) items.push_back(make_tensor(t));
          return make_tuple(std::move(items));
        } else if constexpr (std::is_same_v<T, DType>) return Obj::from_dtype(x);
        else return make_str(x);
      },
      v.var());
}

const Tensor& tensor_of(const Obj& o, const char* what) {
  if (TensorObj* t = o.as<TensorObj>()) return t->tensor;
  throw Error(std::string(what) + " must be Tensor, not " + type_name(o), ErrorKind::Type);
}

std::optional<DType> dtype_of_obj(const Obj& o, const char* what) {
  if (o.is_none()) return std::nullopt;
  if (o.kind() == Kind::DType) return o.as_dtype();
  DType d;
  if (python_type_dtype(o, &d)) return d;
  throw Error(std::string(what) + " must be torch.dtype, not " + type_name(o), ErrorKind::Type);
}

Device device_of_obj(const DeviceObj& d) {
  return d.type == "cpu" ? Device{} : Device{DeviceType::CUDA, d.index < 0 ? 0 : d.index};
}

std::optional<Device> device_arg(const Obj& o) {
  if (o.is_none()) return std::nullopt;
  if (DeviceObj* d = o.as<DeviceObj>()) return device_of_obj(*d);
  if (StrObj* s = o.as<StrObj>()) return parse_device(s->value);
  if (o.is_int()) return Device{DeviceType::CUDA, int(o.as_int())};  // device=0 is cuda:0, as in PyTorch
  throw Error("device must be torch.device or str, not " + type_name(o), ErrorKind::Type);
}

Obj place_on(Obj result, std::optional<Device> device) {
  TensorObj* t = result.as<TensorObj>();
  if (!device || !t || t->tensor.device() == *device) return result;
  const Tensor& src = t->tensor;
  if (!src.is_leaf()) return make_tensor(invoke("_to_device", {src, device_code(*device), device_code(src.device())}));
  Tensor moved = copy_to_device(src, *device);
  if (src.requires_grad()) moved.requires_grad_(true);
  return make_tensor(moved);
}

const BuiltinObj& callee_of(const CallArgs& a) {
  KILN_CHECK(a.callee, Runtime, "internal error: builtin called without CallArgs::callee");
  return *a.callee;
}

std::optional<int> memory_format_rank(const Obj& o) {
  const InstanceObj* inst = o.as<InstanceObj>();
  if (!inst || inst->get_class().name != "memory_format") return std::nullopt;
  const Obj* name = inst->attrs.find(std::string_view("_name"));
  if (!name || name->kind() != Kind::Str) return std::nullopt;
  const std::string& n = name->as<StrObj>()->value;
  return n == "channels_last" ? 4 : n == "channels_last_3d" ? 5 : 0;
}

namespace {
// Channels-last dims from the innermost out: C, then the spatial dims from the last, then N.
Shape channels_last_order(int rank) { return rank == 4 ? Shape{1, 3, 2, 0} : Shape{1, 4, 3, 2, 0}; }
}  // namespace

bool is_contiguous_as(const Tensor& t, int rank) {
  if (rank == 0 || t.dim() != rank) return rank == 0 && t.is_contiguous();
  int64_t expected = 1;
  for (int64_t d : channels_last_order(rank)) {
    if (t.size(d) == 1) continue;  // a size-1 dim's stride never matters
    if (t.stride(d) != expected) return false;
    expected *= t.size(d);
  }
  return true;
}

namespace {
Tensor with_memory_format(const Tensor& t, int rank) {
  if (rank == 0) return t;
  KILN_CHECK(t.dim() == rank, Runtime, "required rank ", rank, " tensor to use ",
             rank == 4 ? "channels_last" : "channels_last_3d", " format");
  if (is_contiguous_as(t, rank)) return t;
  const Shape to_last = rank == 4 ? Shape{0, 2, 3, 1} : Shape{0, 2, 3, 4, 1};
  const Shape back = rank == 4 ? Shape{0, 3, 1, 2} : Shape{0, 4, 1, 2, 3};
  return permute(contiguous(permute(t, to_last)), back);
}
}  // namespace

Obj apply_memory_format(Obj result, const CallArgs& a) {
  const Obj* format = a.find_kw("memory_format");
  std::optional<int> rank = format ? memory_format_rank(*format) : std::nullopt;
  if (!rank || *rank == 0 || result.kind() != Kind::Tensor) return result;
  Tensor laid = with_memory_format(result.as<TensorObj>()->tensor, *rank);
  return laid.impl() == result.as<TensorObj>()->tensor.impl() ? result : make_tensor(std::move(laid));
}

namespace {
// layout=torch.strided (core/lang/prelude/_layout.py): what every Kiln tensor is.
bool is_strided_layout(const Obj& o) {
  const InstanceObj* inst = o.as<InstanceObj>();
  if (!inst || inst->get_class().name != "layout") return false;
  const Obj* name = inst->attrs.find(std::string_view("_name"));
  return name && name->kind() == Kind::Str && name->as<StrObj>()->value == "strided";
}
}  // namespace

Kwargs to_kwargs(const CallArgs& a) {
  Kwargs kw;
  kw.reserve(a.kw.size());
  for (const Kwarg& k : a.kw) {
    if (*k.name == "layout" && is_strided_layout(k.value)) continue;
    if (*k.name == "memory_format" && memory_format_rank(k.value)) continue;  // call_torch_op applies it
    if (*k.name == "device") continue;     // the caller places the result (place_on)
    if (*k.name == "generator") continue;  // call_torch_op binds it for the call (GeneratorArg)
    // PyTorch's binding of nonzero takes nonzero.as_tuple only for as_tuple=True;
    // as_tuple=False is the plain overload's single tensor.
    if (*k.name == "as_tuple" && k.value.is_bool() && !k.value.as_bool()) continue;
    kw.emplace_back(*k.name, to_value(k.value));
  }
  return kw;
}

namespace {
// Ops whose schema names their returns ("-> (Tensor values, Tensor indices)")
// give PyTorch's named tuple torch.return_types.<op>, with .values/.indices.
void name_return_fields(TupleObj& t, const OpDef& op) {
  std::string_view text = op.schema_text;
  size_t arrow = text.find("-> (");
  if (arrow == std::string_view::npos) return;
  std::string_view rets = text.substr(arrow + 4);
  rets = rets.substr(0, rets.find(')'));
  std::vector<std::string> fields;
  while (!rets.empty()) {
    std::string_view one = rets.substr(0, rets.find(','));
    rets = one.size() < rets.size() ? rets.substr(one.size() + 1) : std::string_view();
    size_t sp = one.find_last_of(' ');
    if (sp == std::string_view::npos || sp + 1 == one.size()) return;  // unnamed returns
    fields.emplace_back(one.substr(sp + 1));
  }
  std::string base = op.name().substr(0, op.name().find('.'));
  t.struct_name = "torch.return_types." + base;
  t.fields = std::move(fields);
}
}  // namespace

Obj call_op_obj(std::string_view name, std::span<const Value> pos, const Kwargs& kw) {
  auto [chosen, bound] = bind_op(name, pos, kw);
  std::vector<Tensor> outs = dispatch(*chosen, std::move(bound));
  const std::vector<ArgType>& rets = chosen->schema.returns;
  if (rets.size() == 1 && rets[0] == ArgType::Bool) return Obj::from_bool(outs.at(0).item_bool());
  if (rets.size() == 1 && rets[0] == ArgType::Tensor) return make_tensor(std::move(outs.at(0)));
  std::vector<Obj> items;
  items.reserve(outs.size());
  for (Tensor& t : outs) items.push_back(make_tensor(std::move(t)));
  Obj result = make_tuple(std::move(items));
  name_return_fields(*result.as<TupleObj>(), *chosen);
  return result;
}

namespace {
// PyTorch accepts view(2, 3) for view((2, 3)) when the only positional
// parameter (after self for methods) is an int[]; true if some overload of
// `name` has that shape.
bool accepts_int_varargs(std::string_view name, bool method) {
  for (const OpDef* d : op_table().overloads(name)) {
    size_t first = method ? 1 : 0, positional = 0;
    for (size_t i = first; i < d->schema.args.size() && !d->schema.args[i].kwarg_only; ++i) ++positional;
    if (positional == 1 && d->schema.args.size() > first && d->schema.args[first].type == ArgType::IntList)
      return true;
  }
  return false;
}

// PyTorch's Python wrappers of these take the tensors as *tensors:
// broadcast_tensors(a, b) is broadcast_tensors([a, b]); atleast_1d(x) alone
// stays the one-tensor overload.
bool packs_tensor_varargs(std::string_view name, std::span<const Obj> pos) {
  static const std::unordered_set<std::string_view> kNames = {
      "broadcast_tensors", "meshgrid", "block_diag", "cartesian_prod", "atleast_1d", "atleast_2d", "atleast_3d"};
  if (!kNames.count(name)) return false;
  for (const Obj& o : pos)
    if (o.kind() != Kind::Tensor) return false;
  return pos.size() != 1 || !name.starts_with("atleast");
}
}  // namespace

namespace {
// The first argument (a tensor list's items included) whose class defines
// __torch_function__, else Null.
Obj torch_function_owner(Interp& in, const CallArgs& args) {
  auto has = [&](const Obj& o) {
    return o.kind() == Kind::Instance && !special_method(in, o, "__torch_function__").is_null();
  };
  for (const Obj& o : args.pos) {
    if (has(o)) return o;
    const std::vector<Obj>* items = seq_items(o);
    if (items)
      for (const Obj& x : *items)
        if (has(x)) return x;
  }
  for (const Kwarg& k : args.kw)
    if (has(k.value)) return k.value;
  return Obj::null();
}

}  // namespace

// PyTorch's __torch_function__ protocol, reached only when an argument is no
// tensor, number or list of them (so ordinary calls never pay for it):
// type(owner).__torch_function__(func, types, args, kwargs). Kiln's complex
// tensors (prelude/_complex.py) take torch.cat, torch.zeros(dtype=torch.complex64), ... this way.
Obj torch_function_override(Interp& in, const CallArgs& args) {
  Obj owner = torch_function_owner(in, args);
  if (owner.is_null() || !args.callee) return Obj::null();
  Obj handler = getattr(in, type_of(in, owner), "__torch_function__");
  std::vector<Obj> pos;
  if (!args.self.is_null()) pos.push_back(args.self);
  pos.insert(pos.end(), args.pos.begin(), args.pos.end());
  Obj kwargs = make<DictObj>();
  for (const Kwarg& k : args.kw) kwargs.as<DictObj>()->map.set(*k.name, k.value);
  Obj call[4] = {Obj(const_cast<BuiltinObj*>(args.callee)), make_tuple({type_of(in, owner)}),
                 make_tuple(std::move(pos)), kwargs};
  return in.call(handler, call);
}

Obj call_torch_op(Interp& in, const std::string& name, const CallArgs& args) {
  bool method = !args.self.is_null();
  std::vector<Value> pos;
  pos.reserve(args.pos.size() + 1);
  if (method) pos.push_back(to_value(args.self));
  bool all_ints = args.pos.size() > 1;
  for (const Obj& o : args.pos) all_ints = all_ints && o.is_int();
  try {
    if (all_ints && accepts_int_varargs(name, method)) {
      Shape ints;
      for (const Obj& o : args.pos) ints.push_back(o.as_int());
      pos.emplace_back(std::move(ints));
    } else if (!method && packs_tensor_varargs(name, args.pos)) {
      std::vector<Tensor> ts;
      for (const Obj& o : args.pos) ts.push_back(o.as<TensorObj>()->tensor);
      pos.emplace_back(std::move(ts));
    } else {
      for (const Obj& o : args.pos) pos.push_back(to_value(o));
    }
    std::optional<Device> device;
    if (const Obj* d = args.find_kw("device")) device = device_arg(*d);
    GeneratorArg generator(args, name);
    const Obj* format = args.find_kw("memory_format");
    if (method && name == "contiguous" && format && memory_format_rank(*format).value_or(0) > 0)
      return apply_memory_format(args.self, args);  // x itself when it is laid out so already
    return apply_memory_format(place_on(call_op_obj(name, pos, to_kwargs(args)), device), args);
  } catch (const Error& e) {
    std::string msg = e.what();
    const bool odd_arg = msg.rfind("unsupported argument type", 0) == 0;
    if (odd_arg || msg.rfind("expected a sequence of ints or of Tensors", 0) == 0) {
      Obj r = torch_function_override(in, args);
      if (!r.is_null()) return r;
      if (odd_arg) throw Error(name + "(): " + msg, e.kind(), e.loc());
    }
    throw;
  }
}

// ---- operators -------------------------------------------------------------------------------

Obj tensor_binary(Interp&, BinOpKind op, const Obj& a, const Obj& b, bool inplace) {
  if (!is_operand(a) || !is_operand(b)) unsupported_operands(op, a, b, inplace);
  if (inplace && a.kind() == Kind::Tensor) return inplace_binary(op, a, b);
  return make_tensor(binary_tensor(op, a, b));
}

Obj tensor_unary(Interp& in, UnaryOpKind op, const Obj& a) {
  const Tensor& t = tensor_of(a, "operand");
  switch (op) {
    case UnaryOpKind::UAdd: return a;
    case UnaryOpKind::USub: return make_tensor(neg(t));
    case UnaryOpKind::Not: return Obj::from_bool(!tensor_truthy(a));
    case UnaryOpKind::Invert:
      KILN_CHECK(is_integral(t.dtype(), true), Type,
                 "~ (operator.invert) is only implemented on integer and Boolean-type tensors");
      return make_tensor(bitwise_not(t));
  }
  (void)in;
  throw Error("bad unary operator", ErrorKind::Runtime);
}

Obj tensor_compare(Interp&, CmpOpKind op, const Obj& a, const Obj& b) {
  const char* name = cmp_op_name(op);
  KILN_CHECK(name, Type, "kiln: tensor_compare got '", cmpop_symbol(op), "'");
  if (!is_operand(a) || !is_operand(b)) {
    if (op == CmpOpKind::Eq) return Obj::from_bool(false);
    if (op == CmpOpKind::NotEq) return Obj::from_bool(true);
    throw Error(std::string("'") + cmpop_symbol(op) + "' not supported between instances of '" + type_name(a) +
                    "' and '" + type_name(b) + "'",
                ErrorKind::Type);
  }
  bool swap = a.kind() != Kind::Tensor;
  Value args[2] = {operand(swap ? b : a), operand(swap ? a : b)};
  return make_tensor(call_op(cmp_op_name(swap ? mirror(op) : op), args)[0]);
}

bool tensor_truthy(const Obj& o) {
  const Tensor& t = tensor_of(o, "operand");
  KILN_CHECK(t.numel() != 0, Runtime, "Boolean value of Tensor with no values is ambiguous");
  KILN_CHECK(t.numel() == 1, Runtime, "Boolean value of Tensor with more than one value is ambiguous");
  lazy::ReasonScope why(lazy::SyncReason::DataDependentBranch);
  return t.item_double() != 0;
}

int64_t tensor_len(const Obj& o) {
  const Tensor& t = tensor_of(o, "len() argument");
  KILN_CHECK(t.dim() > 0, Type, "len() of a 0-d tensor");
  return t.size(0);
}

// ---- indexing and iteration -----------------------------------------------------------------

// Advanced indexing reads index tensors' values to validate and place them.
Obj tensor_getitem(Interp& in, const Obj& t, const Obj& key) {
  lazy::ReasonScope why(lazy::SyncReason::DataDependentCheck);
  return make_tensor(index(tensor_of(t, "self"), to_indices(in, key)));
}

void tensor_setitem(Interp& in, const Obj& t, const Obj& key, const Obj& value) {
  lazy::ReasonScope why(lazy::SyncReason::DataDependentCheck);
  Tensor self = tensor_of(t, "self");
  Tensor v;
  if (is_operand(value)) v = operand_tensor(value);
  else if (seq_items(value)) v = tensor_from_data(value, self.dtype());
  else
    throw Error("can't assign a " + type_name(value) + " to a " + std::string(dtype_legacy_name(self.dtype())) +
                    "Tensor",
                ErrorKind::Type);
  index_put(self, to_indices(in, key), v);
}

Obj tensor_iter(Interp& in, const Obj& t) {
  const Tensor& self = tensor_of(t, "self");
  KILN_CHECK(self.dim() > 0, Type, "iteration over a 0-d tensor");
  check_alloc(in, uint64_t(self.size(0)), sizeof(Tensor) + sizeof(TensorImpl));  // all rows are made up front
  return make<TensorRowIter>(unbind(self, 0));
}

Tensor tensor_from_data(const Obj& data, std::optional<DType> dtype) {
  if (TensorObj* t = data.as<TensorObj>()) {  // torch.tensor(t): a detached copy
    Tensor c = clone(t->tensor.detach());
    return dtype && *dtype != c.dtype() ? to_dtype(c, *dtype) : c;
  }
  if (const RangeObj* r = data.as<RangeObj>()) {  // a range is a sequence of ints too
    std::vector<Obj> items;
    for (int64_t i = 0, n = r->length(); i < n; ++i) items.push_back(Obj::from_int(r->start + i * r->step));
    return tensor_from_data(make_list(std::move(items)), dtype);
  }
  Gathered g;
  infer_shape(data, g.shape);
  gather(data, 0, g);
  return fill_tensor(g, dtype.value_or(g.dtype.value_or(kDefaultFloat)));
}

// ---- printing ---------------------------------------------------------------------------------

std::string tensor_repr(Interp&, const Obj& t) {
  TensorObj* o = t.as<TensorObj>();
  lazy::ReasonScope why(lazy::SyncReason::Print);
  std::string body = format_tensor(tensor_of(t, "self"));
  return o->is_parameter ? "Parameter containing:\n" + body : body;
}

std::string dtype_repr(DType d) { return "torch." + std::string(dtype_name(d)); }

std::string device_repr(const DeviceObj& d) {
  std::string s = "device(type='" + d.type + "'";
  if (d.index >= 0) s += ", index=" + std::to_string(d.index);
  return s + ")";
}

std::string device_str(const DeviceObj& d) {
  return d.index >= 0 ? d.type + ":" + std::to_string(d.index) : d.type;
}

}  // namespace kiln::lang
