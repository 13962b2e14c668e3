// Random ops against numbers recorded from PyTorch 2.x (CPU) after
// torch.manual_seed: Kiln must reproduce its streams bit for bit.
#include <random>

#include "core/dispatch.h"
#include "core/format.h"
#include "core/op_table.h"
#include "core/ops.h"
#include "core/random.h"
#include "tests/core/gradcheck.h"
#include "tests/core/test_util.h"

namespace kiln {
namespace {
using testing::grad_input;
using testing::T;

// Calls an op by name with keyword arguments, like the VM does.
Tensor Call(const char* name, std::vector<Value> args, const Kwargs& kwargs = {}) {
  return call_op(name, args, kwargs).at(0);
}

// Every element equal to the recorded value once both are rounded to `d`'s precision.
void ExpectExact(const Tensor& got, const std::vector<double>& want, DType d) {
  ASSERT_EQ(got.dtype(), d);
  std::vector<double> g = to_double_vector(got);
  ASSERT_EQ(g.size(), want.size()) << got.str();
  for (size_t i = 0; i < g.size(); ++i) {
    if (d == DType::Float64 || !is_floating(d)) {
      EXPECT_EQ(g[i], want[i]) << "element " << i;
    } else {
      EXPECT_EQ(float(g[i]), float(want[i])) << "element " << i;
    }
  }
}

TEST(Generator, MatchesStdMt19937) {
  Generator g;
  g.manual_seed(123456789012345ULL);  // only the low 32 bits seed the engine
  std::mt19937 ref(uint32_t(123456789012345ULL & 0xffffffffu));
  for (int i = 0; i < 1000; ++i) ASSERT_EQ(g.random(), ref());
  uint64_t hi = ref(), lo = ref();
  EXPECT_EQ(g.random64(), (hi << 32) | lo);
  EXPECT_EQ(g.initial_seed(), 123456789012345ULL);
}

TEST(Generator, DefaultSeed) {
  Generator g;
  std::mt19937 ref(uint32_t(67280421310721ULL & 0xffffffffu));
  EXPECT_EQ(g.random(), ref());
  EXPECT_EQ(g.initial_seed(), 67280421310721ULL);
}

TEST(Generator, StateRoundTrip) {
  manual_seed(3);
  randn({1});  // leaves a cached normal sample in the state
  Generator::State s = default_generator().state();
  std::vector<double> a = to_double_vector(randn({3}));
  default_generator().set_state(s);
  EXPECT_EQ(to_double_vector(randn({3})), a);
  EXPECT_EQ(initial_seed(), 3u);
}

TEST(Rand, Seed0) {
  manual_seed(0);
  ExpectExact(rand({5}), {0.49625659, 0.768221796, 0.0884774327, 0.132030487, 0.307422817}, DType::Float32);
  manual_seed(0);
  ExpectExact(rand({3}, DType::Float64), {0.97005300180655307, 0.70781986439978795, 0.45938294312745087},
              DType::Float64);
}

TEST(Rand, ShapeAndRequiresGrad) {
  EXPECT_EQ(rand({2, 3}).sizes(), (Shape{2, 3}));
  Tensor g = Call("rand", {Shape{2}}, {{"requires_grad", true}});
  EXPECT_TRUE(g.requires_grad());
  EXPECT_TRUE(g.is_leaf());
  for (double v : to_double_vector(rand({1000}))) EXPECT_TRUE(v >= 0 && v < 1);
}

TEST(Randn, SmallUsesCachedBoxMuller) {
  manual_seed(0);
  ExpectExact(randn({3}), {1.54099607, -0.293428898, -2.17878938}, DType::Float32);
  manual_seed(0);
  ExpectExact(randn({4}, DType::Float64),
              {1.5409961082440433, -0.29342890576094638, -2.1787893820745574, 0.56843127728066778},
              DType::Float64);
  // The odd third sample's partner stays cached for the next call.
  manual_seed(0);
  Tensor a = randn({3}), b = randn({2});
  ExpectExact(cat({a, b}), {1.54099607, -0.293428898, -2.17878938, 0.568431258, -1.08452237}, DType::Float32);
}

TEST(Randn, VectorPathFloat) {
  manual_seed(0);
  ExpectExact(randn({20}),
              {-1.12583983, -1.1523602, -0.250578582, -0.433878809, 0.598839462, -1.55509508, -0.34136039,
               1.85300612, 0.468096405, -0.157712445, 1.44366014, 0.266049415, 1.38936615, 1.58633423,
               0.946298361, -0.843676746, 0.931826591, 1.25900924, 2.00498056, 0.0537369028},
              DType::Float32);
}

TEST(Randn, VectorPathDoubleAndHalf) {
  manual_seed(0);
  ExpectExact(randn({18}, DType::Float64),
              {-2.310411800234176, -0.3732508612577643, -1.2609246557194385, -0.72695106206541105,
               -0.019964750907762653, 0.2102998901016947, 0.17718935139366584, -0.83051005100844899,
               0.23871805816817063, 0.73352836852728409, -0.77301127729581809, -1.5951814880783068,
               -0.68700369404354633, 1.4880743158106724, -0.44841580471145109, -0.89100303517073753,
               0.67485754359400385, 1.0468653769814655},
              DType::Float64);
  manual_seed(0);
  ExpectExact(randn({17}, DType::Float16),
              {-1.12597656, -1.35253906, -1.69628906, 0.566894531, 0.793457031, 0.598632812, -1.5546875,
               -0.341308594, 1.85253906, 0.75, -0.585449219, -0.173339844, 0.18347168, 1.38964844, 1.5859375,
               0.946289062, -0.84375},
              DType::Float16);
}

TEST(Randn, Statistics) {
  manual_seed(7);
  Tensor x = randn({100000}, DType::Float64);
  std::vector<double> v = to_double_vector(x);
  double m = 0, s = 0;
  for (double e : v) m += e;
  m /= double(v.size());
  for (double e : v) s += (e - m) * (e - m);
  s = std::sqrt(s / double(v.size() - 1));
  EXPECT_NEAR(m, 0, 0.01);
  EXPECT_NEAR(s, 1, 0.01);
}

TEST(Randint, Seed0) {
  manual_seed(0);
  ExpectExact(randint(0, 10, {8}), {4, 9, 3, 0, 3, 9, 7, 3}, DType::Int64);
  manual_seed(0);  // a range of 2^41 takes 64-bit draws
  ExpectExact(randint(-(int64_t(1) << 40), int64_t(1) << 40, {3}), {-358231004625, -593374360384, 291447657211},
              DType::Int64);
  manual_seed(0);
  ExpectExact(randint(-3, 3, {2, 3}, DType::Int32), {-1, 0, 2, -3, -2, 0}, DType::Int32);
  Tensor h = Call("randint", {int64_t(5), Shape{4}});  // randint(high, size)
  EXPECT_EQ(h.dtype(), DType::Int64);
  for (double v : to_double_vector(h)) EXPECT_TRUE(v >= 0 && v < 5);
}

TEST(Randint, Errors) {
  EXPECT_KILN_ERROR(randint(5, 5, {3}), "random_ expects 'from' to be less than 'to', but got from=5 >= to=5");
  EXPECT_KILN_ERROR(randint(0, int64_t(1) << 40, {3}, DType::Int32), "to - 1 is out of bounds for int");
  EXPECT_KILN_ERROR(Call("randint", {int64_t(5), Shape{3}}, {{"requires_grad", true}}),
                    "Only Tensors of floating point and complex dtype can require gradients");
  EXPECT_KILN_ERROR(rand({3}, DType::Int64), "\"check_uniform_bounds\" not implemented for 'Long'");
  EXPECT_KILN_ERROR(randn({3}, DType::Int64), "\"normal_kernel_cpu\" not implemented for 'Long'");
}

TEST(InPlace, UniformNormalExponential) {
  manual_seed(1);
  Tensor u = empty({4});
  uniform_(u, -2, 3);
  ExpectExact(u, {1.78815794, -0.60344559, 0.0153462887, 1.67342234}, DType::Float32);
  manual_seed(1);
  Tensor n = empty({3}, DType::Float64);
  normal_(n, 1, 0.5);
  ExpectExact(n, {1.330676085785226, 1.1334620491462595, 1.0308386291186742}, DType::Float64);
  manual_seed(1);
  Tensor e = empty({4});
  exponential_(e, 2.0);
  ExpectExact(e, {0.0314982682, 0.127158791, 0.133451402, 0.0974598303}, DType::Float32);
}

TEST(InPlace, NonContiguousSelfDrawsInMemoryOrder) {
  manual_seed(1);
  Tensor x = empty({4, 5});
  Tensor xt = transpose(x, 0, 1);
  normal_(xt);
  ExpectExact(x,
              {0.661352158, 0.266924113, 0.0616772585, 0.621317327, -0.451905966, -0.16613023, -1.5227685,
               0.381683916, -1.02760863, -0.563052773, -0.892290533, -0.0582501777, -0.195509583, -0.965635955,
               0.422415316, 0.267316997, -0.421195149, -0.510699987, -1.57266521, -0.123247758},
              DType::Float32);
}

TEST(InPlace, Errors) {
  Tensor x = empty({3});
  EXPECT_KILN_ERROR(normal_(x, 0, -1), "normal expects std >= 0.0, but found std -1");
  EXPECT_KILN_ERROR(uniform_(x, 2, 1), "uniform_ expects to return a [from, to) range, but found from=2 > to=1");
  EXPECT_KILN_ERROR(exponential_(x, 0), "exponential_ expects lambda > 0.0, but found lambda=0");
  Tensor leaf = zeros({3}).requires_grad_(true);
  EXPECT_KILN_ERROR(normal_(leaf), "a leaf Variable that requires grad is being used in an in-place operation.");
}

TEST(Bernoulli, ScalarAndTensorP) {
  manual_seed(2);
  ExpectExact(bernoulli(empty({10}), 0.3), {0, 1, 0, 0, 0, 0, 1, 1, 0, 0}, DType::Float32);
  manual_seed(2);
  ExpectExact(bernoulli(T({0.1, 0.5, 0.9, 0.3, 0.7})), {0, 1, 1, 0, 0}, DType::Float32);
  EXPECT_KILN_ERROR(bernoulli(empty({3}), 1.5), "bernoulli_ expects p to be in [0, 1], but got p=1.5");
  EXPECT_KILN_ERROR(bernoulli(T({0.5, 1.5})), "Expected p_in >= 0 && p_in <= 1 to be true, but got false.");
}

TEST(Dropout, MaskScaleAndMemoryOrder) {
  manual_seed(0);
  ExpectExact(dropout(arange(1, 11, 1, DType::Float32), 0.3),
              {0, 0, 4.28571415, 0, 7.14285755, 0, 10, 11.4285717, 12.8571434, 14.2857151}, DType::Float32);
  // A transposed input draws its noise in memory order (empty_like keeps strides).
  manual_seed(0);
  Tensor xt = transpose(reshape(arange(1, 13, 1, DType::Float32), {3, 4}), 0, 1);
  ExpectExact(dropout(xt, 0.3),
              {0, 7.14285755, 12.8571434, 0, 0, 14.2857151, 4.28571415, 10, 15.7142859, 0, 11.4285717, 17.1428566},
              DType::Float32);
}

TEST(Dropout, IdentityZerosAndGrad) {
  Tensor x = T({1, 2, 3});
  EXPECT_TRUE(dropout(x, 0.5, false).is_same(x));
  EXPECT_TRUE(dropout(x, 0.0).is_same(x));
  EXPECT_TRUE(testing::Near(dropout(x, 1.0), {0, 0, 0}, {3}));
  EXPECT_KILN_ERROR(dropout(x, 1.5), "dropout probability has to be between 0 and 1, but got 1.5");
  manual_seed(0);
  Tensor leaf = arange(1, 5, 1, DType::Float32).requires_grad_(true);
  Tensor y = dropout(leaf, 0.5);
  EXPECT_TRUE(testing::Near(y, {0, 0, 6, 0}, {4}));
  EXPECT_EQ(format_tensor(y), "tensor([0., 0., 6., 0.], grad_fn=<MulBackward0>)");
  sum(y).backward();
  EXPECT_TRUE(testing::Near(leaf.grad(), {0, 0, 2, 0}, {4}));
}

TEST(Multinomial, WithoutReplacementUsesExponentialTrick) {
  Tensor p = T({0.1, 0.2, 0.3, 0.4, 0.05, 0.5, 0.25, 0.2}, {2, 4});
  manual_seed(0);
  ExpectExact(multinomial(p, 1), {2, 2}, DType::Int64);
  manual_seed(0);
  ExpectExact(multinomial(p, 3), {2, 1, 3, 2, 3, 1}, DType::Int64);
  manual_seed(5);
  ExpectExact(multinomial(T({1, 2, 3, 4, 5, 6, 7}, {7}, DType::Float64), 5), {4, 3, 6, 2, 1}, DType::Int64);
  // Zero probabilities tie at p / q = 0; PyTorch's topk order among them is reproduced.
  manual_seed(0);
  ExpectExact(multinomial(T({0.5, 0, 0.5, 0, 0, 0, 0}), 5), {2, 0, 5, 3, 6}, DType::Int64);
  manual_seed(1);
  ExpectExact(multinomial(T({0.5, 0, 0.5, 0, 0, 0, 0}), 5), {0, 2, 5, 3, 6}, DType::Int64);
  Tensor m = multinomial(p, 4);
  EXPECT_EQ(m.sizes(), (Shape{2, 4}));
}

TEST(Multinomial, WithReplacementInverseCdf) {
  Tensor p = T({0.1, 0.2, 0.3, 0.4, 0.05, 0.5, 0.25, 0.2}, {2, 4});
  manual_seed(0);
  ExpectExact(multinomial(p, 6, true), {3, 3, 2, 3, 3, 3, 1, 1, 2, 1, 1, 1}, DType::Int64);
  // Never picks a zero-probability category.
  manual_seed(1);
  for (double v : to_double_vector(multinomial(T({0, 1, 0, 1}), 100, true))) EXPECT_TRUE(v == 1 || v == 3);
}

TEST(Multinomial, Errors) {
  EXPECT_KILN_ERROR(multinomial(T({1, 2}, {2}, DType::Int64), 1),
                    "multinomial only supports floating-point dtypes for input, got: Long");
  EXPECT_KILN_ERROR(multinomial(T({1, 2}), 3), "cannot sample n_sample > prob_dist.size(-1) samples without replacement");
  EXPECT_KILN_ERROR(multinomial(T({1, -2}), 1), "probability tensor contains either `inf`, `nan` or element < 0");
  EXPECT_KILN_ERROR(multinomial(T({1, -2}), 2, true), "invalid multinomial distribution (encountering probability entry < 0)");
  EXPECT_KILN_ERROR(multinomial(T({0, 0}), 1), "invalid multinomial distribution (sum of probabilities <= 0)");
  EXPECT_KILN_ERROR(multinomial(T({1, 2}), 0), "cannot sample n_sample <= 0 samples");
  EXPECT_KILN_ERROR(multinomial(ones({2, 2, 2}), 1), "prob_dist must be 1 or 2 dim");
  EXPECT_KILN_ERROR(multinomial(ones({(int64_t(1) << 24) + 1}), 1), "number of categories cannot exceed 2^24");
}

TEST(RandomOps, KindAndLikeForms) {
  for (const char* name : {"rand", "randn", "randint", "randint.low", "multinomial", "bernoulli.p", "rand_like"})
    EXPECT_EQ(op_table().get(name).kind, OpKind::Random) << name;
  EXPECT_EQ(op_table().get("dropout").kind, OpKind::Composite);
  Tensor like = empty({2, 3}, DType::Float64);
  EXPECT_EQ(rand_like(like).dtype(), DType::Float64);
  EXPECT_EQ(randn_like(like, DType::Float32).dtype(), DType::Float32);
  EXPECT_EQ(randn_like(like).sizes(), (Shape{2, 3}));
}

// Gradcheck samples. Random draws cannot be differentiated by finite
// differences (each evaluation draws anew), so the samples pick parameters
// that make the draw deterministic: dropout's identity and all-zero cases
// (its random path is checked in Dropout.IdentityZerosAndGrad), and for the
// in-place fills a degenerate distribution written into a non-leaf self,
// whose gradient through the overwrite is zero either way.
Tensor inplace_self() {
  Tensor s = mul(grad_input({3}), 1.0);
  s.retain_grad();
  return s;
}
KILN_GRAD_SAMPLE("dropout", { return {grad_input({2, 3}), 0.5, false}; });
KILN_GRAD_SAMPLE("dropout", { return {grad_input({2, 3}), 1.0, true}; });
KILN_GRAD_SAMPLE("normal_", { return {inplace_self(), 0.5, 0.0}; });
KILN_GRAD_SAMPLE("uniform_", { return {inplace_self(), 0.25, 0.25}; });
KILN_GRAD_SAMPLE("exponential_", { return {inplace_self(), double(INFINITY)}; });
KILN_GRAD_SAMPLE("bernoulli_.float", { return {inplace_self(), 1.0}; });
KILN_GRAD_SAMPLE("random_.from", { return {inplace_self(), int64_t(2), int64_t(3)}; });
KILN_GRAD_SAMPLE("random_.to", { return {inplace_self(), int64_t(1)}; });
// std 0: the draw is multiplied away and the mean's gradient is exact.
KILN_GRAD_SAMPLE("normal.Tensor_Tensor", { return {grad_input({3}), zeros({3}, DType::Float64)}; });
KILN_GRAD_SAMPLE("normal.Tensor_float", { return {grad_input({3}), 0.0}; });

// randperm: PyTorch 2.x and 1.13 after torch.manual_seed(0).
TEST(Randperm, MatchesPyTorch) {
  manual_seed(0);
  ExpectExact(Call("randperm", {int64_t(10)}), {4, 1, 7, 5, 3, 9, 0, 8, 6, 2}, DType::Int64);
  ExpectExact(Call("randperm", {int64_t(6)}, {{"dtype", DType::Float32}}), {3, 2, 4, 0, 5, 1}, DType::Float32);
  EXPECT_EQ(Call("randperm", {int64_t(0)}).numel(), 0);
  EXPECT_THROW(Call("randperm", {int64_t(-1)}), Error);
  EXPECT_THROW(Call("randperm", {int64_t(3)}, {{"dtype", DType::Bool}}), Error);
}

// A generator's state survives save/load exactly, the cached normal included.
TEST(Generator, SaveLoadRoundTrip) {
  Generator g;
  g.manual_seed(7);
  g.normal_double();  // leaves the second Box-Muller sample cached
  std::vector<int64_t> words = g.save();
  double next = g.normal_double();
  uint32_t after = g.random();
  Generator h;
  h.load(words);
  EXPECT_EQ(h.initial_seed(), 7u);
  EXPECT_EQ(h.normal_double(), next);
  EXPECT_EQ(h.random(), after);
}

TEST(Generator, LoadRejectsCorruptState) {
  Generator g;
  std::vector<int64_t> words = g.save();
  Generator h;
  EXPECT_THROW(h.load(std::span(words).first(10)), Error);
  std::vector<int64_t> bad = words;
  bad[5] = -5;  // not a 32-bit engine word
  EXPECT_THROW(h.load(bad), Error);
  bad = words;
  bad.back() = 10000;  // past the engine's state
  EXPECT_THROW(h.load(bad), Error);
}

// generator=: a scope redirects the draws and leaves the default stream alone.
TEST(Generator, ScopeRedirectsDraws) {
  manual_seed(3);
  Tensor expect = rand({4});
  manual_seed(3);
  Generator mine;
  mine.manual_seed(99);
  Tensor other;
  {
    GeneratorScope scope(mine);
    other = rand({4});
  }
  EXPECT_TRUE(equal(rand({4}), expect));
  Generator again;
  again.manual_seed(99);
  GeneratorScope scope(again);
  EXPECT_TRUE(equal(rand({4}), other));
}

TEST(Normal, FormsShapesAndChecks) {
  Tensor m = zeros({2, 1}), s = ones({3});
  EXPECT_EQ(Call("normal", {m, s}).sizes(), (Shape{2, 3}));
  EXPECT_EQ(Call("normal", {m, 2.0}).sizes(), (Shape{2, 1}));
  EXPECT_EQ(Call("normal", {1.0, s}).sizes(), (Shape{3}));
  Tensor f = Call("normal", {1.0, 2.0, Shape{4, 2}}, {{"dtype", DType::Float64}});
  EXPECT_EQ(f.sizes(), (Shape{4, 2}));
  EXPECT_EQ(f.dtype(), DType::Float64);
  EXPECT_THROW(Call("normal", {m, neg(s)}), Error);
  // N(mean, 0) is the mean.
  EXPECT_TRUE(equal(Call("normal", {full({3}, 2.5), zeros({3})}), full({3}, 2.5)));
}

}  // namespace
}  // namespace kiln
