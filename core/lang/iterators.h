// Iterators over the built-in kinds, and the adapters that let builtins such
// as zip, map and enumerate consume any iterable (user classes with __iter__
// / __next__ included). Each is an IteratorObj; `iter(o)` in objops.cpp picks one.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "core/lang/object.h"

namespace kiln::lang {

class Interp;

Obj make_range_iter(int64_t start, int64_t step, int64_t count);
// list, tuple or str, front to back (a list may grow while iterated, as in Python).
Obj make_seq_iter(Obj seq);
// list, tuple, str or range, back to front (reversed()).
Obj make_reversed_iter(Interp& in, Obj seq);
Obj make_dict_iter(Obj dict, DictIterKind what);
Obj make_set_iter(Obj set);
// Instances: `obj` is what __iter__ returned (its __next__ is called), or, for
// classes with only __getitem__, the object itself indexed 0, 1, ... until IndexError.
Obj make_user_iter(Obj obj);
Obj make_getitem_iter(Obj obj);
// zip / enumerate / map / filter take iterators (results of iter()).
Obj make_zip_iter(std::vector<Obj> iters);
Obj make_enumerate_iter(Obj it, int64_t start);
Obj make_map_iter(Obj fn, std::vector<Obj> iters);
Obj make_filter_iter(Obj fn, Obj it);

// The next item of an iterator returned by iter(); false when exhausted.
bool iter_next(Interp& in, const Obj& it, Obj& out);

// UTF-8 helpers shared by str iteration, indexing and len.
size_t utf8_count(std::string_view s);
// Byte offsets of each code point (plus the end) for non-ASCII strings.
std::vector<size_t> utf8_offsets(std::string_view s);
// The code points of a (valid) UTF-8 string.
std::vector<uint32_t> utf8_code_points(std::string_view s);

}  // namespace kiln::lang
