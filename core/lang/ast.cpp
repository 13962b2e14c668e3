#include "core/lang/ast.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <sstream>

namespace kiln::lang {

const char* binop_symbol(BinOpKind k) {
  switch (k) {
#define KILN_BINOP_SYMBOL(n, s) \
  case BinOpKind::n:            \
    return s;
    KILN_BINOPS(KILN_BINOP_SYMBOL)
#undef KILN_BINOP_SYMBOL
  }
  return "?";
}

const char* cmpop_symbol(CmpOpKind k) {
  switch (k) {
#define KILN_CMPOP_SYMBOL(n, s) \
  case CmpOpKind::n:            \
    return s;
    KILN_CMPOPS(KILN_CMPOP_SYMBOL)
#undef KILN_CMPOP_SYMBOL
  }
  return "?";
}

namespace {

// Python's float repr: shortest round-trip digits, fixed notation for
// exponents in [-4, 16), else scientific with a signed two-digit exponent.
std::string float_repr(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  char buf[64];
  auto r = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::scientific);
  std::string s(buf, r.ptr);
  size_t e = s.find('e');
  std::string mant = s.substr(0, e);
  int exp = std::stoi(s.substr(e + 1));
  bool neg = mant[0] == '-';
  if (neg) mant.erase(0, 1);
  std::string digits;
  for (char c : mant)
    if (c != '.') digits += c;
  std::string out;
  if (exp >= -4 && exp < 16) {
    if (exp < 0) {
      out = "0.";
      out.append(size_t(-exp - 1), '0');
      out += digits;
    } else {
      if (digits.size() <= size_t(exp) + 1) digits += std::string(size_t(exp) + 1 - digits.size(), '0');
      out = digits.substr(0, size_t(exp) + 1);
      out += '.';
      out += digits.substr(size_t(exp) + 1);
      if (out.back() == '.') out += '0';
    }
  } else {
    out = digits.substr(0, 1);
    if (digits.size() > 1) {
      out += '.';
      out += digits.substr(1);
    }
    char eb[16];
    std::snprintf(eb, sizeof eb, "e%c%02d", exp < 0 ? '-' : '+', exp < 0 ? -exp : exp);
    out += eb;
  }
  if (neg) out.insert(out.begin(), '-');
  return out;
}

std::string string_repr(const std::string& s) {
  std::string out = "'";
  for (char c : s) {
    auto u = static_cast<unsigned char>(c);
    if (c == '\\' || c == '\'') {
      out += '\\';
      out += c;
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c == '\r') {
      out += "\\r";
    } else if (u < 0x20 || u == 0x7f) {
      char b[8];
      std::snprintf(b, sizeof b, "\\x%02x", unsigned(u));
      out += b;
    } else {
      out += c;
    }
  }
  return out + "'";
}

class Dumper {
 public:
  explicit Dumper(bool with_pos) : pos_(with_pos) {}
  std::ostringstream os;

