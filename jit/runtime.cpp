#include "jit/runtime.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <map>
#include <memory>
#include <unordered_map>

#include "core/dispatch.h"
#include "core/error.h"
#include "core/lang/interp.h"
#include "core/lang/objops.h"
#include "core/lang/vm.h"
#include "core/lazy.h"
#include "jit/compiled_graph.h"
#include "jit/graph.h"
#include "jit/guards.h"
#include "jit/jit_events.h"
#include "jit/jit_check.h"
#include "traces/recorder.h"

namespace kiln::jit {

namespace {

int64_t now() { return trace::now_ns(); }

uint32_t env_count(const char* name, uint32_t def, long min) {
  const char* v = std::getenv(name);
  if (!v || !*v) return def;
  char* end = nullptr;
  long n = std::strtol(v, &end, 10);
  KILN_CHECK(*end == '\0' && n >= min && n < (1L << 30), Value, name, "=", v, " is not an integer >= ", min,
             " (unset it for the default, ", def, ")");
  return uint32_t(n);
}

std::string hex(uint64_t h) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return buf;
}

// The script locations ops and breaks happen at, interned as small ids.
class Sites : public SiteNames {
 public:
  uint32_t intern(lang::FrameRef f) {
    if (!f.code) return 0;
    auto key = std::make_pair(static_cast<const void*>(f.code), f.pc);
    auto it = ids_.find(key);
    if (it != ids_.end()) return it->second;
    refs_.push_back(f);
    uint32_t id = uint32_t(refs_.size());
    ids_.emplace(key, id);
    return id;
  }
  // "model.py:12:5"
  std::string name(uint32_t site) const override {
    if (site == 0 || site > refs_.size()) return "";
    const lang::FrameRef& f = refs_[site - 1];
    const lang::Pos& p = f.code->positions[f.pc];
    return f.code->filename + ":" + std::to_string(p.line) + ":" + std::to_string(p.col);
  }
  std::string line(uint32_t site) const {  // "model.py:12"
    std::string n = name(site);
    return n.substr(0, n.rfind(':'));
  }
  const lang::FrameRef* ref(uint32_t site) const { return site && site <= refs_.size() ? &refs_[site - 1] : nullptr; }

 private:
  struct PairHash {
    size_t operator()(const std::pair<const void*, uint32_t>& k) const {
      return std::hash<const void*>()(k.first) ^ (size_t(k.second) * 0x9e3779b97f4a7c15ull);
    }
  };
  std::vector<lang::FrameRef> refs_;
  std::unordered_map<std::pair<const void*, uint32_t>, uint32_t, PairHash> ids_;
};

struct Entry {
  Signature sig;
  GraphReport report;
  std::unique_ptr<CompiledGraph> compiled;  // the LLVM backend's plans for it
};

// The graphs that start at one place of a region.
struct GraphCache {
  DynamicSpec dynamic;
  std::vector<Entry> entries;
  std::unordered_multimap<uint64_t, size_t> by_hash;
  bool limit_hit = false;

