// The CUDA C emitter (gpu/cuda_codegen.h): the structure of its output for
// hand-built kernels, its errors on malformed IR, and NVRTC compiling
// everything it emits (hand-built and random kernels) for sm_90 and
// compute_90. NVRTC needs no GPU; without NVRTC the compile tests skip,
// saying why. Nothing here runs a kernel.
#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <functional>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "core/error.h"
#include "gpu/cuda_codegen.h"
#include "gpu/nvrtc_compile.h"
#include "tests/gpu/nvrtc_batch.h"
#include "tests/gpu/random_kernels.h"

namespace kiln::gpu {
namespace {

using kir::ExprId;
using kir::Inner;
using kir::Op;

kir::Kernel make(std::string name, kir::Kind kind, int rank, std::vector<kir::Operand> operands,
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

constexpr kir::Operand in_f32{DType::Float32, Inner::Contiguous, false};
constexpr kir::Operand out_f32{DType::Float32, Inner::Contiguous, true};

// tanh(x * w + b) over [rows, cols]; w and b broadcast over rows at run time.
kir::Kernel mul_add_tanh() {
  return make("fused_mul_add_tanh", kir::Kind::Pointwise, 2, {in_f32, in_f32, in_f32, out_f32}, [](kir::Builder& b) {
    // One call per statement: argument evaluation order would number the loads.
    const ExprId x = b.load(0), w = b.load(1), bias = b.load(2);
    const ExprId xw = b.binary(Op::Mul, x, w);
    const ExprId y = b.binary(Op::Add, xw, bias);
    b.kernel().stores.push_back({3, b.unary(Op::Tanh, y)});
  });
}

// softmax over the last dim: max, sum(exp(x - max)), exp(x - max) / sum.
kir::Kernel softmax() {
  return make("fused_softmax", kir::Kind::Row, 2, {in_f32, out_f32}, [](kir::Builder& b) {
    const ExprId x = b.load(0);
    const ExprId m = b.reduce(kir::ReduceOp::Max, x);
    const ExprId d = b.binary(Op::Sub, x, m);
    const ExprId e = b.unary(Op::Exp, d);
    const ExprId s = b.reduce(kir::ReduceOp::Sum, e);
    b.kernel().stores.push_back({1, b.binary(Op::Div, e, s)});
  });
}

// layer_norm-like, in float64 with an int32 mask and a bool output: per-row
// stores to broadcast (per-row) operands, a strided input, int64 counts.
kir::Kernel mixed_row() {
  const std::vector<kir::Operand> ops = {{DType::Float64, Inner::Strided, false},
                                         {DType::Int32, Inner::Broadcast, false},
                                         {DType::Float64, Inner::Contiguous, true},
                                         {DType::Float32, Inner::Broadcast, true},
                                         {DType::Bool, Inner::Strided, true},
                                         {DType::Int64, Inner::Broadcast, true}};
  return make("fused_mixed", kir::Kind::Row, 3, ops, [](kir::Builder& b) {
    const ExprId x = b.load(0), mask_i32 = b.load(1), n = b.param(0, DType::Float64);
    const ExprId sum = b.reduce(kir::ReduceOp::Sum, x);
    const ExprId mean = b.binary(Op::Div, sum, n);
    const ExprId d = b.binary(Op::Sub, x, mean);
    const ExprId d2 = b.binary(Op::Mul, d, d);
    const ExprId sum2 = b.reduce(kir::ReduceOp::Sum, d2);
    const ExprId var = b.binary(Op::Div, sum2, n);
    const ExprId eps = b.constant(1e-5, DType::Float64);
    const ExprId rstd = b.unary(Op::Rsqrt, b.binary(Op::Add, var, eps));
    const ExprId mask = b.cast(mask_i32, DType::Bool);
    const ExprId zero = b.constant(0, DType::Float64);
    const ExprId masked = b.select(mask, b.binary(Op::Mul, d, rstd), zero);
    const ExprId limit = b.param(1, DType::Float64);
    const ExprId big = b.reduce(kir::ReduceOp::Max, b.compare(Op::Gt, b.unary(Op::Abs, masked), limit));
    const ExprId nan_count = b.reduce(kir::ReduceOp::Sum, b.cast(b.unary(Op::IsNan, x), DType::Int64));
    const ExprId rstd32 = b.cast(rstd, DType::Float32);
    const ExprId flag = b.binary(Op::Or, big, b.unary(Op::IsNan, masked));
    const ExprId capped = b.binary(Op::Min, nan_count, b.cast(mask_i32, DType::Int64));
    auto& st = b.kernel().stores;
    st.push_back({2, masked});
    st.push_back({3, rstd32, true});
    st.push_back({4, flag});
    st.push_back({5, capped, true});
  });
}

// nll_loss's shape: a Row kernel over rows of x, each reducing
// x[r, t[r, e]] over e (a gather that varies per element), with a per-row
// store of a fixed gather and of the row's index (its last dim reads 0 there).
kir::Kernel gather_row() {
  const std::vector<kir::Operand> ops = {{DType::Int64, Inner::Contiguous, false},
                                         {DType::Float32, Inner::Contiguous, false},
                                         {DType::Float32, Inner::Broadcast, true},
                                         {DType::Int64, Inner::Broadcast, true},
                                         {DType::Float32, Inner::Contiguous, true}};
  return make("fused_gather", kir::Kind::Row, 2, ops, [](kir::Builder& b) {
    const ExprId t = b.load(0), e = b.index(1);
    const ExprId off = b.binary(Op::Sub, t, e);
    const ExprId x = b.gather(1, off);
    const ExprId s = b.reduce(kir::ReduceOp::Sum, x);
    const ExprId first = b.gather(1, b.constant(3, DType::Int64));
    const ExprId row = b.index(0);
    auto& st = b.kernel().stores;
    st.push_back({2, b.binary(Op::Add, s, first), true});
    st.push_back({3, b.binary(Op::Add, row, e), true});
    st.push_back({4, b.binary(Op::Sub, x, s)});
  });
}

// Scatter-adds of every type atomicAdd takes (int64 through its unsigned
// form) and a plain scatter: embedding's backward shape.
kir::Kernel scatter() {
  const std::vector<kir::Operand> ops = {{DType::Int64, Inner::Broadcast, false},
                                         {DType::Float32, Inner::Contiguous, false},
                                         {DType::Float32, Inner::Contiguous, true},
                                         {DType::Float64, Inner::Contiguous, true},
                                         {DType::Int32, Inner::Contiguous, true},
                                         {DType::Int64, Inner::Contiguous, true},
                                         {DType::Bool, Inner::Contiguous, true}};
  return make("fused_scatter", kir::Kind::Pointwise, 2, ops, [](kir::Builder& b) {
    const ExprId off = b.binary(Op::Mul, b.load(0), b.param(0, DType::Int64));
    const ExprId x = b.load(1);
    auto& st = b.kernel().stores;
    st.push_back({.operand = 2, .value = x, .offset = off, .accumulate = true});
    st.push_back({.operand = 3, .value = b.cast(x, DType::Float64), .offset = off, .accumulate = true});
    st.push_back({.operand = 4, .value = b.cast(x, DType::Int32), .offset = off, .accumulate = true});
    st.push_back({.operand = 5, .value = b.cast(x, DType::Int64), .offset = off, .accumulate = true});
    st.push_back({.operand = 6, .value = b.cast(x, DType::Bool), .offset = off});
  });
}

bool has(const std::string& s, const std::string& what) { return s.find(what) != std::string::npos; }

// The kernel's own code, past the shared prelude.
std::string kernel_part(const std::string& code) {
  const size_t at = code.find("// kernel ");
  return at == std::string::npos ? "" : code.substr(at);
}

// ---- the emitted text -------------------------------------------------------------------------
TEST(CudaCodegen, PointwiseKernelIsAGridStrideLoopOverTheDomain) {
  const CudaKernelSource src = emit_cuda(mul_add_tanh(), "k_mul_add_tanh");
  const std::string c = kernel_part(src.code);
  EXPECT_FALSE(has(src.code, "#include")) << src.code;  // NVRTC has no system headers
  EXPECT_EQ(src.code.rfind("// fused_mul_add_tanh (entry k_mul_add_tanh)", 0), 0u) << src.code;  // named on top
  EXPECT_TRUE(has(src.code, "#ifndef KILN_CUDA_PRELUDE")) << src.code;
  EXPECT_EQ(src.entry, "k_mul_add_tanh");
  EXPECT_EQ(src.block_threads, 256);
  EXPECT_TRUE(has(c, "// kernel fused_mul_add_tanh: pointwise, rank 2")) << c;
  EXPECT_TRUE(has(c, "extern \"C\" __global__ void __launch_bounds__(256) k_mul_add_tanh(const k_mul_add_tanh_args a)"))
      << c;
  // The ABI struct: 4 pointers, 2 sizes, 8 strides, 1 param word, begin, end.
  EXPECT_TRUE(has(c, "char* ptrs[4];\n  kiln_i64 sizes[2];\n  kiln_i64 strides[8];")) << c;
  EXPECT_TRUE(has(c, "double params[1];\n  kiln_i64 begin, end;")) << c;
  EXPECT_TRUE(has(c, "for (kiln_i64 i = a.begin + (kiln_i64)blockIdx.x * blockDim.x + threadIdx.x; i < a.end; "
                     "i += step)"))
      << c;
  EXPECT_TRUE(has(c, "const kiln_i64 i1 = q % a.sizes[1];")) << c;
  // Operand 1's offset: its dim-0 stride (0 when broadcast), contiguous inner.
  EXPECT_TRUE(has(c, "const kiln_i64 o1 = i0 * a.strides[2] + i1;")) << c;
  EXPECT_TRUE(has(c, "const float v0 = ((const float*)a.ptrs[0])[o0];")) << c;
  EXPECT_TRUE(has(c, "const float v3 = v0 * v1;")) << c;
  EXPECT_TRUE(has(c, "const float v5 = tanhf(v4);")) << c;
  EXPECT_TRUE(has(c, "((float*)a.ptrs[3])[o3] = v5;")) << c;
  EXPECT_FALSE(has(c, "__shfl")) << c;
}

// Rows whose length is a multiple of 4 over 16-byte aligned operands take
// float4 loads and stores, four elements a thread, each lane's expressions
// written out; anything else takes the scalar loop after it.
TEST(CudaCodegen, PointwiseKernelsLoadAndStore128BitsWhenAligned) {
  const std::string c = kernel_part(emit_cuda(mul_add_tanh(), "k_mul_add_tanh").code);
  EXPECT_TRUE(has(c, "const bool vec4 = a.sizes[1] % 4 == 0 && a.begin % 4 == 0 && a.end % 4 == 0 &&")) << c;
  EXPECT_TRUE(has(c, "((kiln_u64)a.ptrs[0] & 15) == 0 && a.strides[0] % 4 == 0")) << c;
  EXPECT_TRUE(has(c, "g < a.end / 4; g += step)")) << c;
  EXPECT_TRUE(has(c, "const float4 w0 = *(const float4*)(((const float*)a.ptrs[0]) + o0);")) << c;
  EXPECT_TRUE(has(c, "const float v0_3 = w0.w;")) << c;
  EXPECT_TRUE(has(c, "const float v5_2 = tanhf(v4_2);")) << c;
  EXPECT_TRUE(has(c, "*(float4*)(((float*)a.ptrs[3]) + o3) = make_float4(v5_0, v5_1, v5_2, v5_3);")) << c;
  const size_t vec = c.find("return;"), scalar = c.find("i < a.end; i += step)");
  ASSERT_NE(vec, std::string::npos) << c;
  EXPECT_GT(scalar, vec) << c;  // the fallback loop comes after
  // Row kernels, and kernels with no contiguous 4-byte operand, stay scalar.
  EXPECT_FALSE(has(emit_cuda(softmax(), "k_softmax").code, "float4")) << c;
}

TEST(CudaCodegen, SoftmaxIsOneBlockPerRowWithShuffleReductions) {
  const std::string full = emit_cuda(softmax(), "k_softmax").code, c = kernel_part(full);
  EXPECT_TRUE(has(full, "__shfl_xor_sync(0xffffffffu")) << full;  // kiln_block_reduce, in the prelude
  EXPECT_TRUE(has(c, "for (kiln_i64 r = a.begin + blockIdx.x; r < a.end; r += gridDim.x)")) << c;
  // Max starts at -inf (NaN still wins in kiln_max), sum at 0, in order.
  const size_t r0 = c.find("float acc0 = __int_as_float(0xff800000);");
  const size_t r1 = c.find("float acc1 = 0.0f;");
  ASSERT_NE(r0, std::string::npos) << c;
  ASSERT_NE(r1, std::string::npos) << c;
  EXPECT_LT(r0, r1);
  EXPECT_TRUE(has(c, "const float rv0 = kiln_block_reduce(acc0, kiln_max_op(), (float*)partial);")) << c;
  EXPECT_TRUE(has(c, "const float rv1 = kiln_block_reduce(acc1, kiln_sum_op(), (float*)partial);")) << c;
  EXPECT_TRUE(has(c, "expf(v2)")) << c;
  // The element pass reads both reductions' results and divides.
  const size_t stores = c.find("// element stores");
  ASSERT_NE(stores, std::string::npos) << c;
  EXPECT_GT(c.find("= rv1;", stores), stores) << c;
  EXPECT_TRUE(has(c, "const float v5 = v3 / v4;")) << c;
  EXPECT_FALSE(has(c, "if (threadIdx.x == 0")) << c;  // no per-row stores
  EXPECT_FALSE(has(c, "fmaxf")) << c;  // not NaN-propagating
}

TEST(CudaCodegen, PerRowStoresIgnoreTheLastStrideAndRunOnThreadZero) {
  const std::string c = emit_cuda(mixed_row(), "k_mixed").code;
  // The per-row count of NaNs is min'd with a load (element 0): not on an empty row.
  const size_t per_row = c.find("if (threadIdx.x == 0 && n > 0) {");
  ASSERT_NE(per_row, std::string::npos) << c;
  const size_t elems = c.find("// element stores");
  ASSERT_GT(elems, per_row) << c;
  const std::string row_part = c.substr(per_row, elems - per_row), elem_part = c.substr(elems);
  EXPECT_TRUE(has(row_part, "const kiln_i64 o3 = b3;")) << row_part;
  EXPECT_TRUE(has(row_part, "((float*)a.ptrs[3])[o3] = v")) << row_part;  // rstd32
  EXPECT_TRUE(has(row_part, "((kiln_i64*)a.ptrs[5])[o5] = v")) << row_part;
  EXPECT_FALSE(has(row_part, "a.ptrs[2]")) << row_part;  // element stores stay out
  // Strided: the last dim's stride; bool stored as a byte.
  EXPECT_TRUE(has(elem_part, "const kiln_i64 o4 = b4 + e * a.strides[14];")) << elem_part;
  EXPECT_TRUE(has(elem_part, "((kiln_u8*)a.ptrs[4])[o4] = (kiln_u8)")) << elem_part;
  EXPECT_TRUE(has(c, "const kiln_i64 b0 = i0 * a.strides[0] + i1 * a.strides[1];")) << c;
  // The bool Max and int64 Sum reductions, and the int32 operand read as bool.
  EXPECT_TRUE(has(c, "bool acc2 = false;")) << c;
  EXPECT_TRUE(has(c, "kiln_i64 acc3 = 0LL;")) << c;
  EXPECT_TRUE(has(c, "(const kiln_i32*)a.ptrs[1]")) << c;
  EXPECT_TRUE(has(c, "rsqrt(")) << c;
}

TEST(CudaCodegen, GathersReadAtAnOffsetAndIndexNamesTheLoopVariables) {
  const std::string c = kernel_part(emit_cuda(gather_row(), "k_gather").code);
  // Element passes: the last dim's index is the element e, the outer one i0.
  EXPECT_TRUE(has(c, "const kiln_i64 v1 = e;")) << c;
  EXPECT_TRUE(has(c, "const float v3 = ((const float*)a.ptrs[1])[o1 + v2];")) << c;
  EXPECT_TRUE(has(c, "const kiln_i64 v7 = i0;")) << c;
  // The per-row pass: the last dim reads 0, and the fixed gather counts as a
  // load of element 0 (skipped on an empty row).
  const size_t per_row = c.find("if (threadIdx.x == 0 && n > 0) {");
  ASSERT_NE(per_row, std::string::npos) << c;
  const std::string row_part = c.substr(per_row, c.find("// element stores") - per_row);
  EXPECT_TRUE(has(row_part, "const kiln_i64 v1 = 0LL;")) << row_part;
  EXPECT_TRUE(has(row_part, "((const float*)a.ptrs[1])[o1 + v5]")) << row_part;
}

TEST(CudaCodegen, ScatterAddsAreAtomic) {
  const std::string c = kernel_part(emit_cuda(scatter(), "k_scatter").code);
  EXPECT_TRUE(has(c, "atomicAdd(&((float*)a.ptrs[2])[o2 + v2], v3);")) << c;
  EXPECT_TRUE(has(c, "atomicAdd(&((double*)a.ptrs[3])[o3 + v2], v4);")) << c;
  EXPECT_TRUE(has(c, "atomicAdd(&((kiln_i32*)a.ptrs[4])[o4 + v2], v5);")) << c;
  EXPECT_TRUE(has(c, "atomicAdd((kiln_u64*)&((kiln_i64*)a.ptrs[5])[o5 + v2], (kiln_u64)(v6));")) << c;
  EXPECT_TRUE(has(c, "((kiln_u8*)a.ptrs[6])[o6 + v2] = (kiln_u8)v7;")) << c;  // a plain scatter
}

TEST(CudaCodegen, ConstantsAndCastsAreExact) {
  const std::vector<kir::Operand> outs = {{DType::Float32, Inner::Contiguous, true},
                                          {DType::Int32, Inner::Contiguous, true},
                                          {DType::Float64, Inner::Contiguous, true},
                                          {DType::Int64, Inner::Contiguous, true}};
  kir::Kernel k = make("consts", kir::Kind::Pointwise, 1, outs, [](kir::Builder& b) {
    const ExprId nan = b.constant(NAN, DType::Float32), inf = b.constant(-INFINITY, DType::Float64);
    const ExprId tenth = b.constant(0.1, DType::Float32), min32 = b.constant(-2147483648.0, DType::Int32);
    const ExprId big = b.constant(-9007199254740993.0, DType::Int64), half = b.constant(-2.5, DType::Int32);
    const ExprId sum = b.binary(Op::Add, nan, tenth);
    const ExprId s = b.binary(Op::Max, sum, b.cast(inf, DType::Float32));
    const ExprId i = b.binary(Op::Add, min32, half);
    const ExprId si = b.cast(s, DType::Int32);
    auto& st = b.kernel().stores;
    st.push_back({0, s});
    st.push_back({1, b.binary(Op::Add, i, si)});
    st.push_back({2, inf});
    st.push_back({3, big});
  });
  const std::string c = kernel_part(emit_cuda(k, "k_consts").code);
  EXPECT_TRUE(has(c, "= __int_as_float(0x7fc00000);")) << c;
  EXPECT_TRUE(has(c, "= __longlong_as_double(0xfff0000000000000LL);")) << c;
  EXPECT_TRUE(has(c, "= 0.100000001f;")) << c;  // float(0.1), all digits
  EXPECT_TRUE(has(c, "= (-2147483647 - 1);")) << c;
  EXPECT_TRUE(has(c, "= -9007199254740992LL;")) << c;  // the double nearest -(2^53 + 1)
  EXPECT_TRUE(has(c, "const kiln_i32 v5 = -2;")) << c;  // truncated
  EXPECT_TRUE(has(c, "kiln_add(")) << c;                // wrapping int adds
  EXPECT_TRUE(has(c, "(kiln_i32)(kiln_i64)v")) << c;    // float -> int32 through int64
}

TEST(CudaCodegen, KernelNamesCannotBreakOutOfComments) {
  kir::Kernel k = mul_add_tanh();
  k.name = "odd\\\nname";  // a backslash would splice the next line into the comment
  const std::string c = emit_cuda(k, "k").code;
  EXPECT_EQ(c.rfind("// odd  name (entry k)", 0), 0u) << c;
  EXPECT_TRUE(has(c, "// kernel odd  name: pointwise")) << c;
  EXPECT_FALSE(has(c, "\\")) << c;
}

TEST(CudaCodegen, MalformedKernelsThrow) {
  auto throws = [](const kir::Kernel& k, const std::string& entry, const std::string& what) {
    try {
      emit_cuda(k, entry);
      ADD_FAILURE() << "no error for " << what << "\n" << k.to_text();
    } catch (const Error& e) {
      EXPECT_TRUE(has(e.what(), what)) << e.what();
    }
  };
  kir::Kernel good = mul_add_tanh();
  throws(good, "not an identifier", "is not a C identifier");
  throws(good, "", "is not a C identifier");
  throws(good, "kiln_max", "is taken by the generated code's prelude");
  EXPECT_NO_THROW(emit_cuda(good, "kiln_max_fused"));

  kir::Kernel k = good;
  k.exprs[3].a = 7;  // a later expression
  throws(k, "e", "is not an earlier expression");
  k = good;
  k.exprs[0].slot = 9;
  throws(k, "e", "no operand 9");
  k = good;
  k.exprs[3].type = DType::Float64;  // a float64 Mul of float32 values
  throws(k, "e", "%3 = Mul.float64 %0 %1: operand %0 is float32");
  k = good;
  k.stores[0].operand = 0;
  throws(k, "e", "it is an input");
  k = good;
  k.stores[0].per_row = true;
  throws(k, "e", "per_row in a pointwise kernel");
  k = good;
  k.operands[0].dtype = DType::Float16;
  throws(k, "e", "has dtype float16");
  k = good;
  k.exprs.push_back({.op = Op::Const, .type = DType::Int32, .imm = NAN});
  throws(k, "e", "is not a int32");

  kir::Kernel s = softmax();
  s.reductions[0].value = int32_t(s.exprs.size() - 1);  // the max reads the sum's result
  throws(s, "e", "reads a reduction that is not finished yet");
  s = softmax();
  s.kind = kir::Kind::Pointwise;
  throws(s, "e", "RowValue outside a Row kernel");
}

TEST(CudaCodegen, ArgWordsFollowTheAbi) {
  EXPECT_EQ(cuda_arg_words(mul_add_tanh()), 4 + 2 + 8 + 1 + 2);
  EXPECT_EQ(cuda_arg_words(mixed_row()), 6 + 3 + 18 + 2 + 2);
}

// ---- NVRTC ------------------------------------------------------------------------------------
#define KILN_NEED_NVRTC()                                       \
  do {                                                          \
    std::string why;                                            \
    if (!nvrtc_available(&why)) GTEST_SKIP() << "NVRTC: " << why; \
  } while (0)

bool is_elf(const std::string& image) { return image.size() > 4 && image.compare(0, 4, "\x7f" "ELF") == 0; }

TEST(CudaCodegenNvrtc, HandKernelsCompileForSm90AndCompute90) {
  KILN_NEED_NVRTC();
  const std::vector<std::pair<kir::Kernel, std::string>> kernels = {
      {mul_add_tanh(), "k_mul_add_tanh"}, {softmax(), "k_softmax"}, {mixed_row(), "k_mixed"},
      {gather_row(), "k_gather"}, {scatter(), "k_scatter"}};
  for (const auto& [k, entry] : kernels) {
    const CudaKernelSource src = emit_cuda(k, entry);
    NvrtcResult cubin = nvrtc_compile(src.code, entry + ".cu", {.arch = "sm_90", .want_ptx = true});
    EXPECT_TRUE(cubin.is_cubin);
    EXPECT_TRUE(is_elf(cubin.image)) << entry;
    EXPECT_EQ(cubin.log, "") << entry;  // no warnings either
    EXPECT_TRUE(has(cubin.ptx, ".entry " + entry)) << cubin.ptx;
    NvrtcResult ptx = nvrtc_compile(src.code, entry + ".cu", {.arch = "compute_90"});
    EXPECT_FALSE(ptx.is_cubin);
    EXPECT_TRUE(has(ptx.image, ".visible .entry " + entry)) << ptx.image;
    EXPECT_TRUE(has(ptx.image, ".maxntid 256")) << entry;  // __launch_bounds__
    if (k.kind == kir::Kind::Row) {
      EXPECT_TRUE(has(ptx.image, "shfl.sync.bfly")) << entry;
    }
    if (entry == "k_mul_add_tanh") {  // the 128-bit path is real vector memory access
      EXPECT_TRUE(has(ptx.image, "ld.global.v4.f32")) << ptx.image;
      EXPECT_TRUE(has(ptx.image, "st.global.v4.f32")) << ptx.image;
    }
  }
}

TEST(CudaCodegenNvrtc, BatchFailureNamesTheKernelAndShowsItsIr) {
  KILN_NEED_NVRTC();
  test::NvrtcBatch batch;
  batch.add(softmax(), "good");
  std::string broken = emit_cuda(mul_add_tanh(), "broken").code;
  const size_t at = broken.find("tanhf(");
  ASSERT_NE(at, std::string::npos);
  broken.replace(at, 6, "no_such_function(");
  batch.add_source(mul_add_tanh(), "broken", broken);
  EXPECT_NONFATAL_FAILURE(batch.compile({.arch = "compute_90"}),
                          "NVRTC rejects broken for compute_90:\nkernel fused_mul_add_tanh pointwise rank 2");
  EXPECT_NONFATAL_FAILURE(batch.compile({.arch = "compute_90"}), "no_such_function");
}

// KILN_GPU_RANDOM_KERNELS=N compiles N random kernels, half of each kind (default 500).
int random_count() {
  const char* env = std::getenv("KILN_GPU_RANDOM_KERNELS");
  return env ? std::atoi(env) : 500;
}

TEST(CudaCodegenNvrtc, RandomKernelsCompile) {
  KILN_NEED_NVRTC();
  const int n = random_count();
  std::mt19937_64 seeds(20261130);
  constexpr size_t kBatch = 100;
  test::NvrtcBatch batch;
  int batches = 0;
  std::set<std::string> seen;  // ops, reductions and layouts drawn
  for (int i = 0; i < n; ++i) {
    const uint64_t seed = seeds();
    kir::Kernel k = test::random_kernel(seed, i % 2 == 1);
    for (const kir::Expr& e : k.exprs) seen.insert(kir::op_name(e.op));
    for (const kir::Reduction& r : k.reductions)
      seen.insert("reduce " + std::to_string(int(r.op)) + " " + std::string(dtype_name(k.exprs[size_t(r.value)].type)));
    for (const kir::Store& st : k.stores) seen.insert(st.per_row ? "per_row store" : "element store");
    for (const kir::Operand& o : k.operands)
      seen.insert((o.output ? "out " : "in ") + std::string(dtype_name(o.dtype)) + " " + std::to_string(int(o.inner)));
    batch.add(std::move(k), "random_" + std::to_string(i));
    if (batch.size() < kBatch && i < n - 1) continue;
    // Alternate the targets (a CUBIN costs ptxas time): both see every kind of kernel.
    const bool cubin = batches++ % 2 == 0;
    if (!batch.compile(cubin ? NvrtcOptions{.arch = "sm_90"} : NvrtcOptions{.arch = "compute_90"})) break;
    batch = {};
  }
  EXPECT_EQ(batches, (n + int(kBatch) - 1) / int(kBatch));
  if (n < 500) return;  // a short run need not meet everything
  // Every op, every reduction of every type it allows, every dtype in every layout.
  std::vector<std::string> want = {"per_row store", "element store"};
#define KILN_WANT_OP(e) want.push_back(#e);
  KILN_KIR_OPS(KILN_WANT_OP)
#undef KILN_WANT_OP
  for (DType t : {DType::Bool, DType::Int32, DType::Int64, DType::Float32, DType::Float64}) {
    for (int r = 0; r < 3; ++r)
      if (r > 0 || t != DType::Bool) want.push_back("reduce " + std::to_string(r) + " " + std::string(dtype_name(t)));
    for (const char* dir : {"in ", "out "})
      for (int inner = 0; inner < 3; ++inner)
        want.push_back(dir + std::string(dtype_name(t)) + " " + std::to_string(inner));
  }
  for (const std::string& w : want) EXPECT_TRUE(seen.count(w)) << "no random kernel has " << w;
}

}  // namespace
}  // namespace kiln::gpu
