// Recursive descent over the token vector, one function per grammar rule of
// CPython's grammar (precedence climbs from expr() down to atom()). Every
// rule that recurses, and every loop that builds a left-deep tree, counts
// toward a depth limit, so hostile input cannot exhaust the stack here or in
// the passes that walk the tree afterwards.
#include "core/lang/parser.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <unordered_set>

#include "core/error.h"
#include "core/lang/lexer.h"

namespace kiln::lang {
namespace {

constexpr int kMaxDepth = 1000;

template <class T>
std::unique_ptr<T> mk(Pos p) {
  return std::make_unique<T>(p);
}

bool is_string_constant(const Expr* e) {
  auto* c = e ? e->as<Constant>() : nullptr;
  return c && std::holds_alternative<std::string>(c->value);
}

enum class TargetCtx { Assign, Store, Del, Aug };

class Parser {
 public:
  Parser(std::string_view src, const std::string& file, std::vector<Token> toks, int depth)
      : src_(src), file_(file), t_(std::move(toks)), depth_(depth) {}

  StmtList file() {
    StmtList body;
    while (cur().kind != TokKind::End) statement(body);
    return body;
  }

  // An f-string replacement field's expression, which must use all tokens.
  // A bare tuple (`f"{a, b}"`) starts at the brace, as CPython parses the field parenthesized.
  ExprP field_expression(Pos brace) {
    bare_tuple_ = false;
    ExprP e = star_expressions();
    if (bare_tuple_) e->pos = brace;
    no_bare_star(e);
    if (cur().kind != TokKind::End) unexpected();
    return e;
  }

 private:
  std::string_view src_;
  const std::string& file_;
  std::vector<Token> t_;
  size_t p_ = 0;
  int depth_;
  bool bare_tuple_ = false;  // set when star_expressions() builds a tuple without parentheses

  // ---- tokens and errors -------------------------------------------------------

  const Token& cur() const { return t_[p_]; }
  const Token& la(size_t k) const { return t_[std::min(p_ + k, t_.size() - 1)]; }
  const Token& advance() {
    const Token& tk = t_[p_];
    if (p_ + 1 < t_.size()) ++p_;
    return tk;
  }
  static bool is_op(const Token& tk, const char* s) { return tk.kind == TokKind::Op && tk.text == s; }
  static bool is_kw(const Token& tk, const char* s) { return tk.kind == TokKind::Name && tk.text == s; }
  bool op(const char* s) const { return is_op(cur(), s); }
  bool kw(const char* s) const { return is_kw(cur(), s); }
  bool accept_op(const char* s) {
    if (!op(s)) return false;
    advance();
    return true;
  }
  bool accept_kw(const char* s) {
    if (!kw(s)) return false;
    advance();
    return true;
  }
  void expect_op(const char* s) {
    if (!accept_op(s)) unexpected();
  }
  void expect_colon() {
    if (op(":=")) unexpected();
    if (!accept_op(":")) fail(cur().pos, "expected ':'");
  }

  [[noreturn]] void fail(Pos pos, const std::string& msg) const {
    if (cur().kind == TokKind::Error) syntax_error(file_, cur().pos, cur().text);
    syntax_error(file_, pos, msg);
  }
  static bool before(Pos a, Pos b) { return a.line < b.line || (a.line == b.line && a.col < b.col); }
  [[noreturn]] void unsupported(Pos pos, const std::string& what) const {
    fail(pos, what + " is not supported by kiln");
  }
  [[noreturn]] void unexpected() const { unexpected(cur()); }
  [[noreturn]] void unexpected(const Token& tk) const {
    if (tk.kind == TokKind::Indent) fail(tk.pos, "unexpected indent");
    if (is_op(tk, ":=")) fail(tk.pos, "invalid syntax: `name := value` needs parentheses here");
    if (tk.kind == TokKind::Name && (tk.text == "await" || tk.text == "async"))
      unsupported(tk.pos, "'" + tk.text + "'");
    // Like CPython, a tokenizer error later in the file explains a plain
    // syntax error better, as does a bracket left open before it.
    const Token& last = t_.size() >= 2 ? t_[t_.size() - 2] : t_.back();
    if (last.kind == TokKind::Error &&
        (last.error_kind == LexErrorKind::Token ||
         (last.error_kind == LexErrorKind::Unclosed && before(last.open_pos, tk.pos))))
      syntax_error(file_, last.pos, last.text);
    fail(tk.pos, "invalid syntax");
  }

  // Depth accounting: Deeper for recursive rules, deepen() inside loops that
  // nest the tree (restored by a DepthScope when the loop ends).
  void deepen(Pos pos) {
    if (++depth_ > kMaxDepth) fail(pos, "expression too deeply nested (kiln's limit is 1000 levels)");
  }
  struct Deeper {
    Parser& ps;
    Deeper(Parser& p, Pos pos) : ps(p) { ps.deepen(pos); }
    ~Deeper() { --ps.depth_; }
  };
  struct DepthScope {
    int& depth;
    int saved;
    explicit DepthScope(int& d) : depth(d), saved(d) {}
    ~DepthScope() { depth = saved; }
  };

  std::string ident() {
    if (cur().kind != TokKind::Name || is_keyword(cur().text)) unexpected();
    return advance().text;
  }

  bool starts_expr() const {
    const Token& tk = cur();
    switch (tk.kind) {
      case TokKind::Name:
        return !is_keyword(tk.text) || tk.text == "None" || tk.text == "True" || tk.text == "False" ||
               tk.text == "lambda" || tk.text == "not" || tk.text == "await" || tk.text == "yield";
      case TokKind::Int: case TokKind::Float: case TokKind::String: return true;
      case TokKind::Op:
        for (const char* s : {"(", "[", "{", "-", "+", "~", "...", "*"})
          if (tk.text == s) return true;
        return false;
      default: return false;
    }
  }

  // ---- statements --------------------------------------------------------------

  void statement(StmtList& out) {
    const Token& tk = cur();
    if (tk.kind == TokKind::Indent) fail(tk.pos, "unexpected indent");
    if (tk.kind == TokKind::Name) {
      const std::string& w = tk.text;
      if (w == "if") return out.push_back(if_stmt());
      if (w == "while") return out.push_back(while_stmt());
      if (w == "for") return out.push_back(for_stmt());
      if (w == "try") return out.push_back(try_stmt());
      if (w == "with") return out.push_back(with_stmt());
      if (w == "def") return out.push_back(funcdef({}));
      if (w == "class") return out.push_back(classdef({}));
      if (w == "async") unsupported(tk.pos, "'async'");
      if (w == "match" && looks_like_match()) fail(tk.pos, "'match' statements are not supported by kiln");
    }
    if (op("@")) return out.push_back(decorated());
    simple_stmts(out);
  }

