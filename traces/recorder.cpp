// The recording hub: sessions, per-thread event chunks, delivery to sinks.
//
// Invariants:
//  - A thread's chunk is written only by that thread. `count` is published
//    with release order, so the hub (under its lock) may read events below it
//    at any time; `consumed` and `generation` change only under the hub lock.
//  - A chunk belongs to one session (its generation). Events left in a chunk
//    from an earlier session are discarded, never delivered to a later one.
//  - Sinks are only called under the hub lock, so they never run concurrently.
#include "traces/recorder.h"

#include <algorithm>
#include <chrono>
#include <climits>
#include <exception>
#include <mutex>
#include <unordered_map>

#if defined(__x86_64__)
#include <cpuid.h>
#include <x86intrin.h>
#endif

namespace kiln::trace {

namespace {

constexpr uint32_t kChunkEvents = 1024;
// A chunk holding events older than this is handed over at the next record,
// so a live viewer lags by at most about this much on a busy thread.
constexpr int64_t kStaleNs = 20'000'000;

int64_t steady_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// A span reads the clock twice, and steady_clock (the vDSO's clock_gettime)
// costs ~18 ns here, most of a span's budget. Where the CPU has an invariant
// TSC we read it directly (~8 ns) and map ticks to steady_clock nanoseconds
// with a rate measured once, so both clocks agree to within calibration error
// (< 1e-4). The mapping never changes after it is published, so readers need
// no lock; before it exists, now_ns() uses steady_clock.
struct TscMap {
  int64_t base_tick;
  int64_t base_ns;
  double ns_per_tick;
  int64_t ns(int64_t tick) const {
    return base_ns + static_cast<int64_t>(static_cast<double>(tick - base_tick) * ns_per_tick);
  }
};

#if defined(__x86_64__)
int64_t read_tick() { return static_cast<int64_t>(__rdtsc()); }

bool has_invariant_tsc() {
  unsigned a, b, c, d;
  if (__get_cpuid_max(0x80000000, nullptr) < 0x80000007u) return false;
  __cpuid(0x80000007, a, b, c, d);
  return (d >> 8) & 1;
}
#else
int64_t read_tick() { return 0; }
bool has_invariant_tsc() { return false; }
#endif

struct ClockPair {
  int64_t tick, ns;
  int64_t error;  // ticks between the two reads bracketing the steady read
};

// A (tick, steady ns) pair: the tick is the midpoint of two reads around the
// steady read. Of several tries the tightest wins, so a preemption in the
// middle of one cannot skew the calibration.
ClockPair read_pair() {
  ClockPair best{0, 0, INT64_MAX};
  for (int i = 0; i < 8; ++i) {
    int64_t t0 = read_tick();
    int64_t ns = steady_ns();
    int64_t t1 = read_tick();
    if (t1 - t0 < best.error) best = {t0 + (t1 - t0) / 2, ns, t1 - t0};
  }
  return best;
}

const ClockPair g_process_start = read_pair();
std::atomic<const TscMap*> g_tsc{nullptr};

// Publishes the TSC mapping, measured from process start until the pairing
// error is below 1e-4 of the interval (at least 2 ms: a spin only when the
// session starts sooner). Gives up, keeping steady_clock, after 50 ms of
// trying. Hub lock held.
void calibrate_tsc() {
  if (g_tsc.load(std::memory_order_relaxed) != nullptr || !has_invariant_tsc()) return;
  constexpr int64_t kMinSpanNs = 2'000'000, kMaxSpanNs = 50'000'000;
  const ClockPair& a = g_process_start;
  ClockPair b = read_pair();
  while (b.ns - a.ns < kMinSpanNs || (a.error + b.error) * 10'000 > b.tick - a.tick) {
    if (b.ns - a.ns > kMaxSpanNs) return;
    b = read_pair();
  }
  double rate = static_cast<double>(b.ns - a.ns) / static_cast<double>(b.tick - a.tick);
  if (!(rate > 0.01 && rate < 100)) return;  // a TSC this odd is not one to trust
  g_tsc.store(new TscMap{b.tick, b.ns, rate}, std::memory_order_release);  // lives forever
}

// Nanoseconds in steady_clock's epoch, from the TSC when calibrated.
int64_t clock_ns() {
  const TscMap* m = g_tsc.load(std::memory_order_acquire);
  return m != nullptr ? m->ns(read_tick()) : steady_ns();
}

std::atomic<int64_t> g_origin_ns{steady_ns()};
std::atomic<uint64_t> g_generation{0};  // the current session's, 0 when none
std::atomic<Session*> g_current{nullptr};
std::atomic<uint32_t> g_next_thread_index{0};

// Run during static initialization, i.e. on the main thread, so that the
// main thread (the interpreter) is always thread 1.
const uint32_t kMainThreadIndex = thread_index();

struct ThreadChunk {
  std::atomic<uint32_t> count{0};  // events written; owner thread stores
  uint32_t consumed = 0;           // events already delivered; hub lock
  uint64_t generation = 0;         // session the events belong to; hub lock
  int64_t first_ts = 0;            // ts of the chunk's first event; owner only
  uint32_t tid = 0;
  Event events[kChunkEvents];
};

thread_local ThreadChunk* t_chunk = nullptr;
thread_local bool t_exiting = false;

}  // namespace

// ---------------------------------------------------------------------------
// The hub: one lock, the current session, every live thread's chunk.

struct Hub {
  std::mutex mu;
  Session* session = nullptr;
  std::vector<ThreadChunk*> chunks;
  uint64_t last_generation = 0;

