// A per-thread, grow-only buffer for generated kernels (jit/row_scratch.h).
#include "jit/row_scratch.h"

#include <cstdio>
#include <cstdlib>
#include <memory>

namespace {

struct Scratch {
  struct Free {
    void operator()(void* p) const { std::free(p); }
  };
  std::unique_ptr<void, Free> data;
  int64_t size = 0;
};

}  // namespace

extern "C" void* kiln_row_scratch(int64_t bytes) noexcept {
  thread_local Scratch s;
  if (bytes > s.size) {
    const int64_t size = (bytes + 63) / 64 * 64;
    s.data.reset();  // free first: the old contents are not needed
    s.data.reset(std::aligned_alloc(64, size_t(size)));
    if (!s.data) {
      std::fprintf(stderr, "kiln: out of memory for a kernel's row buffer (%lld bytes)\n", (long long)size);
      std::abort();
    }
    s.size = size;
  }
  return s.data.get();
}
