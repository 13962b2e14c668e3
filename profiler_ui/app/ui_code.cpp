// Code and source views (see ui_code.h).
#include "profiler_ui/app/ui_code.h"

#include <imgui.h>

#include <algorithm>
#include <string>
#include <vector>

#include "profiler_ui/app/ui_fonts.h"
#include "profiler_ui/app/ui_text.h"
#include "profiler_ui/model/graph_breaks.h"

namespace kiln::inspect::ui {
namespace {

std::vector<std::string_view> split_lines(std::string_view text) {
  std::vector<std::string_view> lines;
  size_t start = 0;
  while (start <= text.size()) {
    size_t nl = text.find('\n', start);
    if (nl == std::string_view::npos) nl = text.size();
    lines.push_back(text.substr(start, nl - start));
    start = nl + 1;
  }
  if (!lines.empty() && lines.back().empty()) lines.pop_back();
  return lines;
}

// The script's path as recorded may be relative and the location's too, or
// one absolute: compare by suffix.
bool same_file(std::string_view a, std::string_view b) {
  if (a.empty() || b.empty()) return false;
  if (a.size() < b.size()) std::swap(a, b);
  return a.ends_with(b) && (a.size() == b.size() || a[a.size() - b.size() - 1] == '/');
}

}  // namespace

void code_view(const char* id, std::string_view code, float height) {
  ImGui::BeginChild(id, ImVec2(0, height), true, ImGuiWindowFlags_HorizontalScrollbar);
  ImGui::PushFont(mono_font());
  std::vector<std::string_view> lines = split_lines(code);
  // Observe the whole text once (tests look for kernel code), draw only
  // what is visible.
  observe(code);
  ImGuiListClipper clipper;
  clipper.Begin(static_cast<int>(lines.size()));
  while (clipper.Step())
    for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) {
      std::string_view l = lines[static_cast<size_t>(i)];
      ImGui::TextUnformatted(l.data(), l.data() + l.size());
    }
  ImGui::PopFont();
  ImGui::EndChild();
}

void source_context(const Session& session, const SourceLoc& loc, int context) {
  const SessionInfo& info = session.info();
  if (!loc.known()) {
    text_disabled("(no source location)");
    return;
  }
  if (info.source_text.empty()) {
    text_disabled(loc.str() + ": the recording has no source text (Chrome trace JSON); open the .kilntrace");
    return;
  }
  if (!same_file(loc.file, info.script_path)) {
    text_disabled(loc.str() + " is outside the script (" + info.script_path + ")");
    return;
  }
  const int32_t last = static_cast<int32_t>(split_lines(info.source_text).size());
  ImGui::PushFont(mono_font());
  for (int32_t n = std::max(1, loc.line - context); n <= std::min(last, loc.line + context); ++n) {
    std::string_view line = source_line(info.source_text, n);
    std::string row = printf_string("%5d  ", n) + std::string(line);
    if (n == loc.line) {
      ImVec2 p = ImGui::GetCursorScreenPos();
      ImGui::GetWindowDrawList()->AddRectFilled(
          p, ImVec2(p.x + ImGui::GetContentRegionAvail().x, p.y + ImGui::GetTextLineHeight()),
          IM_COL32(90, 70, 20, 255));
      text_colored(IM_COL32(255, 230, 150, 255), row);
    } else {
      text(row);
    }
  }
  ImGui::PopFont();
}

}  // namespace kiln::inspect::ui
