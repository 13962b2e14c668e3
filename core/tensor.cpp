#include "core/tensor.h"

#include "core/lazy.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <sstream>

#include "core/alloc_limit.h"
#include "core/autograd.h"
#include "core/device.h"
#include "core/float_to_int.h"
#include "core/format.h"

namespace kiln {

std::string Device::str() const {
  return type == DeviceType::CPU ? "cpu" : "cuda:" + std::to_string(index);
}

// Buffers are 64-byte aligned so kernels get aligned vector loads and
// neighbouring tensors stay off each other's cache lines.
namespace {
// Physical memory: a request beyond it can only fail (or get the process
// killed later), so it is refused up front with PyTorch's message.
size_t physical_memory_bytes() {
  long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  return pages > 0 && page > 0 ? size_t(pages) * size_t(page) : SIZE_MAX;
}
std::atomic<size_t> g_alloc_limit{physical_memory_bytes()};
}  // namespace

void set_alloc_limit(size_t bytes) { g_alloc_limit = std::min(bytes, physical_memory_bytes()); }
size_t alloc_limit() { return g_alloc_limit; }

namespace {
std::atomic<int64_t> g_live_tensor_bytes{0};
}  // namespace

int64_t live_tensor_bytes() { return g_live_tensor_bytes.load(std::memory_order_relaxed); }

Storage::Storage(size_t n, Device dev) : nbytes(n), device(dev) {
  if (dev.type == DeviceType::CUDA) {
    data = cuda_backend().allocate(n, dev.index);
    return;
  }
  KILN_CHECK(n <= alloc_limit(), Runtime,
             "[enforce fail at alloc_cpu.cpp:127] err == 0. DefaultCPUAllocator: can't allocate memory: "
             "you tried to allocate ", n, " bytes. Error code 12 (Cannot allocate memory)");
  if (n <= kInlineBytes) {
    data = inline_;
  } else {
    // malloc plus our own rounding rather than aligned_alloc: glibc serves an
    // over-aligned request only from a free block 64 + 32 bytes larger than
    // it, so a freed tensor's block never fits the next tensor of its size and
    // the heap grows by every step's temporaries (measured: 8 fresh 16 MiB
    // buffers a step, page-faulted in, for a 4M-element GELU chain). Blocks of
    // one size from malloc are reused exactly.
    block_ = std::malloc(n + 64);
    data = block_ ? reinterpret_cast<void*>((reinterpret_cast<uintptr_t>(block_) + 63) & ~uintptr_t(63)) : nullptr;
  }
  KILN_CHECK(data != nullptr, Runtime, "out of memory: could not allocate ", n, " bytes");
  g_live_tensor_bytes.fetch_add(int64_t(n), std::memory_order_relaxed);
}

Storage::~Storage() {
  if (device.type == DeviceType::CUDA) {
    if (DeviceBackend* b = cuda_backend_if_any()) b->release(data, nbytes, device.index);
    return;
  }
  g_live_tensor_bytes.fetch_sub(int64_t(nbytes), std::memory_order_relaxed);
  if (data != inline_) std::free(block_);
}

// ---- metadata ---------------------------------------------------------------
const Shape& Tensor::sizes() const { return impl_->sizes; }
const Shape& Tensor::strides() const { return impl_->strides; }
int64_t Tensor::dim() const { return int64_t(impl_->sizes.size()); }
int64_t Tensor::size(int64_t d) const { return impl_->sizes[wrap_dim(d, dim())]; }
int64_t Tensor::stride(int64_t d) const { return impl_->strides[wrap_dim(d, dim())]; }
int64_t Tensor::numel() const { return shape_numel(impl_->sizes); }
int64_t Tensor::offset() const { return impl_->offset; }
DType Tensor::dtype() const { return impl_->dtype; }
Device Tensor::device() const { return impl_->storage->device; }
const std::shared_ptr<Storage>& Tensor::storage() const { return impl_->storage; }
uint32_t Tensor::version() const { return impl_->storage->version; }

void* Tensor::raw_data() const {
  if (impl_->storage->pending) [[unlikely]] lazy::sync_for_data_access(impl_->storage.get());
  return static_cast<char*>(impl_->storage->data) + impl_->offset * int64_t(dtype_size(impl_->dtype));
}

bool Tensor::is_contiguous() const {
  int64_t expected = 1;
  for (int64_t d = dim() - 1; d >= 0; --d) {
    int64_t sz = impl_->sizes[d];
    if (sz == 1) continue;
    if (sz == 0) return true;
    if (impl_->strides[d] != expected) return false;
    expected *= sz;
  }
  return true;
}

double Tensor::item_double() const {
  KILN_CHECK(defined(), Runtime, "item() called on an undefined tensor");
  KILN_CHECK(numel() == 1, Runtime, "a Tensor with ", numel(),
             " elements cannot be converted to Scalar");
  return element_as_double(*this, 0);
}
int64_t Tensor::item_int() const {
  double d = item_double();  // checks the tensor is one defined element
  if (device().type != DeviceType::CPU) return copy_to_device(*this, Device{}).item_int();
  if (!is_floating_point()) {
    // Read integers directly: a double cannot hold every int64.
    return visit_dtype(dtype(), [&](auto tag) -> int64_t {
      using T = typename decltype(tag)::type;
      if constexpr (std::is_integral_v<T>) return int64_t(*static_cast<const T*>(raw_data()));
      else return float_to_int<int64_t>(d);
    });
  }
  return float_to_int<int64_t>(d);
}
bool Tensor::item_bool() const { return item_double() != 0.0; }

// ---- autograd state -----------------------------------------------------------
bool Tensor::requires_grad() const { return impl_->requires_grad || impl_->grad_fn != nullptr; }

Tensor& Tensor::requires_grad_(bool r) {
  KILN_CHECK(is_leaf() || r, Runtime,
             "you can only change requires_grad flags of leaf variables. If you want to use a "
             "computed variable in a subgraph that doesn't require differentiation use "
             "var_no_grad = var.detach().");
  KILN_CHECK(!r || is_floating(dtype()), Runtime,
             "only Tensors of floating point dtype can require gradients");
  impl_->requires_grad = r;
  return *this;
}

const Tensor& Tensor::grad() const { return impl_->grad; }
void Tensor::set_grad(Tensor g) { impl_->grad = std::move(g); }
const std::shared_ptr<Node>& Tensor::grad_fn() const { return impl_->grad_fn; }
bool Tensor::is_leaf() const { return impl_->grad_fn == nullptr; }
void Tensor::retain_grad() {
  KILN_CHECK(requires_grad(), Runtime, "can't retain_grad on Tensor that has requires_grad=False");
  impl_->retains_grad = true;
  if (is_leaf()) return;  // leaves accumulate into .grad anyway
  auto& retained = impl_->grad_fn->retained;
  if (retained.size() <= impl_->output_nr) retained.resize(impl_->output_nr + 1);
  retained[impl_->output_nr] = impl_;
}

void Tensor::backward(const Tensor& gradient, bool retain_graph) const {
  run_backward({*this}, {gradient}, retain_graph);
}

Tensor Tensor::detach() const {
  return storage_view(impl_->storage, impl_->sizes, impl_->strides, impl_->offset, impl_->dtype);
}

std::string Tensor::str() const { return format_tensor(*this); }
std::string Tensor::shape_str() const { return kiln::shape_str(sizes()); }

// ---- construction ---------------------------------------------------------------
Shape contiguous_strides(const Shape& sizes) {
  Shape st(sizes.size());
  int64_t acc = 1;
  for (int64_t d = int64_t(sizes.size()) - 1; d >= 0; --d) {
    st[d] = acc;
    if (d > 0 && __builtin_mul_overflow(acc, std::max<int64_t>(sizes[d], 1), &acc))
      throw Error(detail::cat("Storage size calculation overflowed with sizes=", shape_str(sizes)),
                  ErrorKind::Runtime);
  }
  return st;
}

int64_t shape_numel(const Shape& sizes) {
  int64_t n = 1;
  for (int64_t s : sizes)
    KILN_CHECK(!__builtin_mul_overflow(n, s, &n), Runtime, "numel: integer multiplication overflow");
  return n;
}

std::string shape_str(const Shape& s) {
  std::ostringstream os;
  os << '[';
  for (size_t i = 0; i < s.size(); ++i) os << (i ? ", " : "") << s[i];
  os << ']';
  return os.str();
}

Tensor empty_tensor(const Shape& sizes, DType dtype, Device device) {
  for (int64_t s : sizes)
    KILN_CHECK(s >= 0, Runtime, "Trying to create tensor with negative dimension ", s, ": ",
               shape_str(sizes));
  int64_t nbytes = 0;
  KILN_CHECK(!__builtin_mul_overflow(shape_numel(sizes), int64_t(dtype_size(dtype)), &nbytes), Runtime,
             "Storage size calculation overflowed with sizes=", shape_str(sizes));
  auto impl = std::make_shared<TensorImpl>();
  impl->storage = std::make_shared<Storage>(size_t(nbytes), device);
  impl->sizes = sizes;
  impl->strides = contiguous_strides(sizes);
  impl->dtype = dtype;
  return Tensor(std::move(impl));
}

Tensor storage_view(std::shared_ptr<Storage> storage, Shape sizes, Shape strides, int64_t offset, DType dtype) {
  auto impl = std::make_shared<TensorImpl>();
  impl->storage = std::move(storage);
  impl->sizes = std::move(sizes);
  impl->strides = std::move(strides);
  impl->offset = offset;
  impl->dtype = dtype;
  return Tensor(std::move(impl));
}

Tensor make_view(const Tensor& base, Shape sizes, Shape strides, int64_t offset) {
  Tensor v = storage_view(base.storage(), std::move(sizes), std::move(strides), offset, base.dtype());
  const Tensor& root = base.impl()->view_base.defined() ? base.impl()->view_base : base;
  v.impl()->view_base = root;
  return v;
}

Tensor scalar_tensor(double v, DType dtype, bool wrapped) {
  Tensor t = empty_tensor({}, dtype);
  visit_dtype(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    *t.data<T>() = static_cast<T>(static_cast<compute_t<T>>(v));
  });
  t.impl()->is_wrapped_number = wrapped;
  return t;
}

