// The Recompiles table: one row per Recompile event (a guard failed and the
// region was compiled again), with the region, the failed guard, expected vs
// actual, the cache entries at that point and whether automatic dynamic
// shapes kicked in. A region whose cache reached the limit (KILN_CACHE_LIMIT,
// default 8) is a recompile storm: every row of it is flagged.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "profiler_ui/model/graphs.h"
#include "profiler_ui/model/session_index.h"
#include "profiler_ui/model/table_filter.h"
#include "profiler_ui/model/table_sort.h"

namespace kiln::inspect {

struct RecompileRow {
  std::string region;          // its graph's region (older recordings: the compile span that followed)
  std::string guard;           // the failed guard
  std::string expected, actual;  // parsed from "expected X, got Y"
  std::string note;            // the rest of the detail: the fix, or the dynamic-dim note
  uint64_t cache_entries = 0;  // entries in the region's cache when it failed
  bool automatic_dynamic = false;  // "the dim is dynamic from now on"
  bool storm = false;          // the region reached the cache limit
  uint64_t region_recompiles = 0;  // recompiles of this region in the session
  uint64_t graph_id = 0;       // the graph compiled for it (recorded; older recordings: the next compiled)
  SourceLoc loc;               // the user frame when it failed
  int64_t ts_ns = 0;
  size_t event = 0;
};

struct RecompileOptions {
  uint64_t cache_limit = 8;  // KILN_CACHE_LIMIT of the recorded run
};

// Rows in time order.
std::vector<RecompileRow> recompiles(const SessionIndex& index, RecompileOptions options = {});

enum class RecompileColumn { Region, Guard, Expected, Actual, CacheEntries, Dynamic, Storm };
inline constexpr const char* kRecompileColumns[] = {"Region", "Failed guard", "Expected", "Actual",
                                                     "Cache entries", "Auto dynamic", "Storm"};
SortValue recompile_sort_key(const RecompileRow& row, int column);
bool recompile_matches(const RecompileRow& row, const TextFilter& filter);

}  // namespace kiln::inspect
