#include "core/thread_pool.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <exception>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "traces/recorder.h"

namespace kiln {

namespace {

thread_local bool t_in_parallel = false;

// A job is split into chunks claimed from its own atomic counter by the
// workers and the submitting thread; the submitter waits until every chunk
// has run. Each job is a fresh object, so a worker that wakes late can only
// find an exhausted counter, never another job's chunks.
struct Job {
  const std::function<void(int64_t, int64_t)>* fn;
  int64_t begin, end, nchunks;
  std::atomic<int64_t> next{0};
  std::atomic<int64_t> done{0};
  std::mutex error_mu;
  std::exception_ptr error;  // the first exception a chunk threw, rethrown by the submitter
};

// Waking a sleeping thread costs tens of microseconds here (a futex and an
// IPI on a VM), as much as a small kernel: a worker that finished a job
// spins this long for the next one before it sleeps, and the submitter spins
// this long for the last chunks before it waits (OpenMP runtimes, which
// PyTorch's kernels use, spin likewise).
constexpr auto kSpin = std::chrono::microseconds(100);

inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

// Spins until done() or kSpin passes; whether done() became true.
template <class Done>
bool spin_until(const Done& done) {
  const auto deadline = std::chrono::steady_clock::now() + kSpin;
  for (int i = 0;; ++i) {
    if (done()) return true;
    cpu_relax();
    if ((i & 255) == 255 && std::chrono::steady_clock::now() > deadline) return done();
  }
}

class Pool {
 public:
  explicit Pool(int n) : size_(std::max(n, 1)) {
    for (int i = 1; i < size_; ++i) workers_.emplace_back([this] { work(); });
  }
  ~Pool() {
    {
      std::lock_guard<std::mutex> l(mu_);
      stop_ = true;
      epoch_.fetch_add(1);
    }
    cv_.notify_all();
    for (auto& w : workers_) w.join();
  }
  int size() const { return size_; }

  void run(int64_t begin, int64_t end, int64_t grain, const std::function<void(int64_t, int64_t)>& fn) {
    std::lock_guard<std::mutex> submit(submit_mu_);
    auto job = std::make_shared<Job>();
    job->fn = &fn;
    job->begin = begin;
    job->end = end;
    job->nchunks = std::min<int64_t>((end - begin + grain - 1) / grain, int64_t(size_) * 4);
    bool wake;
    {
      std::lock_guard<std::mutex> l(mu_);
      job_ = job;
      epoch_.fetch_add(1, std::memory_order_release);
      wake = sleeping_ > 0;
    }
    if (wake) cv_.notify_all();
    drain(*job, false);
    auto all_done = [&] { return job->done.load(std::memory_order_acquire) == job->nchunks; };
    if (!spin_until(all_done)) {
      std::unique_lock<std::mutex> l(mu_);
      done_cv_.wait(l, all_done);
    }
    std::lock_guard<std::mutex> l(mu_);
    job_.reset();
    if (job->error) std::rethrow_exception(job->error);
  }

 private:
  // Runs chunks of `job` until none is left. On a worker thread each chunk
  // is a span, so traces show what the workers did (the submitter's own
  // chunks lie inside the kernel event it records).
  void drain(Job& job, bool worker) {
    static const trace::InternedName kChunk("pool chunk");
    t_in_parallel = true;
    int64_t finished = 0;
    for (int64_t c; (c = job.next.fetch_add(1)) < job.nchunks;) {
      int64_t len = job.end - job.begin;
      std::optional<trace::SpanScope> span;
      if (worker && trace::enabled()) span.emplace(trace::Category::kernel, kChunk);
      try {
        (*job.fn)(job.begin + len * c / job.nchunks, job.begin + len * (c + 1) / job.nchunks);
      } catch (...) {
        std::lock_guard<std::mutex> l(job.error_mu);
        if (!job.error) job.error = std::current_exception();
      }
      ++finished;
    }
    t_in_parallel = false;
    if (finished && job.done.fetch_add(finished, std::memory_order_acq_rel) + finished == job.nchunks) {
      std::lock_guard<std::mutex> l(mu_);
      done_cv_.notify_all();
    }
  }

  void work() {
    uint64_t seen = 0;
    for (;;) {
      spin_until([&] { return epoch_.load(std::memory_order_acquire) != seen; });
      std::shared_ptr<Job> job;
      {
        std::unique_lock<std::mutex> l(mu_);
        ++sleeping_;
        cv_.wait(l, [&] { return stop_ || epoch_.load() != seen; });
        --sleeping_;
        if (stop_) return;
        seen = epoch_.load();
        job = job_;
      }
      if (job) drain(*job, true);
    }
  }

  int size_;
  std::vector<std::thread> workers_;
  std::mutex mu_, submit_mu_;
  std::condition_variable cv_, done_cv_;
  std::shared_ptr<Job> job_;           // guarded by mu_
  std::atomic<uint64_t> epoch_{0};     // bumped (under mu_) for each job and at stop
  int sleeping_ = 0;                   // workers blocked on cv_, guarded by mu_
  bool stop_ = false;
};

int default_threads() {
  if (const char* env = std::getenv("KILN_NUM_THREADS")) {
    int n = std::atoi(env);
    if (n > 0) return n;
  }
  return int(std::max(1u, std::thread::hardware_concurrency()));
}

std::unique_ptr<Pool>& pool() {
  static std::unique_ptr<Pool> p = std::make_unique<Pool>(default_threads());
  return p;
}

}  // namespace

int num_threads() { return pool()->size(); }
void set_num_threads(int n) { pool() = std::make_unique<Pool>(n); }

namespace detail {
bool in_parallel_region() { return t_in_parallel; }
void parallel_run(int64_t begin, int64_t end, int64_t grain, const std::function<void(int64_t, int64_t)>& fn) {
  pool()->run(begin, end, grain, fn);
}
}  // namespace detail

}  // namespace kiln
