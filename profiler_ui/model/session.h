// One recorded (or live) Kiln session as the inspector sees it: the session
// info, every event with its strings, the writer's drop count and whatever
// went wrong while loading. Immutable once built: the UI holds
// std::shared_ptr<const Session> snapshots and never locks.
//
// Events are stored in fixed-size chunks shared between snapshots, so a live
// session publishes a new snapshot by copying only its last, partial chunk.
// Event order is the recording order (threads interleaved by batch), not
// sorted by time; SessionIndex and Timeline sort what they need.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "traces/event.h"

namespace kiln::inspect {

// Where a session came from.
enum class SourceFormat : uint8_t { Kilntrace, ChromeJson, Live, Synthetic };
const char* source_format_name(SourceFormat f);  // "kilntrace", "chrome json", ...

struct SessionInfo {
  std::string script_path;             // as kiln was given it ("samples/train_gpt.py")
  std::string source_text;             // the script's source; empty for Chrome JSON written before kiln_session
  std::vector<std::string> argv;       // script arguments
  std::string kiln_version;            // empty for Chrome JSON written before kiln_session
  int64_t start_wall_ns = 0;           // Unix time in ns; 0 when unknown
  std::string origin;                  // file path or peer address, for titles and messages
  SourceFormat format = SourceFormat::Synthetic;
};

// Event times are clamped to +-kMaxTimeNs (about 3 years) and durations to
// [0, kMaxTimeNs] when added, so sums of them cannot overflow.
inline constexpr int64_t kMaxTimeNs = int64_t(1) << 56;

class Session {
 public:
  static constexpr size_t kChunkShift = 16;  // 65536 events / strings per chunk
  static constexpr size_t kChunkSize = size_t(1) << kChunkShift;
  using EventChunk = std::vector<trace::Event>;
  using StringChunk = std::vector<std::string>;

  // A session from plain vectors (tests, benchmarks, tools). strings[0] must
  // be "" (added when missing); events' string ids index `strings` (an id
  // past the end reads as "").
  static std::shared_ptr<const Session> from_events(SessionInfo info, std::vector<trace::Event> events,
                                                    std::vector<std::string> strings,
                                                    uint64_t dropped = 0);

  const SessionInfo& info() const { return info_; }

  size_t event_count() const { return event_count_; }
  const trace::Event& event(size_t i) const {
    return (*event_chunks_[i >> kChunkShift])[i & (kChunkSize - 1)];
  }
  // The chunks in order; each full but the last. For fast loops.
  const std::vector<std::shared_ptr<const EventChunk>>& event_chunks() const { return event_chunks_; }
  template <typename Fn>
  void for_each_event(Fn&& fn) const {  // fn(size_t index, const trace::Event&)
    size_t i = 0;
    for (const auto& c : event_chunks_)
      for (const trace::Event& e : *c) fn(i++, e);
  }

  // The text of a string id; "" for 0 and for ids the session never defined.
  std::string_view str(trace::StrId id) const;
  size_t string_count() const { return string_count_; }

  uint64_t dropped() const { return dropped_; }  // events the writer reported lost
  // Problems met while loading (a truncated file keeps the events read before
  // the cut and says so here). Empty for a clean session.
  const std::vector<std::string>& load_errors() const { return load_errors_; }
  bool ended() const { return ended_; }           // the stream/file ended cleanly
  uint64_t generation() const { return generation_; }  // live: counts snapshots; files: 1

  // Time bounds over all timed events, ns since the session start
  // (first_ns = min ts, last_ns = max ts + dur); 0, 0 when there are none.
  int64_t first_ns() const { return first_ns_; }
  int64_t last_ns() const { return last_ns_; }
  int64_t duration_ns() const { return last_ns_ - first_ns_; }

 private:
  friend class SessionBuilder;
  Session() = default;

  SessionInfo info_;
  std::vector<std::shared_ptr<const EventChunk>> event_chunks_;
  std::vector<std::shared_ptr<const StringChunk>> string_chunks_;
  size_t event_count_ = 0, string_count_ = 0;
  uint64_t dropped_ = 0;
  std::vector<std::string> load_errors_;
  bool ended_ = false;
  uint64_t generation_ = 0;
  int64_t first_ns_ = 0, last_ns_ = 0;
};

// Accumulates a session and publishes immutable snapshots of it. Used by the
// loaders and by LiveSession; not thread-safe (one owner at a time).
class SessionBuilder {
 public:
  SessionBuilder();
  void set_info(SessionInfo info);
  // Defines string id `id` (ids must arrive in order: id == string_count()).
  void add_string(std::string s);
  void add_events(const trace::Event* events, size_t n);
  void add_event(const trace::Event& e) { add_events(&e, 1); }
  void set_dropped(uint64_t total) { dropped_ = total; }
  void add_load_error(std::string message) { load_errors_.push_back(std::move(message)); }
  void set_ended(bool ended) { ended_ = ended; }

  size_t string_count() const { return string_count_; }
  size_t event_count() const { return event_count_; }
  const SessionInfo& info() const { return info_; }

  // A snapshot sharing every full chunk with the builder; O(last chunk).
  std::shared_ptr<const Session> publish();

 private:
  template <typename T>
  struct Chunked {
    std::vector<std::shared_ptr<const std::vector<T>>> full;
    std::vector<T> tail;
  };
  SessionInfo info_;
  Chunked<trace::Event> events_;
  Chunked<std::string> strings_;
  size_t event_count_ = 0, string_count_ = 0;
  uint64_t dropped_ = 0;
  std::vector<std::string> load_errors_;
  bool ended_ = false;
  uint64_t generation_ = 0;
  int64_t first_ns_ = INT64_MAX, last_ns_ = INT64_MIN;
};

}  // namespace kiln::inspect
