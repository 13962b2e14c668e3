#include "core/lazy.h"

#include <algorithm>
#include <unordered_set>

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

namespace {

bool writes(const PendingOp& p) { return p.op->kind != OpKind::View; }

// Runs `ops` (taken from the pending list) as one graph.
void run_graph(std::vector<PendingOp>& ops, SyncReason reason, const GraphStart& start) {
  ThreadState& s = t_state;
  ++s.syncs;
  // Kernels about to run read and write these storages: they stop being pending
  // now, whatever happens, so an error cannot leave a tensor unreadable. What
  // ops still pending will write stays pending.
  for (const PendingOp& p : ops)
    for (const Tensor& t : p.outs) mark_pending(t, false);
  for (const PendingOp& p : s.pending)
    if (writes(p))
      for (const Tensor& t : p.outs) mark_pending(t, true);
  s.running = true;
  struct Reset {
    bool& flag;
    ~Reset() { flag = false; }
  } reset{s.running};
  g_runner->run_pending(ops, reason, start);
}

// The pending ops `needed`'s value depends on: the last writers of it and,
// transitively, of what they read. Empty when running them ahead would let a
// later write reach an earlier, unselected reader (then everything must run).
std::vector<bool> ops_needed_for(const std::vector<PendingOp>& ops, const Storage* needed) {
  std::unordered_set<const Storage*> need{needed};
  std::vector<bool> chosen(ops.size(), false);
  for (size_t i = ops.size(); i-- > 0;) {
    const PendingOp& p = ops[i];
    if (!writes(p)) continue;
    bool hit = false;
    for (const Tensor& t : p.outs) hit = hit || (t.defined() && need.count(t.storage().get()));
    if (!hit) continue;
    chosen[i] = true;
    for_each_tensor(p.args, [&](const Tensor& t) { need.insert(t.storage().get()); });
  }
  // Write-after-read: a chosen op must not overwrite what an earlier op left behind still reads.
  std::unordered_set<const Storage*> written_later;
  for (size_t i = ops.size(); i-- > 0;) {
    if (chosen[i]) {
      for (const Tensor& t : ops[i].outs)
        if (t.defined() && writes(ops[i])) written_later.insert(t.storage().get());
      continue;
    }
    bool hazard = false;
    for_each_tensor(ops[i].args, [&](const Tensor& t) { hazard = hazard || written_later.count(t.storage().get()); });
    if (hazard) return {};
  }
  return chosen;
}

}  // namespace

void sync(SyncReason reason) {
  ThreadState& s = t_state;
  if (s.pending.empty() || s.running) return;
  std::vector<PendingOp> ops;
  ops.swap(s.pending);
  GraphStart start = s.start;
  // The next graph resumes after this instruction (a break) or at the region's next boundary.
  s.start = {current_region(), reason == SyncReason::RegionEnd ? s.start.site : g_runner->resume_site()};
  run_graph(ops, reason, start);
}

namespace {

// Runs what `storage` needs as a graph of its own; the rest stays pending and
// the graph being captured goes on. False when that is not safe.
bool sync_subgraph(const Storage* storage, SyncReason reason) {
  ThreadState& s = t_state;
  std::vector<bool> chosen = ops_needed_for(s.pending, storage);
  size_t n = size_t(std::count(chosen.begin(), chosen.end(), true));
  size_t writers = size_t(std::count_if(s.pending.begin(), s.pending.end(), writes));
  if (n == 0 || n == writers) return false;  // everything is needed: the graph ends here
  std::vector<PendingOp> now, later;
  for (size_t i = 0; i < s.pending.size(); ++i) (chosen[i] ? now : later).push_back(std::move(s.pending[i]));
  s.pending = std::move(later);
  run_graph(now, reason, {current_region(), g_runner->resume_site(), true});
  return true;
}

}  // namespace

ReasonScope::ReasonScope(SyncReason r) : prev_(t_state.reason) { t_state.reason = r; }
ReasonScope::~ReasonScope() { t_state.reason = prev_; }

void sync_for_data_access(const Storage* storage) {
  ThreadState& s = t_state;
  if (s.running || s.pending.empty()) return;
  // Indices validated before a lookup (embedding, gather) usually come from the
  // data pipeline at the start of a step: running just them lets the step stay
  // one graph. A value Python reads (.item(), a branch) ends the graph instead,
  // which keeps the iteration that logs the same graph as the one that does not.
  if (s.reason == SyncReason::DataDependentCheck && sync_subgraph(storage, s.reason)) return;
  sync(s.reason);
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
