// Python semantics of the operations the VM performs on values: arithmetic,
// comparison, truth, repr/str, items, iteration, attributes. The VM's fast
// paths handle int/float inline and call these for everything else.
//
// Errors are kiln::Error with the Python exception kind and CPython's wording
// ("unsupported operand type(s) for +: 'int' and 'str'"); the VM turns them
// into exception objects with a traceback.
#pragma once

#include <span>
#include <string>
#include <string_view>

#include "core/lang/ast.h"
#include "core/lang/object.h"

namespace kiln::lang {

class Interp;

// ---- numbers, containers, strings (objops.cpp) --------------------------------------
Obj binary_op(Interp& in, BinOpKind op, const Obj& a, const Obj& b);
// a op= b: mutates lists (+=, *=) and tensors (add_, ...) in place, else binary_op.
Obj inplace_op(Interp& in, BinOpKind op, const Obj& a, const Obj& b);
Obj unary_op(Interp& in, UnaryOpKind op, const Obj& a);
// Comparisons return Obj because tensor comparisons return tensors.
Obj compare(Interp& in, CmpOpKind op, const Obj& a, const Obj& b);
bool equals(Interp& in, const Obj& a, const Obj& b);  // Python ==, as a bool
bool truthy(Interp& in, const Obj& o);
std::string repr(Interp& in, const Obj& o);
std::string str(Interp& in, const Obj& o);
// format(v, spec): the format-spec mini-language for int, float, str; __format__ otherwise.
std::string format_value(Interp& in, const Obj& v, std::string_view spec);
// Python's float repr (shortest round trip: 0.1, 1e-05, inf, nan, 3.0).
std::string float_repr(double d);
// Python's repr of a str ('a', "it's", '\n'); needs no interpreter.
std::string str_repr(const std::string& s);
int64_t len(Interp& in, const Obj& o);
Obj getitem(Interp& in, const Obj& o, const Obj& key);
void setitem(Interp& in, const Obj& o, const Obj& key, Obj value);
void delitem(Interp& in, const Obj& o, const Obj& key);
bool contains(Interp& in, const Obj& container, const Obj& item);
// iter(o): an IteratorObj (user classes with __iter__ get an adapter calling __next__).
Obj iter(Interp& in, const Obj& o);
// Appends every item of an iterable to out.
void extend_from_iterable(Interp& in, std::vector<Obj>& out, const Obj& iterable);
// Adds an iterable's items to a set as CPython does: a set or dict in one
// sized merge (core/lang/set_order.h), anything else item by item.
void set_add_all(Interp& in, SetObj& s, const Obj& iterable);
// The set operators | & - ^ as CPython computes them (their insertion order
// is the result's iteration order), and their in-place forms.
Obj set_binary(BinOpKind op, const SetObj& a, const SetObj& b);
Obj set_copy_and_difference(const SetObj& a, const SetObj& b);
void set_inplace(BinOpKind op, SetObj& a, const SetObj& b);
// type(o) as a ClassObj (built-in types are ClassObjs with native_kind set).
Obj type_of(Interp& in, const Obj& o);
bool isinstance(Interp& in, const Obj& o, const Obj& cls_or_tuple);
// An instance of a prelude class that stands for a tensor (a complex tensor).
bool tensor_like(const Obj& o);
// The Python type name used in messages: "int", "list", "Tensor", a class's name for instances.
std::string type_name(const Obj& o);
// An int index from an int/bool (or an instance's __index__); TypeError naming `what` otherwise.
int64_t to_index(Interp& in, const Obj& o, const char* what);
// Python's slice.indices(length): start/stop/step clamped to the length; returns the item count.
int64_t slice_indices(Interp& in, const SliceObj& s, int64_t length, int64_t& start, int64_t& stop, int64_t& step);

// ---- bytes (bytes.cpp) ------------------------------------------------------------------
// Python's repr of bytes (b'\x01A', b"it's").
std::string bytes_repr(std::string_view b);
Obj bytes_getitem(Interp& in, const std::string& b, const Obj& key);
bool bytes_contains(Interp& in, const std::string& b, const Obj& item);
// bytes(...), bytes.fromhex, int.from_bytes, and the methods of bytes objects.
Obj bytes_construct(Interp& in, const CallArgs& a);
Obj bytes_fromhex(Interp& in, const CallArgs& a);
Obj int_from_bytes(Interp& in, const CallArgs& a);
Obj int_to_bytes(Interp& in, const CallArgs& a);
Obj str_encode(Interp& in, const CallArgs& a);
// str(b, encoding, errors): the bytes decoded.
std::string decode_bytes(Interp& in, const std::string& b, const std::string& encoding, const std::string& errors);
NativeFn bytes_method_fn(std::string_view name);

// ---- attributes -----------------------------------------------------------------------
// getattr(o, name): dispatches on o's kind: instances and classes (attrs.cpp),
// modules, methods of built-in types (methods.cpp), tensors (torch_bridge.h).
Obj getattr(Interp& in, const Obj& o, const std::string& name);
// A class's __module__: the defining module's name, "builtins" or "torch" for native types.
std::string class_module(const ClassObj& c);
// Like getattr, but returns false instead of raising AttributeError.
bool try_getattr(Interp& in, const Obj& o, const std::string& name, Obj& out);
void setattr(Interp& in, const Obj& o, const std::string& name, Obj value);
// obj.__class__ = cls for an instance of a class statement's class (what
// nn.LazyLinear does on its first call): cls must be such a class too.
void set_instance_class(InstanceObj& inst, const Obj& cls);
void delattr(Interp& in, const Obj& o, const std::string& name);

// Methods of built-in types (str.join, list.append, dict.get, ...): a
// BuiltinObj with `self` bound, or Null when the type has no such method (methods.cpp).
Obj builtin_method(Interp& in, const Obj& self, const std::string& name);
// The native function behind method `name` of built-in objects of kind k (str.upper); nullptr if none.
NativeFn builtin_method_fn(Kind k, std::string_view name, bool frozen = false);

// Instances and classes (attrs.cpp, with the VM): instance dict, then the
// class chain; functions bind to the instance, properties call fget,
// staticmethods unwrap. Null when absent.
Obj instance_getattr(Interp& in, const Obj& inst, const std::string& name);
Obj class_getattr(Interp& in, const Obj& cls, const std::string& name);
// type(name, bases, dict): a new class from a namespace dict.
Obj type_new(Interp& in, const CallArgs& a);
// What a tuple subclass's class statement defines (methods, properties, class
// attributes), bound to the tuple `o`; Null when absent or tuple's own.
Obj tuple_subclass_attr(Interp& in, const Obj& o, std::string_view name);
// A special method looked up on the class only (as Python does for dunders),
// already bound to o; Null when the class does not define it.
Obj special_method(Interp& in, const Obj& o, std::string_view name);

}  // namespace kiln::lang
