#include "core/format.h"

#include <charconv>
#include <cmath>
#include <functional>
#include <sstream>

namespace kiln {

std::string format_double(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  char buf[64];
  auto [p, ec] = std::to_chars(buf, buf + sizeof buf, v);
  std::string s(buf, p);
  // Python switches to exponent form below 1e-4 and from 1e16, writes
  // "1e-05" (two exponent digits) and always keeps a ".0" on integral floats.
  int exp10 = v == 0 ? 0 : int(std::floor(std::log10(std::fabs(v))));
  if (exp10 < -4 || exp10 >= 16) {
    auto [q, ec2] = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::scientific);
    s.assign(buf, q);
    size_t e = s.find('e');
    std::string mant = s.substr(0, e), ex = s.substr(e + 1);
    char sign = ex[0] == '-' ? '-' : '+';
    if (ex[0] == '-' || ex[0] == '+') ex = ex.substr(1);
    while (ex.size() > 1 && ex[0] == '0') ex = ex.substr(1);
    if (ex.size() < 2) ex = "0" + ex;
    return mant + "e" + sign + ex;
  }
  if (s.find_first_of(".e") == std::string::npos) s += ".0";
  return s;
}

std::string format_tensor(const Tensor& t) {
  std::ostringstream os;
  os << "tensor(";
  std::vector<double> v = to_double_vector(t);
  std::function<void(int64_t, int64_t&)> rec = [&](int64_t d, int64_t& i) {
    if (d == t.dim()) {
      os << (is_floating(t.dtype()) ? format_double(v[size_t(i)]) : std::to_string(int64_t(v[size_t(i)])));
      ++i;
      return;
    }
    os << '[';
    for (int64_t k = 0; k < t.sizes()[size_t(d)]; ++k) {
      if (k) os << ", ";
      rec(d + 1, i);
    }
    os << ']';
  };
  int64_t i = 0;
  rec(0, i);
  if (t.dtype() != DType::Float32 && t.dtype() != DType::Int64 && t.dtype() != DType::Bool)
    os << ", dtype=torch." << dtype_name(t.dtype());
  os << ')';
  return os.str();
}

}  // namespace kiln
