// Provenance view, both ways in one click: on the left a kernel, the graph
// nodes it fused and the script lines they came from; on the right a script
// line, the graphs and kernels that hold its work, and its source. Clicking
// a line on the left selects it on the right, a kernel on the right selects
// it on the left.
#include <imgui.h>

#include "profiler_ui/app/ui_code.h"
#include "profiler_ui/app/ui_state.h"
#include "profiler_ui/app/ui_table.h"
#include "profiler_ui/app/ui_text.h"

namespace kiln::inspect::ui {
namespace {

void kernel_side(AppState& st, const TextFilter& filter) {
  const Analysis& a = *st.cur;
  ImGui::BeginChild("##kernels_list", ImVec2(0, ImGui::GetContentRegionAvail().y * 0.4f), true);
  int i = 0;
  for (const KernelRow& k : a.kernels) {
    if (!k.fused || !filter.matches({k.name})) continue;
    if (row_selectable(k.name, st.sel.kernel == k.name, i++)) st.sel.kernel = k.name;
  }
  ImGui::EndChild();
  KernelProvenance p = a.provenance.of_kernel(st.sel.kernel);
  text_colored(IM_COL32(150, 220, 255, 255), st.sel.kernel.empty() ? "(pick a kernel)" : st.sel.kernel);
  if (p.nodes.empty()) text_disabled("no graph nodes recorded for it");
  i = 0;
  for (const KernelNodeRef& ref : p.nodes) {
    const GraphInfo* g = a.index->graph(ref.graph_id);
    if (!g || ref.node < 0 || ref.node >= static_cast<int>(g->nodes.size())) continue;
    ImGui::PushID(i++);
    if (link("graph " + std::to_string(ref.graph_id))) st.sel.graph = ref.graph_id, st.go(ViewId::graphs);
    ImGui::SameLine();
    text(g->nodes[static_cast<size_t>(ref.node)].text);
    ImGui::PopID();
  }
  text("script lines:");
  for (const SourceLoc& loc : p.lines) {
    ImGui::PushID(i++);
    if (link(loc.str())) st.sel.line = loc;
    ImGui::PopID();
  }
}

void line_side(AppState& st) {
  const Analysis& a = *st.cur;
  ImGui::BeginChild("##lines_list", ImVec2(0, ImGui::GetContentRegionAvail().y * 0.4f), true);
  int i = 0;
  for (const SourceLoc& loc : a.provenance.lines()) {
    bool selected = st.sel.line.file == loc.file && st.sel.line.line == loc.line;
    if (row_selectable(loc.str(), selected, i++)) st.sel.line = loc;
  }
  ImGui::EndChild();
  if (!st.sel.line.known()) {
    text_disabled("(pick a script line)");
    return;
  }
  LineProvenance p = a.provenance.of_line(st.sel.line.file, st.sel.line.line);
  text_colored(IM_COL32(255, 220, 150, 255), st.sel.line.file + ":" + std::to_string(st.sel.line.line));
  text("graphs:");
  for (uint64_t id : p.graphs) {
    ImGui::SameLine();
    ImGui::PushID(i++);
    if (link(std::to_string(id))) st.sel.graph = id, st.go(ViewId::graphs);
    ImGui::PopID();
  }
  text("kernels:");
  for (const std::string& k : p.kernels) {
    ImGui::PushID(i++);
    if (link(k)) st.sel.kernel = k;
    ImGui::PopID();
  }
  ImGui::Separator();
  source_context(*a.session, st.sel.line, 4);
}

}  // namespace

void draw_provenance(AppState& st) {
  TextFilter filter = filter_box(st, ViewId::provenance, "filter kernels");
  if (st.sel.kernel.empty())
    for (const KernelRow& k : st.cur->kernels)
      if (k.fused) {
        st.sel.kernel = k.name;
        break;
      }
  if (!st.sel.line.known()) {
    std::vector<SourceLoc> lines = st.cur->provenance.of_kernel(st.sel.kernel).lines;
    if (!lines.empty()) st.sel.line = lines.front();
  }
  if (!ImGui::BeginTable("##provenance", 2, ImGuiTableFlags_Resizable | ImGuiTableFlags_BordersInnerV,
                         ImGui::GetContentRegionAvail()))
    return;
  ImGui::TableSetupColumn("Kernel -> nodes -> lines");
  ImGui::TableSetupColumn("Line -> graphs and kernels");
  ImGui::TableHeadersRow();
  ImGui::TableNextRow();
  ImGui::TableNextColumn();
  ImGui::BeginChild("##left");
  kernel_side(st, filter);
  ImGui::EndChild();
  ImGui::TableNextColumn();
  ImGui::BeginChild("##right");
  line_side(st);
  ImGui::EndChild();
  ImGui::EndTable();
}

}  // namespace kiln::inspect::ui
