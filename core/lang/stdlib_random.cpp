// _random: CPython's Mersenne Twister core (seed, random, getrandbits, each
// taking an optional generator handle from new_generator()), on
// which the prelude's `random` module (core/lang/prelude/random.py) builds
// randint, choice, shuffle, gauss, ... as CPython's random.py does. Seeded
// with the same integer, a script draws the same numbers as under CPython.
#include <array>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <deque>
#include <vector>

#include "core/lang/interp.h"
#include "core/lang/objops.h"

namespace kiln::lang {

namespace {

// MT19937 as in CPython's _randommodule.c (Matsumoto and Nishimura's
// reference code): init_genrand, init_by_array and the tempered output.
class Twister {
 public:
  Twister() { seed_words({uint32_t(std::chrono::steady_clock::now().time_since_epoch().count())}); }

  void seed_words(const std::vector<uint32_t>& key) {
    init_genrand(19650218u);
    size_t i = 1, j = 0;
    for (size_t k = std::max(kN, key.size()); k; --k) {
      mt_[i] = (mt_[i] ^ ((mt_[i - 1] ^ (mt_[i - 1] >> 30)) * 1664525u)) + key[j] + uint32_t(j);
      if (++i >= kN) mt_[0] = mt_[kN - 1], i = 1;
      if (++j >= key.size()) j = 0;
    }
    for (size_t k = kN - 1; k; --k) {
      mt_[i] = (mt_[i] ^ ((mt_[i - 1] ^ (mt_[i - 1] >> 30)) * 1566083941u)) - uint32_t(i);
      if (++i >= kN) mt_[0] = mt_[kN - 1], i = 1;
    }
    mt_[0] = 0x80000000u;
  }

  uint32_t next() {
    if (index_ >= kN) twist();
    uint32_t y = mt_[index_++];
    y ^= y >> 11;
    y ^= (y << 7) & 0x9d2c5680u;
    y ^= (y << 15) & 0xefc60000u;
    return y ^ (y >> 18);
  }

  // A double in [0, 1) with 53 random bits, as random.random().
  double real() {
    const uint32_t a = next() >> 5, b = next() >> 6;
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0);
  }

 private:
  // CPython's internal state: the 624 words, then the position in them.
 public:
  std::vector<Obj> words() const {
    std::vector<Obj> out;
    for (uint32_t w : mt_) out.push_back(Obj::from_int(w));
    out.push_back(Obj::from_int(int64_t(index_)));
    return out;
  }
  void set_words(const std::vector<Obj>& items) {
    KILN_CHECK(items.size() == kN + 1, Value, "state vector is the wrong size");
    for (const Obj& w : items) KILN_CHECK(w.is_intlike(), Type, "state vector items must be integers");
    for (size_t i = 0; i < kN; ++i) mt_[i] = uint32_t(items[i].as_int());
    const int64_t index = items[kN].as_int();
    KILN_CHECK(index >= 0 && index <= int64_t(kN), Value, "invalid state");
    index_ = size_t(index);
  }

 private:
  static constexpr size_t kN = 624, kM = 397;

  void init_genrand(uint32_t s) {
    mt_[0] = s;
    for (size_t i = 1; i < kN; ++i) mt_[i] = 1812433253u * (mt_[i - 1] ^ (mt_[i - 1] >> 30)) + uint32_t(i);
    index_ = kN;
  }

  void twist() {
    for (size_t i = 0; i < kN; ++i) {
      const uint32_t y = (mt_[i] & 0x80000000u) | (mt_[(i + 1) % kN] & 0x7fffffffu);
      mt_[i] = mt_[(i + kM) % kN] ^ (y >> 1) ^ ((y & 1u) ? 0x9908b0dfu : 0u);
    }
    index_ = 0;
  }

