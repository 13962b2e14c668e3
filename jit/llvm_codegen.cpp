// Kernel IR to LLVM IR with the KernelFn ABI (core/kernel_ir.h). The inner
// dim is vectorized here, in explicit vectors of the host's width with a
// scalar tail, rather than left to LLVM's loop vectorizer: its cost model
// would have to price libmvec calls and gathers it does not know, and
// "check the generated code really vectorizes" becomes true by construction.
//
// Shape of a Pointwise kernel: [begin, end) is cut into row segments (pieces
// of the last dim); per segment each operand's address is computed once from
// the outer indices, then a vector loop and a scalar tail run over it. A Row
// kernel runs, per row, each reduction as a vector loop (four accumulators)
// with a scalar tail, the per-row stores, then the element stores.
//
// Expressions that do not vary along the last dim (constants, params, row
// values, broadcast loads, outer dims' indices and anything built only from
// them) are computed once per segment or row, as scalars, before the loop
// that first needs them. So a gather whose offset is fixed along the row (an
// embedding lookup) is a plain vector load from a moved segment; only one
// whose offset varies per element becomes a masked gather.
//
// A Row kernel's element expression that calls a math function and is needed
// both by a reduction and by the element stores (softmax's exp(x - max)) is
// computed once: the reduction's loop writes it to a per-thread row buffer
// (kiln_row_scratch, jit/row_scratch.h) and later loops read it back from L1,
// which is cheaper than a second vector exp.
//
// A kernel that writes more than the cache holds (kir::Kernel::streams, and
// CodegenTarget::stream_bytes checked at run time against its sizes) stores
// its element vectors non-temporally wherever a segment's contiguous outputs
// start on a vector boundary: an ordinary store first reads the line it
// fills, a third of the traffic of a copy-like kernel, and evicts the inputs
// a next call could have found in the cache (softmax over [4096, 1024] on a
// 32 MiB L3: 1.3-1.8 ms with ordinary stores, 1.0-1.2 ms with these). An
// sfence before the kernel returns orders them before the launcher's barrier.
#include "jit/llvm_codegen.h"

#include <llvm/IR/Function.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/IntrinsicsX86.h>
#include <llvm/IR/Module.h>

#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "core/error.h"
#include "jit/vector_math.h"

namespace kiln::jit {
namespace {

using kir::ExprId;
using kir::Op;
using llvm::Value;

bool floating(DType t) { return t == DType::Float32 || t == DType::Float64; }

// One evaluation of the element expressions: elements j .. j+w-1 of the
// current row segment (w == 1: scalars).
struct Lanes {
  int w = 1;
  Value* j = nullptr;
  std::vector<Value*> memo;
};

class Emitter {
 public:
  Emitter(const kir::Kernel& k, const CodegenTarget& t, llvm::Module& m)
      : k_(k), t_(t), m_(m), c_(m.getContext()), b_(c_) {}

  llvm::Function* run(const std::string& symbol);

 private:
  using Body = std::function<std::vector<Value*>(Value* i, const std::vector<Value*>& carried)>;

  llvm::Type* scalar(DType t) const {
    switch (t) {
      case DType::Bool: return b_.getInt1Ty();
      case DType::Int32: return b_.getInt32Ty();
      case DType::Int64: return b_.getInt64Ty();
      case DType::Float32: return b_.getFloatTy();
      case DType::Float64: return b_.getDoubleTy();
      default: break;
    }
    throw Error("LLVM backend: dtype " + std::string(dtype_name(t)) + " is not lowered");
  }
  llvm::Type* memory(DType t) const { return t == DType::Bool ? b_.getInt8Ty() : scalar(t); }
  static llvm::Type* vec(llvm::Type* s, int w) { return w == 1 ? s : llvm::FixedVectorType::get(s, unsigned(w)); }
  Value* i64(int64_t v) { return b_.getInt64(uint64_t(v)); }
  Value* splat(Value* v, int w) { return w == 1 ? v : b_.CreateVectorSplat(unsigned(w), v); }
  DType type(ExprId e) const { return k_.exprs[size_t(e)].type; }
  Lanes lanes(int w, Value* j) const { return {w, j, std::vector<Value*>(k_.exprs.size(), nullptr)}; }
  // Lanes of a loop that runs after reduction `after`: expressions the row
  // buffer holds by then are loaded, not recomputed.
  Lanes row_lanes(int w, Value* j, int32_t after) {
    Lanes l = lanes(w, j);
    for (size_t e = 0; e < scratch_.size(); ++e) {
      if (!scratch_[e] || cached_at_[e] >= after) continue;
      llvm::Type* t = vec(scalar(type(ExprId(e))), w);
      const llvm::Align align(dtype_size(type(ExprId(e))));
      l.memo[e] = b_.CreateAlignedLoad(t, b_.CreateInBoundsGEP(scalar(type(ExprId(e))), scratch_[e], j), align);
    }
    return l;
  }
  // In reduction r's loop: writes the expressions it computes first to the row buffer.
  void spill(int32_t r, const Lanes& l) {
    for (size_t e = 0; e < scratch_.size(); ++e)
      if (scratch_[e] && cached_at_[e] == r) {
        const llvm::Align align(dtype_size(type(ExprId(e))));
        b_.CreateAlignedStore(l.memo[e], b_.CreateInBoundsGEP(scalar(type(ExprId(e))), scratch_[e], l.j), align);
      }
  }

