// Fusion for a device (jit/fusion.h with `device`), and the emulated device
// running the result: host scalars become kernel parameters instead of host
// pointers a GPU kernel would fault on; nodes whose tensors live elsewhere
// stay eager.
#include <gtest/gtest.h>

#include "core/ops.h"
#include "core/random.h"
#include "jit/emulated_device.h"
#include "jit/fused_runner.h"
#include "jit/fusion.h"

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

PendingOp pending(std::string_view name, std::vector<Value> positional, std::vector<Tensor> outs) {
  const OpDef& op = op_table().get(name);
  return {&op, bind_args(op.schema, positional, {}, /*all_positional=*/true), std::move(outs), 0};
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
  runner->prepare(k, kCuda);
  ASSERT_TRUE(runner->launch(p.kernels[0], ops));
  std::vector<double> got = to_double_vector(y), in = to_double_vector(x);
  for (size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], std::tanh(0.5 * in[i]), 1e-6);
  // The parameter is read at each launch: a new value needs no new kernel.
  *static_cast<double*>(half.raw_data()) = 2.0;
  ASSERT_TRUE(runner->launch(p.kernels[0], ops));
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

TEST(EmulatedDevice, HostCodeReadingDeviceMemoryFaultsLikeOnAGpu) {
  emulated();
  Tensor d = copy_to_device(randn({8}), kCuda);
  EXPECT_EXIT((void)*static_cast<volatile float*>(d.raw_data()), ::testing::KilledBySignal(SIGSEGV), "");
}

}  // namespace
}  // namespace kiln::jit
