// Kernel events: every op that dispatch runs becomes a Kernel event (name,
// shapes, bytes read and written, flops where known) when a trace session
// is recording, so profiles show where eager time goes.
#pragma once

#include <span>

#include "core/op_table.h"

namespace kiln {

// Records one Kernel event for `op`, which started at start_ns (trace::now_ns()).
void record_kernel_event(const OpDef& op, Args args, std::span<const Tensor> outs, int64_t start_ns);

}  // namespace kiln
