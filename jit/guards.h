// Guards: what a compiled graph relied on, as a flat sequence of checks.
//
// A region's pending ops are reduced to a Signature: per op its identity, per
// argument where each tensor came from (an input or an earlier node's output),
// and for tensor inputs dtype, sizes, strides and requires_grad; constants
// (int[], int, bool, dtype, str, None) by value; scalars by type only (their
// values are graph inputs). Dims marked dynamic are not checked. Checking an
// entry is one comparison of two flat arrays; a cache finds its entry by hash
// and then checks it. When no entry matches, first_mismatch() names the first
// guard that failed against an entry, with expected and actual values.
#pragma once

#include <cstdint>
#include <cstring>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/lazy.h"

namespace kiln::jit {

// One check. POD, so an entry check is a memcmp of two arrays.
struct Guard {
  enum class What : uint8_t {
    Op,            // value: the op's index in op_table().all()
    ArgKind,       // value: tag of the Value alternative at this argument (every argument
                   // but a Scalar graph input, which gets ScalarType instead)
    Source,        // value: (node << 16 | out) + 1 for a node output, 0 for a new input,
                   // 1 << 63 | k for tensor input k used again, ~0 for None / undefined
    InputDType,    // value: DType | wrapped number << 8 | DeviceType << 16 | device index << 24
    InputDim,      // value: size of dim `dim` (not emitted for dynamic dims)
    InputRank,     // value: number of dims
    InputStride,   // value: stride of dim `dim` (not emitted for dynamic dims); 1 << 63 when the
                   // dim is laid out contiguously after the dims to its right or has size 1,
                   // so a dynamic dim's size does not leak into the other dims' strides
    InputRequiresGrad,
    ConstValue,    // value: int and bool: the value; float: its bits; dtype: DType; str: a
                   // hash; int[]: ListLength, then one ConstValue per element (dim: index)
    ScalarType,    // value: 0 int, 1 float, 2 bool
    ListLength,    // value: length of a Tensor[] or int[] argument
  };
  uint32_t node = 0;   // op index within the region
  uint16_t arg = 0;    // argument index in schema order
  uint8_t what = 0;    // What
  // InputDim/InputStride: the dim. Source and int[] ConstValue: the list
  // element index (mod 256; informational). A tensor input's guards follow
  // its Source guard, so which element they belong to is positional.
  uint8_t dim = 0;
  uint64_t value = 0;
  bool operator==(const Guard&) const = default;
};
static_assert(sizeof(Guard) == 16, "no padding: signatures compare guards with memcmp");

// Which dims of which tensor inputs are dynamic (by input order of first use),
// and which int / int[] arguments are (by node and argument index): their
// values are read from each run's ops, like a scalar input's.
struct DynamicSpec {
  std::vector<uint64_t> masks;  // masks[i]: bit d set: dim d of input i is dynamic
  std::vector<uint64_t> ints;   // sorted node << 32 | arg
  uint64_t mask(size_t input) const { return input < masks.size() ? masks[input] : 0; }
  bool int_arg(uint32_t node, uint32_t arg) const;
  void add_int(uint32_t node, uint32_t arg);
  bool any() const;
};

struct Signature {
  std::vector<Guard> guards;
  uint64_t hash = 0;  // of guards, for the cache lookup
  bool operator==(const Signature& o) const {
    return hash == o.hash && guards.size() == o.guards.size() &&
           (guards.empty() || std::memcmp(guards.data(), o.guards.data(), guards.size() * sizeof(Guard)) == 0);
  }
};

Signature make_signature(std::span<const lazy::PendingOp> ops, const DynamicSpec& dynamic);

// The first guard of `entry` that `now` fails, worded for a user:
//   "`mm` at model.py:12, argument `self` (input 0): size of dim 0: expected 64, got 32"
// plus, where one exists, the fix ("mark the dim dynamic with torch._dynamo.mark_dynamic(x, 0)").
struct Mismatch {
  std::string guard;     // what was checked
  std::string expected;  // "64"
  std::string actual;    // "32"
  std::string fix;       // "" when none
  // True when every difference is a tensor input's dim size or an int argument's
  // value: what automatic dynamic shapes can make symbolic.
  bool only_sizes = false;
  std::vector<std::pair<size_t, int>> size_dims;  // (input, dim) pairs that differ, when only_sizes
  std::vector<std::pair<uint32_t, uint32_t>> int_args;  // (node, arg) ints that differ, when only_sizes
};
// `site_name(site)` names a PendingOp::site ("model.py:12"); may be empty.
std::optional<Mismatch> first_mismatch(const Signature& entry, const Signature& now,
                                       std::span<const lazy::PendingOp> now_ops,
                                       std::string (*site_name)(uint32_t site) = nullptr);

}  // namespace kiln::jit