  // `match <subject>:` followed by an indented block (match is a soft keyword).
  bool looks_like_match() const {
    const Token& next = la(1);
    if (next.kind == TokKind::Newline || next.kind == TokKind::End) return false;
    if (next.kind == TokKind::Op) {
      for (const char* s : {"=", ".", ":", ",", ")", "]", "}", ";", "+=", "-=", "*=", "/=", "==", "!="})
        if (next.text == s) return false;
    }
    size_t k = p_ + 1;
    while (k < t_.size() && t_[k].kind != TokKind::Newline && t_[k].kind != TokKind::End) ++k;
    return k + 1 < t_.size() && is_op(t_[k - 1], ":") && t_[k + 1].kind == TokKind::Indent;
  }

  void simple_stmts(StmtList& out) {
    while (true) {
      out.push_back(small_stmt());
      if (!accept_op(";")) break;
      if (cur().kind == TokKind::Newline) break;
    }
    if (cur().kind != TokKind::Newline) unexpected();
    advance();
  }

  StmtP small_stmt() {
    const Token& tk = cur();
    Pos pos = tk.pos;
    if (tk.kind == TokKind::Name) {
      const std::string& w = tk.text;
      if (w == "pass") return advance(), mk<Pass>(pos);
      if (w == "break") return advance(), mk<Break>(pos);
      if (w == "continue") return advance(), mk<Continue>(pos);
      if (w == "return") return return_stmt();
      if (w == "raise") return raise_stmt();
      if (w == "global" || w == "nonlocal") return scope_stmt();
      if (w == "del") return del_stmt();
      if (w == "assert") return assert_stmt();
      if (w == "import") return import_stmt();
      if (w == "from") return from_stmt();
      if ((w == "print" || w == "exec") && python2_statement())
        fail(pos, "Missing parentheses in call to '" + w + "'. Did you mean " + w + "(...)?");
    }
    return expr_stmt();
  }

  bool python2_statement() const {
    const Token& next = la(1);
    if (next.kind == TokKind::String || next.kind == TokKind::Int || next.kind == TokKind::Float) return true;
    return next.kind == TokKind::Name && !is_keyword(next.text);
  }

  // A yield expression (`yield`, `yield a, b`, `yield from it`) where a
  // statement or an assignment's value may hold one, else star_expressions.
  ExprP value_or_yield() {
    if (!kw("yield")) return star_expressions();
    auto node = mk<Yield>(advance().pos);
    if (accept_kw("from")) {
      node->from = true;
      node->value = expr();
    } else if (starts_expr()) {
      node->value = star_expressions();
      no_bare_star(node->value);
    }
    return node;
  }

  StmtP expr_stmt() {
    Pos pos = cur().pos;
    ExprP first = value_or_yield();
    if (op(":")) return ann_assign(pos, std::move(first));
    static const std::pair<const char*, BinOpKind> kAug[] = {
        {"+=", BinOpKind::Add},       {"-=", BinOpKind::Sub},     {"*=", BinOpKind::Mult},
        {"/=", BinOpKind::Div},       {"//=", BinOpKind::FloorDiv}, {"%=", BinOpKind::Mod},
        {"**=", BinOpKind::Pow},      {"@=", BinOpKind::MatMult}, {"&=", BinOpKind::BitAnd},
        {"|=", BinOpKind::BitOr},     {"^=", BinOpKind::BitXor},  {"<<=", BinOpKind::LShift},
        {">>=", BinOpKind::RShift}};
    for (auto& [s, k] : kAug) {
      if (!op(s)) continue;
      check_target(*first, TargetCtx::Aug, true);
      advance();
      auto node = mk<AugAssign>(pos);
      node->target = std::move(first);
      node->op = k;
      node->value = value_or_yield();
      no_bare_star(node->value);
      return node;
    }
    if (op("=")) {
      auto node = mk<Assign>(pos);
      node->targets.push_back(std::move(first));
      while (accept_op("=")) node->targets.push_back(value_or_yield());
      node->value = std::move(node->targets.back());
      node->targets.pop_back();
      no_bare_star(node->value);
      for (size_t i = 0; i < node->targets.size(); ++i)
        check_target(*node->targets[i], i == 0 ? TargetCtx::Assign : TargetCtx::Store, true);
      return node;
    }
    no_bare_star(first);
    auto node = mk<ExprStmt>(pos);
    node->value = std::move(first);
    return node;
  }

  StmtP ann_assign(Pos pos, ExprP target) {
    if (target->kind == ExprKind::Tuple) fail(target->pos, "only single target (not tuple) can be annotated");
    if (target->kind == ExprKind::List) fail(target->pos, "only single target (not list) can be annotated");
    if (target->kind != ExprKind::Name && target->kind != ExprKind::Attribute &&
        target->kind != ExprKind::Subscript)
      fail(target->pos, "illegal target for annotation");
    advance();
    auto node = mk<AnnAssign>(pos);
    node->target = std::move(target);
    node->annotation = expr();
    if (accept_op("=")) {
      node->value = star_expressions();
      no_bare_star(node->value);
    }
    return node;
  }

  StmtP return_stmt() {
    auto node = mk<Return>(advance().pos);
    if (starts_expr()) {
      node->value = star_expressions();
      no_bare_star(node->value);
    }
    return node;
  }

  StmtP raise_stmt() {
    auto node = mk<Raise>(advance().pos);
    if (starts_expr()) {
      node->exc = expr();
      if (accept_kw("from")) node->cause = expr();
    }
    return node;
  }

  StmtP scope_stmt() {
    bool global = cur().text == "global";
    Pos pos = advance().pos;
    std::vector<std::string> names{ident()};
    while (accept_op(",")) names.push_back(ident());
    if (global) {
      auto node = mk<Global>(pos);
      node->names = std::move(names);
      return node;
    }
    auto node = mk<Nonlocal>(pos);
    node->names = std::move(names);
    return node;
  }

