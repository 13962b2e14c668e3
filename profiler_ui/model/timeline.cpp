// Timeline: lanes built once per snapshot (events sorted and packed into
// non-overlapping depth levels), then a level-of-detail query per frame.
#include "profiler_ui/model/timeline.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <unordered_map>

namespace kiln::inspect {

namespace {

// Deeper nesting than this is not drawn (real traces nest a few dozen deep;
// a hostile file could nest a million).
constexpr size_t kMaxDepth = 128;

struct Item {
  int64_t start, end;
  uint32_t event;
};

// Lane identity while building: kind, device, tid.
using LaneKey = std::tuple<int, uint16_t, uint32_t>;

LaneKey lane_key(const trace::Event& e, uint32_t main_tid) {
  if (e.device != 0) return {int(LaneKind::GpuStream), e.device, e.tid};
  if (e.cat == trace::Category::compile) return {int(LaneKind::Compiler), 0, 0};
  if (e.tid == main_tid) return {int(LaneKind::Interpreter), 0, 0};
  return {int(LaneKind::CpuWorker), 0, e.tid};
}

std::string lane_name(const LaneKey& k) {
  auto [kind, device, tid] = k;
  switch (LaneKind(kind)) {
    case LaneKind::Interpreter: return "interpreter";
    case LaneKind::Compiler: return "compiler";
    case LaneKind::CpuWorker: return "worker " + std::to_string(tid);
    case LaneKind::GpuStream: return "GPU " + std::to_string(device - 1) + " stream " + std::to_string(tid);
  }
  return "lane";
}

}  // namespace

const char* lane_kind_name(LaneKind k) {
  switch (k) {
    case LaneKind::Interpreter: return "interpreter";
    case LaneKind::Compiler: return "compiler";
    case LaneKind::CpuWorker: return "cpu worker";
    case LaneKind::GpuStream: return "gpu stream";
  }
  return "lane";
}

size_t TimelineView::item_count() const {
  size_t n = 0;
  for (const LaneItems& l : lanes) n += l.items.size();
  return n;
}

std::shared_ptr<const Timeline> Timeline::build(const SessionIndex& index) {
  auto t = std::shared_ptr<Timeline>(new Timeline());
  t->session_ = index.session_ptr();
  const Session& s = *t->session_;
  t->start_ns_ = s.first_ns();
  t->end_ns_ = s.last_ns();
  std::map<LaneKey, std::vector<Item>> by_lane;
  s.for_each_event([&](size_t i, const trace::Event& e) {
    switch (e.kind) {
      case trace::EventKind::Span:
      case trace::EventKind::Kernel:
      case trace::EventKind::GpuKernel:
      case trace::EventKind::MemCopy:
        by_lane[lane_key(e, index.main_tid())].push_back({e.ts_ns, e.ts_ns + e.dur_ns, uint32_t(i)});
        break;
      case trace::EventKind::GraphBreak: t->markers_[int(MarkerKind::GraphBreak)].add(e.ts_ns, e.ts_ns, uint32_t(i)); break;
      case trace::EventKind::Recompile: t->markers_[int(MarkerKind::Recompile)].add(e.ts_ns, e.ts_ns, uint32_t(i)); break;
      case trace::EventKind::GuardFail: t->markers_[int(MarkerKind::GuardFail)].add(e.ts_ns, e.ts_ns, uint32_t(i)); break;
      case trace::EventKind::Counter:
      case trace::EventKind::Log: break;
    }
  });
  for (Level& m : t->markers_) {
    std::vector<size_t> order(m.start.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return m.start[a] < m.start[b]; });
    Level sorted;
    for (size_t i : order) sorted.add(m.start[i], m.end[i], m.event[i]);
    m = std::move(sorted);
  }
  // Gaps after breaks end at the next break at the latest, so they are disjoint and sorted.
  for (size_t b : index.breaks()) {
    int64_t ts = s.event(b).ts_ns;
    int64_t end = index.gap_end_after(ts);
    if (end > ts) t->gaps_.add(ts, end, uint32_t(b));
  }
  for (auto& [key, items] : by_lane) {
    // Outer spans first at equal starts, so children nest under them.
    std::sort(items.begin(), items.end(), [](const Item& a, const Item& b) {
      return a.start != b.start ? a.start < b.start : a.end > b.end;
    });
    std::vector<Level> levels;
    std::vector<std::pair<int64_t, size_t>> open;  // (end, depth) of enclosing items
    for (const Item& it : items) {
      while (!open.empty() && open.back().first <= it.start) open.pop_back();
      size_t d = open.empty() ? 0 : open.back().second + 1;
      // A partial overlap (not nested) goes deeper until a level is free.
      while (d < levels.size() && !levels[d].end.empty() && levels[d].end.back() > it.start) ++d;
      if (d >= kMaxDepth) continue;
      if (d >= levels.size()) levels.resize(d + 1);
      levels[d].add(it.start, it.end, it.event);
      open.push_back({it.end, d});
    }
    Lane lane;
    lane.kind = LaneKind(std::get<0>(key));
    lane.device = std::get<1>(key);
    lane.tid = std::get<2>(key);
    lane.name = lane_name(key);
    lane.depths = int(levels.size());
    lane.events = items.size();
    t->lanes_.push_back(std::move(lane));
    t->levels_.push_back(std::move(levels));
  }
  return t;
}

