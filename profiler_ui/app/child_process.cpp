// Spawning, polling and stopping the attached child (see child_process.h).
#include "profiler_ui/app/child_process.h"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <spawn.h>
#include <stdexcept>
#include <sys/wait.h>
#include <thread>

extern char** environ;

namespace kiln::inspect::app {
namespace {

std::string describe_status(int status) {
  if (WIFEXITED(status)) return "exited with status " + std::to_string(WEXITSTATUS(status));
  if (WIFSIGNALED(status)) return "killed by signal " + std::to_string(WTERMSIG(status));
  return "stopped";
}

}  // namespace

std::vector<std::string> ChildProcess::with_stream(std::vector<std::string> argv, const std::string& addr) {
  for (size_t i = 0; i < argv.size(); ++i) {
    if (argv[i] == "run") {
      argv.insert(argv.begin() + static_cast<long>(i) + 1, {"--stream", addr});
      break;
    }
  }
  return argv;
}

ChildProcess ChildProcess::spawn(std::vector<std::string> argv, const std::string& stream_addr) {
  if (argv.empty()) throw std::runtime_error("kiln-inspect: no command to start after '--'");
  argv = with_stream(std::move(argv), stream_addr);
  std::vector<char*> cargv;
  for (std::string& a : argv) cargv.push_back(a.data());
  cargv.push_back(nullptr);
  // The environment plus KILN_STREAM (replacing an inherited one).
  std::string stream_env = "KILN_STREAM=" + stream_addr;
  std::vector<char*> env;
  for (char** e = environ; *e; ++e)
    if (std::strncmp(*e, "KILN_STREAM=", 12) != 0) env.push_back(*e);
  env.push_back(stream_env.data());
  env.push_back(nullptr);
  pid_t pid = -1;
  int rc = posix_spawnp(&pid, cargv[0], nullptr, nullptr, cargv.data(), env.data());
  if (rc != 0)
    throw std::runtime_error("kiln-inspect: cannot start '" + argv[0] + "': " + std::strerror(rc) +
                             " (is it on PATH?)");
  return ChildProcess(pid, std::move(argv));
}

ChildProcess::ChildProcess(ChildProcess&& o) noexcept
    : pid_(o.pid_), exit_(std::move(o.exit_)), argv_(std::move(o.argv_)) {
  o.pid_ = -1;
}

std::optional<std::string> ChildProcess::poll_exit() {
  if (exit_ || pid_ < 0) return exit_;
  int status = 0;
  pid_t r = waitpid(pid_, &status, WNOHANG);
  if (r == pid_) exit_ = describe_status(status);
  else if (r < 0 && errno != EINTR) exit_ = std::string("lost: ") + std::strerror(errno);
  return exit_;
}

ChildProcess::~ChildProcess() {
  if (pid_ < 0 || poll_exit()) return;
  // The user closed the inspector while the script runs: stop what we started.
  kill(pid_, SIGTERM);
  for (int i = 0; i < 40 && !poll_exit(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  if (!poll_exit()) {
    kill(pid_, SIGKILL);
    int status = 0;
    waitpid(pid_, &status, 0);
  }
}

}  // namespace kiln::inspect::app
