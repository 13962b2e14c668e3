// invoke(): the typed wrappers' route into dispatch.
#include "core/dispatch.h"
#include "core/ops.h"

#include <unordered_map>

namespace kiln {

namespace {
// Wrappers pass string literals, so the literal's address is a cheap cache key. A name built
// at run time can reuse a freed one's address, so a hit is checked against the name.
const OpDef& lookup(const char* op) {
  thread_local std::unordered_map<const char*, const OpDef*> cache;
  const OpDef*& d = cache[op];
  if (!d || d->name() != op) d = &op_table().get(op);
  return *d;
}
}  // namespace

std::vector<Tensor> invoke_multi(const char* op, std::initializer_list<Value> args) {
  const OpDef& d = lookup(op);
  return dispatch(d, bind_args(d.schema, std::span<const Value>(args.begin(), args.size()), {}, true));
}

Tensor invoke(const char* op, std::initializer_list<Value> args) { return invoke_multi(op, args).at(0); }

}  // namespace kiln
