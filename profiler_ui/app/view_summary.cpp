// Summary view: the session at a glance (script, duration, where the time
// went, graphs, breaks, recompiles, top kernels, drops). Every number is a
// link to the view that explains it.
#include <imgui.h>

#include "profiler_ui/app/ui_state.h"
#include "profiler_ui/app/ui_text.h"

namespace kiln::inspect::ui {
namespace {

// One "label  value" row whose value opens `target`.
void linked_number(AppState& st, const char* label, const std::string& value, ViewId target) {
  ImGui::TableNextRow();
  ImGui::TableNextColumn();
  text(label);
  ImGui::TableNextColumn();
  ImGui::PushID(label);
  if (link(value)) st.go(target);
  ImGui::PopID();
}

void plain_row(const char* label, const std::string& value) {
  ImGui::TableNextRow();
  ImGui::TableNextColumn();
  text(label);
  ImGui::TableNextColumn();
  text(value);
}

// The run as one stacked bar: interpreter, compiled code, compiling.
void time_split_bar(const Summary& s) {
  double total = static_cast<double>(s.duration_ns > 0 ? s.duration_ns : 1);
  struct Part {
    const char* name;
    int64_t ns;
    ImU32 color;
  } parts[] = {{"interpreter", s.interpreter_ns, IM_COL32(200, 140, 60, 255)},
               {"compiled", s.compiled_ns, IM_COL32(70, 170, 90, 255)},
               {"compiling", s.compiling_ns, IM_COL32(90, 120, 210, 255)}};
  ImVec2 p = ImGui::GetCursorScreenPos();
  float w = ImGui::GetContentRegionAvail().x * 0.6f, h = ImGui::GetFontSize() * 1.4f;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  float x = p.x;
  for (const Part& part : parts) {
    float pw = static_cast<float>(static_cast<double>(part.ns) / total) * w;
    dl->AddRectFilled(ImVec2(x, p.y), ImVec2(x + pw, p.y + h), part.color);
    x += pw;
  }
  dl->AddRect(p, ImVec2(p.x + w, p.y + h), IM_COL32(160, 160, 160, 255));
  ImGui::Dummy(ImVec2(w, h));
  bool first = true;
  for (const Part& part : parts) {
    if (!first) ImGui::SameLine(0, ImGui::GetFontSize());
    first = false;
    ImGui::ColorButton(part.name, ImGui::ColorConvertU32ToFloat4(part.color),
                       ImGuiColorEditFlags_NoTooltip, ImVec2(h * 0.6f, h * 0.6f));
    ImGui::SameLine();
    textf("%s %s (%s)", part.name, fmt_ns(part.ns).c_str(),
          fmt_pct(static_cast<double>(part.ns) / total).c_str());
  }
}

void top_kernels(AppState& st, const Summary& s) {
  text("Top kernels");
  if (!ImGui::BeginTable("##top", 4, ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV |
                                         ImGuiTableFlags_SizingFixedFit))
    return;
  ImGui::TableSetupColumn("Kernel");
  ImGui::TableSetupColumn("Calls");
  ImGui::TableSetupColumn("Total");
  ImGui::TableSetupColumn("% of run");
  ImGui::TableHeadersRow();
  for (const TopKernel& k : s.top_kernels) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::PushID(k.name.c_str());
    if (link(k.name)) st.sel.kernel = k.name, st.go(ViewId::kernels);
    ImGui::PopID();
    ImGui::TableNextColumn();
    text(std::to_string(k.calls));
    ImGui::TableNextColumn();
    text(fmt_ns(k.total_ns));
    ImGui::TableNextColumn();
    text(printf_string("%.1f%%", k.percent_of_run));
  }
  ImGui::EndTable();
}

}  // namespace

void draw_summary(AppState& st) {
  const Summary& s = st.cur->summary;
  text(s.script.empty() ? "(script unknown)" : s.script);
  if (!s.kiln_version.empty()) {
    ImGui::SameLine();
    text_disabled("kiln " + s.kiln_version);
  }
  textf("Duration %s", fmt_ns(s.duration_ns).c_str());
  time_split_bar(s);
  if (s.compile_background_ns > 0) text_disabled("compiling in the background: " + fmt_ns(s.compile_background_ns));
  ImGui::Spacing();
  if (ImGui::BeginTable("##numbers", 2, ImGuiTableFlags_SizingFixedFit)) {
    linked_number(st, "Graphs compiled", std::to_string(s.graphs), ViewId::graphs);
    linked_number(st, "Graph breaks",
                  printf_string("%llu at %llu sites", static_cast<unsigned long long>(s.graph_breaks),
                                static_cast<unsigned long long>(s.graph_break_sites)),
                  ViewId::breaks);
    linked_number(st, "Recompiles", std::to_string(s.recompiles), ViewId::recompiles);
    linked_number(st, "Guard failures", std::to_string(s.guard_failures), ViewId::recompiles);
    linked_number(st, "Kernel calls", fmt_count(s.kernel_calls), ViewId::kernels);
    linked_number(st, "Eager kernel time", fmt_ns(s.eager_kernel_ns), ViewId::kernels);
    linked_number(st, "Events", fmt_count(s.events), ViewId::timeline);
    plain_row("Dropped events", s.dropped_events ? fmt_count(s.dropped_events) + " (the stream fell behind)" : "0");
    ImGui::EndTable();
  }
  ImGui::Spacing();
  top_kernels(st, s);
}

}  // namespace kiln::inspect::ui
