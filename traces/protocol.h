// The Kiln trace protocol: the bytes a StreamSink sends to a live inspector
// and a KilntraceSink writes to a .kilntrace file. Both are the same byte
// stream, so a recorded session replays exactly like a live one.
//
//   stream = header frame*             header = "KILNTRC1" (8 bytes)
//   frame  = type:u8 length:u32 payload[length]     (length <= kMaxFramePayload)
//
// Integers are little-endian; `str` is len:u32 then len bytes (UTF-8, no NUL).
// HELLO comes first, exactly once; then STRINGS, EVENTS and DROPPED in any
// order, every string id defined by a STRINGS frame before an event uses it;
// END closes the session and nothing may follow it. A writer that dies leaves
// a stream without END, which readers report as truncated.
//
// Frame types, one line each: number, name, wire name, payload.
#define KILN_FRAME_TYPES(_)                                                         \
  _(1, Hello, "HELLO",                                                              \
    "version:u16 start_unix_ns:i64 script:str kiln_version:str argc:u32 "           \
    "argv:str*argc source:str")                                                     \
  _(2, Strings, "STRINGS",                                                          \
    "first_id:u32 count:u32 text:str*count -- defines ids first_id.., where "       \
    "first_id = the number of ids defined so far (id 0 is always \"\")")            \
  _(3, Events, "EVENTS", "count:u32 event*count -- kEventWireSize bytes each, below") \
  _(4, Dropped, "DROPPED", "total:u64 -- events the writer has dropped so far")     \
  _(5, End, "END", "(empty) -- the session ended cleanly")
//
// Event record (100 bytes; the fields of traces/event.h, never a memcpy of it):
//   off size field       off size field       off size field
//     0  1   kind         28  4   loc.file      72  8   c
//     1  1   cat          32  4   loc.line      80  8   value (IEEE-754 bits)
//     2  2   device       36  4   loc.col       88  4   text
//     4  4   tid          40  8   graph_id      92  4   detail
//     8  8   ts_ns        48  8   flow_id       96  4   stack
//    16  8   dur_ns       56  8   a
//    24  4   name         64  8   b
// Readers reject unknown kinds and categories, and string ids not yet defined.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "traces/event.h"
#include "traces/recorder.h"

namespace kiln::trace {

inline constexpr std::string_view kMagic{"KILNTRC1", 8};
inline constexpr uint16_t kProtocolVersion = 1;
inline constexpr size_t kFrameHeaderSize = 5;            // type:u8 length:u32
inline constexpr uint32_t kMaxFramePayload = 16u << 20;  // 16 MiB; larger is an error
inline constexpr size_t kEventWireSize = 100;
inline constexpr size_t kMaxEventsPerFrame = (kMaxFramePayload - 4) / kEventWireSize;

enum class FrameType : uint8_t {
#define KILN_FRAME_TYPE_ENUM(n, name, wire, payload) name = n,
  KILN_FRAME_TYPES(KILN_FRAME_TYPE_ENUM)
#undef KILN_FRAME_TYPE_ENUM
};
const char* frame_type_name(FrameType t);  // "HELLO", "STRINGS", ...
bool is_frame_type(uint8_t byte);

// ---------------------------------------------------------------- encoding
// Each appends one complete frame (or the header) to `out`.

void append_header(std::string& out);
void append_hello(std::string& out, const SessionInfo& info);
// Ids [first, end) of `strings`; several frames if they exceed kMaxFramePayload.
void append_strings(std::string& out, const StringTable& strings, StrId first, StrId end);
void append_events(std::string& out, std::span<const Event> events);  // <= kMaxEventsPerFrame
void append_dropped(std::string& out, uint64_t total);
void append_end(std::string& out);

// Turns a sink's batches into frames, sending every string before the first
// event that uses it (ids are dense, so it only remembers how many it sent).
class BatchEncoder {
 public:
  // What encode() would write for one batch of <= kMaxEventsPerFrame events:
  // the exact byte count, so a bounded queue can refuse it before encoding.
  struct Plan {
    StrId strings_end = 1;  // strings [sent, strings_end) go out with the batch
    size_t bytes = 0;
  };
  // Cheap when nothing new was interned: the unsent strings are measured once
  // and remembered, however many refused batches plan again.
  Plan plan(std::span<const Event> events, const StringTable& strings);
  // Appends the STRINGS and EVENTS frames of `plan` and marks the strings sent.
  void encode(const Plan& plan, std::span<const Event> events, const StringTable& strings,
              std::string& out);

 private:
  StrId sent_end_ = 1;  // ids below this are known to the reader (0 is implicit)
  // The STRINGS frames for ids [sent_end_, sized_end_), as append_strings
  // would split them: their total size and the payload of the last frame.
  StrId sized_end_ = 1;
  size_t sized_bytes_ = 0, last_payload_ = 0;
};

// ---------------------------------------------------------------- decoding

// One frame as it arrived. `payload` points into the splitter's buffer and
// stays valid until its next feed().
struct Frame {
  FrameType type;
  uint64_t offset;  // stream offset of the frame's type byte, for messages
  std::string_view payload;
};

// Cuts a byte stream, fed in pieces of any size, into frames. Checks the
// magic, frame types and lengths as soon as their bytes arrive (an oversized
// length fails at once, not after 4 GiB). Errors name the byte offset.
class FrameSplitter {
 public:
  void feed(std::string_view bytes);
  std::optional<Frame> next();  // nullopt: need more bytes; throws TraceError
  // At end of input: throws TraceError if the header or a frame is cut short.
  void finish() const;
  uint64_t offset() const { return consumed_ + pos_; }  // next unread byte
  size_t buffered() const { return buf_.size() - pos_; }  // bytes fed but not yet framed

 private:
  std::string buf_;
  size_t pos_ = 0;          // first unread byte of buf_
  uint64_t consumed_ = 0;   // bytes dropped from the front of buf_
  bool header_done_ = false;
};

// Payload decoders; `defined` is the number of string ids defined so far.
SessionInfo decode_hello(const Frame& f);
std::vector<std::string> decode_strings(const Frame& f, StrId defined);  // ids defined..
void decode_events(const Frame& f, StrId defined, std::vector<Event>& out);
uint64_t decode_dropped(const Frame& f);
void decode_end(const Frame& f);

}  // namespace kiln::trace
