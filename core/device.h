// Devices other than the CPU. core knows nothing of CUDA: a higher layer
// (gpu/cuda_backend.cpp) installs a DeviceBackend, and dispatch routes every
// kernel whose tensors live on a CUDA device to it. Ops the backend has no
// kernel for still work: their tensors' storages are copied to the host, the
// CPU kernel runs, and the outputs' storages are copied back (slow, correct,
// and counted in the trace as "cpu fallback" kernels).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "core/op_table.h"

namespace kiln {

class DeviceBackend {
 public:
  virtual ~DeviceBackend() = default;
  // torch.cuda.is_available(): a driver and at least one device.
  virtual bool available() = 0;
  virtual int device_count() = 0;
  // Why there is no device (PyTorch's wording), for the error a script gets.
  virtual std::string unavailable_reason() = 0;
  virtual std::string device_name(int index) = 0;
  // Device memory; allocate throws kiln::Error (out of memory, no device).
  virtual void* allocate(size_t nbytes, int index) = 0;
  virtual void release(void* ptr, size_t nbytes, int index) noexcept = 0;
  // Copies nbytes between any two of host and device memory; returns when
  // the host may read `dst` (a copy to the host) or reuse `src` (from it).
  virtual void copy(void* dst, Device dst_dev, const void* src, Device src_dev, size_t nbytes) = 0;
  // Runs `op` on tensors that all live on one device (0-dim CPU tensors
  // already moved there); false: no device kernel, the CPU fallback runs.
  virtual bool run(const OpDef& op, const Args& args, std::vector<Tensor>& outs) = 0;
  virtual void synchronize() = 0;
  // (name, value) pairs of torch.cuda.memory_stats() for one device.
  virtual std::vector<std::pair<std::string, double>> memory_stats(int index) = 0;
  virtual void empty_cache() = 0;
};

// The CUDA backend, or nullptr when none is installed (a build without GPU
// support). Installed once at start-up, before any tensor exists.
void set_cuda_backend(DeviceBackend* backend);
DeviceBackend* cuda_backend_if_any();
// The backend for a tensor on CUDA: throws PyTorch's error when there is no
// backend ("Torch not compiled with CUDA enabled") or no device.
DeviceBackend& cuda_backend();

// Where ops without tensor inputs (zeros, randn) put their outputs on this
// thread: the CPU unless a DeviceScope says otherwise. The autograd engine
// opens one per node, so the zeros and ones a derivative formula creates
// live beside its gradients.
Device default_device();
class DeviceScope {
 public:
  explicit DeviceScope(Device d);
  ~DeviceScope();
  DeviceScope(const DeviceScope&) = delete;
  DeviceScope& operator=(const DeviceScope&) = delete;

 private:
  Device saved_;
};

// The device an op's tensors share. A 0-dim CPU tensor may join a CUDA op
// (PyTorch treats it as a scalar); any other mix is PyTorch's error.
Device common_device(const OpDef& op, const Args& args);
// Where a new-output op's outputs go: op.device for transfers, else the
// common device of its tensors, else (no tensor inputs) default_device().
Device output_device(const OpDef& op, const Args& args);

// Runs op's kernel (or its check, `check_only`) on whatever device its
// tensors live on.
void run_op_kernel(const OpDef& op, const Args& args, std::vector<Tensor>& outs);
void run_op_check(const OpDef& op, const Args& args);

// A contiguous copy of `t` on device `d` (t itself when it is already there).
// Kernel-level: records no autograd, defers nothing.
Tensor copy_to_device(const Tensor& t, Device d);
// Copies src into dst (contiguous, same dtype and numel), across devices.
void copy_across_devices(const Tensor& dst, const Tensor& src);

// _to_device's int argument: -1 for the CPU, k for cuda:k.
int64_t device_code(Device d);
Device device_of_code(int64_t code);

// `t` on `d` through the _to_device op, so gradients flow back (t itself
// when it is already there).
Tensor move_to(const Tensor& t, Device d);

// "cuda" / "cuda:1" / "cpu" -> Device; throws PyTorch's error otherwise.
Device parse_device(const std::string& spec);

}  // namespace kiln
