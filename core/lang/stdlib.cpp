// The standard-library modules scripts may import besides torch: math,
// time and sys, each with the members model scripts use, CPython's results
// and CPython's error wording ("math domain error"); and _frames, the frame
// walk under prelude/warnings.py and logging.py.
#include <algorithm>
#include <chrono>
#include <ctime>
#include <cmath>
#include <iostream>
#include <limits>
#include <numeric>
#include <thread>

#include "core/lang/builtins.h"
#include "core/lang/interp.h"
#include "core/lang/iterators.h"
#include "core/lang/objops.h"
#include "core/lang/vm.h"

namespace kiln::lang {

namespace {

// ---- math -------------------------------------------------------------------------------------
double real_arg(Interp& in, const Obj& o) {
  if (o.is_number()) return o.as_number();
  if (o.kind() == Kind::Tensor) return in.call(getattr(in, o, "item"), {}).as_number();
  if (o.kind() == Kind::Instance) {
    Obj f = special_method(in, o, "__float__");
    if (!f.is_null()) return in.call(f, {}).as_number();
  }
  throw Error("must be real number, not " + type_name(o), ErrorKind::Type);
}

// CPython's checks: NaN from a non-NaN input is a domain error; an infinite
// result from finite input is a range error (or a domain error at a pole, like log(0)).
double checked_math(double x, double r, bool pole_is_domain) {
  if (std::isnan(r) && !std::isnan(x)) throw Error("math domain error", ErrorKind::Value);
  if (std::isinf(r) && std::isfinite(x)) {
    if (pole_is_domain) throw Error("math domain error", ErrorKind::Value);
    throw Error("math range error", ErrorKind::Overflow);
  }
  return r;
}

template <double (*F)(double), bool Pole>
Obj math_unary(Interp& in, const CallArgs& a) {
  a.check("math function", 1, 1);
  double x = real_arg(in, a.pos[0]);
  return Obj::from_float(checked_math(x, F(x), Pole));
}

double m_sqrt(double x) { return x < 0 ? NAN : std::sqrt(x); }
double m_exp(double x) { return std::exp(x); }
double m_expm1(double x) { return std::expm1(x); }
double m_log2(double x) { return x <= 0 ? (x == 0 ? -INFINITY : NAN) : std::log2(x); }
double m_log10(double x) { return x <= 0 ? (x == 0 ? -INFINITY : NAN) : std::log10(x); }
double m_log1p(double x) { return x <= -1 ? (x == -1 ? -INFINITY : NAN) : std::log1p(x); }
double m_sin(double x) { return std::sin(x); }
double m_cos(double x) { return std::cos(x); }
double m_tan(double x) { return std::tan(x); }
double m_asin(double x) { return std::asin(x); }
double m_acos(double x) { return std::acos(x); }
double m_atan(double x) { return std::atan(x); }
double m_sinh(double x) { return std::sinh(x); }
double m_cosh(double x) { return std::cosh(x); }
double m_tanh(double x) { return std::tanh(x); }
double m_asinh(double x) { return std::asinh(x); }
double m_acosh(double x) { return std::acosh(x); }
double m_atanh(double x) { return std::fabs(x) == 1 ? (x > 0 ? INFINITY : -INFINITY) : std::atanh(x); }
double m_fabs(double x) { return std::fabs(x); }
double m_erf(double x) { return std::erf(x); }
double m_erfc(double x) { return std::erfc(x); }
double m_gamma(double x) { return (x <= 0 && std::floor(x) == x) ? NAN : std::tgamma(x); }
double m_lgamma(double x) { return (x <= 0 && std::floor(x) == x) ? INFINITY : std::lgamma(x); }
double m_degrees(double x) { return x * (180.0 / M_PI); }
double m_radians(double x) { return x * (M_PI / 180.0); }

Obj math_log(Interp& in, const CallArgs& a) {
  a.check("log", 1, 2);
  auto ln = [&](const Obj& o) {
    double x = real_arg(in, o);
    return checked_math(x, x <= 0 ? (x == 0 ? -INFINITY : NAN) : std::log(x), true);
  };
  double num = ln(a.pos[0]);
  if (a.pos.size() == 1) return Obj::from_float(num);
  double den = ln(a.pos[1]);
  KILN_CHECK(den != 0, ZeroDivision, "float division by zero");
  return Obj::from_float(num / den);
}

// floor/ceil/trunc return ints; ints pass through.
template <double (*F)(double)>
Obj math_to_int(Interp& in, const CallArgs& a) {
  a.check("math function", 1, 1);
  const Obj& x = a.pos[0];
  if (x.is_intlike()) return Obj::from_int(x.as_int());
  double d = F(real_arg(in, x));
  KILN_CHECK(!std::isinf(d), Overflow, "cannot convert float infinity to integer");
  KILN_CHECK(!std::isnan(d), Value, "cannot convert float NaN to integer");
  KILN_CHECK(d >= -9223372036854775808.0 && d < 9223372036854775808.0, Overflow,
             "integer overflow (kiln ints are 64-bit)");
  return Obj::from_int(int64_t(d));
}
double d_floor(double x) { return std::floor(x); }
double d_ceil(double x) { return std::ceil(x); }
double d_trunc(double x) { return std::trunc(x); }

template <bool (*F)(double)>
Obj math_pred(Interp& in, const CallArgs& a) {
  a.check("math function", 1, 1);
  return Obj::from_bool(F(real_arg(in, a.pos[0])));
}
bool p_isfinite(double x) { return std::isfinite(x); }
bool p_isinf(double x) { return std::isinf(x); }
bool p_isnan(double x) { return std::isnan(x); }

Obj math_pow(Interp& in, const CallArgs& a) {
  a.check("pow", 2, 2);
  double x = real_arg(in, a.pos[0]), y = real_arg(in, a.pos[1]);
  if (x == 0 && y < 0) throw Error("math domain error", ErrorKind::Value);
  double r = std::pow(x, y);
  if (std::isnan(r) && !std::isnan(x) && !std::isnan(y)) throw Error("math domain error", ErrorKind::Value);
  if (std::isinf(r) && std::isfinite(x) && std::isfinite(y)) throw Error("math range error", ErrorKind::Overflow);
  return Obj::from_float(r);
}

Obj math_binary(Interp& in, const CallArgs& a, const char* fn, double (*f)(double, double)) {
  a.check(fn, 2, 2);
  return Obj::from_float(f(real_arg(in, a.pos[0]), real_arg(in, a.pos[1])));
}
Obj math_atan2(Interp& in, const CallArgs& a) {
  return math_binary(in, a, "atan2", [](double y, double x) { return std::atan2(y, x); });
}
Obj math_copysign(Interp& in, const CallArgs& a) {
  return math_binary(in, a, "copysign", [](double x, double y) { return std::copysign(x, y); });
}
Obj math_fmod(Interp& in, const CallArgs& a) {
  a.check("fmod", 2, 2);
  double x = real_arg(in, a.pos[0]), y = real_arg(in, a.pos[1]);
  if (y == 0 || std::isinf(x)) throw Error("math domain error", ErrorKind::Value);
  return Obj::from_float(std::fmod(x, y));
}
Obj math_remainder(Interp& in, const CallArgs& a) {
  return math_binary(in, a, "remainder", [](double x, double y) { return std::remainder(x, y); });
}

Obj math_modf(Interp& in, const CallArgs& a) {
  a.check("modf", 1, 1);
  double ip, fp = std::modf(real_arg(in, a.pos[0]), &ip);
  return make_tuple({Obj::from_float(fp), Obj::from_float(ip)});
}

Obj math_hypot(Interp& in, const CallArgs& a) {
  double s = 0;
  for (const Obj& o : a.pos) s = std::hypot(s, real_arg(in, o));
  return Obj::from_float(s);
}

Obj math_isclose(Interp& in, const CallArgs& a) {
  a.check("isclose", 2, 2, "rel_tol abs_tol");
  double x = real_arg(in, a.pos[0]), y = real_arg(in, a.pos[1]);
  double rel = real_arg(in, a.arg(9, "rel_tol", Obj::from_float(1e-9)));
  double abs_tol = real_arg(in, a.arg(9, "abs_tol", Obj::from_float(0)));
  KILN_CHECK(rel >= 0 && abs_tol >= 0, Value, "tolerances must be non-negative");
  if (x == y) return Obj::from_bool(true);
  if (std::isinf(x) || std::isinf(y)) return Obj::from_bool(false);
  double d = std::fabs(x - y);
  return Obj::from_bool(d <= std::fabs(rel * y) || d <= std::fabs(rel * x) || d <= abs_tol);
}

Obj math_prod(Interp& in, const CallArgs& a) {
  a.check("prod", 1, 1, "start");
  Obj acc = a.arg(9, "start", Obj::from_int(1));
  Obj it = iter(in, a.pos[0]);
  Obj x;
  while (iter_next(in, it, x)) acc = binary_op(in, BinOpKind::Mult, acc, x);
  return acc;
}

// Shewchuk's exact summation of partials, as CPython's fsum.
Obj math_fsum(Interp& in, const CallArgs& a) {
  a.check("fsum", 1, 1);
  std::vector<double> partials;
  double special = 0;
  bool has_special = false;
  Obj it = iter(in, a.pos[0]);
  Obj o;
  while (iter_next(in, it, o)) {
    double x = real_arg(in, o);
    if (!std::isfinite(x)) {
      special = has_special ? special + x : x;
      has_special = true;
      continue;
    }
    size_t i = 0;
    for (double y : partials) {
      if (std::fabs(x) < std::fabs(y)) std::swap(x, y);
      double hi = x + y, lo = y - (hi - x);
      if (lo != 0) partials[i++] = lo;
      x = hi;
    }
    partials.resize(i);
    partials.push_back(x);
  }
  if (has_special) return Obj::from_float(special);
  double total = 0;
  for (double p : partials) total += p;
  return Obj::from_float(total);
}

int64_t int_arg(Interp& in, const Obj& o) { return to_index(in, o, "an integer"); }

Obj math_gcd(Interp& in, const CallArgs& a) {
  int64_t g = 0;
  for (const Obj& o : a.pos) g = std::gcd(g, int_arg(in, o));
  return Obj::from_int(g);
}

Obj math_lcm(Interp& in, const CallArgs& a) {
  int64_t l = 1;
  for (const Obj& o : a.pos) {
    int64_t v = int_arg(in, o);
    if (v == 0) return Obj::from_int(0);
    l = std::lcm(l, v);
  }
  return Obj::from_int(l);
}

Obj math_factorial(Interp& in, const CallArgs& a) {
  a.check("factorial", 1, 1);
  int64_t n = int_arg(in, a.pos[0]);
  KILN_CHECK(n >= 0, Value, "factorial() not defined for negative values");
  int64_t r = 1;
  for (int64_t i = 2; i <= n; ++i)
    if (__builtin_mul_overflow(r, i, &r)) throw Error("integer overflow (kiln ints are 64-bit)", ErrorKind::Overflow);
  return Obj::from_int(r);
}

Obj math_comb(Interp& in, const CallArgs& a) {
  a.check("comb", 2, 2);
  int64_t n = int_arg(in, a.pos[0]), k = int_arg(in, a.pos[1]);
  KILN_CHECK(n >= 0 && k >= 0, Value, n < 0 ? "n must be a non-negative integer" : "k must be a non-negative integer");
  if (k > n) return Obj::from_int(0);
  k = std::min(k, n - k);
  __int128 r = 1;
  for (int64_t i = 1; i <= k; ++i) {
    r = r * (n - k + i) / i;
    if (r > INT64_MAX) throw Error("integer overflow (kiln ints are 64-bit)", ErrorKind::Overflow);
  }
  return Obj::from_int(int64_t(r));
}

Obj math_isqrt(Interp& in, const CallArgs& a) {
  a.check("isqrt", 1, 1);
  int64_t n = int_arg(in, a.pos[0]);
  KILN_CHECK(n >= 0, Value, "isqrt() argument must be nonnegative");
  int64_t r = int64_t(std::sqrt(double(n)));
  while (r > 0 && __int128(r) * r > n) --r;
  while (__int128(r + 1) * (r + 1) <= n) ++r;
  return Obj::from_int(r);
}

Obj make_math() {
  Obj m = make<ModuleObj>("math");
  OrderedMap& at = m.as<ModuleObj>()->attrs;
  auto fn = [&](const char* name, NativeFn f) { at.set(std::string_view(name), make_builtin(name, f)); };
  at.set("pi", Obj::from_float(M_PI));
  at.set("e", Obj::from_float(M_E));
  at.set("tau", Obj::from_float(2 * M_PI));
  at.set("inf", Obj::from_float(INFINITY));
  at.set("nan", Obj::from_float(NAN));
  fn("sqrt", math_unary<m_sqrt, false>);
  fn("exp", math_unary<m_exp, false>);
  fn("expm1", math_unary<m_expm1, false>);
  fn("log", math_log);
  fn("log2", math_unary<m_log2, true>);
  fn("log10", math_unary<m_log10, true>);
  fn("log1p", math_unary<m_log1p, true>);
  fn("sin", math_unary<m_sin, false>);
  fn("cos", math_unary<m_cos, false>);
  fn("tan", math_unary<m_tan, false>);
  fn("asin", math_unary<m_asin, false>);
  fn("acos", math_unary<m_acos, false>);
  fn("atan", math_unary<m_atan, false>);
  fn("sinh", math_unary<m_sinh, false>);
  fn("cosh", math_unary<m_cosh, false>);
  fn("tanh", math_unary<m_tanh, false>);
  fn("asinh", math_unary<m_asinh, false>);
  fn("acosh", math_unary<m_acosh, false>);
  fn("atanh", math_unary<m_atanh, true>);
  fn("fabs", math_unary<m_fabs, false>);
  fn("erf", math_unary<m_erf, false>);
  fn("erfc", math_unary<m_erfc, false>);
  fn("gamma", math_unary<m_gamma, false>);
  fn("lgamma", math_unary<m_lgamma, true>);
  fn("degrees", math_unary<m_degrees, false>);
  fn("radians", math_unary<m_radians, false>);
  fn("floor", math_to_int<d_floor>);
  fn("ceil", math_to_int<d_ceil>);
  fn("trunc", math_to_int<d_trunc>);
  fn("isfinite", math_pred<p_isfinite>);
  fn("isinf", math_pred<p_isinf>);
  fn("isnan", math_pred<p_isnan>);
  fn("pow", math_pow);
  fn("atan2", math_atan2);
  fn("copysign", math_copysign);
  fn("fmod", math_fmod);
  fn("remainder", math_remainder);
  fn("modf", math_modf);
  fn("hypot", math_hypot);
  fn("isclose", math_isclose);
  fn("prod", math_prod);
  fn("fsum", math_fsum);
  fn("gcd", math_gcd);
  fn("lcm", math_lcm);
  fn("factorial", math_factorial);
  fn("comb", math_comb);
  fn("isqrt", math_isqrt);
  return m;
}

// ---- time -------------------------------------------------------------------------------------
template <class Clock>
double seconds_now() {
  return std::chrono::duration<double>(Clock::now().time_since_epoch()).count();
}
template <class Clock>
int64_t ns_now() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now().time_since_epoch()).count();
}

