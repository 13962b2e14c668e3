// Hand-made pending ops (and dynamic-dims specs) for the JIT's unit tests: what dispatch records
// inside a region (core/lazy.h), with the outputs the test allocated.
#pragma once

#include <string_view>
#include <vector>

#include "core/lazy.h"
#include "core/op_table.h"
#include "core/schema.h"
#include "jit/graph.h"

namespace kiln::jit {

// `name` called with positional arguments (schema order), writing `outs`.
inline lazy::PendingOp pending(std::string_view name, std::vector<Value> positional, std::vector<Tensor> outs,
                               uint32_t site = 0) {
  const OpDef& op = op_table().get(name);
  return {&op, bind_args(op.schema, positional, {}, /*all_positional=*/true), std::move(outs), site};
}

// Every int argument dynamic (automatic dynamic shapes made them runtime values).
struct AllIntsDynamic : DynamicDims {
  uint64_t mask(size_t) const override { return 0; }
  bool int_arg(size_t, size_t) const override { return true; }
};

}  // namespace kiln::jit