  Entry* find(const Signature& sig) {
    auto [lo, hi] = by_hash.equal_range(sig.hash);
    for (auto it = lo; it != hi; ++it)
      if (entries[it->second].sig == sig) return &entries[it->second];
    return nullptr;
  }
};

struct RegionState {
  lazy::Region region;
  RegionReport report;
  lang::Obj keep;      // a compiled wrapper stays alive while its region exists
  int dynamic = -1;    // torch.compile(dynamic=): -1 None (automatic), 0 False, 1 True
  bool eager_backend = false;  // torch.compile(backend="eager"): graphs run on the reference executor
  // Blacklisting with backoff: after a place hit the cache limit, the region
  // runs in the interpreter for `skip` entries; each new hit doubles the wait.
  uint32_t skip = 0, backoff = 0;
  // A loop whose iterations record different ops (a loop over parameters of
  // different ranks) stops ending a graph per iteration: it unrolls.
  bool unrolled = false;
  // Whether to capture this entry of the region (false while blacklisted).
  bool admit() {
    if (skip == 0) return true;
    --skip;
    return false;
  }
  // By where the graph starts and where its first op is: the code after a
  // loop starts at the loop's head too, but it is another graph, not a variant.
  std::map<std::pair<uint32_t, uint32_t>, GraphCache> caches;
};

struct BreakKey {
  uint32_t site;
  lazy::SyncReason reason;
  bool operator<(const BreakKey& o) const { return site != o.site ? site < o.site : reason < o.reason; }
};

std::string break_message(lazy::SyncReason r, const std::string& where) {
  using R = lazy::SyncReason;
  switch (r) {
    case R::Item:
      return "`.item()` (or float()/int() of a tensor) at " + where +
             " reads a tensor's value into Python; move it out of the hot path or keep the value a tensor "
             "(torch.where, masking)";
    case R::Tolist:
      return "`.tolist()` at " + where + " copies a tensor into Python; move it out of the hot path";
    case R::DataDependentBranch:
      return "a branch on a tensor's value (`if t`, `while t`, bool(t)) at " + where +
             " needs the value now; express it with torch.where or masking so it stays in the graph";
    case R::Print:
      return "printing or formatting a tensor at " + where +
             " needs its value; print less often or outside the hot loop";
    case R::DataDependentShape:
      return "an op at " + where +
             " whose output shape depends on tensor values (nonzero, masked_select, boolean indexing) ends the "
             "graph; use a fixed-shape form (torch.where, multiplying by a mask)";
    case R::DataDependentCheck:
      return "an op at " + where + " validates index or target values (embedding, gather, nll_loss) that are "
             "computed in the graph; compute them outside the hot path or clamp them";
    case R::MetadataMutation:
      return "an in-place change of a tensor's metadata at " + where +
             " (t_(), squeeze_(), .data = ...) ends the graph; use the out-of-place form";
    case R::Disabled:
      return "a torch.compiler.disable'd function is called at " + where + "; it runs in the interpreter";
    case R::DataAccess:
      return "tensor data is read at " + where + " by an operation outside the graph";
    case R::DeviceSync:
      return "torch.cuda.synchronize() at " + where +
             " waits for the device, so the graph's work runs first; synchronize outside the hot path";
    case R::Exception:
      return "an exception left the region at " + where;
    case R::RegionEnd:
    case R::SizeLimit:
      break;
  }
  return "the graph ended at " + where;
}

constexpr const char* kCompilerPrelude = "<prelude>/compiler.py";

bool is_break(lazy::SyncReason r) { return r != lazy::SyncReason::RegionEnd && r != lazy::SyncReason::SizeLimit; }

}  // namespace

class Runtime : public lazy::Runner {
 public:
  Runtime(lang::Interp& in, const Options& o) : in_(in), opt_(o) {}

  void install_hooks() {
    lang::VmHooks& h = in_.hooks;
    h.hot_calls = opt_.hot_calls;
    h.hot_loops = opt_.hot_loops;
    if (opt_.auto_regions) {
      h.on_hot_function = [this](lang::Interp&, lang::Code& c) { on_hot_function(c); };
      h.on_region_enter = [this](lang::Interp&, lang::Code& c) { return on_region_enter(c); };
      h.on_loop_edge = [this](lang::Interp&, lang::Code& c, size_t head, bool captures) {
        return on_loop_edge(c, uint32_t(head), captures);
      };
    }
    h.on_region_exit = [](lang::Interp&, lang::Code&, bool unwinding) { lazy::end_capture(unwinding); };
    h.call_compiled = [this](lang::Interp& in, const lang::Obj& key, const lang::Obj& fn,
                             std::span<const lang::Obj> pos, std::span<const lang::Kwarg> kw) {
      return call_compiled(in, key, fn, pos, kw);
    };
    h.reset = [this] { reset(); };
    // Backward passes are regions too: a compiled forward's backward is a graph.
    RegionState& bw = region_for(&backward_key_, 0, "backward", "backward", 0);
    lazy::set_backward_region(&bw.region);
  }

  void uninstall_hooks() {
    lang::VmHooks& h = in_.hooks;
    h.on_hot_function = nullptr;
    h.on_region_enter = nullptr;
    h.on_loop_edge = nullptr;
    h.on_region_exit = nullptr;
    h.call_compiled = nullptr;
    h.reset = nullptr;
    lazy::set_backward_region(nullptr);
  }

  // ---- lazy::Runner ----------------------------------------------------------------------
  uint32_t site() override {
    if (awaiting_first_op_) {  // the first op after a break: the interpreter's share ends here
      awaiting_first_op_->interpreted_ns += now() - break_end_ns_;
      awaiting_first_op_ = nullptr;
    }
    return sites_.intern(lang::current_frame());
  }

  uint32_t resume_site() override { return sites_.intern(user_frame()); }