  std::array<uint32_t, kN> mt_{};
  size_t index_ = kN;
};

// Generator 0 is the module's own (random.seed, random.random, ...); each
// random.Random instance gets another slot from new_generator().
std::deque<Twister>& generators() {
  static std::deque<Twister> all(1);
  return all;
}

// The generator named by the optional argument at `at` (0 when absent).
Twister& twister(const CallArgs& a, size_t at) {
  if (a.pos.size() <= at) return generators()[0];
  KILN_CHECK(a.pos[at].is_intlike(), Type, "_random: generator handle must be an int");
  const int64_t h = a.pos[at].as_int();
  KILN_CHECK(h >= 0 && size_t(h) < generators().size(), Value, "_random: no such generator");
  return generators()[size_t(h)];
}

Obj r_new_generator(Interp&, const CallArgs& a) {
  a.check("new_generator", 0, 0);
  generators().emplace_back();
  return Obj::from_int(int64_t(generators().size() - 1));
}

// seed(a=None): an int seeds with its absolute value's 32-bit words, least
// significant first, as CPython does; None seeds from the clock.
Obj r_seed(Interp&, const CallArgs& a) {
  a.check("seed", 0, 2);
  const Obj v = a.pos.empty() ? Obj::none() : a.pos[0];
  Twister& gen = twister(a, 1);
  if (v.is_none()) {
    gen = Twister();
    return Obj::none();
  }
  int64_t n = 0;
  if (v.is_intlike()) n = v.as_int();
  else if (v.kind() == Kind::Float && std::floor(v.as_number()) == v.as_number() && std::isfinite(v.as_number()))
    n = int64_t(v.as_number());  // hash(2.0) == 2: the same seed as the int
  else
    throw Error("kiln's random.seed() takes None or an integer, not " + type_name(v), ErrorKind::Type);
  uint64_t m = n < 0 ? uint64_t(0) - uint64_t(n) : uint64_t(n);
  std::vector<uint32_t> key;
  do {
    key.push_back(uint32_t(m));
    m >>= 32;
  } while (m);
  gen.seed_words(key);
  return Obj::none();
}

Obj r_random(Interp&, const CallArgs& a) {
  a.check("random", 0, 1);
  return Obj::from_float(twister(a, 0).real());
}

// getrandbits(k): k random bits, 32 at a time, the first draw least
// significant (k <= 63 here: Kiln's int is 64-bit).
Obj r_getrandbits(Interp&, const CallArgs& a) {
  a.check("getrandbits", 1, 2);
  KILN_CHECK(a.pos[0].is_intlike(), Type, "an integer is required");
  const int64_t k = a.pos[0].as_int();
  KILN_CHECK(k >= 0, Value, "number of bits must be non-negative");
  KILN_CHECK(k <= 63, Overflow, "kiln's random.getrandbits() gives at most 63 bits (ints are 64-bit)");
  Twister& gen = twister(a, 1);
  uint64_t r = 0;
  for (int64_t shift = 0, left = k; left > 0; shift += 32, left -= 32) {
    uint64_t w = gen.next();
    if (left < 32) w >>= (32 - left);
    r |= w << shift;
  }
  return Obj::from_int(int64_t(r));
}

}  // namespace

// getstate([gen]) / setstate(words[, gen]): the twister's words as a tuple of
// ints, which the prelude wraps in CPython's (version, words, gauss_next) triple.
Obj r_getstate(Interp&, const CallArgs& a) {
  a.check("getstate", 0, 1);
  return make_tuple(twister(a, 0).words());
}

Obj r_setstate(Interp&, const CallArgs& a) {
  a.check("setstate", 1, 2);
  const TupleObj* t = a.pos[0].as<TupleObj>();
  KILN_CHECK(t, Type, "state vector must be a tuple");
  twister(a, 1).set_words(t->items);
  return Obj::none();
}

Obj make_random_core() {
  Obj m = make<ModuleObj>("_random");
  OrderedMap& at = m.as<ModuleObj>()->attrs;
  auto fn = [&](const char* name, NativeFn f) { at.set(std::string_view(name), make_builtin(name, f)); };
  fn("seed", r_seed);
  fn("random", r_random);
  fn("getrandbits", r_getrandbits);
  fn("new_generator", r_new_generator);
  fn("getstate", r_getstate);
  fn("setstate", r_setstate);
  return m;
}

}  // namespace kiln::lang
