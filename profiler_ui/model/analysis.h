// Everything the views show for one snapshot, computed in one call: the UI
// calls analyze() when it gets a new snapshot (on a worker thread if it likes:
// the result is immutable) and draws from the result until the next one.
#pragma once

#include <memory>
#include <vector>

#include "profiler_ui/model/compile_payback.h"
#include "profiler_ui/model/graph_breaks.h"
#include "profiler_ui/model/kernel_stats.h"
#include "profiler_ui/model/provenance.h"
#include "profiler_ui/model/recompiles.h"
#include "profiler_ui/model/session.h"
#include "profiler_ui/model/session_index.h"
#include "profiler_ui/model/summary.h"
#include "profiler_ui/model/timeline.h"

namespace kiln::inspect {

struct AnalysisOptions {
  double machine_bandwidth_gbps = 0;  // for the kernels' % of bandwidth; 0: unknown
  uint64_t cache_limit = 8;           // KILN_CACHE_LIMIT of the recorded run
  size_t top_kernels = 10;
};

struct Analysis {
  std::shared_ptr<const Session> session;
  std::shared_ptr<const SessionIndex> index;  // graphs: index->graphs()
  Summary summary;
  std::vector<BreakRow> breaks;
  std::vector<RecompileRow> recompiles;
  std::vector<KernelRow> kernels;
  std::vector<PaybackRow> payback;
  Provenance provenance;
  std::shared_ptr<const Timeline> timeline;
};

// Never throws on any session a loader produced.
std::shared_ptr<const Analysis> analyze(std::shared_ptr<const Session> session, const AnalysisOptions& options = {});

}  // namespace kiln::inspect
