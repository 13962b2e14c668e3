#include "core/schema.h"

#include <cctype>
#include <cstdlib>
#include <sstream>

namespace kiln {

namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

// Splits on commas that are not inside [] or ().
std::vector<std::string_view> split_top(std::string_view s) {
  std::vector<std::string_view> parts;
  int depth = 0;
  size_t start = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '[' || s[i] == '(') ++depth;
    if (s[i] == ']' || s[i] == ')') --depth;
    if (s[i] == ',' && depth == 0) {
      parts.push_back(trim(s.substr(start, i - start)));
      start = i + 1;
    }
  }
  if (!trim(s.substr(start)).empty()) parts.push_back(trim(s.substr(start)));
  return parts;
}

ArgType parse_type(std::string_view t, bool* optional) {
  *optional = !t.empty() && t.back() == '?';
  if (*optional) t.remove_suffix(1);
  if (t == "Tensor") return ArgType::Tensor;
  if (t == "Tensor[]") return ArgType::TensorList;
  if (t == "int" || t == "SymInt") return ArgType::Int;
  if (t.starts_with("int[") || t.starts_with("SymInt[")) return ArgType::IntList;
  if (t == "float") return ArgType::Float;
  if (t == "bool") return ArgType::Bool;
  if (t == "Scalar") return ArgType::Scalar;
  if (t == "ScalarType") return ArgType::DType;
  if (t == "str") return ArgType::Str;
  throw Error("op schema: unknown type '" + std::string(t) + "'");
}

Value parse_default(std::string_view d, ArgType type) {
  if (d == "None") return Value();
  if (d == "True") return Value(true);
  if (d == "False") return Value(false);
  if (d.front() == '[') {
    Shape ints;
    for (auto p : split_top(d.substr(1, d.size() - 2))) ints.push_back(std::strtoll(std::string(p).c_str(), nullptr, 10));
    return Value(ints);
  }
  if (d.front() == '"' || d.front() == '\'') return Value(std::string(d.substr(1, d.size() - 2)));
  std::string s(d);
  bool is_float = s.find_first_of(".eE") != std::string::npos || s == "inf" || s == "-inf";
  if (type == ArgType::Float || (type == ArgType::Scalar && is_float)) return Value(std::strtod(s.c_str(), nullptr));
  if (type == ArgType::IntList) return Value(Shape{std::strtoll(s.c_str(), nullptr, 10)});
  return Value(int64_t(std::strtoll(s.c_str(), nullptr, 10)));
}

}  // namespace

Schema parse_schema(std::string_view text) {
  Schema s;
  size_t lp = text.find('('), arrow = text.rfind("->");
  KILN_CHECK(lp != std::string_view::npos && arrow != std::string_view::npos, Runtime,
             "malformed op schema: ", text);
  size_t rp = text.rfind(')', arrow);
  s.name = std::string(trim(text.substr(0, lp)));
  bool kwarg_only = false;
  for (auto part : split_top(text.substr(lp + 1, rp - lp - 1))) {
    if (part == "*") {
      kwarg_only = true;
      continue;
    }
    ArgSpec a;
    size_t eq = part.find('=');
    std::string_view decl = trim(part.substr(0, eq));
    size_t sp = decl.rfind(' ');
    KILN_CHECK(sp != std::string_view::npos, Runtime, "malformed op schema argument: ", part);
    a.name = std::string(decl.substr(sp + 1));
    a.type = parse_type(trim(decl.substr(0, sp)), &a.optional);
    a.kwarg_only = kwarg_only;
    if (eq != std::string_view::npos) a.default_value = parse_default(trim(part.substr(eq + 1)), a.type);
    s.args.push_back(std::move(a));
  }
  std::string_view ret = trim(text.substr(arrow + 2));
  if (ret.front() == '(') ret = ret.substr(1, ret.size() - 2);
  for (auto r : split_top(ret)) {
    bool opt;
    size_t sp = r.find(' ');  // named returns: "Tensor values"
    s.returns.push_back(parse_type(sp == std::string_view::npos ? r : r.substr(0, sp), &opt));
  }
  return s;
}

int Schema::index_of(std::string_view arg) const {
  for (size_t i = 0; i < args.size(); ++i)
    if (args[i].name == arg) return int(i);
  return -1;
}

std::string Schema::str() const {
  std::ostringstream os;
  os << name << '(';
  for (size_t i = 0; i < args.size(); ++i) os << (i ? ", " : "") << args[i].name;
  os << ')';
  return os.str();
}

