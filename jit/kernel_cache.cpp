#include "jit/kernel_cache.h"

#include <cstdlib>
#include <filesystem>
#include <optional>
#include <vector>

#include "jit/cache_file.h"
#include "jit/jit_events.h"
#include "traces/recorder.h"

#ifndef KILN_VERSION_STRING
#define KILN_VERSION_STRING "0"
#endif

namespace kiln::jit {

namespace {

namespace fs = std::filesystem;

// A cache file's key holds the kiln, LLVM and target lines and the kernel IR
// section; `symbol` is metadata. The checksum covers the kernel IR and object.
const cache_file::Layout kLayout{"KILNOBJ1\n", {"kernel", "object"}, {"symbol"}};

// The key a cache file stores and is checked against, field by field: the
// header's kiln, LLVM and target lines, then the kernel IR section.
std::vector<cache_file::KeyField> wanted_key(const std::string& kernel) {
  LlvmBackend& b = LlvmBackend::get();
  return {{"kiln", KernelCache::kiln_version(), "kiln version"},
          {"llvm", b.llvm_version(), "LLVM version"},
          {"target", b.target_description(), "CPU features"},
          {"kernel", kernel, "kernel IR (a hash collision with another kernel)", false}};
}

std::string serialize(const std::string& kernel, const std::string& symbol, const std::string& object) {
  std::vector<cache_file::Field> head;
  for (const cache_file::KeyField& f : wanted_key(kernel))
    if (f.name != "kernel") head.push_back({f.name, f.value});
  head.push_back({"symbol", symbol});
  return cache_file::serialize(kLayout, head, {kernel, object});
}

// Which part of the key differs from a stored entry, in words; "" when none.
std::string key_difference(const cache_file::Contents& have, const std::string& kernel) {
  std::vector<cache_file::KeyField> want = wanted_key(kernel);
  std::optional<cache_file::Mismatch> m = cache_file::first_mismatch(kLayout, want, have);
  if (!m) return "";
  if (m->field->name == "target") return "CPU features: stored for " + m->stored + ", now " + m->field->value;
  return m->describe();
}

const std::string& kernel_of(const cache_file::Contents& c) { return c.sections[0]; }
const std::string& object_of(const cache_file::Contents& c) { return c.sections[1]; }

std::string read_file(const fs::path& p) { return cache_file::read(p.string()); }

std::string default_dir() {
  if (const char* d = std::getenv("KILN_CACHE_DIR")) return d;  // "" turns the disk cache off
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) return std::string(x) + "/kiln";
  if (const char* h = std::getenv("HOME"); h && *h) return std::string(h) + "/.cache/kiln";
  return "";
}

// "fused_mul_add" from the kernel text's first line "kernel fused_mul_add pointwise ...".
std::string kernel_name(const std::string& text) {
  size_t b = text.find(' ') + 1, e = text.find(' ', b);
  return text.substr(b, e - b);
}

// The nearest stored kernel for a miss report: one with the same name.
std::string nearest(const fs::path& dir, const std::string& kernel) {
  std::string name = kernel_name(kernel);
  std::error_code ec;
  size_t seen = 0;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    if (++seen > 512) break;
    if (entry.path().extension() != ".kobj") continue;
    cache_file::Contents f;
    std::string why;
    if (!cache_file::parse(kLayout, read_file(entry.path()), f, why)) continue;
    const std::string& stored = kernel_of(f);
    if (kernel_name(stored) != name) continue;
    size_t line = 1, i = 0;
    while (i < stored.size() && i < kernel.size() && stored[i] == kernel[i]) line += kernel[i++] == '\n';
    return "its kernel IR differs from the stored `" + name + "` (" + entry.path().filename().string() +
           ") from line " + std::to_string(line);
  }
  return "no stored kernel has this IR";
}

}  // namespace

std::string KernelCache::kiln_version() { return KILN_VERSION_STRING; }

KernelCache& KernelCache::get() {
  static KernelCache* cache = new KernelCache();  // lives as long as the JIT's code
  return *cache;
}

KernelCache::KernelCache() : dir_(default_dir()) {}

CacheStats KernelCache::stats() const {
  std::lock_guard<std::mutex> lock(mu_);
  return stats_;
}

CompiledKernel KernelCache::find_or_compile(const kir::Kernel& k, const CompileOptions& opt, std::string* source) {
  std::string text = k.to_text();
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = memory_.find(text);
    if (it != memory_.end() && !opt.keep_text) {
      ++stats_.memory_hits;
      if (source) *source = "memory";
      CompiledKernel hit;
      hit.fn = it->second.fn;
      hit.symbol = it->second.symbol;
      return hit;
    }
  }
  std::string path;
  if (!dir_.empty() && !opt.keep_text) {
    path = dir_ + "/" + cache_file::hex(cache_file::fnv1a(text)) + ".kobj";
    bool found = false;
    CompiledKernel ck = from_disk(text, path, &found);
    if (ck.fn) {
      std::lock_guard<std::mutex> lock(mu_);
      ++stats_.disk_hits;
      memory_.emplace(text, ck);
      if (source) *source = "disk";
      return ck;
    }
    // Explaining a miss reads other cache files: only when someone listens.
    if (!found && trace::Session::current()) events::log("cache", "miss " + k.name + ": " + nearest(dir_, text));
  }
  KernelObject obj = LlvmBackend::get().compile_object(k, opt);
  CompiledKernel ck = obj.compiled;
  ck.fn = LlvmBackend::get().load_object(obj.object, obj.compiled.symbol);
  if (!path.empty()) to_disk(text, path, obj);
  std::lock_guard<std::mutex> lock(mu_);
  ++stats_.compiled;
  memory_.emplace(text, ck);
  if (source) *source = "compiled";
  return ck;
}

CompiledKernel KernelCache::from_disk(const std::string& text, const std::string& path, bool* found) {
  std::error_code ec;
  *found = fs::exists(path, ec);
  if (!*found) return {};
  cache_file::Contents f;
  std::string why;
  if (cache_file::parse(kLayout, read_file(path), f, why)) why = key_difference(f, text);
  if (!why.empty()) {
    events::log("cache", "rejected " + path + ": " + why + "; rebuilding it");
    std::lock_guard<std::mutex> lock(mu_);
    ++stats_.rejected;
    return {};
  }
  CompiledKernel ck;
  ck.symbol = *f.get(kLayout, "symbol");  // parse saw it (a required field)
  ck.fn = LlvmBackend::get().load_object(object_of(f), ck.symbol);
  return ck;
}

// Written to a temporary name and renamed, so readers (another kiln process)
// see the old file or the new one, never half of one.
void KernelCache::to_disk(const std::string& text, const std::string& path, const KernelObject& obj) {
  std::string failed = cache_file::write_atomically(dir_, path, serialize(text, obj.compiled.symbol, obj.object));
  if (!failed.empty()) events::log("cache", failed + " (kernels are not cached on disk)");
}

}  // namespace kiln::jit
