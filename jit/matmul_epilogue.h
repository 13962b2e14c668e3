// Matmul epilogues: the bias add, residual add and relu after a linear layer's
// product run in the product's own output pass (oneDNN post-ops), so the
// result is written once, finished, and never read back by a second kernel.
//
// Fusion leaves `mm` eager and forms a pointwise kernel of what follows it
// (`fused_add_relu`). When that kernel does nothing but finish the product
// (its first node reads the product or a view of it, every node is an add
// or a relu, the other operands are ready before the product, and it stores
// one value), the plan records an epilogue: the mm step then runs the product
// with the kernel's work as post-ops and writes the kernel's output. The
// kernel stays in the plan for runs oneDNN does not take (a batch-1 product,
// an alpha other than 1, an operand that does not broadcast as a bias or a
// dense residual, KILN_GEMM=openblas): those run the two steps as before.
#pragma once

#include <span>

#include "jit/fusion.h"

namespace kiln::jit {

// Finds the epilogues of a CPU plan built from this graph (fills
// plan.epilogues and plan.epilogue_of).
void plan_matmul_epilogues(const Graph& g, const std::vector<bool>& live, FusionPlan& plan);

// Runs epilogue e's product with its kernel's work fused in: false, with
// nothing written, when this run's tensors or oneDNN do not allow it.
bool run_matmul_epilogue(const MatmulEpilogue& e, std::span<const lazy::PendingOp> ops);

}  // namespace kiln::jit
