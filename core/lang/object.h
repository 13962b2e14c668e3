// The VM's values. An Obj is 16 bytes: None, bool, int, float and dtype live
// inline; everything else is a reference-counted HeapObj. Reference counting
// frees objects promptly (tensors release memory when a script drops them);
// reference cycles (a function and its module's globals, a closure and its
// cell) are broken when the interpreter shuts down by clearing every live
// container (see Heap::clear_all), so sanitizers see no leaks.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/dtype.h"
#include "core/error.h"
#include "core/tensor.h"

namespace kiln::lang {

#define KILN_OBJ_KINDS(_)                                                                  \
  _(None) _(Bool) _(Int) _(Float) _(DType) /* inline */                                    \
  _(Str) _(Bytes) _(Tuple) _(List) _(Dict) _(Set) _(Slice) _(Range) _(Function) _(Builtin)          \
  _(BoundMethod) _(Class) _(Instance) _(Module) _(Tensor) _(Cell) _(Code) _(Iterator)      \
  _(Property) _(StaticMethod) _(ClassMethod) _(Device) _(DictView)                       \
  _(Null) /* Null: LOAD_METHOD marker */

enum class Kind : uint8_t {
#define KILN_OBJ_KIND_ENUM(k) k,
  KILN_OBJ_KINDS(KILN_OBJ_KIND_ENUM)
#undef KILN_OBJ_KIND_ENUM
};

struct HeapObj {
  explicit HeapObj(Kind k);
  HeapObj(const HeapObj&) = delete;
  HeapObj& operator=(const HeapObj&) = delete;
  virtual ~HeapObj();
  // Drop every reference this object holds (called at shutdown to break cycles).
  virtual void clear_refs() {}

  uint32_t refcount = 0;
  Kind kind;
  HeapObj* prev = nullptr;  // intrusive list of live objects (Heap)
  HeapObj* next = nullptr;
};

class Obj {
 public:
  Obj() : kind_(Kind::None) { u_.i = 0; }
  static Obj none() { return Obj(); }
  static Obj from_bool(bool b) { Obj o(Kind::Bool); o.u_.i = b; return o; }
  static Obj from_int(int64_t i) { Obj o(Kind::Int); o.u_.i = i; return o; }
  static Obj from_float(double f) { Obj o(Kind::Float); o.u_.f = f; return o; }
  static Obj from_dtype(DType d) { Obj o(Kind::DType); o.u_.i = int64_t(d); return o; }
  static Obj null() { Obj o(Kind::Null); o.u_.i = 0; return o; }
  // Takes a new reference to h (h may be freshly allocated with refcount 0).
  explicit Obj(HeapObj* h) : kind_(h->kind) { u_.p = h; ++h->refcount; }

  [[gnu::always_inline]] Obj(const Obj& o) : kind_(o.kind_), u_(o.u_) { if (is_heap()) ++u_.p->refcount; }
  Obj(Obj&& o) noexcept : kind_(o.kind_), u_(o.u_) { o.kind_ = Kind::None; }
  // Forced inline: these run several times per bytecode instruction.
  [[gnu::always_inline]] Obj& operator=(const Obj& o) {
    if (o.is_heap()) ++o.u_.p->refcount;
    Kind old_kind = kind_;
    HeapObj* old = u_.p;
    kind_ = o.kind_;
    u_ = o.u_;
    if (old_kind >= Kind::Str && old_kind != Kind::Null && --old->refcount == 0) destroy(old);
    return *this;
  }
  [[gnu::always_inline]] Obj& operator=(Obj&& o) noexcept {
    Kind old_kind = kind_;
    HeapObj* old = u_.p;
    kind_ = o.kind_;
    u_ = o.u_;
    o.kind_ = Kind::None;
    if (old_kind >= Kind::Str && old_kind != Kind::Null && --old->refcount == 0) destroy(old);
    return *this;
  }
  [[gnu::always_inline]] ~Obj() { if (is_heap() && --u_.p->refcount == 0) destroy(u_.p); }
  void swap(Obj& o) noexcept { std::swap(kind_, o.kind_); std::swap(u_, o.u_); }

  Kind kind() const { return kind_; }
  bool is_heap() const { return kind_ >= Kind::Str && kind_ != Kind::Null; }
  bool is_none() const { return kind_ == Kind::None; }
  bool is_null() const { return kind_ == Kind::Null; }
  bool is_bool() const { return kind_ == Kind::Bool; }
  bool is_int() const { return kind_ == Kind::Int; }  // not bool
  bool is_float() const { return kind_ == Kind::Float; }
  bool is_intlike() const { return kind_ == Kind::Int || kind_ == Kind::Bool; }
  bool is_number() const { return kind_ == Kind::Int || kind_ == Kind::Bool || kind_ == Kind::Float; }

