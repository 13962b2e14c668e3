// CPython iterates a set in the slot order of its hash table, so
// print({3, 1, 2}) shows {1, 2, 3} and list(set(range(9, 0, -1))) comes out
// ascending. Kiln's sets keep insertion order (core/lang/object.h); where
// iteration shows an order, it replays the insertions into a model of
// CPython's table (same hashes, probe sequence and resize rule) and reads the
// slots. Sets holding a value whose CPython hash is randomized or
// identity-based (str, None, objects) keep insertion order: CPython's own
// order for them changes from run to run.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "core/lang/object.h"

namespace kiln::lang {

// CPython's hash of an int, bool, float or tuple of them; nullopt otherwise.
std::optional<int64_t> cpython_hash(const Obj& o);

// The set's items in the order CPython iterates them.
std::vector<Obj> set_items_in_order(const SetObj& s);

// CPython adds a whole set (or dict) at once through a merge that first
// sizes the table for it; recorded before the merged items are inserted.
void note_set_merge(SetObj& s, size_t incoming);
// Whether merging `from` into an empty set copies its table slot for slot
// (CPython does when the sized table is as large as the source's): the copy
// then iterates exactly as `from` does.
bool merge_copies_table(const SetObj& from);

}  // namespace kiln::lang
