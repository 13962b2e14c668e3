// The abstract syntax tree of a Kiln script. Node kinds and field names
// follow CPython's `ast` module (ast.BinOp has left/op/right, ...), so anyone
// who knows Python's grammar can read the parser and the compiler. Only the
// subset Kiln supports has nodes; the parser rejects everything else with a
// SyntaxError naming the construct.
//
// Nodes are plain structs owned through unique_ptr; `kind` says which struct
// a base pointer really is (use `as<T>()`).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <variant>
#include <vector>

namespace kiln::lang {

// 1-based line and column (column counts bytes from 1, like CPython's col_offset + 1).
struct Pos {
  int line = 0;
  int col = 0;
};

#define KILN_BINOPS(_) \
  _(Add, "+") _(Sub, "-") _(Mult, "*") _(Div, "/") _(FloorDiv, "//") _(Mod, "%") _(Pow, "**") \
  _(MatMult, "@") _(LShift, "<<") _(RShift, ">>") _(BitOr, "|") _(BitXor, "^") _(BitAnd, "&")
enum class BinOpKind : uint8_t {
#define KILN_BINOP_ENUM(n, s) n,
  KILN_BINOPS(KILN_BINOP_ENUM)
#undef KILN_BINOP_ENUM
};
const char* binop_symbol(BinOpKind k);  // "+", "//", ...

enum class UnaryOpKind : uint8_t { UAdd, USub, Not, Invert };

#define KILN_CMPOPS(_) \
  _(Eq, "==") _(NotEq, "!=") _(Lt, "<") _(LtE, "<=") _(Gt, ">") _(GtE, ">=") \
  _(Is, "is") _(IsNot, "is not") _(In, "in") _(NotIn, "not in")
enum class CmpOpKind : uint8_t {
#define KILN_CMPOP_ENUM(n, s) n,
  KILN_CMPOPS(KILN_CMPOP_ENUM)
#undef KILN_CMPOP_ENUM
};
const char* cmpop_symbol(CmpOpKind k);

enum class BoolOpKind : uint8_t { And, Or };

// ---- expressions ------------------------------------------------------------------

enum class ExprKind : uint8_t {
  Constant, Name, Attribute, Subscript, Slice, Starred, Call, BinOp, UnaryOp, BoolOp, Compare,
  IfExp, Lambda, List, Tuple, Dict, Set, ListComp, SetComp, DictComp, GeneratorExp, JoinedStr,
  FormattedValue, NamedExpr, Yield
};

struct Expr {
  ExprKind kind;
  Pos pos;
  explicit Expr(ExprKind k, Pos p) : kind(k), pos(p) {}
  virtual ~Expr() = default;
  template <class T> T* as() { return kind == T::kKind ? static_cast<T*>(this) : nullptr; }
  template <class T> const T* as() const { return kind == T::kKind ? static_cast<const T*>(this) : nullptr; }
};
using ExprP = std::unique_ptr<Expr>;
using ExprList = std::vector<ExprP>;

#define KILN_EXPR_NODE(Name_)                              \
  static constexpr ExprKind kKind = ExprKind::Name_;       \
  explicit Name_(Pos p) : Expr(ExprKind::Name_, p) {}

struct Ellipsis {};  // the `...` literal
// None is std::monostate. Strings are UTF-8; ints are 64-bit (larger literals are a SyntaxError).
struct BytesValue { std::string value; };  // a b"..." literal's bytes
using ConstantValue = std::variant<std::monostate, bool, int64_t, double, std::string, Ellipsis, BytesValue>;

struct Constant : Expr { KILN_EXPR_NODE(Constant) ConstantValue value; };
struct Name : Expr { KILN_EXPR_NODE(Name) std::string id; };
struct Attribute : Expr { KILN_EXPR_NODE(Attribute) ExprP value; std::string attr; };
// a[b]; a[1:2, ::3] has a Tuple of Slices as `slice`.
struct Subscript : Expr { KILN_EXPR_NODE(Subscript) ExprP value; ExprP slice; };
struct Slice : Expr { KILN_EXPR_NODE(Slice) ExprP lower, upper, step; };  // each may be null
struct Starred : Expr { KILN_EXPR_NODE(Starred) ExprP value; };
struct Keyword {
  Pos pos;
  std::string arg;  // empty for **kwargs
  ExprP value;
};
// f(a, *b, k=c, **d): Starred entries in args; a Keyword with empty arg is **d.
struct Call : Expr { KILN_EXPR_NODE(Call) ExprP func; ExprList args; std::vector<Keyword> keywords; };
struct BinOp : Expr { KILN_EXPR_NODE(BinOp) ExprP left; BinOpKind op; ExprP right; };
struct UnaryOp : Expr { KILN_EXPR_NODE(UnaryOp) UnaryOpKind op; ExprP operand; };
struct BoolOp : Expr { KILN_EXPR_NODE(BoolOp) BoolOpKind op; ExprList values; };
// a < b <= c: left=a, ops={Lt, LtE}, comparators={b, c}.
struct Compare : Expr { KILN_EXPR_NODE(Compare) ExprP left; std::vector<CmpOpKind> ops; ExprList comparators; };
struct IfExp : Expr { KILN_EXPR_NODE(IfExp) ExprP test, body, orelse; };
struct NamedExpr : Expr { KILN_EXPR_NODE(NamedExpr) std::string target; ExprP value; };  // target := value
struct Yield : Expr { KILN_EXPR_NODE(Yield) ExprP value; bool from = false; };  // yield value / yield from value

struct Arg {
  Pos pos;
  std::string name;
  ExprP annotation;  // null when none (lambda parameters never have one)
};
// def f(a, b=1, *args, c, d=2, **kw): args={a,b}, defaults={1} (aligned to the end of args),
// vararg=args, kwonlyargs={c,d}, kw_defaults={null,2}, kwarg=kw. Positional-only `/` is rejected.
struct Arguments {
  std::vector<Arg> args;
  ExprList defaults;
  std::unique_ptr<Arg> vararg;
  std::vector<Arg> kwonlyargs;
  ExprList kw_defaults;  // same length as kwonlyargs; null where no default
  std::unique_ptr<Arg> kwarg;
};
struct Lambda : Expr { KILN_EXPR_NODE(Lambda) Arguments args; ExprP body; };

struct List : Expr { KILN_EXPR_NODE(List) ExprList elts; };
struct Tuple : Expr { KILN_EXPR_NODE(Tuple) ExprList elts; };
// {**d} has a null key and d as value.
struct Dict : Expr { KILN_EXPR_NODE(Dict) ExprList keys; ExprList values; };
struct Set : Expr { KILN_EXPR_NODE(Set) ExprList elts; };

struct Comprehension {
  ExprP target;
  ExprP iter;
  ExprList ifs;
};
struct ListComp : Expr { KILN_EXPR_NODE(ListComp) ExprP elt; std::vector<Comprehension> generators; };
struct SetComp : Expr { KILN_EXPR_NODE(SetComp) ExprP elt; std::vector<Comprehension> generators; };
struct DictComp : Expr { KILN_EXPR_NODE(DictComp) ExprP key, value; std::vector<Comprehension> generators; };
// Only where it is consumed at once: sum(x for x in y), any(...), "".join(...), tuple(...).
struct GeneratorExp : Expr { KILN_EXPR_NODE(GeneratorExp) ExprP elt; std::vector<Comprehension> generators; };

// f"a{b!r:>{w}}": values are Constant strings and FormattedValues.
struct JoinedStr : Expr { KILN_EXPR_NODE(JoinedStr) ExprList values; };
struct FormattedValue : Expr {
  KILN_EXPR_NODE(FormattedValue)
  ExprP value;
  int conversion = -1;  // -1, 's', 'r' or 'a'
  ExprP format_spec;    // a JoinedStr, or null
};
#undef KILN_EXPR_NODE

// ---- statements -------------------------------------------------------------------

enum class StmtKind : uint8_t {
  FunctionDef, ClassDef, Return, Delete, Assign, AugAssign, AnnAssign, For, While, If, With, Raise,
  Try, Assert, Import, ImportFrom, Global, Nonlocal, Expr, Pass, Break, Continue
};

struct Stmt {
  StmtKind kind;
  Pos pos;
  explicit Stmt(StmtKind k, Pos p) : kind(k), pos(p) {}
  virtual ~Stmt() = default;
  template <class T> T* as() { return kind == T::kKind ? static_cast<T*>(this) : nullptr; }
  template <class T> const T* as() const { return kind == T::kKind ? static_cast<const T*>(this) : nullptr; }
};
using StmtP = std::unique_ptr<Stmt>;
using StmtList = std::vector<StmtP>;

#define KILN_STMT_NODE(Name_)                              \
  static constexpr StmtKind kKind = StmtKind::Name_;       \
  explicit Name_(Pos p) : Stmt(StmtKind::Name_, p) {}

struct FunctionDef : Stmt {
  KILN_STMT_NODE(FunctionDef)
  std::string name;
  Arguments args;
  StmtList body;
  ExprList decorator_list;
  ExprP returns;  // the `-> X` annotation, null when none
  std::string docstring;  // informational; the body still holds the string statement
};

// fn(name, annotation) for each annotated parameter and then the return, in
// the order CPython fills a function's __annotations__.
template <class Fn>
void for_each_annotation(const FunctionDef& f, Fn&& fn) {
  auto one = [&](const Arg* a) {
    if (a && a->annotation) fn(a->name, *a->annotation);
  };
  for (const Arg& a : f.args.args) one(&a);
  one(f.args.vararg.get());
  for (const Arg& a : f.args.kwonlyargs) one(&a);
  one(f.args.kwarg.get());
  if (f.returns) fn(std::string("return"), *f.returns);
}
struct ClassDef : Stmt {
  KILN_STMT_NODE(ClassDef)
  std::string name;
  ExprList bases;  // at most one (single inheritance); the parser rejects more
  StmtList body;
  ExprList decorator_list;
};
struct Return : Stmt { KILN_STMT_NODE(Return) ExprP value; };  // value may be null
struct Delete : Stmt { KILN_STMT_NODE(Delete) ExprList targets; };
// a = b = value: targets={a, b}. Targets are Name, Attribute, Subscript, Tuple, List, Starred.
struct Assign : Stmt { KILN_STMT_NODE(Assign) ExprList targets; ExprP value; };
struct AugAssign : Stmt { KILN_STMT_NODE(AugAssign) ExprP target; BinOpKind op; ExprP value; };
// x: int = 3 (the annotation is parsed and ignored); value may be null.
struct AnnAssign : Stmt { KILN_STMT_NODE(AnnAssign) ExprP target; ExprP annotation; ExprP value; };
struct For : Stmt { KILN_STMT_NODE(For) ExprP target; ExprP iter; StmtList body; StmtList orelse; };
struct While : Stmt { KILN_STMT_NODE(While) ExprP test; StmtList body; StmtList orelse; };
struct If : Stmt { KILN_STMT_NODE(If) ExprP test; StmtList body; StmtList orelse; };  // elif: orelse holds one If
struct WithItem {
  ExprP context_expr;
  ExprP optional_vars;  // may be null
};
struct With : Stmt { KILN_STMT_NODE(With) std::vector<WithItem> items; StmtList body; };
struct Raise : Stmt { KILN_STMT_NODE(Raise) ExprP exc; ExprP cause; };  // both may be null
struct ExceptHandler {
  Pos pos;
  ExprP type;        // null for a bare `except:`; may be a Tuple of classes
  std::string name;  // `as name`, or empty
  StmtList body;
};
struct Try : Stmt {
  KILN_STMT_NODE(Try)
  StmtList body;
  std::vector<ExceptHandler> handlers;
  StmtList orelse;
  StmtList finalbody;
};
struct Assert : Stmt { KILN_STMT_NODE(Assert) ExprP test; ExprP msg; };
struct Alias {
  Pos pos;
  std::string name;    // dotted for `import a.b`
  std::string asname;  // empty when absent
};
struct Import : Stmt { KILN_STMT_NODE(Import) std::vector<Alias> names; };
struct ImportFrom : Stmt { KILN_STMT_NODE(ImportFrom) std::string module; std::vector<Alias> names; };
struct Global : Stmt { KILN_STMT_NODE(Global) std::vector<std::string> names; };
struct Nonlocal : Stmt { KILN_STMT_NODE(Nonlocal) std::vector<std::string> names; };
struct ExprStmt : Stmt {
  static constexpr StmtKind kKind = StmtKind::Expr;
  explicit ExprStmt(Pos p) : Stmt(StmtKind::Expr, p) {}
  ExprP value;
};
struct Pass : Stmt { KILN_STMT_NODE(Pass) };
struct Break : Stmt { KILN_STMT_NODE(Break) };
struct Continue : Stmt { KILN_STMT_NODE(Continue) };
#undef KILN_STMT_NODE

struct Module {
  std::string filename;  // as given to the parser; used in every error and traceback
  StmtList body;
};

// A compact s-expression rendering for tests and debugging: `(= (x) (+ a 1))`;
// with_pos adds `@line:col` after each node's head.
std::string dump(const Module& m, bool with_pos = false);
std::string dump(const Expr& e, bool with_pos = false);

}  // namespace kiln::lang
