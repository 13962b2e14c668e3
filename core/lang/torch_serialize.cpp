// torch.save / torch.load in PyTorch's zip format (what torch.save has written
// since 1.6), so checkpoints pass between Kiln and PyTorch. The archive holds
// stored (uncompressed) entries under one directory:
//   archive/data.pkl    the object, pickled with protocol 2; each tensor is a
//                       torch._utils._rebuild_tensor_v2 call whose storage is a
//                       persistent id ('storage', torch.FloatStorage, key, location, numel)
//   archive/data/<key>  that storage's bytes, little-endian
//   archive/version     "3"    archive/byteorder  "little"
// The objects are what state dicts and checkpoints hold: dict and OrderedDict,
// list, tuple, str, int, float, bool, None, tensors and Parameters; and, as
// pickle writes them, instances of a script's classes (a whole nn.Module),
// and its top-level functions and classes by name. Those load back only with
// weights_only=False or through add_safe_globals, as in PyTorch 2.6+. The
// prelude (prelude/serialization.py) wraps these natives as torch.save/torch.load.
#include <zlib.h>

#include <cstring>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "core/device.h"
#include "core/ops.h"
#include "core/lang/interp.h"
#include "core/lang/objops.h"
#include "core/lang/torch_bridge.h"

namespace kiln::lang {
namespace {

constexpr std::pair<DType, const char*> kStorageNames[] = {
    {DType::Float32, "FloatStorage"}, {DType::Float64, "DoubleStorage"}, {DType::Float16, "HalfStorage"},
    {DType::BFloat16, "BFloat16Storage"}, {DType::Int64, "LongStorage"}, {DType::Int32, "IntStorage"},
    {DType::Int16, "ShortStorage"}, {DType::Int8, "CharStorage"}, {DType::UInt8, "ByteStorage"},
    {DType::Bool, "BoolStorage"}};

// ---- zip -----------------------------------------------------------------------------------
void put16(std::string& s, uint32_t v) { s.append({char(v & 0xff), char((v >> 8) & 0xff)}); }
void put32(std::string& s, uint32_t v) {
  put16(s, v & 0xffff);
  put16(s, v >> 16);
}
uint32_t get16(const std::string& s, size_t at) { return uint8_t(s[at]) | uint32_t(uint8_t(s[at + 1])) << 8; }
uint32_t get32(const std::string& s, size_t at) { return get16(s, at) | get16(s, at + 2) << 16; }

class ZipWriter {
 public:
  void add(const std::string& name, const std::string& data) {
    KILN_CHECK(out_.size() + data.size() < 0xffffffffu, NotImplemented,
               "torch.save: kiln writes archives up to 4 GiB (no zip64)");
    uint32_t crc = uint32_t(crc32(0, reinterpret_cast<const Bytef*>(data.data()), uInt(data.size())));
    std::string header;
    put32(header, 0x04034b50);
    entry_fields(header, crc, data.size(), name);
    header += name;
    central_.push_back({name, crc, uint32_t(data.size()), uint32_t(out_.size())});
    out_ += header;
    out_ += data;
  }
  std::string finish() {
    std::string dir;
    for (const Entry& e : central_) {
      put32(dir, 0x02014b50);
      put16(dir, 20);  // version made by
      entry_fields(dir, e.crc, e.size, e.name);
      put16(dir, 0);  // comment length
      put16(dir, 0);  // disk
      put16(dir, 0);  // internal attributes
      put32(dir, 0);  // external attributes
      put32(dir, e.offset);
      dir += e.name;
    }
    std::string end;
    put32(end, 0x06054b50);
    put16(end, 0);
    put16(end, 0);
    put16(end, uint32_t(central_.size()));
    put16(end, uint32_t(central_.size()));
    put32(end, uint32_t(dir.size()));
    put32(end, uint32_t(out_.size()));
    put16(end, 0);
    return out_ + dir + end;
  }

