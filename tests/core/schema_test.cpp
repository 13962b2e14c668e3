#include <gtest/gtest.h>

#include "core/dispatch.h"
#include "core/schema.h"
#include "tests/core/test_util.h"

namespace kiln {
namespace {

TEST(Schema, ParsesArgsDefaultsAndKwargOnly) {
  Schema s = parse_schema("sum(Tensor self, int[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor");
  EXPECT_EQ(s.name, "sum");
  ASSERT_EQ(s.args.size(), 4u);
  EXPECT_EQ(s.args[1].type, ArgType::IntList);
  EXPECT_TRUE(s.args[1].optional);
  EXPECT_FALSE(s.args[2].kwarg_only);
  EXPECT_TRUE(s.args[3].kwarg_only);
  EXPECT_TRUE(s.args[2].default_value->is_bool());
  Schema m = parse_schema("max.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)");
  EXPECT_EQ(m.returns.size(), 2u);
}

TEST(Schema, BindCoercesLikePyTorch) {
  Schema s = parse_schema("sum(Tensor self, int[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor");
  std::vector<Value> pos{Value(ones({2, 3})), Value(int64_t(1))};
  auto bound = bind_args(s, pos, {{"keepdim", Value(true)}});
  EXPECT_EQ(bound[1].int_list(), (Shape{1}));  // an int for int[] becomes a list
  EXPECT_TRUE(bound[2].to_bool());
  EXPECT_TRUE(bound[3].is_none());
}

TEST(Schema, BindErrorsNameTheArgument) {
  Schema s = parse_schema("add(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor");
  std::vector<Value> one{Value(ones({2}))};
  EXPECT_KILN_ERROR(bind_args(s, one), "add() missing required argument 'other'");
  std::vector<Value> three{Value(ones({2})), Value(ones({2})), Value(2.0)};
  EXPECT_KILN_ERROR(bind_args(s, three), "add() takes 2 positional arguments but 3 were given");
  std::vector<Value> two{Value(ones({2})), Value(ones({2}))};
  EXPECT_KILN_ERROR(bind_args(s, two, {{"beta", Value(1.0)}}), "add() got an unexpected keyword argument 'beta'");
  std::vector<Value> bad{Value(ones({2})), Value("x")};
  EXPECT_KILN_ERROR(bind_args(s, bad), "argument 'other' must be Tensor, not str");
}

TEST(Schema, CallOpByNameWithKwargs) {
  std::vector<Value> pos{Value(ones({2, 3}))};
  auto out = call_op("sum", pos, {{"dim", Value(Shape{1})}, {"keepdim", Value(true)}});
  EXPECT_TRUE(testing::Near(out[0], {3, 3}, {2, 1}));
}

TEST(OpTable, EveryEntryIsComplete) {
  for (const OpDef* op : op_table().all()) {
    SCOPED_TRACE(op->name());
    if (op->is_inplace()) {
      EXPECT_NE(op->functional, nullptr);
      continue;
    }
    if (op->kind == OpKind::Composite) {
      EXPECT_NE(op->composite, nullptr);
      continue;
    }
    EXPECT_NE(op->kernel, nullptr);
    EXPECT_NE(op->shape, nullptr) << "every kernel op needs a shape function";
    EXPECT_NE(op->dtype, nullptr) << "every kernel op needs a dtype function";
  }
}

}  // namespace
}  // namespace kiln
