// Two passes, as in CPython: collect what each scope binds, uses and
// declares (in source order, so misplaced declarations are caught), then
// resolve every name top-down knowing which names the enclosing function
// scopes bind, turning captured locals into cells on the way back up.
#include "core/lang/symtable.h"

#include <algorithm>
#include <set>

#include "core/error.h"

namespace kiln::lang {

namespace {

constexpr int kMaxNesting = 1000;

enum SymFlag : int { kUsed = 1, kAssigned = 2, kParam = 4, kGlobal = 8, kNonlocal = 16 };

struct RawScope {
  Scope* out = nullptr;
  std::map<std::string, int> flags;
  std::vector<std::string> bind_order;  // first binding first
  std::map<std::string, Pos> nonlocal_pos;
  std::vector<RawScope*> children;
  bool mentions_super = false;
};

bool function_like(ScopeKind k) {
  return k == ScopeKind::Function || k == ScopeKind::Lambda || k == ScopeKind::Comprehension;
}

class Collector {
 public:
  Collector(SymbolTable& table, const std::string& filename) : table_(table), filename_(filename) {}

  RawScope* run(const Module& m) {
    RawScope* top = open(&m, ScopeKind::Module, "<module>", Pos{1, 1});
    within(top, [&] { body(m.body); });
    return top;
  }

 private:
  [[noreturn]] void fail(const std::string& msg, Pos p, ErrorKind k = ErrorKind::Syntax) {
    throw Error(msg, k, SourceLoc{filename_, p.line, p.col});
  }

  struct Depth {
    Collector& c;
    Depth(Collector& col, Pos p) : c(col) {
      if (++c.depth_ > kMaxNesting) c.fail("maximum recursion depth exceeded during compilation", p, ErrorKind::Recursion);
    }
    ~Depth() { --c.depth_; }
  };

  RawScope* open(const void* node, ScopeKind kind, std::string name, Pos pos) {
    auto scope = std::make_unique<Scope>();
    scope->kind = kind;
    scope->name = std::move(name);
    scope->pos = pos;
    raws_.push_back(std::make_unique<RawScope>());
    RawScope* raw = raws_.back().get();
    raw->out = scope.get();
    table_.scopes[node] = std::move(scope);
    if (cur_) cur_->children.push_back(raw);
    return raw;
  }

  // Runs f with `raw` as the current scope.
  template <class F> void within(RawScope* raw, F&& f) {
    RawScope* saved = cur_;
    cur_ = raw;
    f();
    cur_ = saved;
  }

  void use(const std::string& name) {
    cur_->flags[name] |= kUsed;
    if ((name == "super" || name == "__class__") && function_like(cur_->out->kind)) cur_->mentions_super = true;
  }
  void bind(const std::string& name) {
    int& f = cur_->flags[name];
    if (!(f & (kAssigned | kParam))) cur_->bind_order.push_back(name);
    f |= kAssigned;
  }

  void declare(const std::vector<std::string>& names, bool global, Pos pos) {
    const char* what = global ? "global" : "nonlocal";
    if (!global && cur_->out->kind == ScopeKind::Module) fail("nonlocal declaration not allowed at module level", pos);
    for (const auto& n : names) {
      int& f = cur_->flags[n];
      if (f & kParam) fail("name '" + n + "' is parameter and " + what, pos);
      if ((f & kNonlocal) && global) fail("name '" + n + "' is nonlocal and global", pos);
      if ((f & kGlobal) && !global) fail("name '" + n + "' is nonlocal and global", pos);
      if (f & kAssigned) fail("name '" + n + "' is assigned to before " + what + " declaration", pos);
      if (f & kUsed) fail("name '" + n + "' is used prior to " + what + " declaration", pos);
      f |= global ? kGlobal : kNonlocal;
      if (!global) cur_->nonlocal_pos.emplace(n, pos);
    }
  }

