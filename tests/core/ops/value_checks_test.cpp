// Tests for the ops' value checks (OpDef::check): each raises exactly what its
// kernel raises for a bad index or target, before the kernel runs, so a
// deferred kernel (core/lazy.h) cannot move the error past its call.
#include <functional>

#include "core/dispatch.h"
#include "core/lazy.h"
#include "core/ops.h"
#include "tests/core/test_util.h"

namespace kiln {
namespace {
using testing::T;

Tensor L(std::vector<double> v, Shape shape = {}) { return T(std::move(v), std::move(shape), DType::Int64); }

// Every op whose kernel can raise an error that depends on tensor values.
const char* const kValueCheckedOps[] = {"embedding", "embedding_dense_backward", "nll_loss_forward", "nll_loss_grad",
                                        "index_select", "index_add", "index_copy", "gather", "scatter_add"};

struct Outcome {
  bool threw = false;
  std::string what;
  ErrorKind kind = ErrorKind::Runtime;
};
Outcome outcome(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return {true, e.what(), e.kind()};
  }
  return {};
}
void expect_same(const Outcome& got, const Outcome& want, const char* what) {
  EXPECT_EQ(got.threw, want.threw) << what << ": " << got.what << " / " << want.what;
  EXPECT_EQ(got.what, want.what) << what;
  EXPECT_EQ(error_kind_name(got.kind), error_kind_name(want.kind)) << what;
}

std::vector<Value> bind(const OpDef& op, std::vector<Value> positional) {
  return bind_args(op.schema, positional, {}, true);
}
Outcome check_outcome(const OpDef& op, const std::vector<Value>& a) {
  return outcome([&] { op.check(a); });
}
// What running the op without its check raises: shape rules, allocation, kernel.
Outcome kernel_outcome(const OpDef& op, const std::vector<Value>& a) {
  return outcome([&] {
    std::vector<Shape> shapes = op.shape(a);
    std::vector<DType> dtypes = op.dtype(a);
    std::vector<Tensor> outs;
    for (size_t i = 0; i < shapes.size(); ++i) outs.push_back(empty_tensor(shapes[i], dtypes[i]));
    op.kernel(a, outs);
  });
}
Outcome eager_outcome(const OpDef& op, const std::vector<Value>& a) {
  return outcome([&] { dispatch(op, a); });
}

// The check raises `message` (kiln::Error, Index) for `bad`, as the kernel and
// eager dispatch do, and passes `good`, which then runs.
void expect_checked(const char* name, std::vector<Value> bad, std::vector<Value> good, const std::string& message,
                    ErrorKind kind = ErrorKind::Index) {
  SCOPED_TRACE(name);
  const OpDef& op = op_table().get(name);
  ASSERT_NE(op.check, nullptr);
  std::vector<Value> b = bind(op, std::move(bad));
  Outcome c = check_outcome(op, b);
  expect_same(c, {true, message, kind}, "check");
  expect_same(kernel_outcome(op, b), c, "kernel");
  expect_same(eager_outcome(op, b), c, "eager");
  std::vector<Value> g = bind(op, std::move(good));
  expect_same(check_outcome(op, g), {}, "check, good");
  expect_same(eager_outcome(op, g), {}, "eager, good");
}

// ---- per op ---------------------------------------------------------------------------------------
TEST(ValueChecks, Embedding) {
  Tensor w = randn({4, 3});
  expect_checked("embedding", {w, L({1, 4, -1})}, {w, L({0, 3, 3})}, "index out of range in self");
  expect_checked("embedding", {w, L({2, -1}, {1, 2})}, {w, L({2, 1}, {1, 2})}, "index out of range in self");
  Tensor i32 = T({0, 9}, {}, DType::Int32);
  expect_checked("embedding", {w, i32}, {w, T({0, 3}, {}, DType::Int32)}, "index out of range in self");
}

TEST(ValueChecks, EmbeddingDenseBackward) {
  Tensor g = randn({2, 3});
  expect_checked("embedding_dense_backward", {g, L({0, 4}), int64_t(4), int64_t(-1), false},
                 {g, L({0, 3}), int64_t(4), int64_t(-1), false}, "index out of range in self");
  // The grad_output size check comes first in the kernel, and in the check.
  const OpDef& op = op_table().get("embedding_dense_backward");
  std::vector<Value> a = bind(op, {randn({5}), L({0, 9}), int64_t(4), int64_t(-1), false});  // 2 rows of 5
  Outcome c = check_outcome(op, a);
  EXPECT_EQ(c.what, "embedding_backward: grad_output has 5 elements, expected 10");
  expect_same(kernel_outcome(op, a), c, "kernel");
}

TEST(ValueChecks, NllLoss) {
  Tensor logp = randn({3, 4});
  expect_checked("nll_loss_forward", {logp, L({0, -100, 4})}, {logp, L({0, -100, 3})}, "Target 4 is out of bounds.");
  expect_checked("nll_loss_forward", {logp, L({-1, 0, 9})}, {logp, L({1, 0, 2})}, "Target -1 is out of bounds.");
  // ignore_index skips its value whatever it is, even out of range.
  expect_checked("nll_loss_forward", {logp, L({7, 5, 0}), Value(), int64_t(2), int64_t(7)},
                 {logp, L({7, 7, 0}), Value(), int64_t(0), int64_t(7)}, "Target 5 is out of bounds.");
  Tensor w = T({1, 2, 3, 4});
  expect_checked("nll_loss_forward", {logp, L({0, 1, 4}), w}, {logp, L({0, 1, 3}), w}, "Target 4 is out of bounds.");
  // [N, C, d] input with [N, d] targets.
  Tensor x3 = randn({2, 3, 2});
  expect_checked("nll_loss_forward", {x3, L({0, 1, 2, 3}, {2, 2})}, {x3, L({0, 1, 2, 2}, {2, 2})},
                 "Target 3 is out of bounds.");
  // One sample: a 1-D input and a 0-d target.
  expect_checked("nll_loss_forward", {T({0.1, 0.2}), L({2})}, {T({0.1, 0.2}), L({1})}, "Target 2 is out of bounds.");
}

TEST(ValueChecks, NllLossGrad) {
  Tensor gs = T({1.0});  // 0-dim: the grad of a reduced loss
  expect_checked("nll_loss_grad", {gs, L({0, 7, 1}), Value(), Shape{3, 4}, int64_t(1), int64_t(-100), T({2.0})},
                 {gs, L({0, 3, 1}), Value(), Shape{3, 4}, int64_t(1), int64_t(-100), T({2.0})}, "Target 7 is out of bounds.");
  expect_checked("nll_loss_grad", {randn({3}), L({0, 4, 7}), Value(), Shape{3, 4}, int64_t(0), int64_t(4), T({2.0})},
                 {randn({3}), L({0, 4, 3}), Value(), Shape{3, 4}, int64_t(0), int64_t(4), T({2.0})},
                 "Target 7 is out of bounds.");
}

TEST(ValueChecks, IndexSelect) {
  Tensor x = randn({3, 2});
  expect_checked("index_select", {x, int64_t(0), L({0, 3, 5})}, {x, int64_t(0), L({0, 2, 2})},
                 "index out of range in self");
  expect_checked("index_select", {x, int64_t(-1), L({-1})}, {x, int64_t(-1), L({1})}, "index out of range in self");
  Tensor s = T({5.0});  // a 0-dim self indexes a dim of size 1
  expect_checked("index_select", {s, int64_t(0), L({1})}, {s, int64_t(0), L({0})}, "index out of range in self");
}

TEST(ValueChecks, IndexAddAndCopy) {
  Tensor x = zeros({3, 2}), src = randn({2, 2});
  for (const char* name : {"index_add", "index_copy"}) {
    expect_checked(name, {x, int64_t(0), L({1, -1}), src}, {x, int64_t(0), L({1, 2}), src},
                   "index out of range in self");
    expect_checked(name, {x, int64_t(1), L({0, 2}), randn({3, 2})}, {x, int64_t(1), L({1, 0}), randn({3, 2})},
                   "index out of range in self");
  }
}

TEST(ValueChecks, Gather) {
  Tensor x = randn({2, 3});
  // Row-major order decides which bad index is reported; negatives are out of bounds (as PyTorch).
  expect_checked("gather", {x, int64_t(1), L({0, -1, 5, 1}, {2, 2})}, {x, int64_t(1), L({0, 0, 2, 1}, {2, 2})},
                 "index -1 is out of bounds for dimension 1 with size 3", ErrorKind::Runtime);
  expect_checked("gather", {x, int64_t(-2), L({2, 0, 1}, {1, 3})}, {x, int64_t(-2), L({1, 0, 1}, {1, 3})},
                 "index 2 is out of bounds for dimension 0 with size 2", ErrorKind::Runtime);
}

TEST(ValueChecks, ScatterAdd) {
  Tensor x = zeros({2, 3});
  expect_checked("scatter_add", {x, int64_t(0), L({1, 2, -3}, {1, 3}), randn({1, 3})},
                 {x, int64_t(0), L({1, 0, 0}, {1, 3}), randn({1, 3})},
                 "index 2 is out of bounds for dimension 0 with size 2", ErrorKind::Runtime);
  expect_checked("scatter_add", {x, int64_t(1), L({-1}, {1, 1}), randn({2, 3})},
                 {x, int64_t(1), L({2}, {1, 1}), randn({2, 3})}, "index -1 is out of bounds for dimension 1 with size 3",
                 ErrorKind::Runtime);
}

// Shape and dtype errors still win over bad values: dispatch runs the check
// before the shape rules, so the check runs them first.
TEST(ValueChecks, ShapeErrorsComeFirst) {
  struct Case {
    const char* name;
    std::vector<Value> args;
  };
  Tensor x = randn({3, 2});
  std::vector<Case> cases = {
      {"embedding", {x, T({9.0, 1.0})}},                                     // float indices
      {"embedding", {randn({3}), L({9})}},                                    // 1-D weight
      {"index_select", {x, int64_t(0), L({9, 9}, {1, 2})}},                  // 2-D index
      {"index_add", {x, int64_t(0), L({9}), randn({2, 2})}},                 // index/source count
      {"gather", {x, int64_t(0), T({9.0}, {1, 1})}},                         // float index
      {"scatter_add", {x, int64_t(0), L({9, 9, 9}, {3, 1}), randn({1, 2})}}, // index larger than src
      {"nll_loss_forward", {x, L({9, 9})}},                                  // batch mismatch
      {"nll_loss_forward", {x, T({9, 9, 9}, {}, DType::Int32)}},             // target dtype
      {"nll_loss_grad", {T({1.0}), L({9, 9}), Value(), Shape{3, 2}, int64_t(1), int64_t(-100), T({2.0})}},
  };
  for (Case& c : cases) {
    SCOPED_TRACE(c.name);
    const OpDef& op = op_table().get(c.name);
    std::vector<Value> a = bind(op, c.args);
    Outcome k = kernel_outcome(op, a);
    ASSERT_TRUE(k.threw);
    EXPECT_EQ(k.what.find("out of"), std::string::npos) << k.what;  // a shape error, not a bounds one
    expect_same(check_outcome(op, a), k, "check");
    expect_same(eager_outcome(op, a), k, "eager");
  }
}

TEST(ValueChecks, EveryValueRaisingOpHasACheck) {
  for (const char* name : kValueCheckedOps) EXPECT_NE(op_table().get(name).check, nullptr) << name;
}

// ---- deferred dispatch ----------------------------------------------------------------------------
// Runs pending ops one by one, remembering why each sync happened.
class RecordingRunner : public lazy::Runner {
 public:
  std::vector<lazy::SyncReason> reasons;
  void run_pending(std::vector<lazy::PendingOp>& ops, lazy::SyncReason reason, const lazy::GraphStart&) override {
    reasons.push_back(reason);
    for (const lazy::PendingOp& p : ops) run_deferred(p);
    ops.clear();
  }
  uint32_t site() override { return 0; }
};

// A capture open for the test's scope, with the runner installed.
class Capture {
 public:
  explicit Capture(RecordingRunner& r) {
    lazy::set_runner(&r);
    lazy::begin_capture(region_);
  }
  ~Capture() {
    lazy::end_capture(std::uncaught_exceptions() > 0);
    lazy::set_runner(nullptr);
  }