Obj time_perf_counter(Interp&, const CallArgs& a) {
  a.check("perf_counter", 0, 0);
  return Obj::from_float(seconds_now<std::chrono::steady_clock>());
}
Obj time_perf_counter_ns(Interp&, const CallArgs& a) {
  a.check("perf_counter_ns", 0, 0);
  return Obj::from_int(ns_now<std::chrono::steady_clock>());
}
Obj time_time(Interp&, const CallArgs& a) {
  a.check("time", 0, 0);
  return Obj::from_float(seconds_now<std::chrono::system_clock>());
}
Obj time_time_ns(Interp&, const CallArgs& a) {
  a.check("time_ns", 0, 0);
  return Obj::from_int(ns_now<std::chrono::system_clock>());
}
// CPU time of the whole process (every thread), as CPython's process_time.
int64_t process_ns() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return int64_t(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}
Obj time_process_time(Interp&, const CallArgs& a) {
  a.check("process_time", 0, 0);
  return Obj::from_float(double(process_ns()) * 1e-9);
}
Obj time_process_time_ns(Interp&, const CallArgs& a) {
  a.check("process_time_ns", 0, 0);
  return Obj::from_int(process_ns());
}
Obj time_sleep(Interp& in, const CallArgs& a) {
  a.check("sleep", 1, 1);
  double s = real_arg(in, a.pos[0]);
  KILN_CHECK(!std::isnan(s), Value, "Invalid value NaN (not a number)");
  KILN_CHECK(s >= 0, Value, "sleep length must be non-negative");
  KILN_CHECK(s < 9.2e9, Overflow, "sleep length is too large");  // CPython's limit: int64 nanoseconds
  if (in.step_limit) {
    // Under a step limit (fuzzing) a millisecond of sleep costs a step, so a
    // script cannot stall by sleeping; the sleep itself is cut short.
    in.steps += int64_t(s * 1000);
    if (in.steps > in.step_limit) throw Error("kiln step limit exceeded", ErrorKind::Runtime);
    s = std::min(s, 0.001);
  }
  std::this_thread::sleep_for(std::chrono::duration<double>(s));
  return Obj();
}