  void expr(const Expr* e) {
    if (!e) {
      os << '_';
      return;
    }
    switch (e->kind) {
      case ExprKind::Constant: return constant(*e->as<Constant>());
      case ExprKind::Name: os << e->as<Name>()->id; return at(e->pos);
      case ExprKind::Attribute: {
        auto* a = e->as<Attribute>();
        head(".", e->pos), sp(a->value), os << ' ' << a->attr << ')';
        return;
      }
      case ExprKind::Subscript: {
        auto* s = e->as<Subscript>();
        head("[]", e->pos), sp(s->value), sp(s->slice), close();
        return;
      }
      case ExprKind::Slice: {
        auto* s = e->as<Slice>();
        head(":", e->pos), sp(s->lower), sp(s->upper), sp(s->step), close();
        return;
      }
      case ExprKind::Starred: head("*", e->pos), sp(e->as<Starred>()->value), close(); return;
      case ExprKind::Call: return call(*e->as<Call>());
      case ExprKind::BinOp: {
        auto* b = e->as<BinOp>();
        head(binop_symbol(b->op), e->pos), sp(b->left), sp(b->right), close();
        return;
      }
      case ExprKind::UnaryOp: {
        auto* u = e->as<UnaryOp>();
        static const char* names[] = {"u+", "u-", "not", "~"};
        head(names[int(u->op)], e->pos), sp(u->operand), close();
        return;
      }
      case ExprKind::BoolOp: {
        auto* b = e->as<BoolOp>();
        head(b->op == BoolOpKind::And ? "and" : "or", e->pos), list(b->values), close();
        return;
      }
      case ExprKind::Compare: {
        auto* c = e->as<Compare>();
        head("cmp", e->pos), sp(c->left);
        for (size_t i = 0; i < c->ops.size(); ++i) os << ' ' << cmpop_symbol(c->ops[i]), sp(c->comparators[i]);
        close();
        return;
      }
      case ExprKind::IfExp: {
        auto* i = e->as<IfExp>();
        head("ifexp", e->pos), sp(i->test), sp(i->body), sp(i->orelse), close();
        return;
      }
      case ExprKind::Yield: {
        auto* y = e->as<Yield>();
        head(y->from ? "yieldfrom" : "yield", e->pos);
        if (y->value) sp(y->value);
        close();
        return;
      }
      case ExprKind::NamedExpr: {
        auto* n = e->as<NamedExpr>();
        head("namedexpr", e->pos);
        os << ' ' << n->target;
        sp(n->value), close();
        return;
      }
      case ExprKind::Lambda: {
        auto* l = e->as<Lambda>();
        head("lambda", e->pos), os << ' ', arguments(l->args), sp(l->body), close();
        return;
      }
      case ExprKind::List: head("list", e->pos), list(e->as<List>()->elts), close(); return;
      case ExprKind::Tuple: head("tuple", e->pos), list(e->as<Tuple>()->elts), close(); return;
      case ExprKind::Set: head("set", e->pos), list(e->as<Set>()->elts), close(); return;
      case ExprKind::Dict: {
        auto* d = e->as<Dict>();
        head("dict", e->pos);
        for (size_t i = 0; i < d->keys.size(); ++i) {
          if (d->keys[i]) sp(d->keys[i]);
          else os << " **";
          sp(d->values[i]);
        }
        close();
        return;
      }
      case ExprKind::ListComp: return comp("listcomp", e, e->as<ListComp>()->elt.get(), nullptr,
                                           e->as<ListComp>()->generators);
      case ExprKind::SetComp: return comp("setcomp", e, e->as<SetComp>()->elt.get(), nullptr,
                                          e->as<SetComp>()->generators);
      case ExprKind::GeneratorExp: return comp("genexp", e, e->as<GeneratorExp>()->elt.get(), nullptr,
                                               e->as<GeneratorExp>()->generators);
      case ExprKind::DictComp: {
        auto* d = e->as<DictComp>();
        return comp("dictcomp", e, d->key.get(), d->value.get(), d->generators);
      }
      case ExprKind::JoinedStr: head("fstr", e->pos), list(e->as<JoinedStr>()->values), close(); return;
      case ExprKind::FormattedValue: {
        auto* f = e->as<FormattedValue>();
        head("fv", e->pos), sp(f->value);
        if (f->conversion < 0) os << " _";
        else os << ' ' << char(f->conversion);
        sp(f->format_spec), close();
        return;
      }
    }
  }

  void stmts(const StmtList& body) {
    os << '(';
    for (size_t i = 0; i < body.size(); ++i) {
      if (i) os << ' ';
      stmt(*body[i]);
    }
    os << ')';
  }