  // ---- expressions ----
  Value* eval(ExprId e, Lanes& l) {
    if (Value* v = l.memo[size_t(e)]) return v;
    const kir::Expr& x = k_.exprs[size_t(e)];
    Value* v;
    if (!varies_[size_t(e)]) {
      v = splat(invariant(e), l.w);
    } else if (x.op == Op::Load) {
      v = load(x.slot, l);
    } else if (x.op == Op::Gather) {
      v = gather(x, l);
    } else if (x.op == Op::Index) {
      v = index(l);
    } else {
      v = apply(x, l.w, [&](ExprId o) { return eval(o, l); });
    }
    l.memo[size_t(e)] = v;
    return v;
  }

  Value* invariant(ExprId e) {
    if (Value* v = row_[size_t(e)]) return v;
    llvm::IRBuilderBase::InsertPointGuard keep(b_);
    if (hoist_) b_.SetInsertPoint(hoist_);
    const kir::Expr& x = k_.exprs[size_t(e)];
    Value* v;
    switch (x.op) {
      case Op::Load: {
        Lanes first = lanes(1, i64(0));
        v = load(x.slot, first);
        break;
      }
      case Op::Gather: {
        Lanes first = lanes(1, i64(0));
        v = load_from(x.slot, b_.CreateInBoundsGEP(memory(k_.operands[size_t(x.slot)].dtype), seg_[size_t(x.slot)],
                                                   invariant(x.a)),
                      first);
        break;
      }
      case Op::Index: v = outer_[size_t(x.slot)]; break;  // an outer dim: the last one varies
      case Op::Const: v = constant(x.imm, x.type); break;
      case Op::Param: v = cast(param_[size_t(x.slot)], DType::Float64, x.type, 1); break;
      case Op::RowValue: v = reduced_[size_t(x.slot)]; break;
      default: v = apply(x, 1, [&](ExprId o) { return invariant(o); }); break;
    }
    row_[size_t(e)] = v;
    return v;
  }

  Value* apply(const kir::Expr& x, int w, const std::function<Value*(ExprId)>& get) {
    const DType t = x.type;
    Value* a = x.a >= 0 ? get(x.a) : nullptr;
    Value* b = x.b >= 0 ? get(x.b) : nullptr;
    Value* c = x.c >= 0 ? get(x.c) : nullptr;
    const bool fp = floating(t);
    switch (x.op) {
      case Op::Cast: return cast(a, type(x.a), t, w);
      case Op::Add: return fp ? b_.CreateFAdd(a, b) : b_.CreateAdd(a, b);
      case Op::Sub: return fp ? b_.CreateFSub(a, b) : b_.CreateSub(a, b);
      case Op::Mul: return fp ? b_.CreateFMul(a, b) : b_.CreateMul(a, b);
      case Op::Div: return b_.CreateFDiv(a, b);
      case Op::Max: return max_min(true, t, a, b);
      case Op::Min: return max_min(false, t, a, b);
      case Op::Neg: return fp ? b_.CreateFNeg(a) : b_.CreateNeg(a);
      case Op::Abs:
        return fp ? b_.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, a)
                  : b_.CreateIntrinsic(llvm::Intrinsic::abs, {a->getType()}, {a, b_.getFalse()});
      case Op::Floor: return fp ? b_.CreateUnaryIntrinsic(llvm::Intrinsic::floor, a) : a;
      case Op::Ceil: return fp ? b_.CreateUnaryIntrinsic(llvm::Intrinsic::ceil, a) : a;
      case Op::Trunc: return fp ? b_.CreateUnaryIntrinsic(llvm::Intrinsic::trunc, a) : a;
      case Op::Round: return fp ? b_.CreateUnaryIntrinsic(llvm::Intrinsic::roundeven, a) : a;
      case Op::Sqrt: return b_.CreateUnaryIntrinsic(llvm::Intrinsic::sqrt, a);
      // A true division: no fast-math flag lets LLVM use the 12-bit rsqrtps estimate.
      case Op::Rsqrt:
        return b_.CreateFDiv(llvm::ConstantFP::get(a->getType(), 1.0),
                             b_.CreateUnaryIntrinsic(llvm::Intrinsic::sqrt, a));
      case Op::Exp:
      case Op::Log:
      case Op::Log1p:
      case Op::Tanh:
      case Op::Erf:
      case Op::Sin:
      case Op::Cos:
      case Op::Pow: return emit_math_call(b_, x.op, a, b, t_);
      case Op::Lt:
      case Op::Le:
      case Op::Gt:
      case Op::Ge:
      case Op::Eq:
      case Op::Ne: return compare(x.op, type(x.a), a, b);
      case Op::And: return b_.CreateAnd(a, b);
      case Op::Or: return b_.CreateOr(a, b);
      case Op::Not: return b_.CreateNot(a);
      case Op::IsNan:
        return floating(type(x.a)) ? b_.CreateFCmpUNO(a, a) : llvm::ConstantInt::getFalse(vec(b_.getInt1Ty(), w));
      case Op::Select: return b_.CreateSelect(c, a, b);
      case Op::Load:
      case Op::Gather:
      case Op::Index:
      case Op::Const:
      case Op::Param:
      case Op::RowValue: break;
    }
    throw Error(std::string("LLVM backend: cannot apply ") + kir::op_name(x.op));
  }

  // NaN-propagating, like torch.maximum: vmaxps/vminps (ordered compare and
  // select) with the unordered lanes patched to a + b, which is NaN. Three
  // instructions, against six for llvm.maximum on x86.
  Value* max_min(bool max, DType t, Value* a, Value* b) {
    if (floating(t)) {
      Value* pick = b_.CreateSelect(max ? b_.CreateFCmpOGT(a, b) : b_.CreateFCmpOLT(a, b), a, b);
      return b_.CreateSelect(b_.CreateFCmpUNO(a, b), b_.CreateFAdd(a, b), pick);
    }
    if (t == DType::Bool) return max ? b_.CreateOr(a, b) : b_.CreateAnd(a, b);
    return b_.CreateBinaryIntrinsic(max ? llvm::Intrinsic::smax : llvm::Intrinsic::smin, a, b);
  }

