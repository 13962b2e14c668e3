// The largest single allocation Kiln attempts for a tensor's storage or a
// script's list or str: physical memory unless lowered (the fuzz targets
// lower it). Larger requests fail up front with a clean error instead of
// inside the allocator, where sanitizers abort and Linux may kill later.
#pragma once

#include <cstddef>

namespace kiln {

void set_alloc_limit(size_t bytes);  // clamped to physical memory
size_t alloc_limit();

}  // namespace kiln
