// KILN_EMULATE_CUDA=1: a stand-in CUDA device whose memory is host memory
// and whose kernels are the per-op kernels (jit/op_kernels.h) compiled by
// the LLVM backend. Everything a script does with device="cuda" runs the
// device path for real (dispatch routing, transfers, autograd across
// devices, mixed-device errors, the CPU fallback for ops without a device
// kernel) on machines without a GPU, so CI checks it; only the CUDA calls
// themselves are not exercised. torch.cuda.get_device_name() says
// "Kiln emulated CUDA device" so no one mistakes it for a GPU.
#pragma once

#include <memory>

#include "core/device.h"

namespace kiln::jit {

std::unique_ptr<DeviceBackend> make_emulated_cuda();

}  // namespace kiln::jit
