// Compare two sessions (before and after a change): graphs matched by IR
// hash (locations stripped, so moved lines still match) and region, graph
// breaks by category and location, recompiles by region and guard, kernels
// by name; each row says which side has it and the difference.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "profiler_ui/model/session_index.h"
#include "profiler_ui/model/summary.h"

namespace kiln::inspect {

enum class Presence : uint8_t { Both, OnlyA, OnlyB };
const char* presence_name(Presence p);  // "both", "only in A", "only in B"

struct GraphDiff {
  std::string region;
  uint64_t hash = 0;
  uint64_t id_a = 0, id_b = 0;  // 0 when absent on that side
  int op_count_a = 0, op_count_b = 0;
  int64_t compile_ns_a = 0, compile_ns_b = 0;
  Presence presence = Presence::Both;
};

struct BreakDiff {
  std::string category;
  SourceLoc loc;
  std::string message;
  uint64_t count_a = 0, count_b = 0;
  int64_t time_lost_a = 0, time_lost_b = 0;
  Presence presence = Presence::Both;
};

struct RecompileDiff {
  std::string region, guard;
  uint64_t count_a = 0, count_b = 0;
  Presence presence = Presence::Both;
};

struct KernelDiff {
  std::string name;
  uint64_t calls_a = 0, calls_b = 0;
  int64_t total_ns_a = 0, total_ns_b = 0;
  double mean_ns_a = 0, mean_ns_b = 0;
  double change_percent = 0;  // (total_b - total_a) / total_a * 100; 0 when absent on a side
  Presence presence = Presence::Both;
};

struct Comparison {
  Summary a, b;
  std::vector<GraphDiff> graphs;          // by region, then hash
  std::vector<BreakDiff> breaks;          // by |count change| descending
  std::vector<RecompileDiff> recompiles;  // by region, guard
  std::vector<KernelDiff> kernels;        // by |total change| descending
};

Comparison compare_sessions(const SessionIndex& a, const SessionIndex& b);

}  // namespace kiln::inspect
