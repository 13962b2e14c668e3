// The loader and every view over hostile input: the trace reader's corpus,
// and truncations and bit flips of the fixtures. Each input must load or
// return an error, and whatever loads must analyze and draw without crashing
// (run under ASan+UBSan to make "without crashing" strict).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include "fixture_util.h"
#include "profiler_ui/model/compare.h"

namespace kiln::inspect {
namespace {

using testing::read_bytes;

// Loads `bytes`; on success runs every view. Returns whether it loaded.
bool exercise(const std::string& bytes, const std::string& name) {
  LoadResult r = load_bytes(bytes, name);
  if (!r.ok()) {
    EXPECT_FALSE(r.error.empty()) << name;
    return false;
  }
  auto a = analyze(r.session, AnalysisOptions{10.0, 8, 10});
  const Timeline& t = *a->timeline;
  TimelineView v = t.query(t.start_ns(), t.end_ns(), 800);
  t.query(t.start_ns(), t.start_ns() + (t.end_ns() - t.start_ns()) / 7, 800, 1.0f, v);
  t.range_stats(t.start_ns(), t.end_ns());
  for (size_t l = 0; l < t.lanes().size(); ++l) t.event_at(l, 0, t.start_ns());
  for (const KernelRow& k : a->kernels) a->provenance.of_kernel(k.name);
  for (const SourceLoc& line : a->provenance.lines()) a->provenance.of_line(line.file, line.line);
  compare_sessions(*a->index, *a->index);
  return true;
}

TEST(LoaderFuzz, TraceReaderCorpus) {
  size_t files = 0, loaded = 0, clean = 0;
  for (const auto& entry : std::filesystem::directory_iterator(KILN_TRACE_CORPUS)) {
    if (!entry.is_regular_file()) continue;
    ++files;
    std::string name = entry.path().filename().string();
    LoadResult r = load_file(entry.path().string());
    if (r.ok()) {
      ++loaded;
      if (r.session->load_errors().empty()) ++clean;
      // valid_* files are well-formed streams: they must load without errors.
      if (name.rfind("valid_", 0) == 0) {
        EXPECT_TRUE(r.session->load_errors().empty()) << name << ": " << r.session->load_errors().front();
      }
    } else {
      EXPECT_NE(r.error.find(entry.path().string()), std::string::npos) << "error should name the file: " << r.error;
    }
    exercise(read_bytes(entry.path().string()), name);
  }
  EXPECT_GE(files, 100u);
  EXPECT_GE(clean, 8u);     // the valid_* files
  EXPECT_LT(clean, files);  // and the bad ones are not silently clean
}

TEST(LoaderFuzz, TruncatedFixtures) {
  for (const char* fx : {"graph_breaks_short.kilntrace", "graph_breaks_short.json", "train_gpt.kilntrace"}) {
    std::string bytes = read_bytes(testing::fixture(fx));
    ASSERT_GT(bytes.size(), 1000u) << fx;
    size_t loaded = 0;
    const size_t kCuts = 48;
    for (size_t i = 0; i < kCuts; ++i) {
      size_t cut = i < 16 ? i * 3 : bytes.size() * (i - 15) / (kCuts - 15);
      loaded += exercise(bytes.substr(0, cut), std::string(fx) + " cut at " + std::to_string(cut));
    }
    EXPECT_GT(loaded, kCuts / 2) << fx << ": most cuts keep the events before them";
  }
}

TEST(LoaderFuzz, BitFlippedFixtures) {
  std::mt19937_64 rng(7);
  for (const char* fx : {"graph_breaks_short.kilntrace", "graph_breaks_short.json"}) {
    std::string bytes = read_bytes(testing::fixture(fx));
    ASSERT_FALSE(bytes.empty());
    for (int round = 0; round < 60; ++round) {
      std::string m = bytes;
      int flips = 1 + round % 8;
      for (int f = 0; f < flips; ++f) m[rng() % m.size()] ^= char(1u << (rng() % 8));
      exercise(m, std::string(fx) + " flip round " + std::to_string(round));
    }
  }
}

TEST(LoaderFuzz, HostileEventFields) {
  // Every event kind with extreme values, through the same pipeline.
  std::vector<trace::Event> events;
  for (int k = 0; k < 9; ++k) {
    trace::Event e;
    e.kind = trace::EventKind(k);
    e.cat = trace::Category(k % 7);
    e.ts_ns = k % 2 ? INT64_MAX : INT64_MIN;
    e.dur_ns = k % 3 ? INT64_MAX : -1;
    e.name = 999999;  // undefined string id
    e.loc = {888888, -5, INT32_MAX};
    e.graph_id = UINT64_MAX;
    e.a = e.b = e.c = UINT64_MAX;
    e.device = uint16_t(k);
    e.tid = UINT32_MAX;
    events.push_back(e);
  }
  auto s = Session::from_events({}, events, {""});
  auto a = analyze(s);
  EXPECT_EQ(a->summary.events, 9u);
  EXPECT_GE(a->summary.duration_ns, 0);
  TimelineView v = a->timeline->query(a->timeline->start_ns(), a->timeline->end_ns(), 100);
  EXPECT_LE(v.item_count(), 9u);
}

}  // namespace
}  // namespace kiln::inspect
