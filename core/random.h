// The default CPU random generator, reproducing PyTorch's CPUGeneratorImpl
// stream bit for bit: an mt19937 seeded with the low 32 bits of the seed,
// 32- and 64-bit draws, the uniform transforms of ATen's distributions and
// the cached second Box-Muller sample of normal_distribution<double>.
#pragma once

#include <cstdint>
#include <mutex>
#include <optional>
#include <random>
#include <span>
#include <vector>

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
  // The state as int64 words, for torch.Generator objects and
  // torch.get_rng_state: the seed, the cached normal (a flag and its bits),
  // then the engine's 624 words and position.
  std::vector<int64_t> save() const;
  // Throws kiln::Error (naming get_state as the source) on words save() did not write.
  void load(std::span<const int64_t> words);

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

// A nondeterministic 63-bit seed (torch.seed(), Generator.seed()).
uint64_t nondeterministic_seed();

// The generator random ops draw from: a torch.Generator passed as
// `generator=` for the duration of that call, else the default one.
Generator& current_generator();
class GeneratorScope {
 public:
  explicit GeneratorScope(Generator& g);
  ~GeneratorScope();
  GeneratorScope(const GeneratorScope&) = delete;
  GeneratorScope& operator=(const GeneratorScope&) = delete;

 private:
  Generator* prev_;
};

}  // namespace kiln
