// The app frame: sources, banner, open panel, view tabs, keys and settings
// (see ui_app.h).
#include "profiler_ui/app/ui_app.h"

#include <imgui.h>
#include <imgui_internal.h>
#include <imgui_stdlib.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <utility>
#include <algorithm>

#include "profiler_ui/app/ui_bandwidth.h"
#include "profiler_ui/app/ui_fonts.h"
#include "profiler_ui/app/ui_text.h"

namespace kiln::inspect::ui {

// ---------------------------------------------------------------------------
// IM_ASSERT (imconfig_kiln.h)
// ---------------------------------------------------------------------------

namespace {
ImGuiAssertHandler g_assert_handler = nullptr;
}  // namespace

void set_imgui_assert_handler(ImGuiAssertHandler handler) { g_assert_handler = handler; }

void imgui_assert_failed(const char* expr, const char* file, int line) {
  if (g_assert_handler) g_assert_handler(expr, file, line);
  std::fprintf(stderr, "kiln-inspect: ImGui assertion failed: %s (%s:%d)\n", expr, file, line);
  std::abort();
}

// ---------------------------------------------------------------------------
// Settings in the ini file: [KilnInspect][State] with key=value lines
// ---------------------------------------------------------------------------
namespace {

App* settings_owner(ImGuiSettingsHandler* h) { return static_cast<App*>(h->UserData); }

void* settings_open(ImGuiContext*, ImGuiSettingsHandler* h, const char* name) {
  return std::strcmp(name, "State") == 0 ? h->UserData : nullptr;
}

}  // namespace

void App::install_settings(const std::string& ini_path) {
  ini_path_ = ini_path;
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = ini_path_.empty() ? nullptr : ini_path_.c_str();
  ImGuiSettingsHandler h;
  h.TypeName = "KilnInspect";
  h.TypeHash = ImHashStr("KilnInspect");
  h.ReadOpenFn = settings_open;
  h.ReadLineFn = [](ImGuiContext*, ImGuiSettingsHandler* h, void*, const char* line) {
    App& app = *settings_owner(h);
    char buf[1024];
    float f = 0;
    if (std::sscanf(line, "FontSize=%f", &f) == 1 && app.cfg_.font_size == 0) {
      app.font_size_ = f;
      app.fonts_dirty_ = true;
    } else if (std::sscanf(line, "LastFile=%1023[^\n]", buf) == 1) {
      app.st_.last_file = buf;
    } else if (std::sscanf(line, "Listen=%1023[^\n]", buf) == 1) {
      app.st_.listen_address = buf;
    } else if (std::sscanf(line, "View=%1023[^\n]", buf) == 1 && app.cfg_.view.empty()) {
      if (const ViewInfo* v = find_view(buf)) app.st_.go(v->id);
    }
  };
  h.WriteAllFn = [](ImGuiContext*, ImGuiSettingsHandler* h, ImGuiTextBuffer* out) {
    App& app = *settings_owner(h);
    out->appendf("[KilnInspect][State]\nFontSize=%g\nView=%s\nListen=%s\n", app.font_size_,
                 view_info(app.st_.view).name, app.st_.listen_address.c_str());
    if (!app.st_.last_file.empty()) out->appendf("LastFile=%s\n", app.st_.last_file.c_str());
    out->append("\n");
  };
  h.UserData = this;
  ImGui::GetCurrentContext()->SettingsHandlers.push_back(h);
}

// ---------------------------------------------------------------------------
// Construction and sources
// ---------------------------------------------------------------------------

namespace {

AnalysisOptions analysis_options(const AppConfig& cfg) {
  AnalysisOptions o;
  o.machine_bandwidth_gbps = cfg.bandwidth_gbps > 0 ? cfg.bandwidth_gbps
                             : cfg.bandwidth_gbps == 0 ? estimate_copy_bandwidth_gbps()
                                                       : 0;
  return o;
}

}  // namespace

App::App(AppConfig cfg)
    : cfg_(std::move(cfg)),
      analysis_options_(analysis_options(cfg_)),
      cur_cache_(cfg_.headless, analysis_options_),
      other_cache_(cfg_.headless, analysis_options_) {
  if (cfg_.font_size > 0) font_size_ = cfg_.font_size;
  if (const ViewInfo* v = find_view(cfg_.view)) st_.go(v->id);
  if (!cfg_.file.empty()) {
    source_ = Source::open_file(cfg_.file, cfg_.headless);
    st_.last_file = cfg_.file;
  } else if (!cfg_.listen.empty()) {
    source_ = Source::listen(cfg_.listen);
    st_.listen_address = cfg_.listen;
  } else if (!cfg_.command.empty()) {
    source_ = Source::spawn(cfg_.command);
  }
  if (!cfg_.compare.empty()) compare_source_ = Source::open_file(cfg_.compare, cfg_.headless);
  show_open_panel_ = !source_;
}

App::~App() = default;

void App::build_fonts() {
  ui::build_fonts(font_size_);
  fonts_dirty_ = false;
}

void App::poll_sources() {
  st_.error.clear();
  st_.status.clear();
  st_.live = false;
  if (source_) {
    SourceView v = source_->poll();
    st_.error = v.error;
    st_.status = v.status;
    st_.live = v.live;
    // Analyzed once per snapshot (a live session publishes at most every
    // 100 ms; a file once), off the UI thread in the window.
    st_.cur = cur_cache_.update(v.session);
    if (v.session && !st_.cur) st_.status += " | analyzing ...";
  }
  if (compare_source_) {
    SourceView v = compare_source_->poll();
    if (!v.error.empty()) st_.error += (st_.error.empty() ? "" : "\n") + ("compare: " + v.error);
    st_.other = other_cache_.update(v.session);
  }
  st_.comparison = comparison_cache_.update(st_.cur, st_.other);
}

void App::handle_request() {
  Request r = std::exchange(st_.request, Request{});
  switch (r.kind) {
    case Request::None: return;
    case Request::OpenFile:
      source_ = Source::open_file(r.arg, cfg_.headless);
      cur_cache_.reset(), st_.cur = nullptr, st_.sel = Selection{}, st_.timeline = TimelineState{};
      st_.last_file = r.arg;
      show_open_panel_ = false;
      break;
    case Request::CompareFile:
      compare_source_ = Source::open_file(r.arg, cfg_.headless);
      other_cache_.reset(), st_.other = nullptr;
      st_.go(ViewId::compare);
      show_open_panel_ = false;
      break;
    case Request::Listen:
      source_ = Source::listen(r.arg);
      cur_cache_.reset(), st_.cur = nullptr, st_.sel = Selection{}, st_.timeline = TimelineState{};
      show_open_panel_ = false;
      break;
    case Request::CloseCompare:
      compare_source_.reset();
      other_cache_.reset(), st_.other = nullptr;
      break;
  }
  ImGui::MarkIniSettingsDirty();
}

// ---------------------------------------------------------------------------
// Keys: Ctrl+1..9 views, Ctrl+F filter, Ctrl+O open panel, Ctrl +/- font size
// (1.86 key indices are the platform's; GLFW's letter and digit keys are ASCII)
// ---------------------------------------------------------------------------

void App::handle_keys() {
  ImGuiIO& io = ImGui::GetIO();
  if (!io.KeyCtrl) return;
  int n = static_cast<int>(views_end() - views_begin());
  for (int i = 0; i < n && i < 9; ++i)
    if (ImGui::IsKeyPressed('1' + i, false)) st_.go(views_begin()[i].id);
  if (ImGui::IsKeyPressed('F', false)) st_.focus_filter = true;
  if (ImGui::IsKeyPressed('O', false)) show_open_panel_ = true;
  if (ImGui::IsKeyPressed('Q', false)) quit_ = true;
  // '=' / '-' (GLFW 61 / 45) and the keypad's + / - (334 / 333).
  if (ImGui::IsKeyPressed('=') || ImGui::IsKeyPressed(334)) font_size_ += 1, fonts_dirty_ = true;
  if (ImGui::IsKeyPressed('-') || ImGui::IsKeyPressed(333)) font_size_ -= 1, fonts_dirty_ = true;
  if (fonts_dirty_) {
    font_size_ = font_size_ < 8 ? 8 : font_size_ > 48 ? 48 : font_size_;
    ImGui::MarkIniSettingsDirty();
  }
}

// ---------------------------------------------------------------------------
// Frame
// ---------------------------------------------------------------------------

void App::draw_menu() {
  if (!ImGui::BeginMenuBar()) return;
  if (ImGui::BeginMenu("File")) {
    if (ImGui::MenuItem("Open / connect...", "Ctrl+O")) show_open_panel_ = true;
    if (ImGui::MenuItem("Close comparison", nullptr, false, compare_source_ != nullptr))
      st_.request = {Request::CloseCompare, ""};
    if (ImGui::MenuItem("Quit", "Ctrl+Q")) quit_ = true;
    ImGui::EndMenu();
  }
  if (ImGui::BeginMenu("View")) {
    int i = 0;
    for (const ViewInfo* v = views_begin(); v != views_end(); ++v, ++i) {
      std::string key = i < 9 ? "Ctrl+" + std::to_string(i + 1) : "";
      if (ImGui::MenuItem(v->title, key.c_str(), st_.view == v->id)) st_.go(v->id);
    }
    ImGui::EndMenu();
  }
  if (ImGui::BeginMenu("Settings")) {
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8);
    float size = font_size_;
    if (ImGui::SliderFloat("Font size", &size, 8, 48, "%.0f px")) {
      font_size_ = static_cast<float>(static_cast<int>(size + 0.5f));
      fonts_dirty_ = true;
      ImGui::MarkIniSettingsDirty();
    }
    ImGui::EndMenu();
  }
  std::string where = st_.status.empty() ? "no session" : st_.status;
  if (st_.cur) where += "  |  " + fmt_count(st_.cur->session->event_count()) + " events";
  if (st_.cur && st_.cur->session->dropped() > 0) where += ", " + fmt_count(st_.cur->session->dropped()) + " dropped";
  ImGui::SameLine(0, ImGui::GetFontSize() * 2);
  text_disabled(where);
  ImGui::EndMenuBar();
}