  StmtP del_stmt() {
    auto node = mk<Delete>(advance().pos);
    do {
      if (!starts_expr()) break;
      node->targets.push_back(star_item());
      check_target(*node->targets.back(), TargetCtx::Del, true);
    } while (accept_op(","));
    if (node->targets.empty()) unexpected();
    return node;
  }

  StmtP assert_stmt() {
    auto node = mk<Assert>(advance().pos);
    node->test = expr();
    if (accept_op(",")) node->msg = expr();
    return node;
  }

  std::string dotted_name() {
    std::string name = ident();
    while (accept_op(".")) {
      name += '.';
      name += ident();
    }
    return name;
  }

  StmtP import_stmt() {
    auto node = mk<Import>(advance().pos);
    do {
      Alias a;
      a.pos = cur().pos;
      a.name = dotted_name();
      if (accept_kw("as")) a.asname = ident();
      node->names.push_back(std::move(a));
    } while (accept_op(","));
    return node;
  }

  StmtP from_stmt() {
    auto node = mk<ImportFrom>(advance().pos);
    // A relative import keeps its leading dots in the module name ("..pkg.m",
    // "." alone for `from . import x`); the importer resolves them at run time.
    while (op(".") || op("...")) {
      node->module += op(".") ? "." : "...";
      advance();
    }
    if (node->module.empty() || !kw("import")) node->module += dotted_name();
    if (!accept_kw("import")) unexpected();
    if (op("*")) {
      node->names.push_back(Alias{advance().pos, "*", ""});
      return node;
    }
    bool parens = accept_op("(");
    do {
      if (parens && op(")")) break;
      if (!parens && !node->names.empty() && cur().kind == TokKind::Newline)
        fail(t_[p_ - 1].pos, "trailing comma not allowed without surrounding parentheses");
      Alias a;
      a.pos = cur().pos;
      a.name = ident();
      if (accept_kw("as")) a.asname = ident();
      node->names.push_back(std::move(a));
    } while (accept_op(","));
    if (parens) expect_op(")");
    if (node->names.empty()) unexpected();
    return node;
  }

  // ':' then a block; `what` names the statement for the indentation error.
  StmtList block(const std::string& what, int line) {
    expect_colon();
    StmtList body;
    if (cur().kind != TokKind::Newline) {
      simple_stmts(body);
      return body;
    }
    advance();
    if (cur().kind != TokKind::Indent)
      fail(cur().pos, detail::cat("expected an indented block after ", what, " on line ", line));
    Deeper d(*this, advance().pos);
    while (cur().kind != TokKind::Dedent && cur().kind != TokKind::End) statement(body);
    advance();
    return body;
  }

  StmtP if_stmt() {
    struct Branch {
      Pos pos;
      ExprP test;
      StmtList body;
    };
    std::vector<Branch> branches;
    DepthScope scope(depth_);
    do {
      const Token& kwtok = advance();
      Branch b{kwtok.pos, nullptr, {}};
      b.test = named_expr();
      b.body = block(detail::cat("'", kwtok.text, "' statement"), kwtok.pos.line);
      branches.push_back(std::move(b));
      deepen(kwtok.pos);
    } while (kw("elif"));
    StmtList orelse;
    if (kw("else")) {
      int line = advance().pos.line;
      orelse = block("'else' statement", line);
    }
    // elif chains nest: the last branch is innermost.
    for (size_t i = branches.size(); i-- > 0;) {
      auto node = mk<If>(branches[i].pos);
      node->test = std::move(branches[i].test);
      node->body = std::move(branches[i].body);
      node->orelse = std::move(orelse);
      orelse.clear();
      orelse.push_back(std::move(node));
    }
    return std::move(orelse.front());
  }

  StmtList else_block() {
    if (!kw("else")) return {};
    int line = advance().pos.line;
    return block("'else' statement", line);
  }

  StmtP while_stmt() {
    auto node = mk<While>(advance().pos);
    node->test = named_expr();
    node->body = block("'while' statement", node->pos.line);
    node->orelse = else_block();
    return node;
  }

  StmtP for_stmt() {
    auto node = mk<For>(advance().pos);
    if (kw("async")) unexpected();
    node->target = target_list();
    check_target(*node->target, TargetCtx::Store, true);
    if (!accept_kw("in")) unexpected();
    node->iter = star_expressions();
    no_bare_star(node->iter);
    node->body = block("'for' statement", node->pos.line);
    node->orelse = else_block();
    return node;
  }

  StmtP try_stmt() {
    auto node = mk<Try>(advance().pos);
    node->body = block("'try' statement", node->pos.line);
    while (kw("except")) {
      ExceptHandler h;
      h.pos = advance().pos;
      if (op("*")) unsupported(cur().pos, "'except*'");
      if (!node->handlers.empty() && !node->handlers.back().type)
        fail(node->handlers.back().pos, "default 'except:' must be last");
      if (!op(":")) {
        h.type = expr();
        if (op(",")) fail(h.type->pos, "multiple exception types must be parenthesized");
        if (accept_kw("as")) h.name = ident();
      }
      h.body = block("'except' statement", h.pos.line);
      node->handlers.push_back(std::move(h));
    }
    if (!node->handlers.empty()) node->orelse = else_block();
    if (kw("finally")) {
      int line = advance().pos.line;
      node->finalbody = block("'finally' statement", line);
    }
    if (node->handlers.empty() && node->finalbody.empty())
      fail(cur().pos, "expected 'except' or 'finally' block");
    return node;
  }

  WithItem with_item() {
    WithItem item;
    item.context_expr = expr();
    if (accept_kw("as")) {
      item.optional_vars = target_item();
      check_target(*item.optional_vars, TargetCtx::Store, true);
    }
    return item;
  }

  StmtP with_stmt() {
    auto node = mk<With>(advance().pos);
    if (kw("async")) unexpected();
    if (op("(") && parenthesized_with_items(node->items)) {
      node->body = block("'with' statement", node->pos.line);
      return node;
    }
    do node->items.push_back(with_item());
    while (accept_op(","));
    node->body = block("'with' statement", node->pos.line);
    return node;
  }

