// Timeline view: one lane per interpreter / compiler / CPU worker / GPU
// stream, events nested by depth, under a time ruler. The wheel zooms around
// the mouse, a left drag pans, a right drag (or shift + left drag) selects a
// range and shows its statistics; hovering an event shows its args. Graph
// breaks and recompiles are vertical markers, and the interpreted gap after
// each break is shaded. What is drawn comes from the model's level-of-detail
// query (off-screen events culled, sub-pixel runs merged), so a frame costs
// about the same for 1K or 1M events.
#include <imgui.h>

#include <algorithm>
#include <cmath>

#include "profiler_ui/app/ui_state.h"
#include "profiler_ui/app/ui_text.h"

namespace kiln::inspect::ui {
namespace {

// Pixel geometry of one frame of the view.
struct Geometry {
  float label_w, row_h, ruler_h;
  ImVec2 origin;  // top-left of the lanes' data area (screen space, scrolled)
  float width;    // of the data area
  double t0, t1;  // visible range (ns)
  double x_of(double t) const { return origin.x + (t - t0) / (t1 - t0) * width; }
  double t_of(float x) const { return t0 + (static_cast<double>(x) - origin.x) / width * (t1 - t0); }
};

ImU32 event_color(const Session& s, const trace::Event& e, bool merged) {
  ImU32 c;
  switch (e.kind) {
    case trace::EventKind::Kernel:
      c = is_fused_kernel_name(s.str(e.name)) ? IM_COL32(70, 165, 90, 255) : IM_COL32(185, 165, 70, 255);
      break;
    case trace::EventKind::GpuKernel: c = IM_COL32(160, 100, 200, 255); break;
    case trace::EventKind::MemCopy: c = IM_COL32(90, 160, 200, 255); break;
    default:
      c = e.cat == trace::Category::interpreter ? IM_COL32(200, 135, 65, 255)
          : e.cat == trace::Category::compile   ? IM_COL32(80, 115, 200, 255)
                                                : IM_COL32(120, 120, 140, 255);
  }
  if (!merged) return c;
  // Merged runs are darker: "many small things here", never one event.
  ImVec4 v = ImGui::ColorConvertU32ToFloat4(c);
  return ImGui::ColorConvertFloat4ToU32(ImVec4(v.x * 0.65f, v.y * 0.65f, v.z * 0.65f, 1.0f));
}

std::string event_tooltip(const Session& s, const trace::Event& e) {
  std::string t = std::string(s.str(e.name)) + "\n" + trace::event_kind_name(e.kind) + ", " +
                  trace::category_name(e.cat) + "\nstart " + fmt_ns(e.ts_ns) + ", duration " + fmt_ns(e.dur_ns);
  if (e.loc.file) t += printf_string("\nat %s:%d", std::string(s.str(e.loc.file)).c_str(), e.loc.line);
  if (e.graph_id) t += "\ngraph " + std::to_string(e.graph_id);
  if (e.kind == trace::EventKind::Kernel || e.kind == trace::EventKind::GpuKernel || e.kind == trace::EventKind::MemCopy)
    t += "\nread " + fmt_bytes(e.a) + ", written " + fmt_bytes(e.b) + ", " + fmt_count(e.c) + " flops";
  if (e.text) t += "\n" + std::string(s.str(e.text));
  if (e.detail) t += "\n" + std::string(s.str(e.detail));
  if (e.stack) t += "\nstack: " + std::string(s.str(e.stack));
  return t;
}

void ensure_range(TimelineState& ts, const Timeline& tl) {
  double lo = static_cast<double>(tl.start_ns()), hi = static_cast<double>(tl.end_ns());
  if (hi <= lo) hi = lo + 1000;
  if (ts.view_end_ns <= ts.view_start_ns) ts.view_start_ns = lo, ts.view_end_ns = hi;
  // Never zoom in past 100 ns across the view, nor out past 4x the session.
  double span = std::clamp(ts.view_end_ns - ts.view_start_ns, 100.0, (hi - lo) * 4);
  double mid = (ts.view_start_ns + ts.view_end_ns) / 2;
  ts.view_start_ns = mid - span / 2, ts.view_end_ns = mid + span / 2;
}

// --bench-frames: sweep zoom and position so every frame queries anew.
void bench_motion(TimelineState& ts, const Timeline& tl, int frame) {
  double lo = static_cast<double>(tl.start_ns()), hi = static_cast<double>(tl.end_ns());
  double f = (frame % 60) / 60.0;
  double span = (hi - lo) * (0.02 + 0.98 * f);
  double start = lo + (hi - lo - span) * std::fmod(frame * 0.137, 1.0);
  ts.view_start_ns = start, ts.view_end_ns = start + span;
}

void ruler(const Geometry& g, ImDrawList* dl, ImVec2 top) {
  double span = g.t1 - g.t0;
  // A tick every 1, 2 or 5 x 10^k ns, at least ~90 px apart.
  double min_step = span / (g.width / 90.0);
  double base = std::pow(10.0, std::floor(std::log10(min_step))), step = base * 10;
  for (double m : {1.0, 2.0, 5.0})
    if (base * m >= min_step) {
      step = base * m;
      break;
    }
  dl->AddRectFilled(top, ImVec2(g.origin.x + g.width, top.y + g.ruler_h), IM_COL32(35, 35, 40, 255));
  for (double t = std::ceil(g.t0 / step) * step; t < g.t1; t += step) {
    float x = static_cast<float>(g.x_of(t));
    dl->AddLine(ImVec2(x, top.y + g.ruler_h * 0.55f), ImVec2(x, top.y + g.ruler_h), IM_COL32(170, 170, 170, 255));
    draw_text(dl, ImVec2(x + 3, top.y), IM_COL32(200, 200, 200, 255), fmt_ns(static_cast<int64_t>(t)));
  }
}

// Markers and gaps over [y0, y1].
void markers(const Geometry& g, const TimelineView& v, ImDrawList* dl, float y0, float y1) {
  for (const Gap& gap : v.gaps) {
    float x0 = std::max(g.origin.x + gap.x0, g.origin.x), x1 = std::min(g.origin.x + gap.x1, g.origin.x + g.width);
    if (x1 > x0) dl->AddRectFilled(ImVec2(x0, y0), ImVec2(x1, y1), IM_COL32(220, 60, 60, 40));
  }
  for (const Marker& m : v.markers) {
    ImU32 c = m.kind == MarkerKind::GraphBreak  ? IM_COL32(235, 70, 70, 220)
              : m.kind == MarkerKind::Recompile ? IM_COL32(230, 90, 230, 220)
                                                : IM_COL32(240, 160, 60, 160);
    float x = g.origin.x + m.x;
    dl->AddLine(ImVec2(x, y0), ImVec2(x, y1), c, m.count > 1 ? 2.0f : 1.0f);
    dl->AddTriangleFilled(ImVec2(x - 4, y0), ImVec2(x + 4, y0), ImVec2(x, y0 + 6), c);
  }
}

// Pan, zoom and range selection on the data area item.
void interact(TimelineState& ts, const Geometry& g, const Timeline& tl) {
  ImGuiIO& io = ImGui::GetIO();
  bool hovered = ImGui::IsItemHovered();
  if (hovered && io.MouseWheel != 0) {
    double at = g.t_of(io.MousePos.x), k = std::pow(0.8, io.MouseWheel);
    ts.view_start_ns = at - (at - ts.view_start_ns) * k;
    ts.view_end_ns = at + (ts.view_end_ns - at) * k;
  }
  bool select_drag = ImGui::IsMouseDragging(ImGuiMouseButton_Right) ||
                     (io.KeyShift && ImGui::IsMouseDragging(ImGuiMouseButton_Left));
  if (ImGui::IsItemActive() && !io.KeyShift && ImGui::IsMouseDragging(ImGuiMouseButton_Left)) {
    double dt = -static_cast<double>(io.MouseDelta.x) / g.width * (g.t1 - g.t0);
    ts.view_start_ns += dt, ts.view_end_ns += dt;
  }
  if (hovered && (ImGui::IsMouseClicked(ImGuiMouseButton_Right) || (io.KeyShift && ImGui::IsMouseClicked(0)))) {
    ts.selecting = true;
    ts.sel_start_ns = ts.sel_end_ns = g.t_of(io.MousePos.x);
  }
  if (ts.selecting && select_drag) ts.sel_end_ns = g.t_of(io.MousePos.x);
  if (ts.selecting && !ImGui::IsMouseDown(ImGuiMouseButton_Right) && !ImGui::IsMouseDown(ImGuiMouseButton_Left)) {
    ts.selecting = false;
    if (ts.sel_end_ns < ts.sel_start_ns) std::swap(ts.sel_start_ns, ts.sel_end_ns);
    ts.stats.reset();
    if (ts.sel_end_ns > ts.sel_start_ns)
      ts.stats = tl.range_stats(static_cast<int64_t>(ts.sel_start_ns), static_cast<int64_t>(ts.sel_end_ns));
  }
  // Keys while the view is hovered: A/D pan, W/S zoom (as in Perfetto).
  if (hovered && !io.WantTextInput) {
    double span = ts.view_end_ns - ts.view_start_ns, mid = (ts.view_start_ns + ts.view_end_ns) / 2;
    if (ImGui::IsKeyPressed('A') || ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_LeftArrow)))
      ts.view_start_ns -= span * 0.1, ts.view_end_ns -= span * 0.1;
    if (ImGui::IsKeyPressed('D') || ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_RightArrow)))
      ts.view_start_ns += span * 0.1, ts.view_end_ns += span * 0.1;
    if (ImGui::IsKeyPressed('W')) ts.view_start_ns = mid - span * 0.4, ts.view_end_ns = mid + span * 0.4;
    if (ImGui::IsKeyPressed('S')) ts.view_start_ns = mid - span * 0.625, ts.view_end_ns = mid + span * 0.625;
  }
}

