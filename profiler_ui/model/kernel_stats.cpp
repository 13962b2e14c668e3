// kernel_stats(): per-kernel time, traffic and throughput, joined to the
// graph nodes a fused kernel holds and to its generated code.
#include "profiler_ui/model/kernel_stats.h"

#include <algorithm>
#include <map>
#include <unordered_map>

namespace kiln::inspect {

double gigabytes_per_second(uint64_t bytes, int64_t ns) { return ns > 0 ? double(bytes) / double(ns) : 0; }

namespace {

std::string device_name(uint16_t device) { return device == 0 ? "cpu" : "gpu " + std::to_string(device - 1); }

// "output_code" texts by kernel name: the event's detail, or (older
// recordings) the "kernel NAME ..." line the text starts with (kir::Kernel::to_text).
std::unordered_map<std::string, std::string> code_by_kernel(const SessionIndex& index) {
  const Session& s = index.session();
  std::unordered_map<std::string, std::string> code;
  for (size_t i : index.output_code()) {
    const trace::Event& e = s.event(i);
    std::string_view text = s.str(e.text);
    std::string name(s.str(e.detail));
    if (name.empty()) {
      if (text.substr(0, 7) != "kernel ") continue;
      std::string_view rest = text.substr(7);
      name = std::string(rest.substr(0, rest.find_first_of(" \n")));
    }
    code.try_emplace(name, text);
  }
  return code;
}

// The graph nodes each fused kernel name holds, over every graph.
std::unordered_map<std::string, std::vector<KernelNodeRef>> nodes_by_kernel(const SessionIndex& index) {
  std::unordered_map<std::string, std::vector<KernelNodeRef>> out;
  for (const GraphInfo& g : index.graphs()) {
    if (!g.plan.empty()) {
      for (const FusedGroup& fg : g.plan)
        if (fg.fused)
          for (int n : fg.node_indices) out[fg.kernel].push_back({g.id, n});
    }
  }
  return out;
}

}  // namespace

std::vector<KernelRow> kernel_stats(const SessionIndex& index, KernelStatsOptions options) {
  const Session& s = index.session();
  std::map<std::pair<trace::StrId, uint16_t>, KernelRow> rows;
  for (size_t i : index.kernels()) {
    const trace::Event& e = s.event(i);
    KernelRow& r = rows[{e.name, e.device}];
    if (r.calls == 0) {
      r.name = std::string(s.str(e.name));
      r.device = device_name(e.device);
      r.fused = is_fused_kernel_name(r.name);
      r.shapes = std::string(s.str(e.text));
      r.min_ns = e.dur_ns;
    }
    ++r.calls;
    r.total_ns += e.dur_ns;
    r.min_ns = std::min(r.min_ns, e.dur_ns);
    r.max_ns = std::max(r.max_ns, e.dur_ns);
    r.bytes += e.a + e.b;
    r.flops += e.c;
    if (uint64_t g = index.kernel_graph(i); g != 0 && std::find(r.graphs.begin(), r.graphs.end(), g) == r.graphs.end())
      r.graphs.push_back(g);
  }
  auto code = code_by_kernel(index);
  auto nodes = nodes_by_kernel(index);
  int64_t duration = s.duration_ns();
  std::vector<KernelRow> out;
  for (auto& [key, r] : rows) {
    r.mean_ns = double(r.total_ns) / double(r.calls);
    r.percent_of_run = duration > 0 ? 100.0 * double(r.total_ns) / double(duration) : 0;
    r.gb_per_s = gigabytes_per_second(r.bytes, r.total_ns);
    r.percent_of_bandwidth = options.machine_bandwidth_gbps > 0 ? 100.0 * r.gb_per_s / options.machine_bandwidth_gbps : 0;
    r.gflop_per_s = r.total_ns > 0 ? double(r.flops) / double(r.total_ns) : 0;
    std::sort(r.graphs.begin(), r.graphs.end());
    if (auto it = code.find(r.name); it != code.end()) r.code = it->second;
    if (auto it = nodes.find(r.name); it != nodes.end()) {
      r.nodes = it->second;
    } else if (r.fused) {
      // No plan recorded (Chrome JSON): match the name against the IR of the graphs it ran for.
      for (uint64_t g : r.graphs)
        if (const GraphInfo* gi = index.graph(g))
          for (int n : nodes_of_fused_kernel(r.name, gi->nodes)) r.nodes.push_back({g, n});
    }
    out.push_back(std::move(r));
  }
  std::stable_sort(out.begin(), out.end(), [](const KernelRow& a, const KernelRow& b) {
    return a.total_ns != b.total_ns ? a.total_ns > b.total_ns : a.name < b.name;
  });
  return out;
}

SortValue kernel_sort_key(const KernelRow& r, int column) {
  switch (KernelColumn(column)) {
    case KernelColumn::Name: return std::string_view(r.name);
    case KernelColumn::Calls: return int64_t(r.calls);
    case KernelColumn::Total: return r.total_ns;
    case KernelColumn::Mean: return r.mean_ns;
    case KernelColumn::Min: return r.min_ns;
    case KernelColumn::Max: return r.max_ns;
    case KernelColumn::PercentOfRun: return r.percent_of_run;
    case KernelColumn::Bytes: return int64_t(r.bytes);
    case KernelColumn::GBps: return r.gb_per_s;
    case KernelColumn::Flops: return int64_t(r.flops);
  }
  return int64_t(0);
}

bool kernel_matches(const KernelRow& r, const TextFilter& f) { return f.matches({r.name, r.device, r.shapes}); }

}  // namespace kiln::inspect
