// Kernel IR to CUDA C. The emitted code is plain enough to read in a dump:
// one `const` local per SSA expression, named after its id (v7 is %7), the
// IR text as a comment on top, and helpers (NaN-propagating max/min,
// wrapping integer arithmetic, the block reduction) in a shared prelude.
#include "gpu/cuda_codegen.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"

namespace kiln::gpu {
namespace {

using kir::ExprId;
using kir::Kind;
using kir::Op;

bool floating(DType t) { return t == DType::Float32 || t == DType::Float64; }

// ---- C spellings ------------------------------------------------------------------------------
const char* ctype(DType t) {
  switch (t) {
    case DType::Bool: return "bool";
    case DType::Int32: return "kiln_i32";
    case DType::Int64: return "kiln_i64";
    case DType::Float32: return "float";
    default: return "double";
  }
}

// How an element sits in memory: bools are bytes.
const char* mtype(DType t) { return t == DType::Bool ? "kiln_u8" : ctype(t); }

std::string float_literal(double v, DType t) {
  const bool f32 = t == DType::Float32;
  if (std::isnan(v)) return f32 ? "__int_as_float(0x7fc00000)" : "__longlong_as_double(0x7ff8000000000000LL)";
  if (std::isinf(v)) {
    if (f32) return v > 0 ? "__int_as_float(0x7f800000)" : "__int_as_float(0xff800000)";
    return v > 0 ? "__longlong_as_double(0x7ff0000000000000LL)" : "__longlong_as_double(0xfff0000000000000LL)";
  }
  // Shortest round-trip digits of the value *in its type* (the IR's Float32
  // constant is float(imm)), so the literal is exact.
  char buf[40];
  if (f32) {
    std::snprintf(buf, sizeof buf, "%.9g", double(float(v)));
  } else {
    std::snprintf(buf, sizeof buf, "%.17g", v);
  }
  std::string s = buf;
  if (s.find_first_of(".e") == std::string::npos) s += ".0";
  return f32 ? s + "f" : s;
}

std::string int_literal(int64_t v, DType t) {
  if (t == DType::Bool) return v ? "true" : "false";
  if (t == DType::Int32) {
    const int32_t x = int32_t(v);
    if (x == INT32_MIN) return "(-2147483647 - 1)";
    return std::to_string(x);
  }
  if (v == INT64_MIN) return "(-9223372036854775807LL - 1)";
  return std::to_string(v) + "LL";
}

// A constant of type t, as the reference reads an IR constant: a double cast to t.
std::string constant(double imm, DType t) {
  if (floating(t)) return float_literal(imm, t);
  if (t == DType::Bool) return imm != 0 ? "true" : "false";  // NaN != 0
  return int_literal(int64_t(std::trunc(imm)), t);
}

// x (of type `from`) as a `to`: float->int truncates (through int64, so
// int32 wraps like the reference), ->bool is != 0.
std::string cast(const std::string& x, DType from, DType to) {
  if (from == to) return x;
  if (to == DType::Bool) return "(" + x + " != 0)";
  if (to == DType::Int32 && floating(from)) return "(kiln_i32)(kiln_i64)" + x;
  return "(" + std::string(ctype(to)) + ")" + x;
}

// The unary functions of floats: float spelling, double spelling.
const char* math_fn(Op op, DType t) {
  const bool f = t == DType::Float32;
  switch (op) {
    case Op::Abs: return f ? "fabsf" : "fabs";
    case Op::Floor: return f ? "floorf" : "floor";
    case Op::Ceil: return f ? "ceilf" : "ceil";
    case Op::Trunc: return f ? "truncf" : "trunc";
    case Op::Round: return f ? "rintf" : "rint";  // half to even: the default rounding mode
    case Op::Exp: return f ? "expf" : "exp";
    case Op::Log: return f ? "logf" : "log";
    case Op::Log1p: return f ? "log1pf" : "log1p";
    case Op::Sqrt: return f ? "sqrtf" : "sqrt";
    case Op::Rsqrt: return f ? "rsqrtf" : "rsqrt";
    case Op::Tanh: return f ? "tanhf" : "tanh";
    case Op::Erf: return f ? "erff" : "erf";
    case Op::Sin: return f ? "sinf" : "sin";
    case Op::Cos: return f ? "cosf" : "cos";
    case Op::Pow: return f ? "powf" : "pow";
    default: return nullptr;
  }
}

const char* compare_op(Op op) {
  switch (op) {
    case Op::Lt: return " < ";
    case Op::Le: return " <= ";
    case Op::Gt: return " > ";
    case Op::Ge: return " >= ";
    case Op::Eq: return " == ";
    default: return " != ";
  }
}

// Shared by every kernel; guarded so several kernels' sources concatenate
// into one translation unit. NVRTC has no libc headers: the fixed-width
// types are ours, the math functions are CUDA's built-ins.
constexpr const char* kPrelude = R"(#ifndef KILN_CUDA_PRELUDE
#define KILN_CUDA_PRELUDE

typedef int kiln_i32;
typedef long long kiln_i64;
typedef unsigned int kiln_u32;
typedef unsigned long long kiln_u64;
typedef unsigned char kiln_u8;

// Integer arithmetic wraps (two's complement), as in the reference.
__device__ __forceinline__ kiln_i32 kiln_add(kiln_i32 a, kiln_i32 b) { return (kiln_i32)((kiln_u32)a + (kiln_u32)b); }
__device__ __forceinline__ kiln_i64 kiln_add(kiln_i64 a, kiln_i64 b) { return (kiln_i64)((kiln_u64)a + (kiln_u64)b); }
__device__ __forceinline__ float kiln_add(float a, float b) { return a + b; }
__device__ __forceinline__ double kiln_add(double a, double b) { return a + b; }
__device__ __forceinline__ kiln_i32 kiln_sub(kiln_i32 a, kiln_i32 b) { return (kiln_i32)((kiln_u32)a - (kiln_u32)b); }
__device__ __forceinline__ kiln_i64 kiln_sub(kiln_i64 a, kiln_i64 b) { return (kiln_i64)((kiln_u64)a - (kiln_u64)b); }
__device__ __forceinline__ kiln_i32 kiln_mul(kiln_i32 a, kiln_i32 b) { return (kiln_i32)((kiln_u32)a * (kiln_u32)b); }
__device__ __forceinline__ kiln_i64 kiln_mul(kiln_i64 a, kiln_i64 b) { return (kiln_i64)((kiln_u64)a * (kiln_u64)b); }
__device__ __forceinline__ kiln_i32 kiln_neg(kiln_i32 a) { return (kiln_i32)(0u - (kiln_u32)a); }
__device__ __forceinline__ kiln_i64 kiln_neg(kiln_i64 a) { return (kiln_i64)(0ull - (kiln_u64)a); }
__device__ __forceinline__ kiln_i32 kiln_abs(kiln_i32 a) { return a < 0 ? kiln_neg(a) : a; }
__device__ __forceinline__ kiln_i64 kiln_abs(kiln_i64 a) { return a < 0 ? kiln_neg(a) : a; }

// max/min propagate NaN like torch.maximum (fmaxf would drop it).
template <class T> __device__ __forceinline__ T kiln_max(T a, T b) { return a > b ? a : b; }
template <class T> __device__ __forceinline__ T kiln_min(T a, T b) { return a < b ? a : b; }
__device__ __forceinline__ float kiln_max(float a, float b) { return (a != a || b != b) ? a + b : (a > b ? a : b); }
__device__ __forceinline__ double kiln_max(double a, double b) { return (a != a || b != b) ? a + b : (a > b ? a : b); }
__device__ __forceinline__ float kiln_min(float a, float b) { return (a != a || b != b) ? a + b : (a < b ? a : b); }
__device__ __forceinline__ double kiln_min(double a, double b) { return (a != a || b != b) ? a + b : (a < b ? a : b); }

struct kiln_sum_op {
  template <class T> __device__ __forceinline__ T operator()(T a, T b) const { return kiln_add(a, b); }
};
struct kiln_max_op {
  template <class T> __device__ __forceinline__ T operator()(T a, T b) const { return kiln_max(a, b); }
};
struct kiln_min_op {
  template <class T> __device__ __forceinline__ T operator()(T a, T b) const { return kiln_min(a, b); }
};

template <class T> __device__ __forceinline__ T kiln_shfl_xor(T v, int lane_mask) {
  return __shfl_xor_sync(0xffffffffu, v, lane_mask);
}
__device__ __forceinline__ bool kiln_shfl_xor(bool v, int lane_mask) {
  return __shfl_xor_sync(0xffffffffu, (int)v, lane_mask) != 0;
}

// Every thread of the block gets op over all threads' v: a butterfly within
// each warp, then each thread folds the warps' partials in the same order,
// so all threads hold the same value. blockDim.x must be a multiple of 32.
// The first barrier keeps a previous reduction's readers off `partial`.
template <class T, class Op> __device__ __forceinline__ T kiln_block_reduce(T v, Op op, T* partial) {
  for (int m = 16; m > 0; m >>= 1) v = op(v, kiln_shfl_xor(v, m));
  __syncthreads();
  if ((threadIdx.x & 31) == 0) partial[threadIdx.x >> 5] = v;
  __syncthreads();
  v = partial[0];
  for (unsigned w = 1; w < (blockDim.x >> 5); ++w) v = op(v, partial[w]);
  return v;
}

#endif  // KILN_CUDA_PRELUDE
)";

// Text for a // comment: no line breaks, no backslash (it would continue the comment).
std::string comment_safe(std::string s) {
  for (char& c : s)
    if (c == '\\' || c == '\n' || c == '\r') c = ' ';
  return s;
}

// ---- the emitter ------------------------------------------------------------------------------
// Where a pass evaluates expressions, which decides each operand's offset.
enum class Where {
  Pointwise,   // element (i0, ..., i{rank-1})
  RowElement,  // element e of the current row
  RowStart,    // the row itself: loads read element 0, per-row stores ignore the last stride
};

class Emitter {
 public:
  Emitter(const kir::Kernel& k, std::string entry, int block_threads)
      : k_(k), name_(comment_safe(k.name)), entry_(std::move(entry)), threads_(block_threads), rank_(k.rank) {}

