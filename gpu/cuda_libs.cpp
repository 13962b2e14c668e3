#include "gpu/cuda_libs.h"

#include <dlfcn.h>

#include <cstdlib>
#include <vector>

#ifndef KILN_CUDA_LIB_DIR
#define KILN_CUDA_LIB_DIR "/usr/local/cuda/lib64"
#endif

namespace kiln::gpu {
namespace {

// Where a library may live, most specific first.
std::vector<std::string> candidates(const std::string& soname) {
  std::vector<std::string> out{soname};
  if (const char* home = std::getenv("KILN_CUDA_HOME"); home && *home)
    out.push_back(std::string(home) + "/lib64/" + soname);
  out.push_back("/usr/local/cuda/lib64/" + soname);
  out.push_back(std::string(KILN_CUDA_LIB_DIR) + "/" + soname);
  return out;
}

// dlopen's handle for the first candidate that opens; `error` names every
// place tried when none does.
void* open_library(const std::string& soname, std::string& error) {
  std::string tried;
  for (const std::string& path : candidates(soname)) {
    if (void* h = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL)) return h;
    tried += "\n  " + path + ": " + dlerror();
  }
  error = "cannot load " + soname + " (set KILN_CUDA_HOME to the CUDA toolkit):" + tried;
  return nullptr;
}

// Resolves table entries by name; remembers the first missing symbol.
class Resolver {
 public:
  Resolver(const std::string& soname, std::string& error) : soname_(soname), error_(error) {
    handle_ = open_library(soname, error_);
  }
  template <class Fn>
  void operator()(Fn& fn, const char* symbol) {
    if (!handle_) return;
    fn = reinterpret_cast<Fn>(dlsym(handle_, symbol));
    if (!fn && error_.empty()) error_ = soname_ + " has no symbol " + symbol + " (a toolkit older than CUDA 12?)";
  }

 private:
  std::string soname_;
  std::string& error_;
  void* handle_ = nullptr;
};

// The symbol of a member after the CUDA headers' renaming macros
// (cuMemAlloc -> "cuMemAlloc_v2").
#define KILN_SYMBOL_NAME(x) #x
#define KILN_RESOLVE(r, table, fn) r(table.fn, KILN_SYMBOL_NAME(fn))
#define KILN_RESOLVE_EXPANDED(r, table, fn) KILN_RESOLVE(r, table, fn)

Nvrtc load_nvrtc() {
  Nvrtc t;
  Resolver r("libnvrtc.so." + std::to_string(CUDA_VERSION / 1000), t.error);
#define R(fn) KILN_RESOLVE_EXPANDED(r, t, fn)
  R(nvrtcVersion); R(nvrtcGetErrorString); R(nvrtcCreateProgram); R(nvrtcDestroyProgram);
  R(nvrtcCompileProgram); R(nvrtcGetProgramLogSize); R(nvrtcGetProgramLog); R(nvrtcGetPTXSize);
  R(nvrtcGetPTX); R(nvrtcGetCUBINSize); R(nvrtcGetCUBIN);
#undef R
  return t;
}

Driver load_driver() {
  Driver t;
  Resolver r("libcuda.so.1", t.error);
#define R(fn) KILN_RESOLVE_EXPANDED(r, t, fn)
  R(cuInit); R(cuDriverGetVersion); R(cuGetErrorString); R(cuDeviceGetCount); R(cuDeviceGet);
  R(cuDeviceGetName); R(cuDeviceGetAttribute); R(cuDeviceTotalMem); R(cuDevicePrimaryCtxRetain);
  R(cuCtxSetCurrent); R(cuCtxSynchronize); R(cuStreamCreate); R(cuStreamSynchronize); R(cuMemAlloc);
  R(cuMemFree); R(cuMemAllocHost); R(cuMemFreeHost); R(cuMemcpyHtoDAsync); R(cuMemcpyDtoHAsync);
  R(cuMemcpyDtoDAsync); R(cuMemsetD8Async); R(cuModuleLoadData); R(cuModuleGetFunction); R(cuLaunchKernel);
  R(cuEventCreate); R(cuEventRecord); R(cuEventQuery); R(cuEventSynchronize); R(cuEventElapsedTime);
  R(cuEventDestroy);
  R(cuMemGetInfo);
#undef R
  return t;
}

Cublas load_cublas() {
  Cublas t;
  Resolver r("libcublas.so." + std::to_string(CUBLAS_VER_MAJOR), t.error);
#define R(fn) KILN_RESOLVE_EXPANDED(r, t, fn)
  R(cublasCreate); R(cublasSetStream); R(cublasSetMathMode); R(cublasGemmEx); R(cublasGemmStridedBatchedEx);
#undef R
  return t;
}

Cupti load_cupti() {
  Cupti t;
  Resolver r("libcupti.so." + std::to_string(CUDA_VERSION / 1000), t.error);
#define R(fn) KILN_RESOLVE_EXPANDED(r, t, fn)
  R(cuptiActivityEnable); R(cuptiActivityDisable); R(cuptiActivityRegisterCallbacks); R(cuptiActivityFlushAll);
  R(cuptiActivityGetNextRecord); R(cuptiGetTimestamp); R(cuptiGetResultString);
  R(cuptiGetCallbackName); R(cuptiSetThreadIdType); R(cuptiActivityGetNumDroppedRecords);
  R(cuptiActivityPushExternalCorrelationId); R(cuptiActivityPopExternalCorrelationId);
#undef R
  return t;
}

}  // namespace

// Function-local statics: loaded once, thread-safe, on first use only.
const Nvrtc& nvrtc() { static const Nvrtc t = load_nvrtc(); return t; }
const Driver& driver() { static const Driver t = load_driver(); return t; }
const Cublas& cublas() { static const Cublas t = load_cublas(); return t; }
const Cupti& cupti() { static const Cupti t = load_cupti(); return t; }

}  // namespace kiln::gpu
