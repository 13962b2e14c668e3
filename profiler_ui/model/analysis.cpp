// analyze(): every aggregation of one snapshot, in one place and order.
#include "profiler_ui/model/analysis.h"

namespace kiln::inspect {

std::shared_ptr<const Analysis> analyze(std::shared_ptr<const Session> session, const AnalysisOptions& options) {
  auto a = std::make_shared<Analysis>();
  a->session = session;
  a->index = SessionIndex::build(std::move(session));  // every view below reads it
  const SessionIndex& idx = *a->index;
  a->summary = summarize(idx, options.top_kernels);
  a->breaks = graph_breaks(idx);
  a->recompiles = recompiles(idx, RecompileOptions{options.cache_limit});
  a->kernels = kernel_stats(idx, KernelStatsOptions{options.machine_bandwidth_gbps});
  a->payback = compile_payback(idx);
  a->provenance = Provenance::build(idx);
  a->timeline = Timeline::build(idx);
  return a;
}

}  // namespace kiln::inspect