 private:
  struct Entry {
    std::string name;
    uint32_t crc, size, offset;
  };
  // The fields local and central headers share: version needed, flags, method (stored),
  // time, date, crc, sizes, name and extra lengths.
  static void entry_fields(std::string& s, uint32_t crc, size_t size, const std::string& name) {
    put16(s, 20);
    put16(s, 0);
    put16(s, 0);
    put16(s, 0);
    put16(s, 0x21);  // 1980-01-01
    put32(s, crc);
    put32(s, uint32_t(size));
    put32(s, uint32_t(size));
    put16(s, uint32_t(name.size()));
    put16(s, 0);
  }
  std::string out_;
  std::vector<Entry> central_;
};

[[noreturn]] void corrupt(const std::string& path, const std::string& why) {
  throw Error("torch.load: '" + path + "' is not a PyTorch checkpoint (" + why +
                  "); torch.save writes one, in PyTorch's zip format",
              ErrorKind::Runtime);
}

// The stored entries of a zip archive, by name.
std::map<std::string, std::string> read_zip(const std::string& bytes, const std::string& path) {
  if (bytes.size() < 22) corrupt(path, "too short for a zip archive");
  size_t eocd = std::string::npos;
  for (size_t i = bytes.size() - 22 + 1; i-- > 0 && bytes.size() - i <= 22 + 0xffff;)
    if (get32(bytes, i) == 0x06054b50) {
      eocd = i;
      break;
    }
  if (eocd == std::string::npos) corrupt(path, "no zip central directory");
  const size_t count = get16(bytes, eocd + 10), dir_size = get32(bytes, eocd + 12), dir_at = get32(bytes, eocd + 16);
  if (dir_at == 0xffffffffu) corrupt(path, "a zip64 archive, which kiln does not read");
  if (dir_at + dir_size > eocd) corrupt(path, "central directory out of range");
  std::map<std::string, std::string> files;
  size_t at = dir_at;
  for (size_t i = 0; i < count; ++i) {
    if (at + 46 > eocd || get32(bytes, at) != 0x02014b50) corrupt(path, "bad central directory entry");
    const uint32_t method = get16(bytes, at + 10), size = get32(bytes, at + 20), usize = get32(bytes, at + 24);
    const size_t name_len = get16(bytes, at + 28), extra = get16(bytes, at + 30), comment = get16(bytes, at + 32);
    const size_t local = get32(bytes, at + 42);
    std::string name = bytes.substr(at + 46, name_len);
    at += 46 + name_len + extra + comment;
    if (method != 0 || size != usize) corrupt(path, "entry '" + name + "' is compressed");
    if (local + 30 > bytes.size() || get32(bytes, local) != 0x04034b50) corrupt(path, "bad local header");
    const size_t data = local + 30 + get16(bytes, local + 26) + get16(bytes, local + 28);
    if (data + size > bytes.size()) corrupt(path, "entry '" + name + "' runs past the end");
    files[name] = bytes.substr(data, size);
  }
  return files;
}

// ---- pickling -------------------------------------------------------------------------------
class Pickler {
 public:
  Pickler(ZipWriter& zip, Interp& in) : zip_(zip), in_(in) {}
  std::string run(const Obj& o) {
    out_ = "\x80\x02";
    put(o);
    out_ += '.';
    return out_;
  }