void lanes(AppState& st, const Timeline& tl, Geometry& g) {
  const Session& s = *st.cur->session;
  TimelineState& ts = st.timeline;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const std::vector<Lane>& lanes = tl.lanes();
  float total_h = 0;
  for (const Lane& l : lanes) total_h += static_cast<float>(std::max(l.depths, 1)) * g.row_h + g.row_h * 0.5f;
  ImVec2 top = ImGui::GetCursorScreenPos();
  g.origin = ImVec2(top.x + g.label_w, top.y);
  ts.lanes_origin = g.origin, ts.row_height = g.row_h;
  ImGui::SetCursorScreenPos(g.origin);
  ImGui::InvisibleButton("##lanes", ImVec2(g.width, std::max(total_h, ImGui::GetContentRegionAvail().y)),
                         ImGuiButtonFlags_MouseButtonLeft | ImGuiButtonFlags_MouseButtonRight);
  interact(ts, g, tl);
  float clip_top = ImGui::GetWindowPos().y, clip_bottom = clip_top + ImGui::GetWindowHeight();
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  bool hovered = ImGui::IsItemHovered();
  std::optional<size_t> hover_event;
  uint32_t hover_merged = 0;
  float y = top.y;
  for (size_t li = 0; li < lanes.size() && li < ts.lod.lanes.size(); ++li) {
    const Lane& lane = lanes[li];
    float lane_h = static_cast<float>(std::max(lane.depths, 1)) * g.row_h;
    if (y + lane_h >= clip_top && y <= clip_bottom) {
      dl->AddRectFilled(ImVec2(top.x, y), ImVec2(g.origin.x + g.width, y + lane_h), li % 2 ? IM_COL32(30, 30, 34, 255) : IM_COL32(24, 24, 28, 255));
      draw_text(dl, ImVec2(top.x + 4, y + 1), IM_COL32(220, 220, 220, 255), lane.name, g.origin.x - 4);
      for (const DrawItem& it : ts.lod.lanes[li].items) {
        float x0 = std::max(g.origin.x + it.x0, g.origin.x), x1 = std::min(g.origin.x + std::max(it.x1, it.x0 + 1), g.origin.x + g.width);
        float iy = y + it.depth * g.row_h;
        const trace::Event& e = s.event(it.event);
        dl->AddRectFilled(ImVec2(x0, iy + 1), ImVec2(x1, iy + g.row_h - 1), event_color(s, e, it.count > 1));
        if (it.count == 1 && x1 - x0 > 40)
          draw_text(dl, ImVec2(x0 + 3, iy + 1), IM_COL32(15, 15, 15, 255), s.str(e.name), x1 - 2);
        if (hovered && mouse.x >= x0 && mouse.x <= x1 && mouse.y >= iy && mouse.y < iy + g.row_h) {
          if (it.count == 1) hover_event = it.event;
          else hover_merged = it.count;
        }
      }
    }
    y += lane_h + g.row_h * 0.5f;
  }
  markers(g, ts.lod, dl, top.y, y);
  if (ts.sel_end_ns != ts.sel_start_ns) {
    float a = static_cast<float>(g.x_of(std::min(ts.sel_start_ns, ts.sel_end_ns)));
    float b = static_cast<float>(g.x_of(std::max(ts.sel_start_ns, ts.sel_end_ns)));
    dl->AddRectFilled(ImVec2(a, top.y), ImVec2(b, y), IM_COL32(120, 170, 255, 45));
    dl->AddRect(ImVec2(a, top.y), ImVec2(b, y), IM_COL32(120, 170, 255, 160));
  }
  if (hover_event) tooltip(event_tooltip(s, s.event(*hover_event)));
  else if (hover_merged) tooltip(printf_string("%u events merged here (zoom in)", hover_merged));
  else if (hovered)
    for (const Marker& m : ts.lod.markers)
      if (std::abs(g.origin.x + m.x - mouse.x) < 3) {
        tooltip(event_tooltip(s, s.event(m.event)));
        break;
      }
}

