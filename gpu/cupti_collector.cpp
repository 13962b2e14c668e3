#include "gpu/cupti_collector.h"

#include <sys/syscall.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>

#include "core/error.h"
#include "gpu/cuda_libs.h"
#include "traces/recorder.h"

namespace kiln::gpu {

// ---------------------------------------------------------------------------
// RecordConverter.

namespace {

// How far behind the newest consumed correlation id a noted launch may fall
// before it is forgotten: its GPU record was lost (dropped buffer), and the
// table must not grow without bound.
constexpr uint32_t kStaleCorrelations = 1u << 16;

std::string default_api_name(bool runtime, uint32_t cbid) {
  return std::string(runtime ? "cuda runtime call " : "cuda driver call ") + std::to_string(cbid);
}

const char* memcpy_name(uint8_t copy_kind) {
  switch (copy_kind) {
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOD: return "memcpy HtoD";
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOH: return "memcpy DtoH";
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOD: return "memcpy DtoD";
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOH: return "memcpy HtoH";
    case CUPTI_ACTIVITY_MEMCPY_KIND_PTOP: return "memcpy PtoP";
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOA: return "memcpy HtoA";
    case CUPTI_ACTIVITY_MEMCPY_KIND_ATOH: return "memcpy AtoH";
    case CUPTI_ACTIVITY_MEMCPY_KIND_ATOA: return "memcpy AtoA";
    case CUPTI_ACTIVITY_MEMCPY_KIND_ATOD: return "memcpy AtoD";
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOA: return "memcpy DtoA";
    default: return "memcpy";
  }
}

// Which side of a copy is device memory (device or CUDA array): the event's
// a/b count bytes read from / written to the device, what its bandwidth sees.
bool reads_device(uint8_t k) {
  return k == CUPTI_ACTIVITY_MEMCPY_KIND_DTOH || k == CUPTI_ACTIVITY_MEMCPY_KIND_DTOD ||
         k == CUPTI_ACTIVITY_MEMCPY_KIND_DTOA || k == CUPTI_ACTIVITY_MEMCPY_KIND_ATOH ||
         k == CUPTI_ACTIVITY_MEMCPY_KIND_ATOA || k == CUPTI_ACTIVITY_MEMCPY_KIND_ATOD ||
         k == CUPTI_ACTIVITY_MEMCPY_KIND_PTOP;
}
bool writes_device(uint8_t k) {
  return k == CUPTI_ACTIVITY_MEMCPY_KIND_HTOD || k == CUPTI_ACTIVITY_MEMCPY_KIND_DTOD ||
         k == CUPTI_ACTIVITY_MEMCPY_KIND_HTOA || k == CUPTI_ACTIVITY_MEMCPY_KIND_DTOA ||
         k == CUPTI_ACTIVITY_MEMCPY_KIND_ATOA || k == CUPTI_ACTIVITY_MEMCPY_KIND_ATOD ||
         k == CUPTI_ACTIVITY_MEMCPY_KIND_PTOP;
}

// CUPTI marks records it could not time with start == end == 0.
bool untimed(uint64_t start, uint64_t end) { return start == 0 && end == 0; }

bool is_kernel(CUpti_ActivityKind k) {
  return k == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL || k == CUPTI_ACTIVITY_KIND_KERNEL;
}

// Records are packed structs; copying one out avoids unaligned member access.
template <class Record>
Record read_record(const CUpti_Activity* r) {
  Record out;
  std::memcpy(&out, r, sizeof out);
  return out;
}

}  // namespace

void RecordConverter::note_launch(uint32_t correlation_id, uint64_t flow_id) {
  std::lock_guard lock(mu_);
  flows_[correlation_id] = flow_id;
}

void RecordConverter::note_thread(uint32_t os_tid, uint32_t kiln_tid) {
  std::lock_guard lock(mu_);
  threads_[os_tid] = kiln_tid;
}

void RecordConverter::set_api_namer(ApiNamer namer) {
  std::lock_guard lock(mu_);
  namer_ = std::move(namer);
  api_names_.clear();
}

size_t RecordConverter::pending_launches() const {
  std::lock_guard lock(mu_);
  return flows_.size();
}

uint64_t RecordConverter::skipped() const {
  std::lock_guard lock(mu_);
  return skipped_;
}

// One launch runs one kernel (or copy), so its entry goes once used; entries
// far older than it are launches whose records were lost.
uint64_t RecordConverter::take_flow(uint32_t correlation_id) {
  if (correlation_id > kStaleCorrelations)
    flows_.erase(flows_.begin(), flows_.lower_bound(correlation_id - kStaleCorrelations));
  auto it = flows_.find(correlation_id);
  if (it == flows_.end()) return 0;
  uint64_t flow = it->second;
  flows_.erase(it);
  return flow;
}

void RecordConverter::device_timing(trace::Event& e, uint64_t start, uint64_t end, uint32_t device,
                                    uint32_t stream) const {
  e.cat = trace::Category::gpu;
  e.device = static_cast<uint16_t>(device + 1);
  e.tid = stream;
  e.ts_ns = static_cast<int64_t>(start) + clock_offset();
  e.dur_ns = end > start ? static_cast<int64_t>(end - start) : 0;
}

trace::Event RecordConverter::kernel_event(const CUpti_ActivityKernel10& k, trace::StringTable& strings) {
  trace::Event e;
  e.kind = trace::EventKind::GpuKernel;
  device_timing(e, k.start, k.end, k.deviceId, k.streamId);
  e.name = strings.intern(k.name != nullptr ? k.name : "kernel");
  e.flow_id = take_flow(k.correlationId);
  return e;
}

trace::Event RecordConverter::memcpy_event(const CUpti_ActivityMemcpy6& m, trace::StringTable& strings) {
  trace::Event e;
  e.kind = trace::EventKind::MemCopy;
  device_timing(e, m.start, m.end, m.deviceId, m.streamId);
  e.name = strings.intern(memcpy_name(m.copyKind));
  bool host_only = m.copyKind == CUPTI_ACTIVITY_MEMCPY_KIND_HTOH;
  if (reads_device(m.copyKind) || host_only) e.a = m.bytes;
  if (writes_device(m.copyKind) || host_only) e.b = m.bytes;
  e.flow_id = take_flow(m.correlationId);
  return e;
}

trace::Event RecordConverter::memset_event(const CUpti_ActivityMemset4& m, trace::StringTable& strings) {
  trace::Event e;
  e.kind = trace::EventKind::MemCopy;
  device_timing(e, m.start, m.end, m.deviceId, m.streamId);
  e.name = strings.intern("memset");
  e.b = m.bytes;
  e.flow_id = take_flow(m.correlationId);
  return e;
}

// A driver or runtime call as a host span on the thread that made it. The
// launcher's own launch event carries the flow, so this span does not.
bool RecordConverter::api_event(const CUpti_ActivityAPI& a, bool runtime, trace::StringTable& strings,
                                trace::Event& out) {
  auto thread = threads_.find(a.threadId);
  if (thread == threads_.end()) return false;
  uint64_t key = (uint64_t{runtime} << 32) | a.cbid;
  auto name = api_names_.find(key);
  if (name == api_names_.end())
    name = api_names_.emplace(key, namer_ ? namer_(runtime, a.cbid) : default_api_name(runtime, a.cbid)).first;
  out = trace::Event{};
  out.kind = trace::EventKind::Span;
  out.cat = trace::Category::gpu;
  out.tid = thread->second;
  out.ts_ns = static_cast<int64_t>(a.start) + clock_offset();
  out.dur_ns = a.end > a.start ? static_cast<int64_t>(a.end - a.start) : 0;
  out.name = strings.intern(name->second);
  return true;
}

std::vector<trace::Event> RecordConverter::events_from_records(std::span<const CUpti_Activity* const> records,
                                                               trace::StringTable& strings) {
  std::lock_guard lock(mu_);
  for (const CUpti_Activity* r : records) {
    if (r->kind != CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION) continue;
    auto c = read_record<CUpti_ActivityExternalCorrelation>(r);
    if (c.externalKind == CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0) flows_[c.correlationId] = c.externalId;
  }
  std::vector<trace::Event> out;
  out.reserve(records.size());
  for (const CUpti_Activity* r : records) {
    if (is_kernel(r->kind)) {
      auto k = read_record<CUpti_ActivityKernel10>(r);
      if (untimed(k.start, k.end)) ++skipped_;
      else out.push_back(kernel_event(k, strings));
    } else if (r->kind == CUPTI_ACTIVITY_KIND_MEMCPY) {
      auto m = read_record<CUpti_ActivityMemcpy6>(r);
      if (untimed(m.start, m.end)) ++skipped_;
      else out.push_back(memcpy_event(m, strings));
    } else if (r->kind == CUPTI_ACTIVITY_KIND_MEMSET) {
      auto m = read_record<CUpti_ActivityMemset4>(r);
      if (untimed(m.start, m.end)) ++skipped_;
      else out.push_back(memset_event(m, strings));
    } else if (r->kind == CUPTI_ACTIVITY_KIND_DRIVER || r->kind == CUPTI_ACTIVITY_KIND_RUNTIME) {
      trace::Event e;
      if (api_event(read_record<CUpti_ActivityAPI>(r), r->kind == CUPTI_ACTIVITY_KIND_RUNTIME, strings, e))
        out.push_back(e);
      else
        ++skipped_;
    } else if (r->kind != CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION) {
      ++skipped_;
    }
  }
  return out;
}

std::vector<const CUpti_Activity*> records_in_buffer(uint8_t* buffer, size_t valid_bytes, NextRecordFn next) {
  std::vector<const CUpti_Activity*> out;
  CUpti_Activity* record = nullptr;  // null asks for the first record
  while (buffer != nullptr && next(buffer, valid_bytes, &record) == CUPTI_SUCCESS) out.push_back(record);
  return out;
}

// ---------------------------------------------------------------------------
// CuptiCollector.

namespace {

constexpr size_t kBufferBytes = size_t{8} << 20;
constexpr size_t kBufferAlign = 8;  // ACTIVITY_RECORD_ALIGNMENT in CUPTI's samples

// CUPTI's activity API is process-wide: its callbacks reach the one running
// collector through this pointer. The lock keeps stop() from finishing while
// a buffer is being delivered on CUPTI's thread.
std::mutex g_active_mu;
CuptiCollector* g_active = nullptr;

void CUPTIAPI buffer_requested(uint8_t** buffer, size_t* size, size_t* max_records) {
  *buffer = static_cast<uint8_t*>(std::aligned_alloc(kBufferAlign, kBufferBytes));
  *size = *buffer != nullptr ? kBufferBytes : 0;  // 0: CUPTI drops records instead
  *max_records = 0;                               // as many as fit
}

void CUPTIAPI buffer_completed(CUcontext ctx, uint32_t stream, uint8_t* buffer, size_t, size_t valid_bytes) {
  {
    std::lock_guard lock(g_active_mu);
    if (g_active != nullptr) g_active->deliver(buffer, valid_bytes);
  }
  size_t dropped = 0;
  if (cupti().cuptiActivityGetNumDroppedRecords(ctx, stream, &dropped) == CUPTI_SUCCESS && dropped != 0)
    if (trace::Session* s = trace::Session::current()) s->note_dropped(dropped);
  std::free(buffer);
}

std::string cupti_result(CUptiResult r) {
  const char* text = nullptr;
  if (cupti().cuptiGetResultString(r, &text) != CUPTI_SUCCESS || text == nullptr)
    return "CUPTI error " + std::to_string(static_cast<int>(r));
  std::string out = text;
  if (r == CUPTI_ERROR_INSUFFICIENT_PRIVILEGES)
    out += " (GPU profiling is restricted to admin users: run as root or load the driver with "
           "NVreg_RestrictProfilingToAdminUsers=0)";
  return out;
}

std::string driver_result(CUresult r) {
  const char* text = nullptr;
  if (driver().cuGetErrorString(r, &text) != CUDA_SUCCESS || text == nullptr)
    return "CUDA error " + std::to_string(static_cast<int>(r));
  return text;
}

void set_why(std::string* why, std::string text) {
  if (why != nullptr) *why = std::move(text);
}

// CUPTI needs a working driver with a device; checking first gives a clearer
// reason than CUPTI's own error and never drives CUPTI on a machine without one.
bool device_present(std::string* why) {
  const Driver& d = driver();
  if (!d.ok()) {
    set_why(why, "no CUDA driver: " + d.error);
    return false;
  }
  if (CUresult r = d.cuInit(0); r != CUDA_SUCCESS) {
    set_why(why, "cuInit failed: " + driver_result(r));
    return false;
  }
  int count = 0;
  if (CUresult r = d.cuDeviceGetCount(&count); r != CUDA_SUCCESS || count == 0) {
    set_why(why, r != CUDA_SUCCESS ? "cuDeviceGetCount failed: " + driver_result(r) : "no CUDA device");
    return false;
  }
  return true;
}

uint32_t os_thread_id() { return static_cast<uint32_t>(::syscall(SYS_gettid)); }

// Kiln's session clock minus CUPTI's, read back to back.
int64_t measure_clock_offset() {
  uint64_t cupti_ns = 0;
  int64_t before = trace::now_ns();
  if (cupti().cuptiGetTimestamp(&cupti_ns) != CUPTI_SUCCESS) return 0;
  int64_t after = trace::now_ns();
  return before + (after - before) / 2 - static_cast<int64_t>(cupti_ns);
}

const CUpti_ActivityKind kTracedKinds[] = {
    CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION, CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, CUPTI_ACTIVITY_KIND_MEMCPY,
    CUPTI_ACTIVITY_KIND_MEMSET, CUPTI_ACTIVITY_KIND_RUNTIME, CUPTI_ACTIVITY_KIND_DRIVER};

}  // namespace

CuptiCollector::~CuptiCollector() { stop(); }

bool CuptiCollector::start(std::string* why) {
  if (running_) return true;
  const Cupti& c = cupti();
  if (!c.ok()) {
    set_why(why, c.error);  // already names libcupti and where it was looked for
    return false;
  }
  if (!device_present(why)) return false;
  {
    std::lock_guard lock(g_active_mu);
    if (g_active != nullptr) {
      set_why(why, "another CUPTI collector is already running in this process");
      return false;
    }
    g_active = this;
  }
  // Ready before the first buffer can complete on CUPTI's thread.
  converter_.set_api_namer([](bool runtime, uint32_t cbid) {
    const char* name = nullptr;
    auto domain = runtime ? CUPTI_CB_DOMAIN_RUNTIME_API : CUPTI_CB_DOMAIN_DRIVER_API;
    if (cupti().cuptiGetCallbackName(domain, cbid, &name) == CUPTI_SUCCESS && name != nullptr) return std::string(name);
    return default_api_name(runtime, cbid);
  });
  converter_.set_clock_offset(measure_clock_offset());
  register_thread();
  // gettid, so API records name threads the way register_thread() does.
  c.cuptiSetThreadIdType(CUPTI_ACTIVITY_THREAD_ID_TYPE_SYSTEM);
  if (CUptiResult r = c.cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed); r != CUPTI_SUCCESS) {
    set_why(why, "cuptiActivityRegisterCallbacks failed: " + cupti_result(r));
  } else if (enable_kinds(why)) {
    running_ = true;
    return true;
  }
  std::lock_guard lock(g_active_mu);
  g_active = nullptr;
  return false;
}

