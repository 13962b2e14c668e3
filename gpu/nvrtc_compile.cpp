#include "gpu/nvrtc_compile.h"

#include <chrono>
#include <vector>

#include "core/error.h"
#include "gpu/cuda_libs.h"

namespace kiln::gpu {
namespace {

const Nvrtc& loaded_nvrtc() {
  const Nvrtc& n = nvrtc();
  KILN_CHECK(n.ok(), Runtime, "NVRTC is not available: ", n.error);
  return n;
}

// Destroys the program on every path out of nvrtc_compile.
struct Program {
  const Nvrtc& n;
  nvrtcProgram p = nullptr;
  ~Program() {
    if (p) n.nvrtcDestroyProgram(&p);
  }
};

std::string program_log(const Nvrtc& n, nvrtcProgram p) {
  size_t size = 0;
  if (n.nvrtcGetProgramLogSize(p, &size) != NVRTC_SUCCESS || size <= 1) return "";
  std::string log(size, '\0');
  n.nvrtcGetProgramLog(p, log.data());
  log.resize(size - 1);  // the trailing NUL
  return log;
}

std::string ptx_of(const Nvrtc& n, nvrtcProgram p) {
  size_t size = 0;
  n.nvrtcGetPTXSize(p, &size);
  std::string ptx(size, '\0');
  n.nvrtcGetPTX(p, ptx.data());
  if (!ptx.empty() && ptx.back() == '\0') ptx.pop_back();
  return ptx;
}

std::string cubin_of(const Nvrtc& n, nvrtcProgram p) {
  size_t size = 0;
  n.nvrtcGetCUBINSize(p, &size);
  std::string cubin(size, '\0');
  n.nvrtcGetCUBIN(p, cubin.data());
  return cubin;
}

}  // namespace

NvrtcResult nvrtc_compile(const std::string& source, const std::string& name, const NvrtcOptions& opt) {
  const Nvrtc& n = loaded_nvrtc();
  const auto start = std::chrono::steady_clock::now();
  Program prog{n};
  nvrtcResult rc = n.nvrtcCreateProgram(&prog.p, source.c_str(), name.c_str(), 0, nullptr, nullptr);
  KILN_CHECK(rc == NVRTC_SUCCESS, Runtime, "NVRTC could not create program ", name, ": ", n.nvrtcGetErrorString(rc));
  const std::string arch = "--gpu-architecture=" + opt.arch;
  // Kernels call no host code; -default-device spares every helper a __device__.
  const char* options[] = {arch.c_str(), "-default-device", "--std=c++17", "-lineinfo"};
  rc = n.nvrtcCompileProgram(prog.p, int(std::size(options)), options);
  NvrtcResult out;
  out.log = program_log(n, prog.p);
  KILN_CHECK(rc == NVRTC_SUCCESS, Runtime, "NVRTC failed to compile ", name, " for ", opt.arch, " (",
             n.nvrtcGetErrorString(rc), "):\n", out.log);
  out.is_cubin = opt.arch.rfind("sm_", 0) == 0;
  if (out.is_cubin) {
    out.image = cubin_of(n, prog.p);
    if (opt.want_ptx) out.ptx = ptx_of(n, prog.p);
  } else {
    out.ptx = ptx_of(n, prog.p);
    out.image = out.ptx;
  }
  out.compile_ns =
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - start).count();
  return out;
}

std::string nvrtc_version() {
  const Nvrtc& n = nvrtc();
  int major = 0, minor = 0;
  if (!n.ok() || n.nvrtcVersion(&major, &minor) != NVRTC_SUCCESS) return "";
  return std::to_string(major) + "." + std::to_string(minor);
}

bool nvrtc_available(std::string* why) {
  const Nvrtc& n = nvrtc();
  if (!n.ok() && why) *why = n.error;
  return n.ok();
}

}  // namespace kiln::gpu