  bool as_bool() const { return u_.i != 0; }
  int64_t as_int() const { return u_.i; }  // also valid for bool
  double as_float() const { return u_.f; }
  double as_number() const { return kind_ == Kind::Float ? u_.f : double(u_.i); }
  DType as_dtype() const { return DType(u_.i); }
  HeapObj* heap() const { return u_.p; }
  // Typed access: nullptr unless the object is a T.
  template <class T> T* as() const { return kind_ == T::kKind ? static_cast<T*>(u_.p) : nullptr; }
  // Identity (Python `is`); tensors compare by TensorImpl (two handles of one tensor are one object).
  bool is(const Obj& o) const;

 private:
  explicit Obj(Kind k) : kind_(k) {}
  static void destroy(HeapObj* h);
  Kind kind_;
  union {
    int64_t i;
    double f;
    HeapObj* p;
  } u_;
};

// Allocates a heap object and returns the owning Obj.
template <class T, class... A>
Obj make(A&&... a) {
  return Obj(new T(std::forward<A>(a)...));
}

// ---- heap object kinds ------------------------------------------------------------

#define KILN_HEAP_KIND(K) \
  static constexpr Kind kKind = Kind::K;

struct StrObj : HeapObj {
  KILN_HEAP_KIND(Str)
  explicit StrObj(std::string s) : HeapObj(kKind), value(std::move(s)) {}
  std::string value;
  size_t hash = 0;  // 0: not computed yet
};

// Python bytes: an immutable byte string (any byte values, no encoding).
struct BytesObj : HeapObj {
  KILN_HEAP_KIND(Bytes)
  explicit BytesObj(std::string s) : HeapObj(kKind), value(std::move(s)) {}
  std::string value;
};

struct TupleObj : HeapObj {
  KILN_HEAP_KIND(Tuple)
  TupleObj() : HeapObj(kKind) {}
  explicit TupleObj(std::vector<Obj> v, bool size = false) : HeapObj(kKind), items(std::move(v)), is_size(size) {}
  void clear_refs() override {
    items.clear();
    cls = Obj();
  }
  std::vector<Obj> items;
  bool is_size = false;  // a torch.Size: prints as torch.Size([..])
  // The class of an instance of a tuple subclass (`class P(tuple)`, collections.namedtuple):
  // its methods and type; null for a tuple.
  Obj cls;
  // A named tuple (torch.return_types.max): its type name and field names.
  std::string struct_name;
  std::vector<std::string> fields;
};

struct ListObj : HeapObj {
  KILN_HEAP_KIND(List)
  ListObj() : HeapObj(kKind) {}
  explicit ListObj(std::vector<Obj> v) : HeapObj(kKind), items(std::move(v)) {}
  void clear_refs() override { items.clear(); }
  std::vector<Obj> items;
};

// Transparent, so attribute maps are searched by string_view without building a str object.
struct ObjHash {
  using is_transparent = void;
  size_t operator()(const Obj& o) const;  // TypeError for unhashable objects
  size_t operator()(std::string_view s) const;  // equals the hash of the str object s
};
struct ObjEq {
  using is_transparent = void;
  bool operator()(const Obj& a, const Obj& b) const;  // Python ==, 1 == 1.0 == True
  bool operator()(const Obj& a, std::string_view b) const;
  bool operator()(std::string_view a, const Obj& b) const { return (*this)(b, a); }
};

// An insertion-ordered hash map (Python dict). Also the attribute store of
// instances, classes and modules, and (with None values) the Python set.
class OrderedMap {
 public:
  OrderedMap() : uid_(next_uid()) {}
  OrderedMap(const OrderedMap& o) : entries_(o.entries_), index_(o.index_), uid_(next_uid()) {}
  OrderedMap& operator=(const OrderedMap& o) {
    entries_ = o.entries_;
    index_ = o.index_;
    ++layout_version_;
    return *this;
  }
  // Unique per map for the process's life (a freed map's address may be
  // reused, its uid never is): caches key on (uid, layout_version).
  uint64_t uid() const { return uid_; }
  size_t size() const { return index_.size(); }
  Obj* find(const Obj& key);
  const Obj* find(const Obj& key) const;
  Obj* find(std::string_view key);  // str key without allocating an Obj
  const Obj* find(std::string_view key) const { return const_cast<OrderedMap*>(this)->find(key); }
  void set(const Obj& key, Obj value);
  void set(std::string_view key, Obj value);
  // find/set with a remembered entry index: objects of one class usually
  // store their attributes in the same order, so the VM keeps the index per
  // instruction and skips hashing when the entry there holds this very key.
  Obj* find_hinted(const Obj& key, uint32_t& hint) {
    if (hint < entries_.size() && entries_[hint].first.is_heap() && entries_[hint].first.heap() == key.heap())
      return &entries_[hint].second;
    auto it = index_.find(key);
    if (it == index_.end()) return nullptr;
    hint = uint32_t(it->second);
    return &entries_[it->second].second;
  }
  void set_hinted(const Obj& key, Obj value, uint32_t& hint) {
    if (Obj* v = find_hinted(key, hint)) {
      *v = std::move(value);
      return;
    }
    hint = uint32_t(entries_.size());
    set(key, std::move(value));
  }
  bool erase(const Obj& key);
  void clear() { entries_.clear(); index_.clear(); ++layout_version_; }
  // Changes whenever a key is added or removed (not when a value changes), so
  // a cached pointer to a value slot stays valid while the version is unchanged.
  uint32_t layout_version() const { return layout_version_; }
  // Live entries in insertion order: for (auto& [k, v] : map.items()) if (!k.is_null()) ...
  // (erased slots hold a Null key until the next compaction).
  std::vector<std::pair<Obj, Obj>>& items() { return entries_; }
  const std::vector<std::pair<Obj, Obj>>& items() const { return entries_; }
  template <class F> void for_each(F&& f) const {
    for (const auto& [k, v] : entries_) if (!k.is_null()) f(k, v);
  }