bool CuptiCollector::enable_kinds(std::string* why) {
  for (CUpti_ActivityKind kind : kTracedKinds) {
    if (CUptiResult r = cupti().cuptiActivityEnable(kind); r != CUPTI_SUCCESS) {
      set_why(why, "cuptiActivityEnable(kind " + std::to_string(static_cast<int>(kind)) + ") failed: " +
                       cupti_result(r));
      disable_kinds();
      return false;
    }
    enabled_.push_back(kind);
  }
  return true;
}

void CuptiCollector::disable_kinds() {
  for (CUpti_ActivityKind kind : enabled_) cupti().cuptiActivityDisable(kind);
  enabled_.clear();
}

void CuptiCollector::flush() {
  if (!running_) return;
  // Re-read the clocks: a new trace session moves Kiln's origin, and the two
  // clocks may drift apart over a long run.
  converter_.set_clock_offset(measure_clock_offset());
  cupti().cuptiActivityFlushAll(0);
}

void CuptiCollector::stop() {
  if (!running_) return;
  converter_.set_clock_offset(measure_clock_offset());
  cupti().cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
  disable_kinds();
  std::lock_guard lock(g_active_mu);
  g_active = nullptr;
  running_ = false;
}

void CuptiCollector::note_launch(uint32_t correlation_id, uint64_t flow_id) {
  register_thread();
  converter_.note_launch(correlation_id, flow_id);
}

