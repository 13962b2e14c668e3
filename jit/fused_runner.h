// How the JIT runs a traced graph's fused kernels on a device: the device
// backends (jit/cuda_device.cpp, jit/emulated_device.cpp) compile kernel IR
// for their device and launch it on one run's tensors. The CPU's kernels go
// through the LLVM backend and jit/launch.h instead.
#pragma once

#include <span>
#include <string>

#include "core/device.h"
#include "core/lazy.h"
#include "jit/fusion.h"

namespace kiln::jit {

class FusedRunner {
 public:
  virtual ~FusedRunner() = default;
  // What prepare() made: the backend's handle to the code, which launch()
  // takes so a launch looks nothing up, and where the code came from
  // ("compiled", "disk" or "memory").
  struct Prepared {
    const void* handle = nullptr;
    std::string where;
  };
  // Compiles `k` for `device` (the compile queue calls it before the first
  // launch); throws kiln::Error when it does not compile.
  virtual Prepared prepare(const kir::Kernel& k, Device device) = 0;
  // Runs fk, prepared as `handle`, on this run's tensors; false when they do
  // not fit what it was compiled for (the caller then runs its nodes eagerly).
  virtual bool launch(const FusedKernel& fk, const void* handle, std::span<const lazy::PendingOp> ops) = 0;
};

// The installed backend's runner for `device`; nullptr for the CPU or when
// no device backend is installed.
FusedRunner* fused_runner(Device device);

}  // namespace kiln::jit
