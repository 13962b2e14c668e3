// The command line of kiln-inspect: which way in (nothing, a file, a listen
// address, a child command), what to compare against, and the headless modes
// (screenshot, frame benchmark). Parsing never exits: errors are exceptions
// carrying the usage problem, so main() prints them with the usage text.
#pragma once

#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace kiln::inspect::app {

class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct Options {
  bool help = false;
  std::string file;                  // a .kilntrace or Chrome trace JSON to open
  std::string listen;                // HOST:PORT to wait on for `kiln run --stream`
  std::vector<std::string> command;  // after `--`: a kiln command to start and attach to
  std::string compare;               // a second recording, for the Compare view
  std::string screenshot;            // write one frame of --view to this PNG and exit
  std::string view;                  // the view to show first (screenshot: the one drawn)
  int width = 1280, height = 800;    // --size WxH
  int bench_frames = 0;              // draw N frames offscreen and print ms/frame
  float font_size = 0;               // 0: the ini file's setting (default 15 px)
  double bandwidth_gbps = 0;         // --bandwidth; 0: estimate with a timed copy
  std::string ini;                   // settings file; "" : the per-user default
  bool headless() const { return !screenshot.empty() || bench_frames > 0; }
};

// Throws UsageError naming the bad argument.
Options parse_options(const std::vector<std::string>& args);
const char* usage_text();

}  // namespace kiln::inspect::app
