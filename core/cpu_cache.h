// What kernels need to know about the CPU's caches.
#pragma once

#include <cstdint>

namespace kiln {

// The bytes a kernel's element stores must write in all before they bypass
// the cache with non-temporal stores (kir::Kernel::streams): three quarters of
// a CPU's share of the last-level cache, glibc's rule for memcpy, read from
// sysfs once; KILN_STREAMING_STORES=BYTES sets it (0: never stream). 0 where
// the cache size is unknown. Throws kiln::Error on a malformed
// KILN_STREAMING_STORES.
int64_t streaming_store_bytes();

}  // namespace kiln