  Value* compare(Op op, DType t, Value* a, Value* b) {
    using P = llvm::CmpInst::Predicate;
    const int i = int(op) - int(Op::Lt);  // Lt Le Gt Ge Eq Ne
    static const P fp[] = {P::FCMP_OLT, P::FCMP_OLE, P::FCMP_OGT, P::FCMP_OGE, P::FCMP_OEQ, P::FCMP_UNE};
    static const P si[] = {P::ICMP_SLT, P::ICMP_SLE, P::ICMP_SGT, P::ICMP_SGE, P::ICMP_EQ, P::ICMP_NE};
    static const P un[] = {P::ICMP_ULT, P::ICMP_ULE, P::ICMP_UGT, P::ICMP_UGE, P::ICMP_EQ, P::ICMP_NE};
    if (floating(t)) return b_.CreateFCmp(fp[i], a, b);
    return b_.CreateICmp(t == DType::Bool ? un[i] : si[i], a, b);
  }

  // float->int truncates (fptosi; frozen, since an out-of-range value is
  // poison in LLVM and the store must not make the rest undefined), ->bool is
  // != 0 (NaN is true), bool->number is 0/1.
  Value* cast(Value* v, DType from, DType to, int w) {
    if (from == to) return v;
    llvm::Type* dst = vec(scalar(to), w);
    if (to == DType::Bool) {
      return floating(from) ? b_.CreateFCmpUNE(v, llvm::Constant::getNullValue(v->getType()))
                            : b_.CreateICmpNE(v, llvm::Constant::getNullValue(v->getType()));
    }
    if (from == DType::Bool) return floating(to) ? b_.CreateUIToFP(v, dst) : b_.CreateZExt(v, dst);
    if (floating(from) && floating(to)) return b_.CreateFPCast(v, dst);
    if (floating(from)) return b_.CreateFreeze(b_.CreateFPToSI(v, dst));
    if (floating(to)) return b_.CreateSIToFP(v, dst);
    return b_.CreateSExtOrTrunc(v, dst);
  }

  Value* constant(double v, DType t) {
    switch (t) {
      case DType::Bool: return b_.getInt1(v != 0);
      case DType::Int32:
      case DType::Int64: return llvm::ConstantInt::get(scalar(t), uint64_t(int64_t(v)), true);
      default: return llvm::ConstantFP::get(scalar(t), v);
    }
  }

  // ---- memory ----
  Value* load(int32_t k, const Lanes& l) { return load_from(k, seg_[size_t(k)], l); }

  // Operand k's elements at lanes l of a segment that starts at `base`.
  Value* load_from(int32_t k, Value* base, const Lanes& l) {
    const kir::Operand& o = k_.operands[size_t(k)];
    llvm::Type* mt = memory(o.dtype);
    const llvm::Align align(dtype_size(o.dtype));
    Value* v;
    if (o.inner == kir::Inner::Broadcast) {
      v = b_.CreateAlignedLoad(mt, base, align);
    } else if (o.inner == kir::Inner::Contiguous) {
      v = b_.CreateAlignedLoad(vec(mt, l.w), b_.CreateInBoundsGEP(mt, base, l.j), align);
    } else {
      Value* s = stride_[size_t(k)][size_t(k_.rank - 1)];
      if (l.w == 1) {
        v = b_.CreateAlignedLoad(mt, b_.CreateInBoundsGEP(mt, base, b_.CreateMul(l.j, s)), align);
      } else {
        Value* idx =
            b_.CreateMul(b_.CreateAdd(splat(l.j, l.w), b_.CreateStepVector(vec(b_.getInt64Ty(), l.w))), splat(s, l.w));
        v = b_.CreateMaskedGather(vec(mt, l.w), b_.CreateInBoundsGEP(mt, base, idx), align);
      }
    }
    if (o.dtype == DType::Bool) v = b_.CreateICmpNE(v, llvm::Constant::getNullValue(v->getType()));
    return v;
  }

  // A gather whose offset is the same for the whole segment (an embedding
  // row) is a plain load from a moved segment; one that varies along it
  // loads each lane's own element.
  Value* gather(const kir::Expr& x, Lanes& l) {
    const int32_t k = x.slot;
    const kir::Operand& o = k_.operands[size_t(k)];
    llvm::Type* mt = memory(o.dtype);
    if (!varies_[size_t(x.a)]) return load_from(k, b_.CreateInBoundsGEP(mt, seg_[size_t(k)], invariant(x.a)), l);
    Value* at = eval(x.a, l);
    if (o.inner != kir::Inner::Broadcast) {
      Value* j = l.w == 1 ? l.j : b_.CreateAdd(splat(l.j, l.w), b_.CreateStepVector(vec(b_.getInt64Ty(), l.w)));
      if (o.inner == kir::Inner::Strided) j = b_.CreateMul(j, splat(stride_[size_t(k)][size_t(k_.rank - 1)], l.w));
      at = b_.CreateAdd(at, j);
    }
    const llvm::Align align(dtype_size(o.dtype));
    Value* ptrs = b_.CreateInBoundsGEP(mt, seg_[size_t(k)], at);
    Value* v = l.w == 1 ? static_cast<Value*>(b_.CreateAlignedLoad(mt, ptrs, align))
                        : b_.CreateMaskedGather(vec(mt, l.w), ptrs, align);
    if (o.dtype == DType::Bool) v = b_.CreateICmpNE(v, llvm::Constant::getNullValue(v->getType()));
    return v;
  }

