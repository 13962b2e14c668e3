// The CUDA backend of core's device routing (core/device.h): device memory
// from the caching allocator (gpu/caching_allocator.h), copies on one stream
// per device, per-op kernels (jit/op_kernels.h) emitted as CUDA C
// (gpu/cuda_codegen.h), compiled by NVRTC for the device's architecture and
// loaded with the driver API, and float32 matmuls through cuBLAS. Every CUDA
// library is opened at first use: on a machine without a driver the backend
// reports itself unavailable with PyTorch's message and nothing else changes.
#pragma once

#include <memory>
#include <string>

#include "core/device.h"

namespace kiln::jit {

std::unique_ptr<DeviceBackend> make_cuda_backend();

// kiln run --dump-dir: each GPU kernel's kernel IR (.kir), CUDA C (.cu) and
// PTX (.ptx) are written there when compiled.
void set_cuda_dump_dir(const std::string& dir);

}  // namespace kiln::jit
