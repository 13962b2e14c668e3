// The CUDA caching allocator's policy, on a fake device: size classes,
// splitting and merging, stream-ordered reuse, out-of-memory handling,
// statistics and their trace counters.
#include "gpu/caching_allocator.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <mutex>
#include <random>
#include <thread>

#include "core/error.h"
#include "traces/recorder.h"

namespace kiln::gpu {
namespace {

constexpr size_t KiB = 1024, MiB = 1024 * KiB, GiB = 1024 * MiB;
using CA = CachingAllocator;

Stream stream(uintptr_t n) { return reinterpret_cast<Stream>(n); }

// A device of `capacity` bytes. Addresses are handed out upwards and never
// reused, 2 MiB apart at least, so distinct segments never touch. Markers
// complete only when the test says so (complete()) or the allocator waits.
class FakeDevice : public DeviceMemoryBackend {
 public:
  explicit FakeDevice(size_t capacity) : capacity_(capacity) {}

  void* alloc(size_t bytes) override {
    std::lock_guard<std::mutex> lock(mu_);
    if (used_ + bytes > capacity_) {
      ++failed_allocs;
      return nullptr;
    }
    ++allocs;
    used_ += bytes;
    uintptr_t p = next_;
    next_ += (bytes + 4 * MiB - 1) / (2 * MiB) * (2 * MiB);
    segments_[p] = bytes;
    return reinterpret_cast<void*>(p);
  }
  void free(void* ptr) override {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = segments_.find(reinterpret_cast<uintptr_t>(ptr));
    if (it == segments_.end()) {
      ADD_FAILURE() << "free of " << ptr << ", not a live segment";
      return;
    }
    ++frees;
    used_ -= it->second;
    segments_.erase(it);
  }
  uint64_t record(Stream s) override {
    std::lock_guard<std::mutex> lock(mu_);
    markers_[next_marker_] = {s, false};
    return next_marker_++;
  }
  bool done(uint64_t m) override {
    std::lock_guard<std::mutex> lock(mu_);
    return marker(m).done;
  }
  void wait(uint64_t m) override {
    std::lock_guard<std::mutex> lock(mu_);
    ++waits;
    marker(m).done = true;
  }
  void discard(uint64_t m) override {
    std::lock_guard<std::mutex> lock(mu_);
    if (!markers_.erase(m)) ADD_FAILURE() << "discard of unknown marker " << m;
  }
  size_t total() override { return capacity_; }
  size_t free_bytes() override {
    std::lock_guard<std::mutex> lock(mu_);
    return capacity_ - used_;
  }

  // Stream `s` reaches every marker recorded on it so far.
  void complete(Stream s) {
    std::lock_guard<std::mutex> lock(mu_);
    for (auto& [id, m] : markers_)
      if (m.stream == s) m.done = true;
  }
  size_t used() {
    std::lock_guard<std::mutex> lock(mu_);
    return used_;
  }
  size_t live_markers() {
    std::lock_guard<std::mutex> lock(mu_);
    return markers_.size();
  }
  size_t live_segments() {
    std::lock_guard<std::mutex> lock(mu_);
    return segments_.size();
  }
  // The live segment holding [p, p + n), or 0 when none does.
  uintptr_t segment_holding(uintptr_t p, size_t n) {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = segments_.upper_bound(p);
    if (it == segments_.begin()) return 0;
    --it;
    return p + n <= it->first + it->second ? it->first : 0;
  }

  int allocs = 0, frees = 0, failed_allocs = 0, waits = 0;

 private:
  struct Marker {
    Stream stream;
    bool done;
  };
  Marker& marker(uint64_t m) {
    auto it = markers_.find(m);
    if (it == markers_.end()) {
      ADD_FAILURE() << "use of unknown or discarded marker " << m;
      static Marker dummy{};
      return dummy;
    }
    return it->second;
  }