std::string App::problems() const {
  std::string message = st_.error;
  if (st_.cur)
    for (const std::string& e : st_.cur->session->load_errors())
      if (message.find(e) == std::string::npos)  // a broken stream reports it twice
        message += (message.empty() ? "" : "\n") + ("loaded partially: " + e);
  return message;
}

void App::draw_banner() {
  std::string message = problems();
  if (message.empty()) return;
  ImGui::PushStyleColor(ImGuiCol_ChildBg, IM_COL32(120, 30, 30, 255));
  float lines = 1.0f + static_cast<float>(std::count(message.begin(), message.end(), '\n'));
  ImVec2 size(0, ImGui::GetTextLineHeightWithSpacing() * (lines > 4 ? 4 : lines) + ImGui::GetStyle().WindowPadding.y * 2);
  if (ImGui::BeginChild("##banner", size, false)) {
    ImGui::PushTextWrapPos(0);
    text_colored(IM_COL32(255, 235, 235, 255), message);
    ImGui::PopTextWrapPos();
  }
  ImGui::EndChild();
  ImGui::PopStyleColor();
}

void App::draw_open_panel() {
  ImGui::PushID("open");
  text("Open a recording (.kilntrace, or a Chrome trace JSON from `kiln run --trace`)");
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 30);
  bool enter = ImGui::InputTextWithHint("##path", "path/to/session.kilntrace", &st_.open_path,
                                        ImGuiInputTextFlags_EnterReturnsTrue);
  ImGui::SameLine();
  if ((ImGui::Button("Open") || enter) && !st_.open_path.empty()) st_.request = {Request::OpenFile, st_.open_path};
  ImGui::SameLine();
  if (ImGui::Button("Compare with current") && !st_.open_path.empty())
    st_.request = {Request::CompareFile, st_.open_path};
  if (!st_.last_file.empty()) {
    ImGui::SameLine();
    if (ImGui::Button("Reopen last")) st_.request = {Request::OpenFile, st_.last_file};
    ImGui::SameLine();
    text_disabled(st_.last_file);
  }
  ImGui::Spacing();
  text("Or wait for a live session: `kiln run --stream ADDRESS script.py`");
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 14);
  ImGui::InputText("##listen", &st_.listen_address);
  ImGui::SameLine();
  if (ImGui::Button("Listen")) st_.request = {Request::Listen, st_.listen_address};
  ImGui::Separator();
  ImGui::PopID();
}

