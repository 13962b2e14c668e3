#include "core/thread_pool.h"

#include <algorithm>
#include <atomic>
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

class Pool {
 public:
  explicit Pool(int n) : size_(std::max(n, 1)) {
    for (int i = 1; i < size_; ++i) workers_.emplace_back([this] { work(); });
  }
  ~Pool() {
    {
      std::lock_guard<std::mutex> l(mu_);
      stop_ = true;
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
    {
      std::lock_guard<std::mutex> l(mu_);
      job_ = job;
    }
    cv_.notify_all();
    drain(*job, false);
    std::unique_lock<std::mutex> l(mu_);
    done_cv_.wait(l, [&] { return job->done.load() == job->nchunks; });
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
    if (finished && job.done.fetch_add(finished) + finished == job.nchunks) {
      std::lock_guard<std::mutex> l(mu_);
      done_cv_.notify_all();
    }
  }

  void work() {
    std::shared_ptr<Job> last;
    for (;;) {
      std::shared_ptr<Job> job;
      {
        std::unique_lock<std::mutex> l(mu_);
        cv_.wait(l, [&] { return stop_ || (job_ && job_ != last); });
        if (stop_) return;
        job = last = job_;
      }
      drain(*job, true);
    }
  }

  int size_;
  std::vector<std::thread> workers_;
  std::mutex mu_, submit_mu_;
  std::condition_variable cv_, done_cv_;
  std::shared_ptr<Job> job_;
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