 private:
  void global(const char* module, const char* name) { out_ += std::string("c") + module + "\n" + name + "\n"; }
  void str(const std::string& s) {
    out_ += 'X';
    put32(out_, uint32_t(s.size()));
    out_ += s;
  }
  void integer(int64_t v) {
    if (v >= 0 && v < 256) {
      out_ += 'K';
      out_ += char(v);
    } else if (v >= INT32_MIN && v <= INT32_MAX) {
      out_ += 'J';
      put32(out_, uint32_t(int32_t(v)));
    } else {
      out_ += "\x8a\x08";
      for (int i = 0; i < 8; ++i) out_ += char((uint64_t(v) >> (8 * i)) & 0xff);
    }
  }
  void real(double v) {
    uint64_t bits;
    std::memcpy(&bits, &v, 8);
    out_ += 'G';
    for (int i = 7; i >= 0; --i) out_ += char((bits >> (8 * i)) & 0xff);
  }
  void empty_ordered_dict() {
    global("collections", "OrderedDict");
    out_ += ")R";
  }
  // Lists, dicts, tensors and instances are memoized, as pickle does: an
  // object met twice (a Parameter in _parameters and as an attribute, a
  // module referring to itself) is one object again when loaded.
  bool memo_ref(const Obj& o) {
    auto it = memo_.find(o.heap());
    if (it == memo_.end()) return false;
    out_ += 'j';
    put32(out_, it->second);
    return true;
  }
  void memo_put(const Obj& o) {
    const uint32_t key = uint32_t(memo_.size());
    memo_[o.heap()] = key;
    kept_.push_back(o);  // a key must not outlive its object's address
    out_ += 'r';
    put32(out_, key);
  }
  void put(const Obj& o) {
    if ((o.kind() == Kind::List || o.kind() == Kind::Dict || o.kind() == Kind::Tensor ||
         o.kind() == Kind::Instance) && memo_ref(o))
      return;
    switch (o.kind()) {
      case Kind::None: out_ += 'N'; return;
      case Kind::Bool: out_ += o.as_bool() ? '\x88' : '\x89'; return;
      case Kind::Int: integer(o.as_int()); return;
      case Kind::Float: real(o.as_float()); return;
      case Kind::Str: str(o.as<StrObj>()->value); return;
      case Kind::Tensor:
        tensor(*o.as<TensorObj>());
        memo_put(o);
        return;
      case Kind::List: {
        out_ += ']';
        memo_put(o);
        out_ += '(';
        for (const Obj& x : o.as<ListObj>()->items) put(x);
        out_ += 'e';
        return;
      }
      case Kind::Tuple: {
        out_ += '(';
        for (const Obj& x : o.as<TupleObj>()->items) put(x);
        out_ += 't';
        return;
      }
      case Kind::Dict: {
        const DictObj& d = *o.as<DictObj>();
        if (d.ordered) empty_ordered_dict();
        else out_ += '}';
        memo_put(o);
        out_ += '(';
        d.map.for_each([&](const Obj& k, const Obj& v) {
          put(k);
          put(v);
        });
        out_ += 'u';
        return;
      }
      case Kind::Instance:
        if (counter(o)) return;
        instance(o);
        return;
      case Kind::Function: function(*o.as<FunctionObj>()); return;
      case Kind::Builtin: builtin(o); return;
      case Kind::Class: global_ref(class_module(*o.as<ClassObj>()), o.as<ClassObj>()->name); return;
      default:
        throw Error("torch.save: kiln saves tensors, containers, numbers, strings, and instances, functions and "
                        "classes a script defines, not '" + type_name(o) + "'",
                    ErrorKind::Type);
    }
  }
  void global_ref(const std::string& module, const std::string& qualname) {
    out_ += "c" + module + "\n" + qualname + "\n";
  }
  // An object of a script's class, as pickle's default reduction writes it:
  // the class, NEWOBJ without arguments, then BUILD with its __getstate__()
  // or its attributes (an nn.Module, an optimizer, a dataclass).
  void instance(const Obj& o) {
    const ClassObj& cls = o.as<InstanceObj>()->get_class();
    KILN_CHECK(!cls.is_exception, Type, "torch.save: kiln does not save exceptions ('", cls.name, "')");
    global_ref(class_module(cls), cls.name);
    out_ += ")\x81";
    memo_put(o);
    Obj getstate = cls.lookup("__getstate__");
    put(getstate.kind() == Kind::Function ? in_.call_method(o, "__getstate__") : getattr(in_, o, "__dict__"));
    out_ += 'b';
  }
  // A built-in function by the module that holds it under its name (torch.relu, builtins.len).
  void builtin(const Obj& o) {
    const BuiltinObj& b = *o.as<BuiltinObj>();
    for (const char* m : {"torch", "torch.nn.functional", "math"}) {
      const Obj* f = in_.import_module(m).as<ModuleObj>()->attrs.find(std::string_view(b.name));
      if (f && f->is(o)) return global_ref(m, b.name);
    }
    const Obj* f = in_.builtins().attrs.find(std::string_view(b.name));
    KILN_CHECK(f && f->is(o), Type, "torch.save: cannot pickle '", b.name, "': kiln finds no module holding it");
    global_ref("builtins", b.name);
  }
  // Functions go by reference (module and name), so only top-level ones can.
  void function(const FunctionObj& f) {
    KILN_CHECK(f.qualname.find('<') == std::string::npos, Attribute, "Can't pickle local object '", f.qualname, "'");
    const Obj* m = f.globals.is_null() ? nullptr : globals_map(f.globals).find(std::string_view("__name__"));
    global_ref(m && m->kind() == Kind::Str ? m->as<StrObj>()->value : "__main__", f.qualname);
  }
  // A collections.Counter (scheduler states hold one) pickles as
  // Counter(dict), as its __reduce__ gives it in CPython.
  bool counter(const Obj& o) {
    const InstanceObj& inst = *o.as<InstanceObj>();
    const Obj* items = inst.attrs.find(std::string_view("_d"));
    if (inst.get_class().name != "Counter" || !items || items->kind() != Kind::Dict) return false;
    global("collections", "Counter");
    out_ += '(';
    put(*items);
    out_ += "tR";
    return true;
  }
  void tensor(const TensorObj& t) {
    if (t.is_parameter) {
      global("torch._utils", "_rebuild_parameter");
      out_ += '(';
    }
    global("torch._utils", "_rebuild_tensor_v2");
    const Tensor& x = t.tensor;
    out_ += "((";
    str("storage");
    global("torch", storage_name(x.dtype()));
    str(storage_key(x));
    str(x.device().type == DeviceType::CPU ? "cpu" : x.device().str());
    integer(int64_t(x.storage()->nbytes / x.element_size()));
    out_ += "tQ";
    integer(x.offset());
    out_ += '(';
    for (int64_t s : x.sizes()) integer(s);
    out_ += "t(";
    for (int64_t s : x.strides()) integer(s);
    out_ += 't';
    out_ += t.tensor.requires_grad() && !t.is_parameter ? '\x88' : '\x89';
    empty_ordered_dict();
    out_ += "tR";
    if (!t.is_parameter) return;
    out_ += t.tensor.requires_grad() ? '\x88' : '\x89';
    empty_ordered_dict();
    out_ += "tR";
  }
  static const char* storage_name(DType d) {
    for (const auto& [dt, name] : kStorageNames)
      if (dt == d) return name;
    throw Error(detail::cat("torch.save: no storage type for dtype ", dtype_name(d)), ErrorKind::Type);
  }
  // One archive entry per storage: tensors sharing one (tied weights, views)
  // share its key, on a device too, whose storage is copied to the CPU whole, once.
  std::string storage_key(const Tensor& x) {
    auto [it, fresh] = keys_.try_emplace(x.storage().get(), std::to_string(keys_.size()));
    if (!fresh) return it->second;
    if (x.device().type == DeviceType::CPU) {
      zip_.add("archive/data/" + it->second,
               std::string(static_cast<const char*>(x.raw_data()) - x.offset() * int64_t(x.element_size()),
                           x.storage()->nbytes));
    } else {
      const int64_t n = int64_t(x.storage()->nbytes / x.element_size());
      Tensor whole = copy_to_device(storage_view(x.storage(), {n}, {1}, 0, x.dtype()), Device{});
      zip_.add("archive/data/" + it->second,
               std::string(static_cast<const char*>(whole.raw_data()), size_t(n) * x.element_size()));
    }
    return it->second;
  }

