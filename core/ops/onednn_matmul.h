// float32 batched products through oneDNN's matmul primitive. Its brgemm
// kernels need no packing pass for small matrices and block both operands for
// AVX-512, so they beat OpenBLAS's sgemm on the shapes model steps run
// (see docs/benchmarks.md, 2026-12-01): about 15% on the MLP's linear layers
// and 30-40% on attention's batches of 128x128 products. OpenBLAS stays the
// path for float64, products inside a parallel region, and anything oneDNN
// would run on its reference (unvectorised) implementation.
#pragma once

#include <cstdint>
#include <span>

#include "core/tensor.h"

namespace kiln {
namespace ops {

// One operand of a batched product as oneDNN reads it: [batch, rows, cols]
// with element strides; a batch stride of 0 broadcasts one matrix.
struct MatmulOperand {
  const float* data;
  int64_t batch_stride, row_stride, col_stride;
};

// What oneDNN applies to each element of a product before storing it, in
// order: a matmul epilogue (jit/matmul_epilogue.h) run in the product's own
// output pass. Each is exact in float32, as the separate kernels are.
struct MatmulPostOp {
  enum class Kind : uint8_t {
    AddRow,   // + data[j]: one value per column (a bias)
    AddFull,  // + data[i, j] of a dense [batch, m, n] (a residual)
    Relu,
  };
  Kind kind = Kind::Relu;
  const float* data = nullptr;
};

// c[i] = post(a[i] @ b[i]) for i < batch, a [m, k], b [k, n], c dense
// [batch, m, n]. Returns false, having written nothing, when oneDNN is
// switched off (KILN_GEMM=openblas) or has no optimized kernel for these
// strides and post-ops.
bool onednn_bmm(int64_t batch, int64_t m, int64_t n, int64_t k, const MatmulOperand& a, const MatmulOperand& b,
                float* c, std::span<const MatmulPostOp> post = {});

// c = post(a @ b) for float32 matrices, c dense [m, n], on oneDNN when it
// takes the product as mm would (blas.cpp: the size, not inside the pool).
// False, with nothing written, otherwise: the caller runs mm and the
// post-ops apart.
bool mm_with_post_ops(const Tensor& a, const Tensor& b, float* c, std::span<const MatmulPostOp> post);

}  // namespace ops
}  // namespace kiln
