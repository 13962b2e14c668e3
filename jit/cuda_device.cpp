#include "jit/cuda_device.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <mutex>
#include <unordered_map>

#include "gpu/caching_allocator.h"
#include "gpu/cupti_collector.h"
#include "gpu/cuda_codegen.h"
#include "gpu/cuda_libs.h"
#include "gpu/nvrtc_compile.h"
#include "jit/fused_runner.h"
#include "jit/gpu_image_cache.h"
#include "jit/jit_events.h"
#include "jit/launch.h"
#include "jit/nvrtc_check.h"
#include "jit/op_kernels.h"
#include "traces/recorder.h"

namespace kiln::jit {

namespace {

constexpr char kNoDriver[] =
    "Found no NVIDIA driver on your system. Please check that you have an NVIDIA GPU and installed a driver from "
    "http://www.nvidia.com/Download/index.aspx";

const gpu::Driver& drv() { return gpu::driver(); }

std::string g_dump_dir;  // set_cuda_dump_dir

// --dump-dir: <entry>.kir, .cu and .ptx.
void dump_kernel(const kir::Kernel& k, const std::string& entry, const std::string& cuda, const std::string& ptx) {
  std::error_code ec;
  std::filesystem::create_directories(g_dump_dir, ec);
  const std::string base = g_dump_dir + "/" + entry;
  bool ok = static_cast<bool>(std::ofstream(base + ".kir") << k.to_text());
  ok = ok && static_cast<bool>(std::ofstream(base + ".cu") << cuda);
  ok = ok && static_cast<bool>(std::ofstream(base + ".ptx") << ptx);
  if (!ok) std::cerr << "kiln: cannot write kernel dumps into " << g_dump_dir << "\n";
}

void check(CUresult rc, const char* what) {
  if (rc == CUDA_SUCCESS) return;
  const char* msg = nullptr;
  drv().cuGetErrorString(rc, &msg);
  throw Error(std::string("CUDA error: ") + (msg ? msg : "unknown error") + " (" + what + ")");
}

// A kernel loaded on a device, and the threads per block it was emitted for.
struct Loaded {
  CUfunction fn = nullptr;
  int threads = 256;
};

// One device's state: its context, stream, allocator and loaded kernels.
struct DeviceState {
  int index = 0;
  CUdevice dev = 0;
  CUcontext ctx = nullptr;
  CUstream stream = nullptr;
  std::string arch;  // "sm_90"
  int sms = 1;
  std::unique_ptr<gpu::DriverBackend> memory;
  std::unique_ptr<gpu::CachingAllocator> allocator;
  std::unordered_map<std::string, Loaded> functions;  // by kernel IR text
  cublasHandle_t blas = nullptr;
};

class CudaBackend final : public DeviceBackend, public FusedRunner {
 public:
  bool available() override { return init() && !devices_.empty(); }
  int device_count() override { return available() ? int(devices_.size()) : 0; }
  std::string unavailable_reason() override {
    init();
    return reason_;
  }
  std::string device_name(int index) override {
    DeviceState& d = state(index);
    char name[256] = {};
    check(drv().cuDeviceGetName(name, sizeof name, d.dev), "cuDeviceGetName");
    return name;
  }

  void* allocate(size_t nbytes, int index) override { return state(index).allocator->allocate(nbytes); }
  void release(void* ptr, size_t, int index) noexcept override {
    if (index < int(devices_.size())) devices_[size_t(index)]->allocator->free(ptr, devices_[size_t(index)]->stream);
  }

  void copy(void* dst, Device dst_dev, const void* src, Device src_dev, size_t nbytes) override {
    DeviceState& d = state(dst_dev.type == DeviceType::CUDA ? dst_dev.index : src_dev.index);
    static trace::InternedName kHtoD("memcpy HtoD"), kDtoH("memcpy DtoH"), kDtoD("memcpy DtoD");
    const bool to_dev = dst_dev.type == DeviceType::CUDA, from_dev = src_dev.type == DeviceType::CUDA;
    trace::SpanScope span(trace::Category::gpu, to_dev && from_dev ? kDtoD : to_dev ? kHtoD : kDtoH);
    auto dptr = [](const void* p) { return CUdeviceptr(reinterpret_cast<uintptr_t>(p)); };
    if (to_dev && from_dev) check(drv().cuMemcpyDtoDAsync(dptr(dst), dptr(src), nbytes, d.stream), "cuMemcpyDtoD");
    else if (to_dev) check(drv().cuMemcpyHtoDAsync(dptr(dst), src, nbytes, d.stream), "cuMemcpyHtoD");
    else check(drv().cuMemcpyDtoHAsync(dst, dptr(src), nbytes, d.stream), "cuMemcpyDtoH");
    // Pageable host memory: the host may reuse or read it only after the copy.
    if (!(to_dev && from_dev)) check(drv().cuStreamSynchronize(d.stream), "cuStreamSynchronize");
  }

