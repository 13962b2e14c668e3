#include "jit/jit_events.h"

#include "traces/recorder.h"

namespace kiln::jit::events {

namespace {

// An event of `kind` stamped now, on this thread.
trace::Event make(trace::Session& s, trace::EventKind kind, trace::Category cat, const std::string& name) {
  trace::Event e;
  e.kind = kind;
  e.cat = cat;
  e.tid = trace::thread_index();
  e.ts_ns = trace::now_ns();
  e.name = s.strings().intern(name);
  return e;
}

trace::Loc loc_of(trace::Session& s, lang::FrameRef f) {
  if (!f.code) return {};
  const lang::Pos& p = f.code->positions[f.pc];
  return {s.strings().intern(f.code->filename), p.line, p.col};
}

}  // namespace

void graph_break(const BreakReport& b, lang::FrameRef where) {
  trace::Session* s = trace::Session::current();
  if (!s) return;
  trace::Event e = make(*s, trace::EventKind::GraphBreak, trace::Category::jit, "graph_break");
  e.text = s->strings().intern(b.message);
  e.detail = s->strings().intern(b.category);
  e.stack = s->strings().intern(b.stack);
  e.loc = loc_of(*s, where);
  s->record(e);
}

void recompile(const RecompileReport& r, size_t entries, lang::FrameRef where) {
  trace::Session* s = trace::Session::current();
  if (!s) return;
  trace::Event e = make(*s, trace::EventKind::Recompile, trace::Category::jit, "recompile");
  e.text = s->strings().intern(r.guard);
  std::string detail = "expected " + r.expected + ", got " + r.actual;
  if (r.made_dynamic) detail += "; the dim is dynamic from now on";
  else if (!r.fix.empty()) detail += "; " + r.fix;
  e.detail = s->strings().intern(detail);
  e.a = entries;
  e.loc = loc_of(*s, where);
  s->record(e);
}

void guard_fail(const RecompileReport& r, lang::FrameRef where) {
  trace::Session* s = trace::Session::current();
  if (!s) return;
  trace::Event e = make(*s, trace::EventKind::GuardFail, trace::Category::jit, "guard_fail");
  e.text = s->strings().intern(r.guard + " at " + r.start);
  e.detail = s->strings().intern("expected " + r.expected + ", got " + r.actual);
  e.loc = loc_of(*s, where);
  s->record(e);
}

void compiled(const std::string& region, const GraphReport& g, int64_t start_ns) {
  trace::Session* s = trace::Session::current();
  if (!s) return;
  trace::Event span = make(*s, trace::EventKind::Span, trace::Category::compile, "compile " + region);
  span.dur_ns = span.ts_ns - start_ns;
  span.ts_ns = start_ns;
  span.graph_id = g.id;
  s->record(span);
  trace::Event ir = make(*s, trace::EventKind::Log, trace::Category::jit, "graph");
  ir.graph_id = g.id;
  ir.text = s->strings().intern(g.text);
  s->record(ir);
}

void log(const char* name, const std::string& text) {
  trace::Session* s = trace::Session::current();
  if (!s) return;
  trace::Event e = make(*s, trace::EventKind::Log, trace::Category::jit, name);
  e.text = s->strings().intern(text);
  s->record(e);
}

void counter(const std::string& name, double value) {
  trace::Session* s = trace::Session::current();
  if (!s) return;
  trace::Event e = make(*s, trace::EventKind::Counter, trace::Category::jit, name);
  e.value = value;
  s->record(e);
}

}  // namespace kiln::jit::events