  // The last dim's index at lanes l (the outer dims' are invariants).
  Value* index(const Lanes& l) {
    Value* j = j0_ ? b_.CreateAdd(j0_, l.j) : l.j;
    if (l.w == 1) return j;
    return b_.CreateAdd(splat(j, l.w), b_.CreateStepVector(vec(b_.getInt64Ty(), l.w)));
  }

  void store(int32_t k, Value* v, DType from, const Lanes& l, bool per_row) {
    const kir::Operand& o = k_.operands[size_t(k)];
    llvm::Type* mt = memory(o.dtype);
    const llvm::Align align(dtype_size(o.dtype));
    v = cast(v, from, o.dtype, l.w);
    if (o.dtype == DType::Bool) v = b_.CreateZExt(v, vec(mt, l.w));
    Value* base = seg_[size_t(k)];
    if (per_row) {
      b_.CreateAlignedStore(v, base, align);
    } else if (o.inner == kir::Inner::Contiguous && nontemporal_ && l.w > 1) {
      // Aligned: the segment starts on a vector boundary and l.j steps by w.
      llvm::StoreInst* st = b_.CreateAlignedStore(v, b_.CreateInBoundsGEP(mt, base, l.j),
                                                  llvm::Align(uint64_t(l.w) * dtype_size(o.dtype)));
      st->setMetadata(llvm::LLVMContext::MD_nontemporal,
                      llvm::MDNode::get(c_, {llvm::ConstantAsMetadata::get(b_.getInt32(1))}));
    } else if (o.inner == kir::Inner::Contiguous) {
      b_.CreateAlignedStore(v, b_.CreateInBoundsGEP(mt, base, l.j), align);
    } else {
      Value* s = stride_[size_t(k)][size_t(k_.rank - 1)];
      for (int i = 0; i < l.w; ++i) {
        Value* e = l.w == 1 ? v : b_.CreateExtractElement(v, uint64_t(i));
        Value* at = b_.CreateMul(i ? b_.CreateAdd(l.j, i64(i)) : l.j, s);
        b_.CreateAlignedStore(e, b_.CreateInBoundsGEP(mt, base, at), align);
      }
    }
  }

  // Every operand's address of element (outer..., j0): the start of a row
  // segment. j0 == nullptr: the row's start (also where per-row stores go,
  // whatever the operand's last-dim stride).
  void segment(const std::vector<Value*>& outer, Value* j0) {
    outer_ = outer;
    j0_ = j0;
    for (size_t k = 0; k < k_.operands.size(); ++k) {
      const kir::Operand& o = k_.operands[k];
      Value* off = nullptr;
      for (size_t d = 0; d < outer.size(); ++d) {
        Value* term = b_.CreateMul(outer[d], stride_[k][d]);
        off = off ? b_.CreateAdd(off, term) : term;
      }
      if (j0 && o.inner != kir::Inner::Broadcast) {
        Value* term = o.inner == kir::Inner::Contiguous ? j0 : b_.CreateMul(j0, stride_[k][size_t(k_.rank - 1)]);
        off = off ? b_.CreateAdd(off, term) : term;
      }
      seg_[k] = off ? b_.CreateInBoundsGEP(memory(o.dtype), ptr_[k], off) : ptr_[k];
    }
  }

  // ---- loops ----
  // for (i = from; i < to; i += step) carried = body(i, carried); returns the
  // final carried values. hoist: invariants the body needs go before the
  // loop (false for the row loop, whose body is where they belong).
  std::vector<Value*> loop(Value* from, Value* to, int64_t step, const std::vector<Value*>& init, bool hoist,
                           const Body& body) {
    llvm::BasicBlock* pre = b_.GetInsertBlock();
    llvm::BasicBlock* head = llvm::BasicBlock::Create(c_, "loop", fn_);
    llvm::BasicBlock* exit = llvm::BasicBlock::Create(c_, "after", fn_);
    llvm::Instruction* guard = b_.CreateCondBr(b_.CreateICmpSLT(from, to), head, exit);
    b_.SetInsertPoint(head);
    llvm::PHINode* i = b_.CreatePHI(b_.getInt64Ty(), 2, "i");
    i->addIncoming(from, pre);
    std::vector<llvm::PHINode*> phis;
    std::vector<Value*> carried;
    for (Value* v : init) {
      phis.push_back(b_.CreatePHI(v->getType(), 2));
      phis.back()->addIncoming(v, pre);
      carried.push_back(phis.back());
    }
    llvm::Instruction* outer_hoist = hoist_;
    hoist_ = hoist ? guard : nullptr;
    std::vector<Value*> out = body(i, carried);
    hoist_ = outer_hoist;
    llvm::BasicBlock* latch = b_.GetInsertBlock();
    Value* next = b_.CreateAdd(i, i64(step));
    b_.CreateCondBr(b_.CreateICmpSLT(next, to), head, exit);
    i->addIncoming(next, latch);
    for (size_t n = 0; n < phis.size(); ++n) phis[n]->addIncoming(out[n], latch);
    b_.SetInsertPoint(exit);
    std::vector<Value*> result;
    for (size_t n = 0; n < init.size(); ++n) {
      llvm::PHINode* p = b_.CreatePHI(init[n]->getType(), 2);
      p->addIncoming(init[n], pre);
      p->addIncoming(out[n], latch);
      result.push_back(p);
    }
    return result;
  }

  // The stores (per_row or not) at lanes l; values first, so a store into an
  // operand that is also read (in place) cannot change what the others load.
  void stores(Lanes& l, bool per_row) {
    std::vector<Value*> values, offsets;
    for (const kir::Store& s : k_.stores) {
      const bool here = s.per_row == per_row;
      values.push_back(here ? eval(s.value, l) : nullptr);
      offsets.push_back(here && s.offset >= 0 ? eval(s.offset, l) : nullptr);
    }
    for (size_t n = 0; n < k_.stores.size(); ++n) {
      const kir::Store& s = k_.stores[n];
      if (!values[n]) continue;
      if (s.offset >= 0 || s.accumulate) {
        scatter(s, values[n], offsets[n], l);
      } else {
        store(s.operand, values[n], type(s.value), l, per_row);
      }
    }
  }