  bool run(const OpDef& op, const Args& args, std::vector<Tensor>& outs) override {
    Device dev = common_device(op, args);
    DeviceState& d = state(dev.index);
    if (run_matmul(d, op, args, outs)) return true;
    lazy::PendingOp p{&op, std::vector<Value>(args.begin(), args.end()), outs, 0};
    const FusedKernel* fk = kernels_.find(p, dev);
    return fk && launch_on(d, *fk, {&p, 1});
  }

  // Fused kernels of traced graphs.
  std::string prepare(const kir::Kernel& k, Device device) override {
    std::string where;
    (void)function(state(device.index), k, &where);
    return where;
  }
  bool launch(const FusedKernel& fk, std::span<const lazy::PendingOp> ops) override {
    Device dev = resolve(fk.domain, ops).device();
    return launch_on(state(dev.index), fk, ops);
  }

  bool launch_on(DeviceState& d, const FusedKernel& fk, std::span<const lazy::PendingOp> ops) {
    BoundArgs a;
    if (!bind_args(fk, ops, a)) return false;
    if (a.items == 0) return true;
    Loaded f = function(d, fk.kernel);
    launch_kernel(d, fk.kernel, f.fn, f.threads, a);
    return true;
  }

  void synchronize() override {
    if (!inited_.load()) return;  // nothing ran on a device: do not wake the driver
    for (auto& d : devices_) check(drv().cuStreamSynchronize(d->stream), "cuStreamSynchronize");
    if (cupti_) cupti_->flush();
  }
  std::vector<std::pair<std::string, double>> memory_stats(int index) override {
    std::vector<std::pair<std::string, double>> out;
    for (auto& [k, v] : state(index).allocator->memory_stats()) out.emplace_back(k, double(v));
    return out;
  }
  void empty_cache() override {
    for (auto& d : devices_) d->allocator->empty_cache();
  }

 private:
  // Opens the driver and every device once; false with reason_ set when
  // there is no driver or device.
  bool init() {
    std::call_once(once_, [&] {
      try {
        init_devices();
      } catch (const Error& e) {
        devices_.clear();
        reason_ = e.what();
      }
    });
    return reason_.empty();
  }

  void init_devices() {
    KILN_CHECK(drv().ok(), Runtime, kNoDriver);
    KILN_CHECK(drv().cuInit(0) == CUDA_SUCCESS, Runtime, kNoDriver);
    int n = 0;
    check(drv().cuDeviceGetCount(&n), "cuDeviceGetCount");
    KILN_CHECK(n > 0, Runtime, "No CUDA GPUs are available");
    for (int i = 0; i < n; ++i) devices_.push_back(open_device(i));
    inited_.store(true);
    start_profiler();
  }

  // Kernel timings for the trace: CUPTI's activity records when it can run
  // here, else CUDA events around each launch (which then waits for it).
  void start_profiler() {
    if (!trace::enabled()) return;
    cupti_ = std::make_unique<gpu::CuptiCollector>();
    std::string why;
    if (cupti_->start(&why)) return;
    cupti_.reset();
    timing_note_ = gpu::event_timing_reason(why);
    events::log("gpu", timing_note_);
    std::cerr << "kiln: " << timing_note_ << "\n";
  }