  ZipWriter& zip_;
  Interp& in_;
  std::string out_;
  std::map<const Storage*, std::string> keys_;
  std::map<const HeapObj*, uint32_t> memo_;
  std::vector<Obj> kept_;
};

// ---- unpickling -------------------------------------------------------------------------
// Globals live on the stack as this marker plus the dotted name (no Python object of ours
// stands for them); only the ones a checkpoint uses are accepted.
constexpr std::string_view kGlobal = "\x01kiln-global\x01";

class Unpickler {
 public:
  Unpickler(const std::map<std::string, std::string>& files, std::string prefix, std::string path)
      : files_(files), prefix_(std::move(prefix)), path_(std::move(path)) {}

  Obj run(const std::string& data) {
    data_ = &data;
    pos_ = 0;
    while (true) {
      const char op = byte();
      if (op == '.') break;
      step(op);
    }
    if (stack_.size() != 1) bad("stack not empty at STOP");
    return stack_.back();
  }

 private:
  [[noreturn]] void bad(const std::string& why) { corrupt(path_, "data.pkl: " + why); }
  char byte() {
    if (pos_ >= data_->size()) bad("truncated");
    return (*data_)[pos_++];
  }
  std::string bytes(size_t n) {
    if (pos_ + n > data_->size()) bad("truncated");
    std::string s = data_->substr(pos_, n);
    pos_ += n;
    return s;
  }
  uint32_t u32() { return get32(bytes(4), 0); }
  // s, checked to be UTF-8 (a Python str decodes it; a corrupt byte must not become one).
  std::string utf8(std::string s) {
    for (size_t i = 0; i < s.size();) {
      const uint8_t c = uint8_t(s[i]);
      const size_t n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
      if (n == 0 || i + n > s.size()) bad("a string that is not UTF-8");
      for (size_t k = 1; k < n; ++k)
        if ((uint8_t(s[i + k]) >> 6) != 2) bad("a string that is not UTF-8");
      i += n;
    }
    return s;
  }
  std::string line() {
    size_t end = data_->find('\n', pos_);
    if (end == std::string::npos) bad("truncated");
    std::string s = data_->substr(pos_, end - pos_);
    pos_ = end + 1;
    return s;
  }
  Obj pop() {
    if (stack_.empty()) bad("stack underflow");
    Obj o = stack_.back();
    stack_.pop_back();
    return o;
  }
  std::vector<Obj> pop_mark() {
    if (marks_.empty()) bad("no mark");
    std::vector<Obj> items(stack_.begin() + long(marks_.back()), stack_.end());
    stack_.resize(marks_.back());
    marks_.pop_back();
    return items;
  }
  Obj& top() {
    if (stack_.empty()) bad("stack underflow");
    return stack_.back();
  }
  void set_items(Obj& dict, const std::vector<Obj>& kv) {
    DictObj* d = dict.as<DictObj>();
    if (!d || kv.size() % 2) bad("SETITEMS on a non-dict");
    for (size_t i = 0; i < kv.size(); i += 2) d->map.set(kv[i], kv[i + 1]);
  }
  void memo_put(uint32_t k) { memo_[k] = top(); }
  Obj memo_get(uint32_t k) {
    auto it = memo_.find(k);
    if (it == memo_.end()) bad("memo key missing");
    return it->second;
  }