void CuptiCollector::push_flow(uint64_t flow_id) {
  if (!running_) return;
  register_thread();
  cupti().cuptiActivityPushExternalCorrelationId(CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0, flow_id);
}

void CuptiCollector::pop_flow() {
  if (!running_) return;
  uint64_t last = 0;
  cupti().cuptiActivityPopExternalCorrelationId(CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0, &last);
}

void CuptiCollector::register_thread() { converter_.note_thread(os_thread_id(), trace::thread_index()); }

void CuptiCollector::deliver(uint8_t* buffer, size_t valid_bytes) {
  trace::Session* session = trace::Session::current();
  if (session == nullptr) return;
  auto records = records_in_buffer(buffer, valid_bytes, cupti().cuptiActivityGetNextRecord);
  for (const trace::Event& e : converter_.events_from_records(records, session->strings())) session->record(e);
}

// ---------------------------------------------------------------------------
// CUDA-event fallback.

std::string event_timing_reason(const std::string& cupti_why) {
  // One line: the reason may quote a multi-line loader error ("...:\n  path: error").
  std::string line = "kernel timings from CUDA events: CUPTI unavailable: ";
  for (size_t i = 0; i < cupti_why.size(); ++i) {
    if (cupti_why[i] != '\n') {
      line += cupti_why[i];
      continue;
    }
    while (i + 1 < cupti_why.size() && cupti_why[i + 1] == ' ') ++i;
    line += line.back() == ':' ? " " : "; ";
  }
  return line;
}

