#include "core/lang/set_order.h"

#include <cmath>

namespace kiln::lang {
namespace {

// Numbers hash to their value modulo the Mersenne prime 2^61 - 1, so that
// equal ints, floats and bools hash equally (Python's documented rule).
constexpr uint64_t kModulus = (uint64_t(1) << 61) - 1;

int64_t signed_hash(bool negative, uint64_t magnitude) {
  int64_t h = negative ? -int64_t(magnitude) : int64_t(magnitude);
  return h == -1 ? -2 : h;
}

int64_t hash_int(int64_t v) {
  uint64_t mag = v < 0 ? uint64_t(0) - uint64_t(v) : uint64_t(v);
  return signed_hash(v < 0, mag % kModulus);
}

// x = m * 2^e with m a 53-bit integer: m * 2^e mod P, where 2^61 = 1 (mod P)
// makes 2^e = 2^(e mod 61).
std::optional<int64_t> hash_float(double x) {
  if (std::isnan(x)) return std::nullopt;  // CPython hashes NaN by identity
  if (std::isinf(x)) return x > 0 ? 314159 : -314159;
  int exp = 0;
  double frac = std::frexp(std::fabs(x), &exp);
  uint64_t m = uint64_t(std::ldexp(frac, 53));
  int e = exp - 53;
  int shift = ((e % 61) + 61) % 61;
  unsigned __int128 h = (unsigned __int128)(m % kModulus) << shift;
  return signed_hash(x < 0, uint64_t(h % kModulus));
}

// The tuple hash of CPython 3.8+ (an xxHash-style combination of the items').
std::optional<int64_t> hash_tuple(const std::vector<Obj>& items) {
  constexpr uint64_t kP1 = 11400714785074694791ull, kP2 = 14029467366897019727ull, kP5 = 2870177450012600261ull;
  uint64_t acc = kP5;
  for (const Obj& x : items) {
    std::optional<int64_t> lane = cpython_hash(x);
    if (!lane) return std::nullopt;
    acc += uint64_t(*lane) * kP2;
    acc = (acc << 31) | (acc >> 33);
    acc *= kP1;
  }
  acc += uint64_t(items.size()) ^ (kP5 ^ 3527539ull);
  return acc == ~uint64_t(0) ? 1546275796 : int64_t(acc);
}

// CPython's set table: open addressing, each probe a run of up to ten
// adjacent slots, then a jump driven by the hash's higher bits.
class TableModel {
 public:
  explicit TableModel(size_t n) : hashes_(n) {}
  void set_hash(size_t id, uint64_t h) { hashes_[id] = h; }
  void add(size_t id) {
    place(slots_, id);
    ++fill_;
    ++used_;
    if (fill_ * 5 >= mask() * 3) resize(used_ > 50000 ? used_ * 2 : used_ * 4);
  }
  void merge(size_t incoming) {
    if ((fill_ + incoming) * 5 >= mask() * 3) resize((used_ + incoming) * 2);
  }
  size_t size() const { return slots_.size(); }
  std::vector<size_t> order() const {
    std::vector<size_t> ids;
    for (int64_t s : slots_)
      if (s >= 0) ids.push_back(size_t(s));
    return ids;
  }

 private:
  size_t mask() const { return slots_.size() - 1; }
  void place(std::vector<int64_t>& table, size_t id) const {
    const size_t m = table.size() - 1;
    uint64_t perturb = hashes_[id];
    size_t i = size_t(hashes_[id]) & m;
    for (;;) {
      const size_t run = i + 9 <= m ? 9 : 0;
      for (size_t j = 0; j <= run; ++j)
        if (table[i + j] < 0) {
          table[i + j] = int64_t(id);
          return;
        }
      perturb >>= 5;
      i = (i * 5 + 1 + size_t(perturb)) & m;
    }
  }
  void resize(size_t min_used) {
    size_t n = 8;
    while (n <= min_used) n <<= 1;
    std::vector<int64_t> table(n, -1);
    for (int64_t s : slots_)
      if (s >= 0) place(table, size_t(s));
    slots_ = std::move(table);
    fill_ = used_;
  }

  std::vector<uint64_t> hashes_;
  std::vector<int64_t> slots_ = std::vector<int64_t>(8, -1);
  size_t fill_ = 0, used_ = 0;
};

}  // namespace

std::optional<int64_t> cpython_hash(const Obj& o) {
  switch (o.kind()) {
    case Kind::Bool:
    case Kind::Int: return hash_int(o.as_int());
    case Kind::Float: return hash_float(o.as_float());
    case Kind::Tuple: return hash_tuple(o.as<TupleObj>()->items);
    default: return std::nullopt;
  }
}

namespace {

// The set's table rebuilt from its insertions; nullopt when an item has no
// reproducible CPython hash.
std::optional<TableModel> replay(const SetObj& s, const std::vector<Obj>& items) {
  TableModel table(items.size());
  for (size_t i = 0; i < items.size(); ++i) {
    std::optional<int64_t> h = cpython_hash(items[i]);
    if (!h) return std::nullopt;
    table.set_hash(i, uint64_t(*h));
  }
  size_t next_merge = 0;
  for (size_t i = 0; i < items.size(); ++i) {
    for (; next_merge < s.merges.size() && s.merges[next_merge].first <= i; ++next_merge)
      table.merge(s.merges[next_merge].second);
    table.add(i);
  }
  return table;
}

std::vector<Obj> live_items(const SetObj& s) {
  std::vector<Obj> items;
  items.reserve(s.map.size());
  s.map.for_each([&](const Obj& k, const Obj&) { items.push_back(k); });
  return items;
}

}  // namespace

std::vector<Obj> set_items_in_order(const SetObj& s) {
  std::vector<Obj> items = live_items(s);
  std::optional<TableModel> table = replay(s, items);
  if (!table) return items;
  std::vector<Obj> ordered;
  ordered.reserve(items.size());
  for (size_t id : table->order()) ordered.push_back(items[id]);
  return ordered;
}

bool merge_copies_table(const SetObj& from) {
  std::optional<TableModel> table = replay(from, live_items(from));
  if (!table) return false;
  const size_t n = from.map.size();
  size_t target = 8;
  if (n * 5 >= 7 * 3)
    while (target <= 2 * n) target <<= 1;
  return table->size() == target;
}

void note_set_merge(SetObj& s, size_t incoming) { s.merges.emplace_back(uint32_t(s.map.size()), uint32_t(incoming)); }

}  // namespace kiln::lang