namespace {

// Applies PyTorch's argument coercions; throws a TypeError naming the argument.
// `position`: the 1-based place a positional argument had in the call, shown as PyTorch's parser does;
// 0 for a keyword, or where a method's receiver makes the place unknown here.
Value coerce(const Schema& s, const ArgSpec& a, const Value& v, size_t position = 0) {
  auto bad = [&]() -> Error {
    const std::string where = position ? " (position " + std::to_string(position) + ")" : "";
    return Error(s.name + "(): argument '" + a.name + "'" + where + " must be " +
                     std::string(a.type == ArgType::Tensor ? "Tensor" : a.type == ArgType::IntList ? "tuple of ints"
                                 : a.type == ArgType::TensorList ? "tuple of Tensors" : a.type == ArgType::DType ? "torch.dtype"
                                 : a.type == ArgType::Str ? "str" : a.type == ArgType::Bool ? "bool"
                                 : a.type == ArgType::Float ? "float" : a.type == ArgType::Int ? "int" : "Number") +
                     ", not " + v.type_name(),
                 ErrorKind::Type);
  };
  if (v.is_none()) {
    if (a.optional || (a.default_value && a.default_value->is_none())) return v;
    throw bad();
  }
  switch (a.type) {
    case ArgType::Tensor:
      if (v.is_tensor()) return v;
      if (v.is_bool()) return Value(scalar_tensor(v.to_double(), DType::Bool, true));
      if (v.is_int()) return Value(scalar_tensor(v.to_double(), DType::Int64, true));
      if (v.is_double()) return Value(scalar_tensor(v.to_double(), DType::Float64, true));
      throw bad();
    case ArgType::TensorList:
      if (v.is_tensor_list()) return v;
      // [] arrives as an empty int list: the op's own check words the emptiness.
      if (v.is_int_list() && v.int_list().empty()) return Value(std::vector<Tensor>{});
      // A list of numbers: PyTorch names the first element and the argument's 0-based place.
      if (v.is_int_list() && position)
        throw Error("expected Tensor as element 0 in argument " + std::to_string(position - 1) + ", but got int",
                    ErrorKind::Type);
      throw bad();
    case ArgType::Int:
      if (v.is_int() || v.is_bool()) return Value(v.to_int());
      throw bad();
    case ArgType::IntList:
      if (v.is_int_list()) return v;
      if (v.is_int()) return Value(Shape{v.to_int()});
      throw bad();
    case ArgType::Float:
      if (v.is_number()) return Value(v.to_double());
      throw bad();
    case ArgType::Bool:
      if (v.is_bool()) return v;
      throw bad();
    case ArgType::Scalar:
      if (v.is_number()) return v;
      if (v.is_tensor() && v.tensor().numel() == 1) return Value(v.tensor().item_double());
      throw bad();
    case ArgType::DType:
      if (v.is_dtype()) return v;
      throw bad();
    case ArgType::Str:
      if (v.is_string()) return v;
      throw bad();
  }
  throw bad();
}

// The argument a Python keyword binds to. Python's input is aten's self; the numpy names follow PyTorch's
// numpy_compatibility_arg_names table.
int keyword_index(const Schema& s, std::string_view name) {
  int i = s.index_of(name);
  if (i >= 0) return i;
  if (name == "axis") return s.index_of("dim");
  if (name == "keepdims") return s.index_of("keepdim");
  if (name == "x2") return s.index_of("other");
  if (name == "input" || name == "x" || name == "a" || name == "x1") {
    i = s.index_of("input");
    return i >= 0 ? i : s.index_of("self");
  }
  return -1;
}

}  // namespace

std::vector<Value> bind_args(const Schema& s, std::span<const Value> positional, const Kwargs& kwargs,
                             bool all_positional) {
  std::vector<Value> out(s.args.size());
  SmallVec<uint8_t, 16> set(s.args.size(), 0);
  size_t max_pos = 0;
  while (max_pos < s.args.size() && (all_positional || !s.args[max_pos].kwarg_only)) ++max_pos;
  KILN_CHECK(positional.size() <= max_pos, Type, s.name, "() takes ", max_pos,
             " positional arguments but ", positional.size(), " were given");
  // Without a self the place is known: t.f(x) and torch.f(t, x) count self differently.
  const bool counted = s.args.empty() || s.args[0].name != "self";
  for (size_t i = 0; i < positional.size(); ++i) {
    out[i] = coerce(s, s.args[i], positional[i], counted ? i + 1 : 0);
    set[i] = true;
  }
  for (const auto& [name, v] : kwargs) {
    int i = keyword_index(s, name);
    // An alias next to its argument's own name is one keyword too many, as in PyTorch.
    if (i >= 0 && name != s.args[size_t(i)].name)
      for (const auto& kw : kwargs)
        if (kw.first == s.args[size_t(i)].name) i = -1;
    KILN_CHECK(i >= 0, Type, s.name, "() got an unexpected keyword argument '", name, "'");
    KILN_CHECK(!set[size_t(i)], Type, s.name, "() got multiple values for argument '", name, "'");
    out[size_t(i)] = coerce(s, s.args[size_t(i)], v);
    set[size_t(i)] = true;
  }
  for (size_t i = 0; i < s.args.size(); ++i) {
    if (set[i]) continue;
    const ArgSpec& a = s.args[i];
    KILN_CHECK(a.default_value.has_value() || a.optional, Type, s.name, "() missing required argument '",
               a.name, "' (pos ", i + 1, ")");
    if (a.default_value) out[i] = *a.default_value;
  }
  return out;
}

}  // namespace kiln
