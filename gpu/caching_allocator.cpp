#include "gpu/caching_allocator.h"

#include <algorithm>
#include <cstdio>

#include "core/error.h"
#include "gpu/cuda_libs.h"
#include "traces/recorder.h"

namespace kiln::gpu {

// ---------------------------------------------------------------------------
// DriverBackend

namespace {

void check(CUresult r, const char* what) {
  if (r == CUDA_SUCCESS) return;
  const char* text = nullptr;
  if (driver().cuGetErrorString) driver().cuGetErrorString(r, &text);
  throw Error(detail::cat(what, " failed: ", text ? text : "unknown error", " (CUresult ", int(r), ")"));
}

}  // namespace

DriverBackend::DriverBackend(CUcontext ctx) : ctx_(ctx) {
  KILN_CHECK(driver().ok(), Runtime, driver().error);
}

DriverBackend::~DriverBackend() {
  // Results ignored: a destructor cannot report, and at process exit the
  // context may already be gone (which frees the events anyway).
  for (auto& [marker, ev] : live_) driver().cuEventDestroy(ev);
  for (CUevent ev : spare_) driver().cuEventDestroy(ev);
}

void DriverBackend::bind() const { check(driver().cuCtxSetCurrent(ctx_), "cuCtxSetCurrent"); }

void* DriverBackend::alloc(size_t bytes) {
  bind();
  CUdeviceptr p = 0;
  CUresult r = driver().cuMemAlloc(&p, bytes);
  if (r == CUDA_ERROR_OUT_OF_MEMORY) return nullptr;
  check(r, "cuMemAlloc");
  return reinterpret_cast<void*>(p);
}

void DriverBackend::free(void* ptr) {
  bind();
  check(driver().cuMemFree(reinterpret_cast<CUdeviceptr>(ptr)), "cuMemFree");
}

uint64_t DriverBackend::record(Stream stream) {
  bind();
  CUevent ev = nullptr;
  if (!spare_.empty()) {
    ev = spare_.back();
    spare_.pop_back();
  } else {
    check(driver().cuEventCreate(&ev, CU_EVENT_DISABLE_TIMING), "cuEventCreate");
  }
  CUresult r = driver().cuEventRecord(ev, static_cast<CUstream>(stream));
  if (r != CUDA_SUCCESS) spare_.push_back(ev);
  check(r, "cuEventRecord");
  uint64_t marker = next_marker_++;
  live_.emplace(marker, ev);
  return marker;
}

CUevent DriverBackend::event_of(uint64_t marker) const {
  auto it = live_.find(marker);
  KILN_CHECK(it != live_.end(), Runtime, "CUDA caching allocator: unknown stream marker ", marker);
  return it->second;
}

bool DriverBackend::done(uint64_t marker) {
  CUresult r = driver().cuEventQuery(event_of(marker));
  if (r == CUDA_ERROR_NOT_READY) return false;
  check(r, "cuEventQuery");
  return true;
}

void DriverBackend::wait(uint64_t marker) { check(driver().cuEventSynchronize(event_of(marker)), "cuEventSynchronize"); }

void DriverBackend::discard(uint64_t marker) {
  auto it = live_.find(marker);
  if (it == live_.end()) return;
  spare_.push_back(it->second);
  live_.erase(it);
}

size_t DriverBackend::total() {
  bind();
  size_t free = 0, total = 0;
  check(driver().cuMemGetInfo(&free, &total), "cuMemGetInfo");
  return total;
}

size_t DriverBackend::free_bytes() {
  bind();
  size_t free = 0, total = 0;
  check(driver().cuMemGetInfo(&free, &total), "cuMemGetInfo");
  return free;
}

// ---------------------------------------------------------------------------
// Statistics

void MemoryStat::add(int64_t n) {
  current += n;
  allocated += n;
  peak = std::max(peak, current);
}

void MemoryStat::sub(int64_t n) {
  current -= n;
  freed += n;
}

// ---------------------------------------------------------------------------
// CachingAllocator

namespace {

constexpr size_t round_up(size_t n, size_t to) { return (n + to - 1) / to * to; }

// Larger than any device: rounding such a request would overflow.
constexpr size_t kMaxRequest = SIZE_MAX / 2;

// As PyTorch prints sizes: "512 bytes", "1.50 KiB", "20.00 MiB", "2.00 GiB".
std::string format_size(size_t n) {
  char buf[64];
  if (n < 1024) std::snprintf(buf, sizeof buf, "%zu bytes", n);
  else if (n < (size_t(1) << 20)) std::snprintf(buf, sizeof buf, "%.2f KiB", double(n) / double(1 << 10));
  else if (n < (size_t(1) << 30)) std::snprintf(buf, sizeof buf, "%.2f MiB", double(n) / double(1 << 20));
  else std::snprintf(buf, sizeof buf, "%.2f GiB", double(n) / double(1 << 30));
  return buf;
}

void record_counter(trace::Session& s, const trace::InternedName& name, int64_t value, int device) {
  trace::Event e;
  e.kind = trace::EventKind::Counter;
  e.cat = trace::Category::memory;
  e.device = uint16_t(device + 1);
  e.tid = trace::thread_index();
  e.ts_ns = trace::now_ns();
  e.name = name.id();
  e.value = double(value);
  s.record(e);
}

}  // namespace

size_t CachingAllocator::round_size(size_t bytes) {
  return bytes < kMinBlockSize ? kMinBlockSize : round_up(bytes, kMinBlockSize);
}

size_t CachingAllocator::segment_size(size_t rounded) {
  if (rounded <= kSmallSize) return kSmallBuffer;
  if (rounded < kMinLargeAlloc) return kLargeBuffer;
  return round_up(rounded, kRoundLarge);
}

bool CachingAllocator::BySize::operator()(const Block* a, const Block* b) const {
  if (a->size != b->size) return a->size < b->size;
  return a->ptr < b->ptr;
}

CachingAllocator::CachingAllocator(DeviceMemoryBackend& backend, int device) : backend_(backend), device_(device) {}

CachingAllocator::~CachingAllocator() {
  // Every block, whatever its state, leads to its segment's first block.
  std::set<Block*> heads;
  auto note = [&](Block* b) {
    while (b->prev) b = b->prev;
    heads.insert(b);
  };
  for (auto& [ptr, b] : allocated_) note(b);
  for (Block* b : small_pool_) note(b);
  for (Block* b : large_pool_) note(b);
  for (Block* b : pending_) {
    note(b);
    // Errors ignored here and below: a destructor cannot report them, and
    // at process exit the context may already be gone.
    for (uint64_t m : b->markers) {
      try {
        backend_.wait(m);
        backend_.discard(m);
      } catch (...) {
      }
    }
  }
  for (Block* head : heads) {
    try {
      backend_.free(head->ptr);
    } catch (...) {
    }
    while (head) delete std::exchange(head, head->next);
  }
}

void* CachingAllocator::allocate(size_t bytes) {
  if (bytes == 0) return nullptr;
  std::lock_guard<std::mutex> lock(mu_);
  if (bytes > kMaxRequest) throw_oom(bytes);
  size_t size = round_size(bytes);
  poll_pending();
  Block* b = take_free(size);
  if (b) ++stats_.num_cache_hits;
  else b = new_segment(size);
  // Small blocks split down to the minimum; large ones only when the rest
  // could serve a large request, so the large pool does not fragment.
  size_t rest = b->size - size;
  if (b->small ? rest >= kMinBlockSize : rest > kSmallSize) split(b, size);
  b->state = State::Allocated;
  allocated_.emplace(b->ptr, b);
  stats_.allocated_bytes.add(int64_t(b->size));
  stats_.allocation.add(1);
  emit_counters(true, false);
  return b->ptr;
}

void CachingAllocator::free(void* ptr, Stream stream) {
  if (!ptr) return;
  std::lock_guard<std::mutex> lock(mu_);
  Block* b = find_allocated(ptr, "free");
  // One marker per stream that used the block: the block is reusable once
  // all of them have passed this point.
  if (std::find(b->streams.begin(), b->streams.end(), stream) == b->streams.end()) b->streams.push_back(stream);
  for (Stream s : b->streams) b->markers.push_back(backend_.record(s));
  b->streams.clear();
  b->state = State::Pending;
  allocated_.erase(ptr);
  pending_.push_back(b);
  stats_.allocated_bytes.sub(int64_t(b->size));
  stats_.allocation.sub(1);
  emit_counters(true, false);
}

void CachingAllocator::record_stream(void* ptr, Stream stream) {
  std::lock_guard<std::mutex> lock(mu_);
  Block* b = find_allocated(ptr, "record_stream");
  if (std::find(b->streams.begin(), b->streams.end(), stream) == b->streams.end()) b->streams.push_back(stream);
}

void CachingAllocator::empty_cache() {
  std::lock_guard<std::mutex> lock(mu_);
  release_cached();
}

AllocatorStats CachingAllocator::stats() const {
  std::lock_guard<std::mutex> lock(mu_);
  return stats_;
}

std::vector<std::pair<std::string, int64_t>> CachingAllocator::memory_stats() const {
  AllocatorStats s = stats();
  std::vector<std::pair<std::string, int64_t>> out;
  auto put = [&](const std::string& name, const MemoryStat& st) {
    out.emplace_back(name + ".all.current", st.current);
    out.emplace_back(name + ".all.peak", st.peak);
    out.emplace_back(name + ".all.allocated", st.allocated);
    out.emplace_back(name + ".all.freed", st.freed);
  };
  put("allocated_bytes", s.allocated_bytes);
  put("reserved_bytes", s.reserved_bytes);
  put("allocation", s.allocation);
  put("segment", s.segment);
  out.emplace_back("num_alloc_retries", s.num_alloc_retries);
  out.emplace_back("num_ooms", s.num_ooms);
  out.emplace_back("num_cache_hits", s.num_cache_hits);  // Kiln's own; PyTorch has none
  return out;
}

void CachingAllocator::reset_peak_stats() {
  std::lock_guard<std::mutex> lock(mu_);
  for (MemoryStat* s : {&stats_.allocated_bytes, &stats_.reserved_bytes, &stats_.allocation, &stats_.segment})
    s->peak = s->current;
}

// The smallest free block of the request's pool that fits (best fit).
CachingAllocator::Block* CachingAllocator::take_free(size_t size) {
  Pool& pool = pool_of(size <= kSmallSize);
  auto it = pool.lower_bound(size);
  if (it == pool.end()) return nullptr;
  Block* b = *it;
  pool.erase(it);
  return b;
}

// A new segment from the device; when it has no room, the cache goes back
// to it and the request is tried once more.
CachingAllocator::Block* CachingAllocator::new_segment(size_t size) {
  size_t bytes = segment_size(size);
  void* p = backend_.alloc(bytes);
  if (!p) {
    ++stats_.num_alloc_retries;
    release_cached();
    p = backend_.alloc(bytes);
  }
  if (!p) throw_oom(bytes);
  Block* b = new Block;
  b->ptr = static_cast<char*>(p);
  b->size = bytes;
  b->small = size <= kSmallSize;
  stats_.reserved_bytes.add(int64_t(bytes));
  stats_.segment.add(1);
  emit_counters(false, true);
  return b;
}

// Cuts `b` (taken from its pool) to `size`; the rest goes back to the pool.
// The rest needs no merging: a free block never has a free neighbour.
void CachingAllocator::split(Block* b, size_t size) {
  Block* rest = new Block;
  rest->ptr = b->ptr + size;
  rest->size = b->size - size;
  rest->small = b->small;
  rest->prev = b;
  rest->next = b->next;
  if (b->next) b->next->prev = rest;
  b->next = rest;
  b->size = size;
  pool_of(rest->small).insert(rest);
}

// Returns `b` (in no pool, no longer in use) to its pool, merged with its
// free neighbours.
void CachingAllocator::make_free(Block* b) {
  Pool& pool = pool_of(b->small);
  b->state = State::Free;
  if (b->prev && b->prev->state == State::Free) {
    Block* prev = b->prev;
    pool.erase(prev);
    absorb(prev, b);
    b = prev;
  }
  if (b->next && b->next->state == State::Free) {
    pool.erase(b->next);
    absorb(b, b->next);
  }
  pool.insert(b);
}

// `gone` (into->next) becomes part of `into`.
void CachingAllocator::absorb(Block* into, Block* gone) {
  into->size += gone->size;
  into->next = gone->next;
  if (gone->next) gone->next->prev = into;
  delete gone;
}

// Freed blocks whose streams have all passed their markers become free.
void CachingAllocator::poll_pending() {
  // Removing by swapping with the last keeps pending_ consistent at every
  // step, should done() throw.
  for (size_t i = 0; i < pending_.size();) {
    Block* b = pending_[i];
    while (!b->markers.empty() && backend_.done(b->markers.back())) {
      backend_.discard(b->markers.back());
      b->markers.pop_back();
    }
    if (!b->markers.empty()) {
      ++i;
      continue;
    }
    pending_[i] = pending_.back();
    pending_.pop_back();
    make_free(b);
  }
}

// Waits for every pending block's streams, then returns every segment with
// no block in use to the device (torch's release_cached_blocks).
void CachingAllocator::release_cached() {
  while (!pending_.empty()) {
    Block* b = pending_.back();
    for (uint64_t m : b->markers) backend_.wait(m);
    for (uint64_t m : b->markers) backend_.discard(m);
    b->markers.clear();
    pending_.pop_back();
    make_free(b);
  }
  int64_t before = stats_.reserved_bytes.current;
  release_free_segments(small_pool_);
  release_free_segments(large_pool_);
  if (stats_.reserved_bytes.current != before) emit_counters(false, true);
}

// A free block with no neighbours is a whole segment.
void CachingAllocator::release_free_segments(Pool& pool) {
  for (auto it = pool.begin(); it != pool.end();) {
    Block* b = *it;
    if (b->prev || b->next) {
      ++it;
      continue;
    }
    backend_.free(b->ptr);
    stats_.reserved_bytes.sub(int64_t(b->size));
    stats_.segment.sub(1);
    it = pool.erase(it);
    delete b;
  }
}

CachingAllocator::Block* CachingAllocator::find_allocated(void* ptr, const char* what) {
  auto it = allocated_.find(ptr);
  KILN_CHECK(it != allocated_.end(), Runtime, "CUDA caching allocator: ", what, " of pointer ", ptr,
             ", which it did not allocate or which was already freed");
  return it->second;
}

// Worded like PyTorch's; "Tried to allocate" names the segment asked of
// the device, as there.
void CachingAllocator::throw_oom(size_t segment) {
  ++stats_.num_ooms;
  size_t total = backend_.total();
  size_t free = backend_.free_bytes();
  size_t allocated = size_t(stats_.allocated_bytes.current);
  size_t unallocated = size_t(stats_.reserved_bytes.current) - allocated;
  throw Error(detail::cat("CUDA out of memory. Tried to allocate ", format_size(segment), ". GPU ", device_,
                          " has a total capacity of ", format_size(total), " of which ", format_size(free),
                          " is free. Of the allocated memory ", format_size(allocated),
                          " is allocated by Kiln, and ", format_size(unallocated),
                          " is reserved by Kiln but unallocated. If reserved but unallocated memory is large, "
                          "freeing tensors and calling empty_cache() returns it to the device."));
}

// Counter samples for trace viewers. A new session gets both counters at
// its first sample, so its tracks start from the right values.
void CachingAllocator::emit_counters(bool allocated, bool reserved) {
  if (!trace::enabled()) return;
  static const trace::InternedName kAllocated("cuda allocated bytes");
  static const trace::InternedName kReserved("cuda reserved bytes");
  trace::Session* s = trace::Session::current();
  if (!s) return;
  if (s->generation() != traced_generation_) {
    traced_generation_ = s->generation();
    allocated = reserved = true;
  }
  if (allocated) record_counter(*s, kAllocated, stats_.allocated_bytes.current, device_);
  if (reserved) record_counter(*s, kReserved, stats_.reserved_bytes.current, device_);
}

}  // namespace kiln::gpu
