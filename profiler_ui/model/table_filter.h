// The search box of every table: a query of space-separated words, each of
// which must appear (case-insensitively) in one of a row's fields; a word
// starting with '-' must appear in none. "relu -backward" keeps rows that
// mention relu and not backward. An empty query matches everything.
#pragma once

#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

namespace kiln::inspect {

class TextFilter {
 public:
  TextFilter() = default;
  explicit TextFilter(std::string_view query);
  bool empty() const { return include_.empty() && exclude_.empty(); }
  bool matches(std::initializer_list<std::string_view> fields) const;
  bool matches(const std::vector<std::string_view>& fields) const;

 private:
  std::vector<std::string> include_, exclude_;  // lower-cased words
};

// Case-insensitive substring test (ASCII folding), exposed for views.
bool contains_ignore_case(std::string_view haystack, std::string_view needle);

}  // namespace kiln::inspect
