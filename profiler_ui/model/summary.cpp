// summarize(): the Summary view's numbers from the session index.
#include "profiler_ui/model/summary.h"

#include <algorithm>
#include <set>
#include <unordered_map>

namespace kiln::inspect {

Summary summarize(const SessionIndex& index, size_t top_n) {
  const Session& s = index.session();
  Summary out;
  out.script = s.info().script_path;
  out.kiln_version = s.info().kiln_version;
  out.duration_ns = s.duration_ns();
  out.compiled_ns = index.compiled_ns();
  out.compiling_ns = index.compile_main_ns();
  out.compile_background_ns = std::max<int64_t>(0, index.compile_wall_ns() - index.compile_main_ns());
  out.interpreter_ns = std::max<int64_t>(0, out.duration_ns - out.compiled_ns - out.compiling_ns);
  out.graphs = index.graphs().size();
  out.graph_breaks = index.breaks().size();
  std::set<std::tuple<trace::StrId, trace::StrId, int32_t>> sites;
  for (size_t i : index.breaks()) {
    const trace::Event& e = s.event(i);
    sites.insert({e.detail, e.loc.file, e.loc.line});
  }
  out.graph_break_sites = sites.size();
  out.recompiles = index.recompiles().size();
  out.guard_failures = index.guard_fails().size();
  out.kernel_calls = index.kernels().size();
  out.events = s.event_count();
  out.dropped_events = s.dropped();
  out.load_errors = s.load_errors();

  std::unordered_map<trace::StrId, TopKernel> by_name;
  for (size_t i : index.kernels()) {
    const trace::Event& e = s.event(i);
    TopKernel& k = by_name[e.name];
    ++k.calls;
    k.total_ns += e.dur_ns;
    if (!is_fused_kernel_name(s.str(e.name)) || index.kernel_graph(i) == 0) out.eager_kernel_ns += e.dur_ns;
  }
  for (auto& [id, k] : by_name) {
    k.name = std::string(s.str(id));
    k.percent_of_run = out.duration_ns > 0 ? 100.0 * double(k.total_ns) / double(out.duration_ns) : 0;
    out.top_kernels.push_back(std::move(k));
  }
  std::sort(out.top_kernels.begin(), out.top_kernels.end(), [](const TopKernel& a, const TopKernel& b) {
    return a.total_ns != b.total_ns ? a.total_ns > b.total_ns : a.name < b.name;
  });
  if (out.top_kernels.size() > top_n) out.top_kernels.resize(top_n);
  return out;
}

}  // namespace kiln::inspect
