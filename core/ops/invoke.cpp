// invoke(): the typed wrappers' route into dispatch.
#include "core/dispatch.h"
#include "core/ops.h"

namespace kiln {

std::vector<Tensor> invoke_multi(const char* op, std::initializer_list<Value> args) {
  const OpDef& d = op_table().get(op);
  return dispatch(d, bind_args(d.schema, std::span<const Value>(args.begin(), args.size()), {}, true));
}

Tensor invoke(const char* op, std::initializer_list<Value> args) { return invoke_multi(op, args).at(0); }

}  // namespace kiln
