// kiln-inspect's command line and the child's stream argument.
#include <gtest/gtest.h>
#include <unistd.h>

#include "profiler_ui/app/child_process.h"
#include "profiler_ui/app/options.h"

namespace kiln::inspect::app {
namespace {

TEST(Options, WaysIn) {
  EXPECT_EQ(parse_options({"a.kilntrace"}).file, "a.kilntrace");
  EXPECT_EQ(parse_options({"--listen", "127.0.0.1:9000"}).listen, "127.0.0.1:9000");
  Options o = parse_options({"--compare", "b.kilntrace", "--", "kiln", "run", "x.py", "--lr", "1"});
  EXPECT_EQ(o.compare, "b.kilntrace");
  EXPECT_EQ(o.command, (std::vector<std::string>{"kiln", "run", "x.py", "--lr", "1"}));
  EXPECT_TRUE(parse_options({}).file.empty());
}

TEST(Options, Headless) {
  Options o = parse_options({"--screenshot", "o.png", "--view", "kernels", "--size", "640x480", "f.json"});
  EXPECT_TRUE(o.headless());
  EXPECT_EQ(o.view, "kernels");
  EXPECT_EQ(o.width, 640);
  EXPECT_EQ(o.height, 480);
}

TEST(Options, UsageErrorsNameTheProblem) {
  auto error_of = [](std::vector<std::string> args) {
    try {
      parse_options(args);
    } catch (const UsageError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(error_of({"--size", "12"}).find("WxH"), std::string::npos);
  EXPECT_NE(error_of({"--view", "nope"}).find("unknown --view 'nope'"), std::string::npos);
  EXPECT_NE(error_of({"a", "b"}).find("--compare"), std::string::npos);
  EXPECT_NE(error_of({"a", "--listen", "127.0.0.1:1"}).find("one way in"), std::string::npos);
  EXPECT_NE(error_of({"--screenshot", "o.png"}).find("need a trace FILE"), std::string::npos);
  EXPECT_NE(error_of({"--bogus"}).find("unknown option '--bogus'"), std::string::npos);
  EXPECT_NE(error_of({"--"}).find("followed by a command"), std::string::npos);
  EXPECT_NE(error_of({"--listen"}).find("needs a value"), std::string::npos);
}

TEST(ChildProcess, StreamGoesAfterRun) {
  EXPECT_EQ(ChildProcess::with_stream({"kiln", "run", "x.py"}, "127.0.0.1:5"),
            (std::vector<std::string>{"kiln", "run", "--stream", "127.0.0.1:5", "x.py"}));
  // Not a `kiln run`: only KILN_STREAM in the environment points it at us.
  EXPECT_EQ(ChildProcess::with_stream({"python3", "x.py"}, "127.0.0.1:5"),
            (std::vector<std::string>{"python3", "x.py"}));
}

TEST(ChildProcess, ExitIsReportedAndMissingProgramIsAnError) {
  ChildProcess c = ChildProcess::spawn({"sh", "-c", "exit 7"}, "127.0.0.1:1");
  std::optional<std::string> exit;
  for (int i = 0; i < 200 && !exit; ++i) {
    exit = c.poll_exit();
    if (!exit) usleep(10000);
  }
  ASSERT_TRUE(exit.has_value());
  EXPECT_EQ(*exit, "exited with status 7");
  EXPECT_THROW(ChildProcess::spawn({"/nonexistent/kiln"}, "127.0.0.1:1"), std::runtime_error);
}

}  // namespace
}  // namespace kiln::inspect::app
