// Per-snapshot analysis caching (see ui_analysis.h).
#include "profiler_ui/app/ui_analysis.h"

#include <chrono>
#include <utility>

namespace kiln::inspect::ui {

AnalysisCache::~AnalysisCache() {
  if (pending_.valid()) pending_.wait();
}

void AnalysisCache::reset() {
  if (pending_.valid()) pending_.wait();
  pending_ = {};
  offered_ = waiting_ = nullptr;
  done_ = nullptr;
}

std::shared_ptr<const Analysis> AnalysisCache::update(std::shared_ptr<const Session> snapshot) {
  if (!snapshot) return done_;
  if (sync_) {
    if (snapshot != offered_) offered_ = snapshot, done_ = analyze(snapshot, options_);
    return done_;
  }
  if (pending_.valid() && pending_.wait_for(std::chrono::seconds(0)) == std::future_status::ready)
    done_ = pending_.get();
  if (snapshot != offered_) waiting_ = snapshot;
  if (!pending_.valid() && waiting_) {
    offered_ = std::exchange(waiting_, nullptr);
    pending_ = std::async(std::launch::async, [s = offered_, o = options_] { return analyze(s, o); });
  }
  return done_;
}

std::shared_ptr<const Comparison> ComparisonCache::update(const std::shared_ptr<const Analysis>& a,
                                                          const std::shared_ptr<const Analysis>& b) {
  if (!a || !b) return nullptr;
  if (a != a_ || b != b_) {
    a_ = a, b_ = b;
    done_ = std::make_shared<const Comparison>(compare_sessions(*a->index, *b->index));
  }
  return done_;
}

}  // namespace kiln::inspect::ui
