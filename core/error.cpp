#include "core/error.h"

namespace kiln {

std::string SourceLoc::str() const {
  return detail::cat(file, ":", line, ":", col);
}

std::string error_kind_name(ErrorKind k) {
  switch (k) {
#define KILN_ERROR_KIND_NAME(n) \
  case ErrorKind::n:            \
    return std::string(#n) == "StopIteration" ? "StopIteration" : #n "Error";
    KILN_ERROR_KINDS(KILN_ERROR_KIND_NAME)
#undef KILN_ERROR_KIND_NAME
  }
  return "Error";
}

std::string Error::describe() const {
  return loc_.known() ? loc_.str() + ": " + what() : std::string(what());
}

}  // namespace kiln
