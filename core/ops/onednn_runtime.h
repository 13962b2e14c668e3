// What every oneDNN primitive Kiln runs shares: one CPU engine, a stream per
// calling thread, and the thread count of Kiln's pool (oneDNN threads with
// OpenMP, on the same team as the pool: core/thread_pool.cpp).
#pragma once

#include <string>

#include <dnnl.hpp>

namespace kiln {
namespace ops {

dnnl::engine& onednn_engine();
dnnl::stream& onednn_stream();  // this thread's

// Sets this thread's OpenMP count to the pool's before a primitive runs.
// Every time: OpenBLAS's OpenMP build sets the same per-thread count (blas.cpp
// runs it on 1 thread beside the pool), and setting it is a store.
void onednn_match_threads();

// Whether environment variable `var` leaves oneDNN on: unset, empty or
// "onednn"; `off` turns it off; anything else raises a ValueError naming both.
bool onednn_enabled_by(const char* var, const char* off);

// Whether oneDNN would run a primitive on its reference (unvectorised)
// implementation, slower than Kiln's own kernels.
bool onednn_is_reference(const std::string& impl_info);

}  // namespace ops
}  // namespace kiln