  // `with (a as b, c):`; false (and nothing consumed) when the parenthesis
  // belongs to the first expression instead, as in `with (a):` or `with (a, b)[0]:`.
  bool parenthesized_with_items(std::vector<WithItem>& items) {
    size_t saved_p = p_;
    int saved_depth = depth_;
    try {
      advance();
      std::vector<WithItem> parsed;
      do {
        if (op(")")) break;
        parsed.push_back(with_item());
      } while (accept_op(","));
      expect_op(")");
      if (!op(":")) throw Error("not a parenthesized with", ErrorKind::Syntax);
      items = std::move(parsed);
      return true;
    } catch (const Error&) {
      p_ = saved_p;
      depth_ = saved_depth;
      return false;
    }
  }

  StmtP decorated() {
    ExprList decorators;
    while (accept_op("@")) {
      decorators.push_back(named_expr());
      if (cur().kind != TokKind::Newline) unexpected();
      advance();
    }
    if (kw("def")) return funcdef(std::move(decorators));
    if (kw("class")) return classdef(std::move(decorators));
    unexpected();
  }

  StmtP funcdef(ExprList decorators) {
    auto node = mk<FunctionDef>(advance().pos);
    node->decorator_list = std::move(decorators);
    node->name = ident();
    if (!accept_op("(")) fail(cur().pos, "expected '('");
    node->args = parameters(")", true);
    expect_op(")");
    if (accept_op("->")) node->returns = expr();
    node->body = block("function definition", node->pos.line);
    auto* first = node->body.empty() ? nullptr : node->body.front()->as<ExprStmt>();
    if (first && is_string_constant(first->value.get()))
      node->docstring = std::get<std::string>(first->value->as<Constant>()->value);
    return node;
  }

  StmtP classdef(ExprList decorators) {
    auto node = mk<ClassDef>(advance().pos);
    node->decorator_list = std::move(decorators);
    node->name = ident();
    if (accept_op("(")) {
      while (!op(")")) {
        if (op("**") || (cur().kind == TokKind::Name && is_op(la(1), "=")))
          fail(cur().pos, "keyword arguments in a class definition (metaclass=...) are not supported by kiln");
        if (op("*")) fail(cur().pos, "unpacking in a class's bases is not supported by kiln");
        ExprP base = expr();
        node->bases.push_back(std::move(base));
        if (!accept_op(",")) break;
      }
      expect_op(")");
    }
    node->body = block("class definition", node->pos.line);
    return node;
  }

  // ---- parameters --------------------------------------------------------------

  Arg param(bool annotations, std::unordered_set<std::string>& seen) {
    Arg a;
    a.pos = cur().pos;
    a.name = ident();
    if (!seen.insert(a.name).second) fail(a.pos, "duplicate argument '" + a.name + "' in function definition");
    if (annotations && accept_op(":")) a.annotation = expr();
    return a;
  }

  Arguments parameters(const char* close, bool annotations) {
    Arguments a;
    std::unordered_set<std::string> seen;
    bool star = false;
    Pos bare_star{};
    while (!op(close)) {
      if (op("/")) fail(cur().pos, "positional-only parameters (/) are not supported by kiln");
      if (accept_op("**")) {
        a.kwarg = std::make_unique<Arg>(param(annotations, seen));
        accept_op(",");
        if (!op(close)) fail(cur().pos, "arguments cannot follow var-keyword argument");
        break;
      }
      if (op("*")) {
        Pos pos = advance().pos;
        if (star) fail(pos, "* argument may appear only once");
        star = true;
        if (op(",") || op(close)) bare_star = pos;
        else a.vararg = std::make_unique<Arg>(param(annotations, seen));
      } else {
        Arg arg = param(annotations, seen);
        ExprP def = accept_op("=") ? expr() : nullptr;
        if (star) {
          a.kwonlyargs.push_back(std::move(arg));
          a.kw_defaults.push_back(std::move(def));
        } else {
          if (!def && !a.defaults.empty()) fail(arg.pos, "non-default argument follows default argument");
          a.args.push_back(std::move(arg));
          if (def) a.defaults.push_back(std::move(def));
        }
      }
      if (!accept_op(",")) break;
    }
    if (bare_star.line && a.kwonlyargs.empty()) fail(bare_star, "named arguments must follow bare *");
    return a;
  }

  // ---- expressions -------------------------------------------------------------

  void no_bare_star(const ExprP& e) const {
    if (e && e->kind == ExprKind::Starred) fail(e->pos, "can't use starred expression here");
  }

  // `a, *b, c` (a Tuple when there is a comma) or one expression.
  ExprP star_expressions() {
    Pos start = cur().pos;
    ExprP first = star_item();
    if (!op(",")) return first;
    bare_tuple_ = true;
    auto tuple = mk<Tuple>(start);
    tuple->elts.push_back(std::move(first));
    while (accept_op(",") && starts_expr()) tuple->elts.push_back(star_item());
    return tuple;
  }

  ExprP star_item() {
    if (!op("*")) return expr();
    auto node = mk<Starred>(advance().pos);
    node->value = bitor_expr();
    return node;
  }

  // `name := value` where Python's grammar has a named_expression (if/elif/
  // while tests, parenthesized expressions, call arguments); elsewhere `:=`
  // is a syntax error.
  ExprP named_expr() {
    if (cur().kind != TokKind::Name || is_keyword(cur().text) || !is_op(la(1), ":=")) return expr();
    auto node = mk<NamedExpr>(cur().pos);
    node->target = advance().text;
    advance();
    node->value = expr();
    return node;
  }

  // Assignment targets of `for` and comprehensions: stops before `in`.
  ExprP target_list() {
    Pos start = cur().pos;
    ExprP first = target_item();
    if (!op(",")) return first;
    auto tuple = mk<Tuple>(start);
    tuple->elts.push_back(std::move(first));
    while (accept_op(",") && starts_expr()) tuple->elts.push_back(target_item());
    return tuple;
  }

  ExprP target_item() {
    if (!op("*")) return bitor_expr();
    auto node = mk<Starred>(advance().pos);
    node->value = bitor_expr();
    return node;
  }

  ExprP expr() {
    Deeper d(*this, cur().pos);
    if (kw("lambda")) return lambda();
    Pos start = cur().pos;
    ExprP body = disjunction();
    if (!kw("if")) return body;
    advance();
    auto node = mk<IfExp>(start);
    node->body = std::move(body);
    node->test = disjunction();
    if (!accept_kw("else")) fail(node->pos, "expected 'else' after 'if' expression");
    node->orelse = expr();
    return node;
  }

  ExprP lambda() {
    auto node = mk<Lambda>(advance().pos);
    node->args = parameters(":", false);
    expect_colon();
    node->body = expr();
    return node;
  }