Obj make_time() {
  Obj m = make<ModuleObj>("time");
  OrderedMap& at = m.as<ModuleObj>()->attrs;
  auto fn = [&](const char* name, NativeFn f) { at.set(std::string_view(name), make_builtin(name, f)); };
  fn("perf_counter", time_perf_counter);
  fn("perf_counter_ns", time_perf_counter_ns);
  fn("monotonic", time_perf_counter);
  fn("monotonic_ns", time_perf_counter_ns);
  fn("time", time_time);
  fn("time_ns", time_time_ns);
  fn("process_time", time_process_time);
  fn("process_time_ns", time_process_time_ns);
  fn("sleep", time_sleep);
  return m;
}

// ---- sys --------------------------------------------------------------------------------------
Obj sys_exit(Interp& in, const CallArgs& a) {
  a.check("exit", 0, 1);
  std::vector<Obj> args;
  if (!a.pos.empty()) args.push_back(a.pos[0]);
  raise_exception(in, find_builtin_class(in, "SystemExit"), std::move(args));
}

Obj sys_setrecursionlimit(Interp& in, const CallArgs& a) {
  a.check("setrecursionlimit", 1, 1);
  int64_t n = to_index(in, a.pos[0], "an integer");
  KILN_CHECK(n >= 1, Value, "recursion limit must be greater or equal than 1");
  in.recursion_limit = int(std::min<int64_t>(n, 1 << 30));
  return Obj();
}

