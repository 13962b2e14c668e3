// The inspector's fonts: DejaVu Sans for the UI and DejaVu Sans Mono for code
// and IR, at the user's font size; ImGui's built-in font when DejaVu is not
// installed (the app still works, just less crisp).
#pragma once

#include <imgui.h>

namespace kiln::inspect::ui {

// Rebuilds io.Fonts at `pixels` (clamped to [8, 48]). The renderer must
// re-upload the atlas afterwards (the window does).
void build_fonts(float pixels);
// The monospace font for code views (the default font if none was found).
ImFont* mono_font();

}  // namespace kiln::inspect::ui
