// Fusion for a device (jit/fusion.h with `device`), and the emulated device
// running the result: host scalars become kernel parameters instead of host
// pointers a GPU kernel would fault on; nodes whose tensors live elsewhere
// stay eager.
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <cmath>
#include <csignal>

#include "core/ops.h"
#include "core/random.h"
#include "jit/emulated_device.h"
#include "jit/fused_runner.h"
#include "jit/fusion.h"
#include "jit/op_kernels.h"
#include "tests/jit_ir/pending_ops.h"

namespace kiln::jit {
namespace {

using lazy::PendingOp;

const Device kCuda{DeviceType::CUDA, 0};

DeviceBackend& emulated() {
  static std::unique_ptr<DeviceBackend> b = [] {
    auto made = make_emulated_cuda();
    set_cuda_backend(made.get());
    return made;
  }();
  return *b;
}


TEST(DeviceFusion, HostScalarsBecomeParametersOfTheDeviceKernel) {
  emulated();
  Tensor x = copy_to_device(randn({4, 8}), kCuda);
  Tensor half = scalar_tensor(0.5, DType::Float64, true);  // a Python number's 0-dim host tensor
  Tensor m = empty_tensor({4, 8}, DType::Float32, kCuda), y = empty_tensor({4, 8}, DType::Float32, kCuda);
  std::vector<PendingOp> ops = {pending("mul", {x, half}, {m}), pending("tanh", {m}, {y})};
  Graph g = build_graph(ops);
  std::vector<bool> live(g.values.size(), false);
  live[size_t(g.nodes.back().outs[0])] = true;
  FusionPlan p = fuse(g, ops, live, kCuda);
  EXPECT_EQ(plan_text(p, g), "kernel fused_mul_tanh [2 nodes, 1 stores]\n");
  ASSERT_EQ(p.kernels.size(), 1u);
  const kir::Kernel& k = p.kernels[0].kernel;
  EXPECT_EQ(k.operands.size(), 2u) << k.to_text();  // x and y: the scalar is not an operand
  EXPECT_EQ(k.num_params, 1) << k.to_text();

  // Launched on the emulated device, whose kernels fault on host memory.
  FusedRunner* runner = dynamic_cast<FusedRunner*>(&emulated());
  ASSERT_NE(runner, nullptr);
  const void* handle = runner->prepare(k, kCuda).handle;
  ASSERT_TRUE(runner->launch(p.kernels[0], handle, ops));
  std::vector<double> got = to_double_vector(y), in = to_double_vector(x);
  for (size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], std::tanh(0.5 * in[i]), 1e-6);
  // The parameter is read at each launch: a new value needs no new kernel.
  *static_cast<double*>(half.raw_data()) = 2.0;
  ASSERT_TRUE(runner->launch(p.kernels[0], handle, ops));
  got = to_double_vector(y);
  for (size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], std::tanh(2.0 * in[i]), 1e-6);
}

TEST(DeviceFusion, NodesOnAnotherDeviceStayEager) {
  emulated();
  Tensor host = randn({16}), dev = copy_to_device(randn({16}), kCuda);
  Tensor a = empty_tensor({16}, DType::Float32), b = empty_tensor({16}, DType::Float32, kCuda);
  std::vector<PendingOp> ops = {pending("exp", {host}, {a}), pending("neg", {dev}, {b})};
  Graph g = build_graph(ops);
  std::vector<bool> live(g.values.size(), true);
  EXPECT_EQ(plan_text(fuse(g, ops, live, kCuda), g), "eager exp\nkernel fused_neg [1 nodes, 1 stores]\n");
  EXPECT_EQ(plan_text(fuse(g, ops, live), g), "kernel fused_exp [1 nodes, 1 stores]\neager neg\n");
}

void expect_same(const Tensor& device_result, const Tensor& cpu_result) {
  EXPECT_EQ(device_result.device(), kCuda);
  ASSERT_EQ(device_result.sizes(), cpu_result.sizes());
  std::vector<double> got = to_double_vector(device_result), want = to_double_vector(cpu_result);
  for (size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], want[i], 1e-5 * (1 + std::abs(want[i]))) << i;
}

