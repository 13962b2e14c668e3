// graph_breaks(): break sites grouped by category and location, with the
// interpreted time after each instance and the graphs around it.
#include "profiler_ui/model/graph_breaks.h"

#include <algorithm>
#include <map>

namespace kiln::inspect {

std::string_view source_line(std::string_view source, int32_t line) {
  if (line <= 0) return {};
  size_t pos = 0;
  for (int32_t l = 1; l < line; ++l) {
    pos = source.find('\n', pos);
    if (pos == std::string_view::npos) return {};
    ++pos;
  }
  size_t end = source.find('\n', pos);
  std::string_view text = source.substr(pos, end == std::string_view::npos ? std::string_view::npos : end - pos);
  if (!text.empty() && text.back() == '\r') text.remove_suffix(1);
  return text;
}

namespace {

void add_unique(std::vector<uint64_t>& v, uint64_t id) {
  if (id != 0 && std::find(v.begin(), v.end(), id) == v.end()) v.push_back(id);
}

// The source text for a location: the session's script, when the break is in it.
std::string line_text(const Session& s, const SourceLoc& loc) {
  const SessionInfo& info = s.info();
  if (info.source_text.empty() || loc.file != info.script_path) return {};
  return std::string(source_line(info.source_text, loc.line));
}

}  // namespace

std::vector<BreakRow> graph_breaks(const SessionIndex& index) {
  const Session& s = index.session();
  using Key = std::tuple<trace::StrId, trace::StrId, int32_t>;  // category, file, line
  std::map<Key, BreakRow> rows;
  std::map<Key, std::map<trace::StrId, uint64_t>> stacks;
  for (size_t i : index.breaks()) {
    const trace::Event& e = s.event(i);
    Key key{e.detail, e.loc.file, e.loc.line};
    BreakRow& r = rows[key];
    if (r.count == 0) {
      r.category = std::string(s.str(e.detail));
      r.message = std::string(s.str(e.text));
      r.loc = SourceLoc{std::string(s.str(e.loc.file)), e.loc.line, e.loc.col};
      r.first_ts_ns = e.ts_ns;
    }
    ++r.count;
    r.time_lost_ns += index.gap_end_after(e.ts_ns) - e.ts_ns;
    // The graph the break cut, when recorded (0 in older recordings or when it ran uncompiled).
    add_unique(r.graphs_before, e.graph_id != 0 ? e.graph_id : index.graph_before(e.ts_ns));
    add_unique(r.graphs_after, index.graph_after(e.ts_ns));
    r.events.push_back(i);
    ++stacks[key][e.stack];
  }
  std::vector<BreakRow> out;
  for (auto& [key, r] : rows) {
    trace::StrId best = 0;
    uint64_t n = 0;
    for (auto [stack, c] : stacks[key])
      if (c > n) best = stack, n = c;
    r.stack = std::string(s.str(best));
    r.source_line = line_text(s, r.loc);
    out.push_back(std::move(r));
  }
  std::stable_sort(out.begin(), out.end(), [](const BreakRow& a, const BreakRow& b) {
    if (a.time_lost_ns != b.time_lost_ns) return a.time_lost_ns > b.time_lost_ns;
    return a.count > b.count;
  });
  return out;
}

SortValue break_sort_key(const BreakRow& r, int column) {
  switch (BreakColumn(column)) {
    case BreakColumn::Category: return std::string_view(r.category);
    case BreakColumn::Message: return std::string_view(r.message);
    case BreakColumn::Location: return int64_t(r.loc.line);  // breaks are nearly all in the script: line order reads best
    case BreakColumn::Count: return int64_t(r.count);
    case BreakColumn::TimeLost: return r.time_lost_ns;
  }
  return int64_t(0);
}

bool break_matches(const BreakRow& r, const TextFilter& f) {
  std::string loc = r.loc.str();
  return f.matches({r.category, r.message, loc, r.source_line, r.stack});
}

}  // namespace kiln::inspect