  ExprP bool_chain(const char* word, BoolOpKind kind, ExprP (Parser::*operand)()) {
    Pos start = cur().pos;
    ExprP first = (this->*operand)();
    if (!kw(word)) return first;
    auto node = mk<BoolOp>(start);
    node->op = kind;
    node->values.push_back(std::move(first));
    while (accept_kw(word)) node->values.push_back((this->*operand)());
    return node;
  }
  ExprP disjunction() { return bool_chain("or", BoolOpKind::Or, &Parser::conjunction); }
  ExprP conjunction() { return bool_chain("and", BoolOpKind::And, &Parser::inversion); }

  ExprP inversion() {
    if (!kw("not")) return comparison();
    Deeper d(*this, cur().pos);
    auto node = mk<UnaryOp>(advance().pos);
    node->op = UnaryOpKind::Not;
    node->operand = inversion();
    return node;
  }

  bool compare_op(CmpOpKind& k) {
    static const std::pair<const char*, CmpOpKind> kOps[] = {
        {"==", CmpOpKind::Eq}, {"!=", CmpOpKind::NotEq}, {"<", CmpOpKind::Lt},
        {"<=", CmpOpKind::LtE}, {">", CmpOpKind::Gt},    {">=", CmpOpKind::GtE}};
    for (auto& [s, kind] : kOps) {
      if (accept_op(s)) return k = kind, true;
    }
    if (accept_kw("in")) return k = CmpOpKind::In, true;
    if (kw("not") && is_kw(la(1), "in")) return advance(), advance(), k = CmpOpKind::NotIn, true;
    if (accept_kw("is")) return k = accept_kw("not") ? CmpOpKind::IsNot : CmpOpKind::Is, true;
    return false;
  }

  ExprP comparison() {
    Pos start = cur().pos;
    ExprP left = bitor_expr();
    CmpOpKind k;
    if (!compare_op(k)) return left;
    auto node = mk<Compare>(start);
    node->left = std::move(left);
    do {
      node->ops.push_back(k);
      node->comparators.push_back(bitor_expr());
    } while (compare_op(k));
    return node;
  }

  // Binary levels from loosest to tightest: | ^ & shifts additive multiplicative.
  struct BinLevel {
    int n;
    std::pair<const char*, BinOpKind> ops[5];
  };
  static const BinLevel& level(int i) {
    static const BinLevel kLevels[] = {
        {1, {{"|", BinOpKind::BitOr}}},
        {1, {{"^", BinOpKind::BitXor}}},
        {1, {{"&", BinOpKind::BitAnd}}},
        {2, {{"<<", BinOpKind::LShift}, {">>", BinOpKind::RShift}}},
        {2, {{"+", BinOpKind::Add}, {"-", BinOpKind::Sub}}},
        {5, {{"*", BinOpKind::Mult}, {"/", BinOpKind::Div}, {"//", BinOpKind::FloorDiv}, {"%", BinOpKind::Mod},
             {"@", BinOpKind::MatMult}}}};
    return kLevels[i];
  }
  static constexpr int kBinLevels = 6;

  ExprP bitor_expr() { return binary(0); }

  ExprP binary(int lvl) {
    if (lvl == kBinLevels) return factor();
    Pos start = cur().pos;
    ExprP left = binary(lvl + 1);
    DepthScope scope(depth_);
    while (true) {
      const BinLevel& L = level(lvl);
      const std::pair<const char*, BinOpKind>* hit = nullptr;
      for (int k = 0; k < L.n; ++k)
        if (op(L.ops[k].first)) hit = &L.ops[k];
      if (!hit) return left;
      deepen(cur().pos);
      advance();
      auto node = mk<BinOp>(start);
      node->left = std::move(left);
      node->op = hit->second;
      node->right = binary(lvl + 1);
      left = std::move(node);
    }
  }

  ExprP factor() {
    UnaryOpKind k;
    if (op("+")) k = UnaryOpKind::UAdd;
    else if (op("-")) k = UnaryOpKind::USub;
    else if (op("~")) k = UnaryOpKind::Invert;
    else return power();
    if (k == UnaryOpKind::USub && negated_int_min()) {
      Pos at = advance().pos;
      advance();
      return constant(at, std::numeric_limits<int64_t>::min());
    }
    Deeper d(*this, cur().pos);
    auto node = mk<UnaryOp>(advance().pos);
    node->op = k;
    node->operand = factor();
    return node;
  }

  // `-9223372036854775808` on its own (not `-2**63`-like, not followed by a
  // trailer): the one literal past INT64_MAX that fits once negated.
  bool negated_int_min() const {
    const Token& lit = t_[p_ + 1];
    if (lit.kind != TokKind::Int || !lit.int_min_magnitude) return false;
    const Token& after = t_[p_ + 2];
    if (after.kind != TokKind::Op) return true;
    return after.text != "**" && after.text != "." && after.text != "(" && after.text != "[";
  }

  ExprP power() {
    Pos start = cur().pos;
    ExprP base = primary();
    if (!op("**")) return base;
    Deeper d(*this, advance().pos);
    auto node = mk<BinOp>(start);
    node->left = std::move(base);
    node->op = BinOpKind::Pow;
    node->right = factor();
    return node;
  }

  ExprP primary() {
    Pos start = cur().pos;
    ExprP e = atom();
    DepthScope scope(depth_);
    while (true) {
      if (op(".")) {
        deepen(advance().pos);
        auto node = mk<Attribute>(start);
        node->value = std::move(e);
        node->attr = ident();
        e = std::move(node);
      } else if (op("(")) {
        deepen(cur().pos);
        e = call(start, std::move(e));
      } else if (op("[")) {
        deepen(cur().pos);
        e = subscript(start, std::move(e));
      } else {
        return e;
      }
    }
  }

