// _re: the matcher under prelude/re.py. Patterns arrive already rewritten
// into ECMAScript syntax (re.py drops group names and maps \A, \Z and DOTALL),
// and std::regex runs them. Match positions go back as code-point offsets,
// as Python's str indexes count them.
#include <map>
#include <regex>
#include <string>
#include <utility>
#include <vector>

#include "core/lang/builtins.h"
#include "core/lang/interp.h"
#include "core/lang/objops.h"

namespace kiln::lang {

namespace {

constexpr int64_t kIgnoreCase = 2, kMultiline = 8;

// Compiling is the slow part and scripts reuse a few patterns: they are kept.
const std::regex& compiled(Interp& in, const std::string& pattern, int64_t flags) {
  static std::map<std::pair<std::string, int64_t>, std::regex> cache;
  auto key = std::make_pair(pattern, flags);
  if (auto it = cache.find(key); it != cache.end()) return it->second;
  auto syntax = std::regex::ECMAScript;
  if (flags & kIgnoreCase) syntax |= std::regex::icase;
  if (flags & kMultiline) syntax |= std::regex::multiline;
  try {
    return cache.emplace(key, std::regex(pattern, syntax)).first->second;
  } catch (const std::regex_error& e) {
    raise_exception(in, find_builtin_class(in, "ValueError"), {make_str(std::string("bad pattern: ") + e.what())});
  }
}

// Byte offset -> code-point offset (identity for ASCII strings).
std::vector<int64_t> code_points(const std::string& s) {
  std::vector<int64_t> at(s.size() + 1);
  int64_t cp = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    at[i] = cp;
    if ((static_cast<unsigned char>(s[i]) & 0xC0) != 0x80) ++cp;
    else at[i] = cp - 1;
  }
  at[s.size()] = cp;
  return at;
}

// Code-point offset -> byte offset.
size_t byte_offset(const std::string& s, int64_t cp) {
  size_t i = 0;
  for (int64_t n = 0; i < s.size(); ++i) {
    if ((static_cast<unsigned char>(s[i]) & 0xC0) != 0x80) {
      if (n == cp) return i;
      ++n;
    }
  }
  return s.size();
}

// The matches of one scan (see re_scan's modes), appended to out.
template <class Spans>
void scan_into(std::vector<Obj>& out, std::smatch& m, std::string::const_iterator first,
               std::string::const_iterator last, const std::regex& re, std::regex_constants::match_flag_type base,
               int64_t mode, int64_t limit, const Spans& spans) {
  if (mode == 1) {
    if (std::regex_search(first, last, m, re, base | std::regex_constants::match_continuous)) out.push_back(spans(m));
  } else if (mode == 2) {
    if (std::regex_match(first, last, m, re, base)) out.push_back(spans(m));
  } else {
    for (std::sregex_iterator it(first, last, re, base), stop; it != stop; ++it) {
      out.push_back(spans(*it));
      if (limit > 0 && int64_t(out.size()) >= limit) break;
    }
  }
}

// scan(pattern, flags, string, pos, endpos, mode, limit): the matches as
// tuples of (start, end) per group, (-1, -1) for a group that took no part.
// mode 0 finds every match from pos on (up to limit when limit > 0), 1 only
// one starting at pos, 2 only one spanning pos..endpos.
Obj re_scan(Interp& in, const CallArgs& a) {
  a.check("scan", 7, 7);
  const std::string& pattern = str_of(a.pos[0], "pattern");
  int64_t flags = a.pos[1].as_int();
  const std::string& s = str_of(a.pos[2], "string");
  size_t pos = byte_offset(s, a.pos[3].as_int()), end = byte_offset(s, a.pos[4].as_int());
  int64_t mode = a.pos[5].as_int(), limit = a.pos[6].as_int();
  const std::regex& re = compiled(in, pattern, flags);
  std::vector<int64_t> cp = code_points(s);
  auto spans = [&](const std::smatch& m) {
    std::vector<Obj> groups;
    for (size_t g = 0; g < m.size(); ++g) {
      int64_t b = -1, e = -1;
      if (m[g].matched) {
        b = cp[size_t(m[g].first - s.begin())];
        e = cp[size_t(m[g].second - s.begin())];
      }
      groups.push_back(make_tuple({Obj::from_int(b), Obj::from_int(e)}));
    }
    return make_tuple(std::move(groups));
  };
  auto first = s.begin() + std::ptrdiff_t(std::min(pos, end)), last = s.begin() + std::ptrdiff_t(end);
  auto base = pos > 0 ? std::regex_constants::match_prev_avail : std::regex_constants::match_default;
  std::vector<Obj> out;
  std::smatch m;
  try {
    scan_into(out, m, first, last, re, base, mode, limit, spans);
  } catch (const std::regex_error& e) {  // the matcher's own limits (complexity, stack)
    raise_exception(in, find_builtin_class(in, "RuntimeError"),
                    {make_str(std::string("re: the pattern could not be matched against this string: ") + e.what())});
  }
  return make_list(std::move(out));
}

}  // namespace

Obj make_re_core() {
  Obj m = make<ModuleObj>("_re");
  m.as<ModuleObj>()->attrs.set(std::string_view("scan"), make_builtin("scan", re_scan));
  return m;
}

}  // namespace kiln::lang
