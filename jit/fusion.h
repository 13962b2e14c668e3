// Fusion: partitions a graph's nodes into fused kernels (kernel IR, lowered
// from the op table's OpDef::lower) and nodes that run their eager kernels
// (matmuls, views, ops without a lowering).
//
// Nodes with the same domain (output shape; for reductions over the last dim,
// the reduced input's shape) join one kernel: pointwise chains become one
// loop; softmax, log_softmax, layer_norm and sums over the last dim become a
// Row kernel together with their pointwise producers and consumers. A value
// is stored only when something outside its kernel reads it or it stays
// observable after the graph (`live`), so intermediates never touch memory.
//
// A kernel runs where its last node was. Moving earlier nodes there is legal
// only when no node in between touches the storages they read or write;
// fusion tracks storages (not values) for that, so in-place updates and views
// are safe by construction.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "core/kernel_ir.h"
#include "jit/graph.h"

namespace kiln::jit {

// Where the launcher finds a tensor among the pending ops at run time. The
// graph was matched by its signature, so positions are stable across runs.
struct TensorRef {
  int32_t node = -1;
  int32_t out = -1;   // >= 0: ops[node].outs[out]
  int32_t arg = -1;   // else ops[node].args[arg] (a tensor, or element `elem` of a list)
  int32_t elem = -1;
};

// How an operand's tensor maps onto the kernel's domain.
enum class Mapping : uint8_t {
  Broadcast,  // right-aligned broadcasting (size 1 or missing dims: stride 0)
  Rows,       // a per-row value with the domain's outer dims exactly (no last dim)
};

struct KernelBinding {
  TensorRef tensor;
  Mapping mapping = Mapping::Broadcast;
  int8_t trailing = 0;     // size-1 dims appended before broadcasting
  int8_t gather_dim = -1;  // a gathered operand (Lowering::gather): the dim read at an offset
  bool keep_dim = false;   // ... kept as a size-1 dim (else removed)
};

// The sizes and strides by which a bound tensor maps onto the domain (its
// own, less a gathered dim, plus trailing size-1 dims).
void mapped_view(const Tensor& t, const KernelBinding& b, Shape& sizes, Shape& strides);

// A kernel parameter's source: a Scalar argument, the Row domain's length,
// or a stride of a tensor argument (a gathered dim's).
struct ParamBinding {
  int32_t node = -1, arg = -1;  // ops[node].args[arg]
  bool row_length = false;
  int32_t stride_dim = -1;  // >= 0: the stride of this dim of `strided`
  TensorRef strided;
};

// A value a kernel was specialized on: a Python number (kir::Lowering::specialize),
// a Scalar argument ops[node].args[arg] or the value of a wrapped 0-dim tensor
// there; or, with dim >= 0, the size of that tensor argument's dim
// (kir::Lowering::specialize_size).
struct ValueGuard {
  int32_t node = -1, arg = -1;
  double value = 0;
  int32_t dim = -1;
};

struct FusedKernel {
  kir::Kernel kernel;
  std::vector<KernelBinding> operands;  // parallel to kernel.operands
  std::vector<ParamBinding> params;     // parallel to the kernel's Param slots
  std::vector<ValueGuard> guards;       // values the kernel assumes; launch checks them
  TensorRef domain;                     // a tensor whose sizes are the domain
  std::vector<int32_t> nodes;           // the graph nodes it computes, in order
  std::vector<int32_t> zero_first;      // output operands zeroed before each launch (scatter-add targets)
};

// An eager node whose arguments a graph pass rewrote: argument `arg` (list
// element `elem`, or -1) is bound to `tensor` instead.
struct ArgPatch {
  int32_t arg = -1, elem = -1;
  TensorRef tensor;
};

// A pointwise kernel that only finishes an mm's product (bias and residual
// adds, relu), run as oneDNN post-ops in the product's own output pass
// (jit/matmul_epilogue.h): the result is stored once, finished.
struct EpilogueOp {
  enum class Kind : uint8_t { Add, Relu };
  Kind kind = Kind::Relu;
  int32_t node = -1;  // the graph node (add: its alpha must be 1 in the run)
  TensorRef other;    // Add: the operand that is not the product
};
struct MatmulEpilogue {
  int32_t mm = -1;      // the mm node
  int32_t kernel = -1;  // the fused kernel it stands in for
  TensorRef product;    // the product as the kernel's first node reads it (a view of it)
  TensorRef out;        // the kernel's one store
  std::vector<EpilogueOp> ops;
};

struct FusionPlan {
  std::vector<FusedKernel> kernels;
  // In order: >= 0 a node that runs its eager kernel; < 0 kernel (-1 - k).
  std::vector<int32_t> steps;
  // Per node (empty for most): rebinding of rewritten nodes when they run eagerly.
  std::vector<std::vector<ArgPatch>> patches;
  // Per node: a clone that may take its source's buffer (Node::steal_source).
  std::vector<char> steal;
  // Matmul epilogues, and per node the index of the one its mm runs (-1;
  // empty when there are none).
  std::vector<MatmulEpilogue> epilogues;
  std::vector<int32_t> epilogue_of;
};

// The number a value guard watches in this run's ops; nullopt when it is not one.
std::optional<double> guarded_value(const ValueGuard& g, std::span<const lazy::PendingOp> ops);

// The tensor a reference names in this run's ops.
const Tensor& resolve(const TensorRef& r, std::span<const lazy::PendingOp> ops);
// Where this run's ops hold value v (a tensor input's first use, a node's output).
TensorRef ref_of(const Graph& g, ValueId v);

// `live[v]` for every value id: the value is observable after the graph.
// `device`: where the kernels will run; nodes whose tensors live elsewhere
// run their eager kernels.
FusionPlan fuse(const Graph& g, std::span<const lazy::PendingOp> ops, const std::vector<bool>& live,
                Device device = {});

// A human-readable summary: one line per step ("kernel fused_mul_add [3 nodes]", "eager mm").
std::string plan_text(const FusionPlan& p, const Graph& g);

}  // namespace kiln::jit