  ExprP call(Pos start, ExprP func) {
    auto node = mk<Call>(start);
    node->func = std::move(func);
    Pos open = advance().pos;
    bool kw_seen = false, kw_unpack = false;
    std::unordered_set<std::string> kw_names;
    while (!op(")")) {
      if (op("*")) {
        auto s = mk<Starred>(advance().pos);
        if (kw_unpack) fail(s->pos, "iterable argument unpacking follows keyword argument unpacking");
        s->value = expr();
        node->args.push_back(std::move(s));
      } else if (op("**")) {
        Pos pos = advance().pos;
        node->keywords.push_back(Keyword{pos, "", expr()});
        kw_unpack = true;
      } else if (cur().kind == TokKind::Name && is_op(la(1), "=")) {
        Pos pos = cur().pos;
        if (cur().text == "True" || cur().text == "False" || cur().text == "None")
          fail(pos, "cannot assign to " + cur().text);
        std::string name = ident();
        advance();
        if (!kw_names.insert(name).second) fail(pos, "keyword argument repeated: " + name);
        node->keywords.push_back(Keyword{pos, name, expr()});
        kw_seen = true;
      } else {
        ExprP arg = named_expr();
        if (kw("for")) {
          if (!node->args.empty() || !node->keywords.empty())
            fail(arg->pos, "Generator expression must be parenthesized");
          arg = comprehension<GeneratorExp>(open, std::move(arg));
          if (!op(")")) fail(arg->pos, "Generator expression must be parenthesized");
        }
        if (kw_unpack) fail(arg->pos, "positional argument follows keyword argument unpacking");
        if (kw_seen) fail(arg->pos, "positional argument follows keyword argument");
        node->args.push_back(std::move(arg));
      }
      if (!accept_op(",")) break;
    }
    expect_op(")");
    return node;
  }

  ExprP subscript(Pos start, ExprP value) {
    auto node = mk<Subscript>(start);
    node->value = std::move(value);
    advance();
    Pos first_pos = cur().pos;
    ExprP first = slice_item();
    if (op(",")) {
      auto tuple = mk<Tuple>(first_pos);
      tuple->elts.push_back(std::move(first));
      while (accept_op(",") && !op("]")) tuple->elts.push_back(slice_item());
      first = std::move(tuple);
    }
    expect_op("]");
    node->slice = std::move(first);
    return node;
  }

  ExprP slice_item() {
    Pos pos = cur().pos;
    ExprP lower;
    if (!op(":")) {
      lower = star_item();
      if (!op(":")) return lower;
    }
    auto node = mk<Slice>(pos);
    node->lower = std::move(lower);
    advance();
    auto bound_follows = [&] { return !op(":") && !op("]") && !op(","); };
    if (bound_follows()) node->upper = expr();
    if (accept_op(":") && bound_follows()) node->step = expr();
    return node;
  }

  ExprP atom() {
    const Token& tk = cur();
    switch (tk.kind) {
      case TokKind::Name: return name_atom();
      case TokKind::Int:
        if (tk.int_min_magnitude) fail(tk.pos, "integer literal too large for kiln (ints are 64-bit)");
        return constant(advance().pos, tk.ival);
      case TokKind::Float:
        if (tk.imag) return imaginary(advance().pos, tk.fval);
        return constant(advance().pos, tk.fval);
      case TokKind::String: return strings();
      case TokKind::Op:
        if (tk.text == "(") return paren();
        if (tk.text == "[") return list_display();
        if (tk.text == "{") return brace_display();
        if (tk.text == "...") return constant(advance().pos, Ellipsis{});
        unexpected();
      default: unexpected();
    }
  }

  // 2j: Python's complex numbers are a prelude class (prelude/_pycomplex.py),
  // so the literal is a call of the builtin that makes complex(0.0, 2.0).
  ExprP imaginary(Pos pos, double im) {
    auto fn = mk<Name>(pos);
    fn->id = "__kiln_imag__";
    auto node = mk<Call>(pos);
    node->func = std::move(fn);
    node->args.push_back(constant(pos, im));
    return node;
  }

  ExprP constant(Pos pos, ConstantValue v) {
    auto node = mk<Constant>(pos);
    node->value = std::move(v);
    return node;
  }

  ExprP name_atom() {
    const Token& tk = cur();
    if (tk.text == "None") return constant(advance().pos, std::monostate{});
    if (tk.text == "True") return constant(advance().pos, true);
    if (tk.text == "False") return constant(advance().pos, false);
    if (is_keyword(tk.text)) unexpected();
    auto node = mk<Name>(tk.pos);
    node->id = advance().text;
    return node;
  }

  template <class T>
  ExprP comprehension(Pos pos, ExprP elt) {
    if (elt->kind == ExprKind::Starred) fail(elt->pos, "iterable unpacking cannot be used in comprehension");
    auto node = mk<T>(pos);
    node->elt = std::move(elt);
    node->generators = comp_clauses();
    return node;
  }

  std::vector<Comprehension> comp_clauses() {
    std::vector<Comprehension> gens;
    while (kw("for") || kw("async")) {
      if (kw("async")) unexpected();
      advance();
      Comprehension c;
      c.target = target_list();
      check_target(*c.target, TargetCtx::Store, true);
      if (!accept_kw("in")) unexpected();
      c.iter = disjunction();
      while (accept_kw("if")) c.ifs.push_back(disjunction());
      gens.push_back(std::move(c));
    }
    return gens;
  }

  ExprP paren() {
    Pos pos = advance().pos;
    if (accept_op(")")) return mk<Tuple>(pos);
    if (kw("yield")) {
      ExprP y = value_or_yield();
      expect_op(")");
      return y;
    }
    ExprP first = op("*") ? star_item() : named_expr();
    if (kw("for")) {
      ExprP g = comprehension<GeneratorExp>(pos, std::move(first));
      expect_op(")");
      return g;
    }
    if (op(",")) {
      auto tuple = mk<Tuple>(pos);
      tuple->elts.push_back(std::move(first));
      while (accept_op(",") && !op(")")) tuple->elts.push_back(star_item());
      expect_op(")");
      return tuple;
    }
    expect_op(")");
    if (first->kind == ExprKind::Starred) fail(first->pos, "cannot use starred expression here");
    return first;
  }

  ExprP list_display() {
    Pos pos = advance().pos;
    auto list = mk<List>(pos);
    if (accept_op("]")) return list;
    ExprP first = star_item();
    if (kw("for")) {
      ExprP c = comprehension<ListComp>(pos, std::move(first));
      expect_op("]");
      return c;
    }
    list->elts.push_back(std::move(first));
    while (accept_op(",") && !op("]")) list->elts.push_back(star_item());
    expect_op("]");
    return list;
  }

