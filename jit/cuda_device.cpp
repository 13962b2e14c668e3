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
  std::unordered_map<std::string, Loaded> functions;  // by kernel IR text (nodes never erased)
  std::unordered_map<const kir::Kernel*, const Loaded*> by_address;  // eager ops' kernels
  cublasHandle_t blas = nullptr;

  // Pinned host buffers for copies (allocated on first use).
  static constexpr size_t kChunk = size_t(8) << 20;
  struct Staging {
    void* host = nullptr;
    CUevent free = nullptr;  // recorded after the copy that last used it
  };
  Staging staging[2];
  std::mutex staging_mu;
  void ensure_staging() {
    for (Staging& s : staging) {
      if (s.host) continue;
      check(drv().cuMemAllocHost(&s.host, kChunk), "cuMemAllocHost");
      check(drv().cuEventCreate(&s.free, CU_EVENT_DISABLE_TIMING), "cuEventCreate");
      check(drv().cuEventRecord(s.free, stream), "cuEventRecord");
    }
  }
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
    if (to_dev && from_dev) {
      check(drv().cuMemcpyDtoDAsync(dptr(dst), dptr(src), nbytes, d.stream), "cuMemcpyDtoD");
      return;
    }
    staged_copy(d, dst, src, nbytes, to_dev);
  }

  static CUdeviceptr dptr(const void* p) { return CUdeviceptr(reinterpret_cast<uintptr_t>(p)); }

  // Host <-> device through two pinned staging buffers: the DMA engine copies
  // one chunk while the host fills or drains the other. Returns when the host
  // may read dst (to the host) or reuse src (to the device).
  void staged_copy(DeviceState& d, void* dst, const void* src, size_t nbytes, bool to_dev) {
    std::lock_guard lock(d.staging_mu);
    d.ensure_staging();
    char* out = static_cast<char*>(dst);
    const char* in = static_cast<const char*>(src);
    for (size_t done = 0, i = 0; done < nbytes; done += DeviceState::kChunk, ++i) {
      const size_t n = std::min(DeviceState::kChunk, nbytes - done);
      DeviceState::Staging& buf = d.staging[i % 2];
      check(drv().cuEventSynchronize(buf.free), "cuEventSynchronize");  // its last copy finished
      if (to_dev) {
        std::memcpy(buf.host, in + done, n);
        check(drv().cuMemcpyHtoDAsync(dptr(out + done), buf.host, n, d.stream), "cuMemcpyHtoD");
      } else {
        check(drv().cuMemcpyDtoHAsync(buf.host, dptr(in + done), n, d.stream), "cuMemcpyDtoH");
        check(drv().cuStreamSynchronize(d.stream), "cuStreamSynchronize");
        std::memcpy(out + done, buf.host, n);
      }
      check(drv().cuEventRecord(buf.free, d.stream), "cuEventRecord");
    }
    check(drv().cuStreamSynchronize(d.stream), "cuStreamSynchronize");
  }

  bool run(const OpDef& op, const Args& args, std::vector<Tensor>& outs) override {
    Device dev = common_device(op, args);
    DeviceState& d = state(dev.index);
    if (run_matmul(d, op, args, outs)) return true;
    // A piece without a kernel leaves the rest to the fallback, which writes every output whole.
    for (lazy::PendingOp& p : OpKernels::pieces(op, args, outs)) {
      const FusedKernel* fk = kernels_.find(p, dev);
      if (!fk || !launch_on(d, *fk, *op_function(d, fk->kernel), {&p, 1})) return false;
    }
    return true;
  }

  // Fused kernels of traced graphs. The handle is the kernel's Loaded entry
  // in its device's table (entries are never erased).
  Prepared prepare(const kir::Kernel& k, Device device) override {
    Prepared out;
    out.handle = function(state(device.index), k, &out.where);
    return out;
  }
  bool launch(const FusedKernel& fk, const void* handle, std::span<const lazy::PendingOp> ops) override {
    Device dev = resolve(fk.domain, ops).device();
    return launch_on(state(dev.index), fk, *static_cast<const Loaded*>(handle), ops);
  }

  bool launch_on(DeviceState& d, const FusedKernel& fk, const Loaded& f, std::span<const lazy::PendingOp> ops) {
    BoundArgs a;
    if (!bind_args(fk, ops, a)) return false;
    for (auto [operand, bytes] : a.zero)
      check(drv().cuMemsetD8Async(dptr(a.ptrs[size_t(operand)]), 0, bytes, d.stream), "cuMemsetD8Async");
    if (a.items == 0) return true;
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

  // An eager op's kernel, found by address after its first use: OpKernels
  // never frees its kernels, so an eager launch builds no IR text.
  const Loaded* op_function(DeviceState& d, const kir::Kernel& k) {
    {
      std::lock_guard lock(mu_);
      if (auto hit = d.by_address.find(&k); hit != d.by_address.end()) return hit->second;
    }
    const Loaded* f = function(d, k);
    std::lock_guard lock(mu_);
    d.by_address.emplace(&k, f);
    return f;
  }

  // The kernel's loaded function: from the GPU image cache (memory, disk, or
  // NVRTC for this device's arch) on first use.
  const Loaded* function(DeviceState& d, const kir::Kernel& k, std::string* where = nullptr) {
    std::string text = k.to_text();
    std::lock_guard lock(mu_);
    auto it = d.functions.find(text);
    if (where) *where = "memory";
    if (it != d.functions.end()) return &it->second;
    if (nvrtc_check_enabled()) nvrtc_check_add(k);
    const int64_t t0 = trace::now_ns();
    const gpu::CudaKernelSource src = gpu::emit_cuda(k, "kiln_" + k.name);
    const bool want_ptx = events::wants_output_code() || !g_dump_dir.empty();
    auto image_for = [&](const std::string& arch) {
      auto compile = [&] {
        gpu::NvrtcOptions opt;
        opt.arch = arch;
        opt.want_ptx = want_ptx;
        return gpu::nvrtc_compile(src.code, k.name + ".cu", opt);
      };
      return GpuImageCache::get().find_or_compile(k, arch, compile, want_ptx);
    };
    // A CUBIN for the device's arch; PTX for the driver to compile when the
    // CUBIN does not load (a driver older than NVRTC's output).
    GpuImageCache::Entry bin = image_for(d.arch);
    CUmodule module = nullptr;
    if (drv().cuModuleLoadData(&module, bin.image.data()) != CUDA_SUCCESS) {
      bin = image_for("compute_" + d.arch.substr(3));
      check(drv().cuModuleLoadData(&module, bin.image.data()), "cuModuleLoadData of PTX");
    }
    events::gpu_kernel_compiled(k, src.code, bin.ptx, t0, bin.where);
    if (where) *where = bin.where;
    if (!g_dump_dir.empty()) dump_kernel(k, src.entry, src.code, bin.ptx);
    Loaded loaded{nullptr, src.block_threads};
    check(drv().cuModuleGetFunction(&loaded.fn, module, src.entry.c_str()), "cuModuleGetFunction");
    return &d.functions.emplace(std::move(text), loaded).first->second;
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

  // mm and bmm of float32 through cuBLAS; other matmuls take the fallback.
  bool run_matmul(DeviceState& d, const OpDef& op, const Args& args, std::vector<Tensor>& outs) {
    const bool batched = op.name() == "bmm";
    if (op.name() != "mm" && !batched) return false;
    Gemm g;
    if (!g.plan(args[0].tensor(), args[1].tensor(), outs[0], batched)) return false;
    const gpu::Cublas& blas = gpu::cublas();
    KILN_CHECK(blas.ok(), Runtime, "cuBLAS is not available: ", blas.error);
    if (!d.blas) {
      KILN_CHECK(blas.cublasCreate(&d.blas) == CUBLAS_STATUS_SUCCESS, Runtime, "cublasCreate failed");
      blas.cublasSetStream(d.blas, d.stream);
    }
    const float one = 1, zero = 0;
    // Row-major C = A B is column-major C^T = B^T A^T: B goes first.
    cublasStatus_t st = blas.cublasGemmStridedBatchedEx(
        d.blas, g.b.op, g.a.op, g.n, g.m, g.k, &one, g.b.data, CUDA_R_32F, g.b.ld, g.b.batch_stride, g.a.data,
        CUDA_R_32F, g.a.ld, g.a.batch_stride, &zero, g.c, CUDA_R_32F, g.n, int64_t(g.m) * g.n, g.batch,
        CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
    KILN_CHECK(st == CUBLAS_STATUS_SUCCESS, Runtime, "cuBLAS GEMM failed with status ", int(st));
    return true;
  }

  // A row-major matmul as cuBLAS's column-major arguments.
  struct Gemm {
    struct Operand {
      const void* data = nullptr;
      cublasOperation_t op = CUBLAS_OP_N;
      int ld = 0;
      long long batch_stride = 0;
    };
    Operand a, b;
    void* c = nullptr;
    int m = 0, n = 0, k = 0, batch = 1;

    bool plan(const Tensor& ta, const Tensor& tb, const Tensor& tc, bool batched) {
      if (ta.dtype() != DType::Float32 || tb.dtype() != DType::Float32 || !tc.is_contiguous()) return false;
      const int64_t r = batched ? 1 : 0;  // the dims of the matrices
      if (!operand(ta, r, a) || !operand(tb, r, b)) return false;
      m = int(ta.size(r)), k = int(ta.size(r + 1)), n = int(tb.size(r + 1));
      batch = batched ? int(ta.size(0)) : 1;
      c = tc.raw_data();
      return true;
    }
    // A row-major operand is its own transpose in column-major terms:
    // untransposed when its rows are contiguous, transposed when its columns are.
    static bool operand(const Tensor& t, int64_t r, Operand& o) {
      o.data = t.raw_data();
      o.batch_stride = r ? t.stride(0) : 0;
      if (t.stride(r + 1) == 1 && t.stride(r) >= std::max<int64_t>(1, t.size(r + 1))) {
        o.op = CUBLAS_OP_N, o.ld = int(t.stride(r));
        return true;
      }
      if (t.stride(r) == 1 && t.stride(r + 1) >= std::max<int64_t>(1, t.size(r))) {
        o.op = CUBLAS_OP_T, o.ld = int(t.stride(r + 1));
        return true;
      }
      return false;
    }
  };

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
