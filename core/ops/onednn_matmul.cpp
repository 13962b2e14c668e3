#include "core/ops/onednn_matmul.h"

#include <omp.h>

#include <array>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include <dnnl.hpp>

#include "core/error.h"
#include "core/format.h"
#include "core/thread_pool.h"

namespace kiln {
namespace ops {
namespace {

// KILN_GEMM=openblas routes every product to OpenBLAS (A/B measurements, and
// a way out should a oneDNN build misbehave on some CPU).
bool enabled() {
  static const bool on = [] {
    const char* env = std::getenv("KILN_GEMM");
    if (!env || !*env || std::strcmp(env, "onednn") == 0) return true;
    if (std::strcmp(env, "openblas") == 0) return false;
    throw Error(detail::cat("KILN_GEMM must be 'onednn' or 'openblas', got '", env, "'"), ErrorKind::Value);
  }();
  return on;
}

dnnl::engine& cpu_engine() {
  static dnnl::engine engine(dnnl::engine::kind::cpu, 0);
  return engine;
}

using dnnl::memory;

// A primitive is built (and its kernel JIT-compiled) once per shape and
// layout; a step's products repeat every iteration.
using Key = std::array<int64_t, 10>;
struct Primitive {
  bool usable = false;  // false: oneDNN offered only its reference kernel
  dnnl::matmul matmul;
  memory::desc a, b, c;
};

memory::desc operand_desc(int64_t batch, int64_t rows, int64_t cols, const MatmulOperand& op) {
  // A broadcast operand is one matrix that oneDNN applies to every batch.
  const int64_t dims_batch = op.batch_stride == 0 ? 1 : batch;
  return memory::desc({dims_batch, rows, cols}, memory::data_type::f32,
                      {op.batch_stride == 0 ? rows * cols : op.batch_stride, op.row_stride, op.col_stride});
}

Primitive build(int64_t batch, int64_t m, int64_t n, int64_t k, const MatmulOperand& a, const MatmulOperand& b) {
  Primitive p;
  p.a = operand_desc(batch, m, k, a);
  p.b = operand_desc(batch, k, n, b);
  p.c = memory::desc({batch, m, n}, memory::data_type::f32, {m * n, n, 1});
  try {
    dnnl::matmul::primitive_desc pd(dnnl::matmul::desc(p.a, p.b, p.c), cpu_engine());
    if (std::string(pd.impl_info_str()).rfind("ref", 0) == 0) return p;
    p.matmul = dnnl::matmul(pd);
    p.usable = true;
  } catch (const dnnl::error&) {
    // Layouts oneDNN rejects take OpenBLAS's path.
  }
  return p;
}

// Shared, so a product running on one thread keeps its primitive while
// another thread's miss clears the cache.
std::shared_ptr<const Primitive> primitive(int64_t batch, int64_t m, int64_t n, int64_t k, const MatmulOperand& a,
                                           const MatmulOperand& b) {
  static std::mutex mu;
  static std::map<Key, std::shared_ptr<const Primitive>> cache;
  const Key key{batch, m, n, k, a.batch_stride, a.row_stride, a.col_stride, b.batch_stride, b.row_stride,
                b.col_stride};
  std::lock_guard<std::mutex> lock(mu);
  auto it = cache.find(key);
  if (it != cache.end()) return it->second;
  // Programs with ever-changing shapes would grow the cache without bound.
  if (cache.size() >= 1024) cache.clear();
  return cache.emplace(key, std::make_shared<const Primitive>(build(batch, m, n, k, a, b))).first->second;
}

// oneDNN runs on OpenMP threads: as many as Kiln's pool, set per calling
// thread (OpenMP keeps the count per thread).
void match_thread_count() {
  thread_local int set = 0;
  const int n = num_threads();
  if (set != n) {
    omp_set_num_threads(n);
    set = n;
  }
}

}  // namespace

bool onednn_bmm(int64_t batch, int64_t m, int64_t n, int64_t k, const MatmulOperand& a, const MatmulOperand& b,
                float* c) {
  if (!enabled()) return false;
  const std::shared_ptr<const Primitive> shared = primitive(batch, m, n, k, a, b);
  const Primitive& p = *shared;
  if (!p.usable) return false;
  match_thread_count();
  thread_local dnnl::stream stream(cpu_engine());
  try {
    // oneDNN takes non-const handles but only reads src and weights.
    memory am(p.a, cpu_engine(), const_cast<float*>(a.data));
    memory bm(p.b, cpu_engine(), const_cast<float*>(b.data));
    memory cm(p.c, cpu_engine(), c);
    p.matmul.execute(stream, {{DNNL_ARG_SRC, am}, {DNNL_ARG_WEIGHTS, bm}, {DNNL_ARG_DST, cm}});
    stream.wait();
  } catch (const dnnl::error&) {
    return false;  // e.g. no memory for its scratchpad: OpenBLAS then writes all of c
  }
  return true;
}

}  // namespace ops
}  // namespace kiln
