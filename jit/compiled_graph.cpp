#include "jit/compiled_graph.h"

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "core/dispatch.h"
#include "jit/fused_runner.h"
#include "jit/fusion.h"
#include "jit/jit_events.h"
#include "jit/kernel_cache.h"
#include "jit/nvrtc_check.h"
#include "jit/launch.h"
#include "jit/liveness.h"
#include "jit/matmul_epilogue.h"
#include "jit/passes/passes.h"
#include "traces/recorder.h"

namespace kiln::jit {

namespace {

constexpr size_t kPlansPerGraph = 8;

int64_t now() { return trace::now_ns(); }

// Whether an op after `node` reaches memory `s` through one of its own
// tensors: the graph's analysis cannot see a tensor input that aliases a
// node's output (a detached saved output), this run's tensors show it. An
// argument a pass rewrote reads a graph value, which the analysis saw.
bool reached_later(const FusionPlan& plan, int32_t node, std::span<const lazy::PendingOp> ops, const Storage* s) {
  auto same = [s](const Tensor& t) { return t.defined() && t.storage().get() == s; };
  for (size_t k = size_t(node) + 1; k < ops.size(); ++k) {
    const lazy::PendingOp& op = ops[k];
    for (size_t i = 0; i < op.args.size(); ++i) {
      const Value& v = op.args[i];
      auto patched = [&](const ArgPatch& a) { return a.arg == int32_t(i); };
      if (std::ranges::any_of(plan.patches[k], patched)) continue;
      if (v.is_tensor() && same(v.tensor())) return true;
      if (v.is_tensor_list() && std::ranges::any_of(v.tensor_list(), same)) return true;
    }
    if (std::ranges::any_of(op.outs, same)) return true;
  }
  return false;
}

// A clone marked by mark_stealable_copies, done by moving the source's buffer
// into the output (the source dies with the graph, and later ops read the
// clone): only when this run's source covers its whole heap buffer in the
// output's contiguous layout and no later op reaches it some other way.
bool steal_copy(const lazy::PendingOp& p, const FusionPlan& plan, int32_t node,
                std::span<const lazy::PendingOp> ops) {
  const Tensor& src = p.args[0].tensor();
  const Tensor& dst = p.outs[0];
  if (!src.defined() || !dst.defined() || src.dtype() != dst.dtype() || src.sizes() != dst.sizes()) return false;
  Storage& from = *src.storage();
  Storage& to = *dst.storage();
  if (&from == &to || from.nbytes != to.nbytes || !from.on_heap() || !to.on_heap() || from.device != to.device)
    return false;
  if (src.offset() != 0 || dst.offset() != 0 || !src.is_contiguous() || !dst.is_contiguous()) return false;
  if (size_t(src.numel()) * dtype_size(src.dtype()) != from.nbytes) return false;
  if (reached_later(plan, node, ops, &from)) return false;
  from.swap_buffer(to);
  return true;
}

// A node on its eager kernel, its arguments rebound when a graph pass rewrote them.
void run_eager(const FusionPlan& plan, int32_t node, std::span<const lazy::PendingOp> ops) {
  const std::vector<ArgPatch>& patches = plan.patches[size_t(node)];
  const bool steal = plan.steal[size_t(node)];
  if (patches.empty()) {
    if (steal && steal_copy(ops[size_t(node)], plan, node, ops)) return;
    return run_deferred(ops[size_t(node)]);
  }
  lazy::PendingOp p = ops[size_t(node)];
  for (const ArgPatch& a : patches) {
    Value& v = p.args[size_t(a.arg)];
    if (a.elem < 0) {
      v = Value(resolve(a.tensor, ops));
      continue;
    }
    std::vector<Tensor> list = v.tensor_list();
    list[size_t(a.elem)] = resolve(a.tensor, ops);
    v = Value(std::move(list));
  }
  if (steal && steal_copy(p, plan, node, ops)) return;
  run_deferred(p);
}

// An mm with its epilogue kernel's work in its output pass (jit/matmul_epilogue.h).
bool run_with_epilogue(const FusionPlan& plan, int32_t node, std::span<const lazy::PendingOp> ops, uint64_t graph) {
  const int32_t e = plan.epilogue_of.empty() ? -1 : plan.epilogue_of[size_t(node)];
  if (e < 0) return false;
  const MatmulEpilogue& ep = plan.epilogues[size_t(e)];
  const int64_t t0 = trace::enabled() ? now() : -1;
  if (!run_matmul_epilogue(ep, ops)) return false;
  if (t0 >= 0) events::matmul_epilogue(ep, plan.kernels[size_t(ep.kernel)], ops, t0, graph);
  return true;
}

// --dump-dir: <symbol>.kir, .ll, .opt.ll and .s for each kernel compiled.
void dump_kernel(const std::string& dir, const kir::Kernel& k, const CompiledKernel& ck) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  const std::pair<const char*, const std::string*> files[] = {
      {".ll", &ck.llvm_ir}, {".opt.ll", &ck.optimized_ir}, {".s", &ck.assembly}};
  std::string base = dir + "/" + ck.symbol;
  bool ok = static_cast<bool>(std::ofstream(base + ".kir") << k.to_text());
  for (const auto& [ext, text] : files) ok = ok && static_cast<bool>(std::ofstream(base + ext) << *text);
  if (!ok) std::cerr << "kiln: cannot write kernel dumps into " << dir << "\n";
}

}  // namespace

