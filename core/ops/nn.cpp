#include "core/ops/common.h"

namespace kiln {

void register_nn_ops(OpTable&) {}

}  // namespace kiln