Obj sys_getrecursionlimit(Interp& in, const CallArgs& a) {
  a.check("getrecursionlimit", 0, 0);
  return Obj::from_int(in.recursion_limit);
}

// sys.stdout.write(s) / sys.stderr.write(s): __fd__ says which stream.
Obj stream_write(Interp& in, const CallArgs& a) {
  a.check("write", 1, 1);
  const std::string& s = str_of(a.pos[0], "write() argument");
  Obj* fd = a.self.as<InstanceObj>()->attrs.find(std::string_view("__fd__"));
  (fd && fd->as_int() == 2 ? std::cerr : in.out()) << s;
  return Obj::from_int(int64_t(utf8_count(s)));
}

Obj stream_flush(Interp& in, const CallArgs& a) {
  Obj* fd = a.self.as<InstanceObj>()->attrs.find(std::string_view("__fd__"));
  (fd && fd->as_int() == 2 ? std::cerr : in.out()).flush();
  return Obj();
}

Obj make_stream(const Obj& cls, int fd) {
  Obj s = make<InstanceObj>(cls);
  s.as<InstanceObj>()->attrs.set("__fd__", Obj::from_int(fd));
  return s;
}

std::vector<Obj> argv_list(const Interp& in) {
  std::vector<Obj> v;
  for (const std::string& s : in.argv) v.push_back(make_str(s));
  return v;
}