  void params(const Arguments& a) {
    Scope& s = *cur_->out;
    auto param = [&](const Arg& arg) {
      int& f = cur_->flags[arg.name];
      if (f & kParam) fail("duplicate argument '" + arg.name + "' in function definition", arg.pos);
      f |= kParam;
      s.varnames.push_back(arg.name);
    };
    for (const auto& x : a.args) param(x);
    for (const auto& x : a.kwonlyargs) param(x);
    if (a.vararg) param(*a.vararg);
    if (a.kwarg) param(*a.kwarg);
    s.argcount = int(a.args.size());
    s.kwonlyargcount = int(a.kwonlyargs.size());
    s.has_varargs = a.vararg != nullptr;
    s.has_varkw = a.kwarg != nullptr;
  }

  void defaults(const Arguments& a) {
    for (const auto& d : a.defaults) expr(*d);
    for (const auto& d : a.kw_defaults) if (d) expr(*d);
  }

  // Annotations are evaluated at def time in the enclosing scope, as defaults are.
  void annotations(const FunctionDef& f) {
    for_each_annotation(f, [&](const std::string&, const Expr& e) { expr(e); });
  }

  void body(const StmtList& stmts) { for (const auto& s : stmts) stmt(*s); }

  void stmt(const Stmt& s) {
    Depth d(*this, s.pos);
    switch (s.kind) {
      case StmtKind::FunctionDef: {
        auto& f = *s.as<FunctionDef>();
        for (const auto& e : f.decorator_list) expr(*e);
        defaults(f.args);
        annotations(f);
        bind(f.name);
        RawScope* raw = open(&f, ScopeKind::Function, f.name, f.pos);
        within(raw, [&] { params(f.args); body(f.body); });
        break;
      }
      case StmtKind::ClassDef: {
        auto& c = *s.as<ClassDef>();
        for (const auto& e : c.decorator_list) expr(*e);
        for (const auto& e : c.bases) expr(*e);
        bind(c.name);
        RawScope* raw = open(&c, ScopeKind::Class, c.name, c.pos);
        within(raw, [&] { body(c.body); });
        break;
      }
      case StmtKind::Return: if (auto& v = s.as<Return>()->value) expr(*v); break;
      case StmtKind::Delete: for (const auto& t : s.as<Delete>()->targets) target(*t); break;
      case StmtKind::Assign: {
        auto& a = *s.as<Assign>();
        expr(*a.value);
        for (const auto& t : a.targets) target(*t);
        break;
      }
      case StmtKind::AugAssign: {
        auto& a = *s.as<AugAssign>();
        if (auto* n = a.target->as<Name>()) use(n->id);
        expr(*a.value);
        target(*a.target);
        break;
      }
      case StmtKind::AnnAssign: {
        auto& a = *s.as<AnnAssign>();
        if (a.value) expr(*a.value);
        target(*a.target);
        break;
      }
      case StmtKind::For: {
        auto& f = *s.as<For>();
        expr(*f.iter);
        target(*f.target);
        body(f.body);
        body(f.orelse);
        break;
      }
      case StmtKind::While: {
        auto& w = *s.as<While>();
        expr(*w.test);
        body(w.body);
        body(w.orelse);
        break;
      }
      case StmtKind::If: {
        auto& i = *s.as<If>();
        expr(*i.test);
        body(i.body);
        body(i.orelse);
        break;
      }
      case StmtKind::With: {
        auto& w = *s.as<With>();
        for (const auto& it : w.items) {
          expr(*it.context_expr);
          if (it.optional_vars) target(*it.optional_vars);
        }
        body(w.body);
        break;
      }
      case StmtKind::Raise: {
        auto& r = *s.as<Raise>();
        if (r.exc) expr(*r.exc);
        if (r.cause) expr(*r.cause);
        break;
      }
      case StmtKind::Try: {
        auto& t = *s.as<Try>();
        body(t.body);
        for (const auto& h : t.handlers) {
          if (h.type) expr(*h.type);
          if (!h.name.empty()) bind(h.name);
          body(h.body);
        }
        body(t.orelse);
        body(t.finalbody);
        break;
      }
      case StmtKind::Assert: {
        auto& a = *s.as<Assert>();
        expr(*a.test);
        if (a.msg) expr(*a.msg);
        break;
      }
      case StmtKind::Import:
        for (const auto& a : s.as<Import>()->names)
          bind(a.asname.empty() ? a.name.substr(0, a.name.find('.')) : a.asname);
        break;
      case StmtKind::ImportFrom:
        for (const auto& a : s.as<ImportFrom>()->names)
          if (a.name != "*") bind(a.asname.empty() ? a.name : a.asname);
        break;
      case StmtKind::Global: declare(s.as<Global>()->names, true, s.pos); break;
      case StmtKind::Nonlocal: declare(s.as<Nonlocal>()->names, false, s.pos); break;
      case StmtKind::Expr: expr(*s.as<ExprStmt>()->value); break;
      case StmtKind::Pass: case StmtKind::Break: case StmtKind::Continue: break;
    }
  }

