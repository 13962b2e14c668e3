// Arguments for a kernel under test: each operand's storage laid out by the
// domain's sizes and the operand's strides, filled with values; `check` runs
// the compiled kernel and the reference interpreter on copies, over the same
// [begin, end) pieces, and compares every element of every output's storage
// (so elements outside the ranges, and gaps between strided elements, must
// be left alone by both).
#pragma once

#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "core/kernel_ir.h"

namespace kiln::jit::test {

struct Tolerance {
  double rtol = 0;  // |got - want| <= atol + rtol * |want|; NaN matches NaN
  double atol = 0;
};

// Makes a kernel: `body` adds expressions and stores through the builder.
kir::Kernel make_kernel(std::string name, kir::Kind kind, int rank, std::vector<kir::Operand> operands,
                        const std::function<void(kir::Builder&)>& body);
void add_store(kir::Builder& b, int32_t operand, kir::ExprId value, bool per_row = false);

class Args {
 public:
  Args(const kir::Kernel& k, std::vector<int64_t> sizes, uint64_t seed = 1);

  // Strides of one operand, one per dim (default: row-major over the domain,
  // inner stride 1, 0 or 2 for Contiguous, Broadcast, Strided).
  // `min_elements`: storage for at least that many (a gathered operand's
  // elements lie beyond what its strides reach).
  void set_strides(int operand, std::vector<int64_t> strides, int64_t min_elements = 0);
  // Refills one operand's storage (allocating it for its strides).
  void fill(int operand, const std::function<double(std::mt19937_64&)>& gen);
  std::vector<double> params;

  // Pointwise: elements of the domain; Row: rows.
  int64_t extent() const;
  // [0, extent) cut at `parts - 1` random places (pieces start mid-row).
  std::vector<int64_t> cuts(int parts);

  // Runs fn and the reference over [cuts[i], cuts[i+1]) and compares the outputs.
  void check(kir::KernelFn fn, const std::vector<int64_t>& cuts, Tolerance tol, const std::string& what);

  std::mt19937_64 rng;

 private:
  void allocate(int operand);
  std::vector<char*> pointers(std::vector<std::vector<char>>& data) const;

  const kir::Kernel& k_;
  std::vector<int64_t> sizes_;
  std::vector<int64_t> strides_;         // operand-major
  std::vector<std::vector<char>> data_;  // storage per operand
  std::vector<int64_t> min_elements_;    // per operand
};

// Default value generators.
double float_value(std::mt19937_64& rng);  // mostly uniform in [-4, 4]; some 0, -0, halves, NaN, inf
double int_value(std::mt19937_64& rng, DType t);

}  // namespace kiln::jit::test
