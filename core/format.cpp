// Tensor printing that reproduces torch/_tensor_str.py with default print
// options character for character: one formatter per tensor (int mode, fixed
// or scientific, a common width), summarisation with "..." past 1000
// elements, 80-column line wrapping and the dtype / grad suffixes.
#include "core/format.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cctype>
#include <cstdio>
#include <numeric>
#include <string_view>

#include "core/autograd.h"
#include "core/device.h"

namespace kiln {

PrintOptions& print_options() {
  static PrintOptions options;
  return options;
}

namespace {

std::string printf_double(const char* fmt, int width, double v) {
  char buf[512];
  int n = std::snprintf(buf, sizeof buf, fmt, width, print_options().precision, v);
  return std::string(buf, size_t(std::max(n, 0)));
}

// Python's format of nan/inf ("nan", "inf", "-inf"; never "-nan").
std::string non_finite(double v) { return std::isnan(v) ? "nan" : v > 0 ? "inf" : "-inf"; }

std::string pad_left(std::string s, size_t width) {
  if (s.size() < width) s.insert(0, width - s.size(), ' ');
  return s;
}

// A tensor's elements in row-major order: doubles for floating dtypes,
// exact int64s for integer and bool ones.
struct Data {
  Shape sizes;
  bool floating = false, is_bool = false;
  std::vector<double> floats;
  std::vector<int64_t> ints;
  int64_t stride(size_t d) const {
    int64_t s = 1;
    for (size_t k = d + 1; k < sizes.size(); ++k) s *= sizes[k];
    return s;
  }
};

Data read_data(const Tensor& t) {
  Data d{t.sizes(), is_floating(t.dtype()), t.dtype() == DType::Bool, {}, {}};
  if (d.floating) {
    d.floats = to_double_vector(t);
    return d;
  }
  // Read through the strides directly: printing must not dispatch ops.
  d.ints.resize(static_cast<size_t>(t.numel()));
  std::vector<int64_t> idx(static_cast<size_t>(t.dim()), 0);
  visit_dtype(t.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_integral_v<T>) {
      const T* p = t.data<T>();
      for (int64_t& out : d.ints) {
        int64_t off = 0;
        for (size_t k = 0; k < idx.size(); ++k) off += idx[k] * t.strides()[k];
        out = int64_t(p[off]);
        for (size_t k = idx.size(); k-- > 0;) {
          if (++idx[k] < t.sizes()[k]) break;
          idx[k] = 0;
        }
      }
    }
  });
  return d;
}

// torch._tensor_str._Formatter: decides int / fixed / scientific mode and
// the common width from the (summarised) elements.
class Formatter {
 public:
  Formatter(const Data& data, const std::vector<int64_t>& shown) : data_(data) {
    if (!data.floating) {
      for (int64_t i : shown) width_ = std::max(width_, plain(i).size());
      return;
    }
    std::vector<double> nz;
    for (int64_t i : shown) {
      double v = data.floats[size_t(i)];
      if (std::isfinite(v) && v != 0) nz.push_back(v);
    }
    if (nz.empty()) return;
    double lo = INFINITY, hi = 0;
    for (double v : nz) {
      lo = std::min(lo, std::fabs(v));
      hi = std::max(hi, std::fabs(v));
      if (v != std::ceil(v)) int_mode_ = false;
    }
    bool wide = hi / lo > 1000.0 || hi > 1.0e8;
    sci_ = print_options().sci_mode >= 0 ? print_options().sci_mode == 1 : int_mode_ ? wide : (wide || lo < 1.0e-4);
    for (double v : nz) {
      size_t w = sci_ ? sci(v, 0).size() : int_mode_ ? fixed0(v).size() + 1 : fixed(v).size();
      width_ = std::max(width_, w);
    }
  }

  size_t width() const { return width_; }

  // Element i, right-aligned to the common width.
  std::string format(int64_t i) const {
    std::string s;
    if (!data_.floating) return pad_left(plain(i), width_);
    double v = data_.floats[size_t(i)];
    if (sci_) {
      s = sci(v, int(width_));
    } else if (int_mode_) {
      s = fixed0(v);
      if (std::isfinite(v)) s += '.';
    } else {
      s = fixed(v);
    }
    return pad_left(std::move(s), width_);
  }