  // An assignment or deletion target: binds names, evaluates the rest.
  void target(const Expr& e) {
    Depth d(*this, e.pos);
    switch (e.kind) {
      case ExprKind::Name: bind(e.as<Name>()->id); break;
      case ExprKind::Attribute: expr(*e.as<Attribute>()->value); break;
      case ExprKind::Subscript: expr(*e.as<Subscript>()->value); expr(*e.as<Subscript>()->slice); break;
      case ExprKind::Tuple: for (const auto& x : e.as<Tuple>()->elts) target(*x); break;
      case ExprKind::List: for (const auto& x : e.as<List>()->elts) target(*x); break;
      case ExprKind::Starred: target(*e.as<Starred>()->value); break;
      default: expr(e); break;  // not assignable: the compiler reports it
    }
  }

  void exprs(const ExprList& l) { for (const auto& x : l) if (x) expr(*x); }

  void comprehension(const Expr& node, const char* name, const std::vector<Comprehension>& gens,
                     std::initializer_list<const Expr*> results) {
    if (gens.empty()) return;
    expr(*gens[0].iter);  // the first iterable is evaluated in the enclosing scope
    RawScope* raw = open(&node, ScopeKind::Comprehension, name, node.pos);
    within(raw, [&] {
      cur_->flags[".0"] |= kParam;
      raw->out->varnames.push_back(".0");
      raw->out->argcount = 1;
      // A generator expression is a generator, run lazily as CPython runs it.
      raw->out->generator = node.kind == ExprKind::GeneratorExp;
      for (size_t i = 0; i < gens.size(); ++i) {
        if (i > 0) expr(*gens[i].iter);
        target(*gens[i].target);
        exprs(gens[i].ifs);
      }
      for (const Expr* r : results) expr(*r);
    });
  }

