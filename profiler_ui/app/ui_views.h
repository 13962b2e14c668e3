// The inspector's views, declared once: name (for --view and the ini file),
// tab title, and the function in view_<name>.cpp that draws it.
#pragma once

#include <string>

namespace kiln::inspect::ui {

struct AppState;

#define KILN_INSPECT_VIEWS(_)                                                       \
  _(summary, "Summary")       /* totals; each number opens its view */             \
  _(timeline, "Timeline")     /* lanes, zoom/pan, range stats, break markers */   \
  _(breaks, "Graph breaks")   /* sortable breaks, source line, stack, graphs */   \
  _(recompiles, "Recompiles") /* failed guards per region; storm flag */          \
  _(kernels, "Kernels")       /* kernel stats; graph nodes and generated code */  \
  _(graphs, "Graphs")         /* each graph's IR, ops, fused groups, guards */    \
  _(provenance, "Provenance") /* kernel -> nodes -> lines and line -> work */     \
  _(payback, "Compile payback") /* compile time against time saved */             \
  _(compare, "Compare")       /* two sessions side by side */

enum class ViewId {
#define KILN_VIEW_ENUM(name, title) name,
  KILN_INSPECT_VIEWS(KILN_VIEW_ENUM)
#undef KILN_VIEW_ENUM
};

#define KILN_VIEW_DECL(name, title) void draw_##name(AppState& st);
KILN_INSPECT_VIEWS(KILN_VIEW_DECL)
#undef KILN_VIEW_DECL

struct ViewInfo {
  ViewId id;
  const char* name;
  const char* title;
  void (*draw)(AppState&);
};

const ViewInfo* views_begin();
const ViewInfo* views_end();
const ViewInfo& view_info(ViewId id);
const ViewInfo* find_view(const std::string& name);  // null if unknown
std::string view_names();                            // "summary, timeline, ..."

}  // namespace kiln::inspect::ui