  std::mutex mu_;
  size_t capacity_;
  size_t used_ = 0;
  uintptr_t next_ = 0x7f0000000000;
  std::map<uintptr_t, size_t> segments_;
  std::map<uint64_t, Marker> markers_;
  uint64_t next_marker_ = 1;
};

uintptr_t addr(void* p) { return reinterpret_cast<uintptr_t>(p); }

int64_t stat(const CA& a, const std::string& name) {
  for (auto& [n, v] : a.memory_stats())
    if (n == name) return v;
  ADD_FAILURE() << "no statistic " << name;
  return -1;
}

TEST(CachingAllocator, RoundsTo512Bytes) {
  EXPECT_EQ(CA::round_size(1), 512u);
  EXPECT_EQ(CA::round_size(512), 512u);
  EXPECT_EQ(CA::round_size(513), 1024u);
  EXPECT_EQ(CA::round_size(3 * MiB + 1), 3 * MiB + 512);

  FakeDevice dev(GiB);
  CA a(dev);
  EXPECT_EQ(a.allocate(0), nullptr);
  EXPECT_EQ(a.stats().allocation.current, 0);
  void* p = a.allocate(1);
  EXPECT_EQ(a.stats().allocated_bytes.current, 512);
  void* q = a.allocate(513);
  EXPECT_EQ(a.stats().allocated_bytes.current, 512 + 1024);
  EXPECT_EQ(addr(q), addr(p) + 512);  // the 1-byte block really is 512 bytes long
  a.free(nullptr, stream(1));          // a no-op, as cudaFree(nullptr)
}

TEST(CachingAllocator, SegmentSizesMatchPyTorch) {
  EXPECT_EQ(CA::segment_size(512), 2 * MiB);
  EXPECT_EQ(CA::segment_size(MiB), 2 * MiB);
  EXPECT_EQ(CA::segment_size(MiB + 512), 20 * MiB);
  EXPECT_EQ(CA::segment_size(10 * MiB - 512), 20 * MiB);
  EXPECT_EQ(CA::segment_size(10 * MiB), 10 * MiB);
  EXPECT_EQ(CA::segment_size(11 * MiB), 12 * MiB);
  EXPECT_EQ(CA::segment_size(GiB + 512), GiB + 2 * MiB);
}

TEST(CachingAllocator, SmallRequestsShareA2MiBSegment) {
  FakeDevice dev(GiB);
  CA a(dev);
  void* p = a.allocate(1000);
  void* q = a.allocate(MiB);  // the largest small request
  EXPECT_EQ(dev.allocs, 1);
  EXPECT_EQ(dev.used(), 2 * MiB);
  EXPECT_EQ(addr(q), addr(p) + 1024);
  // 2 MiB - 1024 - 1 MiB is left: not enough for another 1 MiB.
  void* r = a.allocate(MiB);
  EXPECT_EQ(dev.allocs, 2);
  EXPECT_EQ(dev.segment_holding(addr(r), MiB), addr(r));
  EXPECT_EQ(a.stats().reserved_bytes.current, int64_t(4 * MiB));
}

TEST(CachingAllocator, LargeRequestsGetLargeSegments) {
  FakeDevice dev(GiB);
  CA a(dev);
  void* p = a.allocate(MiB + 1);  // large pool: a 20 MiB segment, split
  EXPECT_EQ(dev.used(), 20 * MiB);
  EXPECT_EQ(a.stats().allocated_bytes.current, int64_t(MiB + 512));
  void* q = a.allocate(5 * MiB);  // from the same segment's rest
  EXPECT_EQ(dev.allocs, 1);
  EXPECT_EQ(addr(q), addr(p) + MiB + 512);
  // A small request never comes from the large pool's free space.
  void* s = a.allocate(4096);
  EXPECT_EQ(dev.allocs, 2);
  EXPECT_EQ(dev.segment_holding(addr(s), 4096), addr(s));


  // 11 MiB gets a 12 MiB segment; the 1 MiB left is not worth a block.
  FakeDevice dev2(GiB);
  CA b(dev2);
  b.allocate(11 * MiB);
  EXPECT_EQ(b.stats().allocated_bytes.current, int64_t(12 * MiB));
  // 10 MiB + 1 leaves almost 2 MiB of its 12 MiB segment: that is split off.
  b.allocate(10 * MiB + 1);
  EXPECT_EQ(b.stats().allocated_bytes.current, int64_t(12 * MiB + 10 * MiB + 512));
  EXPECT_EQ(b.stats().reserved_bytes.current, int64_t(24 * MiB));
  EXPECT_EQ(dev2.allocs, 2);
}

TEST(CachingAllocator, BestFitAndSplit) {
  FakeDevice dev(GiB);
  CA a(dev);
  Stream s = stream(1);
  void* big = a.allocate(2048);
  void* sep1 = a.allocate(512);
  void* exact = a.allocate(1024);
  void* sep2 = a.allocate(512);
  a.free(big, s);
  a.free(exact, s);
  dev.complete(s);
  // The 1024-byte hole fits exactly; the 2048 one would fit too.
  EXPECT_EQ(a.allocate(1000), exact);
  // 512 from the 2048 hole: split, and the rest serves the next request.
  EXPECT_EQ(a.allocate(512), big);
  EXPECT_EQ(addr(a.allocate(1536)), addr(big) + 512);
  EXPECT_EQ(dev.allocs, 1);
  EXPECT_EQ(a.stats().num_cache_hits, 6);  // every request but the first
  (void)sep1;
  (void)sep2;
}

TEST(CachingAllocator, FreedNeighboursMerge) {
  FakeDevice dev(GiB);
  CA a(dev);
  Stream s = stream(1);
  void* x = a.allocate(4 * MiB);
  void* y = a.allocate(4 * MiB);
  void* z = a.allocate(4 * MiB);
  EXPECT_EQ(dev.allocs, 1);
  // Freed out of order: the middle block merges with both sides.
  a.free(x, s);
  a.free(z, s);
  a.free(y, s);
  dev.complete(s);
  // Only the whole 20 MiB segment, merged back, fits this.
  EXPECT_EQ(a.allocate(20 * MiB), x);
  EXPECT_EQ(dev.allocs, 1);
  EXPECT_EQ(a.stats().num_cache_hits, 3);

  // Small pool: three neighbours merge back to the whole 2 MiB.
  void* p = a.allocate(512 * KiB);
  void* q = a.allocate(512 * KiB);
  void* r = a.allocate(MiB);
  a.free(q, s);
  a.free(p, s);
  a.free(r, s);
  dev.complete(s);
  a.empty_cache();  // releases only whole segments: proves the merge
  EXPECT_EQ(dev.live_segments(), 1u);
  EXPECT_EQ(a.stats().reserved_bytes.current, int64_t(20 * MiB));
}

TEST(CachingAllocator, ReuseWaitsForTheStream) {
  FakeDevice dev(GiB);
  CA a(dev);
  Stream s1 = stream(1);
  void* p = a.allocate(20 * MiB);
  a.free(p, s1);
  EXPECT_EQ(a.stats().allocated_bytes.current, 0);
  // s1 may still be reading p: a new segment, not p.
  void* q = a.allocate(20 * MiB);
  EXPECT_NE(q, p);
  EXPECT_EQ(dev.allocs, 2);
  dev.complete(s1);
  void* r = a.allocate(20 * MiB);
  EXPECT_EQ(r, p);
  EXPECT_EQ(dev.allocs, 2);
  EXPECT_EQ(a.stats().num_cache_hits, 1);
  EXPECT_EQ(dev.live_markers(), 0u);  // a marker is discarded once passed
}

TEST(CachingAllocator, RecordStreamDelaysReuse) {
  FakeDevice dev(GiB);
  CA a(dev);
  Stream s1 = stream(1), s2 = stream(2);
  void* p = a.allocate(20 * MiB);
  a.record_stream(p, s2);
  a.record_stream(p, s2);  // twice is once
  a.record_stream(p, s1);  // the freeing stream: nothing more to wait for
  a.free(p, s1);
  EXPECT_EQ(dev.live_markers(), 2u);
  dev.complete(s1);
  void* q = a.allocate(20 * MiB);
  EXPECT_NE(q, p);  // s2 still uses p
  dev.complete(s2);
  EXPECT_EQ(a.allocate(20 * MiB), p);
  EXPECT_EQ(dev.live_markers(), 0u);

  // record_stream applies to one lifetime: reused, p waits only for s1.
  a.free(p, s1);
  dev.complete(s1);
  EXPECT_EQ(a.allocate(20 * MiB), p);
}

TEST(CachingAllocator, UnknownPointersAreErrors) {
  FakeDevice dev(GiB);
  CA a(dev);
  void* p = a.allocate(100);
  int local = 0;
  EXPECT_THROW(a.free(&local, stream(1)), Error);
  EXPECT_THROW(a.record_stream(&local, stream(1)), Error);
  a.free(p, stream(1));
  try {
    a.free(p, stream(1));
    FAIL() << "double free accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("already freed"), std::string::npos) << e.what();
  }
}

TEST(CachingAllocator, OutOfMemoryFreesTheCacheAndRetries) {
  FakeDevice dev(40 * MiB);
  CA a(dev);
  Stream s = stream(1);
  void* small = a.allocate(4096);  // keeps its 2 MiB segment
  void* p = a.allocate(20 * MiB);
  a.free(p, s);
  a.free(small, s);
  dev.complete(s);
  void* keep = a.allocate(4096);  // its segment has a live block now
  EXPECT_EQ(keep, small);
  // 30 MiB does not fit beside 22 MiB: the free 20 MiB segment goes back.
  void* q = a.allocate(30 * MiB);
  ASSERT_NE(q, nullptr);
  EXPECT_EQ(dev.failed_allocs, 1);
  EXPECT_EQ(dev.frees, 1);
  EXPECT_EQ(dev.live_segments(), 2u);
  AllocatorStats st = a.stats();
  EXPECT_EQ(st.num_alloc_retries, 1);
  EXPECT_EQ(st.num_ooms, 0);
  EXPECT_EQ(st.reserved_bytes.current, int64_t(32 * MiB));
  EXPECT_EQ(st.segment.freed, 1);
}

TEST(CachingAllocator, OutOfMemoryWaitsForPendingStreams) {
  FakeDevice dev(40 * MiB);
  CA a(dev);
  void* p = a.allocate(30 * MiB);
  a.free(p, stream(7));  // stream 7 never completes by itself
  void* q = a.allocate(30 * MiB);
  ASSERT_NE(q, nullptr);
  EXPECT_EQ(dev.waits, 1);
  EXPECT_EQ(dev.frees, 1);
  EXPECT_EQ(dev.live_markers(), 0u);
}

TEST(CachingAllocator, OutOfMemoryMessage) {
  FakeDevice dev(4 * GiB);
  CA a(dev, 1);
  a.allocate(GiB);
  a.allocate(3 * MiB);  // 17 MiB of its 20 MiB segment stay cached
  try {
    a.allocate(4 * GiB);
    FAIL() << "no out-of-memory error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Runtime);
    std::string msg = e.what();
    EXPECT_NE(msg.find("CUDA out of memory. Tried to allocate 4.00 GiB. GPU 1 has a total capacity of 4.00 GiB "
                       "of which 2.98 GiB is free. Of the allocated memory 1.00 GiB is allocated by Kiln, and "
                       "17.00 MiB is reserved by Kiln but unallocated."),
              std::string::npos)
        << msg;
  }
  AllocatorStats st = a.stats();
  EXPECT_EQ(st.num_ooms, 1);
  EXPECT_EQ(st.num_alloc_retries, 1);
  EXPECT_EQ(dev.failed_allocs, 2);  // tried, then tried once more
  EXPECT_EQ(st.reserved_bytes.current, int64_t(GiB + 20 * MiB));

  // Absurd sizes are out-of-memory errors too, not overflows.
  EXPECT_THROW(a.allocate(SIZE_MAX), Error);
  EXPECT_EQ(a.stats().num_ooms, 2);

  // The "Tried to allocate" size is the segment asked for: 20 MiB here.
  FakeDevice tiny(10 * MiB);
  CA b(tiny);
  try {
    b.allocate(3 * MiB);
    FAIL() << "no out-of-memory error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("Tried to allocate 20.00 MiB. GPU 0 has a total capacity of 10.00 MiB"),
              std::string::npos)
        << e.what();
  }
}

TEST(CachingAllocator, EmptyCacheReleasesWholeFreeSegments) {
  FakeDevice dev(GiB);
  CA a(dev);
  Stream s = stream(1);
  void* live = a.allocate(MiB + 1);  // its 20 MiB segment stays
  void* p = a.allocate(50 * MiB);
  void* q = a.allocate(100);
  void* r = a.allocate(64 * MiB);
  a.free(p, s);
  a.free(q, s);
  dev.complete(s);
  a.free(r, stream(2));  // not completed: empty_cache waits for it
  EXPECT_EQ(a.stats().reserved_bytes.current, int64_t(20 * MiB + 50 * MiB + 2 * MiB + 64 * MiB));
  a.empty_cache();
  EXPECT_EQ(dev.frees, 3);
  EXPECT_EQ(dev.used(), 20 * MiB);
  EXPECT_EQ(a.stats().reserved_bytes.current, int64_t(20 * MiB));
  EXPECT_EQ(a.stats().segment.current, 1);
  EXPECT_EQ(dev.live_markers(), 0u);
  a.free(live, s);
  dev.complete(s);
  a.empty_cache();
  EXPECT_EQ(dev.used(), 0u);
  EXPECT_EQ(a.stats().reserved_bytes.current, 0);
}

TEST(CachingAllocator, StatsAndPeaks) {
  FakeDevice dev(GiB);
  CA a(dev);
  Stream s = stream(1);
  void* p = a.allocate(30 * MiB);
  void* q = a.allocate(1000);
  a.free(p, s);
  dev.complete(s);
  void* r = a.allocate(30 * MiB);  // a cache hit
  a.free(r, s);
  a.free(q, s);
  dev.complete(s);
  a.empty_cache();

  AllocatorStats st = a.stats();
  EXPECT_EQ(st.allocated_bytes.current, 0);
  EXPECT_EQ(st.allocated_bytes.peak, int64_t(30 * MiB + 1024));
  EXPECT_EQ(st.allocated_bytes.allocated, int64_t(60 * MiB + 1024));
  EXPECT_EQ(st.allocated_bytes.freed, int64_t(60 * MiB + 1024));
  EXPECT_EQ(st.reserved_bytes.peak, int64_t(32 * MiB));
  EXPECT_EQ(st.reserved_bytes.current, 0);
  EXPECT_EQ(st.allocation.allocated, 3);
  EXPECT_EQ(st.allocation.peak, 2);
  EXPECT_EQ(st.segment.allocated, 2);
  EXPECT_EQ(st.segment.freed, 2);
  EXPECT_EQ(st.num_cache_hits, 1);
  EXPECT_EQ(st.num_ooms, 0);

  EXPECT_EQ(stat(a, "allocated_bytes.all.peak"), int64_t(30 * MiB + 1024));
  EXPECT_EQ(stat(a, "reserved_bytes.all.peak"), int64_t(32 * MiB));
  EXPECT_EQ(stat(a, "allocation.all.allocated"), 3);
  EXPECT_EQ(stat(a, "segment.all.freed"), 2);
  EXPECT_EQ(stat(a, "num_cache_hits"), 1);
  EXPECT_EQ(stat(a, "num_alloc_retries"), 0);
  EXPECT_EQ(stat(a, "num_ooms"), 0);

  void* t = a.allocate(4096);
  a.reset_peak_stats();
  st = a.stats();
  EXPECT_EQ(st.allocated_bytes.peak, 4096);
  EXPECT_EQ(st.reserved_bytes.peak, int64_t(2 * MiB));
  EXPECT_EQ(st.allocation.peak, 1);
  EXPECT_EQ(st.allocated_bytes.allocated, int64_t(60 * MiB + 1024 + 4096));  // totals are not peaks
  a.free(t, s);
}

// A sink that keeps the allocator's counter samples.
struct Sample {
  std::string name;
  double value;
  uint16_t device;
  trace::Category cat;
};

class CounterSink : public trace::Sink {
 public:
  explicit CounterSink(std::vector<Sample>& out) : out_(out) {}
  void on_events(std::span<const trace::Event> events, const trace::StringTable& strings) override {
    for (const trace::Event& e : events)
      if (e.kind == trace::EventKind::Counter) out_.push_back({std::string(strings.str(e.name)), e.value, e.device, e.cat});
  }

