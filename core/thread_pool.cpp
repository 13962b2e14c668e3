#include "core/thread_pool.h"

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <exception>
#include <mutex>
#include <optional>
#include <thread>

#include "traces/recorder.h"

namespace kiln {

namespace {

thread_local bool t_in_parallel = false;

int default_threads() {
  if (const char* env = std::getenv("KILN_NUM_THREADS")) {
    int n = std::atoi(env);
    if (n > 0) return n;
  }
  return int(std::max(1u, std::thread::hardware_concurrency()));
}

std::atomic<int>& thread_count() {
  static std::atomic<int> n{default_threads()};
  return n;
}

// The chunks of one parallel_for, claimed from an atomic counter by every
// thread of the team, the submitter included: a thread that starts late
// (descheduled on a busy machine) takes fewer chunks, though the region's
// closing barrier still waits for it to arrive, as in any OpenMP runtime.
struct Job {
  const std::function<void(int64_t, int64_t)>& fn;
  int64_t begin, end, nchunks;
  std::atomic<int64_t> next{0};
  std::mutex error_mu;
  std::exception_ptr error;  // the first exception a chunk threw, rethrown by the submitter

  // On a worker each chunk is a span, so traces show what the workers did
  // (the submitter's own chunks lie inside the kernel event it records).
  void drain(bool worker) {
    static const trace::InternedName kChunk("pool chunk");
    t_in_parallel = true;
    for (int64_t c; (c = next.fetch_add(1)) < nchunks;) {
      const int64_t len = end - begin;
      std::optional<trace::SpanScope> span;
      if (worker && trace::enabled()) span.emplace(trace::Category::kernel, kChunk);
      try {
        fn(begin + len * c / nchunks, begin + len * (c + 1) / nchunks);
      } catch (...) {  // an exception must not leave an OpenMP region
        std::lock_guard<std::mutex> l(error_mu);
        if (!error) error = std::current_exception();
      }
    }
    t_in_parallel = false;
  }
};

}  // namespace

int num_threads() { return thread_count().load(std::memory_order_relaxed); }
void set_num_threads(int n) { thread_count().store(std::max(n, 1), std::memory_order_relaxed); }

namespace detail {
bool in_parallel_region() { return t_in_parallel; }

// The workers are OpenMP's: oneDNN's products (core/ops/onednn_matmul.h) run
// on the same team, so an idle worker of one never spins on the core the
// other needs. libgomp's idle workers spin about a millisecond before they
// sleep, which keeps a wake-up (tens of microseconds on a VM) out of
// back-to-back kernels.
void parallel_run(int64_t begin, int64_t end, int64_t grain, const std::function<void(int64_t, int64_t)>& fn) {
  const int threads = num_threads();
  Job job{fn, begin, end, std::min<int64_t>((end - begin + grain - 1) / grain, int64_t(threads) * 4)};
  const int team = int(std::min<int64_t>(threads, job.nchunks));
#pragma omp parallel num_threads(team)
  job.drain(omp_get_thread_num() != 0);
  if (job.error) std::rethrow_exception(job.error);
}
}  // namespace detail

}  // namespace kiln
