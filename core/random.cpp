#include "core/random.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <numbers>
#include <sstream>

#include "core/error.h"

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

namespace {
constexpr size_t kEngineWords = std::mt19937::state_size + 1;  // the words and the position
constexpr size_t kStateWords = 3 + kEngineWords;
}  // namespace

std::vector<int64_t> Generator::save() const {
  std::vector<int64_t> w{int64_t(state_.seed), state_.next_double_normal.has_value(),
                         std::bit_cast<int64_t>(state_.next_double_normal.value_or(0.0))};
  std::stringstream s;
  s << state_.engine;
  for (int64_t v; s >> v;) w.push_back(v);
  return w;
}

void Generator::load(std::span<const int64_t> w) {
  KILN_CHECK(w.size() == kStateWords, Runtime, "set_state: expected a generator state of ", kStateWords,
             " int64 values (from get_state()), got ", w.size());
  // The engine's words are 32-bit and its position at most state_size; a
  // stream would take a negative word as a huge unsigned one.
  const bool words_ok = std::all_of(w.begin() + 3, w.end() - 1, [](int64_t v) { return v >= 0 && v <= UINT32_MAX; });
  const bool pos_ok = w.back() >= 0 && w.back() <= int64_t(std::mt19937::state_size);
  KILN_CHECK(words_ok && pos_ok && (w[1] == 0 || w[1] == 1), Runtime,
             "set_state: the generator state is corrupt (use a value from get_state())");
  std::stringstream s;
  for (size_t i = 3; i < w.size(); ++i) s << w[i] << ' ';
  std::mt19937 engine;
  s >> engine;
  KILN_CHECK(!s.fail(), Runtime, "set_state: the generator state is corrupt (use a value from get_state())");
  state_.engine = engine;
  state_.seed = uint64_t(w[0]);
  state_.next_double_normal.reset();
  if (w[1]) state_.next_double_normal = std::bit_cast<double>(w[2]);
}

Generator& default_generator() {
  static Generator g;
  return g;
}

uint64_t nondeterministic_seed() {
  std::random_device rd;
  uint64_t hi = rd(), lo = rd();
  return ((hi << 32) | lo) & ((uint64_t(1) << 63) - 1);
}

namespace {
thread_local Generator* t_current = nullptr;
}  // namespace

Generator& current_generator() { return t_current ? *t_current : default_generator(); }
GeneratorScope::GeneratorScope(Generator& g) : prev_(t_current) { t_current = &g; }
GeneratorScope::~GeneratorScope() { t_current = prev_; }

}  // namespace kiln
