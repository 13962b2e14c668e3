// Graphs view: every compiled graph (region, ops, compile time, runs) in a
// filterable table; the selected one shows its IR, its fusion plan (each
// fused kernel a link to the Kernels view), the guards that failed in its
// region, and the script lines its nodes came from (links to Provenance).
#include <imgui.h>

#include "profiler_ui/app/ui_code.h"
#include "profiler_ui/app/ui_state.h"
#include "profiler_ui/app/ui_table.h"
#include "profiler_ui/app/ui_text.h"

namespace kiln::inspect::ui {
namespace {

enum GraphColumn { kId, kRegion, kOps, kCompile, kRuns, kKernelTime };
constexpr const char* kGraphColumns[] = {"Graph", "Region", "Ops", "Compile", "Runs", "Kernel time"};

SortValue graph_sort_key(const GraphInfo& g, int column) {
  switch (column) {
    case kRegion: return std::string_view(g.region);
    case kOps: return int64_t{g.op_count};
    case kCompile: return g.compile_ns + g.codegen_ns;
    case kRuns: return static_cast<int64_t>(g.runs);
    case kKernelTime: return g.kernel_ns;
    default: return static_cast<int64_t>(g.id);
  }
}

void plan(AppState& st, const GraphInfo& g) {
  if (g.plan.empty()) {
    text_disabled("(no fusion plan in the recording)");
    return;
  }
  int i = 0;
  for (const FusedGroup& f : g.plan) {
    ImGui::PushID(i++);
    if (f.fused) {
      if (link(f.kernel)) st.sel.kernel = f.kernel, st.go(ViewId::kernels);
      ImGui::SameLine();
      textf("%d nodes, %d stores", f.nodes, f.stores);
    } else {
      text("eager " + f.kernel);
    }
    ImGui::PopID();
  }
}

void graph_detail(AppState& st, const GraphInfo& g) {
  ImGui::BeginChild("##graph_detail");
  text_colored(IM_COL32(150, 220, 255, 255), "graph " + std::to_string(g.id) + ": " + g.region);
  textf("%d ops; capture %s, codegen %s; %llu runs, kernels %s%s", g.op_count, fmt_ns(g.compile_ns).c_str(),
        fmt_ns(g.codegen_ns).c_str(), static_cast<unsigned long long>(g.runs), fmt_ns(g.kernel_ns).c_str(),
        g.after_recompile ? "; compiled after a recompile" : "");
  if (g.guard_checks > 0) textf("guards: %.0f checks, %s", g.guard_checks, fmt_ns(static_cast<int64_t>(g.guard_ns)).c_str());
  for (const std::string& guard : g.failed_guards) text_colored(IM_COL32(255, 180, 120, 255), "failed guard: " + guard);
  if (ImGui::CollapsingHeader("Fused groups", ImGuiTreeNodeFlags_DefaultOpen)) plan(st, g);
  if (ImGui::CollapsingHeader("Source lines")) {
    int i = 0;
    for (const SourceLoc& loc : g.source_lines) {
      ImGui::PushID(i++);
      if (link(loc.str())) st.sel.line = loc, st.go(ViewId::provenance);
      ImGui::PopID();
    }
  }
  text("IR");
  code_view("##ir", g.ir_text.empty() ? std::string_view("(the recording has no IR for this graph)") : g.ir_text);
  ImGui::EndChild();
}

}  // namespace

void draw_graphs(AppState& st) {
  const std::vector<GraphInfo>& graphs = st.cur->index->graphs();
  TextFilter filter = filter_box(st, ViewId::graphs);
  ImGui::SameLine();
  text_disabled(std::to_string(graphs.size()) + " graphs");
  if (graphs.empty()) {
    text("No graphs were compiled.");
    return;
  }
  if (!st.cur->index->graph(st.sel.graph)) st.sel.graph = graphs.front().id;
  constexpr int kCols = static_cast<int>(std::size(kGraphColumns));
  if (ImGui::BeginTable("##graphs", kCols, kTableFlags, ImVec2(0, table_height(true) * 0.8f))) {
    setup_columns(kGraphColumns, kCols, -1, kRegion);
    std::vector<int> order = table_order(
        graphs,
        [&](const GraphInfo& g) { return filter.matches({g.region, std::to_string(g.id), g.ir_text}); },
        graph_sort_key);
    for (int i : order) {
      const GraphInfo& g = graphs[static_cast<size_t>(i)];
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      if (row_selectable(std::to_string(g.id), st.sel.graph == g.id, i)) st.sel.graph = g.id;
      if (st.scroll_to_sel && st.sel.graph == g.id) ImGui::SetScrollHereY();
      ImGui::TableNextColumn();
      text(g.region);
      ImGui::TableNextColumn();
      text(std::to_string(g.op_count));
      ImGui::TableNextColumn();
      text(fmt_ns(g.compile_ns + g.codegen_ns));
      ImGui::TableNextColumn();
      text(std::to_string(g.runs));
      ImGui::TableNextColumn();
      text(fmt_ns(g.kernel_ns));
    }
    ImGui::EndTable();
  }
  graph_detail(st, *st.cur->index->graph(st.sel.graph));
}

}  // namespace kiln::inspect::ui
