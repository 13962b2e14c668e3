#include "core/ops/onednn_matmul.h"

#include <array>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/ops/onednn_runtime.h"

namespace kiln {
namespace ops {
namespace {

// KILN_GEMM=openblas routes every product to OpenBLAS (A/B measurements, and
// a way out should a oneDNN build misbehave on some CPU).
bool enabled() {
  static const bool on = onednn_enabled_by("KILN_GEMM", "openblas");
  return on;
}

using dnnl::memory;

// A primitive is built (and its kernel JIT-compiled) once per shape and
// layout; a step's products repeat every iteration.
using Key = std::array<int64_t, 11>;
struct Primitive {
  bool usable = false;  // false: oneDNN offered only its reference kernel
  dnnl::matmul matmul;
  memory::desc a, b, c;
  std::vector<memory::desc> post_src;  // per post-op: its second operand (empty desc: none)
};

// The post-ops' kinds as one key field, two bits each (a product takes few).
constexpr size_t kMaxPostOps = 8;
int64_t post_code(std::span<const MatmulPostOp> post) {
  int64_t code = int64_t(post.size());
  for (const MatmulPostOp& op : post) code = code * 4 + int64_t(op.kind);
  return code;
}

dnnl::post_ops make_post_ops(int64_t batch, int64_t m, int64_t n, std::span<const MatmulPostOp> post,
                             std::vector<memory::desc>& srcs) {
  dnnl::post_ops ops;
  for (const MatmulPostOp& op : post) {
    if (op.kind == MatmulPostOp::Kind::Relu) {
      ops.append_eltwise(1.0f, dnnl::algorithm::eltwise_relu, 0.0f, 0.0f);
      srcs.emplace_back();
      continue;
    }
    const bool row = op.kind == MatmulPostOp::Kind::AddRow;
    srcs.emplace_back(memory::dims{row ? 1 : batch, row ? 1 : m, n}, memory::data_type::f32,
                      memory::dims{row ? n : m * n, n, 1});
    ops.append_binary(dnnl::algorithm::binary_add, srcs.back());
  }
  return ops;
}

memory::desc operand_desc(int64_t batch, int64_t rows, int64_t cols, const MatmulOperand& op) {
  // A broadcast operand is one matrix that oneDNN applies to every batch.
  const int64_t dims_batch = op.batch_stride == 0 ? 1 : batch;
  return memory::desc({dims_batch, rows, cols}, memory::data_type::f32,
                      {op.batch_stride == 0 ? rows * cols : op.batch_stride, op.row_stride, op.col_stride});
}

Primitive build(int64_t batch, int64_t m, int64_t n, int64_t k, const MatmulOperand& a, const MatmulOperand& b,
                std::span<const MatmulPostOp> post) {
  Primitive p;
  p.a = operand_desc(batch, m, k, a);
  p.b = operand_desc(batch, k, n, b);
  p.c = memory::desc({batch, m, n}, memory::data_type::f32, {m * n, n, 1});
  try {
    dnnl::primitive_attr attr;
    if (!post.empty()) attr.set_post_ops(make_post_ops(batch, m, n, post, p.post_src));
    dnnl::matmul::primitive_desc pd(dnnl::matmul::desc(p.a, p.b, p.c), attr, onednn_engine());
    if (onednn_is_reference(pd.impl_info_str())) return p;
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
                                           const MatmulOperand& b, std::span<const MatmulPostOp> post) {
  static std::mutex mu;
  static std::map<Key, std::shared_ptr<const Primitive>> cache;
  const Key key{batch,          m,           n,           k, a.batch_stride, a.row_stride, a.col_stride,
                b.batch_stride, b.row_stride, b.col_stride, post_code(post)};
  std::lock_guard<std::mutex> lock(mu);
  auto it = cache.find(key);
  if (it != cache.end()) return it->second;
  // Programs with ever-changing shapes would grow the cache without bound.
  if (cache.size() >= 1024) cache.clear();
  return cache.emplace(key, std::make_shared<const Primitive>(build(batch, m, n, k, a, b, post))).first->second;
}

}  // namespace

bool onednn_bmm(int64_t batch, int64_t m, int64_t n, int64_t k, const MatmulOperand& a, const MatmulOperand& b,
                float* c, std::span<const MatmulPostOp> post) {
  if (!enabled() || post.size() > kMaxPostOps) return false;
  const std::shared_ptr<const Primitive> shared = primitive(batch, m, n, k, a, b, post);
  const Primitive& p = *shared;
  if (!p.usable) return false;
  onednn_match_threads();
  dnnl::stream& stream = onednn_stream();
  try {
    // oneDNN takes non-const handles but only reads src, weights and post-op operands.
    std::unordered_map<int, memory> args{{DNNL_ARG_SRC, memory(p.a, onednn_engine(), const_cast<float*>(a.data))},
                                         {DNNL_ARG_WEIGHTS, memory(p.b, onednn_engine(), const_cast<float*>(b.data))},
                                         {DNNL_ARG_DST, memory(p.c, onednn_engine(), c)}};
    for (size_t i = 0; i < post.size(); ++i)
      if (post[i].data)
        args.emplace(DNNL_ARG_ATTR_MULTIPLE_POST_OP(int(i)) | DNNL_ARG_SRC_1,
                     memory(p.post_src[i], onednn_engine(), const_cast<float*>(post[i].data)));
    p.matmul.execute(stream, args);
    stream.wait();
  } catch (const dnnl::error&) {
    return false;  // e.g. no memory for its scratchpad: OpenBLAS then writes all of c
  }
  return true;
}

}  // namespace ops
}  // namespace kiln
