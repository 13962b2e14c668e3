// Encoding and decoding of the Kiln trace protocol (the spec is protocol.h).
#include "traces/protocol.h"

#include <algorithm>
#include <bit>
#include <type_traits>

namespace kiln::trace {

namespace {

constexpr uint8_t kEventKindCount = 0
#define KILN_COUNT_ONE(k) +1
    KILN_EVENT_KINDS(KILN_COUNT_ONE);
constexpr uint8_t kCategoryCount = 0 KILN_EVENT_CATEGORIES(KILN_COUNT_ONE);
#undef KILN_COUNT_ONE

// ---------------------------------------------------------------- little-endian writing

void put_u8(std::string& out, uint8_t v) { out.push_back(static_cast<char>(v)); }

template <typename T>
void put_le(std::string& out, T v) {
  using U = std::make_unsigned_t<T>;
  U u = static_cast<U>(v);
  for (size_t i = 0; i < sizeof(T); ++i) out.push_back(static_cast<char>((u >> (8 * i)) & 0xff));
}

void put_str(std::string& out, std::string_view s) {
  put_le<uint32_t>(out, static_cast<uint32_t>(s.size()));
  out.append(s);
}

void patch_u32(std::string& out, size_t at, uint32_t v) {
  for (size_t i = 0; i < 4; ++i) out[at + i] = static_cast<char>((v >> (8 * i)) & 0xff);
}

uint32_t load_u32(const char* p) {
  uint32_t v = 0;
  for (size_t i = 0; i < 4; ++i) v |= uint32_t(static_cast<uint8_t>(p[i])) << (8 * i);
  return v;
}

// Writes a frame header whose length is patched by end_frame().
size_t begin_frame(std::string& out, FrameType t) {
  put_u8(out, static_cast<uint8_t>(t));
  put_le<uint32_t>(out, 0);
  return out.size();
}

void end_frame(std::string& out, size_t payload_start) {
  patch_u32(out, payload_start - 4, static_cast<uint32_t>(out.size() - payload_start));
}

// ---------------------------------------------------------------- little-endian reading

// Reads one frame's payload, failing with the frame, field and byte offset.
class PayloadReader {
 public:
  explicit PayloadReader(const Frame& f) : f_(f) {}

  template <typename T>
  T get(const char* field) {
    need(sizeof(T), field);
    using U = std::make_unsigned_t<T>;
    U u = 0;
    for (size_t i = 0; i < sizeof(T); ++i)
      u |= static_cast<U>(static_cast<uint8_t>(f_.payload[pos_ + i])) << (8 * i);
    pos_ += sizeof(T);
    return static_cast<T>(u);
  }

  std::string get_str(const char* field) {
    uint32_t n = get<uint32_t>(field);
    need(n, field);  // checked before allocating: a huge length is an error, not an allocation
    std::string s(f_.payload.substr(pos_, n));
    pos_ += n;
    return s;
  }

  size_t left() const { return f_.payload.size() - pos_; }
  uint64_t where() const { return f_.offset + kFrameHeaderSize + pos_; }

  [[noreturn]] void fail(const std::string& what) const {
    throw TraceError(std::string(frame_type_name(f_.type)) + " frame at byte " +
                     std::to_string(f_.offset) + ": " + what + " (at byte " +
                     std::to_string(where()) + ")");
  }

  void expect_end() const {
    if (left() != 0) fail(std::to_string(left()) + " unexpected trailing bytes in the payload");
  }

 private:
  void need(size_t n, const char* field) const {
    if (left() < n)
      fail(std::string("payload cut short reading ") + field + ": needs " + std::to_string(n) +
           " bytes, " + std::to_string(left()) + " left");
  }

