// Where the session on screen comes from, behind one poll(): a file loading
// on a background thread, a listener waiting for `kiln run --stream`, or a
// child `kiln run` we started with its stream pointed at our listener. The
// UI thread calls poll() once a frame; it never waits on the network or the
// disk (reading happens on the model's LiveSession thread or the load thread).
#pragma once

#include <future>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "profiler_ui/app/child_process.h"
#include "profiler_ui/model/live_session.h"
#include "profiler_ui/model/load.h"

namespace kiln::inspect::ui {

// What a source has to show this frame.
struct SourceView {
  std::shared_ptr<const Session> session;  // latest snapshot; null while none
  std::string error;                       // a failure to show as the banner
  std::string status;                      // a one-line status ("waiting on 127.0.0.1:9000")
  bool live = false;                       // still changing
};

class Source {
 public:
  // Starts loading `path` (on a thread unless `sync`, which the offscreen
  // modes use so the first frame already has the data).
  static std::unique_ptr<Source> open_file(const std::string& path, bool sync);
  // Listens on HOST:PORT for one writer. Errors (a bad address, a port in
  // use) are reported by poll(), not thrown.
  static std::unique_ptr<Source> listen(const std::string& address);
  // Listens on a free loopback port and starts `command` streaming to it.
  static std::unique_ptr<Source> spawn(const std::vector<std::string>& command);

  ~Source();
  SourceView poll();
  const std::string& description() const { return description_; }

 private:
  Source() = default;
  std::string description_;
  // Exactly one of these is the way in.
  std::future<LoadResult> loading_;
  std::optional<LoadResult> loaded_;
  std::unique_ptr<LiveSession> live_;
  std::string listen_address_;
  std::optional<app::ChildProcess> child_;
  std::string setup_error_;
};

}  // namespace kiln::inspect::ui
