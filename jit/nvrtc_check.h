// KILN_NVRTC_CHECK=1: every kernel the run generates (fused kernels of
// traced graphs, and the eager per-op kernels of a device backend) is also
// emitted as CUDA C and compiled by NVRTC for sm_90, which needs no GPU. The
// test suites run with it, so code generation errors for the GPU show up on
// machines that have none. Kernels are collected and compiled in batches
// (one NVRTC program holds many kernels) when the run ends.
#pragma once

#include <string>

#include "core/kernel_ir.h"

namespace kiln::jit {

// Whether KILN_NVRTC_CHECK is set (read once).
bool nvrtc_check_enabled();
// Queues `k` (deduplicated by its IR text).
void nvrtc_check_add(const kir::Kernel& k);
// Compiles every queued kernel. Returns "" when all compiled, else a report
// naming each kernel that did not (its IR and NVRTC's log). A build without
// the GPU backend, or a machine without NVRTC, reports that instead.
std::string nvrtc_check_finish();

}  // namespace kiln::jit
