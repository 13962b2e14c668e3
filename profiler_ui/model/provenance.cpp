// Provenance::build(): joins kernels, graph nodes and source lines both ways.
#include "profiler_ui/model/provenance.h"

#include <algorithm>
#include <map>
#include <set>

namespace kiln::inspect {

namespace {

template <typename T>
void sort_unique(std::vector<T>& v) {
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
}

}  // namespace

Provenance Provenance::build(const SessionIndex& index) {
  Provenance p;
  // Fused kernel names attributed to each graph (used where no plan was recorded).
  std::map<uint64_t, std::set<std::string>> names_by_graph;
  for (size_t i : index.kernels()) {
    std::string_view name = index.session().str(index.session().event(i).name);
    if (uint64_t g = index.kernel_graph(i); g != 0 && is_fused_kernel_name(name))  // not eager steps
      names_by_graph[g].insert(std::string(name));
  }
  // Kernel -> nodes: fused kernels from the plans (or the IR when there is
  // none); a node not in any fused kernel runs as its op's own kernel.
  for (const GraphInfo& g : index.graphs()) {
    std::vector<bool> fused(g.nodes.size(), false);
    std::vector<bool> claimed(g.nodes.size(), false);
    auto add = [&](const std::string& kernel, int n) {
      KernelProvenance& kp = p.by_kernel_[kernel];
      kp.kernel = kernel;
      kp.nodes.push_back({g.id, n});
      if (size_t(n) < g.nodes.size()) fused[size_t(n)] = true;
    };
    for (const FusedGroup& fg : g.plan)
      if (fg.fused)
        for (int n : fg.node_indices) add(fg.kernel, n);
    if (g.plan.empty()) {
      // Chrome JSON has no plans: use the fused kernels attributed to this graph.
      for (const std::string& name : names_by_graph[g.id])
        for (int n : nodes_of_fused_kernel(name, g.nodes, &claimed)) add(name, n);
    }
    for (const GraphNode& n : g.nodes) {
      if (!fused[size_t(n.index)]) add(n.op, n.index);
      if (!n.loc.known()) continue;
      LineProvenance& lp = p.by_line_[{n.loc.file, n.loc.line}];
      lp.line = SourceLoc{n.loc.file, n.loc.line, 0};
      lp.graphs.push_back(g.id);
      lp.nodes.push_back({g.id, n.index});
    }
  }
  // Lines of each kernel, and kernels of each line.
  for (auto& [name, kp] : p.by_kernel_) {
    sort_unique(kp.nodes);
    for (const KernelNodeRef& r : kp.nodes) {
      const GraphInfo* g = index.graph(r.graph_id);
      if (!g || size_t(r.node) >= g->nodes.size()) continue;
      const SourceLoc& loc = g->nodes[size_t(r.node)].loc;
      if (!loc.known()) continue;
      kp.lines.push_back(SourceLoc{loc.file, loc.line, 0});
      p.by_line_[{loc.file, loc.line}].kernels.push_back(name);
    }
    sort_unique(kp.lines);
  }
  for (auto& [key, lp] : p.by_line_) {
    sort_unique(lp.graphs);
    sort_unique(lp.kernels);
    sort_unique(lp.nodes);
  }
  return p;
}

KernelProvenance Provenance::of_kernel(const std::string& kernel_name) const {
  auto it = by_kernel_.find(kernel_name);
  if (it != by_kernel_.end()) return it->second;
  KernelProvenance none;
  none.kernel = kernel_name;
  return none;
}

LineProvenance Provenance::of_line(const std::string& file, int32_t line) const {
  auto it = by_line_.find({file, line});
  if (it != by_line_.end()) return it->second;
  LineProvenance none;
  none.line = SourceLoc{file, line, 0};
  return none;
}

std::vector<SourceLoc> Provenance::lines() const {
  std::vector<SourceLoc> out;
  for (const auto& [key, lp] : by_line_) out.push_back(lp.line);
  return out;
}

}  // namespace kiln::inspect
