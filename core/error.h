// kiln::Error: every recoverable failure in Kiln is one of these. It carries a
// message worded like PyTorch's and, when known, the script location that
// caused it, so the VM can turn it into a Python exception and tests can
// assert on it instead of watching a process abort.
#pragma once

#include <cstdint>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>

namespace kiln {

struct SourceLoc {
  std::string file;
  int line = 0;
  int col = 0;
  bool known() const { return line > 0; }
  std::string str() const;
};

// Python exception categories the runtime raises; the VM maps each to the
// built-in exception class of the same name (Type -> TypeError, ...).
#define KILN_ERROR_KINDS(_)                                                              \
  _(Runtime) _(Type) _(Value) _(Index) _(Key) _(NotImplemented) _(Assertion) _(ZeroDivision) \
  _(Attribute) _(Name) _(Overflow) _(Recursion) _(Syntax) _(Import) _(StopIteration)
enum class ErrorKind : uint8_t {
#define KILN_ERROR_KIND_ENUM(k) k,
  KILN_ERROR_KINDS(KILN_ERROR_KIND_ENUM)
#undef KILN_ERROR_KIND_ENUM
};
// The Python class name: "TypeError", "StopIteration", ...
std::string error_kind_name(ErrorKind k);

class Error : public std::runtime_error {
 public:
  explicit Error(std::string msg, ErrorKind kind = ErrorKind::Runtime, SourceLoc loc = {})
      : std::runtime_error(std::move(msg)), kind_(kind), loc_(std::move(loc)) {}
  ErrorKind kind() const { return kind_; }
  const SourceLoc& loc() const { return loc_; }
  void set_loc(SourceLoc loc) { loc_ = std::move(loc); }
  // "file:line:col: message" when the location is known, else the message.
  std::string describe() const;

 private:
  ErrorKind kind_;
  SourceLoc loc_;
};

namespace detail {
template <class... A>
std::string cat(const A&... a) {
  std::ostringstream os;
  (os << ... << a);
  return os.str();
}
}  // namespace detail

// KILN_CHECK(cond, kind, parts...): throw kiln::Error(kind) built from parts when cond fails.
#define KILN_CHECK(cond, kind, ...)                                                        \
  do {                                                                                     \
    if (!(cond)) throw ::kiln::Error(::kiln::detail::cat(__VA_ARGS__), ::kiln::ErrorKind::kind); \
  } while (0)

}  // namespace kiln