  ExprP brace_display() {
    Pos pos = advance().pos;
    if (accept_op("}")) return mk<Dict>(pos);
    if (op("**")) return dict_rest(mk<Dict>(pos));
    ExprP first = star_item();
    if (op(":") && first->kind != ExprKind::Starred) {
      advance();
      ExprP value = expr();
      if (kw("for")) {
        auto c = mk<DictComp>(pos);
        c->key = std::move(first);
        c->value = std::move(value);
        c->generators = comp_clauses();
        expect_op("}");
        return c;
      }
      auto d = mk<Dict>(pos);
      d->keys.push_back(std::move(first));
      d->values.push_back(std::move(value));
      if (!accept_op(",")) {
        expect_op("}");
        return d;
      }
      return dict_rest(std::move(d));
    }
    if (kw("for")) {
      ExprP c = comprehension<SetComp>(pos, std::move(first));
      expect_op("}");
      return c;
    }
    auto s = mk<Set>(pos);
    s->elts.push_back(std::move(first));
    while (accept_op(",") && !op("}")) s->elts.push_back(star_item());
    expect_op("}");
    return s;
  }

  // Dict entries after the first (or from the start at `**`), through '}'.
  ExprP dict_rest(std::unique_ptr<Dict> d) {
    do {
      if (op("}")) break;
      if (accept_op("**")) {
        d->keys.push_back(nullptr);
        d->values.push_back(bitor_expr());
        continue;
      }
      d->keys.push_back(expr());
      expect_op(":");
      d->values.push_back(expr());
    } while (accept_op(","));
    expect_op("}");
    return d;
  }

  // ---- strings and f-strings ----------------------------------------------------

  ExprP strings() {
    Pos pos = cur().pos;
    size_t first = p_;
    bool any_f = false, any_bytes = false, all_bytes = true;
    while (cur().kind == TokKind::String) {
      const Token& tk = advance();
      any_f |= tk.fstring;
      any_bytes |= tk.bytes;
      all_bytes &= tk.bytes;
    }
    if (any_bytes) {
      if (!all_bytes) fail(pos, "cannot mix bytes and nonbytes literals");
      std::string s;
      for (size_t k = first; k < p_; ++k) s += t_[k].text;
      return constant(pos, BytesValue{std::move(s)});
    }
    if (!any_f) {
      std::string s;
      for (size_t k = first; k < p_; ++k) s += t_[k].text;
      return constant(pos, std::move(s));
    }
    auto js = mk<JoinedStr>(pos);
    std::string lit;
    for (size_t k = first; k < p_; ++k) {
      const Token& tk = t_[k];
      if (!tk.fstring) {
        lit += tk.text;
        continue;
      }
      Cursor c{tk.body_begin, tk.body_pos.line, tk.body_begin - size_t(tk.body_pos.col - 1)};
      fstring_body(c, tk.body_end, *js, lit, pos, 0, tk.raw, false);
    }
    flush(*js, lit, pos);
    return js;
  }

  // A position-tracking walk over an f-string body.
  struct Cursor {
    size_t i;
    int line;
    size_t line_start;
    Pos pos() const { return {line, int(i - line_start + 1)}; }
  };
  void step(Cursor& c) const {
    char ch = src_[c.i++];
    if (ch == '\n' || (ch == '\r' && (c.i >= src_.size() || src_[c.i] != '\n'))) {
      ++c.line;
      c.line_start = c.i;
    }
  }

  void flush(JoinedStr& js, std::string& lit, Pos pos) {
    if (lit.empty()) return;
    js.values.push_back(constant(pos, std::move(lit)));
    lit.clear();
  }

  void append_literal(std::string& lit, size_t b, size_t e, bool raw, Pos pos) const {
    std::string_view seg = src_.substr(b, e - b);
    if (!raw) {
      lit += decode_escapes(seg, file_, pos);
      return;
    }
    for (size_t k = 0; k < seg.size(); ++k) {
      if (seg[k] == '\r' && k + 1 < seg.size() && seg[k + 1] == '\n') continue;
      lit += seg[k] == '\r' ? '\n' : seg[k];
    }
  }

  // Literal text and replacement fields up to `end` (or, in a format spec,
  // up to the closing '}', whose index is returned).
  size_t fstring_body(Cursor& c, size_t end, JoinedStr& out, std::string& lit, Pos jpos, int nest, bool raw,
                      bool in_spec) {
    size_t seg = c.i;
    while (c.i < end) {
      char ch = src_[c.i];
      bool doubled = c.i + 1 < end && src_[c.i + 1] == ch;
      if (ch == '{' || ch == '}') {
        append_literal(lit, seg, c.i, raw, jpos);
        if (ch == '}' && in_spec) return c.i;
        if (doubled && !in_spec) {
          lit += ch;
          c.i += 2;
        } else if (ch == '{') {
          Pos brace = c.pos();
          step(c);
          replacement_field(c, brace, end, out, lit, jpos, nest, raw);
        } else {
          fail(c.pos(), "f-string: single '}' is not allowed");
        }
        seg = c.i;
        continue;
      }
      if (ch == '\\' && !raw && c.i + 1 < end && src_[c.i + 1] != '{' && src_[c.i + 1] != '}') step(c);
      step(c);
    }
    append_literal(lit, seg, c.i, raw, jpos);
    if (in_spec) fail(jpos, "f-string: expecting '}'");
    return c.i;
  }

  // The end of a replacement field's expression: the first '}', '!', ':' or
  // '=' (self-documenting) outside brackets and nested strings.
  size_t field_end(Cursor c, size_t end, bool& debug) const {
    int depth = 0;
    char quote = 0;
    bool triple = false;
    auto at = [&](size_t k) { return k < end ? src_[k] : '\0'; };
    while (true) {
      if (c.i >= end) fail(c.pos(), "f-string: expecting '}'");
      char ch = src_[c.i];
      if (ch == '\\') fail(c.pos(), "f-string expression part cannot include a backslash");
      if (quote) {
        if (ch == quote && (!triple || (at(c.i + 1) == quote && at(c.i + 2) == quote))) {
          c.i += triple ? 3 : 1;
          quote = 0;
          continue;
        }
      } else if (ch == '\'' || ch == '"') {
        quote = ch;
        triple = at(c.i + 1) == ch && at(c.i + 2) == ch;
        c.i += triple ? 3 : 1;
        continue;
      } else if (ch == '(' || ch == '[' || ch == '{') {
        ++depth;
      } else if (ch == ')' || ch == ']' || ch == '}') {
        if (depth == 0) {
          if (ch == '}') return c.i;
          fail(c.pos(), detail::cat("f-string: unmatched '", ch, "'"));
        }
        --depth;
      } else if (depth == 0) {
        char next = at(c.i + 1), prev = c.i > 0 ? src_[c.i - 1] : '\0';
        if ((ch == '!' && next != '=') || ch == ':') return c.i;
        if (ch == '=' && next != '=' && prev != '=' && prev != '!' && prev != '<' && prev != '>') {
          debug = true;
          return c.i;
        }
      }
      if (ch == '#') fail(c.pos(), "f-string expression part cannot include '#'");
      step(c);
    }
  }