  void run_pending(std::vector<lazy::PendingOp>& ops, lazy::SyncReason reason,
                   const lazy::GraphStart& start) override {
    auto* region = start.region ? static_cast<RegionState*>(const_cast<void*>(start.region->key)) : nullptr;
    Entry* entry = region ? find_or_compile(*region, start.site, ops) : nullptr;
    std::optional<JitCheck> check;
    if (opt_.check) check.emplace(ops);
    CodegenOptions co{opt_.check, opt_.async_compile, opt_.dump_dir};
    bool compiled = entry && !region->eager_backend && opt_.backend == Backend::Llvm &&
                    entry->compiled->run(ops, entry->report, co, queue_);
    if (!compiled)
      for (const lazy::PendingOp& p : ops) run_deferred(p);
    if (check) verify(*check, ops, entry);
    if (is_break(reason) && !start.side) on_break(reason, entry ? entry->report.id : 0);  // the graph it cut
  }

  Report report() const {
    Report r;
    for (const auto& [key, region] : regions_) {
      if (region->caches.empty() && region->report.warnings.empty()) continue;  // never captured anything
      RegionReport rr = region->report;
      for (const auto& [site, cache] : region->caches)
        for (const Entry& e : cache.entries) rr.graphs.push_back(e.report);
      std::sort(rr.graphs.begin(), rr.graphs.end(),
                [](const GraphReport& a, const GraphReport& b) { return a.id < b.id; });
      r.regions.push_back(std::move(rr));
    }
    std::sort(r.regions.begin(), r.regions.end(), [](const RegionReport& a, const RegionReport& b) {
      return (a.graphs.empty() ? UINT64_MAX : a.graphs[0].id) < (b.graphs.empty() ? UINT64_MAX : b.graphs[0].id);
    });
    for (const auto& [key, b] : breaks_) r.breaks.push_back(b);
    std::stable_sort(r.breaks.begin(), r.breaks.end(), [](const BreakReport& a, const BreakReport& b) {
      return a.interpreted_ns > b.interpreted_ns;
    });
    return r;
  }

 private:
  // ---- regions ------------------------------------------------------------------------------
  RegionState& region_for(const void* key, uint32_t pc, const char* kind, const std::string& name,
                          uint32_t start_site) {
    auto& slot = regions_[{key, pc}];
    if (!slot) {
      slot = std::make_unique<RegionState>();
      slot->region.key = slot.get();
      slot->region.start_site = start_site;
      slot->report.kind = kind;
      slot->report.name = name;
      slot->report.loc = sites_.name(start_site);
    }
    return *slot;
  }

  static std::string code_name(const lang::Code& c) { return c.qualname.empty() ? c.name : c.qualname; }

  // torch.compile's own wrappers (prelude/compiler.py) must not become
  // function regions: the compiled call opens its region itself.
  void on_hot_function(lang::Code& c) {
    if (c.code_kind == lang::CodeKind::Function && c.filename != kCompilerPrelude) c.jit_region = true;
  }

  bool on_region_enter(lang::Code& c) {
    if (lazy::current_region() || lazy::suspended()) return false;  // inlined, or disabled
    uint32_t s = sites_.intern({&c, 0});
    RegionState& r = region_for(&c, UINT32_MAX, "function", code_name(c), s);
    if (!r.admit()) return false;
    lazy::begin_capture(r.region);
    return true;
  }

  // A hot loop opens a region whose graphs are its iterations. Other loops
  // (inside it, after it, in a function region) unroll into the open graph.
  bool on_loop_edge(lang::Code& c, uint32_t head, bool captures) {
    uint32_t s = sites_.intern({&c, head});
    if (captures) {
      const lazy::Region* open = lazy::current_region();
      auto it = regions_.find({&c, head});
      if (open && it != regions_.end() && open == &it->second->region && !it->second->unrolled) lazy::boundary(s);
      return true;
    }
    if (lazy::current_region() || lazy::suspended()) return false;  // part of the open graph, or disabled
    RegionState& r = region_for(&c, head, "loop", "loop at " + sites_.line(s) + " in " + code_name(c), s);
    if (!r.admit()) return false;
    lazy::begin_capture(r.region);
    return true;
  }

  lang::Obj call_compiled(lang::Interp& in, const lang::Obj& key, const lang::Obj& fn,
                          std::span<const lang::Obj> pos, std::span<const lang::Kwarg> kw) {
    RegionState& r = compiled_region(in, key, fn);
    if (lazy::suspended() || !r.admit()) return in.call(fn, pos, kw);
    lazy::begin_capture(r.region);
    lang::Obj result;
    try {
      result = in.call(fn, pos, kw);
    } catch (...) {
      lazy::end_capture(true);
      throw;
    }
    lazy::end_capture(false);
    return result;
  }