 private:
  lazy::Region region_;
};

TEST(ValueChecks, DeferredOpsRaiseAtTheirCall) {
  Tensor w = randn({4, 3}), logp = randn({2, 4});
  RecordingRunner runner;
  Tensor good;
  {
    Capture cap(runner);
    ASSERT_TRUE(lazy::active());
    Tensor ok = embedding(w, L({0, 3}));  // recorded, not run
    EXPECT_TRUE(lazy::has_pending());
    EXPECT_KILN_ERROR(embedding(w, L({0, 4})), "index out of range in self");
    EXPECT_KILN_ERROR(nll_loss(logp, L({1, 4}), Tensor(), 1, -100), "Target 4 is out of bounds.");
    EXPECT_KILN_ERROR(gather(w, 0, L({4}, {1, 1})), "index 4 is out of bounds for dimension 0 with size 4");
    // A pending index runs first, so its values can be checked at the call.
    Tensor idx = add(L({1, 2}), L({1, 2}));  // [2, 4]
    EXPECT_KILN_ERROR(index_select(w, 0, idx), "index out of range in self");
    ASSERT_FALSE(runner.reasons.empty());
    EXPECT_EQ(runner.reasons.back(), lazy::SyncReason::DataDependentCheck);
    good = index_select(w, 0, sub(idx, L({1, 1})));  // [1, 3]
    EXPECT_TRUE(lazy::has_pending());
  }
  EXPECT_FALSE(lazy::has_pending());
  EXPECT_TRUE(testing::Near(good, to_double_vector(index_select(w, 0, L({1, 3}))), {2, 3}));
}

}  // namespace
}  // namespace kiln
