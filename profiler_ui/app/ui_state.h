// What the views share: the session snapshot on screen (and the one to
// compare against), the model's derived tables for it, the current view,
// cross-view selection (so a click in one view lands in another), per-view
// UI state, and the requests views make of the app (open a file, listen).
// Owned by ui::App, touched only on the UI thread.
#pragma once

#include <imgui.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "profiler_ui/app/ui_views.h"
#include "profiler_ui/model/analysis.h"
#include "profiler_ui/model/compare.h"

namespace kiln::inspect::ui {

// The thing the user last picked; views highlight it and scroll to it.
struct Selection {
  int break_row = -1;      // row of Derived::breaks
  int recompile_row = -1;  // row of Derived::recompiles
  std::string kernel;      // kernel name
  uint64_t graph = 0;      // graph id
  SourceLoc line;          // a script line (provenance)
};

// A request from a view (or the open panel) that the app carries out
// between frames, because it replaces the session the views are drawing.
struct Request {
  enum Kind { None, OpenFile, CompareFile, Listen, CloseCompare } kind = None;
  std::string arg;
};

struct TimelineState {
  double view_start_ns = 0, view_end_ns = 0;  // visible range; equal: fit the session
  double sel_start_ns = 0, sel_end_ns = 0;    // selected range; equal: none
  bool selecting = false;                     // a range drag is in progress
  TimelineView lod;                           // the last query's result (buffers reused)
  ImVec2 lanes_origin;                        // last frame: top-left of lane 0's data area
  float row_height = 0;                       // last frame: one depth's height
  std::optional<RangeStats> stats;            // of the selected range, computed on release
};

struct AppState {
  std::shared_ptr<const Analysis> cur;         // null while no session is analyzed
  std::shared_ptr<const Analysis> other;       // the session to compare with (null: none)
  std::shared_ptr<const Comparison> comparison;  // cur (A) against other (B)
  std::string error;                       // the banner; "" when all is well
  std::string status;                      // one line about the source
  bool live = false;

  ViewId view = ViewId::summary;
  bool switch_view = false;     // select `view`'s tab this frame
  bool scroll_to_sel = false;   // the view scrolls its table to the selection once
  void go(ViewId v) { view = v, switch_view = true, scroll_to_sel = true; }

  Selection sel;
  TimelineState timeline;
  // One filter per table view, so each keeps its text while switching.
  std::string filters[16];
  std::string& filter(ViewId v) { return filters[static_cast<int>(v)]; }
  bool focus_filter = false;  // Ctrl+F: the visible view focuses its filter box

  int bench_frame = -1;  // >= 0 in --bench-frames: the timeline pans each frame
  Request request;
  // The open panel's fields.
  std::string open_path, compare_path, listen_address = "127.0.0.1:9000", last_file;
};

}  // namespace kiln::inspect::ui
