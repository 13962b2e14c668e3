// Internal to the LLVM backend (jit/llvm_*.cpp, jit/vector_math.cpp): what the
// IR emitter needs to know about the host, and its entry points.
#pragma once

#include <string>

#include "core/kernel_ir.h"

namespace llvm {
class Module;
class Function;
}  // namespace llvm

namespace kiln::jit {

struct CodegenTarget {
  std::string cpu;        // "rocketlake"
  std::string features;   // "+avx2,+avx512f,-amx-tile,..." as the TargetMachine has them
  int width_f32 = 4;      // lanes of the generated loops for 32-bit types
  int vector_bits = 128;  // the widest vector register: 512, 256 or 128
  bool avx2 = false;      // picks libmvec's 'd' over 'c' variants for 256-bit vectors
  bool avx512 = false;    // AVX-512 F and VL: exp scales by 2^n with vscalefps
  // A kernel marked kir::Kernel::streams stores non-temporally in launches
  // whose element stores write at least this many bytes (x86 only; 0: never;
  // core/cpu_cache.h).
  int64_t stream_bytes = 0;
};


// Emits `k` (already checked) into `m` as the function `symbol` with the
// KernelFn ABI.
llvm::Function* emit_kernel(const kir::Kernel& k, const std::string& symbol, const CodegenTarget& t, llvm::Module& m);

}  // namespace kiln::jit
