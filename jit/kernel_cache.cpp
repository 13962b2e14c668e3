#include "jit/kernel_cache.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "jit/jit_events.h"
#include "traces/recorder.h"

#ifndef KILN_VERSION_STRING
#define KILN_VERSION_STRING "0"
#endif

namespace kiln::jit {

namespace {

namespace fs = std::filesystem;

constexpr char kMagic[] = "KILNOBJ1\n";

uint64_t fnv1a(const std::string& s, uint64_t h = 0xcbf29ce484222325ull) {
  for (unsigned char c : s) h = (h ^ c) * 0x100000001b3ull;
  return h;
}

std::string hex(uint64_t h) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return buf;
}

// The key a cache file stores and is checked against, field by field.
struct Key {
  std::string kiln, llvm, target;
};

Key current_key() {
  LlvmBackend& b = LlvmBackend::get();
  return {KernelCache::kiln_version(), b.llvm_version(), b.target_description()};
}

// A cache file: magic, header lines "field value", a blank line, then the
// kernel IR text and the object bytes. The checksum covers both.
struct CacheFile {
  Key key;
  std::string symbol, kernel, object;
  uint64_t checksum = 0;
};

std::string serialize(const CacheFile& f) {
  std::ostringstream out;
  out << kMagic << "kiln " << f.key.kiln << "\nllvm " << f.key.llvm << "\ntarget " << f.key.target << "\nsymbol "
      << f.symbol << "\nkernel_bytes " << f.kernel.size() << "\nobject_bytes " << f.object.size() << "\nchecksum "
      << hex(fnv1a(f.object, fnv1a(f.kernel))) << "\n\n"
      << f.kernel << f.object;
  return out.str();
}

// Parses `bytes`; on failure `why` says what is wrong with the file.
bool parse(const std::string& bytes, CacheFile& f, std::string& why) {
  const size_t magic = sizeof kMagic - 1;
  if (bytes.compare(0, magic, kMagic) != 0) return why = "not a kiln cache file (bad magic)", false;
  size_t end = bytes.find("\n\n", magic);
  if (end == std::string::npos) return why = "truncated header", false;
  std::istringstream head(bytes.substr(magic, end - magic));
  size_t kernel_bytes = 0, object_bytes = 0;
  std::string checksum;
  for (std::string line; std::getline(head, line);) {
    size_t sp = line.find(' ');
    std::string field = line.substr(0, sp), value = sp == std::string::npos ? "" : line.substr(sp + 1);
    if (field == "kiln") f.key.kiln = value;
    else if (field == "llvm") f.key.llvm = value;
    else if (field == "target") f.key.target = value;
    else if (field == "symbol") f.symbol = value;
    else if (field == "kernel_bytes") kernel_bytes = std::strtoull(value.c_str(), nullptr, 10);
    else if (field == "object_bytes") object_bytes = std::strtoull(value.c_str(), nullptr, 10);
    else if (field == "checksum") checksum = value;
  }
  size_t body = end + 2;
  if (f.symbol.empty() || bytes.size() != body + kernel_bytes + object_bytes)
    return why = "truncated or padded (sizes do not match the header)", false;
  f.kernel = bytes.substr(body, kernel_bytes);
  f.object = bytes.substr(body + kernel_bytes);
  if (hex(fnv1a(f.object, fnv1a(f.kernel))) != checksum) return why = "corrupt (checksum mismatch)", false;
  return true;
}

// Which part of the key differs from a stored entry, in words; "" when none.
std::string key_difference(const Key& want, const CacheFile& have, const std::string& kernel) {
  if (have.key.kiln != want.kiln) return "kiln version: stored " + have.key.kiln + ", now " + want.kiln;
  if (have.key.llvm != want.llvm) return "LLVM version: stored " + have.key.llvm + ", now " + want.llvm;
  if (have.key.target != want.target)
    return "CPU features: stored for " + have.key.target + ", now " + want.target;
  if (have.kernel != kernel) return "kernel IR (a hash collision with another kernel)";
  return "";
}

std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

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
    CacheFile f;
    std::string why;
    if (!parse(read_file(entry.path()), f, why)) continue;
    if (kernel_name(f.kernel) != name) continue;
    size_t line = 1, i = 0;
    while (i < f.kernel.size() && i < kernel.size() && f.kernel[i] == kernel[i]) line += kernel[i++] == '\n';
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
    path = dir_ + "/" + hex(fnv1a(text)) + ".kobj";
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
  CacheFile f;
  std::string why;
  if (parse(read_file(path), f, why)) why = key_difference(current_key(), f, text);
  if (!why.empty()) {
    events::log("cache", "rejected " + path + ": " + why + "; rebuilding it");
    std::lock_guard<std::mutex> lock(mu_);
    ++stats_.rejected;
    return {};
  }
  CompiledKernel ck;
  ck.symbol = f.symbol;
  ck.fn = LlvmBackend::get().load_object(f.object, f.symbol);
  return ck;
}

// Written to a temporary name and renamed, so readers (another kiln process)
// see the old file or the new one, never half of one.
void KernelCache::to_disk(const std::string& text, const std::string& path, const KernelObject& obj) {
  std::error_code ec;
  fs::create_directories(dir_, ec);
  if (ec) {
    events::log("cache", "cannot create " + dir_ + ": " + ec.message() + " (kernels are not cached on disk)");
    return;
  }
  CacheFile f{current_key(), obj.compiled.symbol, text, obj.object, 0};
  std::string tmp = path + ".tmp" + std::to_string(::getpid());
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out << serialize(f);
    if (!out) {
      events::log("cache", "cannot write " + tmp + " (kernels are not cached on disk)");
      fs::remove(tmp, ec);
      return;
    }
  }
  fs::rename(tmp, path, ec);
  if (ec) fs::remove(tmp, ec);
}

}  // namespace kiln::jit
