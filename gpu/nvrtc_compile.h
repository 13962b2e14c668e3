// CUDA C to device code with NVRTC. NVRTC needs no GPU, so every machine
// with the toolkit compiles Kiln's generated kernels (CI checks them all);
// only loading and launching the result needs a device.
#pragma once

#include <cstdint>
#include <string>

namespace kiln::gpu {

struct NvrtcOptions {
  // The virtual or real architecture: "sm_90" yields a CUBIN for Hopper;
  // "compute_90" only PTX (what a driver JIT-compiles for newer devices).
  std::string arch = "sm_90";
  bool want_ptx = false;  // also keep the PTX (for --dump-dir and output_code) when compiling to a CUBIN
};

struct NvrtcResult {
  std::string image;  // CUBIN for a real arch, else PTX (what cuModuleLoadData takes)
  bool is_cubin = false;
  std::string ptx;    // with want_ptx, or when the image is PTX
  std::string log;    // NVRTC's warnings (errors throw)
  int64_t compile_ns = 0;
};

// Compiles `source` (one translation unit, named `name` in diagnostics).
// Throws kiln::Error carrying NVRTC's log when the source does not compile,
// and one naming the library and KILN_CUDA_HOME when NVRTC cannot be loaded.
NvrtcResult nvrtc_compile(const std::string& source, const std::string& name, const NvrtcOptions& opt = {});

// "13.0"; empty when NVRTC cannot be loaded.
std::string nvrtc_version();

// Whether NVRTC can be loaded here; `why` gets the reason when not.
bool nvrtc_available(std::string* why = nullptr);

}  // namespace kiln::gpu