  // A scattering store, lane by lane in index order: lanes may meet at one
  // address (the launcher runs the kernel serially, so no atomics).
  void scatter(const kir::Store& s, Value* v, Value* offset, const Lanes& l) {
    const kir::Operand& o = k_.operands[size_t(s.operand)];
    llvm::Type* mt = memory(o.dtype);
    const llvm::Align align(dtype_size(o.dtype));
    v = cast(v, type(s.value), o.dtype, l.w);
    if (o.dtype == DType::Bool) v = b_.CreateZExt(v, vec(mt, l.w));
    for (int i = 0; i < l.w; ++i) {
      Value* j = i ? b_.CreateAdd(l.j, i64(i)) : l.j;
      Value* at = o.inner == kir::Inner::Broadcast ? i64(0)
                  : o.inner == kir::Inner::Contiguous
                      ? j
                      : b_.CreateMul(j, stride_[size_t(s.operand)][size_t(k_.rank - 1)]);
      if (offset) at = b_.CreateAdd(at, l.w == 1 ? offset : b_.CreateExtractElement(offset, uint64_t(i)));
      Value* ptr = b_.CreateInBoundsGEP(mt, seg_[size_t(s.operand)], at);
      Value* e = l.w == 1 ? v : b_.CreateExtractElement(v, uint64_t(i));
      if (s.accumulate) {
        Value* old = b_.CreateAlignedLoad(mt, ptr, align);
        e = floating(o.dtype) ? b_.CreateFAdd(old, e) : b_.CreateAdd(old, e);
      }
      b_.CreateAlignedStore(e, ptr, align);
    }
  }

  // The element stores over elements [0, len) of the current segment.
  void elements(Value* len) {
    bool any = false;
    for (const kir::Store& s : k_.stores) any = any || !s.per_row;
    if (!any) return;
    Value* nv = b_.CreateAnd(len, i64(-w_));
    const int32_t after = int32_t(k_.reductions.size());
    auto vectors = [&] {
      loop(i64(0), nv, w_, {}, true, [&](Value* i, const std::vector<Value*>&) {
        Lanes l = row_lanes(w_, i, after);
        stores(l, false);
        return std::vector<Value*>{};
      });
    };
    if (stream_) {
      streaming_or_not(vectors);
    } else {
      vectors();
    }
    loop(nv, len, 1, {}, true, [&](Value* i, const std::vector<Value*>&) {
      Lanes l = row_lanes(1, i, after);
      stores(l, false);
      return std::vector<Value*>{};
    });
  }

  // Whether this kernel may stream: it has contiguous element stores and the
  // bytes they write in all reach the target's threshold (null: it never does).
  Value* streams() {
    const int64_t bytes_per_element = k_.streamable_bytes_per_element();
    if (!k_.streams || t_.stream_bytes <= 0 || bytes_per_element == 0) return nullptr;
    Value* n = i64(bytes_per_element);
    for (Value* size : size_) n = b_.CreateMul(n, size);
    return b_.CreateICmpSGE(n, i64(t_.stream_bytes));
  }

  // `vectors` emitted twice: with non-temporal stores where the kernel streams
  // and every streamed store of this segment starts on a vector boundary (an
  // aligned non-temporal store is one instruction; LLVM splits an unaligned
  // one into 8-byte pieces), else with ordinary stores. Invariants hoisted in
  // one copy do not dominate the other: each recomputes its own.
  void streaming_or_not(const std::function<void()>& vectors) {
    Value* ok = stream_;
    for (const kir::Store& s : k_.stores) {
      if (!k_.streamable(s)) continue;
      const int64_t bytes = int64_t(w_) * int64_t(dtype_size(k_.operands[size_t(s.operand)].dtype));
      Value* low = b_.CreateAnd(b_.CreatePtrToInt(seg_[size_t(s.operand)], b_.getInt64Ty()), i64(bytes - 1));
      ok = b_.CreateAnd(ok, b_.CreateICmpEQ(low, i64(0)));
    }
    llvm::BasicBlock* nt = llvm::BasicBlock::Create(c_, "streaming", fn_);
    llvm::BasicBlock* plain = llvm::BasicBlock::Create(c_, "cached", fn_);
    llvm::BasicBlock* join = llvm::BasicBlock::Create(c_, "stored", fn_);
    b_.CreateCondBr(ok, nt, plain);
    const std::vector<Value*> invariants = row_;
    b_.SetInsertPoint(nt);
    nontemporal_ = true;
    vectors();
    nontemporal_ = false;
    b_.CreateBr(join);
    row_ = invariants;
    b_.SetInsertPoint(plain);
    vectors();
    b_.CreateBr(join);
    row_ = invariants;
    b_.SetInsertPoint(join);
  }

  Value* identity(kir::ReduceOp op, DType t, int w) {
    Value* v;
    if (op == kir::ReduceOp::Sum) {
      v = llvm::Constant::getNullValue(scalar(t));
    } else if (floating(t)) {
      v = llvm::ConstantFP::getInfinity(scalar(t), op == kir::ReduceOp::Max);
    } else if (t == DType::Bool) {
      v = b_.getInt1(op == kir::ReduceOp::Min);
    } else {
      const unsigned bits = scalar(t)->getIntegerBitWidth();
      v = b_.getInt(op == kir::ReduceOp::Max ? llvm::APInt::getSignedMinValue(bits)
                                             : llvm::APInt::getSignedMaxValue(bits));
    }
    return splat(v, w);
  }

