// The real CUDA backend (jit/cuda_device.cpp). Without a GPU only the
// "unavailable" behaviour runs; every test that needs a device is skipped
// with GTEST_SKIP, which CTest reports as skipped by name (not passed).
#include <gtest/gtest.h>

#include <cmath>

#include "core/device.h"
#include "core/ops.h"
#include "core/random.h"
#include "jit/cuda_device.h"

namespace kiln::jit {
namespace {

// One backend for the process, installed into core like `kiln` does.
DeviceBackend& backend() {
  static std::unique_ptr<DeviceBackend> b = [] {
    auto made = make_cuda_backend();
    set_cuda_backend(made.get());
    return made;
  }();
  return *b;
}

#define NEED_GPU()                                                                 \
  do {                                                                             \
    if (!backend().available()) GTEST_SKIP() << "no CUDA device: " << backend().unavailable_reason(); \
  } while (0)

const Device kCuda{DeviceType::CUDA, 0};

void expect_close(const Tensor& gpu, const Tensor& cpu, double tol) {
  std::vector<double> a = to_double_vector(gpu), b = to_double_vector(cpu);
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) EXPECT_NEAR(a[i], b[i], tol * (1 + std::abs(b[i]))) << "element " << i;
}

TEST(CudaDevice, WithoutADeviceItSaysWhy) {
  if (backend().available()) GTEST_SKIP() << "this machine has a CUDA device";
  EXPECT_EQ(backend().device_count(), 0);
  EXPECT_NE(backend().unavailable_reason().find("NVIDIA"), std::string::npos) << backend().unavailable_reason();
  try {
    empty_tensor({4}, DType::Float32, kCuda);
    ADD_FAILURE() << "allocated on a missing device";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("NVIDIA driver"), std::string::npos) << e.what();
  }
}

TEST(CudaDevice, CopiesRoundTrip) {
  NEED_GPU();
  Tensor x = randn({1000, 37});
  Tensor back = copy_to_device(copy_to_device(x, kCuda), Device{});
  expect_close(back, x, 0);
}

TEST(CudaDevice, LargeCopiesGoThroughBothStagingBuffers) {
  NEED_GPU();
  Tensor x = randn({5, 1 << 20});  // 20 MiB: three 8 MiB chunks, both buffers reused
  Tensor back = copy_to_device(copy_to_device(x, kCuda), Device{});
  expect_close(back, x, 0);
}

TEST(CudaDevice, PointwiseKernelMatchesTheCpu) {
  NEED_GPU();
  Tensor x = randn({257, 33}), y = randn({33});
  Tensor got = add(mul(copy_to_device(x, kCuda), copy_to_device(y, kCuda)), copy_to_device(x, kCuda));
  EXPECT_EQ(got.device(), kCuda);
  expect_close(got, add(mul(x, y), x), 1e-6);
}

TEST(CudaDevice, RowKernelMatchesTheCpu) {
  NEED_GPU();
  Tensor x = randn({64, 1000});
  expect_close(softmax(copy_to_device(x, kCuda), -1), softmax(x, -1), 1e-5);
}

TEST(CudaDevice, MatmulThroughCublasMatchesTheCpu) {
  NEED_GPU();
  Tensor a = randn({65, 130}), b = randn({130, 31});
  expect_close(mm(copy_to_device(a, kCuda), copy_to_device(b, kCuda)), mm(a, b), 1e-4);
  // A transposed operand goes to cuBLAS as such, not through a copy.
  expect_close(mm(copy_to_device(a, kCuda), t(copy_to_device(contiguous(t(b)), kCuda))), mm(a, b), 1e-4);
}

TEST(CudaDevice, BatchedMatmulThroughCublasMatchesTheCpu) {
  NEED_GPU();
  Tensor a = randn({3, 17, 40}), b = randn({3, 40, 9});
  expect_close(bmm(copy_to_device(a, kCuda), copy_to_device(b, kCuda)), bmm(a, b), 1e-4);
  Tensor bt = transpose(copy_to_device(contiguous(transpose(b, 1, 2)), kCuda), 1, 2);  // columns contiguous
  expect_close(bmm(copy_to_device(a, kCuda), bt), bmm(a, b), 1e-4);
}

TEST(CudaDevice, MemoryStatsFollowAllocations) {
  NEED_GPU();
  auto allocated = [] {
    for (auto& [k, v] : backend().memory_stats(0))
      if (k == "allocated_bytes.all.current") return v;
    return -1.0;
  };
  double before = allocated();
  {
    Tensor big = empty_tensor({1 << 20}, DType::Float32, kCuda);
    EXPECT_GE(allocated() - before, double(4 << 20));
  }
  EXPECT_EQ(allocated(), before);
}

}  // namespace
}  // namespace kiln::jit