void range_panel(TimelineState& ts) {
  if (!ts.stats) return;
  const RangeStats& r = *ts.stats;
  textf("Selection %s .. %s (%s): %zu events, %llu graph breaks, %llu recompiles", fmt_ns(r.start_ns).c_str(),
        fmt_ns(r.end_ns).c_str(), fmt_ns(r.end_ns - r.start_ns).c_str(), r.events,
        static_cast<unsigned long long>(r.graph_breaks), static_cast<unsigned long long>(r.recompiles));
  if (!ImGui::BeginTable("##range", 3, ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_ScrollY,
                         ImVec2(0, ImGui::GetTextLineHeightWithSpacing() * 7)))
    return;
  ImGui::TableSetupColumn("Name");
  ImGui::TableSetupColumn("Count");
  ImGui::TableSetupColumn("Time in range");
  ImGui::TableHeadersRow();
  for (const RangeStats::NameTime& n : r.by_name) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    text(n.name);
    ImGui::TableNextColumn();
    text(std::to_string(n.count));
    ImGui::TableNextColumn();
    text(fmt_ns(n.ns));
  }
  ImGui::EndTable();
}

}  // namespace

void draw_timeline(AppState& st) {
  const Timeline& tl = *st.cur->timeline;
  TimelineState& ts = st.timeline;
  if (st.bench_frame >= 0) bench_motion(ts, tl, st.bench_frame);
  ensure_range(ts, tl);
  if (ImGui::Button("Fit")) ts.view_start_ns = ts.view_end_ns = 0, ensure_range(ts, tl);
  ImGui::SameLine();
  if (ImGui::Button("Clear selection")) ts.sel_start_ns = ts.sel_end_ns = 0, ts.stats.reset();
  ImGui::SameLine();
  text_disabled("wheel: zoom   drag: pan   right drag / shift+drag: select   A/D W/S: pan/zoom");
  ImGui::SameLine();
  text_colored(IM_COL32(235, 70, 70, 255), "| break");
  ImGui::SameLine();
  text_colored(IM_COL32(230, 90, 230, 255), "| recompile");
  Geometry g;
  g.row_h = ImGui::GetTextLineHeight() + 4;
  g.ruler_h = ImGui::GetTextLineHeight() + 6;
  g.label_w = ImGui::GetFontSize() * 9;
  g.width = std::max(ImGui::GetContentRegionAvail().x - g.label_w - ImGui::GetStyle().ScrollbarSize, 50.0f);
  g.t0 = ts.view_start_ns, g.t1 = ts.view_end_ns;
  tl.query(static_cast<int64_t>(g.t0), static_cast<int64_t>(std::ceil(g.t1)), g.width, 1.0f, ts.lod);
  ImVec2 top = ImGui::GetCursorScreenPos();
  g.origin = ImVec2(top.x + g.label_w, top.y);
  ruler(g, ImGui::GetWindowDrawList(), top);
  ImGui::Dummy(ImVec2(0, g.ruler_h));
  float stats_h = ts.stats ? ImGui::GetTextLineHeightWithSpacing() * 9 : 0;
  ImGui::BeginChild("##tl_lanes", ImVec2(0, ImGui::GetContentRegionAvail().y - stats_h), false,
                    ImGuiWindowFlags_NoScrollWithMouse);
  lanes(st, tl, g);
  ImGui::EndChild();
  range_panel(ts);
}

}  // namespace kiln::inspect::ui