  // Hands the chunk's undelivered events of the current session to the sinks.
  void deliver(ThreadChunk& c) {
    uint32_t n = c.count.load(std::memory_order_acquire);
    if (session == nullptr || c.generation != session->generation_ || n <= c.consumed) return;
    std::span<const Event> events(c.events + c.consumed, n - c.consumed);
    c.consumed = n;
    for (auto& sink : session->sinks_) {
      // A failing sink loses these events but must not take the program
      // down (this may run inside a SpanScope destructor).
      try {
        sink->on_events(events, session->strings_);
      } catch (...) {
        session->note_dropped(events.size());
      }
    }
  }

  void deliver_all() {
    for (ThreadChunk* c : chunks) deliver(*c);
  }
};

namespace {

Hub& hub() {
  static Hub* h = new Hub;  // never destroyed: threads may exit after main
  return *h;
}

// Deletes the thread's chunk at thread exit, handing over what is pending.
struct ChunkOwner {
  ~ChunkOwner() {
    t_exiting = true;
    if (t_chunk == nullptr) return;
    Hub& h = hub();
    std::lock_guard lock(h.mu);
    h.deliver(*t_chunk);
    std::erase(h.chunks, t_chunk);
    delete t_chunk;
    t_chunk = nullptr;
  }
  bool armed = false;
};
thread_local ChunkOwner t_owner;

// Slow path of record(): first event of this thread, or first in a new
// session. Returns null when no session is running.
ThreadChunk* attach() {
  if (t_exiting) return nullptr;
  Hub& h = hub();
  std::lock_guard lock(h.mu);
  if (h.session == nullptr) return nullptr;
  if (t_chunk == nullptr) {
    t_owner.armed = true;  // odr-use: constructs the owner, so its destructor runs
    t_chunk = new ThreadChunk;
    t_chunk->tid = thread_index();
    h.chunks.push_back(t_chunk);
  }
  t_chunk->count.store(0, std::memory_order_relaxed);  // drop an earlier session's leftovers
  t_chunk->consumed = 0;
  t_chunk->generation = h.session->generation();
  return t_chunk;
}

// The owner thread's chunk is full or stale: deliver it and start over.
void hand_over(ThreadChunk& c) {
  Hub& h = hub();
  std::lock_guard lock(h.mu);
  h.deliver(c);
  c.count.store(0, std::memory_order_relaxed);
  c.consumed = 0;
}

}  // namespace

// ---------------------------------------------------------------------------
// Clock and thread ids.

int64_t now_ns() { return clock_ns() - g_origin_ns.load(std::memory_order_relaxed); }

uint32_t thread_index() {
  thread_local uint32_t index = 0;
  if (index == 0) index = g_next_thread_index.fetch_add(1, std::memory_order_relaxed) + 1;
  return index;
}

namespace {
std::mutex g_thread_names_mu;
std::unordered_map<uint32_t, std::string>& thread_names() {
  static auto* names = new std::unordered_map<uint32_t, std::string>();
  return *names;
}
}  // namespace

void set_thread_name(const std::string& name) {
  uint32_t tid = thread_index();
  std::lock_guard<std::mutex> lock(g_thread_names_mu);
  thread_names()[tid] = name;
}

std::string thread_name(uint32_t tid) {
  std::lock_guard<std::mutex> lock(g_thread_names_mu);
  auto it = thread_names().find(tid);
  return it == thread_names().end() ? std::string() : it->second;
}

// ---------------------------------------------------------------------------
// The hot path.

// Appends one event, written in place by fill(Event&), to the calling
// thread's chunk. In place, so a span costs no extra copy of the event.
template <typename Fill>
inline void append(Fill fill) {
  ThreadChunk* c = t_chunk;
  if (c == nullptr || c->generation != g_generation.load(std::memory_order_relaxed)) {
    c = attach();
    if (c == nullptr) return;
  }
  uint32_t n = c->count.load(std::memory_order_relaxed);
  Event& slot = c->events[n];
  fill(slot);
  if (slot.tid == 0) slot.tid = c->tid;
  if (n == 0) c->first_ts = slot.ts_ns;
  c->count.store(n + 1, std::memory_order_release);
  if (n + 1 == kChunkEvents || slot.ts_ns - c->first_ts > kStaleNs) hand_over(*c);
}

void detail::record(const Event& e) {
  append([&](Event& slot) { slot = e; });
}

// ---------------------------------------------------------------------------
// Session.

Session::Session(SessionInfo info, uint64_t generation)
    : info_(std::move(info)), generation_(generation) {}

Session::~Session() = default;

Session* Session::current() { return g_current.load(std::memory_order_acquire); }

Session& Session::start(SessionInfo info) {
  Hub& h = hub();
  std::lock_guard lock(h.mu);
  if (h.session != nullptr) throw TraceError("a trace session is already running");
  if (info.start_wall_ns == 0) {
    info.start_wall_ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
                             std::chrono::system_clock::now().time_since_epoch())
                             .count();
  }
  calibrate_tsc();
  g_origin_ns.store(clock_ns(), std::memory_order_relaxed);
  h.session = new Session(std::move(info), ++h.last_generation);
  g_current.store(h.session, std::memory_order_release);
  g_generation.store(h.session->generation_, std::memory_order_relaxed);
  detail::g_enabled.store(true, std::memory_order_relaxed);
  return *h.session;
}