namespace {

void check(CUresult r, const char* what) {
  if (r != CUDA_SUCCESS) throw Error(std::string(what) + " failed: " + driver_result(r));
}

const Driver& loaded_driver() {
  const Driver& d = driver();
  if (!d.ok()) throw Error("CUDA events need the CUDA driver: " + d.error);
  return d;
}

}  // namespace

EventTimer::EventTimer() {
  const Driver& d = loaded_driver();
  check(d.cuEventCreate(&start_, CU_EVENT_DEFAULT), "cuEventCreate");
  if (CUresult r = d.cuEventCreate(&stop_, CU_EVENT_DEFAULT); r != CUDA_SUCCESS) {
    d.cuEventDestroy(start_);
    check(r, "cuEventCreate");
  }
}

EventTimer::~EventTimer() {
  const Driver& d = driver();
  if (start_ != nullptr) d.cuEventDestroy(start_);
  if (stop_ != nullptr) d.cuEventDestroy(stop_);
}

void EventTimer::begin(CUstream stream) { check(driver().cuEventRecord(start_, stream), "cuEventRecord"); }

void EventTimer::end(CUstream stream) { check(driver().cuEventRecord(stop_, stream), "cuEventRecord"); }

int64_t EventTimer::elapsed_ns() {
  const Driver& d = driver();
  check(d.cuEventSynchronize(stop_), "cuEventSynchronize");
  float ms = 0;
  check(d.cuEventElapsedTime(&ms, start_, stop_), "cuEventElapsedTime");
  return static_cast<int64_t>(static_cast<double>(ms) * 1e6);
}

}  // namespace kiln::gpu
