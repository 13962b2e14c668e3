// The process's LLVM JIT: host target, O3 pipeline, LLJIT, and compile()
// from kernel IR to a callable KernelFn. IR emission is in llvm_codegen.cpp.
#include "jit/llvm_backend.h"

#include <llvm/ExecutionEngine/JITLink/EHFrameSupport.h>
#include <llvm/ExecutionEngine/Orc/ExecutionUtils.h>
#include <llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h>
#include <llvm/ExecutionEngine/Orc/LLJIT.h>
#include <llvm/ExecutionEngine/Orc/ObjectLinkingLayer.h>
#include <llvm/ExecutionEngine/Orc/ThreadSafeModule.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/LegacyPassManager.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/DynamicLibrary.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Config/llvm-config.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>
#include <llvm/TargetParser/Host.h>
#include <llvm/Transforms/Utils/Cloning.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <chrono>
#include <cstdlib>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/cpu_cache.h"
#include "core/error.h"
#include "jit/llvm_codegen.h"
#include "jit/row_scratch.h"

namespace kiln::jit {
namespace {

int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

[[noreturn]] void fail(const std::string& what, llvm::Error err) {
  throw Error("LLVM backend: " + what + ": " + llvm::toString(std::move(err)));
}

template <class T>
T take(llvm::Expected<T> v, const std::string& what) {
  if (!v) fail(what, v.takeError());
  return std::move(*v);
}

std::string print(const llvm::Module& m) {
  std::string s;
  llvm::raw_string_ostream os(s);
  m.print(os, nullptr);
  return s;
}

// "fused_mul_add" -> "kiln_fused_mul_add_7": a C identifier, unique in the process.
std::string symbol_for(const std::string& name, uint64_t n) {
  std::string s = "kiln_";
  for (char c : name.substr(0, 80)) s += (std::isalnum(static_cast<unsigned char>(c)) || c == '_') ? c : '_';
  return s + "_" + std::to_string(n);
}

}  // namespace

struct LlvmBackend::Impl {
  CodegenTarget target;
  std::string triple, description;
  llvm::DataLayout layout{""};
  std::atomic<uint64_t> next_symbol{0};
  // Guards tm (its subtarget cache is not thread-safe) and the JIT's
  // compiler, which uses one TargetMachine.
  std::mutex mu;
  std::unique_ptr<llvm::TargetMachine> tm;
  std::unique_ptr<llvm::orc::LLJIT> jit;
  std::unordered_map<std::string, kir::KernelFn> loaded;  // objects added to the JIT, by symbol

  std::unique_ptr<llvm::Module> build(const kir::Kernel& k, const std::string& symbol, llvm::LLVMContext& ctx,
                                      const CompileOptions& opt, CompiledKernel& out);

  void optimize(llvm::Module& m) {
    llvm::LoopAnalysisManager lam;
    llvm::FunctionAnalysisManager fam;
    llvm::CGSCCAnalysisManager cgam;
    llvm::ModuleAnalysisManager mam;
    // The loops are vectorized by construction; LLVM's vectorizers would only
    // spend compile time re-deciding the scalar tails.
    llvm::PipelineTuningOptions tuning;
    tuning.LoopVectorization = false;
    tuning.SLPVectorization = false;
    tuning.LoopUnrolling = false;
    llvm::PassBuilder pb(tm.get(), tuning);
    pb.registerModuleAnalyses(mam);
    pb.registerCGSCCAnalyses(cgam);
    pb.registerFunctionAnalyses(fam);
    pb.registerLoopAnalyses(lam);
    pb.crossRegisterProxies(lam, fam, cgam, mam);
    pb.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O3).run(m, mam);
  }

  std::string assembly(const llvm::Module& m) {
    // Code generation rewrites IR (CodeGenPrepare), so it runs on a copy.
    std::unique_ptr<llvm::Module> copy = llvm::CloneModule(m);
    llvm::SmallString<0> text;
    llvm::raw_svector_ostream os(text);
    llvm::legacy::PassManager pm;
    KILN_CHECK(!tm->addPassesToEmitFile(pm, os, nullptr, llvm::CodeGenFileType::AssemblyFile), Runtime,
               "LLVM backend: the target cannot emit assembly");
    pm.run(*copy);
    return std::string(text.str());
  }
};