void Session::stop() {
  detail::g_enabled.store(false, std::memory_order_relaxed);
  Hub& h = hub();
  Session* session = nullptr;
  std::exception_ptr first_error;
  {
    std::lock_guard lock(h.mu);
    if (h.session == nullptr) return;
    h.deliver_all();
    for (auto& sink : h.session->sinks_) {
      try {
        sink->close();
      } catch (...) {
        if (!first_error) first_error = std::current_exception();
      }
    }
    session = h.session;
    h.session = nullptr;
    g_current.store(nullptr, std::memory_order_release);
    g_generation.store(0, std::memory_order_relaxed);
  }
  delete session;  // sinks' destructors run outside the lock
  if (first_error) std::rethrow_exception(first_error);
}

void Session::add_sink(std::unique_ptr<Sink> s) {
  std::lock_guard lock(hub().mu);
  sinks_.push_back(std::move(s));
}

void Session::record(const Event& e) { detail::record(e); }

void Session::flush() {
  Hub& h = hub();
  std::lock_guard lock(h.mu);
  if (h.session != this) return;
  h.deliver_all();
  for (auto& sink : sinks_) {
    try {
      sink->flush();
    } catch (const std::exception&) {
      // A sink that cannot flush reports it at close(); flushing is best effort.
    }
  }
}

// ---------------------------------------------------------------------------
// Spans and cached names.

StrId InternedName::id() const {
  uint64_t gen = g_generation.load(std::memory_order_relaxed);
  if (gen == 0) return 0;
  uint64_t cached = cache_.load(std::memory_order_relaxed);
  if ((cached >> 32) == (gen & 0xffffffffu)) return static_cast<StrId>(cached);
  Session* s = Session::current();
  if (s == nullptr) return 0;
  StrId id = s->strings().intern(s_);
  cache_.store(((gen & 0xffffffffu) << 32) | id, std::memory_order_relaxed);
  return id;
}

void SpanScope::begin(Category cat, StrId name, Loc loc, uint64_t graph_id) {
  cat_ = cat;
  name_ = name;
  file_ = loc.file;
  line_ = loc.line;
  col_ = loc.col;
  graph_id_ = graph_id;
  active_ = true;
  start_ns_ = now_ns();  // last, so the span's own setup is not timed
}

// A field added to Event must be written in end() too.
static_assert(sizeof(Event) == 104, "Event changed: update SpanScope::end()");

void SpanScope::end() {
  int64_t end_ns = now_ns();
  // Every field by hand: `slot = Event{...}` compiles to a rep-stos and a
  // copy, a measurable part of a ~50 ns span.
  append([&](Event& slot) {
    slot.kind = EventKind::Span;
    slot.cat = cat_;
    slot.device = 0;
    slot.tid = 0;
    slot.ts_ns = start_ns_;
    slot.dur_ns = end_ns - start_ns_;
    slot.name = name_;
    slot.loc = Loc{file_, line_, col_};
    slot.graph_id = graph_id_;
    slot.flow_id = 0;
    slot.a = slot.b = slot.c = 0;
    slot.value = 0;
    slot.text = slot.detail = slot.stack = 0;
  });
}

}  // namespace kiln::trace
