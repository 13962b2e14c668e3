// The view table (see ui_views.h).
#include "profiler_ui/app/ui_views.h"

#include <iterator>

namespace kiln::inspect::ui {
namespace {

const ViewInfo kViews[] = {
#define KILN_VIEW_INFO(name, title) {ViewId::name, #name, title, &draw_##name},
    KILN_INSPECT_VIEWS(KILN_VIEW_INFO)
#undef KILN_VIEW_INFO
};

}  // namespace

const ViewInfo* views_begin() { return std::begin(kViews); }
const ViewInfo* views_end() { return std::end(kViews); }
const ViewInfo& view_info(ViewId id) { return kViews[static_cast<int>(id)]; }

const ViewInfo* find_view(const std::string& name) {
  for (const ViewInfo& v : kViews)
    if (name == v.name) return &v;
  return nullptr;
}

std::string view_names() {
  std::string out;
  for (const ViewInfo& v : kViews) out += (out.empty() ? "" : ", ") + std::string(v.name);
  return out;
}

}  // namespace kiln::inspect::ui
