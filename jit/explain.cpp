// `kiln explain`: the runtime's report as text for people and JSON for tools.
#include <nlohmann/json.hpp>

#include <cstdio>
#include <sstream>

#include "jit/runtime.h"

namespace kiln::jit {

namespace {

std::string ms(int64_t ns) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f ms", double(ns) / 1e6);
  return buf;
}

size_t total_graphs(const Report& r) {
  size_t n = 0;
  for (const RegionReport& g : r.regions) n += g.graphs.size();
  return n;
}

void format_region(std::ostringstream& out, const RegionReport& r) {
  out << "\n" << r.kind << " region " << r.name << " (" << r.loc << "): " << r.graphs.size() << " graph"
      << (r.graphs.size() == 1 ? "" : "s") << ", " << r.recompiles.size() << " recompile"
      << (r.recompiles.size() == 1 ? "" : "s") << "\n";
  for (const GraphReport& g : r.graphs) {
    out << "  graph " << g.id << " at " << g.start << ": " << g.ops << " ops, " << g.guards << " guards, ran "
        << g.hits + 1 << "x (guard checks " << g.guard_checks << ", " << ms(g.guard_ns) << "), hash " << g.hash
        << "\n";
    if (!g.check_failure.empty()) out << "    KILN_JIT_CHECK: " << g.check_failure << "\n";
    std::istringstream lines(g.text);
    for (std::string line; std::getline(lines, line);) out << "    " << line << "\n";
    if (g.plan.empty()) continue;
    out << "    compiled: " << g.kernels << " fused kernel" << (g.kernels == 1 ? "" : "s") << " in "
        << ms(g.compile_ns) << " (" << g.kernel_sources.compiled << " compiled, " << g.kernel_sources.disk
        << " from the disk cache, " << g.kernel_sources.memory << " from memory)\n";
    std::istringstream steps(g.plan);
    for (std::string line; std::getline(steps, line);) out << "      " << line << "\n";
  }
  for (const RecompileReport& c : r.recompiles) {
    out << "  recompile at " << c.start << ": " << c.guard << ": expected " << c.expected << ", got " << c.actual;
    if (c.made_dynamic) out << " (" << c.dynamic_note() << ")";
    else if (!c.fix.empty()) out << "; " << c.fix;
    out << "\n";
  }
  for (const std::string& w : r.warnings) out << "  warning: " << w << "\n";
  if (r.eager_runs) out << "  " << r.eager_runs << " graph runs uncompiled (cache limit)\n";
}

}  // namespace

std::string format_report(const Report& r) {
  std::ostringstream out;
  size_t breaks = 0;
  for (const BreakReport& b : r.breaks) breaks += b.count;
  out << "kiln explain: " << r.regions.size() << " region" << (r.regions.size() == 1 ? "" : "s") << ", "
      << total_graphs(r) << " graphs, " << breaks << " graph breaks at " << r.breaks.size() << " place"
      << (r.breaks.size() == 1 ? "" : "s") << "\n";
  for (const RegionReport& region : r.regions) format_region(out, region);
  if (!r.breaks.empty()) out << "\ngraph breaks, most interpreted time first:\n";
  for (const BreakReport& b : r.breaks) {
    out << "  " << b.loc << " [" << b.category << "] x" << b.count << ", " << ms(b.interpreted_ns)
        << " interpreted after it\n    " << b.message << "\n    user stack: " << b.stack << "\n";
  }
  return out.str();
}

std::string report_json(const Report& r) {
  using nlohmann::json;
  json regions = json::array();
  for (const RegionReport& region : r.regions) {
    json graphs = json::array(), recompiles = json::array();
    for (const GraphReport& g : region.graphs)
      graphs.push_back({{"id", g.id}, {"start", g.start}, {"ops", g.ops}, {"guards", g.guards},
                        {"runs", g.hits + 1}, {"guard_checks", g.guard_checks}, {"guard_ns", g.guard_ns},
                        {"hash", g.hash}, {"ir", g.text}, {"check_failure", g.check_failure},
                        {"kernels", g.kernels}, {"plan", g.plan}, {"compile_ns", g.compile_ns},
                        {"kernels_compiled", g.kernel_sources.compiled}, {"kernels_from_disk", g.kernel_sources.disk},
                        {"kernels_from_memory", g.kernel_sources.memory}});
    for (const RecompileReport& c : region.recompiles)
      recompiles.push_back({{"start", c.start}, {"guard", c.guard}, {"expected", c.expected},
                            {"actual", c.actual}, {"fix", c.fix}, {"made_dynamic", c.made_dynamic}, {"ints_dynamic", c.ints_dynamic}});
    regions.push_back({{"kind", region.kind}, {"name", region.name}, {"loc", region.loc}, {"graphs", graphs},
                       {"recompiles", recompiles}, {"warnings", region.warnings},
                       {"eager_runs", region.eager_runs}});
  }
  json breaks = json::array();
  for (const BreakReport& b : r.breaks)
    breaks.push_back({{"category", b.category}, {"message", b.message}, {"loc", b.loc}, {"stack", b.stack},
                      {"count", b.count}, {"interpreted_ns", b.interpreted_ns}});
  json doc = {{"graphs", total_graphs(r)}, {"regions", regions}, {"breaks", breaks}};
  return doc.dump(2) + "\n";
}

}  // namespace kiln::jit