  void expr(const Expr& e) {
    Depth d(*this, e.pos);
    switch (e.kind) {
      case ExprKind::Constant: break;
      case ExprKind::Name: use(e.as<Name>()->id); break;
      case ExprKind::Attribute: expr(*e.as<Attribute>()->value); break;
      case ExprKind::Subscript: expr(*e.as<Subscript>()->value); expr(*e.as<Subscript>()->slice); break;
      case ExprKind::Slice: {
        auto& s = *e.as<Slice>();
        if (s.lower) expr(*s.lower);
        if (s.upper) expr(*s.upper);
        if (s.step) expr(*s.step);
        break;
      }
      case ExprKind::Starred: expr(*e.as<Starred>()->value); break;
      case ExprKind::Call: {
        auto& c = *e.as<Call>();
        expr(*c.func);
        exprs(c.args);
        for (const auto& k : c.keywords) expr(*k.value);
        break;
      }
      case ExprKind::BinOp: expr(*e.as<BinOp>()->left); expr(*e.as<BinOp>()->right); break;
      case ExprKind::UnaryOp: expr(*e.as<UnaryOp>()->operand); break;
      case ExprKind::BoolOp: exprs(e.as<BoolOp>()->values); break;
      case ExprKind::Compare: expr(*e.as<Compare>()->left); exprs(e.as<Compare>()->comparators); break;
      case ExprKind::IfExp: {
        auto& i = *e.as<IfExp>();
        expr(*i.test);
        expr(*i.body);
        expr(*i.orelse);
        break;
      }
      case ExprKind::Yield: {
        if (auto& v = e.as<Yield>()->value) expr(*v);
        switch (cur_->out->kind) {
          case ScopeKind::Function: cur_->out->generator = true; break;
          case ScopeKind::Lambda: fail("'yield' inside a lambda is not supported by kiln", e.pos);
          case ScopeKind::Comprehension: fail("'yield' inside a comprehension", e.pos);
          default: fail("'yield' outside function", e.pos);
        }
        break;
      }
      case ExprKind::NamedExpr: {
        auto& n = *e.as<NamedExpr>();
        expr(*n.value);
        // CPython binds the name in the function around a comprehension; kiln's
        // comprehensions are scopes of their own, so it refuses rather than differ.
        if (cur_->out->kind == ScopeKind::Comprehension)
          fail("assignment expressions (:=) inside comprehensions are not supported by kiln", e.pos);
        bind(n.target);
        break;
      }
      case ExprKind::Lambda: {
        auto& l = *e.as<Lambda>();
        defaults(l.args);
        RawScope* raw = open(&l, ScopeKind::Lambda, "<lambda>", l.pos);
        within(raw, [&] { params(l.args); expr(*l.body); });
        break;
      }
      case ExprKind::List: exprs(e.as<List>()->elts); break;
      case ExprKind::Tuple: exprs(e.as<Tuple>()->elts); break;
      case ExprKind::Dict: exprs(e.as<Dict>()->keys); exprs(e.as<Dict>()->values); break;
      case ExprKind::Set: exprs(e.as<Set>()->elts); break;
      case ExprKind::ListComp:
        comprehension(e, "<listcomp>", e.as<ListComp>()->generators, {e.as<ListComp>()->elt.get()});
        break;
      case ExprKind::SetComp:
        comprehension(e, "<setcomp>", e.as<SetComp>()->generators, {e.as<SetComp>()->elt.get()});
        break;
      case ExprKind::GeneratorExp:
        comprehension(e, "<genexpr>", e.as<GeneratorExp>()->generators, {e.as<GeneratorExp>()->elt.get()});
        break;
      case ExprKind::DictComp: {
        auto& c = *e.as<DictComp>();
        comprehension(e, "<dictcomp>", c.generators, {c.key.get(), c.value.get()});
        break;
      }
      case ExprKind::JoinedStr: exprs(e.as<JoinedStr>()->values); break;
      case ExprKind::FormattedValue: {
        auto& f = *e.as<FormattedValue>();
        expr(*f.value);
        if (f.format_spec) expr(*f.format_spec);
        break;
      }
    }
  }

  SymbolTable& table_;
  const std::string& filename_;
  RawScope* cur_ = nullptr;
  int depth_ = 0;

 public:
  std::vector<std::unique_ptr<RawScope>> raws_;
};

// ---- resolution ----------------------------------------------------------------------

class Resolver {
 public:
  explicit Resolver(const std::string& filename) : filename_(filename) {}

