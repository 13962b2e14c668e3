// KILN_JIT_CHECK=1: every graph the JIT runs is checked against the
// interpreter. Before the backend runs, the graph's input storages are copied
// (aliasing kept: views of one storage stay views of one copy); afterwards the
// same ops run eagerly, one at a time, on the copies, and each node's outputs
// are compared with what the backend produced. The first node that differs
// beyond tolerance is reported, like an accuracy minifier in miniature.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>

#include "core/lazy.h"

namespace kiln::jit {

struct CheckMismatch {
  size_t node = 0;       // index in the graph
  size_t output = 0;     // which output of the node
  int64_t element = 0;   // first element beyond tolerance (linear, row-major)
  double interpreted = 0, compiled = 0;
  std::string describe(const std::string& op, const std::string& where) const;
};

class JitCheck {
 public:
  // Copies the inputs of `ops`; call before the backend runs them.
  explicit JitCheck(std::span<const lazy::PendingOp> ops);
  // Replays `ops` eagerly on the copies and compares every node's outputs with
  // the backend's (p.outs). rtol 1e-4, atol 1e-5 for floats; exact otherwise.
  std::optional<CheckMismatch> verify(std::span<const lazy::PendingOp> ops);

 private:
  void copy_storage(const Tensor& t);
  Tensor replayed(const Tensor& t) const;
  std::map<const Storage*, std::shared_ptr<Storage>> storages_;  // original -> the replay's
  std::map<const TensorImpl*, Tensor> replay_;  // original tensor -> its value in the replay
};

}  // namespace kiln::jit
