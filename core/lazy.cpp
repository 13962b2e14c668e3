#include "core/lazy.h"

namespace kiln::lazy {

namespace {

Runner* g_runner = nullptr;
const Region* g_backward_region = nullptr;
size_t g_max_graph_ops = 0;

struct ThreadState {
  std::vector<const Region*> regions;  // open regions, innermost last
  int suspended = 0;
  uint64_t syncs = 0;
  bool running = false;  // inside run_pending: kernels read pending data legitimately
  SyncReason reason = SyncReason::DataAccess;
  std::vector<PendingOp> pending;
  GraphStart start;  // of the graph being captured
};
thread_local ThreadState t_state;

void mark_pending(const Tensor& t, bool on) {
  if (t.defined()) t.storage()->pending = on;
}

}  // namespace

const char* sync_reason_name(SyncReason r) {
  switch (r) {
#define KILN_SYNC_NAME(e, s) \
  case SyncReason::e:        \
    return s;
    KILN_SYNC_REASONS(KILN_SYNC_NAME)
#undef KILN_SYNC_NAME
  }
  return "unknown";
}

void set_runner(Runner* r) { g_runner = r; }

void set_backward_region(const Region* r) { g_backward_region = r; }
const Region* backward_region() { return g_runner ? g_backward_region : nullptr; }

bool active() { return !t_state.regions.empty() && g_runner != nullptr && !t_state.running; }

void begin_capture(const Region& region) {
  ThreadState& s = t_state;
  if (s.regions.empty()) s.start = {&region, region.start_site};
  s.regions.push_back(&region);
}

void end_capture(bool unwinding) {
  ThreadState& s = t_state;
  if (s.regions.empty()) return;
  if (s.regions.size() > 1) {
    s.regions.pop_back();
    return;
  }
  // Run what the region left before closing it, so its graph is keyed to it.
  struct Pop {
    ThreadState& s;
    ~Pop() {
      s.regions.pop_back();
      s.start = {};
    }
  } pop{s};
  sync(unwinding ? SyncReason::Exception : SyncReason::RegionEnd);
}

const Region* current_region() { return t_state.regions.empty() ? nullptr : t_state.regions.back(); }

void boundary(uint32_t site) {
  ThreadState& s = t_state;
  sync(SyncReason::RegionEnd);
  s.start = {current_region(), site};
}

bool has_pending() { return !t_state.pending.empty(); }

void record(const OpDef& op, std::vector<Value> args, std::vector<Tensor> outs, bool writes) {
  if (writes)
    for (const Tensor& t : outs) mark_pending(t, true);
  uint32_t site = g_runner ? g_runner->site() : 0;
  t_state.pending.push_back(PendingOp{&op, std::move(args), std::move(outs), site});
  if (g_max_graph_ops && t_state.pending.size() >= g_max_graph_ops) sync(SyncReason::SizeLimit);
}

void set_max_graph_ops(size_t n) { g_max_graph_ops = n; }

void sync(SyncReason reason) {
  ThreadState& s = t_state;
  if (s.pending.empty() || s.running) return;
  std::vector<PendingOp> ops;
  ops.swap(s.pending);
  ++s.syncs;
  // Kernels about to run read and write these storages: they stop being pending
  // now, whatever happens, so an error cannot leave a tensor unreadable.
  for (const PendingOp& p : ops)
    for (const Tensor& t : p.outs) mark_pending(t, false);
  GraphStart start = s.start;
  // The next graph resumes after this instruction (a break) or at the region's next boundary.
  s.start = {current_region(), reason == SyncReason::RegionEnd ? s.start.site : g_runner->resume_site()};
  s.running = true;
  struct Reset {
    bool& flag;
    ~Reset() { flag = false; }
  } reset{s.running};
  g_runner->run_pending(ops, reason, start);
}

ReasonScope::ReasonScope(SyncReason r) : prev_(t_state.reason) { t_state.reason = r; }
ReasonScope::~ReasonScope() { t_state.reason = prev_; }

void sync_for_data_access() {
  if (t_state.running) return;
  sync(t_state.reason);
}

Suspend::Suspend(SyncReason reason) {
  sync(reason);
  saved_.swap(t_state.regions);
  ++t_state.suspended;
}
Suspend::~Suspend() {
  --t_state.suspended;
  saved_.swap(t_state.regions);
}

bool suspended() { return t_state.suspended > 0; }
uint64_t sync_count() { return t_state.syncs; }

}  // namespace kiln::lazy
