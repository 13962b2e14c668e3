// Source text -> AST. The lexer handles indentation, line joining inside
// brackets and after a backslash, and every literal form; the parser is a
// recursive-descent parser for Kiln's subset of Python's grammar.
#pragma once

#include <string>
#include <string_view>

#include "core/lang/ast.h"

namespace kiln::lang {

// Throws kiln::Error(ErrorKind::Syntax) with file:line:col for bad input and
// for Python constructs Kiln does not support ("'async' is not supported by kiln").
Module parse_module(std::string_view source, const std::string& filename);

}  // namespace kiln::lang