  std::string run() {
    line("// " + name_ + " (entry " + entry_ + "): generated by Kiln's CUDA code generator for NVRTC");
    line();
    out_ += kPrelude;
    out_ += "\n";
    header();
    args_struct();
    line("extern \"C\" __global__ void __launch_bounds__(" + std::to_string(threads_) + ") " + entry_ + "(const " +
         entry_ + "_args a) {");
    ++indent_;
    if (k_.kind == Kind::Pointwise) {
      pointwise();
    } else {
      rows();
    }
    --indent_;
    line("}");
    return out_;
  }

 private:
  void line(const std::string& s = "") {
    if (!s.empty()) out_.append(size_t(indent_) * 2, ' ');
    out_ += s;
    out_ += '\n';
  }

  void header() {
    line("// kernel " + name_ + ": " + (k_.kind == Kind::Row ? "row" : "pointwise") + ", rank " +
         std::to_string(rank_) + ", entry " + entry_);
    std::string ir = k_.to_text();
    for (size_t at = 0; at < ir.size();) {
      size_t nl = ir.find('\n', at);
      if (nl == std::string::npos) nl = ir.size();
      line("//   " + comment_safe(ir.substr(at, nl - at)));
      at = nl + 1;
    }
    line();
  }

  // The ABI's words (gpu/cuda_codegen.h) as named fields: all 8 bytes, so no padding.
  void args_struct() {
    const size_t n = k_.operands.size();
    line("struct " + entry_ + "_args {");
    ++indent_;
    if (n) line("char* ptrs[" + std::to_string(n) + "];");
    line("kiln_i64 sizes[" + std::to_string(rank_) + "];");
    if (n) line("kiln_i64 strides[" + std::to_string(n * size_t(rank_)) + "];  // operand-major");
    line("double params[" + std::to_string(std::max(k_.num_params, 1)) + "];");
    line("kiln_i64 begin, end;");
    --indent_;
    line("};");
    line();
  }

