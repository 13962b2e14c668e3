#include "jit/device_backends.h"

#include <cstdlib>
#include <memory>
#include <string>

#include "jit/emulated_device.h"
#include "jit/fused_runner.h"
#if KILN_HAVE_GPU
#include "jit/cuda_device.h"
#endif

namespace kiln::jit {

namespace {
FusedRunner* g_runner = nullptr;
}

void install_cuda_backend() {
  static std::unique_ptr<DeviceBackend> backend;  // lives as long as the process's tensors may
  if (backend) return;
  const char* emulate = std::getenv("KILN_EMULATE_CUDA");
  if (emulate && *emulate && std::string(emulate) != "0") backend = make_emulated_cuda();
#if KILN_HAVE_GPU
  else backend = make_cuda_backend();
#endif
  set_cuda_backend(backend.get());
  g_runner = dynamic_cast<FusedRunner*>(backend.get());
}

FusedRunner* fused_runner(Device device) { return device.type == DeviceType::CPU ? nullptr : g_runner; }

void set_device_dump_dir(const std::string& dir) {
#if KILN_HAVE_GPU
  set_cuda_dump_dir(dir);
#else
  (void)dir;
#endif
}

}  // namespace kiln::jit
