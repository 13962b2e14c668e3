// Background compilation: one worker thread runs compile jobs in order, so a
// region keeps running on the reference executor while its kernels compile
// and a cold start never stalls the script (KILN_ASYNC_COMPILE=0: compile
// inline, for deterministic tests and compile-time benchmarks).
#pragma once

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>

namespace kiln::jit {

class CompileQueue {
 public:
  CompileQueue() = default;
  ~CompileQueue();  // finishes queued jobs, then joins the worker
  CompileQueue(const CompileQueue&) = delete;
  CompileQueue& operator=(const CompileQueue&) = delete;

  void post(std::function<void()> job);
  void drain();  // returns when every posted job has run

 private:
  void work();

  std::mutex mu_;
  std::condition_variable cv_, idle_;
  std::deque<std::function<void()>> jobs_;
  bool stop_ = false, busy_ = false;
  std::thread worker_;
};

}  // namespace kiln::jit