  std::string stride(int32_t k, int d) const { return "a.strides[" + std::to_string(k * rank_ + d) + "]"; }

  // The row's (or element's) outer dims: i0 .. i{dims-1} from flat index `flat`.
  void unravel(const std::string& flat, int dims) {
    if (dims == 0) return;
    line("kiln_i64 q = " + flat + ";");
    for (int d = dims - 1; d > 0; --d) {
      line("const kiln_i64 i" + std::to_string(d) + " = q % a.sizes[" + std::to_string(d) + "];");
      line("q /= a.sizes[" + std::to_string(d) + "];");
    }
    line("const kiln_i64 i0 = q;");
  }

  // Sum of idx_d * stride over the outer dims (all but the last).
  std::string outer_offset(int32_t k) const {
    std::string s;
    for (int d = 0; d < rank_ - 1; ++d) {
      if (!s.empty()) s += " + ";
      s += "i" + std::to_string(d) + " * " + stride(k, d);
    }
    return s;
  }

  // The last dim's term for index `j`, by the operand's inner layout (the
  // launcher checks strides against it, as for the CPU backend).
  std::string inner_term(int32_t k, const std::string& j) const {
    switch (k_.operands[size_t(k)].inner) {
      case kir::Inner::Contiguous: return j;
      case kir::Inner::Broadcast: return "";
      case kir::Inner::Strided: return j + " * " + stride(k, rank_ - 1);
    }
    return "";
  }

