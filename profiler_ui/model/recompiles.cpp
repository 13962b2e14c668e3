// recompiles(): one row per Recompile event, joined to the graph compiled
// for it (its region), with expected/actual split out and storms flagged.
#include "profiler_ui/model/recompiles.h"

#include <algorithm>
#include <map>

namespace kiln::inspect {

namespace {

// "expected X, got Y[; note]" (jit/jit_events.cpp) -> X, Y, note.
void split_detail(std::string_view detail, RecompileRow& r) {
  size_t semi = detail.find("; ");
  if (semi != std::string_view::npos) {
    r.note = std::string(detail.substr(semi + 2));
    detail = detail.substr(0, semi);
  }
  constexpr std::string_view kExpected = "expected ", kGot = ", got ";
  if (detail.substr(0, kExpected.size()) == kExpected) detail.remove_prefix(kExpected.size());
  size_t got = detail.find(kGot);
  r.expected = std::string(detail.substr(0, got));
  if (got != std::string_view::npos) r.actual = std::string(detail.substr(got + kGot.size()));
}

}  // namespace

std::vector<RecompileRow> recompiles(const SessionIndex& index, RecompileOptions options) {
  const Session& s = index.session();
  // Graphs by compile time, to find the one each recompile produced.
  std::vector<const GraphInfo*> by_compile;
  for (const GraphInfo& g : index.graphs())
    if (!g.region.empty()) by_compile.push_back(&g);
  std::stable_sort(by_compile.begin(), by_compile.end(),
                   [](const GraphInfo* a, const GraphInfo* b) { return a->compile_ts_ns < b->compile_ts_ns; });
  std::vector<RecompileRow> rows;
  for (size_t i : index.recompiles()) {
    const trace::Event& e = s.event(i);
    RecompileRow r;
    r.guard = std::string(s.str(e.text));
    split_detail(s.str(e.detail), r);
    r.automatic_dynamic = r.note.find("dynamic from now on") != std::string::npos;
    r.cache_entries = e.a;
    r.loc = SourceLoc{std::string(s.str(e.loc.file)), e.loc.line, e.loc.col};
    r.ts_ns = e.ts_ns;
    r.event = i;
    r.graph_id = e.graph_id;
    auto it = std::lower_bound(by_compile.begin(), by_compile.end(), e.ts_ns,
                               [](const GraphInfo* g, int64_t t) { return g->compile_ts_ns < t; });
    if (r.graph_id == 0 && it != by_compile.end()) r.graph_id = (*it)->id;
    if (const GraphInfo* g = index.graph(r.graph_id)) r.region = g->region;
    if (r.region.empty()) r.region = std::string(s.str(e.stack));  // recorded with the event since graph ids were
    rows.push_back(std::move(r));
  }
  // Per region: how many recompiles, and whether its cache hit the limit. A
  // Recompile event counts the graphs before it adds one, so it never shows
  // a full cache; the guard failure that finds the cache full does (a
  // failure there runs the region in the interpreter, not a recompile).
  std::map<std::string, std::pair<uint64_t, bool>> regions;
  for (const RecompileRow& r : rows) {
    auto& [count, storm] = regions[r.region];
    ++count;
    storm = storm || r.cache_entries >= options.cache_limit;
  }
  for (size_t i : index.guard_fails()) {
    const trace::Event& e = s.event(i);
    auto it = regions.find(std::string(s.str(e.stack)));
    if (it != regions.end() && e.a >= options.cache_limit) it->second.second = true;
  }
  for (RecompileRow& r : rows) {
    r.region_recompiles = regions[r.region].first;
    r.storm = regions[r.region].second;
  }
  return rows;
}

SortValue recompile_sort_key(const RecompileRow& r, int column) {
  switch (RecompileColumn(column)) {
    case RecompileColumn::Region: return std::string_view(r.region);
    case RecompileColumn::Guard: return std::string_view(r.guard);
    case RecompileColumn::Expected: return std::string_view(r.expected);
    case RecompileColumn::Actual: return std::string_view(r.actual);
    case RecompileColumn::CacheEntries: return int64_t(r.cache_entries);
    case RecompileColumn::Dynamic: return int64_t(r.automatic_dynamic);
    case RecompileColumn::Storm: return int64_t(r.storm);
  }
  return int64_t(0);
}

bool recompile_matches(const RecompileRow& r, const TextFilter& f) {
  std::string loc = r.loc.str();
  return f.matches({r.region, r.guard, r.expected, r.actual, r.note, loc});
}

}  // namespace kiln::inspect