LlvmBackend::LlvmBackend() : impl_(std::make_unique<Impl>()) {
  Impl& s = *impl_;
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  llvm::InitializeNativeTargetAsmParser();
  // Vector transcendentals call libmvec, which nothing else in the process
  // needs to have loaded; the JIT resolves symbols from loaded libraries.
  std::string err;
  KILN_CHECK(!llvm::sys::DynamicLibrary::LoadLibraryPermanently("libmvec.so.1", &err), Runtime,
             "LLVM backend: cannot load glibc's libmvec.so.1: ", err);

  llvm::orc::JITTargetMachineBuilder jtmb = take(llvm::orc::JITTargetMachineBuilder::detectHost(), "host target");
  const std::string cpu = llvm::sys::getHostCPUName().str();
  std::vector<std::string> features, enabled;
  for (const auto& f : llvm::sys::getHostCPUFeatures()) {
    features.push_back((f.second ? "+" : "-") + f.first().str());
    if (f.second) enabled.push_back("+" + f.first().str());
  }
  std::sort(features.begin(), features.end());
  std::sort(enabled.begin(), enabled.end());
  jtmb.setCPU(cpu);
  jtmb.getFeatures() = llvm::SubtargetFeatures();
  jtmb.addFeatures(features);
  jtmb.setCodeGenOptLevel(llvm::CodeGenOptLevel::Aggressive);
  // JITLink places each kernel's constants next to its code and reaches
  // libmvec through PLT stubs, so kernels use the small code model (RIP-
  // relative constants, direct calls) rather than the JIT default, large.
  jtmb.setRelocationModel(llvm::Reloc::PIC_);
  jtmb.setCodeModel(llvm::CodeModel::Small);

  auto has = [&](const char* f) {
    return std::find(enabled.begin(), enabled.end(), std::string("+") + f) != enabled.end();
  };
  s.target.cpu = cpu;
  s.target.features = jtmb.getFeatures().getString();
  s.target.avx2 = has("avx2");
  s.target.avx512 = has("avx512f") && has("avx512vl");
  s.target.width_f32 = has("avx512f") ? 16 : s.target.avx2 ? 8 : 4;
  // KILN_LLVM_VECTOR_BITS=256 or 128 narrows the loops (to compare AVX2 with
  // AVX-512 code, or test the narrower paths on a wider machine).
  if (const char* cap = std::getenv("KILN_LLVM_VECTOR_BITS")) {
    const int bits = std::atoi(cap);
    KILN_CHECK(bits == 128 || bits == 256 || bits == 512, Value, "KILN_LLVM_VECTOR_BITS must be 128, 256 or 512, not '",
               cap, "'");
    s.target.width_f32 = std::min(s.target.width_f32, bits / 32);
  }
  s.target.vector_bits = s.target.width_f32 * 32;
  const llvm::Triple::ArchType arch = jtmb.getTargetTriple().getArch();
  if (arch == llvm::Triple::x86_64 || arch == llvm::Triple::x86) s.target.stream_bytes = streaming_store_bytes();
  s.triple = jtmb.getTargetTriple().str();
  s.description = jtmb.getTargetTriple().getArchName().str() + " " + cpu + " ";
  for (size_t i = 0; i < enabled.size(); ++i) s.description += (i ? "," : "") + enabled[i];
  s.description += " vectors:" + std::to_string(s.target.vector_bits);
  s.description += " streaming:" + std::to_string(s.target.stream_bytes);

  s.tm = take(jtmb.createTargetMachine(), "target machine");
  s.layout = s.tm->createDataLayout();
  s.jit = take(llvm::orc::LLJITBuilder()
                   .setJITTargetMachineBuilder(std::move(jtmb))
                   .setObjectLinkingLayerCreator([](llvm::orc::ExecutionSession& es, const llvm::Triple&)
                                                     -> llvm::Expected<std::unique_ptr<llvm::orc::ObjectLayer>> {
                     auto layer = std::make_unique<llvm::orc::ObjectLinkingLayer>(es);
                     // Unwind info, for debuggers and profilers walking through kernels.
                     layer->addPlugin(std::make_unique<llvm::orc::EHFrameRegistrationPlugin>(
                         es, std::make_unique<llvm::jitlink::InProcessEHFrameRegistrar>()));
                     return layer;
                   })
                   .create(),
               "LLJIT");
  s.jit->getMainJITDylib().addGenerator(take(
      llvm::orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(s.layout.getGlobalPrefix()), "process symbols"));
  // The runtime functions kernels call, by address: the kiln binary does not
  // export its symbols for the process search above to find.
  llvm::orc::SymbolMap runtime;
  runtime[s.jit->mangleAndIntern("kiln_row_scratch")] = {llvm::orc::ExecutorAddr::fromPtr(&kiln_row_scratch),
                                                         llvm::JITSymbolFlags::Exported};
  if (llvm::Error e = s.jit->getMainJITDylib().define(llvm::orc::absoluteSymbols(std::move(runtime))))
    fail("defining the kernels' runtime symbols", std::move(e));
}

