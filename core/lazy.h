// Deferred execution: the tracing JIT's view of eager dispatch.
//
// While a capture is active on this thread, dispatch does everything an
// eager op does (binds, checks shapes and dtypes, allocates outputs, records
// autograd, bumps versions) except run the kernel: it appends a PendingOp
// and marks the storages the kernel would write as pending. View ops still
// set their outputs' metadata at once (that reads no data) and are recorded
// too. The pending ops form one graph; it runs when anything needs a pending
// storage's data (Tensor::raw_data is the one door to tensor data), when the
// JIT ends a region (a loop iteration, a compiled function's return), or when
// the capture ends. Python keeps running normally in between, so control
// flow, side effects and exceptions are the interpreter's, exact by
// construction; the graph only ever holds tensor work whose inputs it has.
//
// core knows nothing of the JIT: the JIT installs a Runner that turns the
// pending ops into a graph, finds or compiles it, and executes it.
#pragma once

#include <cstdint>
#include <vector>

#include "core/op_table.h"

namespace kiln::lazy {

// Why a graph had to run before its region ended (a graph break's category).
#define KILN_SYNC_REASONS(_)                                                                    \
  _(RegionEnd, "region_end")             /* the region ended: not a break */                  \
  _(SizeLimit, "size_limit")             /* the graph reached its op limit and ends cleanly */ \
  _(DataAccess, "data_access")           /* C++ read a pending tensor's data */               \
  _(Item, "item")                        /* .item(), float(t), int(t): a tensor as a Python number */ \
  _(Tolist, "tolist")                    /* .tolist() */                                      \
  _(DataDependentBranch, "data_dependent_branch") /* if t / while t / bool(t) */              \
  _(Print, "print")                      /* print, str, repr, format of a tensor */           \
  _(DataDependentShape, "data_dependent_shape")  /* nonzero, masked_select: shape from data */ \
  _(DataDependentCheck, "data_dependent_check")  /* an index/target to validate is pending */ \
  _(MetadataMutation, "metadata_mutation") /* t_(), .data = ...: rewrites a tensor in place */ \
  _(Disabled, "disabled")                /* torch.compiler.disable'd code was called */       \
  _(DeviceSync, "device_synchronize")    /* torch.cuda.synchronize(): queued work must run */  \
  _(Exception, "exception")              /* an exception left the region */

enum class SyncReason : uint8_t {
#define KILN_SYNC_ENUM(e, s) e,
  KILN_SYNC_REASONS(KILN_SYNC_ENUM)
#undef KILN_SYNC_ENUM
};
const char* sync_reason_name(SyncReason r);  // "item", "data_dependent_branch", ...

// One op whose kernel has not run. args are the bound arguments exactly as
// dispatch saw them (tensors alias the caller's); outs are the outputs,
// allocated (views: final metadata) but not yet written. For an in-place op,
// outs[0] is args[0].
struct PendingOp {
  const OpDef* op = nullptr;
  std::vector<Value> args;
  std::vector<Tensor> outs;
  uint32_t site = 0;  // where in the script (Runner::site), 0 unknown
};

// A capturing region: a torch.compile'd call, a hot function, a hot loop.
// Regions nest; an inner one is inlined into the outer one's graphs.
struct Region {
  const void* key = nullptr;   // identity for caches and reports (the JIT's region object)
  uint32_t start_site = 0;     // where its first graph starts (Runner::site)
  bool fullgraph = false;      // a graph break is an error (torch.compile(fullgraph=True))
};

// The graph being captured: which region, and where it started (the region's
// start, a loop back-edge, or the instruction after a graph break).
struct GraphStart {
  const Region* region = nullptr;  // innermost region at the start
  uint32_t site = 0;
  // A side graph: only what a check needed ran ahead; the graph being
  // captured goes on, so this is no graph break.
  bool side = false;
};

// What the JIT provides.
class Runner {
 public:
  virtual ~Runner() = default;
  // Runs (and takes) the pending ops of this thread; `reason` says why now.
  // Called with capture still active; must execute every op in order.
  virtual void run_pending(std::vector<PendingOp>& ops, SyncReason reason, const GraphStart& start) = 0;
  // An opaque id of the script location now (the VM's frame and pc), stored
  // in PendingOp::site; 0 when unknown. Called once per recorded op.
  virtual uint32_t site() = 0;
  // Where the graph after a break starts: the user's line that broke (site()
  // may point inside library code the user called).
  virtual uint32_t resume_site() { return site(); }
};
void set_runner(Runner* r);  // the JIT installs itself once; nullptr uninstalls

// Capture nesting on this thread. Dispatch defers while a region is open.
bool active();
void begin_capture(const Region& region);  // `region` must outlive its capture
// Ends the innermost region; when it was the outermost, runs what is pending
// (RegionEnd). `unwinding`: an exception is leaving the region.
void end_capture(bool unwinding = false);
const Region* current_region();  // innermost open region, null when none
// A boundary inside a region (a hot loop's back-edge): what is pending runs as
// one graph (RegionEnd) and the next graph starts at `site`.
void boundary(uint32_t site);

// A graph ends cleanly (SizeLimit) when it reaches this many ops, so an
// unrolled loop cannot grow one without bound. 0: no limit.
void set_max_graph_ops(size_t n);

// Dispatch's side: append an op. `writes`: its kernel writes its outputs'
// storages (marked pending); false for views, which only set metadata.
void record(const OpDef& op, std::vector<Value> args, std::vector<Tensor> outs, bool writes = true);
bool has_pending();

// Runs whatever is pending now, for `reason`. A no-op when nothing pends.
void sync(SyncReason reason);

// The reason a pending-data read will be reported with: call sites that read
// tensor data for a known purpose (item, print, a branch) set it for their scope.
class ReasonScope {
 public:
  explicit ReasonScope(SyncReason r);
  ~ReasonScope();
  ReasonScope(const ReasonScope&) = delete;
  ReasonScope& operator=(const ReasonScope&) = delete;

 private:
  SyncReason prev_;
};

// The region backward passes run in (autograd's run_backward opens it), so
// each backward is one graph; null (the default, or no runner): eager backward.
void set_backward_region(const Region* r);
const Region* backward_region();

// Tensor::raw_data's slow path: pending `storage` is being read. For an index
// an op validates (DataDependentCheck), only the pending ops it depends on run
// (a subgraph) when the rest can safely wait, and the graph being captured
// goes on; otherwise everything pending runs.
void sync_for_data_access(const Storage* storage);

// Inside a Suspend scope (a torch.compiler.disable'd call): no region opens.
bool suspended();
// Graphs run so far on this thread (dispatch notices when a shape function
// had to run the pending graph: the op then runs at once, its inputs ready).
uint64_t sync_count();

// Suspends deferral (dispatch runs eagerly) for a scope, running what pends
// first with `reason`: torch.compiler.disable'd calls, the runner's own work.
class Suspend {
 public:
  explicit Suspend(SyncReason reason);
  ~Suspend();
  Suspend(const Suspend&) = delete;
  Suspend& operator=(const Suspend&) = delete;

 private:
  std::vector<const Region*> saved_;
};

}  // namespace kiln::lazy
