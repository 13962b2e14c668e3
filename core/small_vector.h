// SmallVec: a vector that keeps up to N elements inline. Tensor sizes and
// strides are almost always short, and keeping them off the heap is most of
// what makes a 1-element op cheap to dispatch. Only trivially copyable T.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <iterator>
#include <new>
#include <type_traits>
#include <vector>

namespace kiln {

template <class T, size_t N>
class SmallVec {
  static_assert(std::is_trivially_copyable_v<T>, "SmallVec holds trivially copyable values only");

 public:
  using value_type = T;
  using size_type = size_t;
  using iterator = T*;
  using const_iterator = const T*;
  using reference = T&;
  using const_reference = const T&;

  SmallVec() = default;
  explicit SmallVec(size_t n, const T& v = T()) { assign(n, v); }
  SmallVec(std::initializer_list<T> il) { assign(il.begin(), il.end()); }
  template <class It, class = typename std::iterator_traits<It>::iterator_category>
  SmallVec(It first, It last) { assign(first, last); }
  SmallVec(const std::vector<T>& v) { assign(v.begin(), v.end()); }  // NOLINT: interop
  SmallVec(const SmallVec& o) { assign(o.begin(), o.end()); }
  SmallVec(SmallVec&& o) noexcept { take(o); }
  SmallVec& operator=(const SmallVec& o) {
    if (this != &o) assign(o.begin(), o.end());
    return *this;
  }
  SmallVec& operator=(SmallVec&& o) noexcept {
    if (this != &o) {
      release();
      take(o);
    }
    return *this;
  }
  SmallVec& operator=(std::initializer_list<T> il) {
    assign(il.begin(), il.end());
    return *this;
  }
  ~SmallVec() { release(); }

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  size_t capacity() const { return cap_; }
  T* data() { return ptr(); }
  const T* data() const { return ptr(); }
  T* begin() { return ptr(); }
  T* end() { return ptr() + size_; }
  const T* begin() const { return ptr(); }
  const T* end() const { return ptr() + size_; }
  std::reverse_iterator<T*> rbegin() { return std::reverse_iterator<T*>(end()); }
  std::reverse_iterator<T*> rend() { return std::reverse_iterator<T*>(begin()); }
  std::reverse_iterator<const T*> rbegin() const { return std::reverse_iterator<const T*>(end()); }
  std::reverse_iterator<const T*> rend() const { return std::reverse_iterator<const T*>(begin()); }
  T& operator[](size_t i) { return ptr()[i]; }
  const T& operator[](size_t i) const { return ptr()[i]; }
  T& at(size_t i) { return ptr()[i]; }
  const T& at(size_t i) const { return ptr()[i]; }
  T& front() { return ptr()[0]; }
  const T& front() const { return ptr()[0]; }
  T& back() { return ptr()[size_ - 1]; }
  const T& back() const { return ptr()[size_ - 1]; }

  void reserve(size_t n) {
    if (n <= cap_) return;
    size_t cap = std::max(n, cap_ * 2);
    T* mem = static_cast<T*>(std::malloc(cap * sizeof(T)));
    if (!mem) throw std::bad_alloc();
    if (size_) std::memcpy(mem, ptr(), size_ * sizeof(T));
    if (heap_) std::free(heap_);
    heap_ = mem;
    cap_ = cap;
  }
  void clear() { size_ = 0; }
  void push_back(const T& v) {
    if (size_ == cap_) {
      T copy = v;  // v may live in this vector
      reserve(size_ + 1);
      ptr()[size_++] = copy;
      return;
    }
    ptr()[size_++] = v;
  }
  template <class... A>
  T& emplace_back(A&&... a) {
    push_back(T(std::forward<A>(a)...));
    return back();
  }
  void pop_back() { --size_; }
  void resize(size_t n, const T& v = T()) {
    reserve(n);
    for (size_t i = size_; i < n; ++i) ptr()[i] = v;
    size_ = n;
  }
  void assign(size_t n, const T& v) {
    T copy = v;
    size_ = 0;
    resize(n, copy);
  }
  template <class It>
  void assign(It first, It last) {
    size_t n = size_t(std::distance(first, last));
    size_ = 0;
    reserve(n);
    std::copy(first, last, ptr());
    size_ = n;
  }
  T* insert(const T* pos, const T& v) {
    T copy = v;
    return insert(pos, &copy, &copy + 1);
  }
  T* insert(const T* pos, std::initializer_list<T> il) { return insert(pos, il.begin(), il.end()); }
  T* insert(const T* pos, size_t n, const T& v) {
    std::vector<T> tmp(n, v);
    return insert(pos, tmp.begin(), tmp.end());
  }
  template <class It>
  T* insert(const T* pos, It first, It last) {
    size_t at = size_t(pos - ptr());
    std::vector<T> tmp(first, last);  // the range may alias this vector
    size_t n = tmp.size();
    reserve(size_ + n);
    T* p = ptr();
    std::memmove(p + at + n, p + at, (size_ - at) * sizeof(T));
    std::copy(tmp.begin(), tmp.end(), p + at);
    size_ += n;
    return p + at;
  }
  T* erase(const T* pos) { return erase(pos, pos + 1); }
  T* erase(const T* first, const T* last) {
    size_t at = size_t(first - ptr()), n = size_t(last - first);
    T* p = ptr();
    std::memmove(p + at, p + at + n, (size_ - at - n) * sizeof(T));
    size_ -= n;
    return p + at;
  }

  friend bool operator==(const SmallVec& a, const SmallVec& b) {
    return a.size_ == b.size_ && std::equal(a.begin(), a.end(), b.begin());
  }
  friend bool operator!=(const SmallVec& a, const SmallVec& b) { return !(a == b); }
  friend bool operator<(const SmallVec& a, const SmallVec& b) {
    return std::lexicographical_compare(a.begin(), a.end(), b.begin(), b.end());
  }

 private:
  T* ptr() { return heap_ ? heap_ : inline_; }
  const T* ptr() const { return heap_ ? heap_ : inline_; }
  void release() {
    if (heap_) std::free(heap_);
    heap_ = nullptr;
    cap_ = N;
    size_ = 0;
  }
  void take(SmallVec& o) {
    if (o.heap_) {
      heap_ = o.heap_;
      cap_ = o.cap_;
      o.heap_ = nullptr;
      o.cap_ = N;
    } else {
      std::memcpy(inline_, o.inline_, o.size_ * sizeof(T));
    }
    size_ = o.size_;
    o.size_ = 0;
  }

  T* heap_ = nullptr;
  size_t size_ = 0;
  size_t cap_ = N;
  T inline_[N];
};

}  // namespace kiln
