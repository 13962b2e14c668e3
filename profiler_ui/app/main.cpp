// kiln-inspect: the desktop inspector for Kiln sessions. Parses the command
// line, builds the app (which opens the file, listens or starts the child),
// and hands it to the window or to the offscreen loop.
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <string>
#include <vector>

#include "profiler_ui/app/options.h"
#include "profiler_ui/app/ui_app.h"
#include "profiler_ui/app/window.h"

namespace {

// $XDG_CONFIG_HOME/kiln-inspect.ini, else ~/.config/kiln-inspect.ini, else
// none (no home: settings are not kept rather than written to the cwd).
std::string default_ini_path() {
  if (const char* xdg = std::getenv("XDG_CONFIG_HOME"); xdg && *xdg) return std::string(xdg) + "/kiln-inspect.ini";
  if (const char* home = std::getenv("HOME"); home && *home) return std::string(home) + "/.config/kiln-inspect.ini";
  return "";
}

}  // namespace

int main(int argc, char** argv) {
  using namespace kiln::inspect;
  app::Options opts;
  try {
    opts = app::parse_options(std::vector<std::string>(argv + 1, argv + argc));
  } catch (const app::UsageError& e) {
    std::fprintf(stderr, "kiln-inspect: %s\n\n%s", e.what(), app::usage_text());
    return 2;
  }
  if (opts.help) {
    std::fputs(app::usage_text(), stdout);
    return 0;
  }
  if (opts.ini.empty() && !opts.headless()) opts.ini = default_ini_path();
  if (!opts.ini.empty() && !opts.headless()) {
    // ImGui writes the ini at exit but does not create its directory.
    std::error_code ec;
    std::filesystem::path dir = std::filesystem::path(opts.ini).parent_path();
    if (!dir.empty()) std::filesystem::create_directories(dir, ec);
  }
  try {
    ui::AppConfig cfg;
    cfg.file = opts.file;
    cfg.listen = opts.listen;
    cfg.command = opts.command;
    cfg.compare = opts.compare;
    cfg.view = opts.view;
    cfg.font_size = opts.font_size;
    cfg.bandwidth_gbps = opts.bandwidth_gbps;
    cfg.headless = opts.headless();
    ui::App app(std::move(cfg));
    return opts.headless() ? app::run_offscreen(app, opts) : app::run_window(app, opts);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  }
}