 private:
  void compact();
  std::vector<std::pair<Obj, Obj>> entries_;
  std::unordered_map<Obj, size_t, ObjHash, ObjEq> index_;
  uint32_t layout_version_ = 0;
  uint64_t uid_;
  static uint64_t next_uid() {
    static uint64_t counter = 0;
    return ++counter;
  }
};

struct DictObj : HeapObj {
  KILN_HEAP_KIND(Dict)
  DictObj() : HeapObj(kKind) {}
  void clear_refs() override { map.clear(); }
  OrderedMap map;
  bool ordered = false;  // a collections.OrderedDict: prints as OrderedDict([..]), type() says so
};

enum class DictIterKind : uint8_t { Keys, Values, Items };

// dict.keys() / values() / items(): a live view of the dict, as CPython's.
struct DictViewObj : HeapObj {
  KILN_HEAP_KIND(DictView)
  DictViewObj(Obj d, DictIterKind k) : HeapObj(kKind), dict(std::move(d)), what(k) {}
  void clear_refs() override { dict = Obj(); }
  Obj dict;
  DictIterKind what;
};
// CPython's type name of a view: dict_keys, odict_items, ...
std::string dict_view_type_name(const DictViewObj& v);

// Python set: keys of an OrderedMap with None values. Iterates in insertion
// order (CPython's order depends on hashes; Kiln documents the difference).
struct SetObj : HeapObj {
  KILN_HEAP_KIND(Set)
  SetObj() : HeapObj(kKind) {}
  void clear_refs() override { map.clear(); }
  OrderedMap map;
  bool frozen = false;  // a frozenset: immutable and hashable
  // CPython's merges into this set: (items it held, items merged); they size
  // its hash table, which decides its iteration order (core/lang/set_order.h).
  std::vector<std::pair<uint32_t, uint32_t>> merges;
};

struct SliceObj : HeapObj {
  KILN_HEAP_KIND(Slice)
  SliceObj(Obj a, Obj b, Obj c) : HeapObj(kKind), start(std::move(a)), stop(std::move(b)), step(std::move(c)) {}
  Obj start, stop, step;  // None where absent
};

struct RangeObj : HeapObj {
  KILN_HEAP_KIND(Range)
  RangeObj(int64_t a, int64_t b, int64_t s) : HeapObj(kKind), start(a), stop(b), step(s) {}
  int64_t start, stop, step;
  int64_t length() const;
};

struct Code;  // bytecode.h

struct CellObj : HeapObj {
  KILN_HEAP_KIND(Cell)
  CellObj() : HeapObj(kKind) {}
  explicit CellObj(Obj v) : HeapObj(kKind), value(std::move(v)) {}
  void clear_refs() override { value = Obj(); }
  Obj value = Obj::null();  // Null: empty cell (free variable referenced before assignment)
};

struct FunctionObj : HeapObj {
  KILN_HEAP_KIND(Function)
  FunctionObj() : HeapObj(kKind) {}
  void clear_refs() override {
    globals = Obj();
    defaults.clear();
    kwdefaults = Obj();
    closure.clear();
    dict = Obj();
    annotations = Obj();
  }
  Obj code;                  // a Code
  Obj globals;               // the module namespace: a DictObj (__main__, prelude) or a file's ModuleObj
  std::vector<Obj> defaults; // for the last len(defaults) positional parameters
  Obj kwdefaults;            // DictObj or None
  std::vector<Obj> closure;  // CellObjs, one per Code::freevars
  Obj dict;                  // f.__dict__: a DictObj made by the first attribute store, else None
  Obj annotations;           // __annotations__: a DictObj, else None until first read
  std::string name, qualname;
  Code& get_code() const;
};

class Interp;
struct Kwarg {
  const std::string* name;  // points into a Code's names or a builtin's static string
  Obj value;
};
// What a native function receives: positional and keyword arguments, and
// for methods of built-in types the receiver in `self`.
struct CallArgs {
  std::span<const Obj> pos;
  std::span<const Kwarg> kw;
  Obj self;  // Null unless the builtin was reached through a bound method
  // The builtin being called, so one NativeFn can serve many builtins through
  // their data/ptr payload (torch.<op>, Tensor.<op>). Set by Interp::call.
  const struct BuiltinObj* callee = nullptr;
  const Obj* find_kw(std::string_view name) const;
  // TypeError unless min <= len(pos) <= max and every keyword is in `allowed` (space separated).
  void check(const char* fn, size_t min, size_t max, std::string_view allowed = {}) const;
  // The i-th positional argument, else the keyword `name`, else `def`.
  Obj arg(size_t i, std::string_view name, Obj def = Obj()) const;
};
using NativeFn = Obj (*)(Interp&, const CallArgs&);

struct BuiltinObj : HeapObj {
  KILN_HEAP_KIND(Builtin)
  BuiltinObj(std::string n, NativeFn f, Obj d = Obj()) : HeapObj(kKind), name(std::move(n)), fn(f), data(std::move(d)) {}
  void clear_refs() override { data = Obj(); self = Obj::null(); }
  std::string name;
  NativeFn fn;
  Obj data;               // per-builtin payload (an op name, a module ...)
  const void* ptr = nullptr;  // per-builtin native payload (an OpDef*, ...)
  Obj self = Obj::null(); // receiver for methods of built-in types (list.append)
};

struct BoundMethodObj : HeapObj {
  KILN_HEAP_KIND(BoundMethod)
  BoundMethodObj(Obj s, Obj f) : HeapObj(kKind), self(std::move(s)), func(std::move(f)) {}
  void clear_refs() override { self = Obj(); func = Obj(); }
  Obj self, func;
};

// A class: user-defined (class statement), a built-in type (int, list, ...,
// whose `native_kind` says which Obj kind its instances are), or a built-in
// exception class.
// Bumped whenever a class is created, destroyed or has an attribute set or
// deleted, so the VM's per-instruction attribute caches (keyed by class
// pointer) know when to look again.
inline uint64_t g_class_epoch = 1;

struct ClassObj : HeapObj {
  KILN_HEAP_KIND(Class)
  explicit ClassObj(std::string n) : HeapObj(kKind), name(std::move(n)) { ++g_class_epoch; }
  ~ClassObj() override { ++g_class_epoch; }
  void clear_refs() override {
    base = Obj();
    bases.clear();
    mro.clear();
    attrs.clear();
    ++g_class_epoch;
  }
  std::string name;
  Obj base;                   // the first base (__base__): ClassObj or None; all three set by set_bases
  std::vector<Obj> bases;     // every direct base, in order (__bases__)
  std::vector<Obj> mro;       // the method resolution order after this class (C3, as CPython)
  OrderedMap attrs;           // methods and class attributes
  Kind native_kind = Kind::Instance;  // for built-in types: the kind of their instances
  NativeFn construct = nullptr;       // for built-in types: int(x), list(it), ...
  bool is_exception = false;          // derives from BaseException
  // Sets base, bases and mro; a TypeError (as CPython's) where the bases repeat
  // or admit no consistent order.
  void set_bases(std::vector<Obj> direct);
  void set_base(Obj b) { set_bases(b.kind() == Kind::Class ? std::vector<Obj>{std::move(b)} : std::vector<Obj>{}); }
  Obj lookup(std::string_view name) const;  // this class, then its MRO; Null if absent
  Obj lookup(const Obj& name) const;        // same, with a str key whose hash is cached
  // The first definition of `name` in this class's MRO after `start` (super()).
  Obj lookup_after(const ClassObj* start, std::string_view name) const;
  bool is_subclass_of(const ClassObj* other) const;
};

struct InstanceObj : HeapObj {
  KILN_HEAP_KIND(Instance)
  explicit InstanceObj(Obj c) : HeapObj(kKind), cls(std::move(c)) {}
  void clear_refs() override { cls = Obj(); attrs.clear(); }
  Obj cls;  // ClassObj
  OrderedMap attrs;
  ClassObj& get_class() const { return *cls.as<ClassObj>(); }
};

struct ModuleObj : HeapObj {
  KILN_HEAP_KIND(Module)
  explicit ModuleObj(std::string n) : HeapObj(kKind), name(std::move(n)) {}
  void clear_refs() override { attrs.clear(); }
  std::string name;
  OrderedMap attrs;
};

// A function's globals: the DictObj a script or prelude module ran in, or the
// ModuleObj of a module imported from a file (whose attributes are its globals,
// as in CPython, so `mod.x = 1` is seen by mod's functions).
inline OrderedMap& globals_map(const Obj& g) {
  if (g.kind() == Kind::Module) return g.as<ModuleObj>()->attrs;
  return g.as<DictObj>()->map;
}

struct TensorObj : HeapObj {
  KILN_HEAP_KIND(Tensor)
  explicit TensorObj(Tensor t, bool param = false) : HeapObj(kKind), tensor(std::move(t)), is_parameter(param) {}
  void clear_refs() override { attrs.clear(); }
  Tensor tensor;
  bool is_parameter = false;  // created by nn.Parameter: repr says "Parameter containing:"
  // The Python object's own attributes (PyTorch's tensor __dict__: p._no_weight_decay = True).
  OrderedMap attrs;
};

// Iterators of built-in kinds (range, list, dict views, zip, enumerate, map,
// tensor rows, ...) share this interface.
struct IteratorObj : HeapObj {
  KILN_HEAP_KIND(Iterator)
  IteratorObj() : HeapObj(kKind) {}
  // Stores the next item in `out` and returns true, or returns false when exhausted.
  virtual bool next(Interp& in, Obj& out) = 0;
  virtual const char* type_name() const { return "iterator"; }
};

struct PropertyObj : HeapObj {
  KILN_HEAP_KIND(Property)
  PropertyObj(Obj g, Obj s, Obj d = Obj(), Obj doc_ = Obj())
      : HeapObj(kKind), fget(std::move(g)), fset(std::move(s)), fdel(std::move(d)), doc(std::move(doc_)) {}
  void clear_refs() override { fget = fset = fdel = doc = Obj(); }
  Obj fget, fset, fdel;
  Obj doc;  // __doc__: the doc argument, else None (fget's docstring is read on access)
};
struct StaticMethodObj : HeapObj {
  KILN_HEAP_KIND(StaticMethod)
  explicit StaticMethodObj(Obj f) : HeapObj(kKind), func(std::move(f)) {}
  void clear_refs() override { func = Obj(); }
  Obj func;
};
struct ClassMethodObj : HeapObj {
  KILN_HEAP_KIND(ClassMethod)
  explicit ClassMethodObj(Obj f) : HeapObj(kKind), func(std::move(f)) {}
  void clear_refs() override { func = Obj(); }
  Obj func;
};
struct DeviceObj : HeapObj {
  KILN_HEAP_KIND(Device)
  DeviceObj(std::string t, int idx) : HeapObj(kKind), type(std::move(t)), index(idx) {}
  std::string type;  // "cpu" or "cuda"
  int index = -1;    // -1: none given
};
#undef KILN_HEAP_KIND

// ---- convenience constructors and accessors ------------------------------------------

Obj make_str(std::string s);
// One shared str object per distinct name (attribute and global names), so
// dict lookups of names mostly end at a pointer comparison.
const Obj& intern(const std::string& s);
Obj make_bytes(std::string s);
Obj make_tuple(std::vector<Obj> items);
Obj make_list(std::vector<Obj> items);
Obj make_tensor(Tensor t);
Obj make_builtin(std::string name, NativeFn fn, Obj data = Obj());
// The str of a StrObj; TypeError naming `what` otherwise.
const std::string& str_of(const Obj& o, const char* what = "argument");

// Every live heap object, so the interpreter can break cycles at shutdown.
namespace heap {
size_t live_count();
void clear_all();  // calls clear_refs() on every live object
}  // namespace heap

std::string_view kind_name(Kind k);  // "int", "list", "Tensor", ... (Python type names)

}  // namespace kiln::lang
