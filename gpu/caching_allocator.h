// The CUDA caching allocator: device memory for tensors without a cuMemAlloc
// (which synchronizes the device) per tensor. Behaves like PyTorch's
// CUDACachingAllocator: requests round up to 512 bytes; requests up to 1 MiB
// share 2 MiB segments (the small pool), larger ones get segments of their
// own rounded to 2 MiB (20 MiB below 10 MiB, so they can be split); blocks
// are found best-fit, split when the rest is worth keeping, and merged with
// free neighbours when freed. A freed block is reused only once every stream
// that used it has passed the point where it was freed. When the device is
// out of memory, cached segments are returned and the request retried once.
//
// The device is reached through DeviceMemoryBackend, so the policy is tested
// with a fake device; DriverBackend is the real one over the driver API.
#pragma once

#include <cuda.h>

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace kiln::gpu {

// A CUDA stream as the allocator sees it: an opaque handle (a CUstream).
using Stream = void*;

// What the allocator needs from a device. The allocator calls it only with
// its own lock held, so an implementation needs no locking of its own.
struct DeviceMemoryBackend {
  virtual ~DeviceMemoryBackend() = default;
  virtual void* alloc(size_t bytes) = 0;  // nullptr when the device is out of memory
  virtual void free(void* ptr) = 0;
  // Stream-completion markers: record() marks the stream's current position;
  // done() says whether the stream has passed it, wait() blocks until it has.
  // discard() ends a marker's life (the allocator never uses it afterwards).
  virtual uint64_t record(Stream stream) = 0;
  virtual bool done(uint64_t marker) = 0;
  virtual void wait(uint64_t marker) = 0;
  virtual void discard(uint64_t marker) = 0;
  // The device's capacity and free memory, for out-of-memory messages.
  virtual size_t total() = 0;
  virtual size_t free_bytes() = 0;
};

// The real device: cuMemAlloc/cuMemFree in `ctx`, CUevents as markers.
// Driver failures other than out-of-memory throw kiln::Error.
class DriverBackend : public DeviceMemoryBackend {
 public:
  explicit DriverBackend(CUcontext ctx);
  ~DriverBackend() override;
  DriverBackend(const DriverBackend&) = delete;
  DriverBackend& operator=(const DriverBackend&) = delete;

  void* alloc(size_t bytes) override;
  void free(void* ptr) override;
  uint64_t record(Stream stream) override;
  bool done(uint64_t marker) override;
  void wait(uint64_t marker) override;
  void discard(uint64_t marker) override;
  size_t total() override;
  size_t free_bytes() override;

 private:
  void bind() const;  // makes ctx_ current on the calling thread
  CUevent event_of(uint64_t marker) const;

  CUcontext ctx_;
  std::unordered_map<uint64_t, CUevent> live_;  // recorded, not yet discarded
  std::vector<CUevent> spare_;                  // discarded events, reused by record()
  uint64_t next_marker_ = 1;
};

// One statistic, as in torch.cuda.memory_stats(): the current value, its
// peak since the last reset, and the totals ever added and removed.
struct MemoryStat {
  int64_t current = 0, peak = 0, allocated = 0, freed = 0;
  void add(int64_t n);
  void sub(int64_t n);
};

struct AllocatorStats {
  MemoryStat allocated_bytes;     // bytes of blocks handed out (rounded sizes)
  MemoryStat reserved_bytes;      // bytes of segments held from the device
  MemoryStat allocation;          // blocks handed out
  MemoryStat segment;             // segments held from the device
  int64_t num_cache_hits = 0;     // allocations served from the cache
  int64_t num_alloc_retries = 0;  // device allocations retried after freeing the cache
  int64_t num_ooms = 0;           // allocations that failed
};

class CachingAllocator {
 public:
  // `backend` must outlive the allocator; `device` is the device's index
  // (in error messages and as the trace events' device).
  explicit CachingAllocator(DeviceMemoryBackend& backend, int device = 0);
  // Returns every segment to the device, waiting for streams still using one.
  ~CachingAllocator();
  CachingAllocator(const CachingAllocator&) = delete;
  CachingAllocator& operator=(const CachingAllocator&) = delete;

  // At least `bytes` of device memory (nullptr for 0 bytes). Throws
  // kiln::Error "CUDA out of memory. ..." when the device has no room even
  // after the cache is returned to it.
  void* allocate(size_t bytes);
  // Gives `ptr` back; it is reused once `stream`, and every stream named by
  // record_stream(), has passed this point. free(nullptr, s) does nothing.
  void free(void* ptr, Stream stream);
  // `stream` also uses `ptr` (Tensor.record_stream): delays its reuse.
  void record_stream(void* ptr, Stream stream);
  // Returns every cached segment with no live block to the device
  // (torch.cuda.empty_cache), waiting for streams still using freed blocks.
  void empty_cache();

  AllocatorStats stats() const;
  // The statistics under torch.cuda.memory_stats() names:
  // "allocated_bytes.all.current", "reserved_bytes.all.peak", "num_ooms", ...
  std::vector<std::pair<std::string, int64_t>> memory_stats() const;
  void reset_peak_stats();

  // Size classes (public for tests and for callers sizing their requests).
  static constexpr size_t kMinBlockSize = 512;         // every size rounds up to this
  static constexpr size_t kSmallSize = 1 << 20;        // largest request of the small pool
  static constexpr size_t kSmallBuffer = 2 << 20;      // small pool segment
  static constexpr size_t kMinLargeAlloc = 10 << 20;   // below this, large requests get...
  static constexpr size_t kLargeBuffer = 20 << 20;     // ...a segment this big
  static constexpr size_t kRoundLarge = 2 << 20;       // larger segments round to this
  static size_t round_size(size_t bytes);
  static size_t segment_size(size_t rounded);

 private:
  enum class State : uint8_t { Allocated, Pending, Free };
  struct Block {
    char* ptr = nullptr;
    size_t size = 0;
    bool small = false;  // belongs to the small pool
    State state = State::Free;
    Block* prev = nullptr;  // neighbours in the same segment
    Block* next = nullptr;
    std::vector<Stream> streams;    // from record_stream, while allocated
    std::vector<uint64_t> markers;  // while pending: reusable when all are done
  };
  // Free blocks by (size, address): lower_bound is the best fit.
  struct BySize {
    using is_transparent = void;
    bool operator()(const Block* a, const Block* b) const;
    bool operator()(const Block* a, size_t size) const { return a->size < size; }
    bool operator()(size_t size, const Block* b) const { return size < b->size; }
  };
  using Pool = std::set<Block*, BySize>;

  Pool& pool_of(bool small) { return small ? small_pool_ : large_pool_; }
  Block* take_free(size_t size);
  Block* new_segment(size_t size);
  void split(Block* b, size_t size);
  void make_free(Block* b);
  void absorb(Block* into, Block* gone);
  void poll_pending();
  void release_cached();
  void release_free_segments(Pool& pool);
  Block* find_allocated(void* ptr, const char* what);
  [[noreturn]] void throw_oom(size_t segment);
  void emit_counters(bool allocated, bool reserved);

  DeviceMemoryBackend& backend_;
  int device_;
  mutable std::mutex mu_;
  Pool small_pool_, large_pool_;
  std::vector<Block*> pending_;                   // freed, waiting for their markers
  std::unordered_map<void*, Block*> allocated_;  // handed-out blocks by address
  AllocatorStats stats_;
  uint64_t traced_generation_ = 0;  // trace session that has seen both counters
};

}  // namespace kiln::gpu
