// Replays a fuzz corpus without libFuzzer: every file named on the command
// line, and every file in the directories named, goes through
// LLVMFuzzerTestOneInput once. With --jobs=N the inputs are shared among N
// forked processes (each checked for crashes and, under ASan, leaks when it
// exits), so a large corpus replays in reasonable time on several cores.
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace {

void replay(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  LLVMFuzzerTestOneInput(bytes.data(), bytes.size());
}

// Runs inputs job, job + jobs, ... in a child; true when every child exited cleanly.
bool replay_forked(const std::vector<std::filesystem::path>& inputs, int jobs) {
  std::vector<pid_t> children;
  for (int job = 0; job < jobs; ++job) {
    pid_t pid = fork();
    if (pid < 0) {
      std::perror("fork");
      return false;
    }
    if (pid == 0) {
      for (size_t i = size_t(job); i < inputs.size(); i += size_t(jobs)) replay(inputs[i]);
      std::exit(0);  // exit, not _exit: LeakSanitizer checks at exit
    }
    children.push_back(pid);
  }
  bool ok = true;
  for (pid_t pid : children) {
    int status = 0;
    waitpid(pid, &status, 0);
    ok = ok && WIFEXITED(status) && WEXITSTATUS(status) == 0;
  }
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  int jobs = 1;
  std::vector<std::filesystem::path> inputs;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg.rfind("--jobs=", 0) == 0) {
      jobs = std::max(1, std::atoi(arg.c_str() + 7));
      continue;
    }
    // A file is replayed alone (to reproduce one crash); a directory, every file in it.
    if (std::filesystem::is_regular_file(arg)) {
      inputs.emplace_back(arg);
      continue;
    }
    for (const auto& entry : std::filesystem::directory_iterator(arg))
      if (entry.is_regular_file()) inputs.push_back(entry.path());
  }
  if (inputs.empty()) {
    std::fprintf(stderr, "usage: %s [--jobs=N] CORPUS_DIR_OR_FILE...\n", argv[0]);
    return 2;
  }
  std::sort(inputs.begin(), inputs.end());  // a stable order, so a failure reproduces
  if (jobs == 1) {
    for (const auto& path : inputs) replay(path);
  } else if (!replay_forked(inputs, jobs)) {
    std::fprintf(stderr, "a replay process failed (see above)\n");
    return 1;
  }
  std::printf("replayed %zu inputs\n", inputs.size());
  return 0;
}