  RegionState& compiled_region(lang::Interp& in, const lang::Obj& key, const lang::Obj& fn) {
    const void* id = key.heap();
    auto it = regions_.find({id, 0});
    if (it != regions_.end()) return *it->second;
    std::string name = "compiled";
    uint32_t site = 0;
    if (const lang::FunctionObj* f = fn.as<lang::FunctionObj>()) {
      name = code_name(f->get_code());
      site = sites_.intern({&f->get_code(), 0});
    } else {  // a module: name its class, place it where the user called it
      name = lang::type_name(fn);
      site = sites_.intern(user_frame());
    }
    RegionState& r = region_for(id, 0, "compiled", name, site);
    r.keep = key;
    r.region.fullgraph = lang::truthy(in, lang::getattr(in, key, "_fullgraph"));
    lang::Obj dyn = lang::getattr(in, key, "_dynamic");
    r.dynamic = dyn.is_none() ? -1 : lang::truthy(in, dyn) ? 1 : 0;
    lang::Obj backend = lang::getattr(in, key, "_backend");
    r.eager_backend = lang::str(in, backend) == "eager";
    return r;
  }

  void reset() {
    lazy::sync(lazy::SyncReason::RegionEnd);
    for (auto& [key, region] : regions_) region->caches.clear();
  }

  // ---- graphs -------------------------------------------------------------------------------
  // The cache entry that runs `ops` (null when the place runs uncompiled).
  Entry* find_or_compile(RegionState& r, uint32_t start, std::span<const lazy::PendingOp> ops) {
    GraphCache& cache = r.caches[{start, ops.empty() ? 0 : ops.front().site}];
    if (r.dynamic == 1 && cache.entries.empty()) cache.dynamic.masks.assign(256, ~uint64_t(0));
    int64_t t0 = now();
    Signature sig = make_signature(ops, cache.dynamic);
    if (Entry* e = cache.find(sig)) {
      ++e->report.hits;
      ++e->report.guard_checks;
      e->report.guard_ns += now() - t0;
      return e;
    }
    if (cache.limit_hit) {
      ++r.report.eager_runs;
      return nullptr;
    }
    if (!cache.entries.empty() && !note_recompile(r, cache, start, sig, ops)) return nullptr;
    return &compile(r, cache, start, std::move(sig), ops);
  }

  // KILN_JIT_CHECK: the graph's run against an eager replay of its ops.
  void verify(JitCheck& check, std::span<const lazy::PendingOp> ops, Entry* entry) {
    if (!opt_.check_fault.empty()) corrupt(ops);
    std::optional<CheckMismatch> m = check.verify(ops);
    if (!m) return;
    const lazy::PendingOp& p = ops[m->node];
    std::string text = m->describe(p.op->name(), sites_.name(p.site));
    if (entry && entry->report.check_failure.empty()) entry->report.check_failure = text;
    std::cerr << "kiln: KILN_JIT_CHECK: graph " << (entry ? std::to_string(entry->report.id) : "(uncompiled)")
              << ": " << text << "\n";
    events::log("jit_check", text);
  }

  // Adds 1 to the first element of the first output of the first op named
  // check_fault, as a miscompiled kernel would, so tests can see the checker fire.
  void corrupt(std::span<const lazy::PendingOp> ops) {
    for (const lazy::PendingOp& p : ops) {
      if (p.op->name() != opt_.check_fault || p.outs.empty() || !p.outs[0].defined()) continue;
      const Tensor& t = p.outs[0];
      if (t.numel() == 0 || t.dtype() != DType::Float32) continue;
      *t.data<float>() += 1.0f;
      return;
    }
  }