 private:
  std::string plain(int64_t i) const {
    int64_t v = data_.ints[size_t(i)];
    return data_.is_bool ? (v ? "True" : "False") : std::to_string(v);
  }
  static std::string sci(double v, int width) {
    return std::isfinite(v) ? printf_double("%*.*e", width, v) : pad_left(non_finite(v), size_t(width));
  }
  static std::string fixed(double v) { return std::isfinite(v) ? printf_double("%*.*f", 0, v) : non_finite(v); }
  static std::string fixed0(double v) {
    if (!std::isfinite(v)) return non_finite(v);
    char buf[512];
    int n = std::snprintf(buf, sizeof buf, "%.0f", v);
    return std::string(buf, size_t(std::max(n, 0)));
  }

  const Data& data_;
  bool int_mode_ = true;
  bool sci_ = false;
  size_t width_ = 1;
};

// get_summarized_data: indices of the first and last `edgeitems` along every dim.
void summarized_indices(const Data& t, size_t d, int64_t base, std::vector<int64_t>& out) {
  if (d == t.sizes.size()) {
    out.push_back(base);
    return;
  }
  int64_t n = t.sizes[d], st = t.stride(d);
  bool cut = n > 2 * print_options().edgeitems;
  for (int64_t i = 0; i < n; ++i) {
    if (cut && i == print_options().edgeitems) i = n - print_options().edgeitems;
    summarized_indices(t, d + 1, base + i * st, out);
  }
}

struct Printer {
  const Data& t;
  const Formatter& fmt;
  bool summarize;
  const Formatter* imag = nullptr;  // complex tensors: the imaginary parts' formatter

  // _val_formatter: "re+imj", the imaginary part unpadded and always signed.
  std::string item(int64_t i) const {
    std::string re = fmt.format(i);
    if (!imag) return re;
    std::string im = imag->format(i) + "j";
    im.erase(0, im.find_first_not_of(' '));
    return re + (im[0] == '+' || im[0] == '-' ? "" : "+") + im;
  }
  // An element's width for line wrapping, as _vector_str counts it (the j included).
  int64_t width() const { return int64_t(fmt.width() + (imag ? imag->width() + 1 : 0)); }

  // _vector_str: elements wrapped to the line width.
  std::string vector(int64_t base, int64_t indent) const {
    int64_t n = t.sizes.back();
    int64_t per_line = std::max<int64_t>(1, (print_options().linewidth - indent) / (width() + 2));
    std::vector<std::string> items;
    for (int64_t i = 0; i < n; ++i) {
      if (summarize && n > 2 * print_options().edgeitems && i == print_options().edgeitems) {
        items.emplace_back(" ...");
        i = n - print_options().edgeitems;
      }
      items.push_back(item(base + i));
    }
    std::string out = "[";
    for (size_t i = 0; i < items.size(); ++i) {
      if (i && int64_t(i) % per_line == 0) {
        out.append(",\n").append(size_t(indent + 1), ' ');
      } else if (i) {
        out.append(", ");
      }
      out += items[i];
    }
    return out + "]";
  }

  // _tensor_str_with_formatter: nested brackets, a blank line per extra dim.
  std::string nested(size_t d, int64_t base, int64_t indent) const {
    size_t nd = t.sizes.size();
    if (d + 1 == nd) return vector(base, indent);
    int64_t n = t.sizes[d], st = t.stride(d);
    std::string sep(1, ',');
    sep.append(nd - d - 1, '\n').append(size_t(indent + 1), ' ');
    std::string out = "[";
    for (int64_t i = 0; i < n; ++i) {
      if (i) out += sep;
      if (summarize && n > 2 * print_options().edgeitems && i == print_options().edgeitems) {
        out.append("...").append(sep);
        i = n - print_options().edgeitems;
      }
      out += nested(d + 1, base + i * st, indent + 1);
    }
    return out + "]";
  }
};

std::string tensor_body(const Tensor& t, int64_t indent) {
  Data data = read_data(t);
  bool summarize = t.numel() > print_options().threshold;
  std::vector<int64_t> shown;
  if (summarize) {
    summarized_indices(data, 0, 0, shown);
  } else {
    shown.resize(size_t(t.numel()));
    std::iota(shown.begin(), shown.end(), 0);
  }
  Formatter fmt(data, shown);
  if (t.dim() == 0) return fmt.format(0);
  return Printer{data, fmt, summarize}.nested(0, 0, indent);
}