// A CPython structseq (sys.float_info): a named tuple that prints on one line.
Obj struct_seq(std::string name, std::vector<std::pair<const char*, Obj>> fields) {
  auto* t = new TupleObj();
  Obj r(t);
  t->struct_name = std::move(name);
  for (auto& [k, v] : fields) {
    t->fields.push_back(k);
    t->items.push_back(std::move(v));
  }
  return r;
}

Obj float_info() {
  using L = std::numeric_limits<double>;
  auto i = [](int64_t v) { return Obj::from_int(v); };
  return struct_seq("sys.float_info",
                    {{"max", Obj::from_float(L::max())}, {"max_exp", i(L::max_exponent)},
                     {"max_10_exp", i(L::max_exponent10)}, {"min", Obj::from_float(L::min())},
                     {"min_exp", i(L::min_exponent)}, {"min_10_exp", i(L::min_exponent10)},
                     {"dig", i(L::digits10)}, {"mant_dig", i(L::digits)},
                     {"epsilon", Obj::from_float(L::epsilon())}, {"radix", i(L::radix)}, {"rounds", i(1)}});
}

// CPython's values on 64-bit Linux (kiln's ints are 64-bit, but scripts read these to size things).
Obj int_info() {
  auto i = [](int64_t v) { return Obj::from_int(v); };
  return struct_seq("sys.int_info", {{"bits_per_digit", i(30)}, {"sizeof_digit", i(4)},
                                     {"default_max_str_digits", i(4300)}, {"str_digits_check_threshold", i(640)}});
}

