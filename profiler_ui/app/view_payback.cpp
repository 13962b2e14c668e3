// Compile payback view: per compiled graph, what compiling cost against what
// it saved (its measured runtime against the interpreter's estimated cost of
// the same ops), calls to break even, and graphs compiled by a recompile
// that never paid off, flagged in red.
#include <imgui.h>

#include <iterator>

#include "profiler_ui/app/ui_state.h"
#include "profiler_ui/app/ui_table.h"
#include "profiler_ui/app/ui_text.h"

namespace kiln::inspect::ui {

void draw_payback(AppState& st) {
  const std::vector<PaybackRow>& rows = st.cur->payback;
  TextFilter filter = filter_box(st, ViewId::payback);
  int64_t compile = 0;
  double saved = 0;
  int unpaid = 0;
  for (const PaybackRow& r : rows) compile += r.compile_ns, saved += r.saved_ns, unpaid += r.recompile_never_paid_off;
  ImGui::SameLine();
  textf("%zu graphs: compiling cost %s, running compiled saved %s%s", rows.size(), fmt_ns(compile).c_str(),
        fmt_ns(static_cast<int64_t>(saved)).c_str(),
        unpaid ? printf_string("; %d recompiles never paid off", unpaid).c_str() : "");
  if (rows.empty()) {
    text("No graphs were compiled.");
    return;
  }
  text_disabled("Interpreted cost per run is estimated from the same ops' eager timings in this recording.");
  constexpr int kCols = static_cast<int>(std::size(kPaybackColumns));
  if (!ImGui::BeginTable("##payback", kCols, kTableFlags, ImGui::GetContentRegionAvail())) return;
  setup_columns(kPaybackColumns, kCols, -1, static_cast<int>(PaybackColumn::Region));
  std::vector<int> order = table_order(
      rows, [&](const PaybackRow& r) { return payback_matches(r, filter); }, payback_sort_key);
  for (int i : order) {
    const PaybackRow& r = rows[static_cast<size_t>(i)];
    ImGui::TableNextRow();
    bool flag = r.recompile_never_paid_off;
    if (flag) ImGui::PushStyleColor(ImGuiCol_Text, IM_COL32(255, 110, 110, 255));
    ImGui::TableNextColumn();
    if (row_selectable(std::to_string(r.graph_id), st.sel.graph == r.graph_id, i)) st.sel.graph = r.graph_id;
    if (ImGui::IsItemHovered() && ImGui::IsMouseDoubleClicked(0)) st.go(ViewId::graphs);
    ImGui::TableNextColumn();
    text(r.region);
    ImGui::TableNextColumn();
    text(fmt_ns(r.compile_ns));
    ImGui::TableNextColumn();
    text(std::to_string(r.runs));
    ImGui::TableNextColumn();
    text(fmt_ns(static_cast<int64_t>(r.saved_ns_per_run)) + (r.interpreted_estimated ? " (est.)" : ""));
    ImGui::TableNextColumn();
    text(r.calls_to_break_even < 0 ? "never" : std::to_string(r.calls_to_break_even));
    ImGui::TableNextColumn();
    text(r.paid_off ? "yes" : flag ? "no (recompile)" : "no");
    if (flag) ImGui::PopStyleColor();
  }
  ImGui::EndTable();
}

}  // namespace kiln::inspect::ui