  void stmt(const Stmt& s) {
    switch (s.kind) {
      case StmtKind::FunctionDef: {
        auto* f = s.as<FunctionDef>();
        head("def", s.pos), os << ' ' << f->name << ' ', arguments(f->args), decorators(f->decorator_list);
        os << ' ', stmts(f->body), close();
        return;
      }
      case StmtKind::ClassDef: {
        auto* c = s.as<ClassDef>();
        head("class", s.pos), os << ' ' << c->name << " (", list_bare(c->bases), os << ')';
        decorators(c->decorator_list), os << ' ', stmts(c->body), close();
        return;
      }
      case StmtKind::Return: head("return", s.pos), opt(s.as<Return>()->value), close(); return;
      case StmtKind::Delete: head("del", s.pos), list(s.as<Delete>()->targets), close(); return;
      case StmtKind::Assign: {
        auto* a = s.as<Assign>();
        head("=", s.pos), list(a->targets), sp(a->value), close();
        return;
      }
      case StmtKind::AugAssign: {
        auto* a = s.as<AugAssign>();
        head((std::string(binop_symbol(a->op)) + "=").c_str(), s.pos), sp(a->target), sp(a->value), close();
        return;
      }
      case StmtKind::AnnAssign: {
        auto* a = s.as<AnnAssign>();
        head("ann", s.pos), sp(a->target), sp(a->annotation), opt(a->value), close();
        return;
      }
      case StmtKind::For: {
        auto* f = s.as<For>();
        head("for", s.pos), sp(f->target), sp(f->iter), os << ' ', stmts(f->body), orelse(f->orelse), close();
        return;
      }
      case StmtKind::While: {
        auto* w = s.as<While>();
        head("while", s.pos), sp(w->test), os << ' ', stmts(w->body), orelse(w->orelse), close();
        return;
      }
      case StmtKind::If: {
        auto* i = s.as<If>();
        head("if", s.pos), sp(i->test), os << ' ', stmts(i->body), orelse(i->orelse), close();
        return;
      }
      case StmtKind::With: {
        auto* w = s.as<With>();
        head("with", s.pos);
        for (auto& item : w->items) {
          os << " (", expr(item.context_expr.get()), opt(item.optional_vars), os << ')';
        }
        os << ' ', stmts(w->body), close();
        return;
      }
      case StmtKind::Raise: {
        auto* r = s.as<Raise>();
        head("raise", s.pos), opt(r->exc);
        if (r->cause) sp(r->cause);
        close();
        return;
      }
      case StmtKind::Try: return try_stmt(*s.as<Try>());
      case StmtKind::Assert: {
        auto* a = s.as<Assert>();
        head("assert", s.pos), sp(a->test), opt(a->msg), close();
        return;
      }
      case StmtKind::Import: head("import", s.pos), aliases(s.as<Import>()->names), close(); return;
      case StmtKind::ImportFrom: {
        auto* i = s.as<ImportFrom>();
        head("from", s.pos), os << ' ' << i->module, aliases(i->names), close();
        return;
      }
      case StmtKind::Global: head("global", s.pos), names(s.as<Global>()->names), close(); return;
      case StmtKind::Nonlocal: head("nonlocal", s.pos), names(s.as<Nonlocal>()->names), close(); return;
      case StmtKind::Expr: head("expr", s.pos), sp(s.as<ExprStmt>()->value), close(); return;
      case StmtKind::Pass: head("pass", s.pos), close(); return;
      case StmtKind::Break: head("break", s.pos), close(); return;
      case StmtKind::Continue: head("continue", s.pos), close(); return;
    }
  }

 private:
  bool pos_;

  void at(Pos p) {
    if (pos_) os << '@' << p.line << ':' << p.col;
  }
  void head(const char* name, Pos p) { os << '(' << name, at(p); }
  void close() { os << ')'; }
  void sp(const ExprP& e) { os << ' ', expr(e.get()); }
  void opt(const ExprP& e) {
    if (e) sp(e);
  }
  void list(const ExprList& l) {
    for (auto& e : l) sp(e);
  }
  void list_bare(const ExprList& l) {
    for (size_t i = 0; i < l.size(); ++i) {
      if (i) os << ' ';
      expr(l[i].get());
    }
  }
  void names(const std::vector<std::string>& ns) {
    for (auto& n : ns) os << ' ' << n;
  }
  void decorators(const ExprList& d) {
    if (d.empty()) return;
    os << " (@ ", list_bare(d), os << ')';
  }
  void orelse(const StmtList& body) {
    if (!body.empty()) os << ' ', stmts(body);
  }

