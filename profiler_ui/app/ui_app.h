// The inspector's UI as one object the window (or a test) drives: one call
// to frame() per ImGui frame submits everything: menu bar, error banner,
// open / connect panel, and the tabs of the views. Also keeps the user's
// settings (font size, last file, current view, listen address) in ImGui's
// ini file beside the window layout.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "profiler_ui/app/ui_analysis.h"
#include "profiler_ui/app/ui_source.h"
#include "profiler_ui/app/ui_state.h"

namespace kiln::inspect::ui {

struct AppConfig {
  std::string file;                  // open this first
  std::string listen;                // or listen here
  std::vector<std::string> command;  // or start this and attach
  std::string compare;               // a second recording for the Compare view
  std::string view;                  // the view shown first ("" : summary / the saved one)
  float font_size = 0;               // 0: the saved setting
  double bandwidth_gbps = 0;         // machine memory bandwidth; 0: estimate; < 0: unknown
  bool headless = false;             // load synchronously; no ini
};

class App {
 public:
  explicit App(AppConfig cfg);  // never throws for bad input: errors go to the banner
  ~App();

  // Registers the settings handler and sets the ini path ("" : none).
  // Call after ImGui::CreateContext() and before the first NewFrame().
  void install_settings(const std::string& ini_path);
  // Submits one frame's UI (between ImGui::NewFrame() and ImGui::Render()).
  void frame();

  bool fonts_dirty() const { return fonts_dirty_; }
  float font_size() const { return font_size_; }
  void build_fonts();  // rebuilds the atlas at the current size; clears fonts_dirty
  bool quit_requested() const { return quit_; }
  // A live session still streaming, a file still loading, or an analysis running.
  bool busy() const { return st_.live || cur_cache_.busy(); }
  const std::string& error() const { return st_.error; }
  // The banner's text: error() and the damage a partial load reports ("" : none).
  std::string problems() const;
  const char* current_view_name() const { return view_info(st_.view).name; }
  void set_bench_frame(int i) { st_.bench_frame = i; }
  AppState& state() { return st_; }

 private:
  void poll_sources();
  void handle_request();
  void handle_keys();
  void draw_menu();
  void draw_banner();
  void draw_open_panel();
  void draw_views();

  AppConfig cfg_;
  AnalysisOptions analysis_options_;  // before the caches, which copy it
  AppState st_;
  std::unique_ptr<Source> source_, compare_source_;
  AnalysisCache cur_cache_, other_cache_;
  ComparisonCache comparison_cache_;
  std::string ini_path_;
  float font_size_ = 15;
  bool fonts_dirty_ = true, quit_ = false;
  bool show_open_panel_ = false;
};

}  // namespace kiln::inspect::ui