LlvmBackend::~LlvmBackend() = default;

LlvmBackend& LlvmBackend::get() {
  // Never destroyed: kernels may still run on pool threads while statics die.
  static LlvmBackend* backend = new LlvmBackend();
  return *backend;
}

std::string LlvmBackend::target_description() const { return impl_->description; }

int LlvmBackend::vector_width_f32() const { return impl_->target.width_f32; }

// Emits, verifies and optimizes `k` as `symbol` in a fresh context. Emission
// needs no shared state (kernels from several threads build in parallel);
// optimization holds the backend's lock.
std::unique_ptr<llvm::Module> LlvmBackend::Impl::build(const kir::Kernel& k, const std::string& symbol,
                                                       llvm::LLVMContext& ctx, const CompileOptions& opt,
                                                       CompiledKernel& out) {
  int64_t t0 = now_ns();
  kir::check_kernel(k);
  auto m = std::make_unique<llvm::Module>(symbol, ctx);
  m->setTargetTriple(triple);
  m->setDataLayout(layout);
  emit_kernel(k, symbol, target, *m);
  std::string problems;
  llvm::raw_string_ostream os(problems);
  if (llvm::verifyModule(*m, &os))
    throw Error("LLVM backend: kernel " + k.name + " is invalid LLVM IR: " + problems + "\n" + k.to_text());
  if (opt.keep_text) out.llvm_ir = print(*m);
  int64_t t1 = now_ns();
  out.codegen_ns = t1 - t0;
  optimize(*m);
  out.optimize_ns = now_ns() - t1;
  if (opt.keep_text) {
    out.optimized_ir = print(*m);
    out.assembly = assembly(*m);
  }
  return m;
}

CompiledKernel LlvmBackend::compile(const kir::Kernel& k, const CompileOptions& opt) {
  Impl& s = *impl_;
  CompiledKernel out;
  out.symbol = symbol_for(k.name, s.next_symbol++);
  auto ctx = std::make_unique<llvm::LLVMContext>();
  std::lock_guard<std::mutex> lock(s.mu);
  std::unique_ptr<llvm::Module> m = s.build(k, out.symbol, *ctx, opt, out);
  int64_t t2 = now_ns();
  if (llvm::Error e = s.jit->addIRModule(llvm::orc::ThreadSafeModule(std::move(m), std::move(ctx))))
    fail("adding kernel " + k.name, std::move(e));
  llvm::orc::ExecutorAddr addr = take(s.jit->lookup(out.symbol), "compiling kernel " + k.name);
  out.fn = addr.toPtr<kir::KernelFn>();
  out.jit_ns = now_ns() - t2;
  return out;
}

std::string LlvmBackend::llvm_version() const { return LLVM_VERSION_STRING; }

// The symbol names the kernel's IR, so an object cached by another process
// never collides with a kernel compiled here.
KernelObject LlvmBackend::compile_object(const kir::Kernel& k, const CompileOptions& opt) {
  Impl& s = *impl_;
  KernelObject out;
  uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned char c : k.to_text()) h = (h ^ c) * 0x100000001b3ull;
  out.compiled.symbol = symbol_for(k.name, h);
  llvm::LLVMContext ctx;
  std::lock_guard<std::mutex> lock(s.mu);
  std::unique_ptr<llvm::Module> m = s.build(k, out.compiled.symbol, ctx, opt, out.compiled);
  int64_t t0 = now_ns();
  llvm::SmallString<0> bytes;
  llvm::raw_svector_ostream os(bytes);
  llvm::legacy::PassManager pm;
  KILN_CHECK(!s.tm->addPassesToEmitFile(pm, os, nullptr, llvm::CodeGenFileType::ObjectFile), Runtime,
             "LLVM backend: the target cannot emit object files");
  pm.run(*m);
  out.object.assign(bytes.begin(), bytes.end());
  out.compiled.jit_ns = now_ns() - t0;
  return out;
}

kir::KernelFn LlvmBackend::load_object(const std::string& object, const std::string& symbol) {
  Impl& s = *impl_;
  std::lock_guard<std::mutex> lock(s.mu);
  auto known = s.loaded.find(symbol);
  if (known != s.loaded.end()) return known->second;
  auto buffer = llvm::MemoryBuffer::getMemBufferCopy(object, symbol);
  if (llvm::Error e = s.jit->addObjectFile(std::move(buffer))) fail("loading kernel object " + symbol, std::move(e));
  kir::KernelFn fn = take(s.jit->lookup(symbol), "linking kernel " + symbol).toPtr<kir::KernelFn>();
  s.loaded.emplace(symbol, fn);
  return fn;
}

}  // namespace kiln::jit