// Reductions over other dims than the last run as Row kernels over a view
// (jit/op_kernels.cpp), not through the host fallback.
TEST(EmulatedDevice, ReductionsOverAnyDimsRunOnTheDevice) {
  emulated();
  Tensor x = randn({6, 5, 7});
  Tensor d = copy_to_device(x, kCuda);
  expect_same(sum(d, Shape{0}), sum(x, Shape{0}));                 // the batch dim
  expect_same(sum(d, Shape{0, 1}, true), sum(x, Shape{0, 1}, true));  // merged dims, keepdim
  expect_same(mean(d, Shape{1}), mean(x, Shape{1}));
  expect_same(sum(d), sum(x));                                     // every dim: one row
  expect_same(sum(d, Shape{0, 2}), sum(x, Shape{0, 2}));           // dims that do not merge: the fallback
  // Which of them have a device kernel: all but the dims that do not merge.
  OpKernels kernels;
  auto has_kernel = [&](std::vector<Value> args, Shape out_sizes) {
    PendingOp p = pending("sum", std::move(args), {empty_tensor(out_sizes, DType::Float32, kCuda)});
    return kernels.find(p, kCuda) != nullptr;
  };
  EXPECT_TRUE(has_kernel({d, Shape{0}, false, Value()}, {5, 7}));
  EXPECT_TRUE(has_kernel({d, Shape{0, 1}, true, Value()}, {1, 1, 7}));
  EXPECT_TRUE(has_kernel({d, Value(), false, Value()}, {}));
  EXPECT_FALSE(has_kernel({d, Shape{0, 2}, false, Value()}, {5}));
}

// zeros, ones, full (and their _like forms) fill on the device.
TEST(EmulatedDevice, FillsRunOnTheDevice) {
  emulated();
  OpKernels kernels;
  Tensor like = empty_tensor({3, 4}, DType::Float32, kCuda);
  auto kernel_for = [&](std::string_view op, std::vector<Value> args, DType d) {
    PendingOp p = pending(op, std::move(args), {empty_tensor({3, 4}, d, kCuda)});
    return kernels.find(p, kCuda);
  };
  EXPECT_NE(kernel_for("zeros", {Shape{3, 4}, Value(), false}, DType::Float32), nullptr);
  EXPECT_NE(kernel_for("ones_like", {like, Value(), false}, DType::Float32), nullptr);
  const FusedKernel* full_k = kernel_for("full", {Shape{3, 4}, 2.5, Value(), false}, DType::Int64);
  ASSERT_NE(full_k, nullptr);
  EXPECT_EQ(full_k->kernel.num_params, 1);  // the fill value: one kernel for every value
  DeviceScope on(kCuda);
  EXPECT_EQ(to_double_vector(ones({2, 3})), std::vector<double>(6, 1.0));
  EXPECT_EQ(ones({2, 3}).device(), kCuda);
  EXPECT_EQ(to_double_vector(full({5}, 7.0)), std::vector<double>(5, 7.0));
  EXPECT_EQ(to_double_vector(zeros_like(like)), std::vector<double>(12, 0.0));
}

