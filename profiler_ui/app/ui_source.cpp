// File, listen and spawn sources (see ui_source.h).
#include "profiler_ui/app/ui_source.h"

#include <chrono>
#include <exception>

#include "traces/socket.h"

namespace kiln::inspect::ui {
namespace {

LoadResult load_guarded(const std::string& path) {
  try {
    return load_file(path);
  } catch (const std::exception& e) {
    // load_file promises not to throw; if memory runs out it still may.
    LoadResult r;
    r.error = path + ": " + e.what();
    return r;
  }
}

}  // namespace

std::unique_ptr<Source> Source::open_file(const std::string& path, bool sync) {
  std::unique_ptr<Source> s(new Source());
  s->description_ = path;
  if (sync) s->loaded_ = load_guarded(path);
  else s->loading_ = std::async(std::launch::async, load_guarded, path);
  return s;
}

std::unique_ptr<Source> Source::listen(const std::string& address) {
  std::unique_ptr<Source> s(new Source());
  s->description_ = "listening on " + address;
  try {
    trace::Endpoint ep = trace::parse_endpoint(address);
    trace::TraceListener listener = trace::TraceListener::listen(ep.host, ep.port);
    s->listen_address_ = listener.address();
    s->description_ = "listening on " + s->listen_address_;
    s->live_ = LiveSession::listen(std::move(listener));
  } catch (const std::exception& e) {
    s->setup_error_ = std::string("cannot listen on '") + address + "': " + e.what();
  }
  return s;
}

std::unique_ptr<Source> Source::spawn(const std::vector<std::string>& command) {
  std::unique_ptr<Source> s(new Source());
  std::string cmd;
  for (const std::string& a : command) cmd += (cmd.empty() ? "" : " ") + a;
  s->description_ = cmd;
  try {
    trace::TraceListener listener = trace::TraceListener::listen("127.0.0.1", 0);
    s->listen_address_ = listener.address();
    // Listen before the child starts, so its connect finds us.
    s->live_ = LiveSession::listen(std::move(listener));
    s->child_.emplace(app::ChildProcess::spawn(command, s->listen_address_));
  } catch (const std::exception& e) {
    s->setup_error_ = e.what();
  }
  return s;
}

Source::~Source() {
  if (live_) live_->stop();
}

SourceView Source::poll() {
  SourceView v;
  if (!setup_error_.empty()) {
    v.error = setup_error_;
    return v;
  }
  if (loading_.valid()) {
    if (loading_.wait_for(std::chrono::seconds(0)) != std::future_status::ready) {
      v.status = "loading " + description_ + " ...";
      v.live = true;
      return v;
    }
    loaded_ = loading_.get();
  }
  if (loaded_) {
    v.session = loaded_->session;
    v.error = loaded_->error;
    v.status = description_;
    return v;
  }
  v.session = live_->snapshot();
  LiveStatus st = live_->status();
  v.live = !live_->finished();
  switch (st.state) {
    case LiveState::Waiting: v.status = "waiting for `kiln run --stream " + listen_address_ + "`"; break;
    case LiveState::Connected: v.status = "live from " + st.peer; break;
    case LiveState::Ended: v.status = "session from " + st.peer + " ended"; break;
    case LiveState::Error:
      v.error = "live stream: " + st.message;
      v.status = "stream from " + st.peer + " broke";
      break;
    case LiveState::Stopped: v.status = "stopped"; break;
  }
  if (child_) {
    if (std::optional<std::string> exit = child_->poll_exit()) {
      v.status += " | child " + *exit;
      if (st.state == LiveState::Waiting) {
        v.error = "'" + description_ + "' " + *exit + " before it connected (see its output in the terminal)";
        v.live = false;  // nothing more will come
      }
    } else {
      v.status += " | child running";
    }
  }
  return v;
}

}  // namespace kiln::inspect::ui
