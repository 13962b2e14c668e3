// kiln_outcmp expected actual: compares a script's output with the output
// recorded under CPython + PyTorch. Numbers (ints, floats, inf, nan, also
// inside "[1.5, 2.0]" or "tensor([0.1000, ...])") match within a relative
// tolerance of 1e-4 (absolute 1e-5 near zero), because float32 kernels may
// round differently from PyTorch's; everything else must match exactly,
// except that a run of spaces matches a run of any length and spaces right
// after '[' or '(' are ignored (tensor reprs pad columns to the widest
// printed value, which a sign or last-digit difference can change).
// Prints the first differing line and exits 1; exits 0 when they agree.
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

namespace {

constexpr double kRelTol = 1e-4;
constexpr double kAbsTol = 1e-5;

struct Token {
  bool numeric = false;
  double value = 0;
  std::string text;
};

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_word(char c) { return is_digit(c) || c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

// Length of the number starting at s[i] (0 if none): digits with an optional
// fraction and exponent, or the words inf / nan; an optional leading minus.
size_t number_length(const std::string& s, size_t i) {
  size_t j = i;
  if (s[j] == '-' || s[j] == '+') {
    if (i > 0 && (is_word(s[i - 1]) || s[i - 1] == ')' || s[i - 1] == ']' || s[i - 1] == '.')) return 0;
    ++j;
  }
  if (j >= s.size()) return 0;
  auto word_at = [&](const char* w) {
    size_t n = std::char_traits<char>::length(w);
    return s.compare(j, n, w) == 0 && (j + n == s.size() || !is_word(s[j + n])) && (j == 0 || !is_word(s[j - 1]));
  };
  if (word_at("inf") || word_at("nan")) return j + 3 - i;
  size_t k = j;
  while (k < s.size() && is_digit(s[k])) ++k;
  bool int_part = k > j;
  if (k < s.size() && s[k] == '.' && (int_part || (k + 1 < s.size() && is_digit(s[k + 1])))) {
    ++k;
    while (k < s.size() && is_digit(s[k])) ++k;
  }
  if (k == j || (!int_part && k == j + 1)) return 0;
  if (k < s.size() && (s[k] == 'e' || s[k] == 'E')) {
    size_t e = k + 1;
    if (e < s.size() && (s[e] == '+' || s[e] == '-')) ++e;
    if (e < s.size() && is_digit(s[e])) {
      while (e < s.size() && is_digit(s[e])) ++e;
      k = e;
    }
  }
  return k - i;
}

std::vector<Token> tokenize(const std::string& line) {
  std::vector<Token> out;
  std::string text;
  auto flush = [&] {
    if (!text.empty()) out.push_back({false, 0, text});
    text.clear();
  };
  for (size_t i = 0; i < line.size();) {
    size_t n = number_length(line, i);
    if (n > 0) {
      flush();
      std::string num = line.substr(i, n);
      out.push_back({true, std::strtod(num.c_str(), nullptr), num});
      i += n;
    } else if (line[i] == ' ') {
      // Column padding: a run of spaces is one space, none right after a bracket.
      bool after_bracket = !text.empty() && (text.back() == '[' || text.back() == '(');
      if (!after_bracket && (text.empty() || text.back() != ' ')) text += ' ';
      ++i;
    } else {
      text += line[i++];
    }
  }
  flush();
  return out;
}

bool numbers_match(double a, double b) {
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
  if (std::isinf(a) || std::isinf(b)) return a == b;
  double diff = std::fabs(a - b);
  return diff <= kAbsTol || diff <= kRelTol * std::max(std::fabs(a), std::fabs(b));
}

bool lines_match(const std::string& expected, const std::string& actual) {
  std::vector<Token> e = tokenize(expected), a = tokenize(actual);
  if (e.size() != a.size()) return false;
  for (size_t i = 0; i < e.size(); ++i) {
    if (e[i].numeric != a[i].numeric) return false;
    if (e[i].numeric ? !numbers_match(e[i].value, a[i].value) : e[i].text != a[i].text) return false;
  }
  return true;
}

bool read_lines(const char* path, std::vector<std::string>& lines) {
  std::ifstream f(path, std::ios::binary);
  if (!f) return false;
  std::string line;
  while (std::getline(f, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    lines.push_back(line);
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: kiln_outcmp EXPECTED ACTUAL\n";
    return 2;
  }
  std::vector<std::string> expected, actual;
  for (int i : {1, 2}) {
    if (!read_lines(argv[i], i == 1 ? expected : actual)) {
      std::cerr << "kiln_outcmp: cannot read " << argv[i] << "\n";
      return 2;
    }
  }
  size_t n = std::max(expected.size(), actual.size());
  for (size_t i = 0; i < n; ++i) {
    bool have_e = i < expected.size(), have_a = i < actual.size();
    if (have_e && have_a && lines_match(expected[i], actual[i])) continue;
    std::cout << "outputs differ at line " << i + 1 << ":\n"
              << "  expected: " << (have_e ? expected[i] : "<end of output>") << "\n"
              << "  actual:   " << (have_a ? actual[i] : "<end of output>") << "\n";
    return 1;
  }
  return 0;
}
