// Recompiles view: one row per recompile (region, failed guard, expected vs
// actual, cache entries, automatic dynamic), sortable and filterable. A
// region that hit its cache limit is a recompile storm: its rows are red and
// a banner above the table names it.
#include <imgui.h>

#include <iterator>
#include <set>

#include "profiler_ui/app/ui_code.h"
#include "profiler_ui/app/ui_state.h"
#include "profiler_ui/app/ui_table.h"
#include "profiler_ui/app/ui_text.h"

namespace kiln::inspect::ui {
namespace {

constexpr ImU32 kStormColor = IM_COL32(255, 110, 110, 255);

void storm_banner(const std::vector<RecompileRow>& rows) {
  std::set<std::string> storms;
  for (const RecompileRow& r : rows)
    if (r.storm) storms.insert(r.region);
  for (const std::string& region : storms)
    text_colored(kStormColor, "Recompile storm: '" + region +
                                  "' reached its cache limit and now runs uncompiled; make the varying "
                                  "value an input (or a dynamic dimension) instead of a constant.");
}

void recompile_detail(AppState& st, const RecompileRow& r) {
  ImGui::BeginChild("##recompile_detail");
  text_colored(r.storm ? kStormColor : IM_COL32(255, 200, 120, 255), r.region.empty() ? "(region unknown)" : r.region);
  text("failed guard: " + r.guard);
  text("expected " + r.expected + ", got " + r.actual);
  if (!r.note.empty()) {
    ImGui::PushTextWrapPos(0);
    text(r.note);
    ImGui::PopTextWrapPos();
  }
  textf("cache entries %llu; recompiles of this region: %llu%s", static_cast<unsigned long long>(r.cache_entries),
        static_cast<unsigned long long>(r.region_recompiles), r.automatic_dynamic ? "; automatic dynamic" : "");
  if (r.graph_id) {
    text("compiled as");
    ImGui::SameLine();
    if (link("graph " + std::to_string(r.graph_id))) st.sel.graph = r.graph_id, st.go(ViewId::graphs);
  }
  ImGui::Separator();
  source_context(*st.cur->session, r.loc);
  ImGui::EndChild();
}

}  // namespace

void draw_recompiles(AppState& st) {
  const std::vector<RecompileRow>& rows = st.cur->recompiles;
  TextFilter filter = filter_box(st, ViewId::recompiles);
  ImGui::SameLine();
  textf("%zu recompiles, %llu guard failures", rows.size(),
        static_cast<unsigned long long>(st.cur->summary.guard_failures));
  if (rows.empty()) {
    text("No recompiles: every guard held.");
    return;
  }
  storm_banner(rows);
  int& sel = st.sel.recompile_row;
  if (sel < 0 || sel >= static_cast<int>(rows.size())) sel = 0;
  constexpr int kCols = static_cast<int>(std::size(kRecompileColumns));
  if (ImGui::BeginTable("##recompiles", kCols, kTableFlags, ImVec2(0, table_height(true)))) {
    setup_columns(kRecompileColumns, kCols, -1, static_cast<int>(RecompileColumn::Region));
    std::vector<int> order = table_order(
        rows, [&](const RecompileRow& r) { return recompile_matches(r, filter); }, recompile_sort_key);
    for (int i : order) {
      const RecompileRow& r = rows[static_cast<size_t>(i)];
      ImGui::TableNextRow();
      if (r.storm) ImGui::PushStyleColor(ImGuiCol_Text, kStormColor);
      ImGui::TableNextColumn();
      if (row_selectable(r.region.empty() ? "?" : r.region, sel == i, i)) sel = i;
      ImGui::TableNextColumn();
      text(r.guard);
      ImGui::TableNextColumn();
      text(r.expected);
      ImGui::TableNextColumn();
      text(r.actual);
      ImGui::TableNextColumn();
      text(std::to_string(r.cache_entries));
      ImGui::TableNextColumn();
      text(r.automatic_dynamic ? "yes" : "");
      ImGui::TableNextColumn();
      text(r.storm ? "STORM" : "");
      if (r.storm) ImGui::PopStyleColor();
    }
    ImGui::EndTable();
  }
  recompile_detail(st, rows[static_cast<size_t>(sel)]);
}

}  // namespace kiln::inspect::ui
