#include "core/ops.h"
#include "tests/core/gradcheck.h"
#include "tests/core/test_util.h"

namespace kiln {
namespace {
using testing::grad_input;

KILN_GRAD_SAMPLE("view", { return {grad_input({2, 3}), Shape{3, 2}}; });
KILN_GRAD_SAMPLE("reshape", { return {grad_input({2, 3}), Shape{-1}}; });
KILN_GRAD_SAMPLE("expand", { return {grad_input({3, 1}), Shape{2, 3, 4}}; });
KILN_GRAD_SAMPLE("contiguous", { return {grad_input({2, 3})}; });

}  // namespace
}  // namespace kiln
