// Tensor: a view (sizes, strides, offset) onto shared Storage, plus the
// autograd state PyTorch keeps beside it. Tensor is a cheap handle; copies
// alias the same TensorImpl, exactly like at::Tensor.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/dtype.h"
#include "core/error.h"
#include "core/small_vector.h"

namespace kiln {

// Sizes and strides: inline up to 6 dims, like c10's SmallVector-backed IntArrayRef.
using Shape = SmallVec<int64_t, 6>;

enum class DeviceType : uint8_t { CPU, CUDA };
struct Device {
  DeviceType type = DeviceType::CPU;
  int index = 0;
  bool operator==(const Device&) const = default;
  std::string str() const;
};

// A block of memory. The version counter lives here because every view of
// the same memory must see an in-place write (PyTorch shares it the same way).
struct Storage {
  // Scalars and tiny tensors live inside the Storage object itself: one
  // allocation instead of two for the many 1-element tensors models make.
  static constexpr size_t kInlineBytes = 64;
  void* data = nullptr;
  size_t nbytes = 0;
  Device device;
  uint32_t version = 0;
  // A deferred kernel (core/lazy.h) will write this storage: reading its data
  // first runs the pending graph.
  bool pending = false;
  explicit Storage(size_t nbytes, Device device = {});
  ~Storage();
  // Whether data is a heap buffer the Storage frees (not its inline bytes):
  // only such buffers may move between Storages.
  bool on_heap() const { return data != inline_; }
  // Exchanges the heap buffers of two Storages (both on_heap(), same nbytes).
  void swap_buffer(Storage& other) {
    std::swap(data, other.data);
    std::swap(block_, other.block_);
  }
  Storage(const Storage&) = delete;
  Storage& operator=(const Storage&) = delete;

 private:
  void* block_ = nullptr;  // what malloc returned; data is block_ rounded up to 64 bytes
  alignas(16) unsigned char inline_[kInlineBytes];  // 16, not 64: over-aligned new is slow
};

class Node;  // autograd graph node (core/autograd.h)
struct TensorImpl;

class Tensor {
 public:
  Tensor() = default;
  explicit Tensor(std::shared_ptr<TensorImpl> impl) : impl_(std::move(impl)) {}

  bool defined() const { return impl_ != nullptr; }
  TensorImpl* impl() const { return impl_.get(); }
  const std::shared_ptr<TensorImpl>& impl_ptr() const { return impl_; }
  bool is_same(const Tensor& o) const { return impl_ == o.impl_; }

  // Metadata.
  const Shape& sizes() const;
  const Shape& strides() const;
  int64_t size(int64_t dim) const;    // negative dims allowed
  int64_t stride(int64_t dim) const;
  int64_t dim() const;
  int64_t numel() const;
  int64_t offset() const;
  DType dtype() const;
  Device device() const;
  bool is_contiguous() const;
  bool is_floating_point() const { return is_floating(dtype()); }
  size_t element_size() const { return dtype_size(dtype()); }
  // Address of element [0,...,0].
  void* raw_data() const;
  template <class T> T* data() const { return static_cast<T*>(raw_data()); }
  const std::shared_ptr<Storage>& storage() const;

  // The single element as a double / int64 (any dtype, numel()==1).
  double item_double() const;
  int64_t item_int() const;
  bool item_bool() const;

  // Autograd state.
  bool requires_grad() const;
  Tensor& requires_grad_(bool r = true);
  const Tensor& grad() const;
  void set_grad(Tensor g);
  const std::shared_ptr<Node>& grad_fn() const;
  bool is_leaf() const;
  void retain_grad();
  void backward(const Tensor& gradient = {}, bool retain_graph = false) const;
  Tensor detach() const;
  uint32_t version() const;

  std::string str() const;  // PyTorch-like repr
  std::string shape_str() const;

 private:
  std::shared_ptr<TensorImpl> impl_;
};

struct TensorImpl {
  std::shared_ptr<Storage> storage;
  Shape sizes, strides;
  int64_t offset = 0;  // in elements
  DType dtype = DType::Float32;
  // torch._dynamo.mark_dynamic: bit d set: the JIT treats dim d as symbolic.
  uint64_t dynamic_dims = 0;
  // A Python number turned into a 0-dim tensor: it has the lowest priority in
  // type promotion (PyTorch's "wrapped number").
  bool is_wrapped_number = false;

  // Autograd.
  bool requires_grad = false;
  bool retains_grad = false;
  Tensor grad;
  std::shared_ptr<Node> grad_fn;
  uint32_t output_nr = 0;
  std::weak_ptr<Node> grad_accumulator;
  // For a view: the tensor it was taken from, so an in-place write through
  // the view can rebase the base's history (CopySlices).
  Tensor view_base;
};

// ---- construction ----------------------------------------------------------
Shape contiguous_strides(const Shape& sizes);
int64_t shape_numel(const Shape& sizes);

// Bytes held by every live Storage in the process (inline ones included): the
// "live tensor bytes" memory counter of traces.
int64_t live_tensor_bytes();
std::string shape_str(const Shape& s);  // "[2, 3]"
// Fresh, uninitialised, contiguous tensor.
Tensor empty_tensor(const Shape& sizes, DType dtype, Device device = {});
// A view sharing `base`'s storage; records base for autograd of in-place ops.
Tensor make_view(const Tensor& base, Shape sizes, Shape strides, int64_t offset);
// A tensor over `storage` outside autograd (no base, no history): how a kernel
// or a device copy sees memory another tensor owns.
Tensor storage_view(std::shared_ptr<Storage> storage, Shape sizes, Shape strides, int64_t offset, DType dtype);
// A Python scalar as a 0-dim tensor (int → int64, float → float64, bool → bool),
// flagged as a wrapped number for type promotion.
Tensor scalar_tensor(double v, DType dtype, bool wrapped);

// Wraps a dim into [0, ndim): PyTorch's "Dimension out of range (expected to
// be in range of [-2, 1], but got 2)".
int64_t wrap_dim(int64_t dim, int64_t ndim);

// Reads element i (in logical row-major order) of any tensor as double; for tests and printing.
double element_as_double(const Tensor& t, int64_t linear_index);
// Copies all elements to a vector<double> in row-major order.
std::vector<double> to_double_vector(const Tensor& t);

}  // namespace kiln
