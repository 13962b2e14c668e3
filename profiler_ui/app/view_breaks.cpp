// Graph breaks view: one row per break site, sortable and filterable; the
// selected site shows its message (what happened and what to do), the
// source with the line highlighted, the user stack, and the graphs that ran
// just before and after it (each a link to the Graphs view).
#include <imgui.h>

#include <iterator>

#include "profiler_ui/app/ui_code.h"
#include "profiler_ui/app/ui_state.h"
#include "profiler_ui/app/ui_table.h"
#include "profiler_ui/app/ui_text.h"

namespace kiln::inspect::ui {
namespace {

void graph_links(AppState& st, const char* label, const std::vector<uint64_t>& ids) {
  ImGui::PushID(label);  // a graph can be both before and after
  text(label);
  if (ids.empty()) {
    ImGui::SameLine();
    text_disabled("none");
  }
  for (uint64_t id : ids) {
    ImGui::SameLine();
    ImGui::PushID(static_cast<int>(id));
    if (link("graph " + std::to_string(id))) st.sel.graph = id, st.go(ViewId::graphs);
    ImGui::PopID();
  }
  ImGui::PopID();
}

void break_detail(AppState& st, const BreakRow& r) {
  ImGui::BeginChild("##break_detail");
  text_colored(IM_COL32(255, 200, 120, 255), r.category + " at " + r.loc.str());
  ImGui::PushTextWrapPos(0);
  text(r.message);
  ImGui::PopTextWrapPos();
  textf("%llu times, %s lost in the interpreter after it", static_cast<unsigned long long>(r.count),
        fmt_ns(r.time_lost_ns).c_str());
  if (!r.stack.empty()) text("user stack: " + r.stack);
  graph_links(st, "graphs before:", r.graphs_before);
  graph_links(st, "graphs after: ", r.graphs_after);
  if (ImGui::SmallButton("show on timeline")) {
    st.timeline.view_start_ns = static_cast<double>(r.first_ts_ns) - 2e6;
    st.timeline.view_end_ns = static_cast<double>(r.first_ts_ns) + 8e6;
    st.go(ViewId::timeline);
  }
  ImGui::Separator();
  source_context(*st.cur->session, r.loc);
  ImGui::EndChild();
}

}  // namespace

void draw_breaks(AppState& st) {
  const std::vector<BreakRow>& rows = st.cur->breaks;
  TextFilter filter = filter_box(st, ViewId::breaks);
  ImGui::SameLine();
  text_disabled(std::to_string(rows.size()) + " break sites");
  int& sel = st.sel.break_row;
  if (rows.empty()) {
    text("No graph breaks: every captured region ran as whole graphs.");
    return;
  }
  // Nothing picked yet (or the row went away in a live update): the costliest.
  if (sel < 0 || sel >= static_cast<int>(rows.size())) sel = 0;
  constexpr int kCols = static_cast<int>(std::size(kBreakColumns));
  if (ImGui::BeginTable("##breaks", kCols, kTableFlags, ImVec2(0, table_height(sel >= 0)))) {
    setup_columns(kBreakColumns, kCols, static_cast<int>(BreakColumn::TimeLost), static_cast<int>(BreakColumn::Message));
    std::vector<int> order = table_order(
        rows, [&](const BreakRow& r) { return break_matches(r, filter); }, break_sort_key);
    for (int i : order) {
      const BreakRow& r = rows[static_cast<size_t>(i)];
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      if (row_selectable(r.category, sel == i, i)) sel = i;
      ImGui::TableNextColumn();
      text(r.message.substr(0, r.message.find('\n')));
      ImGui::TableNextColumn();
      text(r.loc.str());
      ImGui::TableNextColumn();
      text(std::to_string(r.count));
      ImGui::TableNextColumn();
      text(fmt_ns(r.time_lost_ns));
    }
    ImGui::EndTable();
  }
  if (sel >= 0) break_detail(st, rows[static_cast<size_t>(sel)]);
}

}  // namespace kiln::inspect::ui
