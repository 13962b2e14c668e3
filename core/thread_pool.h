// The CPU worker pool eager kernels share: an OpenMP team, the one oneDNN's
// products run on too. Sized by KILN_NUM_THREADS (default: all cores).
// parallel_for splits [begin, end) into chunks no smaller than `grain`, runs
// them on the team and the calling thread, and returns when all are done.
// Small ranges and nested calls run inline, so a 1-element op never touches
// the pool.
#pragma once

#include <cstdint>
#include <functional>

namespace kiln {

int num_threads();
void set_num_threads(int n);  // for tests and benchmarks

namespace detail {
void parallel_run(int64_t begin, int64_t end, int64_t grain, const std::function<void(int64_t, int64_t)>& fn);
bool in_parallel_region();
}  // namespace detail

template <class F>
void parallel_for(int64_t begin, int64_t end, int64_t grain, const F& fn) {
  if (end - begin <= grain || num_threads() == 1 || detail::in_parallel_region()) {
    if (end > begin) fn(begin, end);
    return;
  }
  detail::parallel_run(begin, end, grain, fn);
}

}  // namespace kiln
