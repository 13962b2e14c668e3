// Session storage and the builder that publishes snapshots sharing chunks.
#include "profiler_ui/model/session.h"

#include <algorithm>

namespace kiln::inspect {

const char* source_format_name(SourceFormat f) {
  switch (f) {
    case SourceFormat::Kilntrace: return "kilntrace";
    case SourceFormat::ChromeJson: return "chrome json";
    case SourceFormat::Live: return "live";
    case SourceFormat::Synthetic: return "synthetic";
  }
  return "unknown";
}

std::string_view Session::str(trace::StrId id) const {
  if (id >= string_count_) return {};
  return (*string_chunks_[id >> kChunkShift])[id & (kChunkSize - 1)];
}

std::shared_ptr<const Session> Session::from_events(SessionInfo info, std::vector<trace::Event> events,
                                                    std::vector<std::string> strings, uint64_t dropped) {
  SessionBuilder b;
  b.set_info(std::move(info));
  size_t first = !strings.empty() && strings[0].empty() ? 1 : 0;  // the builder defines id 0 itself
  for (size_t i = first; i < strings.size(); ++i) b.add_string(std::move(strings[i]));
  b.add_events(events.data(), events.size());
  b.set_dropped(dropped);
  b.set_ended(true);
  return b.publish();
}

// ---------------------------------------------------------------------------
// SessionBuilder.

SessionBuilder::SessionBuilder() { add_string(""); }

void SessionBuilder::set_info(SessionInfo info) { info_ = std::move(info); }

void SessionBuilder::add_string(std::string s) {
  strings_.tail.push_back(std::move(s));
  ++string_count_;
  if (strings_.tail.size() == Session::kChunkSize) {
    strings_.full.push_back(std::make_shared<const Session::StringChunk>(std::move(strings_.tail)));
    strings_.tail = {};
  }
}

void SessionBuilder::add_events(const trace::Event* events, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    // Hostile files may hold any 64-bit times: clamping here keeps every sum
    // and difference downstream far from overflow.
    trace::Event e = events[i];
    e.ts_ns = std::clamp(e.ts_ns, -kMaxTimeNs, kMaxTimeNs);
    e.dur_ns = std::clamp(e.dur_ns, int64_t(0), kMaxTimeNs);
    first_ns_ = std::min(first_ns_, e.ts_ns);
    last_ns_ = std::max(last_ns_, e.ts_ns + e.dur_ns);
    if (events_.tail.capacity() == 0) events_.tail.reserve(std::min<size_t>(Session::kChunkSize, 4096));
    events_.tail.push_back(e);
    if (events_.tail.size() == Session::kChunkSize) {
      events_.full.push_back(std::make_shared<const Session::EventChunk>(std::move(events_.tail)));
      events_.tail = {};
    }
  }
  event_count_ += n;
}

std::shared_ptr<const Session> SessionBuilder::publish() {
  auto s = std::shared_ptr<Session>(new Session());
  s->info_ = info_;
  s->event_chunks_ = events_.full;
  if (!events_.tail.empty()) s->event_chunks_.push_back(std::make_shared<const Session::EventChunk>(events_.tail));
  s->string_chunks_ = strings_.full;
  if (!strings_.tail.empty()) s->string_chunks_.push_back(std::make_shared<const Session::StringChunk>(strings_.tail));
  s->event_count_ = event_count_;
  s->string_count_ = string_count_;
  s->dropped_ = dropped_;
  s->load_errors_ = load_errors_;
  s->ended_ = ended_;
  s->generation_ = ++generation_;
  if (event_count_ > 0) {
    s->first_ns_ = first_ns_;
    s->last_ns_ = last_ns_;
  }
  return s;
}

}  // namespace kiln::inspect
