// ImGui build configuration for kiln-inspect (IMGUI_USER_CONFIG): every
// IM_ASSERT in our code goes through one hook, so the app reports a broken
// ImGui invariant with a message and the smoke tests turn it into a failure
// instead of a silent abort. Active in release builds too: a wrong
// Begin/End pairing must never pass the tests because NDEBUG was on.
#pragma once

namespace kiln::inspect::ui {
// Called when an IM_ASSERT fails: runs the handler, which must not return
// (the default prints the assertion and aborts; tests install one that throws).
[[noreturn]] void imgui_assert_failed(const char* expr, const char* file, int line);
using ImGuiAssertHandler = void (*)(const char* expr, const char* file, int line);
void set_imgui_assert_handler(ImGuiAssertHandler handler);  // nullptr: the default
}  // namespace kiln::inspect::ui

#define IM_ASSERT(_EXPR) \
  ((_EXPR) ? (void)0 : ::kiln::inspect::ui::imgui_assert_failed(#_EXPR, __FILE__, __LINE__))