// Culls to [t0, t1) and merges runs of sub-pixel items: a merged run swallows
// every item starting within min_ns of its end with one binary search, so the
// cost is per pixel, not per event.
void Timeline::query_level(const Level& lv, int64_t t0, int64_t t1, double px_per_ns, int64_t min_ns,
                           uint16_t depth, std::vector<DrawItem>& out) {
  const size_t n = lv.start.size();
  // Ends are sorted too (items are disjoint): the first visible item is the first ending at or after t0.
  size_t i = size_t(std::lower_bound(lv.end.begin(), lv.end.end(), t0) - lv.end.begin());
  auto px = [&](int64_t t) { return float(double(t - t0) * px_per_ns); };
  while (i < n && lv.start[i] <= t1) {
    DrawItem d;
    d.depth = depth;
    d.event = lv.event[i];
    d.start_ns = lv.start[i];
    d.end_ns = lv.end[i];
    if (d.end_ns - d.start_ns >= min_ns) {
      ++i;
    } else {
      d.count = 0;
      for (;;) {
        int64_t boundary = d.end_ns + min_ns;
        size_t j = size_t(std::lower_bound(lv.start.begin() + std::ptrdiff_t(i), lv.start.end(), boundary) -
                          lv.start.begin());
        j = std::max(j, i + 1);
        d.count += uint32_t(std::min<size_t>(j - i, UINT32_MAX - d.count));
        d.end_ns = std::max(d.end_ns, lv.end[j - 1]);
        i = j;
        // Keep merging while the next item is itself narrow and within a pixel.
        if (i >= n || lv.start[i] > t1 || lv.start[i] - d.end_ns >= min_ns || lv.end[i] - lv.start[i] >= min_ns) break;
      }
    }
    d.x0 = px(d.start_ns);
    d.x1 = px(d.end_ns);
    out.push_back(d);
  }
}

TimelineView Timeline::query(int64_t start_ns, int64_t end_ns, float width_px, float min_px) const {
  TimelineView v;
  query(start_ns, end_ns, width_px, min_px, v);
  return v;
}