  void step(char op) {
    switch (op) {
      case '\x80': byte(); return;                  // PROTO
      case '\x95': bytes(8); return;                // FRAME
      case '(': marks_.push_back(stack_.size()); return;
      case 'N': stack_.push_back(Obj()); return;
      case '\x88': stack_.push_back(Obj::from_bool(true)); return;
      case '\x89': stack_.push_back(Obj::from_bool(false)); return;
      case 'K': stack_.push_back(Obj::from_int(uint8_t(byte()))); return;
      case 'M': stack_.push_back(Obj::from_int(get16(bytes(2), 0))); return;
      case 'J': stack_.push_back(Obj::from_int(int32_t(u32()))); return;
      case '\x8a': long1(); return;
      case 'G': real(); return;
      case 'X': stack_.push_back(make_str(utf8(bytes(u32())))); return;
      case '\x8c': stack_.push_back(make_str(utf8(bytes(uint8_t(byte()))))); return;
      case '}': stack_.push_back(make<DictObj>()); return;
      case ']': stack_.push_back(make_list({})); return;
      case ')': stack_.push_back(make_tuple({})); return;
      case '\x85': stack_.push_back(make_tuple({pop()})); return;
      case '\x86': { Obj b = pop(), a = pop(); stack_.push_back(make_tuple({a, b})); return; }
      case '\x87': { Obj c = pop(), b = pop(), a = pop(); stack_.push_back(make_tuple({a, b, c})); return; }
      case 't': stack_.push_back(make_tuple(pop_mark())); return;
      case 'l': stack_.push_back(make_list(pop_mark())); return;
      case 'e': { std::vector<Obj> xs = pop_mark(); append(top(), xs); return; }
      case 'a': { Obj x = pop(); append(top(), {x}); return; }
      case 'u': { std::vector<Obj> kv = pop_mark(); set_items(top(), kv); return; }
      case 's': { Obj v = pop(), k = pop(); set_items(top(), {k, v}); return; }
      case 'q': memo_put(uint8_t(byte())); return;
      case 'r': memo_put(u32()); return;
      case '\x94': memo_put(uint32_t(memo_.size())); return;
      case 'h': stack_.push_back(memo_get(uint8_t(byte()))); return;
      case 'j': stack_.push_back(memo_get(u32())); return;
      case 'c': { std::string m = line(); stack_.push_back(global(m, line())); return; }
      case '\x93': { Obj name = pop(), mod = pop(); stack_.push_back(global(text(mod), text(name))); return; }
      case 'Q': stack_.push_back(storage(pop())); return;
      case 'R': { Obj args = pop(), fn = pop(); stack_.push_back(reduce(fn, args)); return; }
      case '\x81': { Obj args = pop(), cls = pop(); stack_.push_back(new_object(cls, args)); return; }
      case 'b': { Obj state = pop(); build(top(), state); return; }
      default: bad(detail::cat("unsupported pickle opcode 0x", std::hex, int(uint8_t(op))));
    }
  }
  void long1() {
    const size_t n = uint8_t(byte());
    if (n > 8) bad("integer too large");
    std::string b = bytes(n);
    uint64_t v = 0;
    for (size_t i = 0; i < n; ++i) v |= uint64_t(uint8_t(b[i])) << (8 * i);
    if (n > 0 && n < 8 && (uint8_t(b[n - 1]) & 0x80)) v |= ~uint64_t(0) << (8 * n);  // sign-extend
    stack_.push_back(Obj::from_int(int64_t(v)));
  }
  void real() {
    std::string b = bytes(8);
    uint64_t bits = 0;
    for (int i = 0; i < 8; ++i) bits = bits << 8 | uint8_t(b[size_t(i)]);
    double v;
    std::memcpy(&v, &bits, 8);
    stack_.push_back(Obj::from_float(v));
  }
  void append(Obj& list, const std::vector<Obj>& xs) {
    ListObj* l = list.as<ListObj>();
    if (!l) bad("APPEND on a non-list");
    l->items.insert(l->items.end(), xs.begin(), xs.end());
  }
  std::string text(const Obj& o) {
    if (o.kind() != Kind::Str) bad("expected a string");
    return o.as<StrObj>()->value;
  }
  std::string global_name(const Obj& o) {
    std::string s = o.kind() == Kind::Str ? o.as<StrObj>()->value : "";
    if (!s.starts_with(kGlobal)) bad("REDUCE of a non-global");
    return s.substr(kGlobal.size());
  }
  const std::vector<Obj>& items(const Obj& tuple) {
    if (TupleObj* t = tuple.as<TupleObj>()) return t->items;
    bad("expected a tuple");
  }
  // ('storage', torch.<Type>Storage, key, location, numel) -> a 1-D tensor over the entry's bytes.
  Obj storage(const Obj& pid) {
    const std::vector<Obj>& f = items(pid);
    if (f.size() != 5 || text(f[0]) != "storage") bad("unknown persistent id");
    std::string type = global_name(f[1]);
    DType dtype = DType::Float32;
    bool known = false;
    for (const auto& [dt, name] : kStorageNames)
      if (type == std::string("torch.") + name) dtype = dt, known = true;
    KILN_CHECK(known, NotImplemented, "torch.load: '", path_, "' holds a ", type,
               ", a dtype kiln does not have (it has float32/64, float16, bfloat16, int64, int32 and bool)");
    // A storage named twice (a tensor and its view) is one storage, as in PyTorch.
    if (auto seen = storages_.find(text(f[2])); seen != storages_.end()) return seen->second;
    auto it = files_.find(prefix_ + "data/" + text(f[2]));
    if (it == files_.end()) bad("storage " + text(f[2]) + " missing");
    const std::string& raw = it->second;
    const int64_t numel = int64_t(raw.size() / dtype_size(dtype));
    Tensor t = empty_tensor(Shape{numel}, dtype);
    std::memcpy(t.raw_data(), raw.data(), size_t(numel) * dtype_size(dtype));
    // The storage goes where it was saved (or to map_location) once, so the
    // tensors viewing it there (tied weights, views) still share it, as in PyTorch.
    const std::string where = map_location_.empty() ? text(f[3]) : map_location_;
    if (where != "cpu") t = copy_to_device(t, parse_device(where));
    return storages_[text(f[2])] = make_tensor(t);
  }
  // What checkpoints of tensors and state dicts name: kept as markers and
  // rebuilt by reduce(). Anything else is a class or function of the script or
  // a module, found by name, and only when weights_only is off (as PyTorch).
  static bool checkpoint_global(const std::string& name) {
    return name.starts_with("torch._utils.") || (name.starts_with("torch.") && name.ends_with("Storage")) ||
           name == "collections.OrderedDict" || name == "collections.Counter";
  }
  Obj global(const std::string& module, const std::string& qualname) {
    const std::string name = module + "." + qualname;
    if (checkpoint_global(name)) return make_str(std::string(kGlobal) + name);
    if (!allow_all_ && !allowed_.count(name)) throw Error(weights_only_message(name), ErrorKind::Value);
    return resolve(module, qualname);
  }
  static std::string weights_only_message(const std::string& name) {
    return "Weights only load failed. This file can still be loaded, to do so you have two options, "
           "\x1b[1mdo those steps only if you trust the source of the checkpoint\x1b[0m. \n\t(1) In PyTorch 2.6, "
           "we changed the default value of the `weights_only` argument in `torch.load` from `False` to `True`. "
           "Re-running `torch.load` with `weights_only` set to `False` will likely succeed, but it can result in "
           "arbitrary code execution. Do it only if you got the file from a trusted source.\n\t(2) Alternatively, "
           "to load with `weights_only=True` please check the recommended steps in the following error message.\n"
           "\tWeightsUnpickler error: Unsupported global: GLOBAL " + name + " was not an allowed global by "
           "default. Please use `torch.serialization.add_safe_globals([" + name + "])` or the "
           "`torch.serialization.safe_globals([" + name + "])` context manager to allowlist this global if you "
           "trust this class/function.\n\nCheck the documentation of torch.load to learn more about types "
           "accepted by default with weights_only https://pytorch.org/docs/stable/generated/torch.load.html.";
  }
  // module.qualname as pickle finds it: __main__ is the running script; a
  // module kiln names but does not import by that name (torch.nn.modules.linear)
  // is looked up in the nearest importable parent (torch.nn).
  Obj resolve(const std::string& module, const std::string& qualname) {
    Obj scope = Obj::null();
    if (module == "__main__" && interp_->main_globals.kind() == Kind::Dict) scope = interp_->main_globals;
    if (module == "builtins") scope = interp_->builtin(qualname);
    if (module == "builtins" && !scope.is_null()) return scope;
    for (std::string m = module; scope.is_null();) {
      try {
        scope = interp_->import_module(m);
      } catch (const Error&) {
        const size_t dot = m.rfind('.');
        if (dot == std::string::npos) break;
        m.resize(dot);
      }
    }
    KILN_CHECK(!scope.is_null(), Import, "torch.load: No module named '", module, "'");
    for (size_t at = 0; at <= qualname.size();) {
      const size_t dot = std::min(qualname.find('.', at), qualname.size());
      const std::string part = qualname.substr(at, dot - at);
      const Obj* in_dict = scope.kind() == Kind::Dict ? scope.as<DictObj>()->map.find(std::string_view(part)) : nullptr;
      Obj next = in_dict ? *in_dict : scope.kind() == Kind::Dict ? Obj::null() : lookup(scope, part);
      KILN_CHECK(!next.is_null(), Attribute, "Can't get attribute '", qualname, "' on <module '", module, "'>");
      scope = next;
      at = dot + 1;
    }
    return scope;
  }
  Obj lookup(const Obj& scope, const std::string& name) {
    Obj v;
    return try_getattr(*interp_, scope, name, v) ? v : Obj::null();
  }
  // NEWOBJ: an instance of a script's class, made without running __init__.
  Obj new_object(const Obj& cls, const Obj& args) {
    const ClassObj* c = cls.as<ClassObj>();
    if (!c || c->native_kind != Kind::Instance || c->is_exception || !items(args).empty())
      bad("NEWOBJ of something kiln cannot make");
    return make<InstanceObj>(cls);
  }
  // BUILD: an instance's state through its class's __setstate__, else into
  // its attributes; a rebuilt tensor's extra state (none kiln writes) is dropped.
  void build(const Obj& target, const Obj& state) {
    auto* inst = target.as<InstanceObj>();
    if (!inst) return;
    if (inst->get_class().lookup("__setstate__").kind() == Kind::Function) {
      interp_->call_method(target, "__setstate__", {&state, 1});
      return;
    }
    const TupleObj* pair = state.as<TupleObj>();
    const DictObj* d = pair && !pair->items.empty() ? pair->items[0].as<DictObj>() : state.as<DictObj>();
    if (!d) bad("BUILD with a state that is not a dict");
    d->map.for_each([&](const Obj& k, const Obj& v) { inst->attrs.set(k, v); });
  }
  Obj reduce(const Obj& fn, const Obj& args) {
    if (fn.kind() == Kind::Class || fn.kind() == Kind::Function) return interp_->call(fn, items(args));
    const std::string name = global_name(fn);
    const std::vector<Obj>& a = items(args);
    if (name == "collections.OrderedDict") {
      Obj d = make<DictObj>();
      d.as<DictObj>()->ordered = true;
      return d;
    }
    if (name == "collections.Counter" && interp_) {
      Obj mod = interp_->import_module("collections");
      Obj cls = *mod.as<ModuleObj>()->attrs.find(std::string_view("Counter"));
      return interp_->call(cls, std::span<const Obj>(a.data(), std::min<size_t>(a.size(), 1)));
    }
    if (name == "torch._utils._rebuild_tensor_v2" && a.size() >= 5) return rebuild_tensor(a);
    if (name == "torch._utils._rebuild_parameter" && a.size() >= 2) {
      Tensor t = tensor_of(a[0], "parameter").detach();
      t.requires_grad_(a[1].kind() == Kind::Bool && a[1].as_bool());
      return make<TensorObj>(t, true);
    }
    throw Error("torch.load: '" + path_ + "' holds a " + name +
                    "; kiln loads tensors, Parameters, dicts, lists, tuples, strings and numbers",
                ErrorKind::NotImplemented);
  }
  int64_t count(const Obj& o) {
    if (o.kind() != Kind::Int || o.as_int() < 0 || o.as_int() > (int64_t(1) << 48)) bad("bad tensor geometry");
    return o.as_int();
  }
  // _rebuild_tensor_v2(storage, offset, size, stride, requires_grad, hooks): a view of the
  // storage, checked to lie inside it (a corrupt file must not reach past its bytes).
  Obj rebuild_tensor(const std::vector<Obj>& a) {
    if (a[0].kind() != Kind::Tensor) bad("tensor without a storage");
    const Tensor& base = a[0].as<TensorObj>()->tensor;
    Shape sizes, strides;
    for (const Obj& s : items(a[2])) sizes.push_back(count(s));
    for (const Obj& s : items(a[3])) strides.push_back(count(s));
    const int64_t offset = count(a[1]);
    int64_t end = offset + 1;
    bool empty = false;
    for (size_t i = 0; i < sizes.size() && i < strides.size(); ++i) {
      empty = empty || sizes[i] == 0;
      if (sizes[i] > 0) end += (sizes[i] - 1) * strides[i];
    }
    if (sizes.size() != strides.size() || (!empty && end > base.numel())) bad("tensor out of range");
    Tensor t = make_view(base, sizes, strides, empty ? 0 : offset).detach();
    if (a[4].kind() == Kind::Bool && a[4].as_bool()) t.requires_grad_(true);
    return make_tensor(t);
  }

