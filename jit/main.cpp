// `kiln`: the command users run. `kiln run script.py [args...]` executes a
// script; `kiln explain script.py` runs it and reports graphs, breaks and
// recompiles. Exit status 0 on success, 1 when the script raised (traceback
// on stderr), 2 for usage errors.
#include <malloc.h>
#include <pthread.h>

#include <cstdio>
#include <cstring>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <sstream>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "core/device.h"
#include "core/lang/builtins.h"
#include "core/lang/interp.h"
#include "core/lazy.h"
#include "core/random.h"
#include "jit/device_backends.h"
#include "jit/nvrtc_check.h"
#include "jit/runtime.h"
#include "jit/tracing.h"
#include "traces/log_sink.h"
#include "traces/recorder.h"
#include "core/thread_pool.h"

namespace {

constexpr const char* kVersion = "0.1.0";

constexpr const char* kUsage =
    "usage: kiln run [options] script.py [script args...]\n"
    "       kiln explain [--json] [options] script.py [script args...]\n"
    "       kiln --version\n"
    "\n"
    "explain runs the script with the JIT and then prints, per region, its graphs (IR), guards,\n"
    "recompiles with the guard that failed, and the graph breaks with reasons and locations, the\n"
    "costliest first. --json prints that report as JSON on stdout (the script's output goes to stderr).\n"
    "\n"
    "options for run:\n"
    "  --jit=off|auto   off: pure interpreter (torch.compile is a plain call); auto: capture and\n"
    "                   compile torch.compile'd calls and hot functions and loops (default: auto)\n"
    "  --threads N      worker threads for tensor kernels (default: all cores)\n"
    "  --seed N         seed the random generator before the script runs (torch.manual_seed(N))\n"
    "  --device DEV     where tensors are created when the script names no device: cpu (default)\n"
    "                   or cuda[:N] (torch.set_default_device(DEV) before the script runs)\n"
    "  --trace FILE     write a Chrome trace (JSON array form; open it in Perfetto or chrome://tracing)\n"
    "  --record FILE    record the session as a .kilntrace file (replays in kiln-inspect)\n"
    "  --stream HOST:PORT  stream events live to kiln-inspect --listen (also KILN_STREAM);\n"
    "                   loopback addresses only unless --stream-allow-remote\n"
    "  --stream-wait[=SECONDS]  wait for the inspector to accept the stream (default 10 s)\n"
    "  --stream-allow-remote    allow a non-loopback --stream address\n"
    "  --dump-dir DIR   write each compiled kernel's kernel IR (.kir), LLVM IR before and after\n"
    "                   optimization (.ll, .opt.ll) and assembly (.s) into DIR\n"
    "  -h, --help       show this help\n"
    "\n"
    "environment:\n"
    "  KILN_HOT_CALLS=N     a function called more than N times becomes a region (default 2)\n"
    "  KILN_HOT_LOOPS=N     a loop is captured from iteration N+1 on, one graph an iteration (default 2)\n"
    "  KILN_CACHE_LIMIT=N   graphs kept per place before it runs uncompiled (default 8)\n"
    "  KILN_MAX_GRAPH_OPS=N a graph ends cleanly at N ops (a long unrolled loop; default 4096)\n"
    "  KILN_JIT_CHECK=1     run every graph beside the interpreter and report the first node that differs\n"
    "  KILN_BACKEND=llvm|eager  llvm: fused kernels compiled with LLVM (default); eager: each op's own kernel\n"
    "  KILN_ASYNC_COMPILE=0 compile kernels before a graph's first run (default 1: in the background,\n"
    "                       the graph running op by op until they are ready)\n"
    "  KILN_CACHE_DIR=DIR   compiled kernels on disk (default ~/.cache/kiln; empty: no disk cache)\n"
    "  KILN_STREAMING_STORES=BYTES  kernels writing at least BYTES store past the cache (default: 3/4 of\n"
    "                       a CPU's share of the L3; 0: never)\n"
    "  KILN_LOGS=topic,...  print events to stderr as they happen (like TORCH_LOGS); topics:\n";

struct Options {
  std::string script;
  std::vector<std::string> script_args;
  std::string jit = "auto";
  bool explain = false, json = false;
  std::optional<int> threads;
  std::optional<uint64_t> seed;
  std::string trace_path, record_path, stream, dump_dir;
  std::string device = "cpu";
  int stream_wait_s = 0;
  bool stream_allow_remote = false;
};

void print_usage(std::ostream& out) { out << kUsage << kiln::trace::log_topics_help(); }

int usage_error(const std::string& msg) {
  std::cerr << "kiln: " << msg << "\n";
  print_usage(std::cerr);
  return 2;
}

bool parse_int(const std::string& s, long long& out) {
  if (s.empty()) return false;
  char* end = nullptr;
  out = std::strtoll(s.c_str(), &end, 10);
  return *end == '\0';
}

// Returns an exit code when parsing ends the program (help, errors).
std::optional<int> parse_run_options(const std::vector<std::string>& args, Options& o) {
  size_t i = 0;
  for (; i < args.size() && args[i].size() > 1 && args[i][0] == '-'; ++i) {
    const std::string& a = args[i];
    auto value = [&](const std::string& name) -> std::optional<std::string> {
      if (a.rfind(name + "=", 0) == 0) return a.substr(name.size() + 1);
      if (a == name && i + 1 < args.size()) return args[++i];
      return std::nullopt;
    };
    long long n;
    if (a == "-h" || a == "--help") {
      print_usage(std::cout);
      return 0;
    } else if (a == "--trace" || a.rfind("--trace=", 0) == 0) {
      auto v = value("--trace");
      if (!v || v->empty()) return usage_error("--trace needs a file name");
      o.trace_path = *v;
    } else if (a == "--record" || a.rfind("--record=", 0) == 0) {
      auto v = value("--record");
      if (!v || v->empty()) return usage_error("--record needs a file name");
      o.record_path = *v;
    } else if (a == "--stream" || a.rfind("--stream=", 0) == 0) {
      auto v = value("--stream");
      if (!v || v->empty()) return usage_error("--stream needs HOST:PORT");
      o.stream = *v;
    } else if (a == "--stream-wait") {
      o.stream_wait_s = 10;
    } else if (a.rfind("--stream-wait=", 0) == 0) {
      if (!parse_int(a.substr(14), n) || n < 0) return usage_error("--stream-wait needs a number of seconds");
      o.stream_wait_s = int(n);
    } else if (a == "--dump-dir" || a.rfind("--dump-dir=", 0) == 0) {
      auto v = value("--dump-dir");
      if (!v || v->empty()) return usage_error("--dump-dir needs a directory");
      o.dump_dir = *v;
    } else if (a == "--stream-allow-remote") {
      o.stream_allow_remote = true;
    } else if (a == "--json" && o.explain) {
      o.json = true;
    } else if (a.rfind("--jit", 0) == 0) {
      auto v = value("--jit");
      if (!v || (*v != "off" && *v != "auto")) return usage_error("--jit must be off or auto");
      o.jit = *v;
    } else if (a.rfind("--threads", 0) == 0) {
      auto v = value("--threads");
      if (!v || !parse_int(*v, n) || n < 1) return usage_error("--threads needs a positive integer");
      o.threads = int(n);
    } else if (a == "--device" || a.rfind("--device=", 0) == 0) {
      auto v = value("--device");
      if (!v || (*v != "cpu" && v->rfind("cuda", 0) != 0)) return usage_error("--device must be cpu or cuda[:N]");
      o.device = *v;
    } else if (a.rfind("--seed", 0) == 0) {
      auto v = value("--seed");
      if (!v || !parse_int(*v, n) || n < 0) return usage_error("--seed needs a non-negative integer");
      o.seed = uint64_t(n);
    } else {
      return usage_error("unknown option '" + a + "'");
    }
  }
  if (i == args.size()) return usage_error("missing script to run");
  o.script = args[i];
  o.script_args.assign(args.begin() + long(i) + 1, args.end());
  return std::nullopt;
}

// kiln explain's report, after the script's output (also when the script failed).
void print_report(const Options& o, const kiln::jit::Runtime* rt) {
  if (!o.explain || !rt) return;
  kiln::jit::Report r = kiln::jit::report(*rt);
  std::cout.flush();
  std::cout << (o.json ? kiln::jit::report_json(r) : kiln::jit::format_report(r));
}

int run_script(const Options& o) {
  using namespace kiln::lang;
  if (o.threads) kiln::set_num_threads(*o.threads);
  if (o.seed) kiln::default_generator().manual_seed(*o.seed);
  try {
    kiln::DeviceScope default_device(kiln::parse_device(o.device));
    Interp in(o.json ? &std::cerr : nullptr);
    std::vector<std::string> argv{o.script};
    argv.insert(argv.end(), o.script_args.begin(), o.script_args.end());
    set_argv(in, argv);
    in.kiln_version = kVersion;
    kiln::TraceRequest req{o.trace_path, o.record_path, o.stream, o.stream_wait_s, o.stream_allow_remote};
    if (!kiln::start_tracing(req, o.script, argv, kVersion)) return 1;
    // Flushes and closes the trace however the script ends.
    struct StopTracing {
      ~StopTracing() { kiln::stop_tracing(); }
    } stop_guard;
    // Before the trace closes: GPU work finishes and its timings are delivered.
    struct SyncDevices {
      ~SyncDevices() {
        try {
          if (kiln::DeviceBackend* b = kiln::cuda_backend_if_any()) b->synchronize();
        } catch (const kiln::Error& e) {
          std::cerr << "kiln: " << e.describe() << "\n";
        }
      }
    } sync_devices;
    // The JIT leaves before the interpreter and after running what is pending.
    struct Jit {
      kiln::jit::Runtime* rt = nullptr;
      ~Jit() { kiln::jit::uninstall(); }
    } jit;
    if (o.jit == "auto") {
      kiln::jit::Options jo = kiln::jit::options_from_env(true);
      jo.dump_dir = o.dump_dir;
      kiln::jit::set_device_dump_dir(o.dump_dir);
      jit.rt = &kiln::jit::install(in, jo);
    }
    try {
      in.run_file(o.script);
      kiln::lazy::sync(kiln::lazy::SyncReason::RegionEnd);
      print_report(o, jit.rt);
    } catch (const ScriptException& e) {
      std::cout.flush();
      if (int code; is_system_exit(in, e, code)) {
        print_report(o, jit.rt);
        return code;
      }
      std::cerr << in.format_exception(e);
      print_report(o, jit.rt);
      return 1;
    } catch (const kiln::Error& e) {
      std::cout.flush();
      if (e.kind() == kiln::ErrorKind::Syntax) std::cerr << in.format_syntax_error(e);
      else std::cerr << "kiln: " << e.describe() << "\n";
      print_report(o, jit.rt);
      return 1;
    }
  } catch (const ScriptException& e) {
    // No interpreter to format it with: the exception's class, message and innermost frame.
    std::cerr << "kiln: the interpreter failed to start (an error in its prelude)";
    if (const auto* inst = e.exc.as<kiln::lang::InstanceObj>()) {
      std::cerr << ": " << inst->get_class().name;
      if (const Obj* args = inst->attrs.find(std::string_view("args")); args && args->kind() == kiln::lang::Kind::Tuple &&
                                                                        !args->as<kiln::lang::TupleObj>()->items.empty())
        if (const auto* msg = args->as<kiln::lang::TupleObj>()->items[0].as<kiln::lang::StrObj>()) std::cerr << ": " << msg->value;
    }
    if (!e.traceback.empty())
      std::cerr << " (" << e.traceback.back().filename << ", line " << e.traceback.back().pos.line << ")";
    std::cerr << "\n";
    return 1;
  } catch (const kiln::Error& e) {
    std::cerr << "kiln: " << e.describe() << "\n";
    return 1;
  }
  std::cout.flush();
  return 0;
}

struct ThreadCall {
  const Options* options;
  int result;
};

// KILN_NVRTC_CHECK: the run fails when a kernel it generated does not
// compile as CUDA C (jit/nvrtc_check.h).
int finish_nvrtc_check(int rc) {
  if (!kiln::jit::nvrtc_check_enabled()) return rc;
  std::string report = kiln::jit::nvrtc_check_finish();
  if (report.empty()) return rc;
  std::cerr << "kiln: KILN_NVRTC_CHECK: " << report;
  return rc ? rc : 1;
}

void* run_thread(void* p) {
  kiln::trace::set_thread_name("interpreter");
  auto* call = static_cast<ThreadCall*>(p);
  call->result = finish_nvrtc_check(run_script(*call->options));
  return nullptr;
}

// Scripts recurse; run them on a thread with a large stack so the VM's
// recursion limit, not the C++ stack, is what a deep script meets.
int run_with_big_stack(const Options& o) {
  ThreadCall call{&o, 1};
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, size_t(512) << 20);
  pthread_t t;
  if (pthread_create(&t, &attr, run_thread, &call) != 0) return finish_nvrtc_check(run_script(o));
  pthread_join(t, nullptr);
  pthread_attr_destroy(&attr);
  return call.result;
}

}  // namespace

