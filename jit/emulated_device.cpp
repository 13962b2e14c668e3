#include "jit/emulated_device.h"

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <unordered_map>

#include "jit/fused_runner.h"
#include "jit/kernel_cache.h"
#include "jit/launch.h"
#include "jit/nvrtc_check.h"
#include "jit/op_kernels.h"

namespace kiln::jit {

namespace {

// Device addresses are host addresses with this bit set: non-canonical, so
// host code that reads device memory directly (which would fault on a real
// GPU too) faults here instead of silently working. Only this backend's
// kernels and copies strip it.
constexpr uintptr_t kDeviceBit = uintptr_t(1) << 62;
void* to_device(void* p) { return reinterpret_cast<void*>(reinterpret_cast<uintptr_t>(p) | kDeviceBit); }
template <class T>
T* to_host(T* p) {
  return reinterpret_cast<T*>(reinterpret_cast<uintptr_t>(p) & ~kDeviceBit);
}

class EmulatedCuda final : public DeviceBackend, public FusedRunner {
 public:
  bool available() override { return true; }
  int device_count() override { return 1; }
  std::string unavailable_reason() override { return ""; }
  std::string device_name(int) override { return "Kiln emulated CUDA device (host memory)"; }

  void* allocate(size_t nbytes, int index) override {
    check_index(index);
    void* p = std::aligned_alloc(64, (std::max<size_t>(nbytes, 1) + 63) / 64 * 64);
    KILN_CHECK(p, Runtime, "CUDA out of memory. Tried to allocate ", nbytes, " bytes on the emulated device");
    int64_t now = allocated_.fetch_add(int64_t(nbytes)) + int64_t(nbytes);
    for (int64_t peak = peak_.load(); now > peak && !peak_.compare_exchange_weak(peak, now);) {
    }
    ++allocations_;
    return to_device(p);
  }
  void release(void* ptr, size_t nbytes, int) noexcept override {
    allocated_.fetch_sub(int64_t(nbytes));
    std::free(to_host(ptr));
  }
  void copy(void* dst, Device dst_dev, const void* src, Device src_dev, size_t nbytes) override {
    std::memcpy(dst_dev.type == DeviceType::CUDA ? to_host(dst) : dst,
                src_dev.type == DeviceType::CUDA ? to_host(src) : src, nbytes);
  }

  bool run(const OpDef& op, const Args& args, std::vector<Tensor>& outs) override {
    // A piece without a kernel leaves the rest to the fallback, which writes every output whole.
    for (lazy::PendingOp& p : OpKernels::pieces(op, args, outs)) {
      const FusedKernel* fk = kernels_.find(p, Device{DeviceType::CUDA, 0});
      if (!fk || !launch(*fk, op_kernel(fk->kernel), {&p, 1})) return false;
    }
    return true;
  }

  // Fused kernels of traced graphs: compiled by LLVM, run on the untagged
  // addresses. The handle is the entry point itself.
  Prepared prepare(const kir::Kernel& k, Device device) override {
    check_index(device.index);
    Prepared out;
    CompiledKernel ck = KernelCache::get().find_or_compile(k, {}, &out.where);
    out.handle = reinterpret_cast<const void*>(ck.fn);
    return out;
  }
  bool launch(const FusedKernel& fk, const void* handle, std::span<const lazy::PendingOp> ops) override {
    BoundArgs a;
    if (!bind_args(fk, ops, a)) return false;
    for (char*& ptr : a.ptrs) {
      // A GPU kernel given host memory faults: so does this one's launch.
      KILN_CHECK(reinterpret_cast<uintptr_t>(ptr) & kDeviceBit, Runtime, "internal error: kernel ", fk.kernel.name,
                 " was given host memory for a device operand");
      ptr = to_host(ptr);
    }
    run_bound(fk.kernel, reinterpret_cast<kir::KernelFn>(const_cast<void*>(handle)), a);
    return true;
  }
  void synchronize() override {}
  std::vector<std::pair<std::string, double>> memory_stats(int index) override {
    check_index(index);
    return {{"allocated_bytes.all.current", double(allocated_.load())},
            {"allocated_bytes.all.peak", double(peak_.load())},
            {"reserved_bytes.all.current", double(allocated_.load())},
            {"reserved_bytes.all.peak", double(peak_.load())},
            {"allocation.all.allocated", double(allocations_.load())}};
  }
  void empty_cache() override {}

 private:
  static void check_index(int index) {
    KILN_CHECK(index == 0, Runtime, "CUDA error: invalid device ordinal (cuda:", index,
               "; the emulated device is cuda:0)");
  }
  // An eager op's kernel, prepared once. OpKernels never frees its kernels,
  // so their addresses are keys.
  const void* op_kernel(const kir::Kernel& k) {
    std::lock_guard lock(mu_);
    auto [it, fresh] = prepared_.try_emplace(&k, nullptr);
    if (fresh) {
      if (nvrtc_check_enabled()) nvrtc_check_add(k);
      it->second = prepare(k, Device{DeviceType::CUDA, 0}).handle;
    }
    return it->second;
  }

  OpKernels kernels_;
  std::mutex mu_;
  std::unordered_map<const kir::Kernel*, const void*> prepared_;
  std::atomic<int64_t> allocated_{0}, peak_{0}, allocations_{0};
};

}  // namespace

std::unique_ptr<DeviceBackend> make_emulated_cuda() { return std::make_unique<EmulatedCuda>(); }

}  // namespace kiln::jit
