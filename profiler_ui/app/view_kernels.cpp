// Kernels view: per-kernel statistics (calls, time, % of run, bytes, GB/s
// against the machine's bandwidth, flops), sortable and filterable. The
// selected kernel shows the graph nodes it fused (links to the graph and the
// script line) and its generated code in a scrollable text view.
#include <imgui.h>

#include <iterator>

#include "profiler_ui/app/ui_code.h"
#include "profiler_ui/app/ui_state.h"
#include "profiler_ui/app/ui_table.h"
#include "profiler_ui/app/ui_text.h"

namespace kiln::inspect::ui {
namespace {

int find_kernel(const std::vector<KernelRow>& rows, const std::string& name) {
  for (size_t i = 0; i < rows.size(); ++i)
    if (rows[i].name == name) return static_cast<int>(i);
  return -1;
}

void fused_nodes(AppState& st, const KernelRow& k) {
  if (k.nodes.empty()) {
    text_disabled(k.fused ? "(its graph nodes are not in the recording)" : "an op's own kernel (not generated)");
    return;
  }
  for (size_t i = 0; i < k.nodes.size(); ++i) {
    const KernelNodeRef& ref = k.nodes[i];
    const GraphInfo* g = st.cur->index->graph(ref.graph_id);
    if (!g || ref.node < 0 || ref.node >= static_cast<int>(g->nodes.size())) continue;
    const GraphNode& n = g->nodes[static_cast<size_t>(ref.node)];
    ImGui::PushID(static_cast<int>(i));
    if (link("graph " + std::to_string(ref.graph_id))) st.sel.graph = ref.graph_id, st.go(ViewId::graphs);
    ImGui::SameLine();
    text(n.text);
    if (n.loc.known()) {
      ImGui::SameLine();
      if (link(n.loc.str())) st.sel.line = n.loc, st.go(ViewId::provenance);
    }
    ImGui::PopID();
  }
}

void kernel_detail(AppState& st, const KernelRow& k) {
  ImGui::BeginChild("##kernel_detail");
  text_colored(IM_COL32(150, 220, 255, 255), k.name);
  textf("%s, %llu calls, total %s, mean %s; %s moved, %.2f GB/s", k.device.c_str(),
        static_cast<unsigned long long>(k.calls), fmt_ns(k.total_ns).c_str(),
        fmt_ns(static_cast<int64_t>(k.mean_ns)).c_str(), fmt_bytes(k.bytes).c_str(), k.gb_per_s);
  if (k.percent_of_bandwidth > 0) {
    ImGui::SameLine();
    textf("(%.1f%% of the machine's bandwidth)", k.percent_of_bandwidth);
  }
  if (!k.shapes.empty()) text("shapes: " + k.shapes);
  if (ImGui::CollapsingHeader("Graph nodes it computes", ImGuiTreeNodeFlags_DefaultOpen)) fused_nodes(st, k);
  text("Generated code");
  if (k.code.empty())
    text_disabled(k.fused ? "not in the recording (record without a kernel cache hit: KILN_CACHE_DIR= kiln run --record ...)"
                          : "an op's own kernel: no generated code");
  else
    code_view("##code", k.code);
  ImGui::EndChild();
}

}  // namespace

void draw_kernels(AppState& st) {
  const std::vector<KernelRow>& rows = st.cur->kernels;
  TextFilter filter = filter_box(st, ViewId::kernels);
  ImGui::SameLine();
  text_disabled(std::to_string(rows.size()) + " kernels");
  if (rows.empty()) {
    text("No kernels ran in this session.");
    return;
  }
  int sel = find_kernel(rows, st.sel.kernel);
  if (sel < 0) {
    // Nothing picked: the costliest generated kernel, whose code says most.
    sel = 0;
    for (size_t i = 0; i < rows.size(); ++i)
      if (rows[i].fused && !rows[i].code.empty()) {
        sel = static_cast<int>(i);
        break;
      }
    st.sel.kernel = rows[static_cast<size_t>(sel)].name;
  }
  constexpr int kCols = static_cast<int>(std::size(kKernelColumns));
  if (ImGui::BeginTable("##kernels", kCols, kTableFlags, ImVec2(0, table_height(true)))) {
    setup_columns(kKernelColumns, kCols, static_cast<int>(KernelColumn::Total));
    std::vector<int> order = table_order(
        rows, [&](const KernelRow& r) { return kernel_matches(r, filter); }, kernel_sort_key);
    ImGuiListClipper clipper;
    clipper.Begin(static_cast<int>(order.size()));
    while (clipper.Step())
      for (int oi = clipper.DisplayStart; oi < clipper.DisplayEnd; ++oi) {
        int i = order[static_cast<size_t>(oi)];
        const KernelRow& r = rows[static_cast<size_t>(i)];
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        if (row_selectable(r.name, sel == i, i)) st.sel.kernel = r.name;
        ImGui::TableNextColumn();
        text(std::to_string(r.calls));
        ImGui::TableNextColumn();
        text(fmt_ns(r.total_ns));
        ImGui::TableNextColumn();
        text(fmt_ns(static_cast<int64_t>(r.mean_ns)));
        ImGui::TableNextColumn();
        text(fmt_ns(r.min_ns));
        ImGui::TableNextColumn();
        text(fmt_ns(r.max_ns));
        ImGui::TableNextColumn();
        text(printf_string("%.1f%%", r.percent_of_run));
        ImGui::TableNextColumn();
        text(fmt_bytes(r.bytes));
        ImGui::TableNextColumn();
        text(printf_string("%.2f", r.gb_per_s));
        ImGui::TableNextColumn();
        text(fmt_count(r.flops));
      }
    ImGui::EndTable();
  }
  kernel_detail(st, rows[static_cast<size_t>(sel)]);
}

}  // namespace kiln::inspect::ui
