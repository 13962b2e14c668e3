#include "tests/jit_codegen/kernel_args.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "tests/jit_codegen/reference.h"

namespace kiln::jit::test {

kir::Kernel make_kernel(std::string name, kir::Kind kind, int rank, std::vector<kir::Operand> operands,
                        const std::function<void(kir::Builder&)>& body) {
  kir::Kernel k;
  k.name = std::move(name);
  k.kind = kind;
  k.rank = rank;
  k.operands = std::move(operands);
  kir::Builder b(k);
  body(b);
  return k;
}

void add_store(kir::Builder& b, int32_t operand, kir::ExprId value, bool per_row) {
  b.kernel().stores.push_back({operand, value, per_row});
}

double float_value(std::mt19937_64& rng) {
  static const double specials[] = {0.0, -0.0, 0.5, -0.5, 1.5, 2.5, -2.5, 1.0, -1.0, NAN, INFINITY, -INFINITY, 1e-3};
  if (rng() % 10 == 0) return specials[rng() % (sizeof specials / sizeof specials[0])];
  return std::uniform_real_distribution<double>(-4, 4)(rng);
}

double int_value(std::mt19937_64& rng, DType t) {
  if (t == DType::Bool) return double(rng() % 2);
  if (rng() % 16 == 0) {
    if (t == DType::Int32) return rng() % 2 ? std::numeric_limits<int32_t>::min() : std::numeric_limits<int32_t>::max();
    return rng() % 2 ? -9007199254740992.0 : 9007199254740991.0;  // +-2^53: exact as doubles
  }
  return double(int64_t(rng() % 201) - 100);
}

namespace {

size_t elem_size(DType t) { return t == DType::Bool ? 1 : (t == DType::Int32 || t == DType::Float32) ? 4 : 8; }

void put(DType t, char* p, double v) {
  switch (t) {
    case DType::Bool: *p = char(v != 0); break;
    case DType::Int32: {
      int32_t x = int32_t(v);
      std::memcpy(p, &x, 4);
      break;
    }
    case DType::Int64: {
      int64_t x = int64_t(v);
      std::memcpy(p, &x, 8);
      break;
    }
    case DType::Float32: {
      float x = float(v);
      std::memcpy(p, &x, 4);
      break;
    }
    default: std::memcpy(p, &v, 8); break;
  }
}

double get(DType t, const char* p) {
  switch (t) {
    case DType::Bool: return double(*p);
    case DType::Int32: {
      int32_t x;
      std::memcpy(&x, p, 4);
      return x;
    }
    case DType::Int64: {
      int64_t x;
      std::memcpy(&x, p, 8);
      return double(x);
    }
    case DType::Float32: {
      float x;
      std::memcpy(&x, p, 4);
      return x;
    }
    default: {
      double x;
      std::memcpy(&x, p, 8);
      return x;
    }
  }
}

}  // namespace

Args::Args(const kir::Kernel& k, std::vector<int64_t> sizes, uint64_t seed)
    : rng(seed),
      k_(k),
      sizes_(std::move(sizes)),
      strides_(k.operands.size() * size_t(k.rank)),
      data_(k.operands.size()),
      min_elements_(k.operands.size(), 0) {
  const int rank = k.rank;
  for (size_t op = 0; op < k.operands.size(); ++op) {
    const kir::Inner inner = k.operands[op].inner;
    int64_t step = inner == kir::Inner::Strided ? 2 : 1;
    int64_t* s = &strides_[op * size_t(rank)];
    s[rank - 1] = inner == kir::Inner::Broadcast ? 0 : step;
    int64_t extent = step * sizes_[size_t(rank - 1)];
    for (int d = rank - 2; d >= 0; --d) {
      s[d] = extent;
      extent *= sizes_[size_t(d)];
    }
  }
  for (size_t op = 0; op < k.operands.size(); ++op) {
    const DType t = k.operands[op].dtype;
    fill(int(op), [t](std::mt19937_64& r) {
      return (t == DType::Float32 || t == DType::Float64) ? float_value(r) : int_value(r, t);
    });
  }
  params.assign(size_t(k.num_params), 0.5);
}

void Args::set_strides(int operand, std::vector<int64_t> strides, int64_t min_elements) {
  ASSERT_EQ(strides.size(), size_t(k_.rank));
  min_elements_[size_t(operand)] = min_elements;
  std::copy(strides.begin(), strides.end(), strides_.begin() + operand * k_.rank);
  const DType t = k_.operands[size_t(operand)].dtype;
  fill(operand, [t](std::mt19937_64& r) {
    return (t == DType::Float32 || t == DType::Float64) ? float_value(r) : int_value(r, t);
  });
}

void Args::allocate(int operand) {
  int64_t elems = 1;
  for (int d = 0; d < k_.rank; ++d) elems += (sizes_[size_t(d)] - 1) * strides_[size_t(operand * k_.rank + d)];
  elems = std::max(elems, min_elements_[size_t(operand)]);
  data_[size_t(operand)].assign(size_t(elems) * elem_size(k_.operands[size_t(operand)].dtype), 0);
}

void Args::fill(int operand, const std::function<double(std::mt19937_64&)>& gen) {
  allocate(operand);
  const DType t = k_.operands[size_t(operand)].dtype;
  std::vector<char>& d = data_[size_t(operand)];
  for (size_t off = 0; off < d.size(); off += elem_size(t)) put(t, d.data() + off, gen(rng));
}

int64_t Args::extent() const {
  int64_t n = 1;
  const int dims = k_.kind == kir::Kind::Row ? k_.rank - 1 : k_.rank;
  for (int d = 0; d < dims; ++d) n *= sizes_[size_t(d)];
  return n;
}

std::vector<int64_t> Args::cuts(int parts) {
  const int64_t n = extent();
  std::vector<int64_t> c{0};
  for (int i = 1; i < parts; ++i) c.push_back(int64_t(rng() % uint64_t(n + 1)));
  c.push_back(n);
  std::sort(c.begin(), c.end());
  return c;
}

std::vector<char*> Args::pointers(std::vector<std::vector<char>>& data) const {
  std::vector<char*> p;
  for (auto& d : data) p.push_back(d.data());
  return p;
}

void Args::check(kir::KernelFn fn, const std::vector<int64_t>& cuts, Tolerance tol, const std::string& what) {
  std::vector<std::vector<char>> got = data_, want = data_;
  std::vector<char*> pg = pointers(got), pw = pointers(want);
  for (size_t i = 0; i + 1 < cuts.size(); ++i) {
    fn(pg.data(), sizes_.data(), strides_.data(), params.data(), cuts[i], cuts[i + 1]);
    ref::run_reference(k_, pw.data(), sizes_.data(), strides_.data(), params.data(), cuts[i], cuts[i + 1]);
  }
  int failures = 0;
  for (size_t op = 0; op < k_.operands.size(); ++op) {
    const DType t = k_.operands[op].dtype;
    const size_t es = elem_size(t);
    for (size_t off = 0; off < got[op].size() && failures < 8; off += es) {
      const double g = get(t, got[op].data() + off), w = get(t, want[op].data() + off);
      const bool same = (std::isnan(g) && std::isnan(w)) || g == w ||
                        (std::isfinite(w) && std::fabs(g - w) <= tol.atol + tol.rtol * std::fabs(w));
      if (!same) {
        ++failures;
        ADD_FAILURE() << what << ": operand " << op << " element " << off / es << ": got " << g << ", want " << w
                      << "\n"
                      << k_.to_text();
      }
    }
  }
}

}  // namespace kiln::jit::test