// A complex tensor given as its (..., 2) real view: one formatter for the
// real parts and one for the imaginary parts, as _tensor_str does.
std::string complex_body(const Tensor& pairs, int64_t indent) {
  Data both = read_data(pairs);
  Shape sizes(pairs.sizes().begin(), pairs.sizes().end() - 1);
  Data re{sizes, true, false, {}, {}}, im{sizes, true, false, {}, {}};
  for (size_t i = 0; i + 1 < both.floats.size(); i += 2) {
    re.floats.push_back(both.floats[i]);
    im.floats.push_back(both.floats[i + 1]);
  }
  const int64_t n = int64_t(re.floats.size());
  bool summarize = n > print_options().threshold;
  std::vector<int64_t> shown;
  if (summarize) {
    summarized_indices(re, 0, 0, shown);
  } else {
    shown.resize(size_t(n));
    std::iota(shown.begin(), shown.end(), 0);
  }
  Formatter fre(re, shown), fim(im, shown);
  Printer p{re, fre, summarize, &fim};
  if (sizes.empty()) return p.item(0);
  return p.nested(0, 0, indent);
}

// Python's str.title() without underscores: "log1p" → "Log1P", "nll_loss" → "NllLoss".
std::string camel_case(std::string_view name) {
  std::string out;
  bool after_letter = false;
  for (char c : name) {
    auto u = static_cast<unsigned char>(c);
    if (c != '_') out += char(after_letter ? std::tolower(u) : std::toupper(u));
    after_letter = std::isalpha(u) != 0;
  }
  return out;
}


std::string size_tuple(const Shape& s) {
  std::string out = "(";
  for (size_t i = 0; i < s.size(); ++i) out += (i ? ", " : "") + std::to_string(s[i]);
  return out + (s.size() == 1 ? ",)" : ")");
}

// _add_suffixes: ", suffix" or, past the line width, ",\n" + indent + suffix.
std::string add_suffixes(std::string body, const std::vector<std::string>& suffixes, int64_t indent) {
  size_t nl = body.rfind('\n');
  // PyTorch's len - rfind + 1 (rfind is -1 when there is no newline).
  int64_t last = int64_t(body.size()) - (nl == std::string::npos ? -1 : int64_t(nl)) + 1;
  for (const std::string& s : suffixes) {
    if (last + int64_t(s.size()) + 2 > print_options().linewidth) {
      body.append(",\n").append(size_t(indent), ' ').append(s);
      last = indent + int64_t(s.size());
    } else {
      body += ", " + s;
      last += int64_t(s.size()) + 2;
    }
  }
  return body + ")";
}

}  // namespace

// "add_backward" → "AddBackward0": PyTorch's generated node names are the
// CamelCased op name plus the overload's position among that op's entries
// in derivatives.yaml. Kiln ops whose PyTorch node has another name, or
// whose single overload covers several of PyTorch's, are mapped here.
std::string grad_fn_name(const Node& node) {
  if (!node.display_name.empty()) return node.display_name;
  std::string name = node.name();
  constexpr std::string_view kSuffix = "_backward";
  if (name.size() <= kSuffix.size() || name.compare(name.size() - kSuffix.size(), kSuffix.size(), kSuffix) != 0)
    return name;
  name.resize(name.size() - kSuffix.size());
  static constexpr struct {
    std::string_view op;
    std::string_view node;
  } kNodes[] = {{"pow", "PowBackward1"},          {"pow.Scalar", "PowBackward2"},
                {"max", "MaxBackward1"},          {"min", "MinBackward1"},
                {"max.other", "MaximumBackward0"}, {"min.other", "MinimumBackward0"},
                {"clamp", "ClampBackward1"},      {"prod.dim_int", "ProdBackward1"},
                {"squeeze.dim", "SqueezeBackward1"}, {"squeeze.dims", "SqueezeBackward2"},
                {"masked_fill.Tensor", "MaskedFillBackward1"}, {"split.sizes", "SplitWithSizesBackward0"},
                {"reshape", "ViewBackward0"},     {"flatten", "ViewBackward0"},
                {"contiguous", "CloneBackward0"}, {"rsub", "RsubBackward1"},
                {"round.decimals", "RoundBackward1"}, {"nll_loss_forward", "NllLossBackward0"},
                {"median.dim", "MedianBackward1"},
                // Aliases (core/ops/pointwise_math.cpp) record their op's node.
                {"absolute", "AbsBackward0"},     {"negative", "NegBackward0"},
                {"multiply", "MulBackward0"},     {"divide", "DivBackward0"},
                {"subtract", "SubBackward0"},     {"fix", "TruncBackward0"},
                {"clip", "ClampBackward1"},       {"clip.Tensor", "ClampBackward0"},
                {"arcsin", "AsinBackward0"},      {"arccos", "AcosBackward0"},
                {"arctan", "AtanBackward0"},      {"arcsinh", "AsinhBackward0"},
                {"arccosh", "AcoshBackward0"},    {"arctanh", "AtanhBackward0"},
                {"arctan2", "Atan2Backward0"}};
  for (const auto& e : kNodes)
    if (name == e.op) return std::string(e.node);
  std::string base = name.substr(0, name.find('.'));
  // PyTorch numbers sum(dim) and mean(dim) after the full reductions.
  bool partial = !node.out_meta.empty() && !node.out_meta[0].first.empty();
  int index = (base == "sum" || base == "mean") && partial ? 1 : 0;
  return camel_case(base) + "Backward" + std::to_string(index);
}

