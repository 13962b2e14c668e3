// Shared table helpers (see ui_table.h).
#include "profiler_ui/app/ui_table.h"

#include <imgui_stdlib.h>

#include "profiler_ui/app/ui_text.h"

namespace kiln::inspect::ui {

TextFilter filter_box(AppState& st, ViewId v, const char* hint) {
  ImGui::PushID(static_cast<int>(v));
  if (st.focus_filter) ImGui::SetKeyboardFocusHere();
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 20);
  ImGui::InputTextWithHint("##filter", hint, &st.filter(v));
  ImGui::PopID();
  return TextFilter(st.filter(v));
}

bool row_selectable(std::string_view text, bool selected, int id) {
  observe(text);
  ImGui::PushID(id);
  std::string label(text);
  // SelectOnNav (imgui_internal.h): arrow keys move the selection, not just focus.
  ImGuiSelectableFlags flags = static_cast<int>(ImGuiSelectableFlags_SpanAllColumns) |
                               static_cast<int>(ImGuiSelectableFlags_SelectOnNav);
  bool picked = ImGui::Selectable(label.c_str(), selected, flags);
  ImGui::PopID();
  return picked && !selected;
}

void setup_columns(const char* const* names, int count, int default_sort, int stretch) {
  for (int i = 0; i < count; ++i) {
    ImGuiTableColumnFlags f = i == default_sort ? ImGuiTableColumnFlags_DefaultSort | ImGuiTableColumnFlags_PreferSortDescending
                                                : ImGuiTableColumnFlags_None;
    if (i == 0) f |= ImGuiTableColumnFlags_NoHide;
    f |= i == stretch ? ImGuiTableColumnFlags_WidthStretch : ImGuiTableColumnFlags_WidthFixed;
    ImGui::TableSetupColumn(names[i], f, 0.0f, static_cast<ImGuiID>(i));
    observe(names[i]);
  }
  ImGui::TableSetupScrollFreeze(0, 1);
  ImGui::TableHeadersRow();
}

float table_height(bool has_detail) {
  float avail = ImGui::GetContentRegionAvail().y;
  return has_detail ? avail * 0.45f : avail;
}

}  // namespace kiln::inspect::ui
