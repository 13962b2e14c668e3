// ImGui frame smoke tests: every view of kiln-inspect drawn over recorded
// fixtures with no window and no platform or renderer backend (a context, a
// display size, a built font atlas, NewFrame/Render). A failed IM_ASSERT
// (ours or libimgui's) throws and fails the test; the strings the views
// submit are collected through ui::set_text_observer and checked against
// the model's own rows for the fixture, so an empty view fails too.
#include <gtest/gtest.h>
#include <imgui.h>
#include <imgui_internal.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "profiler_ui/app/ui_app.h"
#include "profiler_ui/app/ui_fonts.h"
#include "profiler_ui/app/ui_text.h"
#include "profiler_ui/app/ui_views.h"

namespace kiln::inspect::ui {
namespace {

const std::string kFixtures = KILN_INSPECT_FIXTURES;

struct ImGuiAssertion : std::runtime_error {
  using std::runtime_error::runtime_error;
};

[[noreturn]] void throw_assertion(const char* expr, const char* file, int line) {
  throw ImGuiAssertion(std::string("IM_ASSERT(") + expr + ") failed at " + file + ":" + std::to_string(line));
}

// One ImGui context with a font atlas and no backends; collects every string
// the views submit.
class Frames : public ::testing::Test {
 protected:
  void SetUp() override {
    set_imgui_assert_handler(throw_assertion);
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.DisplaySize = ImVec2(1280, 800);
    io.DeltaTime = 1.0f / 60.0f;
    io.IniFilename = nullptr;
    build_fonts(15);
    unsigned char* px = nullptr;
    int w = 0, h = 0;
    io.Fonts->GetTexDataAsRGBA32(&px, &w, &h);  // what a renderer would upload
    io.Fonts->SetTexID(reinterpret_cast<ImTextureID>(static_cast<intptr_t>(1)));
    set_text_observer([this](std::string_view s) { seen_.emplace(s); });
  }
  void TearDown() override {
    set_text_observer({});
    ImGui::DestroyContext();
    set_imgui_assert_handler(nullptr);
  }

  // Draws `frames` frames of `app`; an assertion fails the test.
  void run(App& app, int frames = 4) {
    for (int i = 0; i < frames; ++i) {
      ImGui::NewFrame();
      try {
        app.frame();
      } catch (const ImGuiAssertion& e) {
        ImGui::ErrorCheckEndFrameRecover(nullptr);
        ImGui::EndFrame();
        FAIL() << e.what() << " (frame " << i << ")";
      }
      ImGui::Render();
      ASSERT_NE(ImGui::GetDrawData(), nullptr);
      EXPECT_GT(ImGui::GetDrawData()->TotalVtxCount, 0) << "frame " << i << " drew nothing";
    }
  }

  std::unique_ptr<App> open(const std::string& file, const std::string& view, const std::string& compare = "") {
    AppConfig cfg;
    cfg.file = kFixtures + "/" + file;
    if (!compare.empty()) cfg.compare = kFixtures + "/" + compare;
    cfg.view = view;
    cfg.headless = true;       // load synchronously: the first frame has the data
    cfg.bandwidth_gbps = 100;  // fixed, not measured: the same numbers every run
    auto app = std::make_unique<App>(cfg);
    app->install_settings("");
    return app;
  }