  // Resolves `raw` given the names enclosing function scopes bind; returns
  // the free variables it needs from outside.
  std::set<std::string> resolve(RawScope& raw, const std::set<std::string>& enclosing, bool class_cell) {
    Scope& s = *raw.out;
    if (s.kind == ScopeKind::Module) {
      for (const auto& [name, f] : raw.flags) s.access[name] = NameAccess::Name;
      for (RawScope* c : raw.children) resolve(*c, {}, false);
      return {};
    }
    std::set<std::string> free, locals;
    for (const auto& [name, f] : raw.flags) {
      NameAccess a = classify(raw, name, f, enclosing);
      s.access[name] = a;
      if (a == NameAccess::Free) free.insert(name);
      if (a == NameAccess::Fast) locals.insert(name);
    }
    const bool is_class = s.kind == ScopeKind::Class;
    if (raw.mentions_super && class_cell) {
      s.uses_class_cell = true;
      free.insert("__class__");
      if (s.access.count("__class__")) s.access["__class__"] = NameAccess::Free;
    }
    std::set<std::string> inner = enclosing;
    if (!is_class) {
      inner.insert(locals.begin(), locals.end());
      for (const auto& [name, f] : raw.flags)
        if (f & kGlobal) inner.erase(name);
    }
    std::set<std::string> cells;
    for (RawScope* c : raw.children) {
      for (const auto& n : resolve(*c, inner, class_cell || is_class)) {
        if (is_class && n == "__class__") cells.insert(n);
        else if (locals.count(n)) cells.insert(n);
        else free.insert(n);
      }
    }
    finish(raw, cells, free);
    return free;
  }

 private:
  NameAccess classify(const RawScope& raw, const std::string& name, int f, const std::set<std::string>& enclosing) {
    if (f & kGlobal) return NameAccess::Global;
    if (f & kNonlocal) {
      if (!enclosing.count(name)) {
        Pos p = raw.nonlocal_pos.at(name);
        throw Error("no binding for nonlocal '" + name + "' found", ErrorKind::Syntax, SourceLoc{filename_, p.line, p.col});
      }
      return NameAccess::Free;
    }
    const bool is_class = raw.out->kind == ScopeKind::Class;
    if (f & (kAssigned | kParam)) return is_class ? NameAccess::Name : NameAccess::Fast;
    if (enclosing.count(name)) return NameAccess::Free;
    return is_class ? NameAccess::Name : NameAccess::Global;
  }

  void finish(RawScope& raw, const std::set<std::string>& cells, const std::set<std::string>& free) {
    Scope& s = *raw.out;
    s.cellvars.assign(cells.begin(), cells.end());
    s.freevars.assign(free.begin(), free.end());
    for (const auto& n : cells)
      if (s.access.count(n)) s.access[n] = NameAccess::Cell;
    if (s.kind == ScopeKind::Class) return;  // class bodies keep names in their dict
    // Parameters were recorded in order by the collector; add other fast locals.
    for (const auto& n : raw.bind_order)
      if (s.access[n] == NameAccess::Fast && !(raw.flags[n] & kParam)) s.varnames.push_back(n);
  }

  const std::string& filename_;
};

}  // namespace

NameAccess Scope::access_of(const std::string& name) const {
  auto it = access.find(name);
  if (it != access.end()) return it->second;
  return kind == ScopeKind::Module || kind == ScopeKind::Class ? NameAccess::Name : NameAccess::Global;
}

int Scope::cell_index(const std::string& name) const {
  auto c = std::find(cellvars.begin(), cellvars.end(), name);
  if (c != cellvars.end()) return int(c - cellvars.begin());
  auto f = std::find(freevars.begin(), freevars.end(), name);
  if (f != freevars.end()) return int(cellvars.size() + (f - freevars.begin()));
  return -1;
}

const Scope& SymbolTable::scope_of(const void* node) const {
  auto it = scopes.find(node);
  if (it == scopes.end()) throw Error("internal compiler error: no scope for a node", ErrorKind::Runtime);
  return *it->second;
}

SymbolTable build_symtable(const Module& module) {
  SymbolTable table;
  Collector collector(table, module.filename);
  RawScope* top = collector.run(module);
  Resolver(module.filename).resolve(*top, {}, false);
  return table;
}

}  // namespace kiln::lang
