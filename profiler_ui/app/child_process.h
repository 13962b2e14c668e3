// A child command started by `kiln-inspect -- kiln run script.py`: spawned
// with its stream pointed at our listener, polled without blocking for its
// exit, and stopped (SIGTERM, then SIGKILL) if the inspector closes first.
#pragma once

#include <optional>
#include <string>
#include <sys/types.h>
#include <vector>

namespace kiln::inspect::app {

class ChildProcess {
 public:
  // Starts `argv` (PATH lookup) with `--stream ADDR` inserted after its `run`
  // argument and KILN_STREAM=ADDR in its environment, so `kiln run` and
  // wrappers around it both stream to us. Throws std::runtime_error.
  static ChildProcess spawn(std::vector<std::string> argv, const std::string& stream_addr);

  ChildProcess(ChildProcess&& o) noexcept;
  ChildProcess& operator=(ChildProcess&&) = delete;
  ChildProcess(const ChildProcess&) = delete;
  ~ChildProcess();

  // Non-blocking: a description of how the child ended ("exited with status
  // 0", "killed by signal 9"), or nullopt while it runs.
  std::optional<std::string> poll_exit();
  const std::vector<std::string>& argv() const { return argv_; }

  // argv with `--stream ADDR` after the first `run` (exposed for tests).
  static std::vector<std::string> with_stream(std::vector<std::string> argv, const std::string& addr);

 private:
  ChildProcess(pid_t pid, std::vector<std::string> argv) : pid_(pid), argv_(std::move(argv)) {}
  pid_t pid_ = -1;
  std::optional<std::string> exit_;
  std::vector<std::string> argv_;
};

}  // namespace kiln::inspect::app
