// The parts every table view shares: the search box (the model's TextFilter
// query syntax, focused by Ctrl+F), the row order for ImGui's sort specs
// (sorting indices, so the model's rows stay untouched), a row that follows
// keyboard navigation, and the standard flags of a sortable table.
#pragma once

#include <imgui.h>
#include <imgui_internal.h>

#include <algorithm>
#include <numeric>
#include <string>
#include <vector>

#include "profiler_ui/app/ui_state.h"
#include "profiler_ui/model/table_filter.h"
#include "profiler_ui/model/table_sort.h"

namespace kiln::inspect::ui {

// The search box of view `v`; returns its parsed query.
TextFilter filter_box(AppState& st, ViewId v, const char* hint = "filter: words, -excluded");

inline constexpr ImGuiTableFlags kTableFlags =
    ImGuiTableFlags_Sortable | ImGuiTableFlags_Resizable | ImGuiTableFlags_Reorderable |
    ImGuiTableFlags_Hideable | ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV |
    ImGuiTableFlags_ScrollY | ImGuiTableFlags_SizingFixedFit;

// A row cell that selects its row when clicked or when keyboard navigation
// moves onto it (arrow keys walk the table).
bool row_selectable(std::string_view text, bool selected, int id);

// Indices of the rows `keep` accepts, in the order of the table's current
// sort specs (the model's key function; stable, so ties keep the model's
// order). Call between BeginTable and the first row.
template <typename Row, typename KeepFn, typename KeyFn>
std::vector<int> table_order(const std::vector<Row>& rows, KeepFn keep, KeyFn key) {
  std::vector<int> order;
  for (int i = 0; i < static_cast<int>(rows.size()); ++i)
    if (keep(rows[static_cast<size_t>(i)])) order.push_back(i);
  const ImGuiTableSortSpecs* specs = ImGui::TableGetSortSpecs();
  if (!specs || specs->SpecsCount == 0) return order;
  const ImGuiTableColumnSortSpecs& s = specs->Specs[0];
  bool asc = s.SortDirection == ImGuiSortDirection_Ascending;
  int column = static_cast<int>(s.ColumnUserID);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
    SortValue ka = key(rows[static_cast<size_t>(a)], column), kb = key(rows[static_cast<size_t>(b)], column);
    return asc ? ka < kb : kb < ka;
  });
  return order;
}

// Declares the columns from the model's name table; column i sorts by key i.
// `default_sort` starts sorted (descending) on that column; `stretch` takes
// the width the others leave (long text: messages, regions); -1: none.
void setup_columns(const char* const* names, int count, int default_sort, int stretch = -1);

// A two-pane layout: a table on top, the selected row's details below.
// Returns the height for the table.
float table_height(bool has_detail);

}  // namespace kiln::inspect::ui