  void replacement_field(Cursor& c, Pos brace, size_t end, JoinedStr& out, std::string& lit, Pos jpos, int nest, bool raw) {
    if (nest >= 2) fail(c.pos(), "f-string: expressions nested too deeply");
    bool debug = false;
    size_t expr_end = field_end(c, end, debug);
    if (src_.substr(c.i, expr_end - c.i).find_first_not_of(" \t\r\n\f") == std::string_view::npos)
      fail(c.pos(), "f-string: empty expression not allowed");
    Parser sub(src_, file_, tokenize_fragment(src_, c.i, expr_end, c.pos(), file_), depth_ + 1);
    auto fv = mk<FormattedValue>(jpos);
    fv->value = sub.field_expression(brace);
    size_t expr_begin = c.i;
    while (c.i < expr_end) step(c);
    if (debug) {
      step(c);
      while (c.i < end && std::strchr(" \t\r\n\f", src_[c.i]) && src_[c.i]) step(c);
      lit += src_.substr(expr_begin, c.i - expr_begin);
    }
    if (c.i < end && src_[c.i] == '!') {
      char conv = c.i + 1 < end ? src_[c.i + 1] : '\0';
      if (conv != 's' && conv != 'r' && conv != 'a')
        fail(c.pos(), "f-string: invalid conversion character: expected 's', 'r', or 'a'");
      fv->conversion = conv;
      c.i += 2;
    }
    if (c.i < end && src_[c.i] == ':') {
      step(c);
      auto spec = mk<JoinedStr>(jpos);
      std::string spec_lit;
      fstring_body(c, end, *spec, spec_lit, jpos, nest + 1, raw, true);
      flush(*spec, spec_lit, jpos);
      fv->format_spec = std::move(spec);
    }
    if (c.i >= end || src_[c.i] != '}') fail(c.pos(), "f-string: expecting '}'");
    step(c);
    if (debug && fv->conversion < 0 && !fv->format_spec) fv->conversion = 'r';
    flush(out, lit, jpos);
    out.values.push_back(std::move(fv));
  }

  // ---- assignment targets -------------------------------------------------------

  static const char* describe(const Expr& e) {
    switch (e.kind) {
      case ExprKind::Constant: {
        auto& v = e.as<Constant>()->value;
        if (std::holds_alternative<std::monostate>(v)) return "None";
        if (auto* b = std::get_if<bool>(&v)) return *b ? "True" : "False";
        if (std::holds_alternative<Ellipsis>(v)) return "ellipsis";
        return "literal";
      }
      case ExprKind::Call: return "function call";
      case ExprKind::Compare: return "comparison";
      case ExprKind::IfExp: return "conditional expression";
      case ExprKind::Lambda: return "lambda";
      case ExprKind::Dict: return "dict literal";
      case ExprKind::Set: return "set display";
      case ExprKind::ListComp: return "list comprehension";
      case ExprKind::SetComp: return "set comprehension";
      case ExprKind::DictComp: return "dict comprehension";
      case ExprKind::GeneratorExp: return "generator expression";
      case ExprKind::JoinedStr: case ExprKind::FormattedValue: return "f-string expression";
      case ExprKind::Starred: return "starred";
      case ExprKind::Tuple: return "tuple";
      case ExprKind::List: return "list";
      case ExprKind::Name: return "name";
      case ExprKind::Attribute: return "attribute";
      case ExprKind::Subscript: return "subscript";
      default: return "expression";
    }
  }

  // CPython suggests '==' only for some kinds of bad `=` targets.
  static bool suggests_equality(const Expr& e) {
    switch (e.kind) {
      case ExprKind::Compare: case ExprKind::IfExp: case ExprKind::Lambda: case ExprKind::BoolOp: return false;
      case ExprKind::UnaryOp: return e.as<UnaryOp>()->op != UnaryOpKind::Not;
      case ExprKind::Constant: {
        auto& v = e.as<Constant>()->value;
        return !std::holds_alternative<std::monostate>(v) && !std::holds_alternative<bool>(v);
      }
      default: return true;
    }
  }

  void check_target(const Expr& e, TargetCtx ctx, bool top) const {
    switch (e.kind) {
      case ExprKind::Name: case ExprKind::Attribute: case ExprKind::Subscript: return;
      case ExprKind::Tuple: case ExprKind::List: {
        if (ctx == TargetCtx::Aug) break;
        const ExprList& elts = e.kind == ExprKind::Tuple ? e.as<Tuple>()->elts : e.as<List>()->elts;
        int starred = 0;
        for (auto& x : elts) {
          starred += x->kind == ExprKind::Starred;
          check_target(*x, ctx == TargetCtx::Assign ? TargetCtx::Store : ctx, false);
        }
        if (starred > 1) fail(e.pos, "multiple starred expressions in assignment");
        return;
      }
      case ExprKind::Starred:
        if (ctx == TargetCtx::Del || ctx == TargetCtx::Aug) break;
        if (top) fail(e.pos, "starred assignment target must be in a list or tuple");
        return check_target(*e.as<Starred>()->value, ctx, false);
      default: break;
    }
    std::string what = describe(e);
    if (ctx == TargetCtx::Del) fail(e.pos, "cannot delete " + what);
    if (ctx == TargetCtx::Aug) fail(e.pos, "'" + what + "' is an illegal expression for augmented assignment");
    std::string hint =
        ctx == TargetCtx::Assign && top && suggests_equality(e) ? " here. Maybe you meant '==' instead of '='?" : "";
    fail(e.pos, "cannot assign to " + what + hint);
  }
};

}  // namespace

Module parse_module(std::string_view source, const std::string& filename) {
  Module m;
  m.filename = filename;
  Parser p(source, m.filename, tokenize(source, filename), 0);
  m.body = p.file();
  return m;
}

}  // namespace kiln::lang
