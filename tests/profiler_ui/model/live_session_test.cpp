// LiveSession: a writer streams a recorded session over a real socket; the
// snapshots grow, the last one equals the file's session, and a stream that
// breaks ends in the Error state with the reader's message.
#include <gtest/gtest.h>

#include <sys/socket.h>
#include <unistd.h>

#include <fstream>
#include <sstream>
#include <thread>

#include "fixture_util.h"
#include "profiler_ui/model/live_session.h"

namespace kiln::inspect {
namespace {

using testing::read_bytes;

// Writes `bytes` into a socket in small pieces from a thread, then closes it.
struct Writer {
  int fds[2] = {-1, -1};
  std::thread thread;
  explicit Writer(std::string bytes) {
    EXPECT_EQ(::socketpair(AF_UNIX, SOCK_STREAM, 0, fds), 0);
    thread = std::thread([fd = fds[1], b = std::move(bytes)] {
      for (size_t off = 0; off < b.size();) {
        ssize_t n = ::write(fd, b.data() + off, std::min<size_t>(4096, b.size() - off));
        if (n <= 0) break;
        off += size_t(n);
      }
      ::close(fd);
    });
  }
  ~Writer() {
    if (thread.joinable()) thread.join();
  }
};

std::shared_ptr<const Session> wait_finished(LiveSession& live) {
  for (int i = 0; i < 1000 && !live.finished(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  EXPECT_TRUE(live.finished());
  return live.snapshot();
}

TEST(LiveSession, StreamedSessionEqualsTheFile) {
  std::string bytes = read_bytes(testing::fixture("graph_breaks_short.kilntrace"));
  auto file = testing::load_fixture("graph_breaks_short.kilntrace");
  ASSERT_TRUE(file);
  Writer w(bytes);
  auto live = LiveSession::attach(trace::TraceReader::from_socket(w.fds[0], "test peer"),
                                  LiveSession::Options{std::chrono::milliseconds(1), std::chrono::milliseconds(5)});
  auto snap = wait_finished(*live);
  ASSERT_TRUE(snap);
  LiveStatus st = live->status();
  EXPECT_EQ(st.state, LiveState::Ended) << st.message;
  EXPECT_EQ(st.events, file->event_count());
  EXPECT_GE(st.snapshots, 1u);
  EXPECT_EQ(snap->event_count(), file->event_count());
  EXPECT_EQ(snap->info().format, SourceFormat::Live);
  EXPECT_EQ(snap->info().script_path, "samples/graph_breaks_demo.py");
  EXPECT_TRUE(snap->ended());
  EXPECT_EQ(analyze(snap)->summary.graph_breaks, 19u);
}

TEST(LiveSession, BrokenStreamReportsTheError) {
  std::string bytes = read_bytes(testing::fixture("graph_breaks_short.kilntrace"));
  Writer w(bytes.substr(0, bytes.size() / 3));
  auto live = LiveSession::attach(trace::TraceReader::from_socket(w.fds[0], "test peer"));
  auto snap = wait_finished(*live);
  LiveStatus st = live->status();
  EXPECT_EQ(st.state, LiveState::Error);
  EXPECT_NE(st.message.find("truncated"), std::string::npos) << st.message;
  ASSERT_TRUE(snap);  // the events before the break stay visible
  EXPECT_GT(snap->event_count(), 0u);
  EXPECT_FALSE(snap->load_errors().empty());
}

TEST(LiveSession, ListenWaitsThenStops) {
  auto live = LiveSession::listen(trace::TraceListener::listen("127.0.0.1", 0));
  EXPECT_EQ(live->status().state, LiveState::Waiting);
  EXPECT_NE(live->status().message.find("kiln run --stream 127.0.0.1:"), std::string::npos);
  EXPECT_EQ(live->snapshot(), nullptr);
  live->stop();
  EXPECT_EQ(live->status().state, LiveState::Stopped);
}

}  // namespace
}  // namespace kiln::inspect