  static std::string plus(const std::string& a, const std::string& b) {
    if (a.empty()) return b.empty() ? "0" : b;
    return b.empty() ? a : a + " + " + b;
  }

  std::string offset(int32_t k, Where w) const {
    switch (w) {
      case Where::Pointwise: return plus(outer_offset(k), inner_term(k, "i" + std::to_string(rank_ - 1)));
      case Where::RowElement: return plus("b" + std::to_string(k), inner_term(k, "e"));
      case Where::RowStart: return "b" + std::to_string(k);
    }
    return "0";
  }

  // The expressions `roots` need, and the operands they and `stores` touch.
  struct Plan {
    std::vector<char> need;
    std::vector<char> operand;
  };
  Plan plan(const std::vector<ExprId>& roots, const std::vector<const kir::Store*>& stores) const {
    Plan p{std::vector<char>(k_.exprs.size(), 0), std::vector<char>(k_.operands.size(), 0)};
    for (ExprId r : roots) p.need[size_t(r)] = 1;
    for (size_t e = k_.exprs.size(); e-- > 0;) {
      if (!p.need[e]) continue;
      const kir::Expr& x = k_.exprs[e];
      if (x.op == Op::Load || x.op == Op::Gather) p.operand[size_t(x.slot)] = 1;
      if (x.op == Op::IsNan && !floating(k_.exprs[size_t(x.a)].type)) continue;  // "false": reads nothing
      for (ExprId o : {x.a, x.b, x.c})
        if (o >= 0) p.need[size_t(o)] = 1;
    }
    for (const kir::Store* s : stores) p.operand[size_t(s->operand)] = 1;
    return p;
  }

  // Offsets, then one local per needed expression, then the stores.
  void pass(const Plan& p, Where w, const std::vector<const kir::Store*>& stores) {
    offsets(p, w);
    locals(p);
    for (const kir::Store* s : stores)
      store_line(*s, cast(var(s->value), k_.exprs[size_t(s->value)].type, k_.operands[size_t(s->operand)].dtype));
  }

  // The element offsets `oK` of the operands a pass touches, at `w`.
  void offsets(const Plan& p, Where w) {
    where_ = w;
    for (size_t k = 0; k < p.operand.size(); ++k)
      if (p.operand[k]) line("const kiln_i64 o" + std::to_string(k) + " = " + offset(int32_t(k), w) + ";");
  }

  // One local per needed expression (of lane lane_ in 4-wide code).
  void locals(const Plan& p) {
    for (size_t e = 0; e < p.need.size(); ++e)
      if (p.need[e]) line("const " + std::string(ctype(k_.exprs[e].type)) + " " + var(ExprId(e)) + " = " +
                          value(ExprId(e)) + ";");
  }

