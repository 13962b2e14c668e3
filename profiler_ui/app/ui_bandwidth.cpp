// Copy-bandwidth estimate (see ui_bandwidth.h).
#include "profiler_ui/app/ui_bandwidth.h"

#include <chrono>
#include <cstring>
#include <vector>

namespace kiln::inspect::ui {

double estimate_copy_bandwidth_gbps() {
  const size_t bytes = size_t(64) << 20;
  std::vector<char> src(bytes, 1), dst(bytes, 0);
  double best_ns = 0;
  for (int i = 0; i < 3; ++i) {
    auto t0 = std::chrono::steady_clock::now();
    std::memcpy(dst.data(), src.data(), bytes);
    double ns = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count();
    if (best_ns == 0 || ns < best_ns) best_ns = ns;
  }
  // Keep the copy observable so it is not optimized away.
  volatile char sink = dst[bytes / 2];
  (void)sink;
  return best_ns > 0 ? 2.0 * static_cast<double>(bytes) / best_ns : 0;
}

}  // namespace kiln::inspect::ui
