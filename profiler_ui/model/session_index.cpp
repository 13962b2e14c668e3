// SessionIndex: one pass over the events, then the graphs, the kernel to
// graph attribution and the compiled-activity timeline the views share.
#include "profiler_ui/model/session_index.h"

#include <algorithm>
#include <charconv>
#include <map>
#include <unordered_map>

namespace kiln::inspect {

namespace {

using trace::EventKind;

bool starts_with(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

// Limits that keep hostile sessions (millions of recompiles or kernel names)
// from costing quadratic time or memory; real sessions stay far below them.
constexpr size_t kMaxGuardsPerRegion = 256;
constexpr size_t kMaxIrMatchedNames = 4096;

// Fills a graph's parsed fields from its IR and plan text.
void parse_graph_text(GraphInfo& g) {
  g.nodes = parse_graph_ir(g.ir_text);
  g.op_count = int(g.nodes.size());
  g.hash = graph_ir_hash(g.ir_text);
  g.plan = parse_fusion_plan(g.plan_text);
  std::vector<bool> claimed(g.nodes.size(), false);
  for (FusedGroup& fg : g.plan)
    if (fg.fused) fg.node_indices = nodes_of_fused_kernel(fg.kernel, g.nodes, &claimed);
  for (const GraphNode& n : g.nodes)
    if (n.loc.known()) g.source_lines.push_back(SourceLoc{n.loc.file, n.loc.line, 0});
  std::sort(g.source_lines.begin(), g.source_lines.end());
  g.source_lines.erase(std::unique(g.source_lines.begin(), g.source_lines.end()), g.source_lines.end());
}

// The number after `prefix` in names like "codegen graph 12"; 0 if absent.
uint64_t id_after(std::string_view name, std::string_view prefix) {
  if (!starts_with(name, prefix)) return 0;
  uint64_t v = 0;
  auto s = name.substr(prefix.size());
  auto r = std::from_chars(s.data(), s.data() + s.size(), v);
  return r.ec == std::errc() && r.ptr == s.data() + s.size() ? v : 0;
}

// Total length of the union of [start, end) intervals.
int64_t union_length(std::vector<std::pair<int64_t, int64_t>> iv) {
  std::sort(iv.begin(), iv.end());
  int64_t total = 0, cur_s = 0, cur_e = 0;
  bool open = false;
  for (auto [s, e] : iv) {
    if (open && s <= cur_e) {
      cur_e = std::max(cur_e, e);
      continue;
    }
    if (open) total += cur_e - cur_s;
    cur_s = s;
    cur_e = e;
    open = true;
  }
  if (open) total += cur_e - cur_s;
  return total;
}

}  // namespace

bool is_fused_kernel_name(std::string_view name) { return starts_with(name, "fused_"); }

std::string_view compile_region_of(std::string_view span_name) {
  return starts_with(span_name, "compile ") ? span_name.substr(8) : std::string_view();
}

std::shared_ptr<const SessionIndex> SessionIndex::build(std::shared_ptr<const Session> session) {
  auto idx = std::shared_ptr<SessionIndex>(new SessionIndex());
  idx->session_ = std::move(session);
  idx->index_events();
  idx->build_graphs();
  idx->attribute_kernels();
  idx->build_activity();
  return idx;
}

const GraphInfo* SessionIndex::graph(uint64_t id) const {
  auto it = std::lower_bound(graphs_.begin(), graphs_.end(), id, [](const GraphInfo& g, uint64_t v) { return g.id < v; });
  return it != graphs_.end() && it->id == id ? &*it : nullptr;
}

uint64_t SessionIndex::kernel_graph(size_t event_index) const {
  auto it = std::lower_bound(kernel_graph_.begin(), kernel_graph_.end(), std::pair<size_t, uint64_t>(event_index, 0));
  return it != kernel_graph_.end() && it->first == event_index ? it->second : 0;
}

// ---------------------------------------------------------------------------
// Pass 1: event lists by kind, and the interpreter thread.

void SessionIndex::index_events() {
  const Session& s = *session_;
  std::unordered_map<uint32_t, size_t> interp_spans, host_events;
  s.for_each_event([&](size_t i, const trace::Event& e) {
    if (e.device == 0) {
      ++host_events[e.tid];
      if (e.kind == EventKind::Span && e.cat == trace::Category::interpreter) ++interp_spans[e.tid];
    }
    switch (e.kind) {
      case EventKind::GraphBreak: breaks_.push_back(i); break;
      case EventKind::Recompile: recompiles_.push_back(i); break;
      case EventKind::GuardFail: guard_fails_.push_back(i); break;
      case EventKind::Kernel:
      case EventKind::GpuKernel:
      case EventKind::MemCopy:
        kernels_.push_back(i);
        kernel_total_ns_ += e.dur_ns;
        break;
      case EventKind::Span:
        if (e.cat == trace::Category::compile) compile_spans_.push_back(i);
        else if (e.graph_id != 0 && starts_with(s.str(e.name), "run graph ")) graph_runs_.push_back(i);
        break;
      case EventKind::Log:
        if (s.str(e.name) == "output_code") output_code_.push_back(i);
        break;
      case EventKind::Counter: break;
    }
  });
  // Most interpreter spans wins; ties go to the lower tid so the choice is stable.
  auto pick = [](const std::unordered_map<uint32_t, size_t>& m) {
    uint32_t best = 0;
    size_t n = 0;
    for (auto [tid, c] : m)
      if (c > n || (c == n && tid < best)) best = tid, n = c;
    return best;
  };
  main_tid_ = !interp_spans.empty() ? pick(interp_spans) : pick(host_events);
  auto by_ts = [&](std::vector<size_t>& v) {
    std::stable_sort(v.begin(), v.end(), [&](size_t a, size_t b) { return s.event(a).ts_ns < s.event(b).ts_ns; });
  };
  for (auto* v : {&breaks_, &recompiles_, &guard_fails_, &kernels_, &output_code_, &compile_spans_, &graph_runs_})
    by_ts(*v);
  for (size_t i : breaks_) break_ts_.push_back(s.event(i).ts_ns);
}

// ---------------------------------------------------------------------------
// Pass 2: graphs from compile spans, "graph" and "guards" logs, codegen and
// run spans, counters.

namespace {

// The lines of a "guards" log, capped so a hostile one stays cheap to show.
std::vector<std::string> guard_lines(std::string_view text) {
  constexpr size_t kMaxGuardLines = 4096;
  std::vector<std::string> out;
  while (!text.empty() && out.size() < kMaxGuardLines) {
    size_t nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    if (!line.empty()) out.emplace_back(line);
    text = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
  }
  return out;
}

}  // namespace


void SessionIndex::build_graphs() {
  const Session& s = *session_;
  std::map<uint64_t, GraphInfo> graphs;
  // "graph" logs in time order, for pairing compile spans that lack an id (Chrome JSON).
  std::vector<size_t> graph_logs;
  s.for_each_event([&](size_t i, const trace::Event& e) {
    std::string_view name = s.str(e.name);
    if (e.kind == EventKind::Log && name == "graph" && e.graph_id != 0) {
      GraphInfo& g = graphs[e.graph_id];
      g.id = e.graph_id;
      if (g.ir_text.empty()) g.ir_text = std::string(s.str(e.text));
      graph_logs.push_back(i);
    } else if (e.kind == EventKind::Log && name == "guards" && e.graph_id != 0) {
      GraphInfo& g = graphs[e.graph_id];
      g.id = e.graph_id;
      if (g.guards.empty()) g.guards = guard_lines(s.str(e.text));
    } else if (e.kind == EventKind::Span && e.cat == trace::Category::compile) {
      uint64_t id = e.graph_id != 0 && starts_with(name, "codegen graph") ? e.graph_id : id_after(name, "codegen graph ");
      if (id == 0) return;
      GraphInfo& g = graphs[id];
      g.id = id;
      g.codegen_ns += e.dur_ns;
      if (g.plan_text.empty()) g.plan_text = std::string(s.str(e.text));
    } else if (e.kind == EventKind::Counter) {
      if (uint64_t id = id_after(name, "guard checks, graph ")) graphs[id].id = id, graphs[id].guard_checks = e.value;
      if (uint64_t id = id_after(name, "guard ns, graph ")) graphs[id].id = id, graphs[id].guard_ns = e.value;
    }
  });
  std::stable_sort(graph_logs.begin(), graph_logs.end(),
                   [&](size_t a, size_t b) { return s.event(a).ts_ns < s.event(b).ts_ns; });
  std::vector<bool> log_used(graph_logs.size(), false);
  for (size_t i : compile_spans_) {
    const trace::Event& e = s.event(i);
    std::string_view region = compile_region_of(s.str(e.name));
    if (region.empty()) continue;
    uint64_t id = e.graph_id;
    if (id == 0) {
      // The runtime records the "graph" log right after the span ends, on the same thread.
      int64_t end = e.ts_ns + e.dur_ns;
      auto it = std::lower_bound(graph_logs.begin(), graph_logs.end(), end,
                                 [&](size_t j, int64_t t) { return s.event(j).ts_ns < t; });
      // It is the next one on that thread; a bounded look keeps hostile files linear.
      for (int look = 0; it != graph_logs.end() && look < 64; ++it, ++look) {
        size_t k = size_t(it - graph_logs.begin());
        if (!log_used[k] && s.event(*it).tid == e.tid) {
          log_used[k] = true;
          id = s.event(*it).graph_id;
          break;
        }
      }
    }
    if (id == 0) continue;
    GraphInfo& g = graphs[id];
    g.id = id;
    if (g.region.empty()) {
      g.region = std::string(region);
      g.compile_ts_ns = e.ts_ns;
    }
    g.compile_ns += e.dur_ns;
  }
  // Measured runs; "run graph N" spans name graphs that exist (a run follows its compile).
  for (size_t i : graph_runs_) {
    const trace::Event& e = s.event(i);
    auto it = graphs.find(e.graph_id);
    if (it == graphs.end()) continue;
    it->second.runs_measured = true;
    ++it->second.runs;
    it->second.run_ns += e.dur_ns;
  }
  for (auto& [id, g] : graphs) {
    parse_graph_text(g);
    graphs_.push_back(std::move(g));
  }
  link_recompiles();
}

// A recompile's graph is the one its graph_id names, or (older recordings)
// the next one compiled after it; the region's guards list its failures.
void SessionIndex::link_recompiles() {
  const Session& s = *session_;
  std::vector<size_t> by_compile(graphs_.size());
  for (size_t i = 0; i < by_compile.size(); ++i) by_compile[i] = i;
  std::stable_sort(by_compile.begin(), by_compile.end(),
                   [&](size_t a, size_t b) { return graphs_[a].compile_ts_ns < graphs_[b].compile_ts_ns; });
  std::map<std::string, std::vector<std::string>> region_guards;
  for (size_t r : recompiles_) {
    const trace::Event& e = s.event(r);
    GraphInfo* g = nullptr;
    if (e.graph_id != 0) {
      auto git = std::lower_bound(graphs_.begin(), graphs_.end(), e.graph_id,
                                  [](const GraphInfo& x, uint64_t v) { return x.id < v; });
      if (git != graphs_.end() && git->id == e.graph_id) g = &*git;
    } else {
      auto it = std::lower_bound(by_compile.begin(), by_compile.end(), e.ts_ns,
                                 [&](size_t k, int64_t t) { return graphs_[k].compile_ts_ns < t; });
      if (it != by_compile.end()) g = &graphs_[*it];
    }
    if (g && g->region.empty() && e.stack != 0) g->region = std::string(s.str(e.stack));
    if (!g || g->region.empty()) continue;
    g->after_recompile = true;
    auto& guards = region_guards[g->region];
    if (guards.size() < kMaxGuardsPerRegion) guards.push_back(std::string(s.str(e.text)));
  }
  for (GraphInfo& g : graphs_)
    if (auto it = region_guards.find(g.region); it != region_guards.end()) g.failed_guards = it->second;
}

// ---------------------------------------------------------------------------
// Pass 3: which graph each kernel ran for: fused kernels by their graph_id (or
// name and compile order), eager steps by the "run graph N" span holding them.

namespace {

// The graph whose run span holds an event on the same thread; 0 if none.
// Runs on one thread never overlap (a graph runs to its end), so the latest
// run starting at or before the event is the only candidate.
class RunLookup {
 public:
  RunLookup(const Session& s, const std::vector<size_t>& runs) {
    for (size_t i : runs) {  // sorted by ts
      const trace::Event& e = s.event(i);
      by_thread_[thread_of(e)].push_back({e.ts_ns, e.ts_ns + e.dur_ns, e.graph_id});
    }
  }
  uint64_t holding(const trace::Event& e) const {
    auto t = by_thread_.find(thread_of(e));
    if (t == by_thread_.end()) return 0;
    const auto& v = t->second;
    auto it = std::upper_bound(v.begin(), v.end(), e.ts_ns, [](int64_t ts, const Run& r) { return ts < r.start; });
    if (it == v.begin()) return 0;
    --it;
    return e.ts_ns + e.dur_ns <= it->end ? it->graph : 0;
  }