  Value* combine(kir::ReduceOp op, DType t, Value* acc, Value* x) {
    if (op == kir::ReduceOp::Sum) return floating(t) ? b_.CreateFAdd(acc, x) : b_.CreateAdd(acc, x);
    return max_min(op == kir::ReduceOp::Max, t, acc, x);
  }

  Value* horizontal(kir::ReduceOp op, DType t, Value* v, int w) {
    for (; w > 1; w /= 2) {
      std::vector<int> lo(size_t(w / 2)), hi(size_t(w / 2));
      for (int i = 0; i < w / 2; ++i) lo[size_t(i)] = i, hi[size_t(i)] = w / 2 + i;
      v = combine(op, t, b_.CreateShuffleVector(v, lo), b_.CreateShuffleVector(v, hi));
    }
    return b_.CreateExtractElement(v, uint64_t(0));
  }

  void reduce(int32_t r) {
    const kir::Reduction& red = k_.reductions[size_t(r)];
    const DType t = type(red.value);
    Value* n = size_[size_t(k_.rank - 1)];
    // Four accumulators: one would wait on each add's latency (4 cycles).
    // Not around a libmvec call, which takes longer than that and clobbers
    // every vector register: the copies would only cost compile time.
    const int U = calls_[size_t(red.value)] ? 1 : 4;
    Value* nu = U > 1 ? b_.CreateAnd(n, i64(-U * w_)) : i64(0);
    Value* nv = b_.CreateAnd(n, i64(-w_));
    Value* acc = identity(red.op, t, w_);
    if (U > 1) {
      std::vector<Value*> accs = loop(i64(0), nu, U * w_, std::vector<Value*>(size_t(U), acc), true,
                                      [&](Value* i, const std::vector<Value*>& a) {
                                        std::vector<Value*> out;
                                        for (int u = 0; u < U; ++u) {
                                          Lanes l = row_lanes(w_, u ? b_.CreateAdd(i, i64(u * w_)) : i, r);
                                          out.push_back(combine(red.op, t, a[size_t(u)], eval(red.value, l)));
                                          spill(r, l);
                                        }
                                        return out;
                                      });
      acc = combine(red.op, t, combine(red.op, t, accs[0], accs[1]), combine(red.op, t, accs[2], accs[3]));
    }
    acc = loop(nu, nv, w_, {acc}, true, [&](Value* i, const std::vector<Value*>& a) {
      Lanes l = row_lanes(w_, i, r);
      Value* v = combine(red.op, t, a[0], eval(red.value, l));
      spill(r, l);
      return std::vector<Value*>{v};
    })[0];
    Value* s = horizontal(red.op, t, acc, w_);
    s = loop(nv, n, 1, {s}, true, [&](Value* i, const std::vector<Value*>& a) {
      Lanes l = row_lanes(1, i, r);
      Value* v = combine(red.op, t, a[0], eval(red.value, l));
      spill(r, l);
      return std::vector<Value*>{v};
    })[0];
    reduced_[size_t(r)] = s;
  }

  // The varying expressions reachable from e (e included), stopping at any in `stop`.
  std::vector<char> reach(ExprId e, const std::vector<char>& stop) const {
    std::vector<char> seen(k_.exprs.size(), 0);
    std::vector<ExprId> work{e};
    while (!work.empty()) {
      const ExprId x = work.back();
      work.pop_back();
      if (seen[size_t(x)] || !varies_[size_t(x)]) continue;
      seen[size_t(x)] = 1;
      if (stop[size_t(x)]) continue;
      const kir::Expr& ex = k_.exprs[size_t(x)];
      for (ExprId o : {ex.a, ex.b, ex.c})
        if (o >= 0) work.push_back(o);
    }
    return seen;
  }

  // Which element expressions the row buffer holds, and which reduction's
  // loop computes each first (cached_at_). Walking down from the element
  // stores, the first expression met that a reduction also computes and that
  // calls a math function is cached; what lies below it is then not needed.
  void plan_row_cache() {
    cached_at_.assign(k_.exprs.size(), -1);
    const std::vector<char> none(k_.exprs.size(), 0);
    std::vector<int32_t> first(k_.exprs.size(), -1);
    for (int32_t r = int32_t(k_.reductions.size()) - 1; r >= 0; --r) {
      std::vector<char> in = reach(k_.reductions[size_t(r)].value, none);
      for (size_t e = 0; e < in.size(); ++e)
        if (in[e]) first[e] = r;
    }
    std::vector<char> stop(k_.exprs.size(), 0);
    // Floats only: a Bool vector would be stored bit-packed, not as one byte a lane.
    for (size_t e = 0; e < stop.size(); ++e) stop[e] = first[e] >= 0 && floating(type(ExprId(e))) && calls_[e];
    for (const kir::Store& st : k_.stores) {
      if (st.per_row) continue;
      std::vector<char> in = reach(st.value, stop);
      for (size_t e = 0; e < in.size(); ++e)
        if (in[e] && stop[e]) cached_at_[e] = first[e];
    }
  }