  void constant(const Constant& c) {
    std::visit(
        [&](const auto& v) {
          using T = std::decay_t<decltype(v)>;
          if constexpr (std::is_same_v<T, std::monostate>) os << "None";
          else if constexpr (std::is_same_v<T, bool>) os << (v ? "True" : "False");
          else if constexpr (std::is_same_v<T, int64_t>) os << v;
          else if constexpr (std::is_same_v<T, double>) os << float_repr(v);
          else if constexpr (std::is_same_v<T, std::string>) os << string_repr(v);
          else if constexpr (std::is_same_v<T, BytesValue>) os << 'b' << string_repr(v.value);
          else os << "...";
        },
        c.value);
    at(c.pos);
  }

  void call(const Call& c) {
    head("call", c.pos), sp(c.func), list(c.args);
    for (auto& k : c.keywords) {
      os << ' ', head("kw", k.pos), os << ' ' << (k.arg.empty() ? "**" : k.arg), sp(k.value), close();
    }
    close();
  }

  void arg(const Arg& a, const char* prefix, const Expr* def) {
    os << ' ' << prefix << a.name;
    at(a.pos);
    if (def) os << '=', expr(def);
  }
  void arguments(const Arguments& a) {
    os << "(args";
    size_t first_default = a.args.size() - a.defaults.size();
    for (size_t i = 0; i < a.args.size(); ++i)
      arg(a.args[i], "", i >= first_default ? a.defaults[i - first_default].get() : nullptr);
    if (a.vararg) arg(*a.vararg, "*", nullptr);
    else if (!a.kwonlyargs.empty()) os << " *";
    for (size_t i = 0; i < a.kwonlyargs.size(); ++i) arg(a.kwonlyargs[i], "", a.kw_defaults[i].get());
    if (a.kwarg) arg(*a.kwarg, "**", nullptr);
    os << ')';
  }

  void comp(const char* name, const Expr* e, const Expr* elt, const Expr* value,
            const std::vector<Comprehension>& gens) {
    head(name, e->pos), os << ' ', expr(elt);
    if (value) os << ' ', expr(value);
    for (auto& g : gens) {
      os << " (for", sp(g.target), sp(g.iter);
      for (auto& i : g.ifs) os << " (if", sp(i), os << ')';
      os << ')';
    }
    close();
  }

  void try_stmt(const Try& t) {
    head("try", t.pos), os << ' ', stmts(t.body);
    for (auto& h : t.handlers) {
      os << ' ', head("except", h.pos), sp(h.type);
      if (!h.name.empty()) os << " as " << h.name;
      os << ' ', stmts(h.body), close();
    }
    if (!t.orelse.empty()) os << " (else ", stmts(t.orelse), os << ')';
    if (!t.finalbody.empty()) os << " (finally ", stmts(t.finalbody), os << ')';
    close();
  }

  void aliases(const std::vector<Alias>& as) {
    for (auto& a : as) {
      os << ' ';
      if (a.asname.empty()) {
        os << a.name, at(a.pos);
      } else {
        head("as", a.pos), os << ' ' << a.name << ' ' << a.asname, close();
      }
    }
  }
};

}  // namespace

std::string dump(const Module& m, bool with_pos) {
  Dumper d(with_pos);
  for (size_t i = 0; i < m.body.size(); ++i) {
    if (i) d.os << '\n';
    d.stmt(*m.body[i]);
  }
  return d.os.str();
}

std::string dump(const Expr& e, bool with_pos) {
  Dumper d(with_pos);
  d.expr(&e);
  return d.os.str();
}

}  // namespace kiln::lang
