// Cache sizes from sysfs and the streaming-store threshold derived from them.
#include "core/cpu_cache.h"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include "core/error.h"

namespace kiln {

namespace {

// The size of a cache level from sysfs ("32768K"), 0 where unknown. sysfs
// rather than sysconf: glibc's cpuid-based answer in a VM can be the host's
// (320 MiB for a guest whose L3 is 32 MiB).
int64_t sysfs_cache_bytes(int index) {
  std::ifstream in("/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(index) + "/size");
  int64_t n = 0;
  char unit = 0;
  if (!(in >> n)) return 0;
  in >> unit;
  return unit == 'K' ? n << 10 : unit == 'M' ? n << 20 : n;
}

// CPUs sharing that cache ("0-1,4"), at least 1.
int64_t sysfs_cache_sharers(int index) {
  std::ifstream in("/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(index) + "/shared_cpu_list");
  std::string list;
  if (!(in >> list)) return 1;
  int64_t count = 0;
  std::stringstream parts(list);
  for (std::string part; std::getline(parts, part, ',');) {
    const size_t dash = part.find('-');
    count += dash == std::string::npos ? 1 : std::atoll(part.c_str() + dash + 1) - std::atoll(part.c_str()) + 1;
  }
  return std::max<int64_t>(count, 1);
}

// glibc's rule for memcpy's non-temporal threshold: three quarters of a
// thread's share of the last-level cache. KILN_STREAMING_STORES=BYTES sets it
// (0: never stream), for tests and comparisons.
int64_t streaming_store_bytes_uncached() {
  if (const char* v = std::getenv("KILN_STREAMING_STORES")) {
    char* end = nullptr;
    const long long n = std::strtoll(v, &end, 10);
    KILN_CHECK(end != v && *end == '\0' && n >= 0, Value, "KILN_STREAMING_STORES must be a byte count (0: never), not '",
               v, "'");
    return n;
  }
  const int64_t l3 = sysfs_cache_bytes(3);
  return l3 > 0 ? l3 * 3 / 4 / sysfs_cache_sharers(3) : 0;
}

}  // namespace

int64_t streaming_store_bytes() {
  static const int64_t bytes = streaming_store_bytes_uncached();
  return bytes;
}

}  // namespace kiln
