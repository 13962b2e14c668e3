#include "core/ops/common.h"

namespace kiln {

void register_index_ops(OpTable&) {}

}  // namespace kiln
