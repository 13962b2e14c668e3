// The one event model of Kiln. Everything that happens worth seeing (an
// interpreter call, a compile phase, a kernel, a graph break, a recompile, a
// counter, a log line) is an Event; sinks (the Chrome trace writer, the live
// stream / .kilntrace writer, the KILN_LOGS printer) consume the same events.
//
// Events are fixed-size PODs; every string in them is an id into the session's
// StringTable (interned once, so recording never allocates in steady state).
// `traces` is a leaf library: it depends on nothing else in Kiln.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

namespace kiln::trace {

// Every error raised by traces/ (bad KILN_LOGS spec, unwritable trace file,
// malformed stream frame). traces/ is a leaf library, so not kiln::Error.
class TraceError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

#define KILN_EVENT_KINDS(_)                                                         \
  _(Span)       /* a timed region: interpreter call, compile and its phases */      \
  _(Kernel)     /* a CPU kernel execution (op or fused kernel) */                  \
  _(GpuKernel)  /* a GPU kernel execution, timed on the device */                  \
  _(MemCopy)    /* host<->device or device<->device copy */                        \
  _(GraphBreak) /* the tracer ended a graph: reason, message, location */          \
  _(Recompile)  /* a guard failed and the region was compiled again */             \
  _(GuardFail)  /* a guard failed (with or without a recompile) */                 \
  _(Counter)    /* a sampled value: live tensor bytes, cache sizes, drops */       \
  _(Log)        /* free-form text */

enum class EventKind : uint8_t {
#define KILN_EVENT_KIND_ENUM(k) k,
  KILN_EVENT_KINDS(KILN_EVENT_KIND_ENUM)
#undef KILN_EVENT_KIND_ENUM
};
const char* event_kind_name(EventKind k);

#define KILN_EVENT_CATEGORIES(_) \
  _(interpreter) _(compile) _(kernel) _(gpu) _(memory) _(jit) _(log)

enum class Category : uint8_t {
#define KILN_CATEGORY_ENUM(c) c,
  KILN_EVENT_CATEGORIES(KILN_CATEGORY_ENUM)
#undef KILN_CATEGORY_ENUM
};
const char* category_name(Category c);

using StrId = uint32_t;  // index into the StringTable; 0 is the empty string

// A source location: file, 1-based line and column (0: unknown).
struct Loc {
  StrId file = 0;
  int32_t line = 0;
  int32_t col = 0;
};

// One event. Spans and kernels are complete events (start + duration);
// graph breaks, recompiles, guard failures and logs are instants (dur_ns 0).
struct Event {
  EventKind kind = EventKind::Log;
  Category cat = Category::log;
  uint16_t device = 0;  // 0: host; GPU device d is d + 1
  uint32_t tid = 0;     // recording thread (small, stable per thread: 1, 2, ...) or GPU stream
  int64_t ts_ns = 0;    // steady clock, nanoseconds since the session started
  int64_t dur_ns = 0;
  StrId name = 0;       // span/kernel name, counter name, break/guard summary
  Loc loc;              // where in the user's code, when the event points at code
  uint64_t graph_id = 0;    // compiled graph the event belongs to (0: none)
  uint64_t flow_id = 0;     // links a kernel launch to its GPU execution (0: none)
  // Kind-specific payload (unused fields stay 0):
  //  Span: text = what it works on (a codegen span's fusion plan, an LLVM phase's kernel);
  //        "run graph N" spans: a = fused kernels launched, b = eager steps
  //  Kernel/GpuKernel/MemCopy: a = bytes read, b = bytes written, c = flops; text = shapes
  //  GraphBreak: text = message, detail = reason category, stack = user stack ("f:12 <- g:30"),
  //              graph_id = the graph the break ended
  //  Recompile/GuardFail: text = failed guard, detail = "expected X, got Y", a = cache entries;
  //              Recompile: graph_id = the graph compiled for it, stack = its region's name
  //  Counter: value
  //  Log: text; detail = its subject ("output_code": the kernel's name)
  uint64_t a = 0, b = 0, c = 0;
  double value = 0;
  StrId text = 0, detail = 0, stack = 0;
};

// Interned strings of one session. Ids are stable; ids are never reused.
class StringTable {
 public:
  StringTable();
  ~StringTable();
  StringTable(const StringTable&) = delete;
  StringTable& operator=(const StringTable&) = delete;
  StrId intern(std::string_view s);    // thread-safe
  std::string_view str(StrId id) const;  // thread-safe; "" for unknown ids
  size_t size() const;

 private:
  struct Impl;
  Impl* impl_;
};

}  // namespace kiln::trace
