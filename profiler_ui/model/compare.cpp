// compare_sessions(): side-by-side rows of two sessions, matched by stable keys.
#include "profiler_ui/model/compare.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "profiler_ui/model/graph_breaks.h"
#include "profiler_ui/model/kernel_stats.h"
#include "profiler_ui/model/recompiles.h"

namespace kiln::inspect {

const char* presence_name(Presence p) {
  switch (p) {
    case Presence::Both: return "both";
    case Presence::OnlyA: return "only in A";
    case Presence::OnlyB: return "only in B";
  }
  return "";
}

namespace {

Presence presence_of(bool a, bool b) { return a && b ? Presence::Both : a ? Presence::OnlyA : Presence::OnlyB; }

std::vector<GraphDiff> diff_graphs(const SessionIndex& a, const SessionIndex& b) {
  // Several graphs may share region and hash (a recompile that produced the
  // same IR): pair them in compile order.
  std::map<std::pair<std::string, uint64_t>, std::pair<std::vector<const GraphInfo*>, std::vector<const GraphInfo*>>> m;
  for (const GraphInfo& g : a.graphs()) m[{g.region, g.hash}].first.push_back(&g);
  for (const GraphInfo& g : b.graphs()) m[{g.region, g.hash}].second.push_back(&g);
  std::vector<GraphDiff> out;
  for (auto& [key, sides] : m) {
    size_t n = std::max(sides.first.size(), sides.second.size());
    for (size_t i = 0; i < n; ++i) {
      const GraphInfo* ga = i < sides.first.size() ? sides.first[i] : nullptr;
      const GraphInfo* gb = i < sides.second.size() ? sides.second[i] : nullptr;
      GraphDiff d;
      d.region = key.first;
      d.hash = key.second;
      if (ga) d.id_a = ga->id, d.op_count_a = ga->op_count, d.compile_ns_a = ga->compile_ns + ga->codegen_ns;
      if (gb) d.id_b = gb->id, d.op_count_b = gb->op_count, d.compile_ns_b = gb->compile_ns + gb->codegen_ns;
      d.presence = presence_of(ga, gb);
      out.push_back(std::move(d));
    }
  }
  return out;
}

std::vector<BreakDiff> diff_breaks(const SessionIndex& a, const SessionIndex& b) {
  std::map<std::pair<std::string, SourceLoc>, BreakDiff> m;
  auto add = [&](const SessionIndex& idx, bool side_a) {
    for (const BreakRow& r : graph_breaks(idx)) {
      BreakDiff& d = m[{r.category, SourceLoc{r.loc.file, r.loc.line, 0}}];
      d.category = r.category;
      d.loc = SourceLoc{r.loc.file, r.loc.line, 0};
      if (d.message.empty()) d.message = r.message;
      (side_a ? d.count_a : d.count_b) += r.count;
      (side_a ? d.time_lost_a : d.time_lost_b) += r.time_lost_ns;
    }
  };
  add(a, true);
  add(b, false);
  std::vector<BreakDiff> out;
  for (auto& [key, d] : m) {
    d.presence = presence_of(d.count_a > 0, d.count_b > 0);
    out.push_back(std::move(d));
  }
  std::stable_sort(out.begin(), out.end(), [](const BreakDiff& x, const BreakDiff& y) {
    auto change = [](const BreakDiff& d) { return d.count_a > d.count_b ? d.count_a - d.count_b : d.count_b - d.count_a; };
    return change(x) > change(y);
  });
  return out;
}

std::vector<RecompileDiff> diff_recompiles(const SessionIndex& a, const SessionIndex& b) {
  std::map<std::pair<std::string, std::string>, RecompileDiff> m;
  for (const RecompileRow& r : recompiles(a)) {
    RecompileDiff& d = m[{r.region, r.guard}];
    d.region = r.region, d.guard = r.guard, ++d.count_a;
  }
  for (const RecompileRow& r : recompiles(b)) {
    RecompileDiff& d = m[{r.region, r.guard}];
    d.region = r.region, d.guard = r.guard, ++d.count_b;
  }
  std::vector<RecompileDiff> out;
  for (auto& [key, d] : m) {
    d.presence = presence_of(d.count_a > 0, d.count_b > 0);
    out.push_back(std::move(d));
  }
  return out;
}

std::vector<KernelDiff> diff_kernels(const SessionIndex& a, const SessionIndex& b) {
  std::map<std::string, KernelDiff> m;
  bool seen_a = false;
  for (const SessionIndex* idx : {&a, &b}) {
    bool side_a = !seen_a;
    seen_a = true;
    for (const KernelRow& r : kernel_stats(*idx)) {
      KernelDiff& d = m[r.name];
      d.name = r.name;
      (side_a ? d.calls_a : d.calls_b) += r.calls;
      (side_a ? d.total_ns_a : d.total_ns_b) += r.total_ns;
    }
  }
  std::vector<KernelDiff> out;
  for (auto& [name, d] : m) {
    d.mean_ns_a = d.calls_a ? double(d.total_ns_a) / double(d.calls_a) : 0;
    d.mean_ns_b = d.calls_b ? double(d.total_ns_b) / double(d.calls_b) : 0;
    d.presence = presence_of(d.calls_a > 0, d.calls_b > 0);
    if (d.presence == Presence::Both && d.total_ns_a > 0)
      d.change_percent = 100.0 * double(d.total_ns_b - d.total_ns_a) / double(d.total_ns_a);
    out.push_back(std::move(d));
  }
  std::stable_sort(out.begin(), out.end(), [](const KernelDiff& x, const KernelDiff& y) {
    return std::llabs(x.total_ns_b - x.total_ns_a) > std::llabs(y.total_ns_b - y.total_ns_a);
  });
  return out;
}

}  // namespace

Comparison compare_sessions(const SessionIndex& a, const SessionIndex& b) {
  Comparison c;
  c.a = summarize(a);
  c.b = summarize(b);
  c.graphs = diff_graphs(a, b);
  c.breaks = diff_breaks(a, b);
  c.recompiles = diff_recompiles(a, b);
  c.kernels = diff_kernels(a, b);
  return c;
}

}  // namespace kiln::inspect
