// Writes a synthetic .kilntrace with about N events shaped like a training
// run (interpreter calls with nested ops, compile spans with phases, fused
// and eager kernels on worker threads, graph breaks and recompiles), for the
// timeline frame-time benchmark: kiln-inspect --bench-frames 120 --view
// timeline big.kilntrace. Usage: make_big_trace OUT.kilntrace [N]
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <vector>

#include "traces/kilntrace_sink.h"

using namespace kiln::trace;

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: make_big_trace OUT.kilntrace [EVENTS]\n");
    return 2;
  }
  size_t target = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 1000000;
  try {
    SessionInfo info;
    info.script_path = "synthetic.py";
    info.kiln_version = "synthetic";
    info.source_text = "for step in range(1000000):\n    loss = model(x)\n    print(loss.item())\n";
    KilntraceSink sink(argv[1], info);
    StringTable strings;
    StrId call = strings.intern("Module.__call__"), op = strings.intern("linear"), fused = strings.intern("fused_add_relu");
    StrId eager = strings.intern("mm"), compile = strings.intern("compile loop at synthetic.py:1"),
          brk = strings.intern("graph break"), msg = strings.intern("Tensor.item() reads a value into Python"),
          item = strings.intern("item"), file = strings.intern("synthetic.py");
    std::vector<Event> batch;
    int64_t t = 0;
    size_t n = 0;
    auto flush = [&] {
      sink.on_events(batch, strings);
      batch.clear();
    };
    for (uint64_t step = 0; n < target; ++step) {
      // One step: an interpreter call holding 4 ops, kernels on 2 workers.
      Event c{.kind = EventKind::Span, .cat = Category::interpreter, .tid = 1, .ts_ns = t, .dur_ns = 4000, .name = call};
      batch.push_back(c);
      for (int i = 0; i < 4; ++i) {
        batch.push_back(Event{.kind = EventKind::Span, .cat = Category::interpreter, .tid = 1,
                              .ts_ns = t + 100 + i * 950, .dur_ns = 800, .name = op});
        batch.push_back(Event{.kind = EventKind::Kernel, .cat = Category::kernel, .tid = 2 + static_cast<uint32_t>(i % 2),
                              .ts_ns = t + 150 + i * 950, .dur_ns = 600, .name = i % 2 ? eager : fused,
                              .a = 4096, .b = 4096, .c = 1024});
      }
      n += 9;
      if (step % 5000 == 0) {
        batch.push_back(Event{.kind = EventKind::Span, .cat = Category::compile, .tid = 1, .ts_ns = t + 4100,
                              .dur_ns = 2000, .name = compile, .graph_id = step / 5000 + 1});
        n += 1;
      }
      if (step % 1000 == 500) {
        batch.push_back(Event{.kind = EventKind::GraphBreak, .cat = Category::jit, .tid = 1, .ts_ns = t + 4050,
                              .name = brk, .loc = {file, 3, 11}, .text = msg, .detail = item});
        n += 1;
      }
      t += 5000 + (step % 1000 == 500 ? 20000 : 0);
      if (batch.size() > 4096) flush();
    }
    flush();
    sink.close();
    if (!sink.error().empty()) throw TraceError(sink.error());
    std::printf("make_big_trace: %zu events, %.3f s of session in %s\n", n, static_cast<double>(t) / 1e9, argv[1]);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "make_big_trace: %s\n", e.what());
    return 1;
  }
  return 0;
}
