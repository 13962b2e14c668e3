// torch._C._profiler_*: the natives prelude/profiler.py calls. torch.profiler records through
// Kiln's one event model (traces/): a profile starts a trace session when none runs (the
// runner's --trace, --record or KILN_LOGS may have one already), attaches a sink that keeps the
// events of the profiled span, and suspends deferral meanwhile, so that every op runs, and is
// recorded as a Kernel event, on its own, as PyTorch's eager ops are; JIT modes then profile
// alike. record_function ranges are Span events marked "user_annotation" in their detail. The
// profile's copy names kernels as PyTorch's ops: aten::mm.
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "core/lang/interp.h"
#include "core/lang/objops.h"
#include "core/lazy.h"
#include "traces/chrome_trace.h"
#include "traces/recorder.h"

namespace kiln::lang {

namespace {

namespace tr = kiln::trace;

// The events of one finished profile, their strings copied out of the session's table.
struct Profile {
  tr::SessionInfo info;  // of the session it was recorded in: the trace opens with it
  std::vector<tr::Event> events;
  std::unique_ptr<tr::StringTable> strings = std::make_unique<tr::StringTable>();
};

// Keeps the events recorded between begin() and end(); attached to the session for its life.
class ProfileSink : public tr::Sink {
 public:
  void on_events(std::span<const tr::Event> events, const tr::StringTable& strings) override {
    std::lock_guard<std::mutex> lock(mu_);
    if (!active_) return;
    for (const tr::Event& e : events)
      if (e.ts_ns >= start_ns_) profile_->events.push_back(copy(e, strings));
  }
  void begin(int64_t start_ns, const tr::SessionInfo& info) {
    std::lock_guard<std::mutex> lock(mu_);
    profile_ = std::make_unique<Profile>();
    profile_->info = info;
    start_ns_ = start_ns;
    active_ = true;
  }
  std::unique_ptr<Profile> end() {
    std::lock_guard<std::mutex> lock(mu_);
    active_ = false;
    return std::move(profile_);
  }

 private:
  tr::Event copy(const tr::Event& e, const tr::StringTable& from) {
    tr::StringTable& to = *profile_->strings;
    auto move = [&](tr::StrId id) { return id ? to.intern(from.str(id)) : tr::StrId{0}; };
    tr::Event c = e;
    // Ops by PyTorch's names, in the tables and the exported trace alike.
    c.name = e.kind == tr::EventKind::Kernel ? to.intern("aten::" + std::string(from.str(e.name))) : move(e.name);
    c.loc.file = move(e.loc.file);
    c.text = move(e.text);
    c.detail = move(e.detail);
    c.stack = move(e.stack);
    return c;
  }

