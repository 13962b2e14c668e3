// Where GPU kernel images come from: memory (by kernel IR and arch), the disk
// cache ($KILN_CACHE_DIR/gpu, next to the CPU objects of jit/kernel_cache.h,
// off when KILN_CACHE_DIR=""), or NVRTC. A disk entry is keyed by the kernel
// IR, the kiln version, the NVRTC version, the arch and the CUDA C the GPU
// code generator emits for the kernel (kiln's version digest covers only the
// CPU generator, so the emitted source stands in for the GPU generator's
// version). Like the CPU cache, a corrupt, truncated or foreign file is
// reported under KILN_LOGS=cache, naming the key part that differed, and
// rebuilt, never loaded.
#pragma once

#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <unordered_map>

#include "core/kernel_ir.h"
#include "gpu/nvrtc_compile.h"
#include "jit/kernel_cache.h"

namespace kiln::jit {

class GpuImageCache {
 public:
  static GpuImageCache& get();  // the process's cache, in KernelCache's directory + "/gpu"

  // A cache of its own in `dir` ("": memory only), for tests.
  explicit GpuImageCache(std::string dir);

  struct Entry {
    std::string image;  // what cuModuleLoadData takes: a CUBIN, or PTX
    bool is_cubin = false;
    std::string ptx;     // set when asked for (want_ptx) or when the image is PTX
    std::string source;  // the CUDA C the image was compiled from (gpu::emit_cuda, entry "kiln_<name>")
    std::string where;   // "memory", "disk" or "compiled"
    int64_t compile_ns = 0;  // NVRTC's time when compiled by this call; 0 on a hit
  };

  // The image of `k` for `arch` ("sm_90", "compute_90"). `compile` runs NVRTC
  // for it on a miss (its errors propagate; nothing is cached then) and must
  // honour want_ptx; an entry stored without the PTX a caller now wants is
  // compiled again. Thread-safe; two threads missing the same kernel at once
  // may both compile it (the first result stays).
  Entry find_or_compile(const kir::Kernel& k, const std::string& arch,
                        const std::function<gpu::NvrtcResult()>& compile, bool want_ptx);

  // The file that holds (or would hold) `k` for `arch`; "" without a disk cache.
  std::string path_for(const kir::Kernel& k, const std::string& arch) const;
  const std::string& dir() const { return dir_; }
  CacheStats stats() const;

 private:
  // The stored entry when `path` holds a valid one for the wanted key
  // (`text`: k's IR); a foreign or damaged file is logged and counted.
  bool from_disk(const kir::Kernel& k, const std::string& text, const std::string& arch, const std::string& path,
                 bool want_ptx, Entry& out);
  void to_disk(const std::string& path, const std::string& kernel, const std::string& arch, const Entry& e);

  mutable std::mutex mu_;
  const std::string dir_;
  std::unordered_map<std::string, Entry> memory_;  // by memory_key(kernel IR, arch)
  CacheStats stats_;
};

}  // namespace kiln::jit
