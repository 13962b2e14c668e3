// Matrix products. mm and bmm are the only kernels (oneDNN for float32 where
// it has a fast kernel, else OpenBLAS; OpenBLAS for float64; float32 copies
// for the 16-bit floats; a plain loop for integers);
// dot, mv, matmul and linear are Composites that reduce every torch.matmul
// case to them with views, so autograd needs only mm's and bmm's formulas.
#include <cblas.h>

#include <algorithm>
#include <atomic>
#include <cstring>

#include "core/autograd.h"
#include "core/autocast.h"
#include "core/format.h"
#include "core/lowering.h"
#include "core/ops/common.h"
#include "core/ops/onednn_matmul.h"

namespace kiln {
namespace ops {
namespace {

void check_same_dtype(const Tensor& a, const Tensor& b) {
  KILN_CHECK(a.dtype() == b.dtype(), Runtime, "expected m1 and m2 to have the same dtype, but got: ",
             dtype_cpp_name(a.dtype()), " != ", dtype_cpp_name(b.dtype()));
}

// ---- batched gemm ---------------------------------------------------------------
// One [B, rows, cols] operand as cblas reads it: each batch's matrix is
// row-major (NoTrans) or column-major (Trans) with leading dimension ld.
struct Operand {
  Tensor t;  // the tensor read (the input itself, or a dense copy)
  CBLAS_TRANSPOSE trans = CblasNoTrans;
  int64_t ld = 1;
};

// Whether a rows x cols matrix with strides (rs, cs) is row-major with some
// leading dimension; size-1 dims may have any stride.
bool row_major(int64_t rows, int64_t cols, int64_t rs, int64_t cs, int64_t* ld) {
  if (cs != 1 && cols != 1) return false;
  if (rows == 1) {
    *ld = std::max<int64_t>(cols, 1);
    return true;
  }
  if (rs < std::max<int64_t>(cols, 1)) return false;
  *ld = rs;
  return true;
}

// Uses t's own strides when one of the last two is unit, else a dense copy.
Operand blas_operand(const Tensor& t) {
  int64_t r = t.size(1), c = t.size(2), rs = t.stride(1), cs = t.stride(2);
  Operand op{t};
  if (row_major(r, c, rs, cs, &op.ld)) return op;
  if (row_major(c, r, cs, rs, &op.ld)) {
    op.trans = CblasTrans;
    return op;
  }
  op.t = empty_tensor(t.sizes(), t.dtype());
  copy_cast(op.t, t);
  op.ld = std::max<int64_t>(c, 1);
  return op;
}

// y[i * incy] = M @ x for the matrix-vector products (one row or column of
// C): a gemm would pack the whole matrix first, which is most of the work
// when every element is read once (a batch-1 linear layer).
template <class T>
void gemv_call(CBLAS_TRANSPOSE t, int64_t rows, int64_t cols, const T* pm, int64_t ld, const T* px, int64_t incx,
               T* py, int64_t incy) {
  if constexpr (std::is_same_v<T, float>) {
    cblas_sgemv(CblasRowMajor, t, blasint(rows), blasint(cols), 1.0f, pm, blasint(ld), px, blasint(incx), 0.0f, py,
                blasint(incy));
  } else {
    cblas_dgemv(CblasRowMajor, t, blasint(rows), blasint(cols), 1.0, pm, blasint(ld), px, blasint(incx), 0.0, py,
                blasint(incy));
  }
}
CBLAS_TRANSPOSE flip(CBLAS_TRANSPOSE t) { return t == CblasNoTrans ? CblasTrans : CblasNoTrans; }

// C[m, n] (leading dimension ldc) = A @ B, one single-threaded gemm.
template <class T>
void gemm_call(const Operand& a, const Operand& b, const T* pa, const T* pb, T* po, int64_t m, int64_t n,
               int64_t k, int64_t ldc) {
  if (m == 1 && n > 1) {  // C^T = B^T a^T; a's k elements lie a.ld apart when A is column-major
    return gemv_call<T>(flip(b.trans), b.trans == CblasNoTrans ? k : n, b.trans == CblasNoTrans ? n : k, pb, b.ld,
                        pa, a.trans == CblasNoTrans ? 1 : a.ld, po, 1);
  }
  if (n == 1 && m > 1) {  // C = A b, one element per row of C
    return gemv_call<T>(a.trans, a.trans == CblasNoTrans ? m : k, a.trans == CblasNoTrans ? k : m, pa, a.ld, pb,
                        b.trans == CblasNoTrans ? b.ld : 1, po, ldc);
  }
  if constexpr (std::is_same_v<T, float>) {
    cblas_sgemm(CblasRowMajor, a.trans, b.trans, blasint(m), blasint(n), blasint(k), 1.0f, pa, blasint(a.ld), pb,
                blasint(b.ld), 0.0f, po, blasint(ldc));
  } else {
    cblas_dgemm(CblasRowMajor, a.trans, b.trans, blasint(m), blasint(n), blasint(k), 1.0, pa, blasint(a.ld), pb,
                blasint(b.ld), 0.0, po, blasint(ldc));
  }
}

// OpenBLAS threads only the large single products (see gemm_split); every
// other call runs single-threaded, batches split over Kiln's pool. The count
// is cached: openblas_set_num_threads takes a lock on every call.
void blas_threads(int n) {
  static std::atomic<int> current{0};
  if (current.exchange(n) != n) openblas_set_num_threads(n);
}
void blas_on_kiln_threads() { blas_threads(1); }

// Below this many multiply-adds a gemm is not worth splitting.
constexpr double kSplitMacs = 1 << 18;
// From this many multiply-adds OpenBLAS threads the product itself: it
// partitions both dimensions and shares packed panels between its threads,
// 10-20% faster here than Kiln's split into two independent gemms (which
// packs A twice), on the MLP's 256x1024x1024 products (measured in float32,
// which oneDNN now takes; this path serves float64 and oneDNN's refusals).
constexpr double kOpenBlasThreadedMacs = 1 << 24;

// One gemm over the pool: C's columns split when A is the smaller operand
// (each part then packs only its own columns of B, and all of A), else its
// rows. Parts are multiples of 16, the kernels' register blocking.
template <class T>
void gemm_split(const Operand& a, const Operand& b, const T* pa, const T* pb, T* po, int64_t m, int64_t n,
                int64_t k) {
  const int threads = num_threads();
  const double macs = double(m) * double(n) * double(k);
  if (threads == 1 || macs < kSplitMacs) return gemm_call<T>(a, b, pa, pb, po, m, n, k, n);
  if (macs >= kOpenBlasThreadedMacs && !detail::in_parallel_region()) {
    blas_threads(threads);
    gemm_call<T>(a, b, pa, pb, po, m, n, k, n);
    blas_threads(1);
    return;
  }
  const bool by_columns = m <= n;
  const int64_t extent = by_columns ? n : m;
  const int64_t part = std::max<int64_t>(16, (extent + threads - 1) / threads + 15) / 16 * 16;
  const int64_t parts = (extent + part - 1) / part;
  parallel_for(0, parts, 1, [&](int64_t first, int64_t last) {
    for (int64_t i = first; i < last; ++i) {
      const int64_t lo = i * part, len = std::min(part, extent - lo);
      if (by_columns) {
        const T* b_part = pb + (b.trans == CblasNoTrans ? lo : lo * b.ld);
        gemm_call<T>(a, b, pa, b_part, po + lo, m, len, k, n);
      } else {
        const T* a_part = pa + (a.trans == CblasNoTrans ? lo * a.ld : lo);
        gemm_call<T>(a, b, a_part, pb, po + lo * n, len, n, k, n);
      }
    }
  });
}

// out[i] = a[i] @ b[i] with a contraction of length 1: outer products,
// exactly what gemm computes (one product per element), without its
// packing passes, which cost more than the products (a batch-1 weight
// gradient, g^T @ x).
template <class T>
void outer_bmm(const Tensor& a3, const Tensor& b3, const Tensor& out) {
  const int64_t batch = a3.size(0), m = a3.size(1), n = b3.size(2);
  const T* pa = a3.data<T>();
  const T* pb = b3.data<T>();
  T* po = out.data<T>();
  const int64_t as0 = a3.stride(0), as1 = a3.stride(1), bs0 = b3.stride(0), bs2 = b3.stride(2);
  const int64_t grain = std::max<int64_t>(1, 32768 / std::max<int64_t>(n, 1));
  parallel_for(0, batch * m, grain, [&](int64_t begin, int64_t end) {
    for (int64_t row = begin; row < end; ++row) {
      const int64_t bi = row / m, i = row % m;
      const T x = pa[bi * as0 + i * as1];
      const T* __restrict br = pb + bi * bs0;
      T* __restrict o = po + row * n;
      // + 0: gemm adds each product to a zeroed C, so a -0 product comes out +0.
      if (bs2 == 1) {
        // Whole vectors spelled out: GCC's -O2 leaves this loop scalar, and
        // a batch-1 weight gradient is nothing but this loop.
        using V [[gnu::vector_size(64)]] = T;
        constexpr int64_t kLanes = int64_t(sizeof(V) / sizeof(T));
        int64_t j = 0;
        for (; j + kLanes <= n; j += kLanes) {
          V b;
          std::memcpy(&b, br + j, sizeof b);
          const V r = x * b + T(0);
          std::memcpy(o + j, &r, sizeof r);
        }
        for (; j < n; ++j) o[j] = x * br[j] + T(0);
      } else {
        for (int64_t j = 0; j < n; ++j) o[j] = x * br[j * bs2] + T(0);
      }
    }
  });
}

// A 2-D tensor as a one-batch 3-D view.
Tensor as_batch(const Tensor& t) {
  return make_view(t, {1, t.size(0), t.size(1)}, {0, t.stride(0), t.stride(1)}, t.offset());
}

MatmulOperand onednn_operand(const Operand& op) {
  const int64_t ld = op.ld;
  return {op.t.data<float>(), op.t.size(0) == 1 ? 0 : op.t.stride(0), op.trans == CblasNoTrans ? ld : 1,
          op.trans == CblasNoTrans ? 1 : ld};
}

// Whether a float32 product goes to oneDNN: whole products of some size from
// outside the pool (inside it, each part is one thread's OpenBLAS call), and
// not the matrix-vector and outer products gemm_call treats itself.
bool onednn_takes(int64_t batch, int64_t m, int64_t n, int64_t k) {
  return m > 1 && n > 1 && double(batch) * double(m) * double(n) * double(k) >= kSplitMacs &&
         !detail::in_parallel_region();
}

}  // namespace

bool mm_with_post_ops(const Tensor& a, const Tensor& b, float* c, std::span<const MatmulPostOp> post) {
  if (a.dtype() != DType::Float32 || b.dtype() != DType::Float32 || a.dim() != 2 || b.dim() != 2) return false;
  const int64_t m = a.size(0), k = a.size(1), n = b.size(1);
  if (k <= 1 || b.size(0) != k || !onednn_takes(1, m, n, k)) return false;
  const Operand oa = blas_operand(as_batch(a)), ob = blas_operand(as_batch(b));
  return onednn_bmm(1, m, n, k, onednn_operand(oa), onednn_operand(ob), c, post);
}

namespace {

// out[i] = a[i] @ b[i] for float/double; out is contiguous [B, M, N].
template <class T>
void blas_bmm(const Tensor& a3, const Tensor& b3, const Tensor& out) {
  int64_t batch = a3.size(0), m = a3.size(1), k = a3.size(2), n = b3.size(2);
  if (k == 1) return outer_bmm<T>(a3, b3, out);
  Operand a = blas_operand(a3), b = blas_operand(b3);
  const T* pa = a.t.template data<T>();
  const T* pb = b.t.template data<T>();
  T* po = out.data<T>();
  if constexpr (std::is_same_v<T, float>) {
    if (onednn_takes(batch, m, n, k) && onednn_bmm(batch, m, n, k, onednn_operand(a), onednn_operand(b), po))
      return;
  }
  blas_on_kiln_threads();
  const int64_t as = a.t.stride(0), bs = b.t.stride(0);
  // A batch as large as the pool is split by its matrices; a shorter one
  // splits each product.
  if (batch >= num_threads()) {
    const int64_t grain = std::max<int64_t>(1, int64_t(kSplitMacs / std::max(1.0, double(m) * double(n) * double(k))));
    parallel_for(0, batch, grain, [&](int64_t first, int64_t last) {
      for (int64_t i = first; i < last; ++i) gemm_call<T>(a, b, pa + i * as, pb + i * bs, po + i * m * n, m, n, k, n);
    });
    return;
  }
  for (int64_t i = 0; i < batch; ++i) gemm_split<T>(a, b, pa + i * as, pb + i * bs, po + i * m * n, m, n, k);
}

// Integer products in a plain loop; unsigned arithmetic wraps like PyTorch's
// without signed-overflow UB.
template <class T>
void int_bmm(const Tensor& a, const Tensor& b, const Tensor& out) {
  int64_t batch = a.size(0), m = a.size(1), k = a.size(2), n = b.size(2);
  const T* pa = a.data<T>();
  const T* pb = b.data<T>();
  T* po = out.data<T>();
  int64_t grain = std::max<int64_t>(1, 32768 / std::max<int64_t>(n * k, 1));
  parallel_for(0, batch * m, grain, [&](int64_t begin, int64_t end) {
    for (int64_t row = begin; row < end; ++row) {
      int64_t bi = row / m, i = row % m;
      const T* ar = pa + bi * a.stride(0) + i * a.stride(1);
      const T* bb = pb + bi * b.stride(0);
      for (int64_t j = 0; j < n; ++j) {
        uint64_t acc = 0;
        for (int64_t p = 0; p < k; ++p)
          acc += uint64_t(int64_t(ar[p * a.stride(2)])) * uint64_t(int64_t(bb[p * b.stride(1) + j * b.stride(2)]));
        po[row * n + j] = T(acc);
      }
    }
  });
}

// out = a @ b over 3-D operands of one dtype; `name` is PyTorch's kernel name for errors.
void bmm_into(const Tensor& a, const Tensor& b, const Tensor& out, const char* name) {
  if (out.numel() == 0) return;
  if (a.size(2) == 0) {  // empty contraction: BLAS would reject ld=0, the answer is zeros
    copy_cast(out, scalar_tensor(0, DType::Float64, true));
    return;
  }
  switch (a.dtype()) {
    case DType::Float32: return blas_bmm<float>(a, b, out);
    case DType::Float64: return blas_bmm<double>(a, b, out);
    case DType::Float16:
    case DType::BFloat16: {
      Tensor tmp = empty_tensor(out.sizes(), DType::Float32);
      blas_bmm<float>(cast_to(a, DType::Float32), cast_to(b, DType::Float32), tmp);
      copy_cast(out, tmp);
      return;
    }
    case DType::UInt8: return int_bmm<uint8_t>(a, b, out);
    case DType::Int8: return int_bmm<int8_t>(a, b, out);
    case DType::Int16: return int_bmm<int16_t>(a, b, out);
    case DType::Int32: return int_bmm<int32_t>(a, b, out);
    case DType::Int64: return int_bmm<int64_t>(a, b, out);
    case DType::Bool: break;
  }
  throw Error(detail::cat("\"", name, "\" not implemented for '", dtype_legacy_name(a.dtype()), "'"),
              ErrorKind::NotImplemented);
}

// ---- mm -------------------------------------------------------------------------------
std::vector<Shape> shape_mm(const Args& a) {
  const Tensor &x = a[0].tensor(), &y = a[1].tensor();
  KILN_CHECK(x.dim() == 2, Runtime, "self must be a matrix");
  KILN_CHECK(y.dim() == 2, Runtime, "mat2 must be a matrix");
  KILN_CHECK(x.size(1) == y.size(0), Runtime, "mm: mat1 and mat2 shapes cannot be multiplied (", x.size(0), "x",
             x.size(1), " and ", y.size(0), "x", y.size(1), ")");
  return {{x.size(0), y.size(1)}};
}
std::vector<DType> dtype_matmul(const Args& a) {
  check_same_dtype(a[0].tensor(), a[1].tensor());
  return {a[0].tensor().dtype()};
}
void mm_kernel(const Args& a, std::vector<Tensor>& outs) {
  bmm_into(as_batch(a[0].tensor()), as_batch(a[1].tensor()), as_batch(outs[0]), "addmm_impl_cpu_");
}
// A product whose inner dim is 1 has one term per element, out[i, j] =
// a[i, 0] * b[0, j]: a broadcast multiply, exactly what the BLAS computes, so
// it fuses with what reads it (a batch-1 weight gradient into the optimizer's
// update, which then never reads it back). Valid only at that size: the
// kernel checks it at every launch.
bool lower_mm(kir::Lowering& L) {
  const DType t = L.outs[0].dtype();
  if (!kir::lowerable_type(t) || t == DType::Bool || L.specialize_size(0, 1) != 1) return false;
  L.set_out(0, L.b.binary(kir::Op::Mul, L.tensor(0, t), L.tensor(1, t)));
  return true;
}
// Whether a matrix is a transposed dense one (column-major), as W.t() in linear is.
bool column_major(const Tensor& t) { return t.stride(0) == 1 && t.stride(1) == t.size(0) && t.size(0) > 1; }

// Each gradient gets its input's layout, as PyTorch's mm_mat1/mm_mat2_backward
// do: linear's weight enters as W.t(), so its gradient is computed as
// (grad^T @ x)^T, a transposed view whose transpose back is W's dense layout.
// Computed as x^T @ grad instead it would be a transposed copy, and every
// consumer (accumulation into .grad, the optimizer) would gather across rows.
std::vector<Tensor> grad_mm(const GradCtx& c) {
  Tensor g0, g1;
  const Tensor &a = c.in(0), &b = c.in(1);
  if (c.need(0)) g0 = column_major(a) ? transpose(mm(b, transpose(c.grad(), 0, 1)), 0, 1)
                                      : mm(c.grad(), transpose(b, 0, 1));
  if (c.need(1)) g1 = column_major(b) ? transpose(mm(transpose(c.grad(), 0, 1), a), 0, 1)
                                      : mm(transpose(a, 0, 1), c.grad());
  return {g0, g1};
}

// ---- bmm ------------------------------------------------------------------------------
std::vector<Shape> shape_bmm(const Args& a) {
  const Tensor &x = a[0].tensor(), &y = a[1].tensor();
  KILN_CHECK(x.dim() == 3, Runtime, "batch1 must be a 3D tensor");
  KILN_CHECK(y.dim() == 3, Runtime, "batch2 must be a 3D tensor");
  KILN_CHECK(y.size(0) == x.size(0) && y.size(1) == x.size(2), Runtime,
             "Expected size for first two dimensions of batch2 tensor to be: [", x.size(0), ", ", x.size(2),
             "] but got: [", y.size(0), ", ", y.size(1), "].");
  return {{x.size(0), x.size(1), y.size(2)}};
}
std::vector<DType> dtype_bmm(const Args& a) {
  const Tensor &x = a[0].tensor(), &y = a[1].tensor();
  KILN_CHECK(x.dtype() == y.dtype(), Runtime, "expected scalar type ", dtype_legacy_name(x.dtype()),
             " but found ", dtype_legacy_name(y.dtype()));
  return {x.dtype()};
}
void bmm_kernel(const Args& a, std::vector<Tensor>& outs) {
  bmm_into(a[0].tensor(), a[1].tensor(), outs[0], "bmm");
}
std::vector<Tensor> grad_bmm(const GradCtx& c) {
  return {c.need(0) ? bmm(c.grad(), transpose(c.in(1), 1, 2)) : Tensor(),
          c.need(1) ? bmm(transpose(c.in(0), 1, 2), c.grad()) : Tensor()};
}

// matmul's folded and batched paths end in PyTorch's _unsafe_view.
Tensor unsafe_view_node(Tensor out) {
  const std::shared_ptr<Node>& n = out.grad_fn();
  return n && grad_fn_name(*n) == "ViewBackward0" ? as_node(out, "UnsafeViewBackward0") : out;
}

// ---- dot / mv ---------------------------------------------------------------------------
std::vector<Tensor> dot_composite(const Args& a) {
  const Tensor &x = a[0].tensor(), &y = a[1].tensor();
  KILN_CHECK(x.dim() == 1 && y.dim() == 1, Runtime, "1D tensors expected, but got ", x.dim(), "D and ", y.dim(),
             "D tensors");
  KILN_CHECK(x.dtype() == y.dtype(), Runtime, "dot : expected both vectors to have same dtype, but found ",
             dtype_legacy_name(x.dtype()), " and ", dtype_legacy_name(y.dtype()));
  KILN_CHECK(x.numel() == y.numel(), Runtime, "inconsistent tensor size, expected tensor [", x.numel(),
             "] and src [", y.numel(), "] to have the same number of elements, but got ", x.numel(), " and ",
             y.numel(), " elements respectively");
  return {as_node(reshape(mm(reshape(x, {1, x.numel()}), reshape(y, {y.numel(), 1})), {}), "DotBackward0")};
}
// inner(Tensor self, Tensor other): the sum over both last dims (a product with a
// number when either is 0-dim); vdot: dot (no conjugation for real tensors).
std::vector<Tensor> inner_composite(const Args& a) {
  const Tensor &x = a[0].tensor(), &y = a[1].tensor();
  if (x.dim() == 0 || y.dim() == 0) return {mul(x, y)};
  KILN_CHECK(x.size(-1) == y.size(-1), Runtime, "inner() the last dimension must match on both input tensors but got "
             "shapes ", shape_str(x.sizes()), " and ", shape_str(y.sizes()));
  return {invoke("tensordot", {x, y, Shape{-1}, Shape{-1}})};
}
std::vector<Tensor> vdot_composite(const Args& a) { return {invoke("dot", {a[0], a[1]})}; }

std::vector<Tensor> mv_composite(const Args& a) {
  const Tensor &m = a[0].tensor(), &v = a[1].tensor();
  KILN_CHECK(m.dim() == 2 && v.dim() == 1, Runtime, "vector + matrix @ vector expected, got 1, ", m.dim(), ", ",
             v.dim());
  KILN_CHECK(m.size(1) == v.size(0), Runtime, "size mismatch, got input (", m.size(0), "), mat (", m.size(0), "x",
             m.size(1), "), vec (", v.size(0), ")");
  // PyTorch's mv is addmv into a result of vec's dtype, so its check names three tensors.
  KILN_CHECK(m.dtype() == v.dtype(), Runtime, "addmv input tensors must have the same dtype, but got ",
             dtype_legacy_name(v.dtype()), ", ", dtype_legacy_name(m.dtype()), ", and ", dtype_legacy_name(v.dtype()));
  return {as_node(reshape(mm(m, reshape(v, {v.size(0), 1})), {m.size(0)}), "MvBackward0")};
}

// ---- matmul -------------------------------------------------------------------------------
Tensor mT(const Tensor& t) { return transpose(t, -2, -1); }

// Whether the larger operand (>= 3-D, against a 1-D or 2-D one) can be folded
// into a matrix for one mm/mv instead of a broadcast bmm (PyTorch's rule, so
// results and error messages take the same route).
bool should_fold(const Tensor& t1, const Tensor& t2) {
  bool t1_larger = t1.dim() >= t2.dim();
  Tensor big = t1_larger ? t1 : mT(t2);
  int64_t small_dim = t1_larger ? t2.dim() : t1.dim();
  if (!(big.dim() >= 3 && small_dim <= 2)) return false;
  // Folding keeps the other operand's gradient a plain mm result, not a large broadcast sum.
  if ((t1_larger ? t2 : t1).requires_grad()) return true;
  if (t1.dim() == 2) return false;
  if (big.numel() == 0) return true;
  for (int64_t i = 0; i < big.dim() - 2; ++i)
    if (big.stride(i) != big.stride(i + 1) * big.size(i + 1)) return false;
  return true;
}

Tensor matmul_fold(const Tensor& t1, const Tensor& t2) {
  bool flip = t2.dim() > t1.dim();
  Tensor big = flip ? mT(t2) : t1;
  Tensor small = !flip ? t2 : t1.dim() == 2 ? transpose(t1, 0, 1) : t1;
  Shape out_shape(big.sizes().begin(), big.sizes().end() - 1);
  int64_t rows = shape_numel(out_shape);
  Tensor folded = reshape(big, {rows, big.sizes().back()});
  if (small.dim() == 2) {
    out_shape.push_back(small.size(1));
    Tensor out = reshape(mm(folded, small), out_shape);
    return flip ? contiguous(mT(out)) : out;
  }
  return reshape(mv(folded, small), out_shape);
}

// The general case: broadcast the batch dims, flatten them and run one bmm.
Tensor matmul_batched(const Tensor& t1, const Tensor& t2) {
  int64_t d1 = t1.dim(), d2 = t2.dim();
  int64_t n = d1 > 1 ? t1.size(-2) : 1, m1 = t1.sizes().back();
  int64_t m2 = d2 > 1 ? t2.size(-2) : t2.size(0), p = d2 > 1 ? t2.sizes().back() : 1;
  Shape batch1(t1.sizes().begin(), t1.sizes().begin() + std::max<int64_t>(d1 - 2, 0));
  Shape batch2(t2.sizes().begin(), t2.sizes().begin() + std::max<int64_t>(d2 - 2, 0));
  Shape batch = broadcast_shapes(batch1, batch2);
  int64_t nb = shape_numel(batch);
  Shape size1 = batch, size2 = batch;
  size1.insert(size1.end(), {n, m1});
  Tensor a = reshape(expand(t1, size1), {nb, n, m1});
  Tensor b;
  if (d2 == 1) {
    size2.push_back(m2);
    b = reshape(expand(t2, size2), {nb, m2, 1});
  } else {
    size2.insert(size2.end(), {m2, p});
    b = reshape(expand(t2, size2), {nb, m2, p});
  }
  Shape out_shape = batch;
  if (d1 > 1) out_shape.push_back(n);
  if (d2 > 1) out_shape.push_back(p);
  return reshape(bmm(a, b), out_shape);
}

std::vector<Tensor> matmul_composite(const Args& a) {
  const Tensor &t1 = a[0].tensor(), &t2 = a[1].tensor();
  int64_t d1 = t1.dim(), d2 = t2.dim();
  KILN_CHECK(d1 != 0 && d2 != 0, Runtime, "both arguments to matmul need to be at least 1D, but they are ", d1,
             "D and ", d2, "D");
  if (d1 == 1 && d2 == 1) return {dot(t1, t2)};
  if (d1 == 2 && d2 == 1) return {mv(t1, t2)};
  if (d1 == 1 && d2 == 2)
    return {as_node(reshape(mm(reshape(t1, {1, t1.size(0)}), t2), {t2.size(1)}), "SqueezeBackward4")};
  if (d1 == 2 && d2 == 2) return {mm(t1, t2)};
  if (should_fold(t1, t2)) return {unsafe_view_node(matmul_fold(t1, t2))};
  // A 3-D operand with a size-1 batch against another 3-D one: drop it so its
  // gradient is an mm product rather than a broadcast sum (as PyTorch does).
  if (d1 == 3 && d2 == 3 && t1.size(0) != t2.size(0)) {
    if (t1.size(0) == 1 && t1.requires_grad()) return {matmul(reshape(t1, {t1.size(1), t1.size(2)}), t2)};
    if (t2.size(0) == 1 && t2.requires_grad()) return {matmul(t1, reshape(t2, {t2.size(1), t2.size(2)}))};
  }
  return {unsafe_view_node(matmul_batched(t1, t2))};
}

// ---- linear -------------------------------------------------------------------------------
std::vector<Tensor> linear_composite(const Args& a) {
  const Tensor &x = a[0].tensor(), &w = a[1].tensor();
  KILN_CHECK(x.dim() != 0 && w.dim() != 0, Runtime, "both arguments to linear need to be at least 1D, but they are ",
             x.dim(), "D and ", w.dim(), "D");
  KILN_CHECK(w.dim() <= 2, Runtime, "t() expects a tensor with <= 2 dimensions, but self is ", w.dim(), "D");
  bool has_bias = !a[2].is_none() && a[2].tensor().defined();
  // With a bias PyTorch's addmm path sees the mismatch first (and names itself).
  if (has_bias && w.dim() == 2 && x.dim() >= 1 && (x.dim() <= 2 || x.is_contiguous())) {
    int64_t in = x.sizes().back(), rows = in == 0 ? 0 : x.numel() / in;
    KILN_CHECK(in == w.size(1), Runtime, "addmm: mat1 and mat2 shapes cannot be multiplied (", rows, "x", in,
               " and ", w.size(1), "x", w.size(0), ")");
  }
  // A dtype mismatch surfaces in addmm whatever the input's layout: bias (self) first, then the input.
  if (has_bias && w.dim() == 2 && x.dim() >= 1) {
    const DType bd = a[2].tensor().dtype();
    KILN_CHECK(bd == w.dtype(), Runtime, "self and mat2 must have the same dtype, but got ", dtype_legacy_name(bd),
               " and ", dtype_legacy_name(w.dtype()));
    KILN_CHECK(x.dtype() == w.dtype(), Runtime, "mat1 and mat2 must have the same dtype, but got ",
               dtype_legacy_name(x.dtype()), " and ", dtype_legacy_name(w.dtype()));
  }
  Tensor out;
  if (has_bias && is_reduced_float(x.dtype()) && w.dim() == 2 && (x.dim() <= 2 || x.is_contiguous())) {
    // PyTorch's bfloat16/float16 addmm adds the bias to the float32 sum and rounds once.
    out = to_dtype(linear(to_dtype(x, DType::Float32), to_dtype(w, DType::Float32),
                          to_dtype(a[2].tensor(), DType::Float32)),
                   x.dtype());
  } else {
    out = matmul(x, w.dim() == 2 ? transpose(w, 0, 1) : w);
    if (!has_bias) return {out};
    out = add(out, a[2].tensor());
  }
  // PyTorch runs addmm on a 2-D input, and on a 1-D or contiguous N-D one
  // flattened to 2-D (then _unsafe_view back); others take matmul and add.
  if (x.dim() == 2) return {as_node(out, "AddmmBackward0")};
  if (x.dim() == 1 || x.is_contiguous()) return {as_node(out, "UnsafeViewBackward0")};
  return {out};
}

}  // namespace

void mm_into(const Tensor& a, const Tensor& b, const Tensor& out) {
  bmm_into(as_batch(a), as_batch(b), as_batch(out), "addmm_impl_cpu_");
}

}  // namespace ops

void register_blas_ops(OpTable& t) {
  using namespace ops;
  constexpr OpKind C = OpKind::Composite;
  t.add({.schema_text = "mm(Tensor self, Tensor mat2) -> Tensor", .kind = OpKind::Extern, .shape = shape_mm,
         .dtype = dtype_matmul, .kernel = mm_kernel, .grad = grad_mm, .saves = save_in(0) | save_in(1),
         .lower = lower_mm});
  t.add({.schema_text = "bmm(Tensor self, Tensor mat2) -> Tensor", .kind = OpKind::Extern, .shape = shape_bmm,
         .dtype = dtype_bmm, .kernel = bmm_kernel, .grad = grad_bmm, .saves = save_in(0) | save_in(1)});
  t.add({.schema_text = "dot(Tensor self, Tensor tensor) -> Tensor", .kind = C,
         .composite = dot_composite});
  t.add({.schema_text = "inner(Tensor self, Tensor other) -> Tensor", .kind = C, .composite = inner_composite});
  t.add({.schema_text = "vdot(Tensor self, Tensor other) -> Tensor", .kind = C, .composite = vdot_composite});
  t.add({.schema_text = "mv(Tensor self, Tensor vec) -> Tensor", .kind = C,
         .composite = mv_composite});
  t.add({.schema_text = "matmul(Tensor self, Tensor other) -> Tensor", .kind = C,
         .composite = matmul_composite});
  t.add({.schema_text = "linear(Tensor input, Tensor weight, Tensor? bias=None) -> Tensor", .kind = C,
         .composite = linear_composite});
}

// ---- typed wrappers ---------------------------------------------------------------
Tensor mm(const Tensor& a, const Tensor& b) { return invoke("mm", {a, b}); }
Tensor bmm(const Tensor& a, const Tensor& b) { return invoke("bmm", {a, b}); }
Tensor dot(const Tensor& a, const Tensor& b) { return invoke("dot", {a, b}); }
Tensor mv(const Tensor& a, const Tensor& b) { return invoke("mv", {a, b}); }
Tensor matmul(const Tensor& a, const Tensor& b) { return invoke("matmul", {a, b}); }
Tensor linear(const Tensor& x, const Tensor& w, const Tensor& b) {
  return invoke("linear", {x, w, b.defined() ? Value(b) : Value()});
}

}  // namespace kiln
