// The trace protocol and .kilntrace files: encode/decode round trips, the
// incremental frame splitter, the string-table updates, and every rejection
// the reader promises (with the byte offset in the message).
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "tests/traces/protocol_test_util.h"
#include "traces/kilntrace_sink.h"
#include "traces/protocol.h"
#include "traces/reader.h"

namespace kiln::trace {
namespace {

using test_util::collect;
using test_util::Collected;
using test_util::describe_all;
using test_util::sample_events;
using test_util::sample_info;

// A whole session as bytes: header, HELLO, the batches, END.
std::string encode_session(const SessionInfo& info, const std::vector<std::vector<Event>>& batches,
                           const StringTable& strings, bool end = true) {
  std::string out;
  append_header(out);
  append_hello(out, info);
  BatchEncoder enc;
  for (const auto& b : batches) enc.encode(enc.plan(b, strings), b, strings, out);
  if (end) append_end(out);
  return out;
}

Collected read_bytes(std::string bytes) {
  TraceReader r = TraceReader::from_bytes(std::move(bytes), "t");
  return collect(r);
}

void expect_info_eq(const SessionInfo& a, const SessionInfo& b) {
  EXPECT_EQ(a.script_path, b.script_path);
  EXPECT_EQ(a.argv, b.argv);
  EXPECT_EQ(a.kiln_version, b.kiln_version);
  EXPECT_EQ(a.source_text, b.source_text);
  EXPECT_EQ(a.start_wall_ns, b.start_wall_ns);
}

std::string temp_path(const std::string& name) {
  return (std::filesystem::temp_directory_path() /
          ("kiln_" + std::to_string(::getpid()) + "_" + name))
      .string();
}

// ---------------------------------------------------------------- round trips

TEST(Protocol, EventsRoundTripThroughEncodeAndDecode) {
  StringTable strings;
  std::vector<Event> a = sample_events(strings, 300), b = sample_events(strings, 200, 300);
  Collected c = read_bytes(encode_session(sample_info(), {a, b}, strings));
  ASSERT_TRUE(c.ended) << c.error;
  expect_info_eq(c.info, sample_info());
  std::vector<std::string> want = describe_all(a, strings), more = describe_all(b, strings);
  want.insert(want.end(), more.begin(), more.end());
  EXPECT_EQ(c.events, want);
}

TEST(Protocol, ReaderKeepsWriterIdsAndYieldsEachFrame) {
  StringTable strings;
  std::vector<Event> ev = sample_events(strings, 10);
  std::string bytes = encode_session(sample_info(), {ev}, strings);
  TraceReader r = TraceReader::from_bytes(bytes);
  EXPECT_FALSE(r.has_session());
  EXPECT_EQ(r.next(), ReadResult::Session);
  EXPECT_EQ(r.session().script_path, "samples/train_mlp.py");
  EXPECT_EQ(r.next(), ReadResult::Strings);
  EXPECT_EQ(r.strings().size(), strings.size());
  EXPECT_EQ(r.next(), ReadResult::Events);
  ASSERT_EQ(r.events().size(), 10u);
  EXPECT_EQ(r.events()[3].name, ev[3].name);  // a valid stream keeps the writer's ids
  EXPECT_EQ(r.next(), ReadResult::End);
  EXPECT_EQ(r.next(), ReadResult::End);
  EXPECT_TRUE(r.ended());
  EXPECT_EQ(r.offset(), bytes.size());
}

TEST(Protocol, EventRecordIsLittleEndianFixedLayout) {
  StringTable strings;
  Event e;
  e.kind = EventKind::Kernel;
  e.cat = Category::kernel;
  e.device = 0x0102;
  e.tid = 0x03040506;
  e.ts_ns = -2;
  e.name = strings.intern("matmul");
  e.value = 1.5;
  e.stack = e.name;
  std::string out;
  append_events(out, std::span(&e, 1));
  ASSERT_EQ(out.size(), kFrameHeaderSize + 4 + kEventWireSize);
  const auto* p = reinterpret_cast<const unsigned char*>(out.data());
  EXPECT_EQ(p[0], 3);                                  // EVENTS
  EXPECT_EQ(p[1], 4 + kEventWireSize);                 // length, low byte first
  EXPECT_EQ(p[5], 1);                                  // count
  const unsigned char* rec = p + 9;
  EXPECT_EQ(rec[0], uint8_t(EventKind::Kernel));
  EXPECT_EQ(rec[1], uint8_t(Category::kernel));
  EXPECT_EQ(rec[2], 0x02);
  EXPECT_EQ(rec[3], 0x01);
  EXPECT_EQ(rec[4], 0x06);
  EXPECT_EQ(rec[8], 0xfe);                             // ts_ns = -2
  EXPECT_EQ(rec[15], 0xff);
  EXPECT_EQ(rec[24], e.name);
  EXPECT_EQ(rec[87], 0x3f);                            // 1.5 = 0x3FF8000000000000
  EXPECT_EQ(rec[86], 0xf8);
  EXPECT_EQ(rec[96], e.name);                          // stack
}

TEST(Protocol, StringsAreSentOnceBeforeFirstUse) {
  StringTable strings;
  BatchEncoder enc;
  std::vector<Event> a = sample_events(strings, 20);
  std::string first, second;
  BatchEncoder::Plan p = enc.plan(a, strings);
  enc.encode(p, a, strings, first);
  EXPECT_EQ(p.bytes, first.size());
  EXPECT_EQ(first[0], char(FrameType::Strings));
  // Same strings again: only an EVENTS frame.
  p = enc.plan(a, strings);
  enc.encode(p, a, strings, second);
  EXPECT_EQ(p.bytes, second.size());
  EXPECT_EQ(second.size(), kFrameHeaderSize + 4 + 20 * kEventWireSize);
  EXPECT_EQ(second[0], char(FrameType::Events));
}

TEST(Protocol, StringsFramesSplitAtTheFrameLimit) {
  StringTable strings;
  std::string big(9 << 20, 'x');
  Event e;
  e.name = strings.intern(big);
  e.text = strings.intern(big + "y");
  e.detail = strings.intern("small");
  std::string out;
  append_strings(out, strings, 1, static_cast<StrId>(strings.size()));
  EXPECT_GT(out.size(), size_t{kMaxFramePayload});  // two frames, each under the limit
  BatchEncoder enc;
  std::string encoded;
  BatchEncoder::Plan p = enc.plan(std::span(&e, 1), strings);
  p = enc.plan(std::span(&e, 1), strings);  // planning again changes nothing
  enc.encode(p, std::span(&e, 1), strings, encoded);
  EXPECT_EQ(p.bytes, encoded.size());
  EXPECT_EQ(encoded.size(), out.size() + kFrameHeaderSize + 4 + kEventWireSize);
  Collected c = read_bytes(encode_session(sample_info(), {{e}}, strings));
  ASSERT_TRUE(c.ended) << c.error;
  ASSERT_EQ(c.events.size(), 1u);
  EXPECT_EQ(c.events[0], test_util::describe(e, strings));
}

TEST(Protocol, SplitterYieldsTheSameFramesFedByteByByte) {
  StringTable strings;
  std::string bytes = encode_session(sample_info(), {sample_events(strings, 5)}, strings);
  FrameSplitter whole, bytewise;
  whole.feed(bytes);
  std::vector<std::pair<uint64_t, std::string>> a, b;
  while (auto f = whole.next()) a.emplace_back(f->offset, std::string(f->payload));
  for (char c : bytes) {
    bytewise.feed(std::string_view(&c, 1));
    while (auto f = bytewise.next()) b.emplace_back(f->offset, std::string(f->payload));
  }
  whole.finish();
  bytewise.finish();
  ASSERT_EQ(a.size(), 4u);  // HELLO, STRINGS, EVENTS, END
  EXPECT_EQ(a, b);
  EXPECT_EQ(a[0].first, kMagic.size());
}

TEST(Protocol, DroppedFramesCarryTheWritersTotal) {
  std::string bytes;
  append_header(bytes);
  append_hello(bytes, sample_info());
  append_dropped(bytes, 7);
  append_dropped(bytes, 12);
  append_end(bytes);
  TraceReader r = TraceReader::from_bytes(bytes);
  EXPECT_EQ(r.next(), ReadResult::Session);
  EXPECT_EQ(r.next(), ReadResult::Dropped);
  EXPECT_EQ(r.dropped(), 7u);
  EXPECT_EQ(r.next(), ReadResult::Dropped);
  EXPECT_EQ(r.dropped(), 12u);
  EXPECT_EQ(r.next(), ReadResult::End);
}

TEST(Protocol, RepeatedTextsFromAWriterAreRemapped) {
  // A foreign writer may define one text under two ids; the reader's own table
  // interns it once and events still resolve to the right text.
  StringTable writer;
  writer.intern("a");
  writer.intern("b");
  std::string bytes;
  append_header(bytes);
  append_hello(bytes, sample_info());
  append_strings(bytes, writer, 1, 3);  // ids 1 'a', 2 'b'
  StringTable dup;
  dup.intern("pad1");
  dup.intern("pad2");
  dup.intern("a");  // id 3 'a' again
  append_strings(bytes, dup, 3, 4);
  Event e;
  e.name = 3;
  e.text = 2;
  append_events(bytes, std::span(&e, 1));
  append_end(bytes);
  TraceReader r = TraceReader::from_bytes(bytes);
  while (r.next() != ReadResult::Events) {
  }
  EXPECT_EQ(r.strings().str(r.events()[0].name), "a");
  EXPECT_EQ(r.strings().str(r.events()[0].text), "b");
}

// ---------------------------------------------------------------- .kilntrace files

TEST(Kilntrace, SinkFileReplaysThroughTheReader) {
  std::string path = temp_path("roundtrip.kilntrace");
  StringTable strings;
  std::vector<Event> all;
  {
    KilntraceSink sink(path, sample_info());
    for (int b = 0; b < 5; ++b) {
      std::vector<Event> batch = sample_events(strings, 100, 100 * b);
      sink.on_events(batch, strings);
      all.insert(all.end(), batch.begin(), batch.end());
    }
    sink.flush();
    sink.close();
    EXPECT_EQ(sink.error(), "");
  }
  TraceReader r = TraceReader::open_file(path);
  Collected c = collect(r);
  ASSERT_TRUE(c.ended) << c.error;
  expect_info_eq(c.info, sample_info());
  EXPECT_EQ(c.events, describe_all(all, strings));
  std::filesystem::remove(path);
}

TEST(Kilntrace, BatchesOverTheFrameLimitAreSplit) {
  std::string path = temp_path("big.kilntrace");
  StringTable strings;
  std::vector<Event> batch(kMaxEventsPerFrame + 10);
  for (size_t i = 0; i < batch.size(); ++i) batch[i].ts_ns = static_cast<int64_t>(i);
  {
    KilntraceSink sink(path, sample_info());
    sink.on_events(batch, strings);
  }  // the destructor closes
  TraceReader r = TraceReader::open_file(path);
  std::vector<size_t> sizes;
  int64_t expect_ts = 0;
  for (ReadResult res; (res = r.next()) != ReadResult::End;) {
    if (res != ReadResult::Events) continue;
    sizes.push_back(r.events().size());
    for (const Event& e : r.events()) ASSERT_EQ(e.ts_ns, expect_ts++);
  }
  EXPECT_EQ(sizes, (std::vector<size_t>{kMaxEventsPerFrame, 10}));
  std::filesystem::remove(path);
}

TEST(Kilntrace, UnwritablePathIsAClearError) {
  try {
    KilntraceSink sink("/nonexistent-dir/x.kilntrace", sample_info());
    FAIL() << "no error";
  } catch (const TraceError& e) {
    EXPECT_NE(std::string(e.what()).find("cannot create /nonexistent-dir/x.kilntrace"),
              std::string::npos)
        << e.what();
  }
  EXPECT_THROW(TraceReader::open_file("/nonexistent-dir/x.kilntrace"), TraceError);
}

TEST(Kilntrace, FileOfACrashedWriterReadsUpToTheCut) {
  StringTable strings;
  std::string bytes = encode_session(sample_info(), {sample_events(strings, 3)}, strings, false);
  Collected c = read_bytes(bytes);
  EXPECT_EQ(c.events.size(), 3u);  // everything before the crash is still there
  EXPECT_FALSE(c.ended);
  EXPECT_NE(c.error.find("without an END frame"), std::string::npos) << c.error;
}

// ---------------------------------------------------------------- rejections

// Reads `bytes` and expects a TraceError containing every one of `parts`.
void expect_rejected(const std::string& bytes, std::initializer_list<std::string> parts) {
  Collected c = read_bytes(bytes);
  ASSERT_FALSE(c.ended) << "accepted; expected an error with '" << *parts.begin() << "'";
  for (const std::string& p : parts) EXPECT_NE(c.error.find(p), std::string::npos) << c.error;
}

std::string hello_only() {
  std::string b;
  append_header(b);
  append_hello(b, sample_info());
  return b;
}

void put_u32(std::string& b, size_t at, uint32_t v) {
  for (int i = 0; i < 4; ++i) b[at + i] = static_cast<char>(v >> (8 * i));
}

TEST(ReaderRejects, WrongMagic) {
  expect_rejected("KILNTRC2xxxxxxxx", {"bad magic at byte 0"});
  expect_rejected("{\"traceEvents\": []}", {"not a Kiln trace"});
  expect_rejected("", {"inside the 8-byte \"KILNTRC1\" header"});
  expect_rejected("KILN", {"truncated", "header"});
}

TEST(ReaderRejects, UnknownVersion) {
  std::string b = hello_only() + "";
  b[8 + 5] = 9;  // the HELLO payload starts with version:u16
  expect_rejected(b, {"unsupported protocol version 9", "HELLO frame at byte 8"});
}

TEST(ReaderRejects, TruncatedFrames) {
  std::string full = hello_only();
  expect_rejected(full.substr(0, 11), {"truncated frame at byte 8", "5-byte frame header"});
  expect_rejected(full.substr(0, full.size() - 1),
                  {"truncated frame at byte 8", "HELLO payload has"});
  expect_rejected(full, {"without an END frame", std::to_string(full.size())});
}

TEST(ReaderRejects, OversizedFrameBeforeReadingIt) {
  std::string b = hello_only();
  size_t at = b.size();
  b += std::string("\x03\xff\xff\xff\xff", 5);  // EVENTS of 4 GiB - 1: refused at once
  expect_rejected(b, {"EVENTS frame at byte " + std::to_string(at), "claims 4294967295 bytes",
                      "limit"});
  std::string c = hello_only();
  c += std::string("\x02\x01\x00\x00\x01", 5);  // 16 MiB + 1
  expect_rejected(c, {"claims 16777217 bytes"});
}

TEST(ReaderRejects, UnknownFrameType) {
  std::string b = hello_only();
  size_t at = b.size();
  b += std::string("\x2a\x00\x00\x00\x00", 5);
  expect_rejected(b, {"unknown frame type 42 at byte " + std::to_string(at)});
}

TEST(ReaderRejects, UndefinedStringId) {
  std::string b = hello_only();
  size_t at = b.size();
  Event e;
  e.detail = 5;
  append_events(b, std::span(&e, 1));
  append_end(b);
  expect_rejected(b, {"EVENTS frame at byte " + std::to_string(at), "detail",
                      "string id 5, not yet defined"});
}

TEST(ReaderRejects, StringIdsOutOfOrder) {
  StringTable s;
  s.intern("a");
  s.intern("b");
  std::string b = hello_only();
  append_strings(b, s, 2, 3);  // skips id 1
  expect_rejected(b, {"STRINGS frame", "from 2, but the next id is 1"});
}

TEST(ReaderRejects, BadPayloads) {
  std::string b = hello_only();
  Event e;
  append_events(b, std::span(&e, 1));
  put_u32(b, hello_only().size() + 5, 2);  // count says 2, one record follows
  expect_rejected(b, {"count 2 needs 200 bytes"});

  std::string k = hello_only();
  append_events(k, std::span(&e, 1));
  k[hello_only().size() + 9] = 99;  // kind
  expect_rejected(k, {"unknown event kind 99"});

  std::string s = hello_only();
  size_t at = s.size();
  s += std::string("\x02\x0c\x00\x00\x00", 5);
  s += std::string("\x01\x00\x00\x00\x01\x00\x00\x00\xff\xff\xff\x7f", 12);  // a 2 GiB string
  expect_rejected(s, {"STRINGS frame at byte " + std::to_string(at), "cut short reading text"});

  std::string d = hello_only();
  d += std::string("\x04\x03\x00\x00\x00\x01\x02\x03", 8);  // DROPPED with 3 bytes
  expect_rejected(d, {"DROPPED frame", "cut short reading total"});

  std::string n = hello_only();
  n += std::string("\x05\x01\x00\x00\x00x", 6);  // END with a payload
  expect_rejected(n, {"END frame", "trailing"});
}

TEST(ReaderRejects, FramesOutOfOrder) {
  std::string b;
  append_header(b);
  append_end(b);
  expect_rejected(b, {"END frame at byte 8 before the HELLO handshake"});
  std::string h = hello_only();
  append_hello(h, sample_info());
  expect_rejected(h, {"second HELLO"});
  std::string e = hello_only();
  append_end(e);
  append_dropped(e, 1);
  expect_rejected(e, {"data after the END frame"});
  std::string g = hello_only();
  append_end(g);
  expect_rejected(g + "x", {"data after the END frame"});
}

TEST(ReaderRejects, ErrorsAreSticky) {
  TraceReader r = TraceReader::from_bytes("nope nope", "junk.kilntrace");
  EXPECT_THROW(r.next(), TraceError);
  try {
    r.next();
  } catch (const TraceError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("junk.kilntrace: ", 0), 0u) << e.what();
  }
}

}  // namespace
}  // namespace kiln::trace