// Model scripts free and reallocate the same large tensors every step. By
// default glibc hands each freed block back to the kernel (munmap, or a heap
// trim) and the next step page-faults all of it in again, which costs more
// than a fused kernel's whole pass over the data. Keep freed memory in the
// heap for reuse instead, as PyTorch users do with GLIBC_TUNABLES.
//
// One arena: the script runs on its own thread, and glibc gives other threads
// arenas of 64 MiB heaps that it unmaps as soon as one is empty, whatever the
// trim threshold, so a step's large tensors would be page-faulted in anew
// (as many faults as the step has bytes) every step. The main arena keeps them.
void keep_freed_memory() {
  mallopt(M_ARENA_MAX, 1);
  mallopt(M_MMAP_MAX, 0);
  // mallopt takes an int: INT_MAX (2 GiB of free heap top) means never in practice.
  mallopt(M_TRIM_THRESHOLD, std::numeric_limits<int>::max());
}

int main(int argc, char** argv) {
  keep_freed_memory();
  kiln::jit::install_cuda_backend();
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty()) return usage_error("missing command");
  if (args[0] == "--version" || args[0] == "version") {
    std::cout << "kiln " << kVersion << "\n";
    return 0;
  }
  if (args[0] == "-h" || args[0] == "--help" || args[0] == "help") {
    print_usage(std::cout);
    return 0;
  }
  if (args[0] != "run" && args[0] != "explain") return usage_error("unknown command '" + args[0] + "'");
  Options o;
  o.explain = args[0] == "explain";
  if (auto code = parse_run_options({args.begin() + 1, args.end()}, o)) return *code;
  if (o.explain && o.jit == "off") return usage_error("kiln explain reports what the JIT does: drop --jit=off");
  if (!std::ifstream(o.script)) {
    std::cerr << "kiln: can't open file '" << o.script << "': No such file or directory\n";
    return 2;
  }
  return run_with_big_stack(o);
}