// A fusion plan with its compiled kernels (fns parallel to plan.kernels).
// Until `ready`, its graph runs on the reference executor.
struct CompiledGraph::Plan {
  Device device;     // where its kernels run (jit/fused_runner.h for devices)
  FusionPlan plan;
  std::vector<kir::KernelFn> fns;        // CPU kernels
  std::vector<const void*> handles;      // device kernels (FusedRunner::prepare)
  std::string error;       // a kernel did not compile (set before ready)
  int64_t fuse_ns = 0, compile_ns = 0;
  size_t compiled = 0, from_disk = 0, from_memory = 0;
  std::atomic<bool> ready{false};

  // On the compile queue: every kernel, from the kernel cache.
  void compile(const GraphReport& report, const std::string& dump) {
    int64_t t0 = now();  // the span starts when the job does: jobs queue on one thread
    try {
      FusedRunner* runner = fused_runner(device);
      for (const FusedKernel& fk : plan.kernels) {
        if (runner) {
          if (nvrtc_check_enabled()) nvrtc_check_add(fk.kernel);
          FusedRunner::Prepared prepared = runner->prepare(fk.kernel, device);
          count(prepared.where);
          handles.push_back(prepared.handle);
          continue;
        }
        fns.push_back(compile_cpu(fk.kernel, report, dump));
      }
    } catch (const Error& err) {
      error = err.what();
    }
    compile_ns = now() - t0;
    events::codegen(report, t0);
    ready.store(true, std::memory_order_release);
  }

  kir::KernelFn compile_cpu(const kir::Kernel& k, const GraphReport& report, const std::string& dump) {
    CompileOptions co;
    co.keep_text = events::wants_output_code() || !dump.empty();
    std::string source;
    CompiledKernel ck = KernelCache::get().find_or_compile(k, co, &source);
    if (nvrtc_check_enabled()) nvrtc_check_add(k);
    if (source == "compiled") events::kernel_compiled(k, ck, report.id);
    count(source);
    if (!dump.empty()) dump_kernel(dump, k, ck);
    return ck.fn;
  }

  void count(const std::string& source) { ++(source == "compiled" ? compiled : source == "disk" ? from_disk : from_memory); }
};

// Where a graph's kernels run: the device of its outputs (its tensors'
// devices are guarded, so every run of the plan agrees).
static Device graph_device(std::span<const lazy::PendingOp> ops) {
  for (const lazy::PendingOp& p : ops)
    for (const Tensor& t : p.outs)
      if (t.defined() && t.device().type != DeviceType::CPU) return t.device();
  return Device{};
}