  // Explains why no entry matched; false when the cache limit stops compiling.
  bool note_recompile(RegionState& r, GraphCache& cache, uint32_t start, Signature& sig,
                      std::span<const lazy::PendingOp> ops) {
    std::optional<Mismatch> m = first_mismatch(cache.entries.back().sig, sig, ops, &site_name_of);
    RecompileReport rec;
    rec.start = sites_.name(start);
    if (rec.start.empty()) rec.start = "the " + r.report.name + " region";  // backward passes have no script place
    if (m) {
      rec.guard = m->guard;
      rec.expected = m->expected;
      rec.actual = m->actual;
      rec.fix = m->fix;
    } else {
      rec.guard = "the graph's structure (ops or argument kinds)";
    }
    events::guard_fail(rec, user_frame(), cache.entries.size(), r.report.name);
    if (cache.entries.size() >= opt_.cache_limit) {
      cache.limit_hit = true;
      r.backoff = r.backoff ? std::min<uint32_t>(r.backoff * 2, 1u << 20) : 16;
      r.skip = r.backoff;
      std::string w = "cache limit of " + std::to_string(opt_.cache_limit) + " graphs reached at " + rec.start +
                      " (last failed guard: " + rec.guard + "); the region runs in the interpreter for its next " +
                      std::to_string(r.backoff) + " entries, and this place uncompiled after that "
                      "(raise KILN_CACHE_LIMIT, or remove what changes: " +
                      (rec.fix.empty() ? "see kiln explain" : rec.fix) + ")";
      r.report.warnings.push_back(w);
      events::log("warning", w);
      std::cerr << "kiln: warning: " << w << "\n";  // like torch._dynamo's cache_size_limit warning
      ++r.report.eager_runs;
      return false;
    }
    if (r.report.kind == "loop" && start == r.region.start_site && !r.unrolled && !(m && m->only_sizes)) {
      r.unrolled = true;
      r.report.warnings.push_back("iterations at " + rec.start + " record different ops (" + rec.guard +
                                  "): the loop unrolls into the graph of its frame from now on");
    }
    // Automatic dynamic shapes: a recompile caused only by sizes makes those dims symbolic,
    // and the int arguments that changed with them (torch.compile's SymInts) runtime values.
    if (m && m->only_sizes && r.dynamic != 0) {
      for (auto [input, dim] : m->size_dims) {
        if (cache.dynamic.masks.size() <= input) cache.dynamic.masks.resize(input + 1, 0);
        cache.dynamic.masks[input] |= uint64_t(1) << dim;
      }
      for (auto [node, arg] : m->int_args) cache.dynamic.add_int(node, arg);
      rec.made_dynamic = true;
      rec.ints_dynamic = !m->int_args.empty();
      sig = make_signature(ops, cache.dynamic);
    }
    // compile() runs next and takes id next_graph_id_ + 1: the event names the graph it causes.
    events::recompile(rec, cache.entries.size(), user_frame(), next_graph_id_ + 1, r.report.name);
    r.report.recompiles.push_back(std::move(rec));
    return true;
  }

  Entry& compile(RegionState& r, GraphCache& cache, uint32_t start, Signature sig,
                std::span<const lazy::PendingOp> ops) {
    int64_t t0 = now();
    struct Masks : DynamicDims {
      const DynamicSpec& spec;
      explicit Masks(const DynamicSpec& s) : spec(s) {}
      uint64_t mask(size_t i) const override { return spec.mask(i); }
      bool int_arg(size_t node, size_t arg) const override { return spec.int_arg(uint32_t(node), uint32_t(arg)); }
    } masks(cache.dynamic);
    Graph g = build_graph(ops, &masks);
    Entry e;
    e.report.id = ++next_graph_id_;
    e.report.start = sites_.name(start);
    e.report.ops = g.nodes.size();
    e.report.guards = sig.guards.size();
    e.report.hash = hex(structural_hash(g));
    e.report.text = to_text(g, &sites_);
    e.sig = std::move(sig);
    e.compiled = std::make_unique<CompiledGraph>(std::make_shared<const Graph>(std::move(g)));
    cache.by_hash.emplace(e.sig.hash, cache.entries.size());
    cache.entries.push_back(std::move(e));
    events::compiled(r.report.name, cache.entries.back().report, t0);
    events::guards(cache.entries.back().report.id, cache.entries.back().sig, ops, &site_name_of);
    return cache.entries.back();
  }

  // ---- breaks -------------------------------------------------------------------------------
  void on_break(lazy::SyncReason reason, uint64_t cut_graph) {
    uint32_t site = sites_.intern(user_frame());
    const lazy::Region* inner = lazy::current_region();
    std::string where = sites_.line(site);
    if (where.empty()) where = "<unknown>";
    std::string message = break_message(reason, where);
    if (inner && inner->fullgraph && reason != lazy::SyncReason::Exception)
      throw Error("graph break in a torch.compile(fullgraph=True) region: " + message, ErrorKind::Runtime);
    BreakReport& b = breaks_[{site, reason}];
    if (b.count++ == 0) {
      b.category = lazy::sync_reason_name(reason);
      b.message = message;
      b.loc = sites_.name(site);
      b.stack = user_stack();
    }
    events::graph_break(b, user_frame(), cut_graph);
    awaiting_first_op_ = &b;
    break_end_ns_ = now();
  }

