#include "jit/nvrtc_check.h"

#include <cstdlib>
#include <mutex>
#include <set>
#include <vector>

#include "core/error.h"

#if KILN_HAVE_GPU
#include "gpu/cuda_codegen.h"
#include "gpu/nvrtc_compile.h"
#endif

namespace kiln::jit {

namespace {

struct Queue {
  std::mutex mu;
  std::set<std::string> seen;  // kernel IR texts
  std::vector<kir::Kernel> kernels;
};
Queue& queue() {
  static Queue q;
  return q;
}

#if KILN_HAVE_GPU
// Kernels per NVRTC program: one program amortizes NVRTC's start-up.
constexpr size_t kBatch = 64;

// KILN_NVRTC_CHECK=inject-error: every kernel fails, so tests can see the
// check report a kernel that does not compile.
std::string cuda_source(const kir::Kernel& k, size_t i) {
  static const bool inject = [] {
    const char* v = std::getenv("KILN_NVRTC_CHECK");
    return v && std::string(v) == "inject-error";
  }();
  std::string code = gpu::emit_cuda(k, "k" + std::to_string(i)).code;
  return inject ? code + "\n#error injected by KILN_NVRTC_CHECK=inject-error\n" : code;
}

std::string compile_one(const kir::Kernel& k, size_t i) {
  try {
    gpu::nvrtc_compile(cuda_source(k, i), k.name + ".cu");
    return "";
  } catch (const Error& e) {
    return "kernel " + k.name + ":\n" + k.to_text() + "\n" + e.what() + "\n";
  }
}

// One batch as one program; when it fails, each kernel alone names the culprits.
std::string compile_batch(const std::vector<kir::Kernel>& ks, size_t begin, size_t end) {
  std::string unit;
  try {
    for (size_t i = begin; i < end; ++i) unit += cuda_source(ks[i], i) + "\n";
    gpu::nvrtc_compile(unit, "kiln_nvrtc_check.cu");
    return "";
  } catch (const Error&) {
  }
  std::string report;
  for (size_t i = begin; i < end; ++i) report += compile_one(ks[i], i);
  return report.empty() ? "the kernels compile alone but not in one program (duplicate definitions?)\n" : report;
}
#endif

}  // namespace

bool nvrtc_check_enabled() {
  static const bool on = [] {
    const char* v = std::getenv("KILN_NVRTC_CHECK");
    return v && *v && std::string(v) != "0";
  }();
  return on;
}

void nvrtc_check_add(const kir::Kernel& k) {
  Queue& q = queue();
  std::string text = k.to_text();
  std::lock_guard lock(q.mu);
  if (q.seen.insert(std::move(text)).second) q.kernels.push_back(k);
}

std::string nvrtc_check_finish() {
  Queue& q = queue();
  std::lock_guard lock(q.mu);
#if KILN_HAVE_GPU
  std::string why;
  if (!gpu::nvrtc_available(&why)) return "NVRTC is not available: " + why + "\n";
  std::string report;
  for (size_t b = 0; b < q.kernels.size(); b += kBatch)
    report += compile_batch(q.kernels, b, std::min(q.kernels.size(), b + kBatch));
  q.kernels.clear();
  return report;
#else
  q.kernels.clear();
  return "this kiln was built without the GPU backend (no CUDA toolkit at configure time)\n";
#endif
}

}  // namespace kiln::jit