  std::mutex mu_;
  bool active_ = false;
  int64_t start_ns_ = 0;
  std::unique_ptr<Profile> profile_;
};

struct State {
  ProfileSink* sink = nullptr;  // owned by the session of `generation`
  uint64_t generation = 0;
  bool own_session = false;
  // Deleted by _profiler_stop; never at exit, where the thread whose deferral it suspends
  // (the interpreter's) is gone.
  lazy::Suspend* eager = nullptr;
  std::map<int64_t, std::unique_ptr<Profile>> done;  // by the id _profiler_stop returned
  int64_t next_id = 1;
};
State& state() {
  static State s;
  return s;
}

// What a profile's own session is about, as the runner's would say (the runner sets
// Interp::kiln_version).
tr::SessionInfo own_session_info(const Interp& in) {
  tr::SessionInfo info{in.argv.empty() ? "" : in.argv[0], in.argv, in.kiln_version, "", 0};
  std::ifstream f(info.script_path, std::ios::binary);
  std::stringstream text;
  text << f.rdbuf();
  info.source_text = text.str();
  return info;
}

Obj f_start(Interp& in, const CallArgs& a) {
  a.check("_profiler_start", 0, 0);
  State& st = state();
  KILN_CHECK(!st.eager, Runtime, "Profiler is already enabled on this thread");
  tr::Session* s = tr::Session::current();
  if (!s) {
    s = &tr::Session::start(own_session_info(in));
    st.own_session = true;
  }
  st.eager = new lazy::Suspend(lazy::SyncReason::Disabled);  // runs what pends first
  if (!st.sink || st.generation != s->generation()) {
    auto sink = std::make_unique<ProfileSink>();
    st.sink = sink.get();
    st.generation = s->generation();
    s->add_sink(std::move(sink));
  }
  s->flush();  // what was recorded before reaches the sink before it listens
  st.sink->begin(tr::now_ns(), s->info());
  return Obj();
}

Obj f_stop(Interp&, const CallArgs& a) {
  a.check("_profiler_stop", 0, 0);
  State& st = state();
  KILN_CHECK(st.eager, Runtime, "Can't disable Kineto profiler when it's not running");
  std::unique_ptr<Profile> p;
  if (tr::Session* s = tr::Session::current(); s && s->generation() == st.generation) {
    s->flush();
    p = st.sink->end();
  }
  if (st.own_session && tr::Session::current()) tr::Session::stop();
  if (st.own_session) st.sink = nullptr;
  st.own_session = false;
  delete st.eager;
  st.eager = nullptr;
  const int64_t id = st.next_id++;
  st.done[id] = p ? std::move(p) : std::make_unique<Profile>();
  return Obj::from_int(id);
}

const Profile& profile_of(const Obj& id) {
  KILN_CHECK(id.is_intlike(), Type, "profile id must be an int");
  auto it = state().done.find(id.as_int());
  KILN_CHECK(it != state().done.end(), Value, "no such profile: ", id.as_int());
  return *it->second;
}

// The timed events of a profile as tuples (kind, category, name, ts_ns, dur_ns, text, detail,
// thread, bytes read, bytes written), in recording order per thread.
Obj f_events(Interp&, const CallArgs& a) {
  a.check("_profiler_events", 1, 1);
  const Profile& p = profile_of(a.pos[0]);
  std::vector<Obj> out;
  for (const tr::Event& e : p.events) {
    if (e.kind != tr::EventKind::Span && e.kind != tr::EventKind::Kernel && e.kind != tr::EventKind::GpuKernel)
      continue;
    auto s = [&](tr::StrId id) { return make_str(std::string(p.strings->str(id))); };
    out.push_back(make_tuple({make_str(tr::event_kind_name(e.kind)), make_str(tr::category_name(e.cat)), s(e.name),
                              Obj::from_int(e.ts_ns), Obj::from_int(e.dur_ns), s(e.text), s(e.detail),
                              Obj::from_int(e.tid), Obj::from_int(int64_t(e.a)), Obj::from_int(int64_t(e.b))}));
  }
  return make_list(std::move(out));
}

Obj f_export(Interp&, const CallArgs& a) {
  a.check("_profiler_export_chrome_trace", 2, 2);
  const Profile& p = profile_of(a.pos[0]);
  try {
    tr::ChromeTraceSink sink(str_of(a.pos[1], "path"), p.info);
    sink.on_events(p.events, *p.strings);
    sink.close();
  } catch (const tr::TraceError& e) {
    throw Error(e.what(), ErrorKind::Runtime);
  }
  return Obj();
}

// (now_ns, thread) on the trace clock: profile's step ranges, kept in Python since they begin
// and end inside profile's own calls (as Span events they would cross those calls' spans).
Obj f_clock(Interp&, const CallArgs& a) {
  a.check("_profiler_clock", 0, 0);
  return make_tuple({Obj::from_int(tr::enabled() ? tr::now_ns() : -1), Obj::from_int(tr::thread_index())});
}

// record_function's __enter__ and __exit__ (natives, so no interpreter span of their own cuts
// across the range): enter notes the start time on the instance (-1 when nothing records),
// exit records the range as a Span named by its `name`.
InstanceObj& range_of(const CallArgs& a) {
  InstanceObj* r = a.self.as<InstanceObj>();
  KILN_CHECK(r, Type, "record_function's __enter__/__exit__ need a record_function instance");
  return *r;
}

Obj f_range_enter(Interp&, const CallArgs& a) {
  a.check("__enter__", 0, 0);
  range_of(a).attrs.set("_start", Obj::from_int(tr::enabled() ? tr::now_ns() : -1));
  return a.self;
}

Obj f_range_exit(Interp&, const CallArgs& a) {
  a.check("__exit__", 0, 3);
  InstanceObj& r = range_of(a);
  const Obj* start = r.attrs.find("_start");
  const Obj* name = r.attrs.find("name");
  tr::Session* s = tr::Session::current();
  if (!start || !start->is_intlike() || start->as_int() < 0 || !s || !name) return Obj::from_bool(false);
  tr::Event e;
  e.kind = tr::EventKind::Span;
  e.cat = tr::Category::interpreter;
  e.tid = tr::thread_index();
  e.ts_ns = start->as_int();
  e.dur_ns = tr::now_ns() - e.ts_ns;
  e.name = s->strings().intern(str_of(*name, "name"));
  e.detail = s->strings().intern("user_annotation");
  s->record(e);
  return Obj::from_bool(false);
}

}  // namespace

void add_profiler_natives(ModuleObj& c) {
  static const std::pair<const char*, NativeFn> natives[] = {
      {"_profiler_start", f_start},
      {"_profiler_stop", f_stop},
      {"_profiler_events", f_events},
      {"_profiler_export_chrome_trace", f_export},
      {"_profiler_clock", f_clock},
      {"_record_function_enter", f_range_enter},
      {"_record_function_exit", f_range_exit},
  };
  for (const auto& [name, fn] : natives) c.attrs.set(name, make_builtin(name, fn));
}

}  // namespace kiln::lang