  static std::unique_ptr<DeviceState> open_device(int index) {
    auto d = std::make_unique<DeviceState>();
    d->index = index;
    check(drv().cuDeviceGet(&d->dev, index), "cuDeviceGet");
    check(drv().cuDevicePrimaryCtxRetain(&d->ctx, d->dev), "cuDevicePrimaryCtxRetain");
    check(drv().cuCtxSetCurrent(d->ctx), "cuCtxSetCurrent");
    check(drv().cuStreamCreate(&d->stream, CU_STREAM_NON_BLOCKING), "cuStreamCreate");
    int major = 0, minor = 0;
    check(drv().cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, d->dev), "attribute");
    check(drv().cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, d->dev), "attribute");
    check(drv().cuDeviceGetAttribute(&d->sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, d->dev), "attribute");
    d->arch = "sm_" + std::to_string(major * 10 + minor);
    d->memory = std::make_unique<gpu::DriverBackend>(d->ctx);
    d->allocator = std::make_unique<gpu::CachingAllocator>(*d->memory, index);
    return d;
  }

  DeviceState& state(int index) {
    if (!init()) throw Error(reason_);
    KILN_CHECK(index >= 0 && index < int(devices_.size()), Runtime, "CUDA error: invalid device ordinal (cuda:",
               index, " of ", devices_.size(), " devices)");
    DeviceState& d = *devices_[size_t(index)];
    check(drv().cuCtxSetCurrent(d.ctx), "cuCtxSetCurrent");  // any thread may call in
    return d;
  }

  // The kernel's loaded function: from the GPU image cache (memory, disk, or
  // NVRTC for this device's arch) on first use.
  Loaded function(DeviceState& d, const kir::Kernel& k, std::string* where = nullptr) {
    std::string text = k.to_text();
    std::lock_guard lock(mu_);
    auto it = d.functions.find(text);
    if (where) *where = "memory";
    if (it != d.functions.end()) return it->second;
    if (nvrtc_check_enabled()) nvrtc_check_add(k);
    const int64_t t0 = trace::now_ns();
    const gpu::CudaKernelSource src = gpu::emit_cuda(k, "kiln_" + k.name);
    const bool want_ptx = events::wants_output_code() || !g_dump_dir.empty();
    auto compile = [&] {
      gpu::NvrtcOptions opt;
      opt.arch = d.arch;
      opt.want_ptx = want_ptx;
      return gpu::nvrtc_compile(src.code, k.name + ".cu", opt);
    };
    GpuImageCache::Entry bin = GpuImageCache::get().find_or_compile(k, d.arch, compile, want_ptx);
    events::gpu_kernel_compiled(k, src.code, bin.ptx, t0, bin.where);
    if (where) *where = bin.where;
    if (!g_dump_dir.empty()) dump_kernel(k, src.entry, src.code, bin.ptx);
    CUmodule module = nullptr;
    check(drv().cuModuleLoadData(&module, bin.image.data()), "cuModuleLoadData");
    Loaded loaded{nullptr, src.block_threads};
    check(drv().cuModuleGetFunction(&loaded.fn, module, src.entry.c_str()), "cuModuleGetFunction");
    d.functions.emplace(std::move(text), loaded);
    return loaded;
  }

  // The ABI of gpu/cuda_codegen.h: 8-byte words, passed by value.
  static std::vector<uint64_t> pack(const kir::Kernel& k, const BoundArgs& a) {
    std::vector<uint64_t> w;
    auto bits = [](auto v) {
      uint64_t u = 0;
      std::memcpy(&u, &v, sizeof v);
      return u;
    };
    for (char* p : a.ptrs) w.push_back(bits(p));
    for (int64_t s : a.domain) w.push_back(bits(s));
    for (int64_t s : a.strides) w.push_back(bits(s));
    for (double p : a.params) w.push_back(bits(p));
    if (a.params.empty()) w.push_back(0);
    w.push_back(0);
    w.push_back(uint64_t(a.items));
    KILN_CHECK(int64_t(w.size()) == gpu::cuda_arg_words(k), Runtime, "internal error: kernel ", k.name,
               " takes ", gpu::cuda_arg_words(k), " argument words, not ", w.size());
    return w;
  }

  void launch_kernel(DeviceState& d, const kir::Kernel& k, CUfunction fn, int threads, const BoundArgs& a) {
    if (!trace::enabled()) return launch_raw(d, k, fn, threads, a);
    const int64_t t0 = trace::now_ns();
    const uint64_t flow = next_flow_.fetch_add(1);
    if (cupti_) {
      cupti_->push_flow(flow);
      launch_raw(d, k, fn, threads, a);
      cupti_->pop_flow();
      events::gpu_launch(k, t0, flow);
      return;
    }
    gpu::EventTimer timer;
    timer.begin(d.stream);
    launch_raw(d, k, fn, threads, a);
    timer.end(d.stream);
    events::gpu_launch(k, t0, flow);
    events::gpu_kernel_timed(k, d.index, t0, timer.elapsed_ns(), flow);
  }

