// Parsing the graph IR text and the fusion plan the runtime records, and
// matching fused kernel names back to the graph nodes they hold.
#include "profiler_ui/model/graphs.h"

#include <algorithm>
#include <charconv>

namespace kiln::inspect {

namespace {

std::string_view trim(std::string_view s) {
  size_t b = s.find_first_not_of(" \t\r");
  if (b == std::string_view::npos) return {};
  size_t e = s.find_last_not_of(" \t\r");
  return s.substr(b, e - b + 1);
}

bool parse_int(std::string_view s, int32_t& out) {
  if (s.empty() || s.size() > 9) return false;
  auto r = std::from_chars(s.data(), s.data() + s.size(), out);
  return r.ec == std::errc() && r.ptr == s.data() + s.size();
}

// Calls fn(line) for each line of `text`.
template <typename Fn>
void for_each_line(std::string_view text, Fn&& fn) {
  while (!text.empty()) {
    size_t nl = text.find('\n');
    fn(text.substr(0, nl));
    if (nl == std::string_view::npos) break;
    text.remove_prefix(nl + 1);
  }
}

// "where.self" -> "where_self": how op names appear inside kernel names.
std::string kernel_token(std::string_view op) {
  std::string t(op);
  std::replace(t.begin(), t.end(), '.', '_');
  return t;
}

}  // namespace

std::string SourceLoc::str() const {
  if (file.empty()) return {};
  return line > 0 ? file + ":" + std::to_string(line) : file;
}

SourceLoc parse_source_loc(std::string_view text) {
  text = trim(text);
  SourceLoc loc;
  // Up to two trailing ":number" parts: line, or line and column.
  int32_t nums[2] = {0, 0};
  int found = 0;
  while (found < 2) {
    size_t colon = text.rfind(':');
    if (colon == std::string_view::npos) break;
    int32_t v;
    if (!parse_int(text.substr(colon + 1), v)) break;
    nums[found++] = v;
    text = text.substr(0, colon);
  }
  if (found == 0 || text.empty()) return {};
  loc.file = std::string(text);
  loc.line = found == 2 ? nums[1] : nums[0];
  loc.col = found == 2 ? nums[0] : 0;
  return loc;
}

// Grammar of a node line (jit/graph.cpp's TextWriter):
//   "  %N: TYPE[, %M: TYPE]* = OP(ARGS)   # FILE:LINE:COL"
std::vector<GraphNode> parse_graph_ir(std::string_view ir_text) {
  std::vector<GraphNode> nodes;
  for_each_line(ir_text, [&](std::string_view raw) {
    std::string_view line = trim(raw);
    if (line.empty() || line[0] != '%') return;
    size_t eq = line.find(" = ");
    if (eq == std::string_view::npos) return;
    GraphNode n;
    n.index = int(nodes.size());
    std::string_view lhs = line.substr(0, eq), rhs = line.substr(eq + 3);
    if (size_t hash = rhs.rfind(" # "); hash != std::string_view::npos) {
      n.loc = parse_source_loc(rhs.substr(hash + 3));
      rhs = trim(rhs.substr(0, hash));
    }
    size_t colon = lhs.find(':');
    n.value = std::string(trim(lhs.substr(0, colon)));
    if (colon != std::string_view::npos) n.type = std::string(trim(lhs.substr(colon + 1)));
    n.op = std::string(trim(rhs.substr(0, rhs.find('('))));
    n.text = std::string(lhs) + " = " + std::string(rhs);
    nodes.push_back(std::move(n));
  });
  return nodes;
}

// Grammar of a plan line (jit/fusion.cpp's plan_text):
//   "kernel NAME [N nodes, S stores]"  |  "eager OP" [" (rebound)"]
std::vector<FusedGroup> parse_fusion_plan(std::string_view plan_text) {
  std::vector<FusedGroup> groups;
  for_each_line(plan_text, [&](std::string_view raw) {
    std::string_view line = trim(raw);
    FusedGroup g;
    if (line.rfind("kernel ", 0) == 0) {
      std::string_view rest = line.substr(7);
      size_t br = rest.find(" [");
      g.fused = true;
      g.kernel = std::string(trim(rest.substr(0, br)));
      if (br != std::string_view::npos) {
        std::string_view counts = rest.substr(br + 2);
        int32_t v;
        size_t sp = counts.find(' ');
        if (parse_int(counts.substr(0, sp), v)) g.nodes = v;
        size_t comma = counts.find(", ");
        if (comma != std::string_view::npos) {
          std::string_view s = counts.substr(comma + 2);
          if (parse_int(s.substr(0, s.find(' ')), v)) g.stores = v;
        }
      }
    } else if (line.rfind("eager ", 0) == 0) {
      std::string_view op = line.substr(6);
      g.kernel = std::string(trim(op.substr(0, op.find(" ("))));
      g.nodes = 1;
    } else {
      return;
    }
    groups.push_back(std::move(g));
  });
  return groups;
}

uint64_t graph_ir_hash(std::string_view ir_text) {
  uint64_t h = 0xcbf29ce484222325ull;
  auto mix = [&](char c) { h = (h ^ static_cast<unsigned char>(c)) * 0x100000001b3ull; };
  for_each_line(ir_text, [&](std::string_view line) {
    if (size_t hash = line.rfind(" # "); hash != std::string_view::npos) line = line.substr(0, hash);
    bool space = false;
    for (char c : trim(line)) {
      if (c == ' ') {
        space = true;
        continue;
      }
      if (space) mix(' ');
      space = false;
      mix(c);
    }
    mix('\n');
  });
  return h;
}

std::vector<int> nodes_of_fused_kernel(std::string_view kernel_name, const std::vector<GraphNode>& nodes,
                                       std::vector<bool>* claimed) {
  std::vector<int> out;
  if (kernel_name.rfind("fused_", 0) != 0) return out;
  std::string_view rest = kernel_name.substr(6);
  for (const GraphNode& n : nodes) {
    if (rest.empty() || rest == "etc") break;
    if (claimed && (*claimed)[size_t(n.index)]) continue;
    std::string tok = kernel_token(n.op);
    if (tok.empty() || rest.compare(0, tok.size(), tok) != 0) continue;
    if (rest.size() != tok.size() && rest[tok.size()] != '_') continue;
    out.push_back(n.index);
    rest.remove_prefix(std::min(rest.size(), tok.size() + 1));
  }
  if (claimed)
    for (int i : out) (*claimed)[size_t(i)] = true;
  return out;
}

std::vector<int> nodes_of_fused_kernel(std::string_view kernel_name, const std::vector<GraphNode>& nodes) {
  return nodes_of_fused_kernel(kernel_name, nodes, nullptr);
}

}  // namespace kiln::inspect
