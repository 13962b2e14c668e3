// The CPU code generator: kernel IR (core/kernel_ir.h) to machine code with
// LLVM 19. Kernels are built with IRBuilder, optimized with the new pass
// manager at O3 for the host CPU (its name and features, so AVX2/AVX-512 are
// used where present), and JIT-compiled by one LLJIT per process. Inner loops
// are explicit vectors of the host's width; transcendental functions call
// glibc's libmvec vector variants, so a fused GELU is not capped by one libm
// call per element.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "core/kernel_ir.h"

namespace kiln::jit {

struct CompileOptions {
  bool keep_text = false;  // fill CompiledKernel's llvm_ir, optimized_ir and assembly
};

struct CompiledKernel {
  kir::KernelFn fn = nullptr;
  std::string symbol;  // the entry's name in the JIT
  // Phase times, for compile events.
  int64_t codegen_ns = 0, optimize_ns = 0, jit_ns = 0;
  // With keep_text: LLVM IR before and after optimization, and the host assembly.
  std::string llvm_ir, optimized_ir, assembly;
};

// A kernel compiled to a relocatable object (what the disk cache stores).
struct KernelObject {
  std::string object;        // ELF bytes for the host
  CompiledKernel compiled;   // symbol, phase times and texts (fn unset)
};

class LlvmBackend {
 public:
  // The process's backend (created on first use; thread-safe).
  static LlvmBackend& get();
  // Compiles `k`; safe to call from several threads. Throws kiln::Error when
  // the kernel IR is malformed (a message naming the expression).
  CompiledKernel compile(const kir::Kernel& k, const CompileOptions& opt = {});
  // "x86-64 sapphirerapids +avx512f,+avx2,..." : what kernels are tuned for
  // (part of the disk cache key).
  std::string target_description() const;
  std::string llvm_version() const;  // "19.1.x"
  // Compiles `k` to an object file whose entry symbol is unique to its IR
  // (kiln_<name>_<hash>), without adding it to the JIT.
  KernelObject compile_object(const kir::Kernel& k, const CompileOptions& opt = {});
  // Adds an object (from compile_object, perhaps in another process) to the
  // JIT and returns its entry; loading the same symbol twice returns the first.
  kir::KernelFn load_object(const std::string& object, const std::string& symbol);
  // Elements per vector the generated loops use for float32 (16 with AVX-512, 8 with AVX2, 4 otherwise).
  int vector_width_f32() const;

  struct Impl;

 private:
  LlvmBackend();
  ~LlvmBackend();
  std::unique_ptr<Impl> impl_;
};

}  // namespace kiln::jit
