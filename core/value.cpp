#include "core/value.h"

namespace kiln {

void Value::type_error(const char* expected) const {
  throw Error(detail::cat("expected ", expected, " but got ", type_name()), ErrorKind::Type);
}

int64_t Value::to_int() const {
  if (is_int()) return std::get<int64_t>(v_);
  if (is_bool()) return std::get<bool>(v_) ? 1 : 0;
  throw Error("expected int but got " + type_name(), ErrorKind::Type);
}

double Value::to_double() const {
  if (is_double()) return std::get<double>(v_);
  if (is_int()) return double(std::get<int64_t>(v_));
  if (is_bool()) return std::get<bool>(v_) ? 1.0 : 0.0;
  throw Error("expected float but got " + type_name(), ErrorKind::Type);
}

bool Value::to_bool() const {
  if (is_bool()) return std::get<bool>(v_);
  if (is_int()) return std::get<int64_t>(v_) != 0;
  throw Error("expected bool but got " + type_name(), ErrorKind::Type);
}

const Shape& Value::int_list() const {
  KILN_CHECK(is_int_list(), Type, "expected tuple of ints but got ", type_name());
  return std::get<Shape>(v_);
}

const std::vector<Tensor>& Value::tensor_list() const {
  KILN_CHECK(is_tensor_list(), Type, "expected sequence of Tensors but got ", type_name());
  return std::get<std::vector<Tensor>>(v_);
}

DType Value::dtype() const {
  KILN_CHECK(is_dtype(), Type, "expected torch.dtype but got ", type_name());
  return std::get<DType>(v_);
}

const std::string& Value::str() const {
  KILN_CHECK(is_string(), Type, "expected str but got ", type_name());
  return std::get<std::string>(v_);
}

std::string Value::type_name() const {
  static const char* kNames[] = {"NoneType", "Tensor", "int", "float", "bool",
                                 "tuple of ints", "list of Tensors", "torch.dtype", "str"};
  return kNames[v_.index()];
}

}  // namespace kiln