 private:
  struct Run {
    int64_t start, end;
    uint64_t graph;
  };
  static uint64_t thread_of(const trace::Event& e) { return uint64_t(e.device) << 32 | e.tid; }
  std::unordered_map<uint64_t, std::vector<Run>> by_thread_;
};

}  // namespace

void SessionIndex::attribute_kernels() {
  const Session& s = *session_;
  // Kernel name -> graphs able to run it, by compile time: from the plan when
  // recorded, else from the IR (the name must match whole).
  std::unordered_map<std::string, std::vector<std::pair<int64_t, uint64_t>>> candidates;
  for (const GraphInfo& g : graphs_) {
    std::vector<std::string> names;
    for (const FusedGroup& fg : g.plan)
      if (fg.fused) names.push_back(fg.kernel);
    for (const std::string& n : names) candidates[n].push_back({g.compile_ts_ns, g.id});
  }
  for (auto& [name, c] : candidates) std::sort(c.begin(), c.end());
  size_t ir_matches = 0;  // bounded: each costs a pass over every plan-less graph
  // The candidates of a plan-less name: graphs whose IR spells the whole name in order.
  auto match_ir = [&](const std::string& name) {
    std::vector<std::pair<int64_t, uint64_t>> c;
    for (const GraphInfo& g : graphs_) {
      if (!g.plan.empty()) continue;
      auto nodes = nodes_of_fused_kernel(name, g.nodes);
      std::string rebuilt = "fused";
      for (int n : nodes) {
        std::string tok = g.nodes[size_t(n)].op;
        std::replace(tok.begin(), tok.end(), '.', '_');
        rebuilt += "_" + tok;
      }
      if (!nodes.empty() && (rebuilt == name || starts_with(name, rebuilt + "_etc"))) c.push_back({g.compile_ts_ns, g.id});
    }
    std::sort(c.begin(), c.end());
    return c;
  };
  // Per string id, resolved once: null for names no graph can run.
  std::unordered_map<trace::StrId, const std::vector<std::pair<int64_t, uint64_t>>*> by_id;
  RunLookup runs(s, graph_runs_);
  for (size_t i : kernels_) {
    const trace::Event& e = s.event(i);
    uint64_t id = e.graph_id;
    if (id == 0 && !is_fused_kernel_name(s.str(e.name))) {
      id = runs.holding(e);  // an eager step of a graph run
    } else if (id == 0) {
      auto [slot, fresh] = by_id.try_emplace(e.name, nullptr);
      if (fresh && is_fused_kernel_name(s.str(e.name))) {
        std::string name(s.str(e.name));
        auto it = candidates.find(name);
        if (it == candidates.end() && ir_matches++ < kMaxIrMatchedNames) {
          auto c = match_ir(name);
          if (!c.empty()) it = candidates.emplace(name, std::move(c)).first;
        }
        if (it != candidates.end()) slot->second = &it->second;
      }
      if (const auto* c = slot->second) {
        // The latest graph compiled before the kernel ran.
        auto after = std::upper_bound(c->begin(), c->end(), std::pair<int64_t, uint64_t>(e.ts_ns, UINT64_MAX));
        id = after == c->begin() ? c->front().second : std::prev(after)->second;
      }
    }
    if (id != 0) kernel_graph_.push_back({i, id});
  }
  std::sort(kernel_graph_.begin(), kernel_graph_.end());
  // Per graph: kernel calls and time, runs = calls of its most frequent kernel.
  std::unordered_map<uint64_t, std::unordered_map<trace::StrId, uint64_t>> calls;
  for (auto [i, id] : kernel_graph_) {
    const trace::Event& e = s.event(i);
    auto git = std::lower_bound(graphs_.begin(), graphs_.end(), id,
                                [](const GraphInfo& g, uint64_t v) { return g.id < v; });
    if (git == graphs_.end() || git->id != id || !is_fused_kernel_name(s.str(e.name))) continue;
    GraphInfo* g = &*git;
    ++g->kernel_calls;
    g->kernel_ns += e.dur_ns;
    if (!g->runs_measured) g->runs = std::max(g->runs, ++calls[id][e.name]);
  }
}

// ---------------------------------------------------------------------------
// Pass 4: compiled activity on the main thread, and the time split.

void SessionIndex::build_activity() {
  const Session& s = *session_;
  std::vector<std::pair<int64_t, int64_t>> all, main;
  std::map<uint32_t, std::vector<std::pair<int64_t, int64_t>>> per_thread;
  std::map<std::pair<int64_t, std::string_view>, uint64_t> graph_by_compile;
  for (const GraphInfo& g : graphs_) graph_by_compile[{g.compile_ts_ns, g.region}] = g.id;
  for (size_t i : compile_spans_) {
    const trace::Event& e = s.event(i);
    per_thread[(uint32_t(e.device) << 24) ^ e.tid].push_back({e.ts_ns, e.ts_ns + e.dur_ns});
    if (e.device == 0 && e.tid == main_tid_) {
      main.push_back({e.ts_ns, e.ts_ns + e.dur_ns});
      auto it = graph_by_compile.find({e.ts_ns, compile_region_of(s.str(e.name))});
      activity_.push_back({e.ts_ns, it != graph_by_compile.end() ? it->second : 0});
    }
  }
  for (auto& [tid, iv] : per_thread) compile_wall_ns_ += union_length(iv);
  compile_main_ns_ = union_length(main);
  // Compiled time: graph runs and the fused kernels in them (or, in older
  // recordings, on their own); the union counts a kernel inside a run once.
  std::vector<std::pair<int64_t, int64_t>> compiled;
  for (size_t i : graph_runs_) {
    const trace::Event& e = s.event(i);
    if (e.device != 0 || e.tid != main_tid_) continue;
    compiled.push_back({e.ts_ns, e.ts_ns + e.dur_ns});
    activity_.push_back({e.ts_ns, e.graph_id});
  }
  for (size_t i : kernels_) {
    const trace::Event& e = s.event(i);
    if (e.device != 0 || e.tid != main_tid_ || !is_fused_kernel_name(s.str(e.name))) continue;
    compiled.push_back({e.ts_ns, e.ts_ns + e.dur_ns});
    activity_.push_back({e.ts_ns, kernel_graph(i)});
  }
  compiled_ns_ = union_length(std::move(compiled));
  std::sort(activity_.begin(), activity_.end());
  for (auto a : activity_)
    if (a.second != 0) known_activity_.push_back(a);
}

int64_t SessionIndex::gap_end_after(int64_t ts) const {
  int64_t end = session_->last_ns();
  auto a = std::upper_bound(activity_.begin(), activity_.end(), std::pair<int64_t, uint64_t>(ts, UINT64_MAX));
  if (a != activity_.end()) end = std::min(end, a->first);
  auto b = std::upper_bound(break_ts_.begin(), break_ts_.end(), ts);
  if (b != break_ts_.end()) end = std::min(end, *b);
  return std::max(end, ts);
}

uint64_t SessionIndex::graph_before(int64_t ts) const {
  auto it = std::lower_bound(known_activity_.begin(), known_activity_.end(), std::pair<int64_t, uint64_t>(ts, 0));
  return it == known_activity_.begin() ? 0 : std::prev(it)->second;
}

uint64_t SessionIndex::graph_after(int64_t ts) const {
  auto it = std::upper_bound(known_activity_.begin(), known_activity_.end(),
                             std::pair<int64_t, uint64_t>(ts, UINT64_MAX));
  return it == known_activity_.end() ? 0 : it->second;
}

}  // namespace kiln::inspect
