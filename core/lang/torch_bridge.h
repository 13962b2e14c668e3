// Where the language meets the tensor core: converting VM values to op-table
// Values and back, calling ops, and the Tensor object's Python surface
// (methods, properties, operators, indexing, printing). The `torch` module
// itself is built from the op table in torch_module.cpp.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/lang/ast.h"
#include "core/lang/object.h"
#include "core/schema.h"
#include "core/value.h"

namespace kiln::lang {

class Interp;

// VM value -> op argument: numbers, bools, None, str, dtype, tensors, and
// lists/tuples of ints (int[]) or tensors (Tensor[]).
Value to_value(const Obj& o);
// Op result -> VM value (a Tensor becomes a TensorObj, ...).
Obj from_value(const Value& v);
// type(x).__torch_function__(func, types, args, kwargs) for the first argument x
// whose class defines it; Null when none does.
Obj torch_function_override(Interp& in, const CallArgs& args);
// torch.X(*args, **kw) for an op-table name (overloads resolved like PyTorch).
Obj call_torch_op(Interp& in, const std::string& name, const CallArgs& args);

// Tensor operators. `reflected`: the tensor is the right operand (2 - t).
Obj tensor_binary(Interp& in, BinOpKind op, const Obj& a, const Obj& b, bool inplace);
Obj tensor_unary(Interp& in, UnaryOpKind op, const Obj& a);
Obj tensor_compare(Interp& in, CmpOpKind op, const Obj& a, const Obj& b);
// Attributes of tensors: methods (bound builtins) and properties (.shape, .grad, ...).
// Null when the tensor has no such attribute.
Obj tensor_getattr(Interp& in, const Obj& t, const std::string& name);
// torch.Tensor.<name>: a Tensor method unbound (self is its first argument); Null if none.
Obj tensor_class_getattr(const std::string& name);
void tensor_setattr(Interp& in, const Obj& t, const std::string& name, Obj value);  // .grad, .requires_grad, .data
Obj tensor_getitem(Interp& in, const Obj& t, const Obj& key);
void tensor_setitem(Interp& in, const Obj& t, const Obj& key, const Obj& value);
Obj tensor_iter(Interp& in, const Obj& t);  // rows along dim 0
std::string tensor_repr(Interp& in, const Obj& t);  // "tensor([1., 2.])", "Parameter containing:\n..."
bool tensor_truthy(const Obj& t);  // one element only, else RuntimeError like PyTorch
std::string dtype_repr(DType d);   // "torch.float32"
std::string device_repr(const DeviceObj& d);  // "device(type='cpu')"

// ---- added by the torch helper (implemented in torch_bridge.cpp, tensor_methods.cpp,
// torch_module.cpp, functional.cpp) ----------------------------------------------------
std::string device_str(const DeviceObj& d);   // str(device): "cpu", "cuda:0"
int64_t tensor_len(const Obj& t);             // len(t): size(0); TypeError for 0-d
// torch.tensor(data, dtype=): nested lists/tuples/numbers/bools/tensors with PyTorch's dtype inference.
Tensor tensor_from_data(const Obj& data, std::optional<DType> dtype);
// Calls an op (overloads resolved as call_op does) and converts the outputs by the
// chosen overload's return types: Tensor, tuple of Tensors, bool.
Obj call_op_obj(std::string_view name, std::span<const Value> pos, const Kwargs& kw = {});
// Keyword arguments of a call as op Kwargs (device= checked and dropped).
Kwargs to_kwargs(const CallArgs& a);
// The tensor of a TensorObj; TypeError naming `what` otherwise.
const Tensor& tensor_of(const Obj& o, const char* what = "argument");
// A dtype argument: torch.dtype or None.
std::optional<DType> dtype_of_obj(const Obj& o, const char* what);
// A device= argument: torch.device or str; nullopt for None. Whether the
// device exists is checked when memory is allocated there.
std::optional<Device> device_arg(const Obj& o);
inline void check_device(const Obj& o) { (void)device_arg(o); }
// A factory's result placed on its device= (a leaf stays a leaf).
Obj place_on(Obj result, std::optional<Device> device);
// memory_format= (prelude/_layout.py): the rank channels_last (4) or
// channels_last_3d (5) needs, 0 for contiguous_format and preserve_format,
// nullopt for anything else.
std::optional<int> memory_format_rank(const Obj& o);
// A call's memory_format= applied to its tensor result: channels_last gives
// the strides of an NHWC (NDHWC) buffer; the result itself where it has them.
Obj apply_memory_format(Obj result, const CallArgs& a);
// Whether t's strides are those with_memory_format(t, rank) gives.
bool is_contiguous_as(const Tensor& t, int rank);
Device device_of_obj(const DeviceObj& d);
Obj make_functional_module(Interp& in);  // torch.nn.functional (functional.cpp)
// The builtin a NativeFn was called through (CallArgs::callee); RuntimeError if the caller did not set it.
const BuiltinObj& callee_of(const CallArgs& a);

}  // namespace kiln::lang
