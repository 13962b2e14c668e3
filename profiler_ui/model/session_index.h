// Facts about a session that several views need, computed once per snapshot:
// which thread is the interpreter, the compiled graphs (graphs.h) with their
// kernels attributed, event lists sorted by time, and the "compiled activity"
// intervals used to measure interpreted gaps after graph breaks.
//
// Build it once per Session snapshot (O(n log n)) and pass it to the
// aggregation entry points (summary.h, graph_breaks.h, ...). Immutable.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "profiler_ui/model/graphs.h"
#include "profiler_ui/model/session.h"

namespace kiln::inspect {

// Fused kernels are named "fused_<ops>" by the code generator.
bool is_fused_kernel_name(std::string_view name);
// The region of a "compile <region>" span name ("" if it is not one).
std::string_view compile_region_of(std::string_view span_name);

class SessionIndex {
 public:
  static std::shared_ptr<const SessionIndex> build(std::shared_ptr<const Session> session);

  const Session& session() const { return *session_; }
  const std::shared_ptr<const Session>& session_ptr() const { return session_; }

  // The interpreter's thread: the host tid with the most interpreter spans
  // (or the most events when there are none).
  uint32_t main_tid() const { return main_tid_; }

  // Compiled graphs, sorted by id.
  const std::vector<GraphInfo>& graphs() const { return graphs_; }
  const GraphInfo* graph(uint64_t id) const;  // null if unknown

  // The graph a kernel event ran for: the event's graph_id if set (kiln
  // records it on fused kernels), else the latest-compiled graph before it
  // whose plan lists the kernel's name (older recordings); for an eager
  // kernel, the graph whose "run graph N" span holds it (an eager step such
  // as mm). 0 for kernels run outside graphs and unattributed ones.
  uint64_t kernel_graph(size_t event_index) const;

  // Event indices by kind, each sorted by ts.
  const std::vector<size_t>& breaks() const { return breaks_; }
  const std::vector<size_t>& recompiles() const { return recompiles_; }
  const std::vector<size_t>& guard_fails() const { return guard_fails_; }
  const std::vector<size_t>& kernels() const { return kernels_; }  // Kernel + GpuKernel + MemCopy
  const std::vector<size_t>& output_code() const { return output_code_; }  // "output_code" Logs
  const std::vector<size_t>& graph_runs() const { return graph_runs_; }    // "run graph N" Spans

  // The interpreted gap after an instant at `ts` on the main thread: until
  // the next compiled activity (a graph run, an attributed fused kernel or a
  // compile span start) or the next graph break, whichever comes first; the session end if
  // none. This is the "time lost in the interpreter" of a graph break.
  int64_t gap_end_after(int64_t ts) const;
  // The graph that ran (or was compiled) last before `ts`, and first after; 0: none.
  uint64_t graph_before(int64_t ts) const;
  uint64_t graph_after(int64_t ts) const;

  // Time split of the run (ns): see Summary in summary.h.
  int64_t compile_wall_ns() const { return compile_wall_ns_; }   // union of compile spans, all threads
  int64_t compile_main_ns() const { return compile_main_ns_; }   // the same on the main thread only
  // Graph runs ("run graph N" spans) on the main thread, plus fused kernels
  // outside them (older recordings have no run spans: fused kernels only).
  int64_t compiled_ns() const { return compiled_ns_; }
  int64_t kernel_total_ns() const { return kernel_total_ns_; }   // all kernels, all threads

 private:
  SessionIndex() = default;
  void index_events();
  void build_graphs();
  void link_recompiles();
  void attribute_kernels();
  void build_activity();

  std::shared_ptr<const Session> session_;
  uint32_t main_tid_ = 0;
  std::vector<GraphInfo> graphs_;
  std::vector<size_t> breaks_, recompiles_, guard_fails_, kernels_, output_code_, compile_spans_, graph_runs_;
  std::vector<std::pair<size_t, uint64_t>> kernel_graph_;  // (event index, graph id), sorted by index
  std::vector<std::pair<int64_t, uint64_t>> activity_;    // (ts, graph id) of compiled activity on main, sorted
  std::vector<std::pair<int64_t, uint64_t>> known_activity_;  // the entries of activity_ with a graph id
  std::vector<int64_t> break_ts_;                          // sorted
  int64_t compile_wall_ns_ = 0, compile_main_ns_ = 0, compiled_ns_ = 0, kernel_total_ns_ = 0;
};

}  // namespace kiln::inspect