CompiledGraph::CompiledGraph(std::shared_ptr<const Graph> graph) : graph_(std::move(graph)) {}
CompiledGraph::~CompiledGraph() = default;

bool CompiledGraph::run(std::span<const lazy::PendingOp> ops, GraphReport& report, const CodegenOptions& opt,
                        CompileQueue& queue) {
  const Plan* p = failed_ ? nullptr : plan_for(ops, report, opt, queue);
  if (!p) return false;
  int64_t run_t0 = trace::enabled() ? now() : -1;  // the "run graph N" span (jit_events.h)
  uint64_t launched = 0, eager = 0;
  SmallVec<int32_t, 8> finished;  // kernels an mm's epilogue already ran
  for (int32_t step : p->plan.steps) {
    if (step >= 0) {
      if (run_with_epilogue(p->plan, step, ops, report.id)) {
        finished.push_back(p->plan.epilogues[size_t(p->plan.epilogue_of[size_t(step)])].kernel);
        ++launched;
        continue;
      }
      run_eager(p->plan, step, ops);
      ++eager;
      continue;
    }
    const size_t k = size_t(-1 - step);
    if (std::find(finished.begin(), finished.end(), int32_t(k)) != finished.end()) continue;
    const FusedKernel& fk = p->plan.kernels[k];
    int64_t t0 = trace::enabled() ? now() : -1;
    FusedRunner* runner = fused_runner(p->device);
    if (!(runner ? runner->launch(fk, p->handles[k], ops) : launch(fk, p->fns[k], ops))) {
      for (int32_t n : fk.nodes) run_eager(p->plan, n, ops);
      eager += fk.nodes.size();
    } else if (t0 >= 0) {
      events::fused_kernel(fk, ops, t0, report.id);
      ++launched;
    }
  }
  if (run_t0 >= 0) events::graph_run(report.id, run_t0, launched, eager);
  return true;
}

// The plan for this run's live values, fused now and compiled on the queue;
// null while it compiles, or when the graph runs on the reference executor.
const CompiledGraph::Plan* CompiledGraph::plan_for(std::span<const lazy::PendingOp> ops, GraphReport& report,
                                                   const CodegenOptions& opt, CompileQueue& queue) {
  Liveness lv;
  if (opt.all_live) {
    lv.live.assign(graph_->values.size(), true);
  } else {
    lv = liveness(*graph_, ops);
  }
  auto it = plans_.find(lv.key);
  if (it != plans_.end()) return usable(*it->second, report);
  if (plans_.size() >= kPlansPerGraph) return nullptr;
  auto p = std::make_shared<Plan>();
  int64_t t0 = now();
  Graph g = *graph_;
  optimize(g, lv.live);
  p->device = graph_device(ops);
  p->plan = fuse(g, ops, lv.live, p->device);
  p->fuse_ns = now() - t0;
  report.kernels = p->plan.kernels.size();
  report.plan = plan_text(p->plan, g);
  plans_[lv.key] = p;
  auto job = [p, copy = report, dump = opt.dump_dir] { p->compile(copy, dump); };
  if (opt.async) {
    queue.post(std::move(job));
  } else {
    job();
  }
  return usable(*p, report);
}

const CompiledGraph::Plan* CompiledGraph::usable(const Plan& p, GraphReport& report) {
  if (!p.ready.load(std::memory_order_acquire)) return nullptr;
  if (report.compile_ns == 0) {
    report.compile_ns = p.fuse_ns + p.compile_ns;
    report.kernel_sources = {p.compiled, p.from_disk, p.from_memory};
  }
  if (p.error.empty()) return &p;
  if (!failed_) {
    failed_ = true;
    std::string w = "graph " + std::to_string(report.id) + " could not be compiled (" + p.error +
                    "); it runs on the reference executor";
    events::log("warning", w);
    std::cerr << "kiln: warning: " << w << "\n";
  }
  return nullptr;
}

}  // namespace kiln::jit
