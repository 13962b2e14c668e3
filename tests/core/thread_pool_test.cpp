#include <gtest/gtest.h>

#include <atomic>
#include <vector>

#include "core/error.h"
#include "core/thread_pool.h"

namespace kiln {
namespace {

TEST(ThreadPool, CoversRangeExactlyOnce) {
  std::vector<std::atomic<int>> hits(100000);
  parallel_for(0, 100000, 1000, [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i) hits[size_t(i)]++;
  });
  for (auto& h : hits) ASSERT_EQ(h.load(), 1);
}

TEST(ThreadPool, SmallRangesRunInline) {
  int calls = 0;
  parallel_for(0, 10, 1000, [&](int64_t b, int64_t e) {
    ++calls;
    EXPECT_EQ(b, 0);
    EXPECT_EQ(e, 10);
  });
  EXPECT_EQ(calls, 1);
}

TEST(ThreadPool, ExceptionsReachTheCaller) {
  EXPECT_THROW(parallel_for(0, 1 << 20, 1024,
                            [&](int64_t b, int64_t) {
                              if (b > 0) throw Error("boom");
                            }),
               Error);
  // The pool is still usable afterwards.
  std::atomic<int64_t> total{0};
  parallel_for(0, 1 << 20, 1024, [&](int64_t b, int64_t e) { total += e - b; });
  EXPECT_EQ(total.load(), 1 << 20);
}

TEST(ThreadPool, NestedCallsRunInline) {
  std::atomic<int64_t> total{0};
  parallel_for(0, 1 << 16, 1024, [&](int64_t b, int64_t e) {
    parallel_for(b, e, 1, [&](int64_t ib, int64_t ie) { total += ie - ib; });
  });
  EXPECT_EQ(total.load(), 1 << 16);
}

}  // namespace
}  // namespace kiln
