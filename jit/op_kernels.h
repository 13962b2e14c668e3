// Eager kernels for devices other than the CPU: one op becomes a one-node
// graph that goes through the same fusion pass, and so the same op-table
// lowerings, as traced graphs. A device backend compiles the kernel for its
// device (CUDA C through NVRTC; the emulated device through LLVM) and binds
// it with bind_args (jit/launch.h). There is no second kernel library.
#pragma once

#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/lazy.h"
#include "jit/fusion.h"

namespace kiln::jit {

class OpKernels {
 public:
  // The kernel that runs `op` (a functional op; for an in-place use, outs
  // holds self) on `p`'s tensors on `device`; nullptr when its lowering does
  // not cover this use (views, matmuls, an unsupported dtype or dim). Cached
  // by the op's guard signature, so scalar values are kernel parameters.
  // A reduction over other dims than the last is rewritten in `p` first, as
  // one over the last dim of a view (launch the kernel on `p` as rewritten).
  const FusedKernel* find(lazy::PendingOp& p, Device device);
  // The one-op launches `op` is made of on a device: itself, or for cat one
  // copy (clone) per input into its slice of the output.
  static std::vector<lazy::PendingOp> pieces(const OpDef& op, const Args& args, const std::vector<Tensor>& outs);
  size_t size() const;

 private:
  mutable std::mutex mu_;
  std::unordered_map<std::string, std::unique_ptr<FusedKernel>> by_signature_;  // null: no kernel
};

}  // namespace kiln::jit