void Timeline::query(int64_t start_ns, int64_t end_ns, float width_px, float min_px, TimelineView& out) const {
  // Event times lie within +-kMaxTimeNs: clamping the view keeps its arithmetic exact.
  out.start_ns = std::clamp(start_ns, -2 * kMaxTimeNs, 2 * kMaxTimeNs);
  out.end_ns = std::max(std::clamp(end_ns, -2 * kMaxTimeNs, 2 * kMaxTimeNs), out.start_ns + 1);
  // Written so NaN and absurd sizes from a caller fall back to sane ones.
  out.width_px = width_px >= 1.0f && width_px <= 1e7f ? width_px : 1.0f;
  float merge_px = min_px >= 0.0f && min_px <= out.width_px ? min_px : 1.0f;
  double px_per_ns = double(out.width_px) / double(out.end_ns - out.start_ns);
  int64_t min_ns = std::max<int64_t>(1, int64_t(std::ceil(double(merge_px) / px_per_ns)));
  out.lanes.resize(lanes_.size());
  for (size_t l = 0; l < lanes_.size(); ++l) {
    out.lanes[l].lane = l;
    out.lanes[l].items.clear();
    for (size_t d = 0; d < levels_[l].size(); ++d)
      query_level(levels_[l][d], out.start_ns, out.end_ns, px_per_ns, min_ns, uint16_t(d), out.lanes[l].items);
  }
  // Markers and gaps reuse the level query: a marker is a zero-length item.
  std::vector<DrawItem> tmp;
  out.markers.clear();
  for (int k = 0; k < 3; ++k) {
    tmp.clear();
    query_level(markers_[k], out.start_ns, out.end_ns, px_per_ns, min_ns, 0, tmp);
    for (const DrawItem& d : tmp) out.markers.push_back({MarkerKind(k), d.start_ns, d.x0, d.event, d.count});
  }
  tmp.clear();
  query_level(gaps_, out.start_ns, out.end_ns, px_per_ns, min_ns, 0, tmp);
  out.gaps.clear();
  for (const DrawItem& d : tmp) out.gaps.push_back({d.start_ns, d.end_ns, d.x0, d.x1, d.event});
}

std::optional<size_t> Timeline::event_at(size_t lane, int depth, int64_t ts, int64_t slop_ns) const {
  if (lane >= levels_.size() || depth < 0 || size_t(depth) >= levels_[lane].size()) return std::nullopt;
  const Level& lv = levels_[lane][size_t(depth)];
  ts = std::clamp(ts, -2 * kMaxTimeNs, 2 * kMaxTimeNs);
  slop_ns = std::clamp(slop_ns, int64_t(0), kMaxTimeNs);
  // The last item starting at or before ts + slop; it is the only candidate (items are disjoint).
  auto it = std::upper_bound(lv.start.begin(), lv.start.end(), ts + slop_ns);
  if (it == lv.start.begin()) return std::nullopt;
  size_t i = size_t(it - lv.start.begin()) - 1;
  if (lv.end[i] + slop_ns < ts) return std::nullopt;
  return lv.event[i];
}

RangeStats Timeline::range_stats(int64_t start_ns, int64_t end_ns) const {
  RangeStats r;
  start_ns = std::clamp(start_ns, -2 * kMaxTimeNs, 2 * kMaxTimeNs);
  end_ns = std::clamp(end_ns, start_ns, 2 * kMaxTimeNs);
  r.start_ns = start_ns;
  r.end_ns = end_ns;
  std::unordered_map<trace::StrId, RangeStats::NameTime> by_name;
  for (const auto& levels : levels_)
    for (const Level& lv : levels) {
      size_t i = size_t(std::lower_bound(lv.end.begin(), lv.end.end(), start_ns) - lv.end.begin());
      for (; i < lv.start.size() && lv.start[i] <= end_ns; ++i) {
        const trace::Event& e = session_->event(lv.event[i]);
        auto& nt = by_name[e.name];
        ++nt.count;
        nt.ns += std::min(lv.end[i], end_ns) - std::max(lv.start[i], start_ns);
        ++r.events;
      }
    }
  for (auto& [id, nt] : by_name) {
    nt.name = std::string(session_->str(id));
    r.by_name.push_back(std::move(nt));
  }
  std::sort(r.by_name.begin(), r.by_name.end(), [](const RangeStats::NameTime& a, const RangeStats::NameTime& b) {
    return a.ns != b.ns ? a.ns > b.ns : a.name < b.name;
  });
  if (r.by_name.size() > 20) r.by_name.resize(20);
  auto count_in = [&](const Level& m) {
    auto lo = std::lower_bound(m.start.begin(), m.start.end(), start_ns);
    auto hi = std::upper_bound(m.start.begin(), m.start.end(), end_ns);
    return uint64_t(hi - lo);
  };
  r.graph_breaks = count_in(markers_[int(MarkerKind::GraphBreak)]);
  r.recompiles = count_in(markers_[int(MarkerKind::Recompile)]);
  return r;
}

}  // namespace kiln::inspect