 public:
  std::string map_location_;  // empty: each storage's saved location
  Interp* interp_ = nullptr;  // builds the prelude's classes (collections.Counter)
  bool allow_all_ = false;    // weights_only=False: any class or function, found by name
  std::set<std::string> allowed_;  // torch.serialization.add_safe_globals, as module.qualname

 private:
  const std::map<std::string, std::string>& files_;
  std::string prefix_, path_;
  const std::string* data_ = nullptr;
  size_t pos_ = 0;
  std::vector<Obj> stack_;
  std::vector<size_t> marks_;
  std::map<uint32_t, Obj> memo_;
  std::map<std::string, Obj> storages_;
};

std::string path_arg(const Obj& o, const char* fn) {
  KILN_CHECK(o.kind() == Kind::Str, NotImplemented, fn, ": kiln takes a file path (a str), got '", type_name(o),
             "'");
  return o.as<StrObj>()->value;
}

// The zip archive torch.save writes for obj.
std::string checkpoint_bytes(Interp& in, const Obj& obj) {
  ZipWriter zip;
  std::string pkl = Pickler(zip, in).run(obj);
  zip.add("archive/version", "3\n");
  zip.add("archive/byteorder", "little");
  zip.add("archive/data.pkl", pkl);
  return zip.finish();
}

// torch._C._save(obj, path)
Obj f_save(Interp& in, const CallArgs& a) {
  a.check("_save", 2, 2);
  const std::string path = path_arg(a.pos[1], "torch.save");
  std::string bytes = checkpoint_bytes(in, a.pos[0]);
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  KILN_CHECK(f.good(), Runtime, "torch.save: cannot open '", path, "' for writing: ", std::strerror(errno));
  f.write(bytes.data(), std::streamsize(bytes.size()));
  f.close();
  KILN_CHECK(f.good(), Runtime, "torch.save: writing '", path, "' failed: ", std::strerror(errno));
  return Obj();
}

// The object in checkpoint bytes; name says where they came from in errors.
// allowed: None (weights_only=False) or the module.qualname strings
// add_safe_globals allowed.
Obj load_checkpoint(Interp& in, const std::string& bytes, const std::string& name, const Obj& map_location,
                    const Obj& allowed) {
  std::map<std::string, std::string> files = read_zip(bytes, name);
  std::string prefix;
  for (const auto& [entry, _] : files)
    if (entry.ends_with("/data.pkl") && entry.find('/') == entry.size() - 9)
      prefix = entry.substr(0, entry.size() - 8);
  if (prefix.empty()) corrupt(name, "no data.pkl");
  Unpickler u(files, prefix, name);
  u.interp_ = &in;
  u.map_location_ = map_location.kind() == Kind::Str ? map_location.as<StrObj>()->value : "";
  u.allow_all_ = allowed.is_none();
  if (const ListObj* l = allowed.as<ListObj>())
    for (const Obj& n : l->items) u.allowed_.insert(str_of(n, "safe global"));
  return u.run(files.at(prefix + "data.pkl"));
}

// torch._C._load(path, map_location, allowed): map_location a device string, or "" for the saved
// ones; allowed as load_checkpoint's.
Obj f_load(Interp& in, const CallArgs& a) {
  a.check("_load", 3, 3);
  const std::string path = path_arg(a.pos[0], "torch.load");
  std::ifstream f(path, std::ios::binary);
  KILN_CHECK(f.good(), Runtime, "torch.load: cannot open '", path, "': ", std::strerror(errno));
  std::stringstream ss;
  ss << f.rdbuf();
  return load_checkpoint(in, ss.str(), path, a.pos[1], a.pos[2]);
}

// torch._C._save_bytes(obj): the checkpoint as bytes, which torch.save writes
// to a file object (io.BytesIO, open(path, 'wb')).
Obj f_save_bytes(Interp& in, const CallArgs& a) {
  a.check("_save_bytes", 1, 1);
  return make_bytes(checkpoint_bytes(in, a.pos[0]));
}

// torch._C._load_bytes(data, map_location, allowed): data is what torch.load read from a file object.
Obj f_load_bytes(Interp& in, const CallArgs& a) {
  a.check("_load_bytes", 3, 3);
  const BytesObj* b = a.pos[0].as<BytesObj>();
  KILN_CHECK(b, Type, "torch.load: the file object's read() returned " + type_name(a.pos[0]) + ", not bytes");
  return load_checkpoint(in, b->value, "<BytesIO>", a.pos[1], a.pos[2]);
}

// torch._C._file_exists(path): for torch.load's FileNotFoundError.
Obj f_file_exists(Interp&, const CallArgs& a) {
  a.check("_file_exists", 1, 1);
  std::ifstream f(path_arg(a.pos[0], "torch.load"));
  return Obj::from_bool(f.good());
}

}  // namespace

void add_serialize_natives(ModuleObj& c) {
  c.attrs.set("_save", make_builtin("_save", f_save));
  c.attrs.set("_load", make_builtin("_load", f_load));
  c.attrs.set("_save_bytes", make_builtin("_save_bytes", f_save_bytes));
  c.attrs.set("_load_bytes", make_builtin("_load_bytes", f_load_bytes));
  c.attrs.set("_file_exists", make_builtin("_file_exists", f_file_exists));
}

}  // namespace kiln::lang
