// Command-line parsing for kiln-inspect (see options.h and usage_text()).
#include "profiler_ui/app/options.h"

#include <charconv>

#include "profiler_ui/app/ui_views.h"

namespace kiln::inspect::app {
namespace {

int parse_int(const std::string& flag, const std::string& text, int lo, int hi) {
  int v = 0;
  auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || p != text.data() + text.size() || v < lo || v > hi)
    throw UsageError(flag + " wants an integer in [" + std::to_string(lo) + ", " +
                     std::to_string(hi) + "], got '" + text + "'");
  return v;
}

void parse_size(const std::string& text, Options& o) {
  size_t x = text.find('x');
  if (x == std::string::npos) throw UsageError("--size wants WxH (e.g. 1280x800), got '" + text + "'");
  o.width = parse_int("--size width", text.substr(0, x), 64, 8192);
  o.height = parse_int("--size height", text.substr(x + 1), 64, 8192);
}

}  // namespace

const char* usage_text() {
  return "usage: kiln-inspect [options]                     open / connect panel\n"
         "       kiln-inspect [options] FILE                a .kilntrace or kiln's Chrome trace JSON\n"
         "       kiln-inspect [options] --listen HOST:PORT  wait for `kiln run --stream HOST:PORT`\n"
         "       kiln-inspect [options] -- kiln run script.py [args]\n"
         "                                                  start the script streaming to us, attach\n"
         "\n"
         "options:\n"
         "  --compare FILE2      a second recording for the Compare view (before/after a change)\n"
         "  --view NAME          the view shown first: summary, timeline, breaks, recompiles,\n"
         "                       kernels, graphs, provenance, payback, compare\n"
         "  --screenshot OUT.png render --view offscreen into a PNG and exit (works under xvfb-run)\n"
         "  --size WxH           window / screenshot size in pixels (default 1280x800)\n"
         "  --bench-frames N     draw --view N times offscreen and print the mean ms per frame\n"
         "  --font-size PX       text size (default: the saved setting, else 15)\n"
         "  --bandwidth GBPS     memory bandwidth for the Kernels view's % of bandwidth\n"
         "                       (default: estimated at startup with a one-thread copy)\n"
         "  --ini FILE           settings file (default $XDG_CONFIG_HOME/kiln-inspect.ini)\n"
         "  -h, --help           show this help\n";
}

Options parse_options(const std::vector<std::string>& args) {
  Options o;
  auto value = [&](size_t& i) -> const std::string& {
    if (i + 1 >= args.size()) throw UsageError(args[i] + " needs a value");
    return args[++i];
  };
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "-h" || a == "--help") {
      o.help = true;
    } else if (a == "--") {
      o.command.assign(args.begin() + static_cast<long>(i) + 1, args.end());
      if (o.command.empty()) throw UsageError("'--' must be followed by a command, e.g. -- kiln run script.py");
      break;
    } else if (a == "--listen") {
      o.listen = value(i);
    } else if (a == "--compare") {
      o.compare = value(i);
    } else if (a == "--screenshot") {
      o.screenshot = value(i);
    } else if (a == "--view") {
      o.view = value(i);
      if (!ui::find_view(o.view)) throw UsageError("unknown --view '" + o.view + "'; views: " + ui::view_names());
    } else if (a == "--size") {
      parse_size(value(i), o);
    } else if (a == "--bench-frames") {
      o.bench_frames = parse_int(a, value(i), 1, 1000000);
    } else if (a == "--font-size") {
      o.font_size = static_cast<float>(parse_int(a, value(i), 8, 48));
    } else if (a == "--bandwidth") {
      o.bandwidth_gbps = parse_int(a, value(i), 1, 100000);
    } else if (a == "--ini") {
      o.ini = value(i);
    } else if (a.size() > 1 && a[0] == '-') {
      throw UsageError("unknown option '" + a + "'");
    } else if (o.file.empty()) {
      o.file = a;
    } else {
      throw UsageError("more than one trace file given ('" + o.file + "' and '" + a +
                       "'); use --compare FILE2 to compare two");
    }
  }
  int ways = !o.file.empty() + !o.listen.empty() + !o.command.empty();
  if (ways > 1) throw UsageError("give one way in: a FILE, --listen HOST:PORT, or -- COMMAND");
  if (o.headless() && ways == 0)
    throw UsageError("--screenshot and --bench-frames need a trace FILE (or --listen / -- COMMAND) to draw");
  return o;
}

}  // namespace kiln::inspect::app
