// GPU timings for the trace: CUPTI's activity records (kernels, copies,
// memsets, driver/runtime calls) become Kiln events, and where CUPTI cannot
// run, CUDA events time launches instead.
//
// The conversion (RecordConverter) is pure and needs neither CUPTI nor a
// device, so it is tested with synthetic records; CuptiCollector is the thin
// layer that starts CUPTI, hands it buffers and feeds completed buffers
// through the converter into the running trace session.
//
// Linking a CPU-side launch to its GPU execution: the launcher records its
// own launch event with a fresh flow_id, and tells the collector which CUPTI
// correlation id that launch got, either directly (note_launch) or by
// bracketing the driver call with push_flow()/pop_flow(), which makes CUPTI
// emit an external-correlation record the converter reads. The GPU event then
// carries the same flow_id, and the Chrome writer draws the arrow.
#pragma once

#include <cupti.h>

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "traces/event.h"

namespace kiln::gpu {

// Names a driver (runtime == false) or runtime API call from its callback id.
using ApiNamer = std::function<std::string(bool runtime, uint32_t cbid)>;

// Turns CUPTI activity records into Kiln events. Thread-safe: the launcher
// notes launches and threads while CUPTI's buffer thread converts.
class RecordConverter {
 public:
  // Kiln session time = CUPTI timestamp + offset.
  void set_clock_offset(int64_t offset_ns) { clock_offset_ns_.store(offset_ns, std::memory_order_relaxed); }
  int64_t clock_offset() const { return clock_offset_ns_.load(std::memory_order_relaxed); }

  // The launch with CUPTI correlation id `correlation_id` is flow `flow_id`.
  void note_launch(uint32_t correlation_id, uint64_t flow_id);
  // OS thread `os_tid` (gettid) is Kiln thread `kiln_tid` (trace::thread_index).
  void note_thread(uint32_t os_tid, uint32_t kiln_tid);
  void set_api_namer(ApiNamer namer);

  // Kernels -> GpuKernel, memcpy/memset -> MemCopy (device lanes, tid =
  // stream), driver/runtime calls -> host Span on the calling thread.
  // External-correlation records are read first, so a batch may hold a
  // launch's correlation and its kernel in any order. Records of other
  // kinds, records without timestamps and API calls from threads never
  // noted are skipped (counted in skipped()).
  std::vector<trace::Event> events_from_records(std::span<const CUpti_Activity* const> records,
                                                trace::StringTable& strings);

  size_t pending_launches() const;  // noted launches whose GPU record has not come yet
  uint64_t skipped() const;

 private:
  trace::Event kernel_event(const CUpti_ActivityKernel10& k, trace::StringTable& strings);
  trace::Event memcpy_event(const CUpti_ActivityMemcpy6& m, trace::StringTable& strings);
  trace::Event memset_event(const CUpti_ActivityMemset4& m, trace::StringTable& strings);
  bool api_event(const CUpti_ActivityAPI& a, bool runtime, trace::StringTable& strings, trace::Event& out);
  void device_timing(trace::Event& e, uint64_t start, uint64_t end, uint32_t device, uint32_t stream) const;
  uint64_t take_flow(uint32_t correlation_id);  // caller holds mu_

  mutable std::mutex mu_;
  std::atomic<int64_t> clock_offset_ns_{0};  // re-measured while CUPTI's thread converts
  std::map<uint32_t, uint64_t> flows_;                 // correlation id -> flow id
  std::unordered_map<uint32_t, uint32_t> threads_;     // OS tid -> Kiln tid
  std::unordered_map<uint64_t, std::string> api_names_;  // (runtime << 32 | cbid) -> name
  ApiNamer namer_;
  uint64_t skipped_ = 0;
};

// The records in a completed CUPTI buffer, in order: a loop over `next`
// (cuptiActivityGetNextRecord, or a fake in tests) until it stops.
using NextRecordFn = CUptiResult (*)(uint8_t*, size_t, CUpti_Activity**);
std::vector<const CUpti_Activity*> records_in_buffer(uint8_t* buffer, size_t valid_bytes, NextRecordFn next);

// CUPTI activity tracing for the process. One may run at a time (CUPTI's
// activity API is process-wide); completed buffers are converted and
// recorded into the current trace::Session (dropped when there is none).
class CuptiCollector {
 public:
  CuptiCollector() = default;
  ~CuptiCollector();  // stop()s
  CuptiCollector(const CuptiCollector&) = delete;
  CuptiCollector& operator=(const CuptiCollector&) = delete;

  // Enables kernel, memcpy, memset, driver and runtime activity. False with
  // the reason in *why when CUPTI cannot run here (no library, no driver or
  // device, insufficient privileges, another collector running).
  bool start(std::string* why);
  // Delivers every completed record (at sync points and exit).
  void flush();
  // Delivers everything, including incomplete records, and disables tracing.
  void stop();
  bool running() const { return running_; }

  // The launcher's side of flow linking; see the file comment.
  void note_launch(uint32_t correlation_id, uint64_t flow_id);
  void push_flow(uint64_t flow_id);  // before the driver call that launches
  void pop_flow();                   // after it
  // Lets API spans from the calling thread land on its trace row (start()
  // and note_launch() register their thread themselves).
  void register_thread();

  RecordConverter& converter() { return converter_; }

  // Used by CUPTI's buffer callback.
  void deliver(uint8_t* buffer, size_t valid_bytes);

 private:
  bool enable_kinds(std::string* why);
  void disable_kinds();

  RecordConverter converter_;
  std::vector<CUpti_ActivityKind> enabled_;
  bool running_ = false;
};

// The one line a summary prints when kernels are timed by CUDA events.
std::string event_timing_reason(const std::string& cupti_why);

// Times GPU work on one stream with a pair of CUDA driver events, for when
// CUPTI cannot start: begin() before the launch, end() after it, then
// elapsed_ns() (waits for the end event). Needs a current CUDA context.
// Throws kiln::Error when the driver reports a failure.
class EventTimer {
 public:
  EventTimer();
  ~EventTimer();
  EventTimer(const EventTimer&) = delete;
  EventTimer& operator=(const EventTimer&) = delete;

  void begin(CUstream stream);
  void end(CUstream stream);
  int64_t elapsed_ns();

 private:
  CUevent start_ = nullptr;
  CUevent stop_ = nullptr;
};

}  // namespace kiln::gpu
