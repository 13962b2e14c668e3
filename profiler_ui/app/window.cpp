// The GLFW window, the OpenGL 3 renderer and the offscreen frame loop (see
// window.h). Everything here is plumbing; what a frame shows is ui::App's.
#include "profiler_ui/app/window.h"

#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <thread>

#include "profiler_ui/app/screenshot.h"

namespace kiln::inspect::app {
namespace {

constexpr int kLiveWaitSeconds = 300;  // offscreen: how long a live session may stream

std::string g_glfw_error;  // the last GLFW error, for the message when init fails

// Ctrl+C or SIGTERM closes the window like its close button, so the settings
// (layout, last file) are saved on the way out.
volatile std::sig_atomic_t g_stop_signal = 0;
void on_stop_signal(int) { g_stop_signal = 1; }

void on_glfw_error(int code, const char* what) {
  g_glfw_error = "GLFW error " + std::to_string(code) + ": " + what;
}

// glfwInit/glfwTerminate and one OpenGL 3.3 core context, made current.
class GlfwWindow {
 public:
  GlfwWindow(int width, int height, bool visible) {
    glfwSetErrorCallback(on_glfw_error);
    if (!glfwInit())
      throw std::runtime_error("kiln-inspect: cannot open a window (" + g_glfw_error +
                               "). Without a display run it under `xvfb-run -a`.");
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
    glfwWindowHint(GLFW_VISIBLE, visible ? GLFW_TRUE : GLFW_FALSE);
    window_ = glfwCreateWindow(width, height, "kiln-inspect", nullptr, nullptr);
    if (!window_) {
      glfwTerminate();
      throw std::runtime_error("kiln-inspect: cannot create an OpenGL 3.3 window (" + g_glfw_error + ")");
    }
    glfwMakeContextCurrent(window_);
  }
  ~GlfwWindow() {
    glfwDestroyWindow(window_);
    glfwTerminate();
  }
  GlfwWindow(const GlfwWindow&) = delete;
  GlfwWindow& operator=(const GlfwWindow&) = delete;
  GLFWwindow* get() const { return window_; }

 private:
  GLFWwindow* window_ = nullptr;
};

// The ImGui context with its renderer (and, for a real window, its platform
// backend), torn down in reverse order.
class ImGuiHost {
 public:
  ImGuiHost(GLFWwindow* window, bool platform, ui::App& app, const std::string& ini) : platform_(platform) {
    ImGui::CreateContext();
    app.install_settings(ini);  // before the first NewFrame, which reads the ini
    if (platform_) {
      ImGui_ImplGlfw_InitForOpenGL(window, true);
      // Arrow keys walk tables and menus (needs the platform's key map).
      ImGui::GetIO().ConfigFlags |= ImGuiConfigFlags_NavEnableKeyboard;
    }
    ImGui_ImplOpenGL3_Init("#version 330 core");
  }
  ~ImGuiHost() {
    ImGui_ImplOpenGL3_Shutdown();
    if (platform_) ImGui_ImplGlfw_Shutdown();
    ImGui::DestroyContext();
  }
  ImGuiHost(const ImGuiHost&) = delete;
  ImGuiHost& operator=(const ImGuiHost&) = delete;

 private:
  bool platform_;
};

// A font size change rebuilds the atlas between frames, and the renderer's
// copy of it with it.
void refresh_fonts(ui::App& app) {
  if (!app.fonts_dirty()) return;
  app.build_fonts();
  ImGui_ImplOpenGL3_DestroyFontsTexture();
  ImGui_ImplOpenGL3_CreateFontsTexture();
}

void render(int width, int height) {
  ImGui::Render();
  glViewport(0, 0, width, height);
  glClearColor(0.08f, 0.08f, 0.09f, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
}

// One offscreen frame: no platform backend, so display size and time step
// are ours (a fixed 1/60 s keeps screenshots deterministic).
void offscreen_frame(ui::App& app, const OffscreenTarget& target) {
  refresh_fonts(app);
  ImGuiIO& io = ImGui::GetIO();
  io.DisplaySize = ImVec2(static_cast<float>(target.width()), static_cast<float>(target.height()));
  io.DeltaTime = 1.0f / 60.0f;
  ImGui_ImplOpenGL3_NewFrame();
  ImGui::NewFrame();
  app.frame();
  target.bind();
  render(target.width(), target.height());
}

}  // namespace

int run_window(ui::App& app, const Options& opts) {
  GlfwWindow window(opts.width, opts.height, true);
  glfwSwapInterval(1);
  ImGuiHost host(window.get(), true, app, opts.ini);
  std::signal(SIGINT, on_stop_signal);
  std::signal(SIGTERM, on_stop_signal);
  while (!glfwWindowShouldClose(window.get()) && !app.quit_requested() && !g_stop_signal) {
    // Wake at least every 50 ms so a live session's new events show up
    // without input; input wakes it at once.
    glfwWaitEventsTimeout(0.05);
    refresh_fonts(app);
    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplGlfw_NewFrame();
    ImGui::NewFrame();
    app.frame();
    int w = 0, h = 0;
    glfwGetFramebufferSize(window.get(), &w, &h);
    render(w, h);
    glfwSwapBuffers(window.get());
  }
  return 0;
}

int run_offscreen(ui::App& app, const Options& opts) {
  GlfwWindow window(opts.width, opts.height, false);
  glfwSwapInterval(0);
  ImGuiHost host(window.get(), false, app, "");
  OffscreenTarget target(opts.width, opts.height);
  // A live session (--listen, -- COMMAND) is drawn once it ended: keep
  // drawing (the app polls its source each frame) until then.
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(kLiveWaitSeconds);
  do {
    offscreen_frame(app, target);
    if (app.busy()) std::this_thread::sleep_for(std::chrono::milliseconds(20));
  } while (app.busy() && std::chrono::steady_clock::now() < deadline);
  if (app.busy()) std::fprintf(stderr, "kiln-inspect: the session was still live after %d s; drawing it as it is\n", kLiveWaitSeconds);
  // Windows, tables and tab bars settle their sizes over the first frames.
  for (int i = 0; i < 4; ++i) offscreen_frame(app, target);
  if (opts.bench_frames > 0) {
    using clock = std::chrono::steady_clock;
    auto t0 = clock::now();
    for (int i = 0; i < opts.bench_frames; ++i) {
      app.set_bench_frame(i);
      offscreen_frame(app, target);
      glFinish();  // count the rasterizing, not just the command submission
    }
    double ms = std::chrono::duration<double, std::milli>(clock::now() - t0).count() / opts.bench_frames;
    std::printf("kiln-inspect bench: view %s, %dx%d, %d frames, %.2f ms/frame (%.1f fps), %s\n",
                app.current_view_name(), opts.width, opts.height, opts.bench_frames, ms, 1000.0 / ms,
                reinterpret_cast<const char*>(glGetString(GL_RENDERER)));
  }
  if (!opts.screenshot.empty()) write_png(opts.screenshot, target.width(), target.height(), target.read_rgba());
  if (std::string problems = app.problems(); !problems.empty()) {
    std::fprintf(stderr, "kiln-inspect: %s\n", problems.c_str());
    return 3;
  }
  return 0;
}

}  // namespace kiln::inspect::app