  // Stores `v` (already of the operand's type) to the store's element, of lane lane_ in vector code.
  void store_line(const kir::Store& s, const std::string& v) {
    const DType t = k_.operands[size_t(s.operand)].dtype;
    const std::string at =
        "o" + std::to_string(s.operand) + lane_term(s.operand) + (s.offset >= 0 ? " + " + var(s.offset) : "");
    const std::string elem = "((" + std::string(mtype(t)) + "*)a.ptrs[" + std::to_string(s.operand) + "])[" + at + "]";
    if (s.accumulate) {
      line(atomic_add(t, elem, v) + ";");  // elements may meet at one address
    } else {
      line(elem + " = " + (t == DType::Bool ? "(kiln_u8)" + v : v) + ";");
    }
  }

  // atomicAdd has float, double, int and unsigned long long forms; int64
  // adds as unsigned (two's complement: the same bits).
  static std::string atomic_add(DType t, const std::string& elem, const std::string& v) {
    if (t == DType::Int64) return "atomicAdd((kiln_u64*)&" + elem + ", (kiln_u64)(" + v + "))";
    return "atomicAdd(&" + elem + ", " + v + ")";
  }

  std::string value(ExprId e) const {
    const kir::Expr& x = k_.exprs[size_t(e)];
    const DType t = x.type;
    const std::string a = x.a >= 0 ? var(x.a) : "", b = x.b >= 0 ? var(x.b) : "";
    const bool f = floating(t);
    switch (x.op) {
      case Op::Load: {
        if (lane_ >= 0 && vec_[size_t(x.slot)]) return "w" + std::to_string(x.slot) + "." + "xyzw"[lane_];
        const std::string m = "((const " + std::string(mtype(t)) + "*)a.ptrs[" + std::to_string(x.slot) + "])[o" +
                              std::to_string(x.slot) + lane_term(x.slot) + "]";
        return t == DType::Bool ? "(" + m + " != 0)" : m;
      }
      case Op::Gather: {
        const std::string m = "((const " + std::string(mtype(t)) + "*)a.ptrs[" + std::to_string(x.slot) + "])[o" +
                              std::to_string(x.slot) + lane_term(x.slot) + " + " + a + "]";
        return t == DType::Bool ? "(" + m + " != 0)" : m;
      }
      case Op::Index:
        if (x.slot < rank_ - 1) return "i" + std::to_string(x.slot);
        if (lane_ > 0) return "(i" + std::to_string(x.slot) + " + " + std::to_string(lane_) + ")";
        return where_ == Where::Pointwise ? "i" + std::to_string(x.slot) : where_ == Where::RowElement ? "e" : "0LL";
      case Op::Const: return constant(x.imm, t);
      case Op::Param: return cast("a.params[" + std::to_string(x.slot) + "]", DType::Float64, t);
      case Op::RowValue: return "rv" + std::to_string(x.slot);
      case Op::Cast: return cast(a, k_.exprs[size_t(x.a)].type, t);
      case Op::Add: return f ? a + " + " + b : "kiln_add(" + a + ", " + b + ")";
      case Op::Sub: return f ? a + " - " + b : "kiln_sub(" + a + ", " + b + ")";
      case Op::Mul: return f ? a + " * " + b : "kiln_mul(" + a + ", " + b + ")";
      case Op::Div: return a + " / " + b;
      case Op::Max: return "kiln_max(" + a + ", " + b + ")";
      case Op::Min: return "kiln_min(" + a + ", " + b + ")";
      case Op::Pow: return std::string(math_fn(x.op, t)) + "(" + a + ", " + b + ")";
      case Op::Neg: return f ? "-" + a : "kiln_neg(" + a + ")";
      case Op::Abs: return f ? std::string(math_fn(x.op, t)) + "(" + a + ")" : "kiln_abs(" + a + ")";
      case Op::Floor:
      case Op::Ceil:
      case Op::Trunc:
      case Op::Round: return f ? std::string(math_fn(x.op, t)) + "(" + a + ")" : a;  // integers are already whole
      case Op::Lt:
      case Op::Le:
      case Op::Gt:
      case Op::Ge:
      case Op::Eq:
      case Op::Ne: return a + compare_op(x.op) + b;
      case Op::And: return a + " && " + b;
      case Op::Or: return a + " || " + b;
      case Op::Not: return "!" + a;
      case Op::IsNan: return floating(k_.exprs[size_t(x.a)].type) ? "(" + a + " != " + a + ")" : "false";
      case Op::Select: return var(x.c) + " ? " + a + " : " + b;
      default: return std::string(math_fn(x.op, t)) + "(" + a + ")";  // Exp .. Cos
    }
  }