  static void launch_raw(DeviceState& d, const kir::Kernel& k, CUfunction fn, int threads, const BoundArgs& a) {
    std::vector<uint64_t> words = pack(k, a);
    size_t bytes = words.size() * sizeof(uint64_t);
    void* extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, words.data(), CU_LAUNCH_PARAM_BUFFER_SIZE, &bytes,
                     CU_LAUNCH_PARAM_END};
    // Pointwise: a grid-stride loop, a few waves of blocks; Row: a block per row.
    int64_t per_block = k.kind == kir::Kind::Row ? 1 : threads;
    int64_t blocks = std::clamp<int64_t>((a.items + per_block - 1) / per_block, 1, int64_t(d.sms) * 32);
    check(drv().cuLaunchKernel(fn, unsigned(blocks), 1, 1, unsigned(threads), 1, 1, 0, d.stream, nullptr, extra),
          "cuLaunchKernel");
  }

  // mm of float32 matrices through cuBLAS; other matmuls take the fallback.
  bool run_matmul(DeviceState& d, const OpDef& op, const Args& args, std::vector<Tensor>& outs) {
    if (op.name() != "mm") return false;
    const Tensor &a = args[0].tensor(), &b = args[1].tensor();
    const Tensor& c = outs[0];
    if (a.dtype() != DType::Float32 || b.dtype() != DType::Float32 || !c.is_contiguous()) return false;
    // Row-major C = A B is column-major C^T = B^T A^T: cuBLAS reads each
    // row-major operand as its transpose, untransposed when it is contiguous.
    auto layout = [](const Tensor& t, cublasOperation_t& op_out, int& ld) {
      if (t.stride(1) == 1 && t.stride(0) >= std::max<int64_t>(1, t.size(1))) {
        op_out = CUBLAS_OP_N, ld = int(t.stride(0));
        return true;
      }
      if (t.stride(0) == 1 && t.stride(1) >= std::max<int64_t>(1, t.size(0))) {
        op_out = CUBLAS_OP_T, ld = int(t.stride(1));
        return true;
      }
      return false;
    };
    cublasOperation_t op_a, op_b;
    int lda = 0, ldb = 0;
    if (!layout(a, op_a, lda) || !layout(b, op_b, ldb)) return false;
    const gpu::Cublas& blas = gpu::cublas();
    KILN_CHECK(blas.ok(), Runtime, "cuBLAS is not available: ", blas.error);
    if (!d.blas) {
      KILN_CHECK(blas.cublasCreate(&d.blas) == CUBLAS_STATUS_SUCCESS, Runtime, "cublasCreate failed");
      blas.cublasSetStream(d.blas, d.stream);
    }
    const int m = int(a.size(0)), k = int(a.size(1)), n = int(b.size(1));
    const float one = 1, zero = 0;
    cublasStatus_t st = blas.cublasGemmEx(d.blas, op_b, op_a, n, m, k, &one, b.raw_data(), CUDA_R_32F, ldb,
                                          a.raw_data(), CUDA_R_32F, lda, &zero, c.raw_data(), CUDA_R_32F, n,
                                          CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
    KILN_CHECK(st == CUBLAS_STATUS_SUCCESS, Runtime, "cuBLAS GEMM failed with status ", int(st));
    return true;
  }

  std::once_flag once_;
  std::atomic<bool> inited_{false};
  std::unique_ptr<gpu::CuptiCollector> cupti_;
  std::string timing_note_;  // why kernels are timed by CUDA events, when they are
  std::atomic<uint64_t> next_flow_{1};
  std::string reason_;
  std::vector<std::unique_ptr<DeviceState>> devices_;
  std::mutex mu_;
  OpKernels kernels_;
};

}  // namespace

std::unique_ptr<DeviceBackend> make_cuda_backend() { return std::make_unique<CudaBackend>(); }

void set_cuda_dump_dir(const std::string& dir) { g_dump_dir = dir; }

}  // namespace kiln::jit