Obj make_sys(Interp& in) {
  Obj m = make<ModuleObj>("sys");
  OrderedMap& at = m.as<ModuleObj>()->attrs;
  auto fn = [&](const char* name, NativeFn f) { at.set(std::string_view(name), make_builtin(name, f)); };
  at.set("argv", make_list(argv_list(in)));
  at.set("version", make_str("3.11.0 (kiln)"));
  at.set("version_info", make_tuple({Obj::from_int(3), Obj::from_int(11), Obj::from_int(0), make_str("final"),
                                     Obj::from_int(0)}));
  at.set("platform", make_str("linux"));
  at.set("maxsize", Obj::from_int(INT64_MAX));
  at.set("float_info", float_info());
  at.set("int_info", int_info());
  at.set("path", make_list({}));
  fn("exit", sys_exit);
  fn("setrecursionlimit", sys_setrecursionlimit);
  fn("getrecursionlimit", sys_getrecursionlimit);
  Obj stream = make<ClassObj>("TextIOWrapper");
  auto* sc = stream.as<ClassObj>();
  sc->set_base(find_builtin_class(in, "object"));
  sc->attrs.set("__module__", make_str("_io"));
  sc->attrs.set("write", make_builtin("write", stream_write));
  sc->attrs.set("flush", make_builtin("flush", stream_flush));
  at.set("stdout", make_stream(stream, 1));
  at.set("stderr", make_stream(stream, 2));
  return m;
}

// ---- _frames ----------------------------------------------------------------------------------
// _frames.caller(depth): (filename, lineno, source line, function name) of the Python frame
// `depth` calls out from the caller's own (0), or None past the outermost:
// where warnings.warn reports a warning, as CPython's frame walk does.
Obj frames_caller(Interp& in, const CallArgs& a) {
  a.check("caller", 1, 1);
  int64_t depth = to_index(in, a.pos[0], "an integer");
  std::vector<FrameRef> stack = current_stack(size_t(std::max<int64_t>(depth, 0)) + 1);
  if (depth < 0 || size_t(depth) >= stack.size()) return Obj();
  const FrameRef& f = stack[size_t(depth)];
  int line = f.code->positions.empty() ? 0 : f.code->positions[f.pc].line;
  return make_tuple({make_str(f.code->filename), Obj::from_int(line),
                     make_str(std::string(in.source_line(f.code->filename, line))), make_str(f.code->name)});
}

// _frames.module(depth): the __name__ of the module whose code runs in that
// frame ('__main__' past the outermost): the module a namedtuple() class
// belongs to, as CPython's sys._getframe(depth).f_globals['__name__'].
Obj frames_module(Interp& in, const CallArgs& a) {
  a.check("module", 1, 1);
  int64_t depth = to_index(in, a.pos[0], "an integer");
  std::vector<FrameRef> stack = current_stack(size_t(std::max<int64_t>(depth, 0)) + 1);
  if (depth >= 0 && size_t(depth) < stack.size() && stack[size_t(depth)].globals)
    if (Obj* n = const_cast<OrderedMap*>(stack[size_t(depth)].globals)->find(std::string_view("__name__")))
      if (n->kind() == Kind::Str) return *n;
  return make_str("__main__");
}

}  // namespace

void set_argv(Interp& in, std::vector<std::string> argv) {
  in.argv = std::move(argv);
  try {
    Obj sys = in.import_module("sys");
    sys.as<ModuleObj>()->attrs.set("argv", make_list(argv_list(in)));
  } catch (const Error&) {
    // sys not registered yet: register_stdlib_modules reads in.argv.
  }
}

void register_stdlib_modules(Interp& in) {
  in.register_module("math", make_math());
  in.register_module("time", make_time());
  in.register_module("sys", make_sys(in));
  in.register_module("_random", make_random_core());
  in.register_module("_os", make_os_core());
  in.register_module("_re", make_re_core());
  Obj frames = make<ModuleObj>("_frames");
  frames.as<ModuleObj>()->attrs.set("caller", make_builtin("caller", frames_caller));
  frames.as<ModuleObj>()->attrs.set("module", make_builtin("module", frames_module));
  in.register_module("_frames", frames);
  // CPython's _collections supplies OrderedDict to collections.py; so does Kiln's.
  Obj collections = make<ModuleObj>("_collections");
  collections.as<ModuleObj>()->attrs.set("OrderedDict", find_builtin_class(in, "OrderedDict"));
  in.register_module("_collections", collections);
}

}  // namespace kiln::lang