  std::vector<const kir::Store*> stores(bool per_row) const {
    std::vector<const kir::Store*> out;
    for (const kir::Store& s : k_.stores)
      if (s.per_row == per_row) out.push_back(&s);
    return out;
  }
  static std::vector<ExprId> roots(const std::vector<const kir::Store*>& ss) {
    std::vector<ExprId> r;
    for (const kir::Store* s : ss) {
      r.push_back(s->value);
      if (s->offset >= 0) r.push_back(s->offset);
    }
    return r;
  }

  void pointwise() {
    const auto ss = stores(false);
    const Plan p = plan(roots(ss), ss);
    line("const kiln_i64 step = (kiln_i64)gridDim.x * blockDim.x;");
    if (vectorize(p)) pointwise_vec4(p, ss);
    line("for (kiln_i64 i = a.begin + (kiln_i64)blockIdx.x * blockDim.x + threadIdx.x; i < a.end; i += step) {");
    ++indent_;
    unravel("i", rank_);
    line();
    pass(p, Where::Pointwise, ss);
    --indent_;
    line("}");
  }

  // ---- 128-bit loads and stores (pointwise kernels) ----
  // Operands read or written as float4/int4: contiguous 4-byte ones that no
  // gather or scatter addresses. False when there are none.
  bool vectorize(const Plan& p) {
    vec_.assign(k_.operands.size(), 0);
    for (size_t k = 0; k < k_.operands.size(); ++k) {
      const kir::Operand& o = k_.operands[k];
      vec_[k] = p.operand[k] && o.inner == kir::Inner::Contiguous &&
                (o.dtype == DType::Float32 || o.dtype == DType::Int32);
    }
    for (const kir::Expr& x : k_.exprs)
      if (x.op == Op::Gather) vec_[size_t(x.slot)] = 0;
    for (const kir::Store& s : k_.stores)
      if (s.offset >= 0 || s.accumulate) vec_[size_t(s.operand)] = 0;
    return std::find(vec_.begin(), vec_.end(), 1) != vec_.end();
  }

  // Four elements a thread when the row length is a multiple of 4 and every
  // vectorized operand's rows start 16-byte aligned (checked at run time,
  // the same in every thread); else the scalar loop below.
  void pointwise_vec4(const Plan& p, const std::vector<const kir::Store*>& ss) {
    std::string ok = "a.sizes[" + std::to_string(rank_ - 1) + "] % 4 == 0 && a.begin % 4 == 0 && a.end % 4 == 0";
    for (size_t k = 0; k < vec_.size(); ++k) {
      if (!vec_[k]) continue;
      ok += " &&\n    ((kiln_u64)a.ptrs[" + std::to_string(k) + "] & 15) == 0";
      for (int d = 0; d < rank_ - 1; ++d) ok += " && " + stride(int32_t(k), d) + " % 4 == 0";
    }
    line("const bool vec4 = " + ok + ";");
    line("if (vec4) {");
    ++indent_;
    line("for (kiln_i64 g = a.begin / 4 + (kiln_i64)blockIdx.x * blockDim.x + threadIdx.x; g < a.end / 4; g += step) {");
    ++indent_;
    unravel("g * 4", rank_);
    line();
    offsets(p, Where::Pointwise);
    for (size_t k = 0; k < vec_.size(); ++k)
      if (vec_[k] && !k_.operands[k].output)
        line("const " + vec_type(k) + " w" + std::to_string(k) + " = *(const " + vec_type(k) + "*)(((const " +
             mtype(k_.operands[k].dtype) + "*)a.ptrs[" + std::to_string(k) + "]) + o" + std::to_string(k) + ");");
    for (lane_ = 0; lane_ < 4; ++lane_) locals(p);
    for (const kir::Store* s : ss) vec4_store(*s);
    lane_ = -1;
    --indent_;
    line("}");
    line("return;");
    --indent_;
    line("}");
  }

