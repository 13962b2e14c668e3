// Where compiled kernels come from: memory (by kernel IR: identical kernels of
// different graphs compile once), the disk cache ($KILN_CACHE_DIR, default
// ~/.cache/kiln: object files keyed by the kernel IR, the kiln version, the
// LLVM version and the CPU the code was tuned for), or the LLVM backend.
//
// A cache file carries its whole key and a checksum: a corrupt, truncated or
// foreign file (another CPU, another LLVM, a hash collision) is detected,
// reported under KILN_LOGS=cache, and rebuilt, never loaded.
#pragma once

#include <cstdint>
#include <mutex>
#include <string>
#include <unordered_map>

#include "jit/llvm_backend.h"

namespace kiln::jit {

struct CacheStats {
  uint64_t memory_hits = 0, disk_hits = 0, compiled = 0, rejected = 0;
};

class KernelCache {
 public:
  static KernelCache& get();  // the process's cache (thread-safe)

  // The kernel's entry, compiled or loaded. `ck` receives phase times (and
  // texts when asked) of a compile; on a hit only ck.fn and ck.symbol are set.
  // `source` says where it came from: "memory", "disk" or "compiled".
  CompiledKernel find_or_compile(const kir::Kernel& k, const CompileOptions& opt, std::string* source = nullptr);

  CacheStats stats() const;
  const std::string& dir() const { return dir_; }  // "" when the disk cache is off (KILN_CACHE_DIR="")

  // The disk key's parts, for tests and reports.
  static std::string kiln_version();

 private:
  KernelCache();
  CompiledKernel from_disk(const std::string& text, const std::string& path, bool* found);
  void to_disk(const std::string& text, const std::string& path, const KernelObject& obj);

  mutable std::mutex mu_;
  std::string dir_;
  std::unordered_map<std::string, CompiledKernel> memory_;  // by kernel IR text
  CacheStats stats_;
};

}  // namespace kiln::jit
