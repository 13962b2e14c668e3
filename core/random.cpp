#include "core/random.h"

#include <cmath>
#include <numbers>

namespace kiln {

void Generator::manual_seed(uint64_t seed) {
  state_.engine.seed(uint32_t(seed & 0xffffffffu));
  state_.seed = seed;
  state_.next_double_normal.reset();
}

double Generator::normal_double() {
  if (state_.next_double_normal) {
    double v = *state_.next_double_normal;
    state_.next_double_normal.reset();
    return v;
  }
  double u1 = uniform_double();
  double u2 = uniform_double();
  double r = std::sqrt(-2.0 * std::log1p(-u2));
  double theta = 2.0 * std::numbers::pi * u1;
  state_.next_double_normal = r * std::sin(theta);
  return r * std::cos(theta);
}

Generator& default_generator() {
  static Generator g;
  return g;
}

}  // namespace kiln
