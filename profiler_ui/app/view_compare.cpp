// Compare view: two sessions side by side (A: the session open, B: the one
// from --compare or the open panel). Summary numbers, then graphs matched by
// IR hash, breaks by site, recompiles by region and guard, kernels by name;
// rows present on one side only and large time changes are highlighted.
#include <imgui.h>

#include <cmath>

#include "profiler_ui/app/ui_state.h"
#include "profiler_ui/app/ui_table.h"
#include "profiler_ui/app/ui_text.h"

namespace kiln::inspect::ui {
namespace {

constexpr ImU32 kOnlyA = IM_COL32(255, 150, 110, 255), kOnlyB = IM_COL32(130, 200, 255, 255);
constexpr ImU32 kWorse = IM_COL32(255, 110, 110, 255), kBetter = IM_COL32(120, 220, 120, 255);

ImU32 presence_color(Presence p) { return p == Presence::OnlyA ? kOnlyA : p == Presence::OnlyB ? kOnlyB : 0; }

// Begins a row; colours its text by which side has it.
void row_start(Presence p) {
  ImGui::TableNextRow();
  if (ImU32 c = presence_color(p)) ImGui::TableSetBgColor(ImGuiTableBgTarget_RowBg0, (c & 0x00FFFFFF) | 0x40000000);
}

void cells(std::initializer_list<std::string> values) {
  for (const std::string& v : values) {
    ImGui::TableNextColumn();
    text(v);
  }
}

bool begin_table(const char* id, std::initializer_list<const char*> columns) {
  if (!ImGui::BeginTable(id, static_cast<int>(columns.size()),
                         ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_SizingFixedFit))
    return false;
  for (const char* c : columns) ImGui::TableSetupColumn(c), observe(c);
  ImGui::TableHeadersRow();
  return true;
}

void summary_table(const Comparison& c) {
  if (!begin_table("##cmp_summary", {"", "A", "B"})) return;
  auto row = [](const char* label, const std::string& a, const std::string& b, bool differ) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    text(label);
    ImGui::TableNextColumn();
    text(a);
    ImGui::TableNextColumn();
    if (differ) text_colored(IM_COL32(255, 220, 120, 255), b);
    else text(b);
  };
  row("duration", fmt_ns(c.a.duration_ns), fmt_ns(c.b.duration_ns), c.a.duration_ns != c.b.duration_ns);
  row("graphs", std::to_string(c.a.graphs), std::to_string(c.b.graphs), c.a.graphs != c.b.graphs);
  row("graph breaks", std::to_string(c.a.graph_breaks), std::to_string(c.b.graph_breaks), c.a.graph_breaks != c.b.graph_breaks);
  row("recompiles", std::to_string(c.a.recompiles), std::to_string(c.b.recompiles), c.a.recompiles != c.b.recompiles);
  row("compiled time", fmt_ns(c.a.compiled_ns), fmt_ns(c.b.compiled_ns), false);
  row("interpreter time", fmt_ns(c.a.interpreter_ns), fmt_ns(c.b.interpreter_ns), false);
  ImGui::EndTable();
}

void kernels_table(const Comparison& c, const TextFilter& f) {
  if (!begin_table("##cmp_kernels", {"Kernel", "Calls A", "Calls B", "Total A", "Total B", "Change"})) return;
  for (const KernelDiff& k : c.kernels) {
    if (!f.matches({k.name, presence_name(k.presence)})) continue;
    row_start(k.presence);
    cells({k.name, std::to_string(k.calls_a), std::to_string(k.calls_b), fmt_ns(k.total_ns_a), fmt_ns(k.total_ns_b)});
    ImGui::TableNextColumn();
    if (k.presence != Presence::Both) text(presence_name(k.presence));
    else if (std::abs(k.change_percent) >= 10)
      text_colored(k.change_percent > 0 ? kWorse : kBetter, printf_string("%+.0f%%", k.change_percent));
    else text(printf_string("%+.0f%%", k.change_percent));
  }
  ImGui::EndTable();
}

}  // namespace

void draw_compare(AppState& st) {
  if (!st.other || !st.comparison) {
    text("Compare two sessions (before and after a change): open the second one with");
    text("`kiln-inspect A.kilntrace --compare B.kilntrace`, or File > Open / connect > Compare with current.");
    return;
  }
  const Comparison& c = *st.comparison;
  text("A: " + st.cur->session->info().origin);
  text("B: " + st.other->session->info().origin);
  TextFilter f = filter_box(st, ViewId::compare);
  ImGui::SameLine();
  text_colored(kOnlyA, "only in A");
  ImGui::SameLine();
  text_colored(kOnlyB, "only in B");
  ImGui::BeginChild("##compare");
  summary_table(c);
  if (ImGui::CollapsingHeader("Graphs", ImGuiTreeNodeFlags_DefaultOpen) &&
      begin_table("##cmp_graphs", {"Region", "Hash", "Graph A", "Graph B", "Ops A", "Ops B", "Compile A", "Compile B"})) {
    for (const GraphDiff& g : c.graphs) {
      if (!f.matches({g.region, presence_name(g.presence)})) continue;
      row_start(g.presence);
      cells({g.region, printf_string("%016llx", static_cast<unsigned long long>(g.hash)),
             g.id_a ? std::to_string(g.id_a) : "-", g.id_b ? std::to_string(g.id_b) : "-",
             std::to_string(g.op_count_a), std::to_string(g.op_count_b), fmt_ns(g.compile_ns_a), fmt_ns(g.compile_ns_b)});
    }
    ImGui::EndTable();
  }
  if (ImGui::CollapsingHeader("Graph breaks", ImGuiTreeNodeFlags_DefaultOpen) &&
      begin_table("##cmp_breaks", {"Category", "Location", "Count A", "Count B", "Lost A", "Lost B"})) {
    for (const BreakDiff& b : c.breaks) {
      if (!f.matches({b.category, b.loc.str(), b.message, presence_name(b.presence)})) continue;
      row_start(b.presence);
      cells({b.category, b.loc.str(), std::to_string(b.count_a), std::to_string(b.count_b), fmt_ns(b.time_lost_a),
             fmt_ns(b.time_lost_b)});
    }
    ImGui::EndTable();
  }
  if (ImGui::CollapsingHeader("Recompiles", ImGuiTreeNodeFlags_DefaultOpen) &&
      begin_table("##cmp_recompiles", {"Region", "Guard", "Count A", "Count B"})) {
    for (const RecompileDiff& r : c.recompiles) {
      if (!f.matches({r.region, r.guard, presence_name(r.presence)})) continue;
      row_start(r.presence);
      cells({r.region, r.guard, std::to_string(r.count_a), std::to_string(r.count_b)});
    }
    ImGui::EndTable();
  }
  if (ImGui::CollapsingHeader("Kernels", ImGuiTreeNodeFlags_DefaultOpen)) kernels_table(c, f);
  ImGui::EndChild();
}

}  // namespace kiln::inspect::ui
