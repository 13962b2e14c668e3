// float32 batched products through oneDNN's matmul primitive. Its brgemm
// kernels need no packing pass for small matrices and block both operands for
// AVX-512, so they beat OpenBLAS's sgemm on the shapes model steps run
// (see docs/benchmarks.md, 2026-12-01): about 15% on the MLP's linear layers
// and 30-40% on attention's batches of 128x128 products. OpenBLAS stays the
// path for float64, products inside a parallel region, and anything oneDNN
// would run on its reference (unvectorised) implementation.
#pragma once

#include <cstdint>

namespace kiln {
namespace ops {

// One operand of a batched product as oneDNN reads it: [batch, rows, cols]
// with element strides; a batch stride of 0 broadcasts one matrix.
struct MatmulOperand {
  const float* data;
  int64_t batch_stride, row_stride, col_stride;
};

// c[i] = a[i] @ b[i] for i < batch, a [m, k], b [k, n], c dense [batch, m, n].
// Returns false, having written nothing, when oneDNN is switched off
// (KILN_GEMM=openblas) or has no optimized kernel for these strides.
bool onednn_bmm(int64_t batch, int64_t m, int64_t n, int64_t k, const MatmulOperand& a, const MatmulOperand& b,
                float* c);

}  // namespace ops
}  // namespace kiln
