// Tensor printing against strings recorded from PyTorch 2.x repr() with
// default print options, and format_double against Python's float repr.
#include <cmath>

#include "core/autograd.h"
#include "core/format.h"
#include "core/ops.h"
#include "tests/core/test_util.h"

namespace kiln {
namespace {

struct FormatCase {
  const char* name;
  std::vector<double> values;  // empty: the pattern below, times scale
  double scale;
  int offset;
  Shape shape;
  DType dtype;
  const char* expected;
};

// ((i * 37) % 101 - 50 + offset) / 7 * scale: spread, signed, reproducible in Python.
std::vector<double> pattern(int64_t n, double scale, int offset) {
  std::vector<double> v(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) v[size_t(i)] = double((i * 37) % 101 - 50 + offset) / 7 * scale;
  return v;
}

std::vector<double> iota(int64_t n, double start = 0) {
  std::vector<double> v(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) v[size_t(i)] = start + double(i);
  return v;
}

const FormatCase kCases[] = {
    {"basic", {1.0, 2.0, 3.0}, 0, 0, {3}, DType::Float32,
     "tensor([1., 2., 3.])"},
    {"frac", {0.10000000149011612, 0.20000000298023224}, 0, 0, {2}, DType::Float32,
     "tensor([0.1000, 0.2000])"},
    {"sci", {9.999999747378752e-06, 1000.0}, 0, 0, {2}, DType::Float32,
     "tensor([1.0000e-05, 1.0000e+03])"},
    {"ints", {1, 2, 3}, 0, 0, {3}, DType::Int64,
     "tensor([1, 2, 3])"},
    {"neg_ints", {-10, 2, 300}, 0, 0, {3}, DType::Int64,
     "tensor([-10,   2, 300])"},
    {"bools", {1, 0}, 0, 0, {2}, DType::Bool,
     "tensor([ True, False])"},
    {"bools_true", {1, 1}, 0, 0, {2}, DType::Bool,
     "tensor([True, True])"},
    {"mat", {1.5, -2.25, 3.0, 4.0, 5.125, -6.0}, 0, 0, {2, 3}, DType::Float32,
     "tensor([[ 1.5000, -2.2500,  3.0000],\n"
      "        [ 4.0000,  5.1250, -6.0000]])"},
    {"cube", {-5.5, -4.5, -3.5, -2.5, -1.5, -0.5, 0.5, 1.5, 2.5, 3.5, 4.5, 5.5}, 0, 0, {2, 2, 3}, DType::Float32,
     "tensor([[[-5.5000, -4.5000, -3.5000],\n"
      "         [-2.5000, -1.5000, -0.5000]],\n"
      "\n"
      "        [[ 0.5000,  1.5000,  2.5000],\n"
      "         [ 3.5000,  4.5000,  5.5000]]])"},
    {"hyper", {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}, 0, 0, {2, 2, 2, 2}, DType::Int64,
     "tensor([[[[ 0,  1],\n"
      "          [ 2,  3]],\n"
      "\n"
      "         [[ 4,  5],\n"
      "          [ 6,  7]]],\n"
      "\n"
      "\n"
      "        [[[ 8,  9],\n"
      "          [10, 11]],\n"
      "\n"
      "         [[12, 13],\n"
      "          [14, 15]]]])"},
    {"f64", {1.5, 2.0}, 0, 0, {2}, DType::Float64,
     "tensor([1.5000, 2.0000], dtype=torch.float64)"},
    {"i32", {1, 2}, 0, 0, {2}, DType::Int32,
     "tensor([1, 2], dtype=torch.int32)"},
    {"f16", {0.0999755859375, 0.199951171875}, 0, 0, {2}, DType::Float16,
     "tensor([0.1000, 0.2000], dtype=torch.float16)"},
    {"bf16", {1.5, -3.0}, 0, 0, {2}, DType::BFloat16,
     "tensor([ 1.5000, -3.0000], dtype=torch.bfloat16)"},
    {"scalar", {3.5}, 0, 0, {}, DType::Float32,
     "tensor(3.5000)"},
    {"scalar_int_mode", {3.0}, 0, 0, {}, DType::Float32,
     "tensor(3.)"},
    {"scalar_long", {3}, 0, 0, {}, DType::Int64,
     "tensor(3)"},
    {"scalar_bool", {1}, 0, 0, {}, DType::Bool,
     "tensor(True)"},
    {"scalar_f64", {-0.125}, 0, 0, {}, DType::Float64,
     "tensor(-0.1250, dtype=torch.float64)"},
    {"scalar_tiny", {1.0000000116860974e-07}, 0, 0, {}, DType::Float32,
     "tensor(1.0000e-07)"},
    {"empty", {}, 0, 0, {0}, DType::Float32,
     "tensor([])"},
    {"empty2", {}, 0, 0, {0, 3}, DType::Float32,
     "tensor([], size=(0, 3))"},
    {"empty_long", {}, 0, 0, {0}, DType::Int64,
     "tensor([], dtype=torch.int64)"},
    {"empty3_f64", {}, 0, 0, {2, 0, 3}, DType::Float64,
     "tensor([], size=(2, 0, 3), dtype=torch.float64)"},
    {"nonfinite", {NAN, INFINITY, -INFINITY, 1.5}, 0, 0, {4}, DType::Float32,
     "tensor([   nan,    inf,   -inf, 1.5000])"},
    {"nonfinite_int", {NAN, 1.0, 2.0}, 0, 0, {3}, DType::Float32,
     "tensor([nan, 1., 2.])"},
    {"only_nonfinite", {INFINITY, -INFINITY}, 0, 0, {2}, DType::Float32,
     "tensor([inf, -inf])"},
    {"nonfinite_sci", {NAN, 9.999999974752427e-07, 1.0}, 0, 0, {3}, DType::Float32,
     "tensor([       nan, 1.0000e-06, 1.0000e+00])"},
    {"zeros", {0.0, 0.0, 0.0}, 0, 0, {3}, DType::Float32,
     "tensor([0., 0., 0.])"},
    {"zeros_ints", {0, 0, 0}, 0, 0, {3}, DType::Int64,
     "tensor([0, 0, 0])"},
    {"int_sci", {1.0, 1000000000.0}, 0, 0, {2}, DType::Float32,
     "tensor([1.0000e+00, 1.0000e+09])"},
    {"int_ratio", {1.0, 2000.0}, 0, 0, {2}, DType::Float32,
     "tensor([1.0000e+00, 2.0000e+03])"},
    {"big_float", {150000000.0, 1.0}, 0, 0, {2}, DType::Float32,
     "tensor([1.5000e+08, 1.0000e+00])"},
    {"negzero", {-0.0, 1.0}, 0, 0, {2}, DType::Float32,
     "tensor([-0., 1.])"},
    {"negzero_frac", {-0.0, 1.5}, 0, 0, {2}, DType::Float32,
     "tensor([-0.0000, 1.5000])"},
    {"precision", {123.456787109375, 0.0004999900120310485, 1.0}, 0, 0, {3}, DType::Float32,
     "tensor([1.2346e+02, 4.9999e-04, 1.0000e+00])"},
    {"wrap", {}, 1.0, 0, {30}, DType::Float32,
     "tensor([-7.1429, -1.8571,  3.4286, -5.7143, -0.4286,  4.8571, -4.2857,  1.0000,\n"
      "         6.2857, -2.8571,  2.4286, -6.7143, -1.4286,  3.8571, -5.2857,  0.0000,\n"
      "         5.2857, -3.8571,  1.4286,  6.7143, -2.4286,  2.8571, -6.2857, -1.0000,\n"
      "         4.2857, -4.8571,  0.4286,  5.7143, -3.4286,  1.8571])"},
    {"wrap_int_mode", {0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0, 17.0, 18.0, 19.0, 20.0, 21.0, 22.0, 23.0, 24.0, 25.0, 26.0, 27.0, 28.0, 29.0, 30.0, 31.0, 32.0, 33.0, 34.0, 35.0, 36.0, 37.0, 38.0, 39.0}, 0, 0, {40}, DType::Float32,
     "tensor([ 0.,  1.,  2.,  3.,  4.,  5.,  6.,  7.,  8.,  9., 10., 11., 12., 13.,\n"
      "        14., 15., 16., 17., 18., 19., 20., 21., 22., 23., 24., 25., 26., 27.,\n"
      "        28., 29., 30., 31., 32., 33., 34., 35., 36., 37., 38., 39.])"},
    {"wrap_ints", {100000, 100001, 100002, 100003, 100004, 100005, 100006, 100007, 100008, 100009, 100010, 100011, 100012, 100013, 100014, 100015, 100016, 100017, 100018, 100019, 100020, 100021, 100022, 100023, 100024, 100025, 100026, 100027, 100028, 100029, 100030, 100031, 100032, 100033, 100034, 100035, 100036, 100037, 100038, 100039}, 0, 0, {40}, DType::Int64,
     "tensor([100000, 100001, 100002, 100003, 100004, 100005, 100006, 100007, 100008,\n"
      "        100009, 100010, 100011, 100012, 100013, 100014, 100015, 100016, 100017,\n"
      "        100018, 100019, 100020, 100021, 100022, 100023, 100024, 100025, 100026,\n"
      "        100027, 100028, 100029, 100030, 100031, 100032, 100033, 100034, 100035,\n"
      "        100036, 100037, 100038, 100039])"},
    {"wrap_rows", {}, 1.0, 0, {3, 20}, DType::Float32,
     "tensor([[-7.1429, -1.8571,  3.4286, -5.7143, -0.4286,  4.8571, -4.2857,  1.0000,\n"
      "          6.2857, -2.8571,  2.4286, -6.7143, -1.4286,  3.8571, -5.2857,  0.0000,\n"
      "          5.2857, -3.8571,  1.4286,  6.7143],\n"
      "        [-2.4286,  2.8571, -6.2857, -1.0000,  4.2857, -4.8571,  0.4286,  5.7143,\n"
      "         -3.4286,  1.8571,  7.1429, -2.0000,  3.2857, -5.8571, -0.5714,  4.7143,\n"
      "         -4.4286,  0.8571,  6.1429, -3.0000],\n"
      "        [ 2.2857, -6.8571, -1.5714,  3.7143, -5.4286, -0.1429,  5.1429, -4.0000,\n"
      "          1.2857,  6.5714, -2.5714,  2.7143, -6.4286, -1.1429,  4.1429, -5.0000,\n"
      "          0.2857,  5.5714, -3.5714,  1.7143]])"},
    {"wrap_sci", {}, 1e-06, 0, {20}, DType::Float32,
     "tensor([-7.1429e-06, -1.8571e-06,  3.4286e-06, -5.7143e-06, -4.2857e-07,\n"
      "         4.8571e-06, -4.2857e-06,  1.0000e-06,  6.2857e-06, -2.8571e-06,\n"
      "         2.4286e-06, -6.7143e-06, -1.4286e-06,  3.8571e-06, -5.2857e-06,\n"
      "         0.0000e+00,  5.2857e-06, -3.8571e-06,  1.4286e-06,  6.7143e-06])"},
    {"sum2", {}, 1.0, 0, {40, 40}, DType::Float32,
     "tensor([[-7.1429, -1.8571,  3.4286,  ...,  0.8571,  6.1429, -3.0000],\n"
      "        [ 2.2857, -6.8571, -1.5714,  ..., -4.1429,  1.1429,  6.4286],\n"
      "        [-2.7143,  2.5714, -6.5714,  ...,  5.2857, -3.8571,  1.4286],\n"
      "        ...,\n"
      "        [-4.5714,  0.7143,  6.0000,  ...,  3.4286, -5.7143, -0.4286],\n"
      "        [ 4.8571, -4.2857,  1.0000,  ..., -1.5714,  3.7143, -5.4286],\n"
      "        [-0.1429,  5.1429, -4.0000,  ..., -6.5714, -1.2857,  4.0000]])"},
    {"sum_sci", {}, 100000.0, 0, {2000}, DType::Float32,
     "tensor([-714285.6875, -185714.2812,  342857.1562,  ...,  114285.7109,\n"
      "         642857.1250, -271428.5625])"},
    {"sum_wide", {}, 1.0, 0, {3, 400}, DType::Float32,
     "tensor([[-7.1429, -1.8571,  3.4286,  ..., -0.8571,  4.4286, -4.7143],\n"
      "        [ 0.5714,  5.8571, -3.2857,  ...,  6.8571, -2.2857,  3.0000],\n"
      "        [-6.1429, -0.8571,  4.4286,  ...,  0.1429,  5.4286, -3.7143]])"},
    {"mixed_width", {1, -1000, 25, 3}, 0, 0, {2, 2}, DType::Int64,
     "tensor([[    1, -1000],\n"
      "        [   25,     3]])"},
    {"col_align", {0.5, 10.25, -100.125, 2.0}, 0, 0, {2, 2}, DType::Float32,
     "tensor([[   0.5000,   10.2500],\n"
      "        [-100.1250,    2.0000]])"},
    {"f64_long_suffix", {}, 1.0, 0, {2, 7}, DType::Float64,
     "tensor([[-7.1429, -1.8571,  3.4286, -5.7143, -0.4286,  4.8571, -4.2857],\n"
      "        [ 1.0000,  6.2857, -2.8571,  2.4286, -6.7143, -1.4286,  3.8571]],\n"
      "       dtype=torch.float64)"},
    {"sum4", {}, 1.0, 0, {8, 2, 3, 30}, DType::Float32,
     "tensor([[[[-7.1429, -1.8571,  3.4286,  ...,  5.7143, -3.4286,  1.8571],\n"
      "          [ 7.1429, -2.0000,  3.2857,  ...,  5.5714, -3.5714,  1.7143],\n"
      "          [ 7.0000, -2.1429,  3.1429,  ...,  5.4286, -3.7143,  1.5714]],\n"
      "\n"
      "         [[ 6.8571, -2.2857,  3.0000,  ...,  5.2857, -3.8571,  1.4286],\n"
      "          [ 6.7143, -2.4286,  2.8571,  ...,  5.1429, -4.0000,  1.2857],\n"
      "          [ 6.5714, -2.5714,  2.7143,  ...,  5.0000, -4.1429,  1.1429]]],\n"
      "\n"
      "\n"
      "        [[[ 6.4286, -2.7143,  2.5714,  ...,  4.8571, -4.2857,  1.0000],\n"
      "          [ 6.2857, -2.8571,  2.4286,  ...,  4.7143, -4.4286,  0.8571],\n"
      "          [ 6.1429, -3.0000,  2.2857,  ...,  4.5714, -4.5714,  0.7143]],\n"
      "\n"
      "         [[ 6.0000, -3.1429,  2.1429,  ...,  4.4286, -4.7143,  0.5714],\n"
      "          [ 5.8571, -3.2857,  2.0000,  ...,  4.2857, -4.8571,  0.4286],\n"
      "          [ 5.7143, -3.4286,  1.8571,  ...,  4.1429, -5.0000,  0.2857]]],\n"
      "\n"
      "\n"
      "        [[[ 5.5714, -3.5714,  1.7143,  ...,  4.0000, -5.1429,  0.1429],\n"
      "          [ 5.4286, -3.7143,  1.5714,  ...,  3.8571, -5.2857,  0.0000],\n"
      "          [ 5.2857, -3.8571,  1.4286,  ...,  3.7143, -5.4286, -0.1429]],\n"
      "\n"
      "         [[ 5.1429, -4.0000,  1.2857,  ...,  3.5714, -5.5714, -0.2857],\n"
      "          [ 5.0000, -4.1429,  1.1429,  ...,  3.4286, -5.7143, -0.4286],\n"
      "          [ 4.8571, -4.2857,  1.0000,  ...,  3.2857, -5.8571, -0.5714]]],\n"
      "\n"
      "\n"
      "        ...,\n"
      "\n"
      "\n"
      "        [[[ 3.0000, -6.1429, -0.8571,  ...,  1.4286,  6.7143, -2.4286],\n"
      "          [ 2.8571, -6.2857, -1.0000,  ...,  1.2857,  6.5714, -2.5714],\n"
      "          [ 2.7143, -6.4286, -1.1429,  ...,  1.1429,  6.4286, -2.7143]],\n"
      "\n"
      "         [[ 2.5714, -6.5714, -1.2857,  ...,  1.0000,  6.2857, -2.8571],\n"
      "          [ 2.4286, -6.7143, -1.4286,  ...,  0.8571,  6.1429, -3.0000],\n"
      "          [ 2.2857, -6.8571, -1.5714,  ...,  0.7143,  6.0000, -3.1429]]],\n"
      "\n"
      "\n"
      "        [[[ 2.1429, -7.0000, -1.7143,  ...,  0.5714,  5.8571, -3.2857],\n"
      "          [ 2.0000, -7.1429, -1.8571,  ...,  0.4286,  5.7143, -3.4286],\n"
      "          [ 1.8571,  7.1429, -2.0000,  ...,  0.2857,  5.5714, -3.5714]],\n"
      "\n"
      "         [[ 1.7143,  7.0000, -2.1429,  ...,  0.1429,  5.4286, -3.7143],\n"
      "          [ 1.5714,  6.8571, -2.2857,  ...,  0.0000,  5.2857, -3.8571],\n"
      "          [ 1.4286,  6.7143, -2.4286,  ..., -0.1429,  5.1429, -4.0000]]],\n"
      "\n"
      "\n"
      "        [[[ 1.2857,  6.5714, -2.5714,  ..., -0.2857,  5.0000, -4.1429],\n"
      "          [ 1.1429,  6.4286, -2.7143,  ..., -0.4286,  4.8571, -4.2857],\n"
      "          [ 1.0000,  6.2857, -2.8571,  ..., -0.5714,  4.7143, -4.4286]],\n"
      "\n"
      "         [[ 0.8571,  6.1429, -3.0000,  ..., -0.7143,  4.5714, -4.5714],\n"
      "          [ 0.7143,  6.0000, -3.1429,  ..., -0.8571,  4.4286, -4.7143],\n"
      "          [ 0.5714,  5.8571, -3.2857,  ..., -1.0000,  4.2857, -4.8571]]]])"},
    {"sum_pos", {}, 1.0, 51, {1200}, DType::Float32,
     "tensor([ 0.1429,  5.4286, 10.7143,  ...,  7.4286, 12.7143,  3.5714])"},
    {"wrap_f64", {}, 0.001, 0, {3, 9}, DType::Float64,
     "tensor([[-0.0071, -0.0019,  0.0034, -0.0057, -0.0004,  0.0049, -0.0043,  0.0010,\n"
      "          0.0063],\n"
      "        [-0.0029,  0.0024, -0.0067, -0.0014,  0.0039, -0.0053,  0.0000,  0.0053,\n"
      "         -0.0039],\n"
      "        [ 0.0014,  0.0067, -0.0024,  0.0029, -0.0063, -0.0010,  0.0043, -0.0049,\n"
      "          0.0004]], dtype=torch.float64)"},
    {"halves", {0.5, 1.5, 2.5, 4.999999873689376e-05, 0.0001500000071246177}, 0, 0, {5}, DType::Float32,
     "tensor([5.0000e-01, 1.5000e+00, 2.5000e+00, 5.0000e-05, 1.5000e-04])"},
};

TEST(FormatTensor, MatchesPyTorchRepr) {
  for (const FormatCase& c : kCases) {
    std::vector<double> v = c.values.empty() ? pattern(shape_numel(c.shape), c.scale, c.offset) : c.values;
    Tensor t = tensor_from(v, c.shape, c.dtype);
    EXPECT_EQ(format_tensor(t), c.expected) << c.name;
    EXPECT_EQ(t.str(), c.expected) << c.name;
  }
}

TEST(FormatTensor, Wrapping) {
  EXPECT_EQ(format_tensor(tensor_from(iota(40), {40}, DType::Float32)),
            "tensor([ 0.,  1.,  2.,  3.,  4.,  5.,  6.,  7.,  8.,  9., 10., 11., 12., 13.,\n"
      "        14., 15., 16., 17., 18., 19., 20., 21., 22., 23., 24., 25., 26., 27.,\n"
      "        28., 29., 30., 31., 32., 33., 34., 35., 36., 37., 38., 39.])");
  EXPECT_EQ(format_tensor(tensor_from(iota(40, 100000), {40}, DType::Int64)),
            "tensor([100000, 100001, 100002, 100003, 100004, 100005, 100006, 100007, 100008,\n"
      "        100009, 100010, 100011, 100012, 100013, 100014, 100015, 100016, 100017,\n"
      "        100018, 100019, 100020, 100021, 100022, 100023, 100024, 100025, 100026,\n"
      "        100027, 100028, 100029, 100030, 100031, 100032, 100033, 100034, 100035,\n"
      "        100036, 100037, 100038, 100039])");
}

TEST(FormatTensor, Summarized) {
  EXPECT_EQ(format_tensor(tensor_from(iota(2000), {2000}, DType::Float32)),
            "tensor([0.0000e+00, 1.0000e+00, 2.0000e+00,  ..., 1.9970e+03, 1.9980e+03,\n"
      "        1.9990e+03])");
  EXPECT_EQ(format_tensor(tensor_from(iota(1001), {1001}, DType::Int64)),
            "tensor([   0,    1,    2,  ...,  998,  999, 1000])");
  std::vector<double> b = iota(1500);
  for (double& x : b) x = std::fmod(x, 3) == 0;
  EXPECT_EQ(format_tensor(tensor_from(b, {1500}, DType::Bool)),
            "tensor([ True, False, False,  ...,  True, False, False])");
  EXPECT_EQ(format_tensor(tensor_from(iota(2000), {10, 10, 20}, DType::Int64)),
            "tensor([[[   0,    1,    2,  ...,   17,   18,   19],\n"
      "         [  20,   21,   22,  ...,   37,   38,   39],\n"
      "         [  40,   41,   42,  ...,   57,   58,   59],\n"
      "         ...,\n"
      "         [ 140,  141,  142,  ...,  157,  158,  159],\n"
      "         [ 160,  161,  162,  ...,  177,  178,  179],\n"
      "         [ 180,  181,  182,  ...,  197,  198,  199]],\n"
      "\n"
      "        [[ 200,  201,  202,  ...,  217,  218,  219],\n"
      "         [ 220,  221,  222,  ...,  237,  238,  239],\n"
      "         [ 240,  241,  242,  ...,  257,  258,  259],\n"
      "         ...,\n"
      "         [ 340,  341,  342,  ...,  357,  358,  359],\n"
      "         [ 360,  361,  362,  ...,  377,  378,  379],\n"
      "         [ 380,  381,  382,  ...,  397,  398,  399]],\n"
      "\n"
      "        [[ 400,  401,  402,  ...,  417,  418,  419],\n"
      "         [ 420,  421,  422,  ...,  437,  438,  439],\n"
      "         [ 440,  441,  442,  ...,  457,  458,  459],\n"
      "         ...,\n"
      "         [ 540,  541,  542,  ...,  557,  558,  559],\n"
      "         [ 560,  561,  562,  ...,  577,  578,  579],\n"
      "         [ 580,  581,  582,  ...,  597,  598,  599]],\n"
      "\n"
      "        ...,\n"
      "\n"
      "        [[1400, 1401, 1402,  ..., 1417, 1418, 1419],\n"
      "         [1420, 1421, 1422,  ..., 1437, 1438, 1439],\n"
      "         [1440, 1441, 1442,  ..., 1457, 1458, 1459],\n"
      "         ...,\n"
      "         [1540, 1541, 1542,  ..., 1557, 1558, 1559],\n"
      "         [1560, 1561, 1562,  ..., 1577, 1578, 1579],\n"
      "         [1580, 1581, 1582,  ..., 1597, 1598, 1599]],\n"
      "\n"
      "        [[1600, 1601, 1602,  ..., 1617, 1618, 1619],\n"
      "         [1620, 1621, 1622,  ..., 1637, 1638, 1639],\n"
      "         [1640, 1641, 1642,  ..., 1657, 1658, 1659],\n"
      "         ...,\n"
      "         [1740, 1741, 1742,  ..., 1757, 1758, 1759],\n"
      "         [1760, 1761, 1762,  ..., 1777, 1778, 1779],\n"
      "         [1780, 1781, 1782,  ..., 1797, 1798, 1799]],\n"
      "\n"
      "        [[1800, 1801, 1802,  ..., 1817, 1818, 1819],\n"
      "         [1820, 1821, 1822,  ..., 1837, 1838, 1839],\n"
      "         [1840, 1841, 1842,  ..., 1857, 1858, 1859],\n"
      "         ...,\n"
      "         [1940, 1941, 1942,  ..., 1957, 1958, 1959],\n"
      "         [1960, 1961, 1962,  ..., 1977, 1978, 1979],\n"
      "         [1980, 1981, 1982,  ..., 1997, 1998, 1999]]])");
  // Exactly at the threshold: printed in full.
  EXPECT_EQ(format_tensor(tensor_from(iota(1000), {1000}, DType::Int64)).find("..."), std::string::npos);
}

TEST(FormatTensor, ExactInt64) {
  Tensor t = empty({2}, DType::Int64);
  t.data<int64_t>()[0] = (int64_t(1) << 62) + 1;
  t.data<int64_t>()[1] = -5;
  EXPECT_EQ(format_tensor(t), "tensor([4611686018427387905,                  -5])");
}

TEST(FormatTensor, NonContiguous) {
  Tensor t = transpose(tensor_from(iota(6), {2, 3}, DType::Int64), 0, 1);
  EXPECT_EQ(format_tensor(t), "tensor([[0, 3],\n        [1, 4],\n        [2, 5]])");
}

TEST(FormatTensor, SeededRandn) {
  manual_seed(0);
  EXPECT_EQ(format_tensor(randn({2, 3})),
            "tensor([[ 1.5410, -0.2934, -2.1788],\n"
      "        [ 0.5684, -1.0845, -1.3986]])");
}

TEST(FormatTensor, GradSuffixes) {
  Tensor x = tensor_from({1, 2}, {2}, DType::Float32).requires_grad_(true);
  EXPECT_EQ(format_tensor(x), "tensor([1., 2.], requires_grad=True)");
  EXPECT_EQ(format_tensor(add(x, 1.0)), "tensor([2., 3.], grad_fn=<AddBackward0>)");
  EXPECT_EQ(format_tensor(sum(mul(x, x))), "tensor(5., grad_fn=<SumBackward0>)");
  EXPECT_EQ(format_tensor(mean(x)), "tensor(1.5000, grad_fn=<MeanBackward0>)");
  EXPECT_EQ(format_tensor(log1p(x)), "tensor([0.6931, 1.0986], grad_fn=<Log1PBackward0>)");
  EXPECT_EQ(format_tensor(to_dtype(x, DType::Float64)),
            "tensor([1., 2.], dtype=torch.float64, grad_fn=<ToCopyBackward0>)");
  EXPECT_EQ(format_tensor(max(x)), "tensor(2., grad_fn=<MaxBackward1>)");
  Tensor m = tensor_from({1, 2, 3, 4}, {2, 2}, DType::Float64).requires_grad_(true);
  EXPECT_EQ(format_tensor(m), "tensor([[1., 2.],\n        [3., 4.]], dtype=torch.float64, requires_grad=True)");
  // sum(dim) is SumBackward1 (told apart by its non-scalar result: a 1-D
  // input summed over dim 0 reads as SumBackward0, unlike PyTorch).
  EXPECT_EQ(format_tensor(sum(m, Shape{0})), "tensor([4., 6.], dtype=torch.float64, grad_fn=<SumBackward1>)");
  EXPECT_EQ(format_tensor(zeros({0}).requires_grad_(true)), "tensor([], requires_grad=True)");
  {
    NoGradGuard ng;
    EXPECT_EQ(format_tensor(add(x, 1.0)), "tensor([2., 3.])");
  }
}

TEST(FormatTensor, SuffixWrapsPastLineWidth) {
  Tensor t = tensor_from(pattern(14, 1.0, 0), {2, 7}, DType::Float64).requires_grad_(true);
  EXPECT_EQ(format_tensor(t),
            "tensor([[-7.1429, -1.8571,  3.4286, -5.7143, -0.4286,  4.8571, -4.2857],\n"
            "        [ 1.0000,  6.2857, -2.8571,  2.4286, -6.7143, -1.4286,  3.8571]],\n"
            "       dtype=torch.float64, requires_grad=True)");
}

struct DoubleCase {
  double value;
  const char* expected;
};
const DoubleCase kDoubles[] = {
    {0.1, "0.1"},
    {1e-05, "1e-05"},
    {1e+16, "1e+16"},
    {1.0, "1.0"},
    {123456789.0, "123456789.0"},
    {9999999999999998.0, "9999999999999998.0"},
    {0.0001, "0.0001"},
    {0.00012345, "0.00012345"},
    {-0.0, "-0.0"},
    {1.5e+300, "1.5e+300"},
    {5e-324, "5e-324"},
    {2.5, "2.5"},
    {100.0, "100.0"},
    {1000000000000000.0, "1000000000000000.0"},
    {1.7976931348623157e+308, "1.7976931348623157e+308"},
    {0.30000000000000004, "0.30000000000000004"},
    {-2.5e-07, "-2.5e-07"},
    {1234.5678, "1234.5678"},
    {1e+22, "1e+22"},
    {1.2345678901234568e+17, "1.2345678901234568e+17"},
    {0.5, "0.5"},
    {3e-05, "3e-05"},
};

TEST(FormatDouble, MatchesPythonRepr) {
  for (const DoubleCase& c : kDoubles) EXPECT_EQ(format_double(c.value), c.expected) << c.expected;
  EXPECT_EQ(format_double(INFINITY), "inf");
  EXPECT_EQ(format_double(-INFINITY), "-inf");
  EXPECT_EQ(format_double(NAN), "nan");
  EXPECT_EQ(format_double(-NAN), "nan");
}

// torch.set_printoptions: each option changes every later repr; the strings
// are PyTorch 2.x's for the same options (its sci_mode sets the width too).
TEST(FormatTensor, PrintOptions) {
  const PrintOptions saved = print_options();
  Tensor x = tensor_from({1.23456789, 2.0, 1e-5}, {3}, DType::Float32);
  Tensor y = tensor_from({1.5, -2.25, 3.0, 4.125}, {2, 2}, DType::Float32);
  print_options().precision = 2;
  EXPECT_EQ(format_tensor(x), "tensor([1.23e+00, 2.00e+00, 1.00e-05])");
  print_options().sci_mode = 0;
  EXPECT_EQ(format_tensor(x), "tensor([1.23, 2.00, 0.00])");
  print_options().sci_mode = 1;
  EXPECT_EQ(format_tensor(y), "tensor([[ 1.50e+00, -2.25e+00],\n        [ 3.00e+00,  4.12e+00]])");
  EXPECT_EQ(format_tensor(tensor_from({0.0}, {1}, DType::Float32)), "tensor([0.])");
  print_options() = PrintOptions{};
  print_options().threshold = 5;
  print_options().edgeitems = 2;
  EXPECT_EQ(format_tensor(tensor_from(iota(10), {10}, DType::Int64)), "tensor([0, 1,  ..., 8, 9])");
  print_options() = PrintOptions{};
  print_options().linewidth = 30;
  EXPECT_EQ(format_tensor(tensor_from(iota(8), {8}, DType::Float32)),
            "tensor([0., 1., 2., 3., 4.,\n        5., 6., 7.])");
  print_options() = saved;
}

}  // namespace
}  // namespace kiln
