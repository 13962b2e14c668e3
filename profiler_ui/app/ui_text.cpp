// Text submission with an observer hook, and value formatting (see ui_text.h).
#include "profiler_ui/app/ui_text.h"

#include <cstdarg>
#include <cstdio>

namespace kiln::inspect::ui {
namespace {

TextObserver& observer() {
  static TextObserver obs;
  return obs;
}

std::string vformat(const char* fmt, va_list args) {
  char small[512];
  va_list copy;
  va_copy(copy, args);
  int n = std::vsnprintf(small, sizeof small, fmt, copy);
  va_end(copy);
  if (n < 0) return {};
  if (static_cast<size_t>(n) < sizeof small) return std::string(small, static_cast<size_t>(n));
  std::string big(static_cast<size_t>(n) + 1, '\0');
  std::vsnprintf(big.data(), big.size(), fmt, args);
  big.resize(static_cast<size_t>(n));
  return big;
}

}  // namespace

void set_text_observer(TextObserver obs) { observer() = std::move(obs); }

void observe(std::string_view s) {
  if (observer()) observer()(s);
}

void text(std::string_view s) {
  observe(s);
  ImGui::TextUnformatted(s.data(), s.data() + s.size());
}

void textf(const char* fmt, ...) {
  va_list args;
  va_start(args, fmt);
  std::string s = vformat(fmt, args);
  va_end(args);
  text(s);
}

std::string printf_string(const char* fmt, ...) {
  va_list args;
  va_start(args, fmt);
  std::string s = vformat(fmt, args);
  va_end(args);
  return s;
}

void text_colored(ImU32 color, std::string_view s) {
  ImGui::PushStyleColor(ImGuiCol_Text, color);
  text(s);
  ImGui::PopStyleColor();
}

void text_disabled(std::string_view s) {
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  text(s);
  ImGui::PopStyleColor();
}

bool selectable_row(std::string_view s, bool selected, int id) {
  observe(s);
  ImGui::PushID(id);
  std::string label(s);
  bool clicked = ImGui::Selectable(label.c_str(), selected, ImGuiSelectableFlags_SpanAllColumns);
  ImGui::PopID();
  return clicked;
}

bool link(std::string_view s) {
  observe(s);
  ImGui::PushStyleColor(ImGuiCol_Text, IM_COL32(110, 170, 255, 255));
  std::string label(s);
  ImVec2 size = ImGui::CalcTextSize(label.c_str());
  bool clicked = ImGui::Selectable(label.c_str(), false, 0, size);
  ImGui::PopStyleColor();
  if (ImGui::IsItemHovered()) ImGui::SetMouseCursor(ImGuiMouseCursor_Hand);
  return clicked;
}

void tooltip(std::string_view s) {
  observe(s);
  ImGui::BeginTooltip();
  ImGui::PushTextWrapPos(ImGui::GetFontSize() * 40.0f);
  ImGui::TextUnformatted(s.data(), s.data() + s.size());
  ImGui::PopTextWrapPos();
  ImGui::EndTooltip();
}

void draw_text(ImDrawList* dl, ImVec2 pos, ImU32 color, std::string_view s, float clip_x) {
  observe(s);
  ImVec4 clip(pos.x, pos.y, clip_x, pos.y + ImGui::GetFontSize() * 2);
  dl->AddText(ImGui::GetFont(), ImGui::GetFontSize(), pos, color, s.data(), s.data() + s.size(), 0.0f, &clip);
}

std::string fmt_ns(int64_t ns) {
  double v = static_cast<double>(ns);
  double a = v < 0 ? -v : v;
  if (a < 1e3) return printf_string("%lld ns", static_cast<long long>(ns));
  if (a < 1e6) return printf_string("%.2f us", v / 1e3);
  if (a < 1e9) return printf_string("%.2f ms", v / 1e6);
  return printf_string("%.3f s", v / 1e9);
}

std::string fmt_bytes(uint64_t b) {
  double v = static_cast<double>(b);
  if (b < 1024) return printf_string("%llu B", static_cast<unsigned long long>(b));
  if (v < 1024.0 * 1024) return printf_string("%.1f KiB", v / 1024);
  if (v < 1024.0 * 1024 * 1024) return printf_string("%.1f MiB", v / (1024.0 * 1024));
  return printf_string("%.2f GiB", v / (1024.0 * 1024 * 1024));
}

std::string fmt_count(uint64_t n) {
  double v = static_cast<double>(n);
  if (n < 10000) return std::to_string(n);
  if (v < 1e6) return printf_string("%.1fk", v / 1e3);
  return printf_string("%.2fM", v / 1e6);
}

std::string fmt_pct(double fraction) { return printf_string("%.1f%%", fraction * 100.0); }

}  // namespace kiln::inspect::ui