// embedding (and its backward: a scatter-add), nll_loss (forward and
// gradient), arange, tril/triu and cat run as device kernels from their
// lowerings (cat as one copy per input), not through the host fallback, and
// match the CPU.
TEST(EmulatedDevice, GathersIndicesAndCatRunOnTheDevice) {
  emulated();
  OpKernels kernels;
  auto has_kernels = [&](std::string_view name, std::vector<Value> args, std::vector<Tensor> outs) {
    const OpDef& op = op_table().get(name);
    std::vector<PendingOp> pieces = OpKernels::pieces(op, bind_args(op.schema, args, {}, true), outs);
    for (PendingOp& p : pieces)
      if (!kernels.find(p, kCuda)) return false;
    return !pieces.empty();
  };
  auto dev = [](const Tensor& t) { return copy_to_device(t, kCuda); };
  auto out = [](Shape s, DType d = DType::Float32) { return empty_tensor(s, d, kCuda); };

  Tensor w = randn({10, 4}), ids = tensor_from({3, 0, 9, 3, 1, 2}, {2, 3}, DType::Int64);
  EXPECT_TRUE(has_kernels("embedding", {dev(w), dev(ids)}, {out({2, 3, 4})}));
  expect_same(embedding(dev(w), dev(ids)), embedding(w, ids));
  Tensor g = randn({2, 3, 4});  // rows 3 meet; row 2 is the padding row
  EXPECT_TRUE(has_kernels("embedding_dense_backward", {dev(g), dev(ids), int64_t(10), int64_t(2), false},
                          {out({10, 4})}));
  expect_same(embedding_dense_backward(dev(g), dev(ids), 10, 2, false), embedding_dense_backward(g, ids, 10, 2, false));
  expect_same(embedding_dense_backward(dev(g), dev(ids), 10, -1, true), embedding_dense_backward(g, ids, 10, -1, true));

  Tensor logp = log_softmax(randn({6, 5}), 1), cw = rand({5});
  Tensor target = tensor_from({4, 0, -100, 2, 1, 4}, {6}, DType::Int64);
  EXPECT_TRUE(has_kernels("nll_loss_forward", {dev(logp), dev(target), dev(cw), int64_t(1), int64_t(-100)},
                          {out({}), out({})}));
  for (int64_t reduction : {0, 1, 2}) {
    expect_same(nll_loss(dev(logp), dev(target), dev(cw), reduction), nll_loss(logp, target, cw, reduction));
    expect_same(nll_loss(dev(logp), dev(target), Tensor(), reduction), nll_loss(logp, target, Tensor(), reduction));
  }
  Tensor g1 = scalar_tensor(1.5, DType::Float32, false), total = scalar_tensor(2.5, DType::Float32, false);
  EXPECT_TRUE(has_kernels("nll_loss_grad", {dev(g1), dev(target), dev(cw), Shape{6, 5}, int64_t(1), int64_t(-100),
                                            dev(total)},
                          {out({6, 5})}));
  expect_same(nll_loss_grad(dev(g1), dev(target), dev(cw), {6, 5}, 1, -100, dev(total)),
              nll_loss_grad(g1, target, cw, {6, 5}, 1, -100, total));
  Tensor gs = randn({6});
  expect_same(nll_loss_grad(dev(gs), dev(target), Tensor(), {6, 5}, 0, -100, dev(total)),
              nll_loss_grad(gs, target, Tensor(), {6, 5}, 0, -100, total));

  Tensor x = randn({3, 4, 5});
  EXPECT_TRUE(has_kernels("tril", {dev(x), int64_t(1)}, {out({3, 4, 5})}));
  expect_same(tril(dev(x), 1), tril(x, 1));
  expect_same(triu(dev(x), -1), triu(x, -1));

  Tensor a = randn({2, 3}), b = randn({2, 1}), c = tensor_from({1, 2, 3, 4}, {2, 2}, DType::Int64);
  Tensor skipped = empty_tensor({0}, DType::Float32);  // PyTorch's legacy rule: skipped
  EXPECT_TRUE(has_kernels("cat", {std::vector<Tensor>{dev(a), dev(b)}, int64_t(1)}, {out({2, 4})}));
  expect_same(cat({dev(a), dev(b), dev(skipped), dev(c)}, 1), cat({a, b, skipped, c}, 1));
  expect_same(cat({dev(a), dev(a)}, 0), cat({a, a}, 0));

  DeviceScope on(kCuda);
  EXPECT_TRUE(has_kernels("arange.start", {2.0, 11.0, 3.0, Value(), false}, {out({3})}));
  Tensor r = arange(2, 11, 3, DType::Float32);
  EXPECT_EQ(r.device(), kCuda);
  EXPECT_EQ(to_double_vector(r), (std::vector<double>{2, 5, 8}));
  EXPECT_EQ(to_double_vector(arange(0, 5, 1, DType::Int64)), (std::vector<double>{0, 1, 2, 3, 4}));
}

TEST(EmulatedDevice, HostCodeReadingDeviceMemoryFaultsLikeOnAGpu) {
  emulated();
  Tensor d = copy_to_device(randn({8}), kCuda);
  // A SIGSEGV, or (under AddressSanitizer, which catches it) ASan's report of one.
  EXPECT_EXIT((void)*static_cast<volatile float*>(d.raw_data()),
              [](int status) {
                return (WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV) || (WIFEXITED(status) && WEXITSTATUS(status) != 0);
              },
              "");
}

}  // namespace
}  // namespace kiln::jit
