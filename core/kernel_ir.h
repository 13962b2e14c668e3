// The kernel IR: what a fused group of graph nodes becomes before machine
// code. It sits between the trace IR (jit/graph.h, one node per op) and the
// code generators (LLVM for the CPU, NVRTC for GPUs): one kernel is a loop
// nest over a *domain* (the shape its nodes share) with loads, scalar
// expressions, row reductions and stores. Sizes and strides are kernel
// arguments, so one kernel serves every size of a dynamic dim.
//
// The op table lowers each op into it (OpDef::lower, core/ops/*), so eager
// kernels, autograd, fusion and both code generators read one definition.
//
// Indexing ops lower through two more leaves: Index (the domain index
// along a dim: arange, tril, a one-hot compare) and Gather (an operand read
// at an offset computed per element: embedding rows, a target's class).
//
// Two kernel kinds:
//  - Pointwise: for every index i of the domain, evaluate the stores.
//  - Row: the last domain dim is reduced. For every row (an index of the
//    other dims): run the reductions in order over the row (each may use the
//    results of earlier ones), then the row-level stores once, then the
//    element-level stores for every element of the row. softmax is
//    max, sum(exp(x - max)), store exp(x - max) / sum: one kernel.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/dtype.h"

namespace kiln::kir {

using ExprId = int32_t;

// Scalar operations. Arithmetic works on one type (operands are cast first);
// comparisons return Bool; Select is c ? a : b (the condition is operand c).
#define KILN_KIR_OPS(_)                                                                          \
  _(Load)     /* operand[slot] at the current index (its strides broadcast it)       */          \
  _(Const)    /* imm                                                                   */        \
  _(Param)    /* params[slot]: a Python number of the graph, a kernel argument         */        \
  _(RowValue) /* the result of reduction `slot` for the current row (Row kernels)      */        \
  _(Index)    /* Int64: the current index of domain dim `slot` (per-row: 0 in the last) */        \
  _(Gather)   /* operand[slot] at the current index moved by %a (Int64) elements       */        \
  _(Cast)     /* a to `type`: float->int truncates, ->Bool is != 0                     */        \
  _(Add) _(Sub) _(Mul) _(Div) /* float division; ints: not lowered                      */        \
  _(Max) _(Min)               /* NaN-propagating, like torch.maximum                    */        \
  _(Pow)                      /* float a ** b                                           */        \
  _(Neg) _(Abs) _(Floor) _(Ceil) _(Trunc) _(Round) /* Round: half to even              */        \
  _(Exp) _(Log) _(Log1p) _(Sqrt) _(Rsqrt) _(Tanh) _(Erf) _(Sin) _(Cos) /* float only   */        \
  _(Lt) _(Le) _(Gt) _(Ge) _(Eq) _(Ne) /* -> Bool; NaN compares false (Ne: true)         */        \
  _(And) _(Or) _(Not)                 /* Bool                                           */        \
  _(IsNan)                            /* -> Bool                                        */        \
  _(Select)

enum class Op : uint8_t {
#define KILN_KIR_ENUM(e) e,
  KILN_KIR_OPS(KILN_KIR_ENUM)
#undef KILN_KIR_ENUM
};
const char* op_name(Op op);
int op_arity(Op op);  // 0 for leaves (Load, Const, Param, RowValue)

// One SSA expression. Operands a, b, c are earlier ExprIds (-1 unused).
// Types are Bool, Int32, Int64, Float32 or Float64.
struct Expr {
  Op op = Op::Const;
  DType type = DType::Float32;
  ExprId a = -1, b = -1, c = -1;
  int32_t slot = -1;  // Load, Gather: operand; Param: param; RowValue: reduction; Index: dim
  double imm = 0;     // Const (ints and bools are exact as doubles up to 2^53)
  bool operator==(const Expr&) const = default;
};

// How the domain's inner (last) dim walks an operand, fixed when the kernel
// is compiled so loads and stores vectorize; the launcher checks each run's
// strides against it.
enum class Inner : uint8_t {
  Contiguous,  // stride 1
  Broadcast,   // stride 0: one value for the whole row
  Strided,     // any other stride (a gather)
};

// A buffer the kernel reads or writes: a tensor bound at run time.
struct Operand {
  DType dtype = DType::Float32;  // element type in memory (Bool is one byte)
  Inner inner = Inner::Contiguous;
  bool output = false;
};

enum class ReduceOp : uint8_t { Sum, Max, Min };  // Max/Min propagate NaN
struct Reduction {
  ReduceOp op = ReduceOp::Sum;
  ExprId value = -1;  // an element-level expression; its type is the accumulator's
};

struct Store {
  int32_t operand = -1;
  ExprId value = -1;     // cast to the operand's dtype
  bool per_row = false;  // Row kernels: once per row, after the reductions
  // A scatter: the element `offset` (an Int64 expression) elements from the
  // current one, and with `accumulate` the value is added to it. Elements
  // may meet at one address, so a kernel with scatters runs serially in
  // index order on the CPU (the eager kernels' order: the same sums) and
  // adds atomically on a GPU. Element stores only.
  ExprId offset = -1;
  bool accumulate = false;
};

enum class Kind : uint8_t { Pointwise, Row };

struct Kernel {
  std::string name;  // "fused_mul_add_tanh", from its ops
  Kind kind = Kind::Pointwise;
  int32_t rank = 1;  // domain dims (>= 1); Row: dim rank-1 is reduced
  std::vector<Operand> operands;
  int32_t num_params = 0;
  std::vector<Expr> exprs;  // topologically ordered: operands precede users
  std::vector<Reduction> reductions;
  std::vector<Store> stores;
  // Cost record the events carry to the profiler, per domain element.
  double flops_per_element = 0;
  // Its element stores wrote at least streaming_store_bytes() (core/cpu_cache.h)
  // when it was built: the CPU code generator adds a copy of its vector loops
  // with non-temporal stores, taken when a launch writes that much too.
  bool streams = false;