void App::draw_views() {
  if (!ImGui::BeginTabBar("##views")) return;
  for (const ViewInfo* v = views_begin(); v != views_end(); ++v) {
    ImGuiTabItemFlags flags = (st_.switch_view && st_.view == v->id) ? ImGuiTabItemFlags_SetSelected : 0;
    if (ImGui::BeginTabItem(v->title, nullptr, flags)) {
      // The tab bar picks the tab the user clicked; a pending switch wins.
      if (!st_.switch_view && st_.view != v->id) st_.view = v->id, ImGui::MarkIniSettingsDirty();
      if (!st_.switch_view || st_.view == v->id) {
        ImGui::BeginChild("##view");
        v->draw(st_);
        ImGui::EndChild();
        if (!st_.switch_view) st_.scroll_to_sel = false;
      }
      ImGui::EndTabItem();
    }
  }
  ImGui::EndTabBar();
  st_.switch_view = false;
}

void App::frame() {
  handle_request();
  poll_sources();
  handle_keys();
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos(vp->WorkPos);
  ImGui::SetNextWindowSize(vp->WorkSize);
  ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_MenuBar |
                           ImGuiWindowFlags_NoBringToFrontOnFocus | ImGuiWindowFlags_NoSavedSettings;
  ImGui::PushStyleVar(ImGuiStyleVar_WindowRounding, 0);
  ImGui::Begin("kiln-inspect", nullptr, flags);
  ImGui::PopStyleVar();
  draw_menu();
  draw_banner();
  // The panel stays up until something is on screen, and comes back when
  // opening failed, so the user can try another file.
  if (show_open_panel_ || (!st_.cur && (!source_ || !st_.error.empty()))) draw_open_panel();
  if (st_.cur) draw_views();
  else if (source_) text_disabled(st_.status.empty() ? "no data yet" : st_.status);
  st_.focus_filter = false;
  ImGui::End();
}

}  // namespace kiln::inspect::ui
