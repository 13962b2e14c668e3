// TextFilter: word-wise, case-insensitive row matching for the tables' search boxes.
#include "profiler_ui/model/table_filter.h"

#include <algorithm>

namespace kiln::inspect {

namespace {
char lower(char c) { return c >= 'A' && c <= 'Z' ? char(c - 'A' + 'a') : c; }
}  // namespace

bool contains_ignore_case(std::string_view haystack, std::string_view needle) {
  if (needle.empty()) return true;
  auto it = std::search(haystack.begin(), haystack.end(), needle.begin(), needle.end(),
                        [](char a, char b) { return lower(a) == lower(b); });
  return it != haystack.end();
}

TextFilter::TextFilter(std::string_view query) {
  size_t i = 0;
  while (i < query.size()) {
    while (i < query.size() && (query[i] == ' ' || query[i] == '\t')) ++i;
    size_t j = i;
    while (j < query.size() && query[j] != ' ' && query[j] != '\t') ++j;
    std::string word(query.substr(i, j - i));
    std::transform(word.begin(), word.end(), word.begin(), lower);
    if (word.size() > 1 && word[0] == '-') exclude_.push_back(word.substr(1));
    else if (!word.empty()) include_.push_back(word);
    i = j;
  }
}

bool TextFilter::matches(const std::vector<std::string_view>& fields) const {
  auto any = [&](const std::string& w) {
    return std::any_of(fields.begin(), fields.end(), [&](std::string_view f) { return contains_ignore_case(f, w); });
  };
  return std::all_of(include_.begin(), include_.end(), any) && std::none_of(exclude_.begin(), exclude_.end(), any);
}

bool TextFilter::matches(std::initializer_list<std::string_view> fields) const {
  return matches(std::vector<std::string_view>(fields));
}

}  // namespace kiln::inspect
