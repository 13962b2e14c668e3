#include "core/error.h"

namespace kiln {

std::string SourceLoc::str() const {
  return detail::cat(file, ":", line, ":", col);
}

std::string Error::describe() const {
  return loc_.known() ? loc_.str() + ": " + what() : std::string(what());
}

}  // namespace kiln
