// compile_payback(): per graph, compile cost against time saved per run.
#include "profiler_ui/model/compile_payback.h"

#include <cmath>
#include <cstdint>
#include <unordered_map>

namespace kiln::inspect {

PaybackRow payback_of(int64_t compile_ns, uint64_t runs, double compiled_ns_per_run, double interpreted_ns_per_run) {
  PaybackRow r;
  r.compile_ns = compile_ns;
  r.runs = runs;
  r.compiled_ns_per_run = compiled_ns_per_run;
  r.interpreted_ns_per_run = interpreted_ns_per_run;
  r.saved_ns_per_run = interpreted_ns_per_run - compiled_ns_per_run;
  r.saved_ns = r.saved_ns_per_run * double(runs);
  if (r.saved_ns_per_run > 0) {
    double calls = std::ceil(double(compile_ns) / r.saved_ns_per_run);
    r.calls_to_break_even = calls < 9e18 ? int64_t(calls) : INT64_MAX;  // a vanishing saving: effectively never
    r.paid_off = r.saved_ns >= double(compile_ns);
  }
  return r;
}

std::vector<PaybackRow> compile_payback(const SessionIndex& index) {
  const Session& s = index.session();
  // Mean eager time per op: kernels that ran outside any graph.
  std::unordered_map<std::string_view, std::pair<int64_t, uint64_t>> eager;
  for (size_t i : index.kernels()) {
    const trace::Event& e = s.event(i);
    std::string_view name = s.str(e.name);
    if (is_fused_kernel_name(name) || index.kernel_graph(i) != 0) continue;
    auto& [ns, n] = eager[name];
    ns += e.dur_ns;
    ++n;
  }
  std::vector<PaybackRow> rows;
  for (const GraphInfo& g : index.graphs()) {
    double interpreted = 0;
    uint64_t estimated = 0;
    for (const GraphNode& n : g.nodes) {
      auto it = eager.find(n.op);
      if (it == eager.end()) continue;
      interpreted += double(it->second.first) / double(it->second.second);
      ++estimated;
    }
    double compiled = g.runs == 0 ? 0 : double(g.runs_measured ? g.run_ns : g.kernel_ns) / double(g.runs);
    PaybackRow r = payback_of(g.compile_ns + g.codegen_ns, g.runs, compiled, interpreted);
    r.runs_measured = g.runs_measured;
    r.graph_id = g.id;
    r.region = g.region;
    r.estimated_nodes = estimated;
    r.after_recompile = g.after_recompile;
    r.recompile_never_paid_off = g.after_recompile && !r.paid_off;
    rows.push_back(std::move(r));
  }
  return rows;
}

SortValue payback_sort_key(const PaybackRow& r, int column) {
  switch (PaybackColumn(column)) {
    case PaybackColumn::Graph: return int64_t(r.graph_id);
    case PaybackColumn::Region: return std::string_view(r.region);
    case PaybackColumn::Compile: return r.compile_ns;
    case PaybackColumn::Runs: return int64_t(r.runs);
    case PaybackColumn::SavedPerRun: return r.saved_ns_per_run;
    // "never" sorts after every finite count.
    case PaybackColumn::BreakEven: return r.calls_to_break_even < 0 ? INT64_MAX : r.calls_to_break_even;
    case PaybackColumn::PaidOff: return int64_t(r.paid_off);
  }
  return int64_t(0);
}

bool payback_matches(const PaybackRow& r, const TextFilter& f) {
  std::string id = "graph " + std::to_string(r.graph_id);
  return f.matches({id, r.region});
}

}  // namespace kiln::inspect
