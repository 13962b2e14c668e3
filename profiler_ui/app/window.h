// The GLFW + OpenGL 3 host of the inspector's UI: the interactive window,
// and the offscreen modes (one screenshot, or a frame-time benchmark) that
// draw the same frames into a framebuffer object of a hidden window.
#pragma once

#include "profiler_ui/app/options.h"
#include "profiler_ui/app/ui_app.h"

namespace kiln::inspect::app {

// Runs until the window closes. Returns the process exit code.
int run_window(ui::App& app, const Options& opts);

// --screenshot / --bench-frames. Returns the process exit code: 0 on
// success, 3 when the trace could not be read (the PNG then shows the banner).
int run_offscreen(ui::App& app, const Options& opts);

}  // namespace kiln::inspect::app