  // Structural identity: equal text, equal kernel (names included).
  std::string to_text() const;
  // Whether a store scatters (Store::offset, Store::accumulate).
  bool scatters() const;
  // Whether store s may stream: an element store, contiguous, not scattering.
  bool streamable(const Store& s) const;
  // Bytes those stores write per domain element.
  int64_t streamable_bytes_per_element() const;
};

// The compiled entry point's ABI (both code generators).
//   ptrs[k]:              operand k's address of element [0, ..., 0]
//   sizes[d]:             domain size of dim d, d < rank
//   strides[k*rank + d]:  operand k's stride of dim d, in elements (0: broadcast)
//   params[p]:            Param p's value
//   [begin, end):         Pointwise: flat element indices of the domain
//                         (row-major); Row: flat row indices (the domain
//                         without its last dim, row-major)
// A Row kernel's per-row stores ignore the operand's last-dim stride.
using KernelFn = void (*)(char* const* ptrs, const int64_t* sizes, const int64_t* strides, const double* params,
                          int64_t begin, int64_t end);

// The code generators' contract: ids point backwards, types are ones they
// lower, each op meets its operand types. Throws kiln::Error naming the
// first malformed expression, reduction or store (a bug upstream: fusion or
// an op's lowering), so it never becomes an LLVM assertion or bad CUDA C.
void check_kernel(const Kernel& k);

// Builds a kernel's expressions; equal expressions are shared (hash-consed
// by a linear scan over a small window, which is enough for fused groups).
// An operand of -1 (a failed lowering step) yields -1, so a lowering can
// build on and let the fusion pass see the failure once.
class Builder {
 public:
  explicit Builder(Kernel& k) : k_(k) {}
  ExprId load(int32_t operand);
  ExprId constant(double v, DType type);
  ExprId param(int32_t slot, DType type);
  ExprId row_value(int32_t reduction);
  ExprId index(int32_t dim);
  // Operand `operand` moved by `offset` elements (an Int64 expression). The
  // element must exist: a lowering passes only offsets its op's check has
  // bounded (an index out of range is the op's error before any kernel runs).
  ExprId gather(int32_t operand, ExprId offset);
  ExprId cast(ExprId a, DType type);
  ExprId unary(Op op, ExprId a);
  ExprId binary(Op op, ExprId a, ExprId b);  // Add..Pow, And, Or: same-typed operands
  ExprId compare(Op op, ExprId a, ExprId b); // -> Bool
  ExprId select(ExprId c, ExprId a, ExprId b);
  ExprId reduce(ReduceOp op, ExprId value);  // adds a reduction, returns its RowValue
  DType type(ExprId e) const { return k_.exprs[size_t(e)].type; }
  Kernel& kernel() { return k_; }

 private:
  ExprId add(Expr e);
  Kernel& k_;
};

}  // namespace kiln::kir
