// Names of the event vocabularies and the session's string table.
#include "traces/event.h"

#include <deque>
#include <mutex>
#include <shared_mutex>
#include <type_traits>
#include <unordered_map>

namespace kiln::trace {

// Events are copied into per-thread chunks by plain assignment and written
// to disk field by field; keep them flat.
static_assert(std::is_trivially_copyable_v<Event>);
static_assert(sizeof(Event) <= 128, "Event grew: recording cost scales with its size");

const char* event_kind_name(EventKind k) {
  switch (k) {
#define KILN_EVENT_KIND_NAME(k) \
  case EventKind::k:            \
    return #k;
    KILN_EVENT_KINDS(KILN_EVENT_KIND_NAME)
#undef KILN_EVENT_KIND_NAME
  }
  return "?";
}

const char* category_name(Category c) {
  switch (c) {
#define KILN_CATEGORY_NAME(c) \
  case Category::c:           \
    return #c;
    KILN_EVENT_CATEGORIES(KILN_CATEGORY_NAME)
#undef KILN_CATEGORY_NAME
  }
  return "?";
}

// Strings live in a deque (elements never move, so string_views into them
// stay valid); the map's keys view those same strings.
struct StringTable::Impl {
  mutable std::shared_mutex mu;
  std::deque<std::string> strings;
  std::unordered_map<std::string_view, StrId> ids;
};

StringTable::StringTable() : impl_(new Impl) {
  impl_->strings.emplace_back();
  impl_->ids.emplace(impl_->strings.back(), 0);
}

StringTable::~StringTable() { delete impl_; }

StrId StringTable::intern(std::string_view s) {
  {
    std::shared_lock lock(impl_->mu);
    auto it = impl_->ids.find(s);
    if (it != impl_->ids.end()) return it->second;
  }
  std::unique_lock lock(impl_->mu);
  auto it = impl_->ids.find(s);  // another thread may have won the race
  if (it != impl_->ids.end()) return it->second;
  auto id = static_cast<StrId>(impl_->strings.size());
  impl_->strings.emplace_back(s);
  impl_->ids.emplace(impl_->strings.back(), id);
  return id;
}

std::string_view StringTable::str(StrId id) const {
  std::shared_lock lock(impl_->mu);
  return id < impl_->strings.size() ? std::string_view(impl_->strings[id]) : std::string_view();
}

size_t StringTable::size() const {
  std::shared_lock lock(impl_->mu);
  return impl_->strings.size();
}

}  // namespace kiln::trace
