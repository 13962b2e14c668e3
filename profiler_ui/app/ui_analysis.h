// Keeps the model's Analysis in step with the snapshots a Source publishes:
// analyze() runs once per new snapshot, on a worker thread for the window
// (so a big live session never stalls a frame) or inline for the offscreen
// modes, and the views draw the last finished result.
#pragma once

#include <future>
#include <memory>

#include "profiler_ui/model/analysis.h"
#include "profiler_ui/model/compare.h"

namespace kiln::inspect::ui {

class AnalysisCache {
 public:
  explicit AnalysisCache(bool sync, AnalysisOptions options = {}) : sync_(sync), options_(options) {}
  ~AnalysisCache();
  // Offers the latest snapshot (null: none); returns the newest finished
  // analysis (null until the first one is done).
  std::shared_ptr<const Analysis> update(std::shared_ptr<const Session> snapshot);
  bool busy() const { return pending_.valid(); }
  void reset();

 private:
  bool sync_;
  AnalysisOptions options_;
  std::shared_ptr<const Session> offered_;    // the snapshot analyzed or being analyzed
  std::shared_ptr<const Session> waiting_;    // a newer one, started when the worker is free
  std::future<std::shared_ptr<const Analysis>> pending_;
  std::shared_ptr<const Analysis> done_;
};

// The Compare view's table for a pair, recomputed only when either side changes.
class ComparisonCache {
 public:
  std::shared_ptr<const Comparison> update(const std::shared_ptr<const Analysis>& a,
                                           const std::shared_ptr<const Analysis>& b);

 private:
  std::shared_ptr<const Analysis> a_, b_;
  std::shared_ptr<const Comparison> done_;
};

}  // namespace kiln::inspect::ui