  // The row buffer's sections, one row of each cached expression, from one
  // kiln_row_scratch call per kernel invocation (not per row).
  void allocate_row_cache() {
    scratch_.assign(k_.exprs.size(), nullptr);
    int64_t bytes_per_element = 0;
    for (size_t e = 0; e < cached_at_.size(); ++e)
      if (cached_at_[e] >= 0) bytes_per_element += int64_t(dtype_size(type(ExprId(e))));
    if (bytes_per_element == 0) return;
    Value* n = size_[size_t(k_.rank - 1)];
    llvm::FunctionCallee fn = m_.getOrInsertFunction(
        "kiln_row_scratch", llvm::FunctionType::get(b_.getPtrTy(), {b_.getInt64Ty()}, false));
    Value* base = b_.CreateCall(fn, {b_.CreateMul(n, i64(bytes_per_element))});
    // 8-byte sections first, so every section is aligned to its element size.
    Value* offset = i64(0);
    for (size_t bytes : {8, 4})
      for (size_t e = 0; e < cached_at_.size(); ++e) {
        if (cached_at_[e] < 0 || dtype_size(type(ExprId(e))) != bytes) continue;
        scratch_[e] = b_.CreateInBoundsGEP(b_.getInt8Ty(), base, offset);
        offset = b_.CreateAdd(offset, b_.CreateMul(n, i64(int64_t(bytes))));
      }
  }

  // The multi-index of flat index q over dims [0, dims) (dims - 1 innermost).
  std::vector<Value*> unflatten(Value* q, int dims) {
    std::vector<Value*> idx(static_cast<size_t>(dims));
    for (int d = dims - 1; d >= 1; --d) {
      idx[size_t(d)] = b_.CreateURem(q, size_[size_t(d)]);
      q = b_.CreateUDiv(q, size_[size_t(d)]);
    }
    if (dims > 0) idx[0] = q;  // < sizes[0] for any index inside the domain
    return idx;
  }

  // The outer multi-index plus one, carrying from dim rank-2 outwards.
  std::vector<Value*> next_outer(const std::vector<Value*>& idx) {
    std::vector<Value*> out(idx.size());
    Value* carry = b_.getTrue();
    for (size_t d = idx.size(); d-- > 0;) {
      Value* inc = b_.CreateAdd(idx[d], b_.CreateZExt(carry, b_.getInt64Ty()));
      Value* wrap = b_.CreateICmpEQ(inc, size_[d]);
      out[d] = b_.CreateSelect(wrap, i64(0), inc);
      carry = wrap;
    }
    return out;
  }

  void pointwise(Value* begin, Value* end) {
    const int outer = k_.rank - 1;
    Value* n = size_[size_t(outer)];
    Value* j0 = b_.CreateURem(begin, n);
    std::vector<Value*> idx = unflatten(b_.CreateUDiv(begin, n), outer);
    llvm::BasicBlock* entry = b_.GetInsertBlock();
    llvm::BasicBlock* seg = llvm::BasicBlock::Create(c_, "segment", fn_);
    llvm::BasicBlock* done = llvm::BasicBlock::Create(c_, "done", fn_);
    b_.CreateBr(seg);
    b_.SetInsertPoint(seg);
    llvm::PHINode* pos = b_.CreatePHI(b_.getInt64Ty(), 2, "pos");
    llvm::PHINode* start = b_.CreatePHI(b_.getInt64Ty(), 2, "j0");
    pos->addIncoming(begin, entry);
    start->addIncoming(j0, entry);
    std::vector<llvm::PHINode*> phis;
    std::vector<Value*> cur;
    for (Value* v : idx) {
      phis.push_back(b_.CreatePHI(b_.getInt64Ty(), 2));
      phis.back()->addIncoming(v, entry);
      cur.push_back(phis.back());
    }
    Value* len = b_.CreateBinaryIntrinsic(llvm::Intrinsic::umin, b_.CreateSub(n, start), b_.CreateSub(end, pos));
    segment(cur, start);
    elements(len);
    llvm::BasicBlock* latch = b_.GetInsertBlock();
    Value* next = b_.CreateAdd(pos, len);
    std::vector<Value*> next_idx = next_outer(cur);
    b_.CreateCondBr(b_.CreateICmpSLT(next, end), seg, done);
    pos->addIncoming(next, latch);
    start->addIncoming(i64(0), latch);
    for (size_t d = 0; d < phis.size(); ++d) phis[d]->addIncoming(next_idx[d], latch);
    b_.SetInsertPoint(done);
  }

  void rows(Value* begin, Value* end) {
    loop(begin, end, 1, unflatten(begin, k_.rank - 1), false, [&](Value*, const std::vector<Value*>& idx) {
      segment(idx, nullptr);
      for (int32_t r = 0; r < int32_t(k_.reductions.size()); ++r) reduce(r);
      Lanes first = lanes(1, i64(0));
      stores(first, true);
      elements(size_[size_t(k_.rank - 1)]);
      return next_outer(idx);
    });
  }