  // The innermost frame of the user's own code (not the prelude's nn/optim/
  // compiler modules), where a break is reported and the next graph starts.
  static lang::FrameRef user_frame() {
    for (const lang::FrameRef& f : lang::current_stack(64))
      if (f.code->filename.rfind("<prelude>", 0) != 0) return f;
    return lang::current_frame();
  }

  std::string user_stack() const {
    std::string out;
    for (const lang::FrameRef& f : lang::current_stack(16)) {
      if (!out.empty()) out += " <- ";
      out += code_name(*f.code) + " (" + f.code->filename + ":" + std::to_string(f.code->positions[f.pc].line) + ")";
    }
    return out;
  }

  static std::string site_name_of(uint32_t site) { return g_self ? g_self->sites_.line(site) : ""; }

  // Per graph: how often its guards were checked and how long that took, as
  // counters (emitted when the JIT leaves, so a trace ends with the totals).
 public:
  void emit_guard_counters() const {
    for (const auto& [key, region] : regions_)
      for (const auto& [where, cache] : region->caches)
        for (const Entry& e : cache.entries) {
          std::string g = "graph " + std::to_string(e.report.id);
          events::counter("guard checks, " + g, double(e.report.guard_checks));
          events::counter("guard ns, " + g, double(e.report.guard_ns));
        }
  }

 public:
  static Runtime* g_self;

 private:
  lang::Interp& in_;
  Options opt_;
  Sites sites_;
  std::map<std::pair<const void*, uint32_t>, std::unique_ptr<RegionState>> regions_;
  std::map<BreakKey, BreakReport> breaks_;
  BreakReport* awaiting_first_op_ = nullptr;
  int64_t break_end_ns_ = 0;
  uint64_t next_graph_id_ = 0;
  char backward_key_ = 0;  // the backward region's identity
  // Last: destroyed first, so queued compiles finish while the rest is alive.
  CompileQueue queue_;
};

Runtime* Runtime::g_self = nullptr;

Options options_from_env(bool auto_regions) {
  Options o;
  o.auto_regions = auto_regions;
  o.hot_calls = env_count("KILN_HOT_CALLS", o.hot_calls, 0);  // 0: every call, from the first
  o.hot_loops = env_count("KILN_HOT_LOOPS", o.hot_loops, 0);
  o.cache_limit = env_count("KILN_CACHE_LIMIT", uint32_t(o.cache_limit), 1);
  o.max_graph_ops = env_count("KILN_MAX_GRAPH_OPS", uint32_t(o.max_graph_ops), 1);
  o.check = env_count("KILN_JIT_CHECK", 0, 0) != 0;
  if (const char* b = std::getenv("KILN_BACKEND"); b && *b) {
    std::string v = b;
    KILN_CHECK(v == "llvm" || v == "eager", Value, "KILN_BACKEND=", v,
               " is not a backend: use llvm (the default: compiled, fused kernels) or eager (the reference executor)");
    o.backend = v == "eager" ? Backend::Eager : Backend::Llvm;
  }
  o.async_compile = env_count("KILN_ASYNC_COMPILE", 1, 0) != 0;
  if (const char* f = std::getenv("KILN_JIT_CHECK_FAULT")) o.check_fault = f;
  return o;
}

Runtime& install(lang::Interp& in, const Options& options) {
  KILN_CHECK(Runtime::g_self == nullptr, Runtime, "the JIT is already installed");
  Runtime::g_self = new Runtime(in, options);
  Runtime::g_self->install_hooks();
  lazy::set_runner(Runtime::g_self);
  lazy::set_max_graph_ops(options.max_graph_ops);
  return *Runtime::g_self;
}

void uninstall() {
  if (!Runtime::g_self) return;
  // Callers uninstall from destructors: an error in the last graph is reported, not thrown.
  try {
    lazy::sync(lazy::SyncReason::RegionEnd);
  } catch (const Error& e) {
    std::cerr << "kiln: running the last graph at exit: " << e.describe() << "\n";
  }
  lazy::set_runner(nullptr);
  Runtime::g_self->emit_guard_counters();
  Runtime::g_self->uninstall_hooks();
  delete Runtime::g_self;
  Runtime::g_self = nullptr;
}

Report report(const Runtime& rt) { return rt.report(); }

}  // namespace kiln::jit