std::string format_double(double v) {
  if (!std::isfinite(v)) return non_finite(v);
  // Shortest round-trip digits, then Python's layout: exponent form when the
  // decimal exponent is < -4 or >= 16, "e-05" style exponents, ".0" on integers.
  char buf[64];
  auto [p, ec] = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::scientific);
  std::string s(buf, p);
  size_t e = s.find('e');
  int exp10 = std::stoi(s.substr(e + 1));
  std::string sign = s[0] == '-' ? "-" : "";
  std::string digits;
  for (size_t i = sign.size(); i < e; ++i)
    if (s[i] != '.') digits += s[i];
  if (exp10 < -4 || exp10 >= 16) {
    std::string mant = digits.substr(0, 1) + (digits.size() > 1 ? "." + digits.substr(1) : "");
    std::string ex = std::to_string(std::abs(exp10));
    if (ex.size() < 2) ex = "0" + ex;
    return sign + mant + "e" + (exp10 < 0 ? "-" : "+") + ex;
  }
  if (exp10 < 0) return sign + "0." + std::string(size_t(-exp10 - 1), '0') + digits;
  size_t int_len = size_t(exp10) + 1;
  if (digits.size() <= int_len) return sign + digits + std::string(int_len - digits.size(), '0') + ".0";
  return sign + digits.substr(0, int_len) + "." + digits.substr(int_len);
}

namespace {
// _str_intern for a real tensor, or for a complex one given as its (..., 2) real view.
std::string format_any(const Tensor& t, bool complex) {
  const std::string prefix = "tensor(";
  const int64_t indent = int64_t(prefix.size());
  std::vector<std::string> suffixes;
  if (t.device().type != DeviceType::CPU) suffixes.push_back("device='" + t.device().str() + "'");
  std::string body;
  DType d = t.dtype();
  std::string name(dtype_name(d));
  if (complex) name = d == DType::Float64 ? "complex128" : d == DType::Float16 ? "complex32" : "complex64";
  // complex64 is the default complex dtype, as float32 is the default float one.
  const bool default_dtype = complex ? name == "complex64" : d == kDefaultFloat;
  const int64_t numel = complex ? t.numel() / 2 : t.numel();
  if (numel == 0) {
    if (t.dim() - complex != 1) {
      Shape s(t.sizes().begin(), t.sizes().end() - complex);
      suffixes.push_back("size=" + size_tuple(s));
    }
    // Compared with the default float dtype, so a complex one always shows.
    if (complex || !default_dtype) suffixes.push_back("dtype=torch." + name);
    body = "[]";
  } else {
    if (!default_dtype && (complex || (d != DType::Int64 && d != DType::Bool)))
      suffixes.push_back("dtype=torch." + name);
    // Printing reads every element: one copy to the host, not one per element.
    const Tensor host = t.device().type == DeviceType::CPU ? t : copy_to_device(t, Device{});
    body = complex ? complex_body(host, indent) : tensor_body(host, indent);
  }
  if (t.grad_fn()) {
    suffixes.push_back("grad_fn=<" + grad_fn_name(*t.grad_fn()) + ">");
  } else if (t.requires_grad()) {
    suffixes.push_back("requires_grad=True");
  }
  return add_suffixes(prefix + body, suffixes, indent);
}
}  // namespace

std::string format_tensor(const Tensor& t) { return format_any(t, false); }

std::string format_complex_tensor(const Tensor& pairs) { return format_any(pairs, true); }

}  // namespace kiln
