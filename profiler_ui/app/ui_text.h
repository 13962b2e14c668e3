// Every piece of session data a view shows goes through these few helpers,
// so the smoke tests can observe what was submitted (a break's message, a
// kernel's name) without a renderer: set_text_observer() sees each string.
// Also the one place for formatting times, bytes and rates the same way.
#pragma once

#include <imgui.h>

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

namespace kiln::inspect::ui {

using TextObserver = std::function<void(std::string_view)>;
// Installs (or, with {}, removes) the observer. Tests only.
void set_text_observer(TextObserver obs);
// Reports a string shown by other means (a draw-list label, a table header).
void observe(std::string_view s);

void text(std::string_view s);
void textf(const char* fmt, ...) IM_FMTARGS(1);
void text_colored(ImU32 color, std::string_view s);
void text_disabled(std::string_view s);
// A row cell that selects its row; spans all columns. `id` keeps rows with
// equal text apart.
bool selectable_row(std::string_view s, bool selected, int id);
// A number or name that navigates somewhere when clicked.
bool link(std::string_view s);
void tooltip(std::string_view s);
// Draws `s` at `pos` on a draw list (timeline labels), clipped at x = clip_x.
void draw_text(ImDrawList* dl, ImVec2 pos, ImU32 color, std::string_view s, float clip_x = 1e30f);

std::string fmt_ns(int64_t ns);       // "812 ns", "3.40 us", "12.3 ms", "1.52 s"
std::string fmt_bytes(uint64_t b);    // "512 B", "1.5 KiB", "12.0 MiB"
std::string fmt_count(uint64_t n);    // "1234", "12.3k", "4.5M"
std::string fmt_pct(double fraction); // "12.5%"
std::string printf_string(const char* fmt, ...) IM_FMTARGS(1);

}  // namespace kiln::inspect::ui
