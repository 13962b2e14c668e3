#include "jit/gpu_image_cache.h"

#include <filesystem>
#include <optional>
#include <vector>

#include "gpu/cuda_codegen.h"
#include "jit/cache_file.h"
#include "jit/jit_events.h"
#include "traces/recorder.h"

namespace kiln::jit {

namespace {

namespace fs = std::filesystem;

// Sections: the key's long parts (kernel IR, CUDA C), then the payload.
const cache_file::Layout kLayout{"KILNGPU1\n", {"kernel", "source", "image", "ptx"}, {"image_kind"}};

std::vector<cache_file::KeyField> wanted_key(const std::string& kernel, const std::string& arch,
                                             const std::string& source) {
  return {{"kiln", KernelCache::kiln_version(), "kiln version"},
          {"nvrtc", gpu::nvrtc_version(), "NVRTC version"},
          {"arch", arch, "arch"},
          {"kernel", kernel, "kernel IR (a hash collision with another kernel)", false},
          {"source", source, "CUDA source (the GPU code generator changed)", false}};
}

std::string memory_key(const std::string& kernel, const std::string& arch) { return arch + "\n" + kernel; }

std::string file_name(const std::string& kernel, const std::string& arch) {
  return cache_file::hex(cache_file::fnv1a(memory_key(kernel, arch))) + ".kgpu";
}

std::string cuda_source(const kir::Kernel& k) { return gpu::emit_cuda(k, "kiln_" + k.name).code; }

}  // namespace

GpuImageCache& GpuImageCache::get() {
  static GpuImageCache* cache = [] {
    const std::string& cpu = KernelCache::get().dir();
    return new GpuImageCache(cpu.empty() ? "" : cpu + "/gpu");
  }();
  return *cache;
}

GpuImageCache::GpuImageCache(std::string dir) : dir_(std::move(dir)) {}

CacheStats GpuImageCache::stats() const {
  std::lock_guard<std::mutex> lock(mu_);
  return stats_;
}

std::string GpuImageCache::path_for(const kir::Kernel& k, const std::string& arch) const {
  if (dir_.empty()) return "";
  return dir_ + "/" + file_name(k.to_text(), arch);
}

GpuImageCache::Entry GpuImageCache::find_or_compile(const kir::Kernel& k, const std::string& arch,
                                                    const std::function<gpu::NvrtcResult()>& compile,
                                                    bool want_ptx) {
  const std::string text = k.to_text(), key = memory_key(text, arch);
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = memory_.find(key);
    if (it != memory_.end() && !(want_ptx && it->second.ptx.empty())) {
      ++stats_.memory_hits;
      Entry hit = it->second;
      hit.where = "memory";
      hit.compile_ns = 0;
      return hit;
    }
  }
  const std::string path = dir_.empty() ? "" : dir_ + "/" + file_name(text, arch);
  Entry e;
  if (!path.empty() && from_disk(k, text, arch, path, want_ptx, e)) {
    std::lock_guard<std::mutex> lock(mu_);
    ++stats_.disk_hits;
    memory_.insert_or_assign(key, e);
    return e;
  }
  gpu::NvrtcResult r = compile();
  e = Entry{std::move(r.image), r.is_cubin, std::move(r.ptx), cuda_source(k), "compiled", r.compile_ns};
  if (!path.empty()) to_disk(path, text, arch, e);
  std::lock_guard<std::mutex> lock(mu_);
  ++stats_.compiled;
  memory_.insert_or_assign(key, e);
  return e;
}

bool GpuImageCache::from_disk(const kir::Kernel& k, const std::string& text, const std::string& arch,
                              const std::string& path, bool want_ptx, Entry& out) {
  std::error_code ec;
  if (!fs::exists(path, ec)) {
    if (trace::Session::current()) events::log("cache", "miss " + k.name + " for " + arch + ": no stored GPU image");
    return false;
  }
  const std::string source = cuda_source(k);
  cache_file::Contents f;
  std::string why;
  if (cache_file::parse(kLayout, cache_file::read(path), f, why)) {
    std::vector<cache_file::KeyField> want = wanted_key(text, arch, source);
    if (std::optional<cache_file::Mismatch> m = cache_file::first_mismatch(kLayout, want, f)) why = m->describe();
  }
  if (!why.empty()) {
    events::log("cache", "rejected " + path + ": " + why + "; rebuilding it");
    std::lock_guard<std::mutex> lock(mu_);
    ++stats_.rejected;
    return false;
  }
  out.image = *f.get(kLayout, "image");
  out.is_cubin = *f.get(kLayout, "image_kind") == "cubin";
  out.ptx = *f.get(kLayout, "ptx");
  if (want_ptx && out.ptx.empty()) {
    events::log("cache", "miss " + k.name + " for " + arch + ": " + path + " holds no PTX; compiling it again");
    return false;
  }
  out.source = source;
  out.where = "disk";
  out.compile_ns = 0;
  return true;
}

void GpuImageCache::to_disk(const std::string& path, const std::string& kernel, const std::string& arch,
                            const Entry& e) {
  std::vector<cache_file::Field> head;
  for (const cache_file::KeyField& f : wanted_key(kernel, arch, e.source))
    if (f.quote) head.push_back({f.name, f.value});
  head.push_back({"image_kind", e.is_cubin ? "cubin" : "ptx"});
  std::string bytes = cache_file::serialize(kLayout, head, {kernel, e.source, e.image, e.ptx});
  std::string failed = cache_file::write_atomically(dir_, path, bytes);
  if (!failed.empty()) events::log("cache", failed + " (GPU images are not cached on disk)");
}

}  // namespace kiln::jit
