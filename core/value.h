// Value: what flows into and out of an op call. It mirrors the argument
// types of PyTorch schemas (Tensor, Tensor[], int, int[], float, bool,
// Scalar, ScalarType, str, None); the VM converts Python objects to these.
#pragma once

#include <span>
#include <string>
#include <variant>
#include <vector>

#include "core/tensor.h"

namespace kiln {

class Value {
 public:
  using Var = std::variant<std::monostate, Tensor, int64_t, double, bool, Shape, std::vector<Tensor>,
                           DType, std::string>;
  Value() = default;
  Value(std::nullptr_t) {}
  Value(Tensor t) : v_(std::move(t)) {}
  Value(int v) : v_(int64_t(v)) {}
  Value(int64_t v) : v_(v) {}
  Value(double v) : v_(v) {}
  Value(bool v) : v_(v) {}
  Value(Shape v) : v_(std::move(v)) {}
  Value(std::initializer_list<int64_t> v) : v_(Shape(v)) {}
  Value(std::vector<Tensor> v) : v_(std::move(v)) {}
  Value(DType d) : v_(d) {}
  Value(std::string s) : v_(std::move(s)) {}
  Value(const char* s) : v_(std::string(s)) {}

  bool is_none() const { return std::holds_alternative<std::monostate>(v_); }
  bool is_tensor() const { return std::holds_alternative<Tensor>(v_); }
  bool is_int() const { return std::holds_alternative<int64_t>(v_); }
  bool is_double() const { return std::holds_alternative<double>(v_); }
  bool is_bool() const { return std::holds_alternative<bool>(v_); }
  bool is_number() const { return is_int() || is_double() || is_bool(); }
  bool is_int_list() const { return std::holds_alternative<Shape>(v_); }
  bool is_tensor_list() const { return std::holds_alternative<std::vector<Tensor>>(v_); }
  bool is_dtype() const { return std::holds_alternative<DType>(v_); }
  bool is_string() const { return std::holds_alternative<std::string>(v_); }

  const Tensor& tensor() const {
    if (const Tensor* t = std::get_if<Tensor>(&v_)) return *t;
    type_error("Tensor");
  }
  int64_t to_int() const;     // int or bool
  double to_double() const;   // any number
  bool to_bool() const;
  const Shape& int_list() const;
  const std::vector<Tensor>& tensor_list() const;
  DType dtype() const;
  const std::string& str() const;
  const Var& var() const { return v_; }
  std::string type_name() const;  // for error messages: "Tensor", "int", ...

 private:
  [[noreturn]] void type_error(const char* expected) const;
  Var v_;
};

// Calls f on every defined tensor among `args`, those inside Tensor[] too.
template <class F>
void for_each_tensor(std::span<const Value> args, F&& f) {
  for (const Value& v : args) {
    if (v.is_tensor() && v.tensor().defined()) f(v.tensor());
    if (v.is_tensor_list())
      for (const Tensor& t : v.tensor_list())
        if (t.defined()) f(t);
  }
}

}  // namespace kiln
