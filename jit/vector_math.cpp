#include "jit/vector_math.h"

#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/Module.h>

#include <string>
#include <vector>

#include "core/error.h"

namespace kiln::jit {

bool is_math_call(kir::Op op) {
  using kir::Op;
  switch (op) {
    case Op::Exp:
    case Op::Log:
    case Op::Log1p:
    case Op::Tanh:
    case Op::Erf:
    case Op::Sin:
    case Op::Cos:
    case Op::Pow: return true;
    default: return false;
  }
}

namespace {

const char* libm_name(kir::Op op) {
  using kir::Op;
  switch (op) {
    case Op::Exp: return "exp";
    case Op::Log: return "log";
    case Op::Log1p: return "log1p";
    case Op::Tanh: return "tanh";
    case Op::Erf: return "erf";
    case Op::Sin: return "sin";
    case Op::Cos: return "cos";
    case Op::Pow: return "pow";
    default: break;
  }
  throw Error(std::string("vector math: no function for ") + kir::op_name(op));
}

// Pure functions to LLVM, so invariant calls are hoisted and dead ones
// dropped. libm's may set errno, which no kernel reads.
llvm::FunctionCallee declare(llvm::Module& m, const std::string& name, llvm::Type* type, int args) {
  std::vector<llvm::Type*> params(size_t(args), type);
  llvm::FunctionCallee callee = m.getOrInsertFunction(name, llvm::FunctionType::get(type, params, false));
  if (auto* f = llvm::dyn_cast<llvm::Function>(callee.getCallee())) {
    f->setDoesNotThrow();
    f->setDoesNotAccessMemory();
    f->addFnAttr(llvm::Attribute::WillReturn);
    f->addFnAttr(llvm::Attribute::NoSync);
  }
  return callee;
}

llvm::Value* call(llvm::IRBuilder<>& b, const std::string& name, llvm::Value* x, llvm::Value* y) {
  llvm::Module& m = *b.GetInsertBlock()->getModule();
  llvm::FunctionCallee f = declare(m, name, x->getType(), y ? 2 : 1);
  llvm::CallInst* c = y ? b.CreateCall(f, {x, y}) : b.CreateCall(f, {x});
  c->setDoesNotThrow();
  c->setDoesNotAccessMemory();
  return c;
}

llvm::Value* lanes(llvm::IRBuilder<>& b, llvm::Value* v, int from, int n) {
  std::vector<int> mask(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) mask[size_t(i)] = from + i;
  return b.CreateShuffleVector(v, mask);
}

}  // namespace

llvm::Value* emit_math_call(llvm::IRBuilder<>& b, kir::Op op, llvm::Value* x, llvm::Value* y, const CodegenTarget& t) {
  llvm::Type* type = x->getType();
  const bool f32 = type->getScalarType()->isFloatTy();
  if (op == kir::Op::Erf && f32) return emit_erf_f32(b, x);  // vector loop and scalar tail alike
  if (op == kir::Op::Exp && f32) return emit_exp_f32(b, x, t.avx512);
  if (op == kir::Op::Tanh && f32) return emit_tanh_f32(b, x);
  const std::string base = std::string(libm_name(op)) + (f32 ? "f" : "");
  auto* vt = llvm::dyn_cast<llvm::FixedVectorType>(type);
  if (!vt) return call(b, base, x, y);

  const int n = int(vt->getNumElements());
  const int bits = n * (f32 ? 32 : 64);
  if (bits > t.vector_bits) {  // wider than the host's registers: two halves
    const int h = n / 2;
    llvm::Value* lo = emit_math_call(b, op, lanes(b, x, 0, h), y ? lanes(b, y, 0, h) : nullptr, t);
    llvm::Value* hi = emit_math_call(b, op, lanes(b, x, h, h), y ? lanes(b, y, h, h) : nullptr, t);
    std::vector<int> concat(static_cast<size_t>(n));
    for (int i = 0; i < n; ++i) concat[size_t(i)] = i;
    return b.CreateShuffleVector(lo, hi, concat);
  }
  if (bits < 128) {  // narrower than any variant: lane by lane through libm
    llvm::Value* out = llvm::PoisonValue::get(type);
    for (int i = 0; i < n; ++i) {
      llvm::Value* xi = b.CreateExtractElement(x, uint64_t(i));
      llvm::Value* yi = y ? b.CreateExtractElement(y, uint64_t(i)) : nullptr;
      out = b.CreateInsertElement(out, call(b, base, xi, yi), uint64_t(i));
    }
    return out;
  }
  const char isa = bits == 512 ? 'e' : bits == 256 ? (t.avx2 ? 'd' : 'c') : 'b';
  const std::string name = std::string("_ZGV") + isa + "N" + std::to_string(n) + (y ? "vv_" : "v_") + base;
  return call(b, name, x, y);
}

namespace vmath {

llvm::Value* constant(llvm::Type* type, float v) { return llvm::ConstantFP::get(type, double(v)); }

llvm::Value* fma(llvm::IRBuilder<>& b, llvm::Value* a, llvm::Value* m, llvm::Value* c) {
  return b.CreateIntrinsic(llvm::Intrinsic::fma, {a->getType()}, {a, m, c});
}

llvm::Value* horner(llvm::IRBuilder<>& b, llvm::Value* v, std::span<const float> coeffs) {
  llvm::Type* type = v->getType();
  llvm::Value* p = constant(type, coeffs[0]);
  for (size_t i = 1; i < coeffs.size(); ++i) p = fma(b, p, v, constant(type, coeffs[i]));
  return p;
}

}  // namespace vmath

}  // namespace kiln::jit
