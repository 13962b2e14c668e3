// Attribute lookup on instances and classes, class creation
// (__build_class__) and super(): the object model of user classes.
#include <algorithm>

#include "core/lang/builtins.h"
#include "core/lang/interp.h"
#include "core/lang/objops.h"
#include "core/lang/str_translate.h"
#include "core/lang/torch_bridge.h"
#include "core/lang/vm.h"

namespace kiln::lang {

namespace {

// A method found on a class, bound to `self` the way Python binds it.
Obj bind(Interp& in, const Obj& attr, const Obj& self, const Obj& cls) {
  switch (attr.kind()) {
    case Kind::Function:
      return make<BoundMethodObj>(self, attr);
    case Kind::Builtin: {
      const BuiltinObj& b = *attr.as<BuiltinObj>();
      auto* bound = new BuiltinObj(b.name, b.fn, b.data);
      bound->ptr = b.ptr;
      bound->self = self;
      return Obj(bound);
    }
    case Kind::Property: {
      const Obj& get = attr.as<PropertyObj>()->fget;
      if (get.is_none()) throw Error("unreadable attribute", ErrorKind::Attribute);
      Obj arg[1] = {self};
      return in.call(get, arg);
    }
    case Kind::StaticMethod:
      return attr.as<StaticMethodObj>()->func;
    case Kind::ClassMethod:
      return make<BoundMethodObj>(cls, attr.as<ClassMethodObj>()->func);
    default:
      return attr;
  }
}

bool is_super(const InstanceObj& inst) { return inst.get_class().name == "super" && inst.attrs.find("__thisclass__"); }

Obj super_getattr(Interp& in, const InstanceObj& sup, const std::string& name) {
  const Obj& self = *const_cast<OrderedMap&>(sup.attrs).find("__self__");
  const ClassObj* start = const_cast<OrderedMap&>(sup.attrs).find("__thisclass__")->as<ClassObj>();
  if (const ClassObj* self_cls = self.as<ClassObj>()) {
    // super() in a classmethod has the class as self: its own MRO is searched,
    // and what is found binds as on the class (__init_subclass__ is an implicit
    // classmethod).
    Obj attr = self_cls->lookup_after(start, name);
    if (attr.kind() == Kind::Function && name == "__init_subclass__") return make<BoundMethodObj>(self, attr);
    if (attr.kind() == Kind::ClassMethod) return make<BoundMethodObj>(self, attr.as<ClassMethodObj>()->func);
    if (attr.kind() == Kind::StaticMethod) return attr.as<StaticMethodObj>()->func;
    return attr;
  }
  Obj cls = type_of(in, self);
  Obj attr = cls.as<ClassObj>()->lookup_after(start, name);
  if (attr.is_null()) return Obj::null();
  return bind(in, attr, self, cls);
}

// A method of a built-in type read from the type (str.upper, list.append):
// calls the method with its first argument as the receiver, after checking
// that argument's type as CPython's method descriptors do.
Obj call_unbound_method(Interp& in, const CallArgs& a) {
  const ClassObj& cls = *a.callee->data.as<ClassObj>();
  const std::string& name = a.callee->name;
  if (a.pos.empty())
    throw Error("unbound method " + cls.name + "." + name + "() needs an argument", ErrorKind::Type);
  if (!isinstance(in, a.pos[0], a.callee->data))
    throw Error("descriptor '" + name + "' for '" + cls.name + "' objects doesn't apply to a '" +
                    type_name(a.pos[0]) + "' object",
                ErrorKind::Type);
  CallArgs bound{a.pos.subspan(1), a.kw, a.pos[0], a.callee};
  return reinterpret_cast<NativeFn>(const_cast<void*>(a.callee->ptr))(in, bound);
}

Obj unbound_method(const Obj& cls, const std::string& name) {
  const ClassObj& c = *cls.as<ClassObj>();
  NativeFn fn = builtin_method_fn(c.native_kind, name, c.native_kind == Kind::Set && c.name == "frozenset");
  if (!fn) return Obj::null();
  auto* b = new BuiltinObj(name, call_unbound_method, cls);
  b->ptr = reinterpret_cast<const void*>(fn);
  return Obj(b);
}

}  // namespace

// As CPython 3.10+: a class's own annotations, an empty dict (kept) when its
// body has none, never a base's.
static Obj class_annotations(ClassObj& cls) {
  if (const Obj* v = cls.attrs.find(std::string_view("__annotations__"))) return *v;
  Obj d = make<DictObj>();
  cls.attrs.set("__annotations__", d);
  return d;
}

Obj instance_getattr(Interp& in, const Obj& o, const std::string& name) {
  const InstanceObj& inst = *o.as<InstanceObj>();
  if (is_super(inst)) return super_getattr(in, inst, name);
  const ClassObj& cls = inst.get_class();
  Obj cattr = cls.lookup(name);
  // Properties are data descriptors: they win over the instance dict.
  if (cattr.kind() == Kind::Property) return bind(in, cattr, o, inst.cls);
  if (const Obj* v = const_cast<OrderedMap&>(inst.attrs).find(name)) return *v;
  if (!cattr.is_null()) return bind(in, cattr, o, inst.cls);
  if (name == "__class__") return inst.cls;
  Obj ga = cls.lookup("__getattr__");
  if (!ga.is_null()) {
    Obj args[2] = {o, make_str(name)};
    return in.call(ga, args);
  }
  return Obj::null();
}

Obj class_getattr(Interp& in, const Obj& c, const std::string& name) {
  const ClassObj& cls = *c.as<ClassObj>();
  if (name == "__annotations__") return class_annotations(const_cast<ClassObj&>(cls));
  Obj attr = cls.lookup(name);
  if (attr.is_null()) {
    if (name == "__name__" || name == "__qualname__") return make_str(cls.name);
    if (name == "__base__") return cls.base;
    if (cls.native_kind == Kind::Tensor) return tensor_class_getattr(name);  // torch.Tensor.add
    if (cls.native_kind == Kind::Str && name == "maketrans") return make<BuiltinObj>(name, str_maketrans);  // static
    if (cls.native_kind != Kind::Instance) return unbound_method(c, name);
    return Obj::null();
  }
  if (attr.kind() == Kind::StaticMethod) return attr.as<StaticMethodObj>()->func;
  if (attr.kind() == Kind::ClassMethod) return make<BoundMethodObj>(c, attr.as<ClassMethodObj>()->func);
  (void)in;
  return attr;
}

// A class's own special methods (iter, len, in, [] on the class itself) come
// from its `__kiln_metaclass__`, a class whose methods take the class as self:
// how the prelude's enum gives Enum classes CPython's metaclass behaviour
// (scripts cannot declare metaclasses).
static Obj class_special_method(Interp& in, const Obj& o, std::string_view name) {
  Obj meta = o.as<ClassObj>()->lookup("__kiln_metaclass__");
  const ClassObj* m = meta.as<ClassObj>();
  if (!m) return Obj::null();
  Obj attr = m->lookup(name);
  return attr.is_null() ? attr : bind(in, attr, o, meta);
}

Obj tuple_subclass_attr(Interp& in, const Obj& o, std::string_view name) {
  const Obj& cls = o.as<TupleObj>()->cls;
  const ClassObj* c = cls.as<ClassObj>();
  if (!c) return Obj::null();
  Obj attr = c->lookup(name);
  if (attr.is_null() || attr.kind() == Kind::Builtin) return Obj::null();  // tuple's and object's own
  return bind(in, attr, o, cls);
}

Obj special_method(Interp& in, const Obj& o, std::string_view name) {
  if (o.kind() == Kind::Class) return class_special_method(in, o, name);
  if (o.kind() == Kind::Tuple) return tuple_subclass_attr(in, o, name);
  const InstanceObj* inst = o.as<InstanceObj>();
  if (!inst) return Obj::null();
  Obj attr = inst->get_class().lookup(name);
  if (attr.is_null()) return Obj::null();
  return bind(in, attr, o, inst->cls);
}

namespace {

// A new class deriving from `bases` (a class statement's or type(name, bases, dict)'s;
// none means object).
Obj new_class_object(Interp& in, const std::string& name, std::vector<Obj> bases) {
  if (bases.empty()) bases.push_back(in.builtin("object"));
  bool is_exception = false;
  Kind native = Kind::Instance;
  Obj tuple = find_builtin_class(in, "tuple");
  for (const Obj& base : bases) {
    ClassObj* base_cls = base.as<ClassObj>();
    if (!base_cls) throw Error("bases must be types", ErrorKind::Type);
    // tuple and its script subclasses (collections.namedtuple) can be derived
    // from: their instances are tuples that carry their class (TupleObj::cls).
    const bool tuple_base = base.is(tuple) || (base_cls->native_kind == Kind::Tuple && !base_cls->construct &&
                                                base_cls->is_subclass_of(tuple.as<ClassObj>()));
    if (base_cls->native_kind != Kind::Instance && !tuple_base)
      throw Error("subclassing the built-in type '" + base_cls->name + "' is not supported by kiln",
                  ErrorKind::NotImplemented);
    if (tuple_base) native = Kind::Tuple;
    is_exception |= base_cls->is_exception;
  }
  if (native == Kind::Tuple && is_exception)
    throw Error("multiple bases have instance lay-out conflict", ErrorKind::Type);
  auto* cls = new ClassObj(name);
  Obj result(cls);
  cls->set_bases(std::move(bases));
  cls->is_exception = is_exception;
  cls->native_kind = native;
  return result;
}

// A tuple subclass's instances are tuples: what the tuple operators do is
// tuple's, so a class statement that redefines one is refused rather than
// silently not consulted (its methods, properties, __repr__/__str__,
// __new__/__init__ are).
void check_tuple_subclass(const ClassObj& cls) {
  if (cls.native_kind != Kind::Tuple) return;
  static const char* const kTupleOwn[] = {
      "__eq__", "__ne__", "__lt__", "__le__", "__gt__", "__ge__", "__hash__", "__getitem__",
      "__len__", "__iter__", "__reversed__", "__contains__", "__add__", "__radd__", "__mul__",
      "__rmul__", "__bool__", "__getattr__", "__getattribute__", "__setattr__", "__delattr__"};
  for (const char* name : kTupleOwn)
    if (const_cast<ClassObj&>(cls).attrs.find(std::string_view(name)))
      throw Error(std::string("a tuple subclass's own ") + name + " is not supported by kiln (class '" + cls.name +
                      "')",
                  ErrorKind::NotImplemented);
}

// The next __init_subclass__ in the MRO, an implicit classmethod, sees each new subclass.
void run_init_subclass(Interp& in, Obj& cls) {
  check_tuple_subclass(*cls.as<ClassObj>());
  const ClassObj* c = cls.as<ClassObj>();
  Obj hook = c->lookup_after(c, "__init_subclass__");
  if (const auto* cm = hook.as<ClassMethodObj>()) hook = cm->func;
  if (hook.kind() == Kind::Function) in.call(hook, {&cls, 1});
}

// PEP 560: a base that is not a class (typing's Generic[T]) names the classes
// it stands for through __mro_entries__(bases).
std::vector<Obj> resolve_bases(Interp& in, const std::vector<Obj>& bases, bool& substituted) {
  std::vector<Obj> out;
  for (const Obj& base : bases) {
    Obj hook;
    if (base.kind() != Kind::Instance || !try_getattr(in, base, "__mro_entries__", hook)) {
      out.push_back(base);
      continue;
    }
    substituted = true;
    Obj orig = make_tuple(bases);
    Obj entries = in.call(hook, {&orig, 1});
    auto* t = entries.as<TupleObj>();
    if (!t) throw Error("__mro_entries__ must return a tuple", ErrorKind::Type);
    out.insert(out.end(), t->items.begin(), t->items.end());
  }
  return out;
}

// CPython's type.__new__: a class that defines __eq__ but not __hash__ gets
// __hash__ = None, which makes its instances unhashable.
void set_attrs_from_namespace(ClassObj& cls, OrderedMap& ns) {
  if (ns.find(std::string_view("__eq__")) && !ns.find(std::string_view("__hash__"))) ns.set("__hash__", Obj());
  ns.for_each([&](const Obj& k, const Obj& v) { cls.attrs.set(k, v); });
}

}  // namespace

// type(name, bases, dict): a class made from a namespace dict.
Obj type_new(Interp& in, const CallArgs& a) {
  const Obj& name = a.pos[0];
  auto* bases = a.pos[1].as<TupleObj>();
  auto* ns = a.pos[2].as<DictObj>();
  if (name.kind() != Kind::Str)
    throw Error("type.__new__() argument 1 must be str, not " + type_name(name), ErrorKind::Type);
  if (!bases) throw Error("type.__new__() argument 2 must be tuple, not " + type_name(a.pos[1]), ErrorKind::Type);
  if (!ns) throw Error("type.__new__() argument 3 must be dict, not " + type_name(a.pos[2]), ErrorKind::Type);
  Obj result = new_class_object(in, name.as<StrObj>()->value, bases->items);
  auto* cls = result.as<ClassObj>();
  cls->attrs.set("__module__", make_str("__main__"));
  cls->attrs.set("__qualname__", name);
  OrderedMap names = ns->map;  // the caller's dict stays as it was
  set_attrs_from_namespace(*cls, names);
  run_init_subclass(in, result);
  return result;
}

// __build_class__(body, name, *bases): runs the class body with a fresh
// namespace and makes the class from it.
Obj build_class(Interp& in, const CallArgs& a) {
  if (a.pos.size() < 2) throw Error("__build_class__: not enough arguments", ErrorKind::Type);
  const FunctionObj* body = a.pos[0].as<FunctionObj>();
  if (!body) throw Error("__build_class__: func must be a function", ErrorKind::Type);
  std::vector<Obj> orig_bases(a.pos.begin() + 2, a.pos.end());
  bool substituted = false;
  std::vector<Obj> bases = resolve_bases(in, orig_bases, substituted);
  Obj result = new_class_object(in, str_of(a.pos[1], "class name"), std::move(bases));
  auto* cls = result.as<ClassObj>();
  Obj ns = make<DictObj>();
  OrderedMap& names = ns.as<DictObj>()->map;
  // As in Python, the defining module's __name__: prelude classes belong to torch.nn, ...
  Obj module_name = make_str("__main__");
  if (!body->globals.is_null())
    if (const Obj* n = globals_map(body->globals).find(std::string_view("__name__")); n && n->kind() == Kind::Str)
      module_name = *n;
  names.set("__module__", module_name);
  names.set("__qualname__", make_str(body->get_code().qualname));
  if (substituted) names.set("__orig_bases__", make_tuple(std::move(orig_bases)));
  Obj cell = run_body(in, body->get_code(), body->globals, names, body->closure);
  set_attrs_from_namespace(*cls, names);
  if (CellObj* c = cell.as<CellObj>()) c->value = result;
  run_init_subclass(in, result);
  return result;
}

// super(cls, obj): an object whose attribute lookup starts after cls.
Obj make_super(Interp& in, const CallArgs& a) {
  if (a.pos.size() != 2)
    throw Error("super(): kiln supports super() inside methods and super(Class, self)", ErrorKind::Runtime);
  const ClassObj* start = a.pos[0].as<ClassObj>();
  if (!start) throw Error("super() argument 1 must be a type", ErrorKind::Type);
  const ClassObj* self_cls = a.pos[1].kind() == Kind::Class ? a.pos[1].as<ClassObj>() : type_of(in, a.pos[1]).as<ClassObj>();
  if (!self_cls || !self_cls->is_subclass_of(start))
    throw Error("super(type, obj): obj must be an instance or subtype of type", ErrorKind::Type);
  static const char* kSuper = "super";
  Obj cls = in.builtin("__super_class__");
  if (cls.is_null()) {
    cls = make<ClassObj>(kSuper);
    in.builtins().attrs.set("__super_class__", cls);
  }
  Obj sup = make<InstanceObj>(cls);
  sup.as<InstanceObj>()->attrs.set("__thisclass__", a.pos[0]);
  sup.as<InstanceObj>()->attrs.set("__self__", a.pos[1]);
  return sup;
}

}  // namespace kiln::lang