  const kir::Kernel& k_;
  const CodegenTarget& t_;
  llvm::Module& m_;
  llvm::LLVMContext& c_;
  mutable llvm::IRBuilder<> b_;
  llvm::Function* fn_ = nullptr;
  int w_ = 4;                                // lanes of this kernel's vector loops
  std::vector<char> varies_;                 // per expression: differs along the last dim
  std::vector<char> calls_;                  // per expression: evaluating it per element calls a math function
  std::vector<Value*> ptr_, size_, param_;   // the ABI's arrays, loaded once
  std::vector<std::vector<Value*>> stride_;  // [operand][dim]; only the dims used
  std::vector<Value*> seg_;                  // per operand: current segment's (row's) start
  std::vector<Value*> outer_;                // the current segment's (row's) outer indices
  Value* j0_ = nullptr;                      // its first last-dim index; null: 0 (a row)
  std::vector<Value*> row_;                  // invariant expressions, scalar, for this segment or row
  std::vector<Value*> reduced_;              // the finished reductions of this row
  std::vector<int32_t> cached_at_;           // per expression: reduction whose loop caches it (-1: none)
  std::vector<Value*> scratch_;              // per cached expression: its row buffer section
  llvm::Instruction* hoist_ = nullptr;       // invariants go before this; null: where we are
  Value* stream_ = nullptr;                  // i1: the kernel's stores stream (null: never)
  bool nontemporal_ = false;                 // emitting the streaming copy of a vector loop
};

llvm::Function* Emitter::run(const std::string& symbol) {
  // Expressions are topologically ordered: one pass finds both facts.
  varies_.assign(k_.exprs.size(), 0);
  calls_.assign(k_.exprs.size(), 0);
  for (size_t e = 0; e < k_.exprs.size(); ++e) {
    const kir::Expr& x = k_.exprs[e];
    if (x.op == Op::Load) {
      varies_[e] = k_.operands[size_t(x.slot)].inner != kir::Inner::Broadcast;
    } else if (x.op == Op::Index) {
      varies_[e] = x.slot == k_.rank - 1;
    } else if (x.op == Op::Gather) {
      varies_[e] = k_.operands[size_t(x.slot)].inner != kir::Inner::Broadcast || varies_[size_t(x.a)];
    } else {
      for (ExprId o : {x.a, x.b, x.c})
        if (o >= 0 && varies_[size_t(o)]) varies_[e] = 1;
    }
    if (!varies_[e]) continue;  // computed once per row: no call in the loop
    calls_[e] = is_math_call(x.op);
    for (ExprId o : {x.a, x.b, x.c})
      if (o >= 0 && calls_[size_t(o)]) calls_[e] = 1;
  }
  // One width per kernel: W lanes of 32-bit values, or W/2 where 64-bit
  // values vary along the row, so no vector is wider than a register. A
  // Python number (a float64 scalar cast to float32) is computed once per
  // row and does not narrow the loop.
  bool wide = false;
  auto is64 = [](DType t) { return t == DType::Int64 || t == DType::Float64; };
  for (size_t e = 0; e < k_.exprs.size(); ++e) wide = wide || (varies_[e] && is64(k_.exprs[e].type));
  for (const kir::Operand& o : k_.operands) wide = wide || (o.inner != kir::Inner::Broadcast && is64(o.dtype));
  for (const kir::Reduction& r : k_.reductions) wide = wide || is64(k_.exprs[size_t(r.value)].type);
  w_ = wide ? t_.width_f32 / 2 : t_.width_f32;

  row_.assign(k_.exprs.size(), nullptr);
  reduced_.assign(k_.reductions.size(), nullptr);

  llvm::Type* ptr = b_.getPtrTy();
  llvm::Type* i64t = b_.getInt64Ty();
  auto* type = llvm::FunctionType::get(b_.getVoidTy(), {ptr, ptr, ptr, ptr, i64t, i64t}, false);
  fn_ = llvm::Function::Create(type, llvm::Function::ExternalLinkage, symbol, m_);
  fn_->setDoesNotThrow();
  fn_->addFnAttr("target-cpu", t_.cpu);
  fn_->addFnAttr("target-features", t_.features);
  // The vectors (and libmvec's zmm arguments) are this wide; CPUs tuned to
  // prefer 256-bit vectors would otherwise split them.
  fn_->addFnAttr("min-legal-vector-width", std::to_string(t_.vector_bits));
  fn_->addFnAttr("prefer-vector-width", std::to_string(t_.vector_bits));
  const char* names[] = {"ptrs", "sizes", "strides", "params", "begin", "end"};
  for (unsigned i = 0; i < 6; ++i) fn_->getArg(i)->setName(names[i]);
  for (unsigned i = 0; i < 4; ++i) {
    fn_->addParamAttr(i, llvm::Attribute::NoCapture);
    fn_->addParamAttr(i, llvm::Attribute::ReadOnly);
  }

  b_.SetInsertPoint(llvm::BasicBlock::Create(c_, "entry", fn_));
  auto at = [&](llvm::Type* t, unsigned arg, int64_t i) {
    return b_.CreateAlignedLoad(t, b_.CreateConstInBoundsGEP1_64(t, fn_->getArg(arg), uint64_t(i)), llvm::Align(8));
  };
  const int rank = k_.rank;
  for (int d = 0; d < rank; ++d) size_.push_back(at(i64t, 1, d));
  for (size_t k = 0; k < k_.operands.size(); ++k) {
    ptr_.push_back(at(ptr, 0, int64_t(k)));
    stride_.emplace_back();
    const int dims = k_.operands[k].inner == kir::Inner::Strided ? rank : rank - 1;
    for (int d = 0; d < dims; ++d) stride_.back().push_back(at(i64t, 2, int64_t(k) * rank + d));
  }
  for (int p = 0; p < k_.num_params; ++p) param_.push_back(at(b_.getDoubleTy(), 3, p));
  seg_.assign(k_.operands.size(), nullptr);

  Value* begin = fn_->getArg(4);
  Value* end = fn_->getArg(5);
  llvm::BasicBlock* work = llvm::BasicBlock::Create(c_, "work", fn_);
  llvm::BasicBlock* ret = llvm::BasicBlock::Create(c_, "return", fn_);
  stream_ = streams();
  b_.CreateCondBr(b_.CreateICmpSLT(begin, end), work, ret);
  b_.SetInsertPoint(work);
  if (k_.kind == kir::Kind::Pointwise) {
    pointwise(begin, end);
  } else {
    plan_row_cache();
    allocate_row_cache();
    rows(begin, end);
  }
  b_.CreateBr(ret);
  b_.SetInsertPoint(ret);
  if (stream_) b_.CreateCall(llvm::Intrinsic::getDeclaration(&m_, llvm::Intrinsic::x86_sse_sfence));
  b_.CreateRetVoid();
  return fn_;
}

}  // namespace

llvm::Function* emit_kernel(const kir::Kernel& k, const std::string& symbol, const CodegenTarget& t, llvm::Module& m) {
  return Emitter(k, t, m).run(symbol);
}

}  // namespace kiln::jit
