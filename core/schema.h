// Parsed op schemas in PyTorch's notation, and binding of call arguments to
// them (positional, keyword-only after '*', defaults, PyTorch's coercions).
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/value.h"

namespace kiln {

enum class ArgType : uint8_t { Tensor, TensorList, Int, IntList, Float, Bool, Scalar, DType, Str };

struct ArgSpec {
  std::string name;
  ArgType type = ArgType::Tensor;
  bool optional = false;   // "int?"
  bool kwarg_only = false; // after '*'
  std::optional<Value> default_value;
};

struct Schema {
  std::string name;
  std::vector<ArgSpec> args;
  std::vector<ArgType> returns;  // "Tensor[]" is one TensorList entry
  int index_of(std::string_view arg) const;  // -1 if absent
  std::string str() const;
};

Schema parse_schema(std::string_view text);

using Kwargs = std::vector<std::pair<std::string, Value>>;

// Binds a call to the schema: returns one Value per schema argument. Python
// numbers passed for Tensor args become wrapped-number tensors, an int passed
// for int[] becomes a one-element list, ints are accepted for floats.
// Errors read like PyTorch's ("add() missing required argument 'other'").
// `all_positional` lets C++ callers pass keyword-only arguments by position.
std::vector<Value> bind_args(const Schema& s, std::span<const Value> positional, const Kwargs& kwargs = {},
                             bool all_positional = false);

}  // namespace kiln
