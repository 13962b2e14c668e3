// The machine's memory bandwidth, for the Kernels view's "% of bandwidth":
// given with --bandwidth, or estimated at startup by timing a copy.
#pragma once

namespace kiln::inspect::ui {

// Bytes read + written per second (GB/s, 1e9) of the best of three 64 MiB
// memcpy runs on one thread: a floor for what kernels can reach (a
// multi-threaded copy on a large machine gets more). Takes ~50 ms.
double estimate_copy_bandwidth_gbps();

}  // namespace kiln::inspect::ui
