// The CUDA libraries Kiln uses (driver API, NVRTC, cuBLAS, CUPTI), opened
// with dlopen at first use: the `kiln` binary links none of them, so it
// builds, starts and runs CPU scripts on machines without a GPU, a driver or
// even a toolkit. Each table is filled once; `error` says why a library is
// unusable (no such file, a missing symbol) so callers can name it.
//
// Search order for each library: its soname on the loader's path, then
// $KILN_CUDA_HOME/lib64 (default /usr/local/cuda/lib64), then the toolkit
// directory found when Kiln was built.
#pragma once

#include <cuda.h>
#include <cublas_v2.h>
#include <cupti.h>
#include <nvrtc.h>

#include <string>

namespace kiln::gpu {

// KILN_CUDA_FN(name) declares a member `name` of the function's own type.
// The driver header maps some names to versioned symbols (cuMemAlloc ->
// cuMemAlloc_v2); the loader resolves the versioned one.
#define KILN_CUDA_FN(name) decltype(&::name) name = nullptr

struct Nvrtc {
  KILN_CUDA_FN(nvrtcVersion);
  KILN_CUDA_FN(nvrtcGetErrorString);
  KILN_CUDA_FN(nvrtcCreateProgram);
  KILN_CUDA_FN(nvrtcDestroyProgram);
  KILN_CUDA_FN(nvrtcCompileProgram);
  KILN_CUDA_FN(nvrtcGetProgramLogSize);
  KILN_CUDA_FN(nvrtcGetProgramLog);
  KILN_CUDA_FN(nvrtcGetPTXSize);
  KILN_CUDA_FN(nvrtcGetPTX);
  KILN_CUDA_FN(nvrtcGetCUBINSize);
  KILN_CUDA_FN(nvrtcGetCUBIN);
  std::string error;  // empty when every function resolved
  bool ok() const { return error.empty(); }
};

struct Driver {
  KILN_CUDA_FN(cuInit);
  KILN_CUDA_FN(cuDriverGetVersion);
  KILN_CUDA_FN(cuGetErrorString);
  KILN_CUDA_FN(cuDeviceGetCount);
  KILN_CUDA_FN(cuDeviceGet);
  KILN_CUDA_FN(cuDeviceGetName);
  KILN_CUDA_FN(cuDeviceGetAttribute);
  KILN_CUDA_FN(cuDeviceTotalMem);
  KILN_CUDA_FN(cuDevicePrimaryCtxRetain);
  KILN_CUDA_FN(cuCtxSetCurrent);
  KILN_CUDA_FN(cuCtxSynchronize);
  KILN_CUDA_FN(cuStreamCreate);
  KILN_CUDA_FN(cuStreamSynchronize);
  KILN_CUDA_FN(cuMemAlloc);
  KILN_CUDA_FN(cuMemFree);
  KILN_CUDA_FN(cuMemGetInfo);
  KILN_CUDA_FN(cuMemAllocHost);
  KILN_CUDA_FN(cuMemFreeHost);
  KILN_CUDA_FN(cuMemcpyHtoDAsync);
  KILN_CUDA_FN(cuMemcpyDtoHAsync);
  KILN_CUDA_FN(cuMemcpyDtoDAsync);
  KILN_CUDA_FN(cuMemsetD8Async);
  KILN_CUDA_FN(cuModuleLoadData);
  KILN_CUDA_FN(cuModuleGetFunction);
  KILN_CUDA_FN(cuLaunchKernel);
  KILN_CUDA_FN(cuEventCreate);
  KILN_CUDA_FN(cuEventRecord);
  KILN_CUDA_FN(cuEventQuery);
  KILN_CUDA_FN(cuEventSynchronize);
  KILN_CUDA_FN(cuEventElapsedTime);
  KILN_CUDA_FN(cuEventDestroy);
  std::string error;
  bool ok() const { return error.empty(); }
};

// cuBLAS's header overloads the GEMMs for C++ (a legacy compute-type form):
// these are the exported C functions.
using CublasGemmEx = cublasStatus_t (*)(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int, int,
                                        const void*, const void*, cudaDataType, int, const void*, cudaDataType, int,
                                        const void*, void*, cudaDataType, int, cublasComputeType_t, cublasGemmAlgo_t);
using CublasGemmStridedBatchedEx = cublasStatus_t (*)(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int,
                                                      int, const void*, const void*, cudaDataType, int, long long,
                                                      const void*, cudaDataType, int, long long, const void*, void*,
                                                      cudaDataType, int, long long, int, cublasComputeType_t,
                                                      cublasGemmAlgo_t);

struct Cublas {
  KILN_CUDA_FN(cublasCreate);
  KILN_CUDA_FN(cublasSetStream);
  KILN_CUDA_FN(cublasSetMathMode);
  CublasGemmEx cublasGemmEx = nullptr;
  CublasGemmStridedBatchedEx cublasGemmStridedBatchedEx = nullptr;
  std::string error;
  bool ok() const { return error.empty(); }
};

struct Cupti {
  KILN_CUDA_FN(cuptiActivityEnable);
  KILN_CUDA_FN(cuptiActivityDisable);
  KILN_CUDA_FN(cuptiActivityRegisterCallbacks);
  KILN_CUDA_FN(cuptiActivityFlushAll);
  KILN_CUDA_FN(cuptiActivityGetNextRecord);
  KILN_CUDA_FN(cuptiGetTimestamp);
  KILN_CUDA_FN(cuptiGetResultString);
  KILN_CUDA_FN(cuptiGetCallbackName);
  KILN_CUDA_FN(cuptiSetThreadIdType);
  KILN_CUDA_FN(cuptiActivityGetNumDroppedRecords);
  KILN_CUDA_FN(cuptiActivityPushExternalCorrelationId);
  KILN_CUDA_FN(cuptiActivityPopExternalCorrelationId);
  std::string error;
  bool ok() const { return error.empty(); }
};

#undef KILN_CUDA_FN

// The process's tables, loaded on first call (thread-safe).
const Nvrtc& nvrtc();
const Driver& driver();
const Cublas& cublas();
const Cupti& cupti();

}  // namespace kiln::gpu
