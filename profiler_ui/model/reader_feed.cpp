// Copies a TraceReader's frames into a SessionBuilder.
#include "profiler_ui/model/reader_feed.h"

namespace kiln::inspect {

SessionInfo session_info_of(const trace::TraceReader& reader, SourceFormat format) {
  SessionInfo info;
  const trace::SessionInfo& s = reader.session();
  info.script_path = s.script_path;
  info.source_text = s.source_text;
  info.argv = s.argv;
  info.kiln_version = s.kiln_version;
  info.start_wall_ns = s.start_wall_ns;
  info.origin = reader.name();
  info.format = format;
  return info;
}

void feed_builder(const trace::TraceReader& reader, trace::ReadResult r, SessionBuilder& b, SourceFormat format) {
  using trace::ReadResult;
  switch (r) {
    case ReadResult::Session:
      b.set_info(session_info_of(reader, format));
      break;
    case ReadResult::Strings: {
      const trace::StringTable& t = reader.strings();
      for (size_t id = b.string_count(); id < t.size(); ++id) b.add_string(std::string(t.str(trace::StrId(id))));
      break;
    }
    case ReadResult::Events: {
      auto ev = reader.events();
      b.add_events(ev.data(), ev.size());
      break;
    }
    case ReadResult::Dropped:
      b.set_dropped(reader.dropped());
      break;
    case ReadResult::End:
      b.set_ended(true);
      break;
    case ReadResult::Pending:
      break;
  }
}

}  // namespace kiln::inspect
