// CUPTI activity records -> Kiln events, from synthetic records built on the
// stack (no CUPTI call, no device), and CuptiCollector::start() failing
// cleanly where there is no GPU.
#include "gpu/cupti_collector.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "core/error.h"
#include "gpu/cuda_libs.h"
#include "traces/chrome_trace.h"

namespace kiln::gpu {
namespace {

using trace::Event;
using trace::EventKind;

CUpti_ActivityKernel10 kernel(uint32_t correlation, uint64_t start, uint64_t end, const char* name = "fused_add_relu") {
  CUpti_ActivityKernel10 k{};
  k.kind = CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL;
  k.start = start;
  k.end = end;
  k.deviceId = 0;
  k.streamId = 7;
  k.correlationId = correlation;
  k.name = name;
  return k;
}

CUpti_ActivityMemcpy6 memcpy_record(CUpti_ActivityMemcpyKind kind, uint64_t bytes, uint32_t correlation = 0) {
  CUpti_ActivityMemcpy6 m{};
  m.kind = CUPTI_ACTIVITY_KIND_MEMCPY;
  m.copyKind = static_cast<uint8_t>(kind);
  m.bytes = bytes;
  m.start = 1'000;
  m.end = 3'000;
  m.deviceId = 0;
  m.streamId = 14;
  m.correlationId = correlation;
  return m;
}

CUpti_ActivityAPI api(CUpti_ActivityKind kind, uint32_t cbid, uint32_t os_tid, uint64_t start, uint64_t end) {
  CUpti_ActivityAPI a{};
  a.kind = kind;
  a.cbid = cbid;
  a.start = start;
  a.end = end;
  a.threadId = os_tid;
  a.correlationId = 1;
  return a;
}

CUpti_ActivityExternalCorrelation external(CUpti_ExternalCorrelationKind kind, uint64_t id, uint32_t correlation) {
  CUpti_ActivityExternalCorrelation c{};
  c.kind = CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION;
  c.externalKind = kind;
  c.externalId = id;
  c.correlationId = correlation;
  return c;
}

template <class Record>
const CUpti_Activity* as_activity(const Record& r) {
  return reinterpret_cast<const CUpti_Activity*>(&r);
}

// Converts the given records in order.
template <class... Records>
std::vector<Event> convert(RecordConverter& conv, trace::StringTable& strings, const Records&... records) {
  std::vector<const CUpti_Activity*> list{as_activity(records)...};
  return conv.events_from_records(list, strings);
}

TEST(CuptiRecords, KernelIsAGpuKernelOnItsDeviceAndStream) {
  RecordConverter conv;
  trace::StringTable strings;
  auto k = kernel(5, 10'000, 12'500);
  k.deviceId = 1;
  k.streamId = 13;
  auto events = convert(conv, strings, k);
  ASSERT_EQ(events.size(), 1u);
  const Event& e = events[0];
  EXPECT_EQ(e.kind, EventKind::GpuKernel);
  EXPECT_EQ(e.cat, trace::Category::gpu);
  EXPECT_EQ(e.device, 2);  // GPU 1
  EXPECT_EQ(e.tid, 13u);
  EXPECT_EQ(e.ts_ns, 10'000);
  EXPECT_EQ(e.dur_ns, 2'500);
  EXPECT_EQ(strings.str(e.name), "fused_add_relu");
  EXPECT_EQ(e.flow_id, 0u);
}

TEST(CuptiRecords, LegacyKernelKindAndNamelessKernelsConvertToo) {
  RecordConverter conv;
  trace::StringTable strings;
  auto k = kernel(5, 100, 200, nullptr);
  k.kind = CUPTI_ACTIVITY_KIND_KERNEL;
  auto events = convert(conv, strings, k);
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].kind, EventKind::GpuKernel);
  EXPECT_EQ(strings.str(events[0].name), "kernel");
}

TEST(CuptiRecords, TimestampsMoveIntoTheSessionClock) {
  RecordConverter conv;
  trace::StringTable strings;
  conv.set_clock_offset(-1'000'000'000);  // CUPTI's clock is 1 s ahead of the session's
  EXPECT_EQ(conv.clock_offset(), -1'000'000'000);
  auto events = convert(conv, strings, kernel(1, 1'000'004'000, 1'000'009'000));
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].ts_ns, 4'000);
  EXPECT_EQ(events[0].dur_ns, 5'000);
  conv.set_clock_offset(250);
  events = convert(conv, strings, memcpy_record(CUPTI_ACTIVITY_MEMCPY_KIND_HTOD, 8));
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].ts_ns, 1'250);
  EXPECT_EQ(events[0].dur_ns, 2'000);
}

TEST(CuptiRecords, UntimedRecordsAreSkippedAndBackwardsOnesLastZero) {
  RecordConverter conv;
  trace::StringTable strings;
  auto untimed = kernel(1, 0, 0);
  auto backwards = kernel(2, 5'000, 4'000);
  auto events = convert(conv, strings, untimed, backwards);
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].ts_ns, 5'000);
  EXPECT_EQ(events[0].dur_ns, 0);
  EXPECT_EQ(conv.skipped(), 1u);
}

TEST(CuptiRecords, NotedCorrelationBecomesTheKernelsFlow) {
  RecordConverter conv;
  trace::StringTable strings;
  conv.note_launch(42, 9001);
  conv.note_launch(43, 9002);
  EXPECT_EQ(conv.pending_launches(), 2u);
  auto events = convert(conv, strings, kernel(43, 100, 200), kernel(42, 300, 400));
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(events[0].flow_id, 9002u);
  EXPECT_EQ(events[1].flow_id, 9001u);
  EXPECT_EQ(conv.pending_launches(), 0u);  // each launch runs one kernel
}

TEST(CuptiRecords, UnknownCorrelationHasNoFlow) {
  RecordConverter conv;
  trace::StringTable strings;
  conv.note_launch(42, 9001);
  auto events = convert(conv, strings, kernel(41, 100, 200), kernel(44, 300, 400));
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(events[0].flow_id, 0u);
  EXPECT_EQ(events[1].flow_id, 0u);
  EXPECT_EQ(conv.pending_launches(), 1u);  // 42 still waits for its kernel
  // A used correlation does not link a second time.
  EXPECT_EQ(convert(conv, strings, kernel(42, 1, 2))[0].flow_id, 9001u);
  EXPECT_EQ(convert(conv, strings, kernel(42, 3, 4))[0].flow_id, 0u);
}

TEST(CuptiRecords, LaunchesWhoseRecordsWereLostAreForgotten) {
  RecordConverter conv;
  trace::StringTable strings;
  conv.note_launch(1, 11);
  conv.note_launch(200'000, 22);
  auto events = convert(conv, strings, kernel(200'000, 1, 2));
  EXPECT_EQ(events[0].flow_id, 22u);
  EXPECT_EQ(conv.pending_launches(), 0u);
}

TEST(CuptiRecords, ExternalCorrelationLinksInAnyOrderWithinABatch) {
  RecordConverter conv;
  trace::StringTable strings;
  auto k = kernel(77, 100, 200);
  auto ours = external(CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0, 5555, 77);
  auto theirs = external(CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM1, 6666, 78);
  auto k2 = kernel(78, 300, 400);
  auto events = convert(conv, strings, k, ours, theirs, k2);
  ASSERT_EQ(events.size(), 2u);  // correlation records are not events
  EXPECT_EQ(events[0].flow_id, 5555u);
  EXPECT_EQ(events[1].flow_id, 0u);  // another tool's correlation kind
  EXPECT_EQ(conv.skipped(), 0u);
}

TEST(CuptiRecords, MemcpyNamesAndBytesFollowTheDirection) {
  RecordConverter conv;
  trace::StringTable strings;
  conv.note_launch(9, 99);
  auto events = convert(conv, strings, memcpy_record(CUPTI_ACTIVITY_MEMCPY_KIND_HTOD, 4096, 9),
                        memcpy_record(CUPTI_ACTIVITY_MEMCPY_KIND_DTOH, 2048),
                        memcpy_record(CUPTI_ACTIVITY_MEMCPY_KIND_DTOD, 1024),
                        memcpy_record(CUPTI_ACTIVITY_MEMCPY_KIND_HTOH, 512));
  ASSERT_EQ(events.size(), 4u);
  for (const Event& e : events) {
    EXPECT_EQ(e.kind, EventKind::MemCopy);
    EXPECT_EQ(e.cat, trace::Category::gpu);
    EXPECT_EQ(e.device, 1);
    EXPECT_EQ(e.tid, 14u);
  }
  EXPECT_EQ(strings.str(events[0].name), "memcpy HtoD");
  EXPECT_EQ(events[0].a, 0u);
  EXPECT_EQ(events[0].b, 4096u);  // written to the device
  EXPECT_EQ(events[0].flow_id, 99u);
  EXPECT_EQ(strings.str(events[1].name), "memcpy DtoH");
  EXPECT_EQ(events[1].a, 2048u);  // read from the device
  EXPECT_EQ(events[1].b, 0u);
  EXPECT_EQ(events[1].flow_id, 0u);
  EXPECT_EQ(strings.str(events[2].name), "memcpy DtoD");
  EXPECT_EQ(events[2].a, 1024u);
  EXPECT_EQ(events[2].b, 1024u);
  EXPECT_EQ(strings.str(events[3].name), "memcpy HtoH");
}

TEST(CuptiRecords, MemsetWritesItsBytes) {
  RecordConverter conv;
  trace::StringTable strings;
  CUpti_ActivityMemset4 m{};
  m.kind = CUPTI_ACTIVITY_KIND_MEMSET;
  m.bytes = 1 << 20;
  m.start = 50;
  m.end = 80;
  m.deviceId = 3;
  m.streamId = 21;
  m.correlationId = 4;
  conv.note_launch(4, 40);
  auto events = convert(conv, strings, m);
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].kind, EventKind::MemCopy);
  EXPECT_EQ(strings.str(events[0].name), "memset");
  EXPECT_EQ(events[0].device, 4);
  EXPECT_EQ(events[0].tid, 21u);
  EXPECT_EQ(events[0].b, uint64_t{1} << 20);
  EXPECT_EQ(events[0].dur_ns, 30);
  EXPECT_EQ(events[0].flow_id, 40u);
}

TEST(CuptiRecords, ApiCallsAreHostSpansOnTheirThread) {
  RecordConverter conv;
  trace::StringTable strings;
  conv.set_clock_offset(-100);
  conv.note_thread(31337, 3);
  std::vector<std::pair<bool, uint32_t>> asked;
  conv.set_api_namer([&](bool runtime, uint32_t cbid) {
    asked.emplace_back(runtime, cbid);
    return std::string(runtime ? "cudaLaunchKernel" : "cuLaunchKernel");
  });
  auto drv = api(CUPTI_ACTIVITY_KIND_DRIVER, 307, 31337, 1'100, 1'600);
  auto rt = api(CUPTI_ACTIVITY_KIND_RUNTIME, 211, 31337, 1'000, 1'700);
  auto stranger = api(CUPTI_ACTIVITY_KIND_DRIVER, 307, 4242, 1'000, 1'700);
  auto events = convert(conv, strings, drv, rt, stranger, drv);
  ASSERT_EQ(events.size(), 3u);  // the unregistered thread's call is skipped
  EXPECT_EQ(conv.skipped(), 1u);
  EXPECT_EQ(events[0].kind, EventKind::Span);
  EXPECT_EQ(events[0].cat, trace::Category::gpu);
  EXPECT_EQ(events[0].device, 0);
  EXPECT_EQ(events[0].tid, 3u);
  EXPECT_EQ(events[0].ts_ns, 1'000);
  EXPECT_EQ(events[0].dur_ns, 500);
  EXPECT_EQ(events[0].flow_id, 0u);  // the launcher's own event carries the flow
  EXPECT_EQ(strings.str(events[0].name), "cuLaunchKernel");
  EXPECT_EQ(strings.str(events[1].name), "cudaLaunchKernel");
  EXPECT_EQ(events[2].name, events[0].name);
  // Each (domain, cbid) is named once.
  ASSERT_EQ(asked.size(), 2u);
  EXPECT_EQ(asked[0], std::make_pair(false, 307u));
  EXPECT_EQ(asked[1], std::make_pair(true, 211u));
}

TEST(CuptiRecords, ApiCallsWithoutANamerGetANumberedName) {
  RecordConverter conv;
  trace::StringTable strings;
  conv.note_thread(7, 1);
  auto events = convert(conv, strings, api(CUPTI_ACTIVITY_KIND_DRIVER, 307, 7, 1, 2));
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(strings.str(events[0].name), "cuda driver call 307");
}

TEST(CuptiRecords, OtherKindsAreSkipped) {
  RecordConverter conv;
  trace::StringTable strings;
  CUpti_ActivityKernel10 odd{};
  odd.kind = CUPTI_ACTIVITY_KIND_MARKER;
  EXPECT_TRUE(convert(conv, strings, odd).empty());
  EXPECT_EQ(conv.skipped(), 1u);
}

// A fake cuptiActivityGetNextRecord over a buffer of back-to-back records:
// the first 8 bytes of each hold its size (the kind field is read first, so
// records here carry their size after the kind in a padded header).
struct FakeRecord {
  CUpti_ActivityKind kind;
  uint32_t size;
};

CUptiResult fake_next(uint8_t* buffer, size_t valid, CUpti_Activity** record) {
  uint8_t* at = buffer;
  if (*record != nullptr) {
    auto* cur = reinterpret_cast<uint8_t*>(*record);
    FakeRecord head;
    std::memcpy(&head, cur, sizeof head);
    at = cur + head.size;
  }
  if (at >= buffer + valid) return CUPTI_ERROR_MAX_LIMIT_REACHED;
  *record = reinterpret_cast<CUpti_Activity*>(at);
  return CUPTI_SUCCESS;
}

TEST(CuptiBuffer, RecordsComeOutInOrderUntilCuptiSaysStop) {
  alignas(8) uint8_t buffer[64] = {};
  FakeRecord a{CUPTI_ACTIVITY_KIND_MEMCPY, 16}, b{CUPTI_ACTIVITY_KIND_KERNEL, 24}, c{CUPTI_ACTIVITY_KIND_DRIVER, 8};
  std::memcpy(buffer, &a, sizeof a);
  std::memcpy(buffer + 16, &b, sizeof b);
  std::memcpy(buffer + 40, &c, sizeof c);
  auto records = records_in_buffer(buffer, 48, fake_next);
  ASSERT_EQ(records.size(), 3u);
  EXPECT_EQ(reinterpret_cast<const uint8_t*>(records[0]), buffer);
  EXPECT_EQ(records[1]->kind, CUPTI_ACTIVITY_KIND_KERNEL);
  EXPECT_EQ(records[2]->kind, CUPTI_ACTIVITY_KIND_DRIVER);
  EXPECT_TRUE(records_in_buffer(buffer, 0, fake_next).empty());
  EXPECT_TRUE(records_in_buffer(nullptr, 48, fake_next).empty());
}

// The converted kernel and the launcher's host event make one arrow in the
// Chrome trace, with the kernel on its GPU's own process and stream row.
TEST(CuptiRecords, ChromeTraceLinksTheLaunchToTheConvertedKernel) {
  RecordConverter conv;
  trace::StringTable strings;
  conv.note_launch(500, 77);
  auto k = kernel(500, 20'000, 30'000);
  k.deviceId = 1;
  k.streamId = 9;
  std::vector<Event> events;
  Event launch;
  launch.kind = EventKind::Kernel;
  launch.cat = trace::Category::kernel;
  launch.tid = 1;
  launch.ts_ns = 10'000;
  launch.dur_ns = 5'000;
  launch.name = strings.intern("fused_add_relu");
  launch.flow_id = 77;
  events.push_back(launch);
  for (const Event& e : convert(conv, strings, k)) events.push_back(e);

  std::string path = (std::filesystem::temp_directory_path() / ("kiln_cupti_" + std::to_string(getpid()) + ".json")).string();
  trace::write_chrome_trace(path, events, strings);
  nlohmann::json doc = nlohmann::json::parse(std::ifstream(path));
  std::filesystem::remove(path);

  const nlohmann::json *start = nullptr, *finish = nullptr, *gpu = nullptr;
  std::string gpu_process;
  for (const auto& e : doc) {
    if (e["ph"] == "s") start = &e;
    if (e["ph"] == "f") finish = &e;
    if (e["ph"] == "X" && e["pid"] != 1) gpu = &e;
    if (e["ph"] == "M" && e["name"] == "process_name" && e["pid"] == 3) gpu_process = e["args"]["name"];
  }
  ASSERT_TRUE(start && finish && gpu);
  EXPECT_EQ((*start)["id"], 77);
  EXPECT_EQ((*finish)["id"], 77);
  EXPECT_EQ((*start)["pid"], 1);
  EXPECT_EQ((*gpu)["pid"], 3);  // GPU 1
  EXPECT_EQ((*gpu)["tid"], 9);  // its stream
  EXPECT_EQ((*finish)["pid"], 3);
  EXPECT_EQ((*finish)["tid"], 9);
  EXPECT_EQ(gpu_process, "GPU 1");
}

TEST(CuptiCollector, StartEitherRunsOrSaysWhy) {
  CuptiCollector collector;
  std::string why;
  bool ok = collector.start(&why);
  EXPECT_EQ(collector.running(), ok);
  if (ok) {
    collector.flush();
    collector.stop();
    EXPECT_FALSE(collector.running());
    return;
  }
  EXPECT_FALSE(why.empty());
  // The collector stays usable and inert after a failed start.
  collector.push_flow(1);
  collector.pop_flow();
  collector.flush();
  collector.stop();
  std::string again;
  EXPECT_FALSE(collector.start(&again));
  EXPECT_FALSE(again.empty());
}

TEST(CuptiCollector, WithoutADriverStartFailsWithAReason) {
  if (driver().ok()) GTEST_SKIP() << "a CUDA driver is installed here";
  CuptiCollector collector;
  std::string why;
  EXPECT_FALSE(collector.start(&why));
  EXPECT_FALSE(collector.running());
  EXPECT_FALSE(why.empty());
  EXPECT_FALSE(collector.start(nullptr));  // a caller may not want the reason
}

TEST(CuptiFallback, ReasonIsOneLineNamingCupti) {
  std::string line = event_timing_reason(
      "no CUDA driver: cannot load libcuda.so.1:\n  libcuda.so.1: not found\n  /lib/libcuda.so.1: gone");
  EXPECT_EQ(line.rfind("kernel timings from CUDA events: CUPTI unavailable: no CUDA driver", 0), 0u);
  EXPECT_EQ(line.find('\n'), std::string::npos);
  EXPECT_NE(line.find("cannot load libcuda.so.1: libcuda.so.1: not found; /lib/libcuda.so.1: gone"), std::string::npos)
      << line;
}

TEST(CuptiFallback, EventTimerWithoutAContextIsAnError) {
  // No context is current in this test (and no driver on CPU-only machines).
  EXPECT_THROW(EventTimer timer, kiln::Error);
}

}  // namespace
}  // namespace kiln::gpu
