// Which CUDA backend `kiln` installs into core (core/device.h): the real
// one (jit/cuda_device.cpp: CUDA driver, NVRTC, cuBLAS, all dlopen'd), or
// the emulated device when KILN_EMULATE_CUDA=1 (jit/emulated_device.h).
// A build without the CUDA toolkit installs none: scripts asking for cuda
// get "Torch not compiled with CUDA enabled", as from a CPU-only PyTorch.
#pragma once

#include <string>

namespace kiln::jit {

void install_cuda_backend();
// kiln run --dump-dir: where the GPU backend writes its kernels' CUDA C and PTX.
void set_device_dump_dir(const std::string& dir);

}  // namespace kiln::jit