int64_t wrap_dim(int64_t dim, int64_t ndim) {
  int64_t n = std::max<int64_t>(ndim, 1);  // 0-dim tensors accept dim 0 and -1
  KILN_CHECK(dim >= -n && dim < n, Index, "Dimension out of range (expected to be in range of [", -n,
             ", ", n - 1, "], but got ", dim, ")");
  return dim < 0 ? dim + n : dim;
}

double element_as_double(const Tensor& t, int64_t linear) {
  if (t.device().type != DeviceType::CPU) return element_as_double(copy_to_device(t, Device{}), linear);
  int64_t off = 0;
  for (int64_t d = t.dim() - 1; d >= 0; --d) {
    int64_t sz = t.sizes()[d];
    off += (linear % sz) * t.strides()[d];
    linear /= sz;
  }
  return visit_dtype(t.dtype(), [&](auto tag) -> double {
    using T = typename decltype(tag)::type;
    return double(static_cast<compute_t<T>>(t.data<T>()[off]));
  });
}

std::vector<double> to_double_vector(const Tensor& t) {
  if (t.device().type != DeviceType::CPU) return to_double_vector(copy_to_device(t, Device{}));
  std::vector<double> out(size_t(t.numel()));
  for (int64_t i = 0; i < t.numel(); ++i) out[size_t(i)] = element_as_double(t, i);
  return out;
}

}  // namespace kiln