  // A store of all four lanes: one 128-bit store, or four in lane order.
  void vec4_store(const kir::Store& s) {
    const DType t = k_.operands[size_t(s.operand)].dtype;
    const std::string k = std::to_string(s.operand);
    std::vector<std::string> v;
    for (lane_ = 0; lane_ < 4; ++lane_) v.push_back(cast(var(s.value), k_.exprs[size_t(s.value)].type, t));
    if (vec_[size_t(s.operand)]) {
      line("*(" + vec_type(size_t(s.operand)) + "*)(((" + mtype(t) + "*)a.ptrs[" + k + "]) + o" + k + ") = make_" +
           vec_type(size_t(s.operand)) + "(" + v[0] + ", " + v[1] + ", " + v[2] + ", " + v[3] + ");");
      return;
    }
    for (lane_ = 0; lane_ < 4; ++lane_) store_line(s, v[size_t(lane_)]);
  }

  std::string vec_type(size_t k) const { return k_.operands[k].dtype == DType::Float32 ? "float4" : "int4"; }

  // The element offset of lane lane_ from the thread's first element (empty: lane 0 or scalar code).
  std::string lane_term(int32_t k) const {
    if (lane_ <= 0) return "";
    switch (k_.operands[size_t(k)].inner) {
      case kir::Inner::Contiguous: return " + " + std::to_string(lane_);
      case kir::Inner::Broadcast: return "";
      case kir::Inner::Strided: return " + " + std::to_string(lane_) + " * " + stride(k, rank_ - 1);
    }
    return "";
  }

  std::string var(ExprId e) const {
    return "v" + std::to_string(e) + (lane_ >= 0 ? "_" + std::to_string(lane_) : "");
  }

  void rows() {
    const auto row_stores = stores(true), elem_stores = stores(false);
    const Plan row_plan = plan(roots(row_stores), row_stores), elem_plan = plan(roots(elem_stores), elem_stores);
    std::vector<Plan> red_plans;
    for (const kir::Reduction& r : k_.reductions) red_plans.push_back(plan({r.value}, {}));

    if (!k_.reductions.empty()) line("__shared__ kiln_i64 partial[32];  // one value per warp; 8 bytes hold any type");
    bool row_loads = false;
    for (size_t e = 0; e < k_.exprs.size(); ++e)
      row_loads = row_loads || (row_plan.need[e] && (k_.exprs[e].op == Op::Load || k_.exprs[e].op == Op::Gather));
    if (!k_.reductions.empty() || !elem_stores.empty() || row_loads)
      line("const kiln_i64 n = a.sizes[" + std::to_string(rank_ - 1) + "];");
    line("for (kiln_i64 r = a.begin + blockIdx.x; r < a.end; r += gridDim.x) {");
    ++indent_;
    unravel("r", rank_ - 1);
    // Row starts of the operands any pass touches.
    for (size_t k = 0; k < k_.operands.size(); ++k) {
      bool used = row_plan.operand[k] || elem_plan.operand[k];
      for (const Plan& p : red_plans) used = used || p.operand[k];
      if (used) line("const kiln_i64 b" + std::to_string(k) + " = " + plus(outer_offset(int32_t(k)), "") + ";");
    }
    for (size_t j = 0; j < k_.reductions.size(); ++j) reduction(j, red_plans[j]);
    if (!row_stores.empty()) {
      line();
      line("// per-row stores");
      // Values that load read the row's element 0, which an empty row lacks:
      // skip them there rather than read out of bounds.
      line(row_loads ? "if (threadIdx.x == 0 && n > 0) {" : "if (threadIdx.x == 0) {");
      ++indent_;
      pass(row_plan, Where::RowStart, row_stores);
      --indent_;
      line("}");
    }
    if (!elem_stores.empty()) {
      line();
      line("// element stores");
      line("for (kiln_i64 e = threadIdx.x; e < n; e += blockDim.x) {");
      ++indent_;
      pass(elem_plan, Where::RowElement, elem_stores);
      --indent_;
      line("}");
    }
    --indent_;
    line("}");
  }