  bool saw(const std::string& s) const { return seen_.count(s) > 0; }
  bool saw_containing(const std::string& part) const {
    for (const std::string& s : seen_)
      if (s.find(part) != std::string::npos) return true;
    return false;
  }
  std::set<std::string> seen_;
};

// Every view over every fixture: no assertion, something drawn.
TEST_F(Frames, EveryViewOverEveryFixtureDrawsWithoutAssertions) {
  for (const char* fixture : {"graph_breaks_demo.kilntrace", "graph_breaks_short.json", "train_gpt.kilntrace"})
    for (const ViewInfo* v = views_begin(); v != views_end(); ++v) {
      SCOPED_TRACE(std::string(fixture) + " / " + v->name);
      auto app = open(fixture, v->name, "graph_breaks_short.kilntrace");
      run(*app);
      EXPECT_EQ(app->error(), "");
      EXPECT_STREQ(app->current_view_name(), v->name);
    }
}

TEST_F(Frames, SummaryShowsScriptAndCounts) {
  auto app = open("graph_breaks_demo.kilntrace", "summary");
  run(*app);
  const Summary& s = app->state().cur->summary;
  ASSERT_GT(s.graph_breaks, 0u);
  EXPECT_TRUE(saw(s.script)) << s.script;
  EXPECT_TRUE(saw_containing(std::to_string(s.graph_breaks) + " at ")) << "break count not shown";
  ASSERT_FALSE(s.top_kernels.empty());
  EXPECT_TRUE(saw(s.top_kernels.front().name));
}

TEST_F(Frames, BreaksShowMessageLocationAndSourceLine) {
  auto app = open("graph_breaks_demo.kilntrace", "breaks");
  run(*app);
  const std::vector<BreakRow>& rows = app->state().cur->breaks;
  ASSERT_FALSE(rows.empty());
  EXPECT_TRUE(saw("data_dependent_branch"));
  EXPECT_TRUE(saw("item"));
  // The selected (costliest) row's detail: message, and its source line text.
  EXPECT_TRUE(saw(rows.front().message));
  EXPECT_FALSE(rows.front().source_line.empty());
  EXPECT_TRUE(saw_containing(rows.front().source_line)) << rows.front().source_line;
  EXPECT_TRUE(saw(rows.front().loc.str()));
}

TEST_F(Frames, KernelsShowNameAndGeneratedCodeOfTheSelection) {
  auto app = open("graph_breaks_demo.kilntrace", "kernels");
  run(*app, 1);
  const KernelRow* fused = nullptr;
  for (const KernelRow& k : app->state().cur->kernels)
    if (k.name == "fused_add_relu") fused = &k;
  ASSERT_NE(fused, nullptr) << "the fixture runs fused_add_relu";
  ASSERT_FALSE(fused->code.empty()) << "the fixture has its output_code";
  // Selecting a kernel (as a click or a link from another view does) shows
  // its name and its generated code.
  app->state().sel.kernel = fused->name;
  seen_.clear();
  run(*app, 2);
  EXPECT_TRUE(saw(fused->name));
  EXPECT_TRUE(saw(fused->code));
  EXPECT_TRUE(saw("Generated code"));
  if (fused->bytes > 0) {
    EXPECT_TRUE(saw_containing("of the machine's bandwidth"));
  }
}

TEST_F(Frames, TimelineShowsLanesAndRuler) {
  auto app = open("graph_breaks_demo.kilntrace", "timeline");
  run(*app);
  const Timeline& tl = *app->state().cur->timeline;
  ASSERT_FALSE(tl.lanes().empty());
  for (const Lane& l : tl.lanes()) EXPECT_TRUE(saw(l.name)) << l.name;
  EXPECT_TRUE(saw_containing(" ms")) << "no ruler labels";
  EXPECT_GT(app->state().timeline.lod.item_count(), 0u);
  EXPECT_FALSE(app->state().timeline.lod.markers.empty()) << "graph breaks are not marked";
}

// Mouse input as a platform backend would feed it: the wheel zooms, a left
// drag pans, a right drag selects a range and computes its statistics.
TEST_F(Frames, TimelineZoomsPansAndSelects) {
  auto app = open("graph_breaks_demo.kilntrace", "timeline");
  ImGuiIO& io = ImGui::GetIO();
  io.MousePos = ImVec2(700, 400);  // over the lanes
  run(*app, 3);
  TimelineState& ts = app->state().timeline;
  double span0 = ts.view_end_ns - ts.view_start_ns;
  io.MouseWheel = 2;
  run(*app, 1);
  double span1 = ts.view_end_ns - ts.view_start_ns;
  EXPECT_LT(span1, span0 * 0.8) << "the wheel did not zoom in";
  double start1 = ts.view_start_ns;
  io.MouseDown[0] = true;
  run(*app, 2);
  for (float x = 690; x >= 600; x -= 10) {
    io.MousePos.x = x;
    run(*app, 1);
  }
  io.MouseDown[0] = false;
  run(*app, 1);
  EXPECT_GT(ts.view_start_ns, start1) << "dragging left did not pan right";
  EXPECT_NEAR(ts.view_end_ns - ts.view_start_ns, span1, span1 * 1e-6) << "panning changed the zoom";
  io.MousePos.x = 500;
  io.MouseDown[1] = true;
  run(*app, 2);
  for (float x = 520; x <= 800; x += 20) {
    io.MousePos.x = x;
    run(*app, 1);
  }
  io.MouseDown[1] = false;
  seen_.clear();
  run(*app, 2);
  ASSERT_TRUE(ts.stats.has_value()) << "a right drag did not select a range";
  EXPECT_LT(ts.sel_start_ns, ts.sel_end_ns);
  EXPECT_TRUE(saw_containing("Selection ")) << "the range's statistics are not shown";
}

// Hovering an event shows its args in a tooltip.
TEST_F(Frames, TimelineHoverShowsTheEventsArgs) {
  auto app = open("graph_breaks_demo.kilntrace", "timeline");
  ImGuiIO& io = ImGui::GetIO();
  io.MousePos = ImVec2(-1, -1);
  run(*app, 3);
  const TimelineState& ts = app->state().timeline;
  ASSERT_FALSE(ts.lod.lanes.empty());
  const DrawItem* wide = nullptr;
  for (const DrawItem& it : ts.lod.lanes[0].items)
    if (it.count == 1 && it.x1 - it.x0 > 20 && it.x0 >= 0) {
      wide = &it;
      break;
    }
  ASSERT_NE(wide, nullptr) << "no single event wider than 20 px on lane 0";
  const trace::Event& e = app->state().cur->session->event(wide->event);
  std::string name(app->state().cur->session->str(e.name));
  io.MousePos = ImVec2(ts.lanes_origin.x + (wide->x0 + wide->x1) / 2,
                       ts.lanes_origin.y + (static_cast<float>(wide->depth) + 0.5f) * ts.row_height);
  seen_.clear();
  run(*app, 2);
  EXPECT_TRUE(saw_containing(name + "\nSpan, interpreter\nstart ")) << name;
  EXPECT_TRUE(saw_containing(", duration " + fmt_ns(e.dur_ns)));
}

// Ctrl+2 switches to the second view (key indices are GLFW's: digits are ASCII).
TEST_F(Frames, CtrlDigitSwitchesViews) {
  auto app = open("graph_breaks_demo.kilntrace", "summary");
  run(*app, 2);
  ImGuiIO& io = ImGui::GetIO();
  io.KeyCtrl = true;
  io.KeysDown['2'] = true;
  run(*app, 1);
  io.KeysDown['2'] = false;
  io.KeyCtrl = false;
  run(*app, 2);
  EXPECT_STREQ(app->current_view_name(), "timeline");
}

TEST_F(Frames, RecompilesAndGraphsAndPaybackShowTheirRows) {
  auto app = open("graph_breaks_demo.kilntrace", "graphs");
  run(*app);
  const auto& graphs = app->state().cur->index->graphs();
  ASSERT_FALSE(graphs.empty());
  EXPECT_TRUE(saw(graphs.front().region));
  EXPECT_TRUE(saw(graphs.front().ir_text));
  app->state().go(ViewId::payback);
  run(*app);
  EXPECT_TRUE(saw("Calls to break even"));
  app->state().go(ViewId::recompiles);
  run(*app);
  for (const RecompileRow& r : app->state().cur->recompiles) EXPECT_TRUE(saw(r.guard)) << r.guard;
}

// The fixtures hold no region over its cache limit, so the storm flag is
// set on a copy of the model's rows: the view must say so above the table
// and mark the row.
TEST_F(Frames, RecompileStormIsFlagged) {
  auto app = open("graph_breaks_demo.kilntrace", "recompiles");
  run(*app, 1);
  auto a = std::make_shared<Analysis>(*app->state().cur);
  ASSERT_FALSE(a->recompiles.empty());
  a->recompiles[0].storm = true;
  a->recompiles[0].region = "loop at storm.py:3";
  AppState st;
  st.cur = a;
  seen_.clear();
  for (int i = 0; i < 2; ++i) {
    ImGui::NewFrame();
    ImGui::Begin("recompiles");
    draw_recompiles(st);
    ImGui::End();
    ImGui::Render();
  }
  EXPECT_TRUE(saw_containing("Recompile storm: 'loop at storm.py:3'"));
  EXPECT_TRUE(saw("STORM"));
}

TEST_F(Frames, ProvenanceGoesBothWays) {
  auto app = open("graph_breaks_demo.kilntrace", "provenance");
  run(*app);
  const AppState& st = app->state();
  ASSERT_FALSE(st.sel.kernel.empty());
  ASSERT_TRUE(st.sel.line.known());
  EXPECT_TRUE(saw(st.sel.kernel));
  EXPECT_TRUE(saw(st.sel.line.str()));
  LineProvenance p = st.cur->provenance.of_line(st.sel.line.file, st.sel.line.line);
  ASSERT_FALSE(p.kernels.empty());
  for (const std::string& k : p.kernels) EXPECT_TRUE(saw(k)) << k;
}

TEST_F(Frames, CompareShowsBothSessions) {
  auto app = open("graph_breaks_demo.kilntrace", "compare", "graph_breaks_short.kilntrace");
  run(*app);
  ASSERT_NE(app->state().comparison, nullptr);
  EXPECT_TRUE(saw_containing("A: "));
  EXPECT_TRUE(saw_containing("graph_breaks_short.kilntrace"));
  ASSERT_FALSE(app->state().comparison->kernels.empty());
  EXPECT_TRUE(saw(app->state().comparison->kernels.front().name));
}

TEST_F(Frames, NoSessionShowsTheOpenPanel) {
  App app(AppConfig{});
  app.install_settings("");
  run(app);
  EXPECT_TRUE(saw_containing("Open a recording"));
  EXPECT_TRUE(saw_containing("live session"));
}

// Settings round-trip through ImGui's ini text: last file, view, font size
// and listen address come back in a new context.
TEST_F(Frames, SettingsSurviveARestart) {
  std::string ini;
  {
    AppConfig cfg;
    cfg.file = kFixtures + "/graph_breaks_short.json";
    cfg.view = "kernels";
    cfg.font_size = 19;
    cfg.headless = true;
    App app(cfg);
    app.install_settings("");
    run(app, 2);
    app.state().listen_address = "127.0.0.1:9123";
    ini = ImGui::SaveIniSettingsToMemory();
  }
  EXPECT_NE(ini.find("[KilnInspect][State]"), std::string::npos) << ini;
  ImGui::DestroyContext();
  ImGui::CreateContext();
  ImGui::GetIO().IniFilename = nullptr;
  App restored(AppConfig{});
  restored.install_settings("");
  ImGui::LoadIniSettingsFromMemory(ini.c_str(), ini.size());
  EXPECT_EQ(restored.state().last_file, kFixtures + "/graph_breaks_short.json");
  EXPECT_STREQ(restored.current_view_name(), "kernels");
  EXPECT_EQ(restored.state().listen_address, "127.0.0.1:9123");
  EXPECT_EQ(restored.font_size(), 19.0f);
  EXPECT_TRUE(restored.fonts_dirty());
}

// Malformed input: the banner, no crash, no assertion.
class Malformed : public Frames {
 protected:
  std::string write(const std::string& name, const std::string& bytes) {
    std::string path = testing::TempDir() + name;
    std::ofstream(path, std::ios::binary) << bytes;
    return path;
  }
  std::unique_ptr<App> open_path(const std::string& path) {
    AppConfig cfg;
    cfg.file = path;
    cfg.headless = true;
    cfg.bandwidth_gbps = 100;
    auto app = std::make_unique<App>(cfg);
    app->install_settings("");
    return app;
  }
};

TEST_F(Malformed, GarbageFileShowsTheErrorBanner) {
  auto app = open_path(write("garbage.kilntrace", std::string(4096, '\x7f') + "not a trace"));
  run(*app);
  ASSERT_NE(app->error(), "");
  EXPECT_TRUE(saw_containing(app->error()));
  EXPECT_TRUE(saw_containing("Open a recording")) << "the open panel stays usable";
}

TEST_F(Malformed, TruncatedFileShowsWhatLoadedAndTheDamage) {
  std::ifstream in(kFixtures + "/graph_breaks_demo.kilntrace", std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ASSERT_GT(bytes.size(), 1000u);
  auto app = open_path(write("cut.kilntrace", bytes.substr(0, bytes.size() / 2)));
  for (const ViewInfo* v = views_begin(); v != views_end(); ++v) {
    app->state().go(v->id);
    run(*app, 3);
  }
  ASSERT_NE(app->state().cur, nullptr) << "the events before the cut load";
  ASSERT_FALSE(app->state().cur->session->load_errors().empty());
  EXPECT_TRUE(saw_containing("loaded partially: "));
}

// Hostile input: the fixture with bytes flipped (a fixed seed, so failures
// reproduce). Whatever the loader makes of each, every view draws it without
// an assertion, a crash or a sanitizer report.
TEST_F(Malformed, CorruptedFilesDrawInEveryView) {
  std::ifstream in(kFixtures + "/graph_breaks_short.kilntrace", std::ios::binary);
  const std::string clean((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ASSERT_GT(clean.size(), 1000u);
  std::mt19937 rng(7);
  int loaded = 0;
  for (int variant = 0; variant < 24; ++variant) {
    std::string bytes = clean;
    // Past the header, so most variants load partially rather than not at all.
    std::uniform_int_distribution<size_t> at(64, bytes.size() - 1);
    for (int k = 0; k < 1 + variant % 4; ++k) bytes[at(rng)] = static_cast<char>(rng());
    SCOPED_TRACE("variant " + std::to_string(variant));
    auto app = open_path(write("corrupt" + std::to_string(variant) + ".kilntrace", bytes));
    for (const ViewInfo* v = views_begin(); v != views_end(); ++v) {
      app->state().go(v->id);
      run(*app, 2);
    }
    loaded += app->state().cur != nullptr;
  }
  EXPECT_GT(loaded, 0) << "no variant loaded at all: the views were not exercised";
}

TEST_F(Malformed, MissingFileAndTruncatedJson) {
  auto missing = open_path("/nonexistent/k7/session.kilntrace");
  run(*missing);
  EXPECT_NE(missing->error(), "");
  auto json = open_path(write("cut.json", "[{\"name\":\"x\",\"ph\":\"X\",\"ts\":1,"));
  run(*json);
  EXPECT_TRUE(json->error() != "" || (json->state().cur && !json->state().cur->session->load_errors().empty()));
}

// The assertion hook itself: a broken Begin/End pairing must fail loudly.
TEST_F(Frames, ImGuiAssertionsThrow) {
  ImGui::NewFrame();
  EXPECT_THROW(ImGui::End(), ImGuiAssertion);  // End() without Begin()
  ImGui::ErrorCheckEndFrameRecover(nullptr);
  ImGui::EndFrame();
}

}  // namespace
}  // namespace kiln::inspect::ui