  const Frame& f_;
  size_t pos_ = 0;
};

// ---------------------------------------------------------------- events

// Stores v little-endian at p and advances p.
template <typename T>
void store_le(char*& p, T v) {
  using U = std::make_unsigned_t<T>;
  U u = static_cast<U>(v);
  for (size_t i = 0; i < sizeof(T); ++i) *p++ = static_cast<char>((u >> (8 * i)) & 0xff);
}

// One event record, built field by field in a stack buffer (the hot loop of
// every sink: no per-byte string growth).
void put_event(std::string& out, const Event& e) {
  char rec[kEventWireSize];
  char* p = rec;
  store_le<uint8_t>(p, static_cast<uint8_t>(e.kind));
  store_le<uint8_t>(p, static_cast<uint8_t>(e.cat));
  store_le<uint16_t>(p, e.device);
  store_le<uint32_t>(p, e.tid);
  store_le<int64_t>(p, e.ts_ns);
  store_le<int64_t>(p, e.dur_ns);
  store_le<uint32_t>(p, e.name);
  store_le<uint32_t>(p, e.loc.file);
  store_le<int32_t>(p, e.loc.line);
  store_le<int32_t>(p, e.loc.col);
  store_le<uint64_t>(p, e.graph_id);
  store_le<uint64_t>(p, e.flow_id);
  store_le<uint64_t>(p, e.a);
  store_le<uint64_t>(p, e.b);
  store_le<uint64_t>(p, e.c);
  store_le<uint64_t>(p, std::bit_cast<uint64_t>(e.value));
  store_le<uint32_t>(p, e.text);
  store_le<uint32_t>(p, e.detail);
  store_le<uint32_t>(p, e.stack);
  out.append(rec, kEventWireSize);
}
static_assert(1 + 1 + 2 + 4 + 8 + 8 + 4 * 4 + 8 * 6 + 4 * 3 == kEventWireSize,
              "the event record layout in protocol.h and put_event disagree");

StrId get_id(PayloadReader& r, const char* field, StrId defined) {
  StrId id = r.get<uint32_t>(field);
  if (id >= defined)
    r.fail(std::string("event field ") + field + " uses string id " + std::to_string(id) +
           ", not yet defined (" + std::to_string(defined) + " ids defined)");
  return id;
}

Event get_event(PayloadReader& r, StrId defined) {
  Event e;
  uint8_t kind = r.get<uint8_t>("kind");
  if (kind >= kEventKindCount) r.fail("unknown event kind " + std::to_string(kind));
  e.kind = static_cast<EventKind>(kind);
  uint8_t cat = r.get<uint8_t>("cat");
  if (cat >= kCategoryCount) r.fail("unknown event category " + std::to_string(cat));
  e.cat = static_cast<Category>(cat);
  e.device = r.get<uint16_t>("device");
  e.tid = r.get<uint32_t>("tid");
  e.ts_ns = r.get<int64_t>("ts_ns");
  e.dur_ns = r.get<int64_t>("dur_ns");
  e.name = get_id(r, "name", defined);
  e.loc.file = get_id(r, "loc.file", defined);
  e.loc.line = r.get<int32_t>("loc.line");
  e.loc.col = r.get<int32_t>("loc.col");
  e.graph_id = r.get<uint64_t>("graph_id");
  e.flow_id = r.get<uint64_t>("flow_id");
  e.a = r.get<uint64_t>("a");
  e.b = r.get<uint64_t>("b");
  e.c = r.get<uint64_t>("c");
  e.value = std::bit_cast<double>(r.get<uint64_t>("value"));
  e.text = get_id(r, "text", defined);
  e.detail = get_id(r, "detail", defined);
  e.stack = get_id(r, "stack", defined);
  return e;
}

StrId max_id(const Event& e) {
  return std::max({e.name, e.loc.file, e.text, e.detail, e.stack});
}

}  // namespace

// ---------------------------------------------------------------- frame types

const char* frame_type_name(FrameType t) {
  switch (t) {
#define KILN_FRAME_TYPE_NAME(n, name, wire, payload) \
  case FrameType::name:                              \
    return wire;
    KILN_FRAME_TYPES(KILN_FRAME_TYPE_NAME)
#undef KILN_FRAME_TYPE_NAME
  }
  return "?";
}

bool is_frame_type(uint8_t byte) {
  switch (byte) {
#define KILN_FRAME_TYPE_CASE(n, name, wire, payload) case n:
    KILN_FRAME_TYPES(KILN_FRAME_TYPE_CASE)
#undef KILN_FRAME_TYPE_CASE
    return true;
  }
  return false;
}

// ---------------------------------------------------------------- encoding

void append_header(std::string& out) { out.append(kMagic); }

void append_hello(std::string& out, const SessionInfo& info) {
  size_t start = begin_frame(out, FrameType::Hello);
  put_le<uint16_t>(out, kProtocolVersion);
  put_le<int64_t>(out, info.start_wall_ns);
  put_str(out, info.script_path);
  put_str(out, info.kiln_version);
  put_le<uint32_t>(out, static_cast<uint32_t>(info.argv.size()));
  for (const std::string& a : info.argv) put_str(out, a);
  put_str(out, info.source_text);
  end_frame(out, start);
}

void append_strings(std::string& out, const StringTable& strings, StrId first, StrId end) {
  while (first < end) {
    size_t start = begin_frame(out, FrameType::Strings);
    put_le<uint32_t>(out, first);
    size_t count_at = out.size();
    put_le<uint32_t>(out, 0);
    uint32_t count = 0;
    // At least one string per frame; a single string over the limit is the
    // caller's bug and the reader will say so.
    for (; first < end; ++first, ++count) {
      std::string_view s = strings.str(first);
      if (count > 0 && out.size() - start + 4 + s.size() > kMaxFramePayload) break;
      put_str(out, s);
    }
    patch_u32(out, count_at, count);
    end_frame(out, start);
  }
}

void append_events(std::string& out, std::span<const Event> events) {
  size_t start = begin_frame(out, FrameType::Events);
  put_le<uint32_t>(out, static_cast<uint32_t>(events.size()));
  out.reserve(out.size() + events.size() * kEventWireSize);
  for (const Event& e : events) put_event(out, e);
  end_frame(out, start);
}

void append_dropped(std::string& out, uint64_t total) {
  size_t start = begin_frame(out, FrameType::Dropped);
  put_le<uint64_t>(out, total);
  end_frame(out, start);
}

void append_end(std::string& out) { end_frame(out, begin_frame(out, FrameType::End)); }

BatchEncoder::Plan BatchEncoder::plan(std::span<const Event> events, const StringTable& strings) {
  // Every id an event uses must go out, even one interned after size() was read.
  StrId end = std::max<StrId>(sent_end_, static_cast<StrId>(strings.size()));
  for (const Event& e : events) end = std::max(end, max_id(e) + 1);
  // Measure the new strings the way append_strings fills frames. The range
  // only grows: the measured bytes always cover [sent_end_, sized_end_).
  for (; sized_end_ < end; ++sized_end_) {
    size_t item = 4 + strings.str(sized_end_).size();
    bool first_in_frame = sized_end_ == sent_end_;
    if (first_in_frame || last_payload_ + item > kMaxFramePayload) {
      sized_bytes_ += kFrameHeaderSize + 8;  // type, length, first_id, count
      last_payload_ = 8;
    }
    sized_bytes_ += item;
    last_payload_ += item;
  }
  return Plan{sized_end_, sized_bytes_ + kFrameHeaderSize + 4 + events.size() * kEventWireSize};
}

void BatchEncoder::encode(const Plan& plan, std::span<const Event> events,
                          const StringTable& strings, std::string& out) {
  if (plan.strings_end > sent_end_) {
    append_strings(out, strings, sent_end_, plan.strings_end);
    sent_end_ = plan.strings_end;
    sized_end_ = sent_end_;  // nothing unsent is measured any more
    sized_bytes_ = last_payload_ = 0;
  }
  append_events(out, events);
}

// ---------------------------------------------------------------- splitting

void FrameSplitter::feed(std::string_view bytes) {
  // Drop consumed bytes first so the buffer holds at most one partial frame.
  if (pos_ > 0) {
    buf_.erase(0, pos_);
    consumed_ += pos_;
    pos_ = 0;
  }
  buf_.append(bytes);
}

std::optional<Frame> FrameSplitter::next() {
  std::string_view avail = std::string_view(buf_).substr(pos_);
  if (!header_done_) {
    size_t n = std::min(avail.size(), kMagic.size());
    if (avail.substr(0, n) != kMagic.substr(0, n))
      throw TraceError("not a Kiln trace: bad magic at byte 0 (expected \"KILNTRC1\")");
    if (n < kMagic.size()) return std::nullopt;
    header_done_ = true;
    pos_ += kMagic.size();
    avail.remove_prefix(kMagic.size());
  }
  if (avail.empty()) return std::nullopt;
  uint64_t at = offset();
  uint8_t type = static_cast<uint8_t>(avail[0]);
  if (!is_frame_type(type))
    throw TraceError("unknown frame type " + std::to_string(type) + " at byte " +
                     std::to_string(at));
  if (avail.size() < kFrameHeaderSize) return std::nullopt;
  uint32_t len = load_u32(avail.data() + 1);
  if (len > kMaxFramePayload)
    throw TraceError(std::string(frame_type_name(FrameType(type))) + " frame at byte " +
                     std::to_string(at) + " claims " + std::to_string(len) +
                     " bytes, over the " + std::to_string(kMaxFramePayload) + "-byte limit");
  if (avail.size() < kFrameHeaderSize + len) return std::nullopt;
  pos_ += kFrameHeaderSize + len;
  return Frame{FrameType(type), at, avail.substr(kFrameHeaderSize, len)};
}

void FrameSplitter::finish() const {
  size_t left = buf_.size() - pos_;
  if (!header_done_)
    throw TraceError("truncated: the stream ends at byte " + std::to_string(offset() + left) +
                     ", inside the 8-byte \"KILNTRC1\" header");
  if (left == 0) return;
  std::string what = "truncated frame at byte " + std::to_string(offset()) + ": ";
  if (left < kFrameHeaderSize)
    throw TraceError(what + "the stream ends inside its 5-byte frame header");
  uint32_t len = load_u32(buf_.data() + pos_ + 1);
  throw TraceError(what + frame_type_name(FrameType(uint8_t(buf_[pos_]))) + " payload has " +
                   std::to_string(left - kFrameHeaderSize) + " of its " + std::to_string(len) +
                   " bytes");
}

// ---------------------------------------------------------------- payloads

SessionInfo decode_hello(const Frame& f) {
  PayloadReader r(f);
  uint16_t version = r.get<uint16_t>("version");
  if (version != kProtocolVersion)
    r.fail("unsupported protocol version " + std::to_string(version) + " (this reader knows " +
           std::to_string(kProtocolVersion) + ")");
  SessionInfo info;
  info.start_wall_ns = r.get<int64_t>("start_unix_ns");
  info.script_path = r.get_str("script");
  info.kiln_version = r.get_str("kiln_version");
  uint32_t argc = r.get<uint32_t>("argc");
  if (argc > r.left() / 4) r.fail("argc " + std::to_string(argc) + " exceeds the payload");
  for (uint32_t i = 0; i < argc; ++i) info.argv.push_back(r.get_str("argv"));
  info.source_text = r.get_str("source");
  r.expect_end();
  return info;
}

std::vector<std::string> decode_strings(const Frame& f, StrId defined) {
  PayloadReader r(f);
  uint32_t first = r.get<uint32_t>("first_id");
  if (first != defined)
    r.fail("defines string ids from " + std::to_string(first) + ", but the next id is " +
           std::to_string(defined) + " (ids must be dense and in order)");
  uint32_t count = r.get<uint32_t>("count");
  if (count > r.left() / 4) r.fail("count " + std::to_string(count) + " exceeds the payload");
  std::vector<std::string> texts;
  texts.reserve(count);
  for (uint32_t i = 0; i < count; ++i) texts.push_back(r.get_str("text"));
  r.expect_end();
  return texts;
}

void decode_events(const Frame& f, StrId defined, std::vector<Event>& out) {
  PayloadReader r(f);
  uint32_t count = r.get<uint32_t>("count");
  if (uint64_t(count) * kEventWireSize != r.left())
    r.fail("count " + std::to_string(count) + " needs " +
           std::to_string(uint64_t(count) * kEventWireSize) + " bytes of events, the payload has " +
           std::to_string(r.left()));
  out.reserve(out.size() + count);
  for (uint32_t i = 0; i < count; ++i) out.push_back(get_event(r, defined));
}

uint64_t decode_dropped(const Frame& f) {
  PayloadReader r(f);
  uint64_t total = r.get<uint64_t>("total");
  r.expect_end();
  return total;
}

void decode_end(const Frame& f) { PayloadReader(f).expect_end(); }

}  // namespace kiln::trace
