// The default CPU random generator, reproducing PyTorch's CPUGeneratorImpl
// stream bit for bit: an mt19937 seeded with the low 32 bits of the seed,
// 32- and 64-bit draws, the uniform transforms of ATen's distributions and
// the cached second Box-Muller sample of normal_distribution<double>.
#pragma once

#include <cstdint>
#include <mutex>
#include <optional>
#include <random>

namespace kiln {

class Generator {
 public:
  // PyTorch's default_rng_seed_val, used until manual_seed is called.
  static constexpr uint64_t kDefaultSeed = 67280421310721ULL;

  // A snapshot for torch.get_rng_state / set_rng_state (opaque to callers).
  struct State {
    std::mt19937 engine;
    uint64_t seed = kDefaultSeed;
    std::optional<double> next_double_normal;
  };

  Generator() { manual_seed(kDefaultSeed); }
  void manual_seed(uint64_t seed);
  uint64_t initial_seed() const { return state_.seed; }
  State state() const { return state_; }
  void set_state(const State& s) { state_ = s; }

  uint32_t random() { return uint32_t(state_.engine()); }
  // Two draws: the first is the high word.
  uint64_t random64() {
    uint64_t hi = random();
    return (hi << 32) | random();
  }
  // ATen's uniform_real<T>(0, 1): the low `digits` bits scaled by 2^-digits,
  // from random64() for double and random() for every narrower type.
  double uniform_double() { return double(random64() & ((uint64_t(1) << 53) - 1)) * 0x1p-53; }
  float uniform_float(int digits = 24) {
    return float(random() & ((uint32_t(1) << digits) - 1)) * (1.0f / float(uint32_t(1) << digits));
  }
  // at::normal_distribution<double>(0, 1): Box-Muller on two uniform doubles,
  // caching the sine branch for the next call.
  double normal_double();

  // Kernels hold this while drawing so concurrent ops see disjoint streams.
  std::mutex& mutex() { return mutex_; }

 private:
  State state_;
  std::mutex mutex_;
};

// torch.default_generator.
Generator& default_generator();

}  // namespace kiln
