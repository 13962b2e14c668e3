// Compiling many emitted kernels with NVRTC in one translation unit (one
// call per ~100 kernels is far faster than one each), and, when the batch
// fails, finding the kernel NVRTC rejects: its IR text, NVRTC's log and its
// source go into the test failure.
#pragma once

#include <string>
#include <vector>

#include "core/kernel_ir.h"
#include "gpu/nvrtc_compile.h"

namespace kiln::gpu::test {

class NvrtcBatch {
 public:
  // Emits `k` as the entry `entry` (unique within the batch) and adds it.
  void add(kir::Kernel k, const std::string& entry);
  // Adds `source` as the code of `k` (to test this helper's failure report).
  void add_source(kir::Kernel k, const std::string& entry, std::string source);
  size_t size() const { return kernels_.size(); }

  // Compiles the batch for opt.arch; checks every entry is in the PTX.
  // Records gtest failures (never throws); true when all compiled.
  bool compile(const NvrtcOptions& opt) const;

 private:
  std::vector<kir::Kernel> kernels_;
  std::vector<std::string> entries_, sources_;
};

}  // namespace kiln::gpu::test