 private:
  std::vector<Sample>& out_;
};

std::vector<double> values(const std::vector<Sample>& samples, const std::string& name) {
  std::vector<double> v;
  for (const Sample& s : samples)
    if (s.name == name) v.push_back(s.value);
  return v;
}

TEST(CachingAllocator, CountersInTraces) {
  FakeDevice dev(GiB);
  CA a(dev, 2);
  Stream s = stream(1);
  void* before = a.allocate(4096);  // no session: nothing recorded
  std::vector<Sample> samples;
  trace::Session::start({}).add_sink(std::make_unique<CounterSink>(samples));
  void* p = a.allocate(30 * MiB);
  a.free(p, s);
  dev.complete(s);
  a.empty_cache();
  a.free(before, s);
  trace::Session::stop();
  a.allocate(4096);  // after the session: nothing recorded

  for (const Sample& x : samples) {
    EXPECT_EQ(x.device, 3);  // device 2
    EXPECT_EQ(x.cat, trace::Category::memory);
  }
  // The session's first sample carries both counters (allocated: 4096).
  EXPECT_EQ(values(samples, "cuda reserved bytes"), (std::vector<double>{32 * MiB, 2 * MiB}));
  EXPECT_EQ(values(samples, "cuda allocated bytes"),
            (std::vector<double>{4096, 4096 + 30 * MiB, 4096, 0}));
}

// Random sequences against the invariants: live blocks never overlap and
// lie inside live segments; reserved is the sum of the segments; nothing
// leaks when everything is freed.
TEST(CachingAllocator, RandomSequencesKeepInvariants) {
  std::mt19937_64 rng(12345);
  for (int round = 0; round < 40; ++round) {
    FakeDevice dev((round % 2 ? 64 : 512) * MiB);  // small devices hit out-of-memory
    {
      CA a(dev);
      struct Live {
        uintptr_t p;
        size_t n;
      };
      std::vector<Live> live;
      std::vector<uint64_t> streams{1, 2, 3};
      auto random_size = [&]() -> size_t {
        switch (rng() % 4) {
          case 0: return 1 + rng() % 4096;
          case 1: return 1 + rng() % MiB;
          case 2: return MiB + rng() % (9 * MiB);
          default: return 10 * MiB + rng() % (40 * MiB);
        }
      };
      int64_t ooms = 0;
      for (int step = 0; step < 1000; ++step) {
        int op = int(rng() % 10);
        if (op < 5) {
          size_t n = random_size();
          try {
            void* p = a.allocate(n);
            live.push_back({addr(p), n});
          } catch (const Error&) {
            ++ooms;
          }
        } else if (op < 8 && !live.empty()) {
          size_t i = rng() % live.size();
          if (rng() % 3 == 0) a.record_stream(reinterpret_cast<void*>(live[i].p), stream(streams[rng() % 3]));
          a.free(reinterpret_cast<void*>(live[i].p), stream(streams[rng() % 3]));
          live[i] = live.back();
          live.pop_back();
        } else if (op == 8) {
          dev.complete(stream(streams[rng() % 3]));
        } else if (rng() % 8 == 0) {
          a.empty_cache();
        }

        std::vector<Live> sorted = live;
        std::sort(sorted.begin(), sorted.end(), [](const Live& x, const Live& y) { return x.p < y.p; });
        for (size_t i = 0; i < sorted.size(); ++i) {
          ASSERT_NE(dev.segment_holding(sorted[i].p, sorted[i].n), 0u) << "block outside a segment";
          if (i > 0) {
            ASSERT_LE(sorted[i - 1].p + CA::round_size(sorted[i - 1].n), sorted[i].p) << "blocks overlap";
          }
        }
        AllocatorStats st = a.stats();
        ASSERT_EQ(st.reserved_bytes.current, int64_t(dev.used()));
        ASSERT_EQ(st.segment.current, int64_t(dev.live_segments()));
        ASSERT_EQ(st.allocation.current, int64_t(live.size()));
        ASSERT_EQ(st.num_ooms, ooms);
        ASSERT_LE(st.allocated_bytes.current, st.reserved_bytes.current);
        size_t rounded = 0;
        for (const Live& l : live) rounded += CA::round_size(l.n);
        ASSERT_GE(st.allocated_bytes.current, int64_t(rounded));
      }
      for (const Live& l : live) a.free(reinterpret_cast<void*>(l.p), stream(1));
      for (uint64_t s : streams) dev.complete(stream(s));
      a.empty_cache();
      EXPECT_EQ(dev.used(), 0u);
      EXPECT_EQ(a.stats().allocated_bytes.current, 0);
      EXPECT_EQ(dev.live_markers(), 0u);
    }
    EXPECT_EQ(dev.live_segments(), 0u);
  }
}

TEST(CachingAllocator, DestructorReturnsEverySegment) {
  FakeDevice dev(GiB);
  {
    CA a(dev);
    a.allocate(100);
    a.allocate(30 * MiB);
    void* p = a.allocate(5 * MiB);
    a.free(p, stream(4));  // pending when the allocator dies
  }
  EXPECT_EQ(dev.live_segments(), 0u);
  EXPECT_EQ(dev.used(), 0u);
  EXPECT_EQ(dev.live_markers(), 0u);
}

TEST(CachingAllocator, ThreadsShareOneAllocator) {
  FakeDevice dev(GiB);
  CA a(dev);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      std::mt19937 rng(t);
      std::vector<void*> mine;
      Stream s = stream(10 + t);
      for (int i = 0; i < 2000; ++i) {
        if (mine.size() < 8 && rng() % 2) {
          mine.push_back(a.allocate(1 + rng() % (2 * MiB)));
        } else if (!mine.empty()) {
          a.free(mine.back(), s);
          mine.pop_back();
          dev.complete(s);
        }
      }
      for (void* p : mine) a.free(p, s);
      dev.complete(s);
    });
  }
  for (std::thread& t : threads) t.join();
  AllocatorStats st = a.stats();
  EXPECT_EQ(st.allocation.current, 0);
  EXPECT_EQ(st.allocated_bytes.current, 0);
  EXPECT_EQ(st.reserved_bytes.current, int64_t(dev.used()));
  a.empty_cache();
  EXPECT_EQ(dev.used(), 0u);
}

}  // namespace
}  // namespace kiln::gpu
