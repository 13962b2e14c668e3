// The Timeline view's model: lanes (the interpreter, the compiler with its
// phases nested, each CPU worker thread, each GPU stream) and a level-of-
// detail query. Given a time range and a pixel width, query() returns per
// lane only what is visible: events outside the range are culled, and runs of
// events narrower than a pixel are merged into one item carrying their count,
// so a frame costs O(lanes * depth * pixels * log n) whatever the event count.
// Graph breaks and recompiles come back as markers, and the interpreted gap
// after each break as a shaded interval.
//
// Items at one depth of one lane never overlap (build() places an event that
// only partly overlaps its neighbour one level deeper), which is what lets
// the query skip a pixel's worth of events with one binary search.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "profiler_ui/model/session_index.h"

namespace kiln::inspect {

enum class LaneKind : uint8_t { Interpreter, Compiler, CpuWorker, GpuStream };
const char* lane_kind_name(LaneKind k);

struct Lane {
  LaneKind kind = LaneKind::Interpreter;
  std::string name;     // "interpreter", "compiler", "worker 2", "GPU 0 stream 7"
  uint16_t device = 0;  // 0: host; GPU d is d + 1
  uint32_t tid = 0;     // the thread or stream (Compiler: 0, it gathers every thread's compile spans)
  int depths = 0;       // nesting levels used
  size_t events = 0;
};

// One rectangle to draw. count == 1: exactly the event `event`;
// count > 1: `count` merged events starting at `event`'s, spanning [start, end).
struct DrawItem {
  int64_t start_ns = 0, end_ns = 0;
  float x0 = 0, x1 = 0;   // pixels from the view's left edge (may exceed the view; clamp when drawing)
  uint16_t depth = 0;
  uint32_t count = 1;
  size_t event = 0;       // Session event index of the first event
};

enum class MarkerKind : uint8_t { GraphBreak, Recompile, GuardFail };
struct Marker {
  MarkerKind kind = MarkerKind::GraphBreak;
  int64_t ts_ns = 0;
  float x = 0;
  size_t event = 0;
  uint32_t count = 1;  // markers closer than a pixel merge
};

// An interpreted gap after a graph break, shaded so idle time has a cause.
struct Gap {
  int64_t start_ns = 0, end_ns = 0;
  float x0 = 0, x1 = 0;
  size_t cause_event = 0;  // the GraphBreak event
};

struct LaneItems {
  size_t lane = 0;  // index into Timeline::lanes()
  std::vector<DrawItem> items;
};

struct TimelineView {
  int64_t start_ns = 0, end_ns = 0;
  float width_px = 0;
  std::vector<LaneItems> lanes;  // one per lane, in lanes() order
  std::vector<Marker> markers;
  std::vector<Gap> gaps;
  size_t item_count() const;
};

// Statistics of a selected time range: time per lane and per event name.
struct RangeStats {
  int64_t start_ns = 0, end_ns = 0;
  size_t events = 0;             // events overlapping the range
  struct NameTime {
    std::string name;
    uint64_t count = 0;
    int64_t ns = 0;              // time inside the range
  };
  std::vector<NameTime> by_name;  // sorted by time, descending (top 20)
  uint64_t graph_breaks = 0, recompiles = 0;
};

class Timeline {
 public:
  static std::shared_ptr<const Timeline> build(const SessionIndex& index);

  const std::vector<Lane>& lanes() const { return lanes_; }
  int64_t start_ns() const { return start_ns_; }
  int64_t end_ns() const { return end_ns_; }

  // What to draw for [start_ns, end_ns] on `width_px` pixels: every event
  // touching that closed range, x = 0 at start_ns. `min_px`: runs of events
  // narrower than this merge (1 pixel by default). Absurd arguments (NaN or
  // zero width, an inverted range) are clamped, never trusted.
  TimelineView query(int64_t start_ns, int64_t end_ns, float width_px, float min_px = 1.0f) const;
  // The same, reusing `out`'s buffers (no allocation in steady state).
  void query(int64_t start_ns, int64_t end_ns, float width_px, float min_px, TimelineView& out) const;

  // The event drawn at `ts` on a lane's depth, within `slop_ns`; for hover.
  std::optional<size_t> event_at(size_t lane, int depth, int64_t ts, int64_t slop_ns = 0) const;

  RangeStats range_stats(int64_t start_ns, int64_t end_ns) const;

 private:
  struct Level {  // one depth of one lane (or one marker kind): disjoint, sorted by start
    std::vector<int64_t> start, end;
    std::vector<uint32_t> event;
    void add(int64_t s, int64_t e, uint32_t ev) {
      start.push_back(s);
      end.push_back(e);
      event.push_back(ev);
    }
  };
  Timeline() = default;
  // Appends the visible, merged items of one level.
  static void query_level(const Level& lv, int64_t t0, int64_t t1, double px_per_ns, int64_t min_ns,
                          uint16_t depth, std::vector<DrawItem>& out);

  std::shared_ptr<const Session> session_;
  std::vector<Lane> lanes_;
  std::vector<std::vector<Level>> levels_;  // [lane][depth]
  Level markers_[3];                        // by MarkerKind; start == end == ts
  Level gaps_;                              // interpreted gaps after breaks; event = the break
  int64_t start_ns_ = 0, end_ns_ = 0;
};

}  // namespace kiln::inspect