  void reduction(size_t j, const Plan& p) {
    const kir::Reduction& red = k_.reductions[j];
    const DType t = k_.exprs[size_t(red.value)].type;
    const std::string T = ctype(t), acc = "acc" + std::to_string(j);
    const char* names[] = {"sum", "max", "min"};
    const char* fn = red.op == kir::ReduceOp::Sum ? "kiln_add" : red.op == kir::ReduceOp::Max ? "kiln_max" : "kiln_min";
    line();
    line("// reduction " + std::to_string(j) + ": " + names[int(red.op)] + " of %" + std::to_string(red.value));
    line(T + " " + acc + " = " + identity(red.op, t) + ";");
    line("for (kiln_i64 e = threadIdx.x; e < n; e += blockDim.x) {");
    ++indent_;
    pass(p, Where::RowElement, {});
    line(acc + " = " + fn + "(" + acc + ", " + var(red.value) + ");");
    --indent_;
    line("}");
    line("const " + T + " rv" + std::to_string(j) + " = kiln_block_reduce(" + acc + ", kiln_" + names[int(red.op)] +
         "_op(), (" + T + "*)partial);");
  }

  // The reduction's value over an empty row; NaN still wins against it.
  static std::string identity(kir::ReduceOp op, DType t) {
    if (op == kir::ReduceOp::Sum) return constant(0, t);
    const bool max = op == kir::ReduceOp::Max;
    if (floating(t)) return float_literal(max ? -INFINITY : INFINITY, t);
    if (t == DType::Bool) return max ? "false" : "true";
    if (t == DType::Int32) return int_literal(max ? INT32_MIN : INT32_MAX, t);
    return int_literal(max ? INT64_MIN : INT64_MAX, t);
  }

  const kir::Kernel& k_;
  const std::string name_;  // for comments
  const std::string entry_;
  const int threads_;
  const int rank_;
  std::string out_;
  int indent_ = 0;
  Where where_ = Where::Pointwise;  // of the pass being written: where Index reads the last dim
  int lane_ = -1;                   // in 4-wide code: the lane being written (0-3); -1: scalar code
  std::vector<char> vec_;           // per operand: loaded or stored 128 bits at a time
};

bool word_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

bool identifier(const std::string& s) {
  return !s.empty() && !(s[0] >= '0' && s[0] <= '9') && std::all_of(s.begin(), s.end(), word_char);
}

// Whether the prelude declares `name` (an entry of that name would clash).
bool in_prelude(const std::string& name) {
  const std::string_view p = kPrelude;
  for (size_t at = p.find(name); at != std::string_view::npos; at = p.find(name, at + 1)) {
    const size_t end = at + name.size();
    if ((at == 0 || !word_char(p[at - 1])) && (end == p.size() || !word_char(p[end]))) return true;
  }
  return false;
}

}  // namespace

CudaKernelSource emit_cuda(const kir::Kernel& k, const std::string& entry) {
  KILN_CHECK(identifier(entry), Runtime, "CUDA entry name '", entry, "' is not a C identifier");
  KILN_CHECK(!in_prelude(entry), Runtime, "CUDA entry name '", entry, "' is taken by the generated code's prelude");
  kir::check_kernel(k);  // the contract both code generators share
  CudaKernelSource src;
  src.entry = entry;
  src.code = Emitter(k, entry, src.block_threads).run();
  return src;
}

int64_t cuda_arg_words(const kir::Kernel& k) {
  const int64_t n = int64_t(k.operands.size());
  return n + k.rank + n * k.rank + std::max<int64_t>(k.num_params, 1) + 2;
}

}  // namespace kiln::gpu
