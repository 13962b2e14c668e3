// Sortable rows for every table. Each table header declares its columns (an
// enum plus kXxxColumns names) and a sort key function; sort_rows() sorts a
// vector of rows by one column, stable, either direction.
//
//   sort_rows(rows, int(BreakColumn::Count), /*ascending=*/false, break_sort_key);
#pragma once

#include <algorithm>
#include <cstdint>
#include <string_view>
#include <variant>
#include <vector>

namespace kiln::inspect {

// What a cell sorts by. Values of different kinds compare by kind index.
using SortValue = std::variant<int64_t, double, std::string_view>;

// key(row, column) -> SortValue. Stable, so ties keep the table's order.
template <typename Row, typename KeyFn>
void sort_rows(std::vector<Row>& rows, int column, bool ascending, KeyFn key) {
  std::stable_sort(rows.begin(), rows.end(), [&](const Row& a, const Row& b) {
    SortValue ka = key(a, column), kb = key(b, column);
    return ascending ? ka < kb : kb < ka;
  });
}

}  // namespace kiln::inspect
