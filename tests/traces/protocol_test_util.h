// Helpers shared by the protocol, stream and reader fuzz tests: sample
// sessions and events, a field-by-field event rendering (strings resolved),
// and draining a TraceReader.
#pragma once

#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "traces/event.h"
#include "traces/reader.h"
#include "traces/recorder.h"

namespace kiln::trace::test_util {

inline SessionInfo sample_info() {
  SessionInfo info;
  info.script_path = "samples/train_mlp.py";
  info.argv = {"kiln", "run", "--stream", "127.0.0.1:9000", "samples/train_mlp.py", ""};
  info.kiln_version = "0.1.0";
  static const char source[] = "import torch\nx = 'caf\xc3\xa9'\n\0tail";  // a NUL inside
  info.source_text = std::string(source, sizeof source - 1);
  info.start_wall_ns = 1732900000123456789;
  return info;
}

// Event i of a deterministic sequence covering every kind, category and
// field, with extreme values. Interns its strings into `strings`.
inline Event sample_event(StringTable& strings, uint64_t i) {
  Event e;
  e.kind = static_cast<EventKind>(i % 9);
  e.cat = static_cast<Category>(i % 7);
  e.device = static_cast<uint16_t>(i % 3 == 0 ? 0xffff : i % 3);
  e.tid = static_cast<uint32_t>(i * 2654435761u);
  e.ts_ns = static_cast<int64_t>(i) * 1000 - (i % 5 == 0 ? std::numeric_limits<int64_t>::max() : 0);
  e.dur_ns = static_cast<int64_t>(i % 11) * 17;
  e.name = strings.intern("name" + std::to_string(i % 50));
  e.loc = {strings.intern("file" + std::to_string(i % 3) + ".py"), static_cast<int32_t>(i % 200),
           -static_cast<int32_t>(i % 4)};
  e.graph_id = i % 7 == 0 ? ~uint64_t{0} : i;
  e.flow_id = i << 32;
  e.a = i * 3;
  e.b = ~i;
  e.c = i * i;
  e.value = i % 13 == 0 ? -0.0 : static_cast<double>(i) / 3.0;
  e.text = i % 2 ? strings.intern("text " + std::to_string(i)) : 0;
  e.detail = i % 3 ? strings.intern("detail \xe2\x9c\x93") : 0;
  e.stack = strings.intern("f:12 <- g:" + std::to_string(i % 30));
  return e;
}

inline std::vector<Event> sample_events(StringTable& strings, uint64_t n, uint64_t first = 0) {
  std::vector<Event> v;
  for (uint64_t i = first; i < first + n; ++i) v.push_back(sample_event(strings, i));
  return v;
}

// Every field, strings resolved: equal renderings mean equal events even when
// two string tables number their strings differently.
inline std::string describe(const Event& e, const StringTable& s) {
  auto str = [&](StrId id) { return "'" + std::string(s.str(id)) + "'"; };
  uint64_t bits;
  std::memcpy(&bits, &e.value, 8);
  return std::string(event_kind_name(e.kind)) + " " + category_name(e.cat) +
         " dev=" + std::to_string(e.device) + " tid=" + std::to_string(e.tid) +
         " ts=" + std::to_string(e.ts_ns) + " dur=" + std::to_string(e.dur_ns) +
         " name=" + str(e.name) + " loc=" + str(e.loc.file) + ":" + std::to_string(e.loc.line) +
         ":" + std::to_string(e.loc.col) + " graph=" + std::to_string(e.graph_id) +
         " flow=" + std::to_string(e.flow_id) + " a=" + std::to_string(e.a) +
         " b=" + std::to_string(e.b) + " c=" + std::to_string(e.c) +
         " value=" + std::to_string(bits) + " text=" + str(e.text) + " detail=" + str(e.detail) +
         " stack=" + str(e.stack);
}

inline std::vector<std::string> describe_all(const std::vector<Event>& v, const StringTable& s) {
  std::vector<std::string> out;
  for (const Event& e : v) out.push_back(describe(e, s));
  return out;
}

// Everything a reader yields, up to END or the first error.
struct Collected {
  bool has_session = false;
  SessionInfo info;
  std::vector<std::string> events;  // describe()d
  uint64_t dropped = 0;
  bool ended = false;
  std::string error;  // the TraceError message, if reading failed
};

inline Collected collect(TraceReader& r) {
  Collected c;
  try {
    for (ReadResult res; (res = r.next()) != ReadResult::End;) {
      if (res == ReadResult::Events)
        for (const Event& e : r.events()) c.events.push_back(describe(e, r.strings()));
    }
    c.ended = true;
  } catch (const TraceError& e) {
    c.error = e.what();
  }
  c.has_session = r.has_session();
  if (c.has_session) c.info = r.session();
  c.dropped = r.dropped();
  return c;
}

}  // namespace kiln::trace::test_util
