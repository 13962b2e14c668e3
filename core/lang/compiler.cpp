// AST -> bytecode. One Unit per Code being built (module, function, class
// body, lambda, comprehension); names are resolved by the symbol table.
// Jumps are emitted against labels and resolved when a unit is finished,
// then the constant folder and the jump peephole run and max_stack is
// computed from the final code. Leaving a block early (return, break,
// continue) walks a CPython-style stack of frame blocks to emit the cleanup
// each one needs.
#include "core/lang/compiler.h"

#include <algorithm>
#include <set>
#include <unordered_map>

#include "core/error.h"
#include "core/lang/peephole.h"
#include "core/lang/symtable.h"

namespace kiln::lang {

namespace {

constexpr int kMaxNesting = 1000;

enum class FBlock : uint8_t { ForLoop, WhileLoop, TryExcept, FinallyTry, FinallyEnd, Handler, With, PopValue };

struct FBlockInfo {
  FBlock kind;
  int head = -1;                        // loops: the `continue` target
  int exit = -1;                        // loops: the `break` target
  const StmtList* finalbody = nullptr;  // FinallyTry
  std::string name;                     // Handler: the `as` name
};

struct Unit {
  Obj obj;
  Code* code = nullptr;
  const Scope* scope = nullptr;
  Pos pos;
  std::vector<FBlockInfo> fblocks;
  std::vector<int> labels;  // label id -> instruction index, -1 while unbound
  std::unordered_map<std::string, uint32_t> consts, names, varnames;
};

enum class TargetCtx : uint8_t { Assign, Other };

class Compiler {
 public:
  Compiler(const SymbolTable& table, std::string filename, bool optimize)
      : table_(table), filename_(std::move(filename)), optimize_(optimize) {}

  Obj compile(const Module& m) {
    enter_unit(table_.scope_of(&m), CodeKind::Module, "<module>", Pos{1, 1});
    setup_annotations(m.body);
    body(m.body);
    implicit_return();
    return finish_unit();
  }

 private:
  // ---- infrastructure -------------------------------------------------------------------

  [[noreturn]] void fail(const std::string& msg, Pos p, ErrorKind k = ErrorKind::Syntax) const {
    throw Error(msg, k, SourceLoc{filename_, p.line, p.col});
  }

  Unit& u() { return *units_.back(); }

  // Sets the position instructions are attributed to (and counts nesting).
  struct At {
    Compiler& c;
    Unit& unit;
    Pos saved;
    At(Compiler& comp, Pos p) : c(comp), unit(comp.u()), saved(unit.pos) {
      if (++c.depth_ > kMaxNesting) {
        --c.depth_;
        c.fail("maximum recursion depth exceeded during compilation", p, ErrorKind::Recursion);
      }
      unit.pos = p;
    }
    ~At() {
      unit.pos = saved;
      --c.depth_;
    }
  };

  void emit(Op op, uint32_t arg = 0) {
    if (arg > kMaxArg) {
      const char* what = op == Op::LOAD_CONST ? "too many constants"
                         : is_jump(op)        ? "code too large"
                                              : "too many names or items";
      fail(what, u().pos);
    }
    u().code->code.emplace_back(op, arg);
    u().code->positions.push_back(u().pos);
  }

  int new_label() {
    u().labels.push_back(-1);
    return int(u().labels.size() - 1);
  }
  void bind(int label) { u().labels[label] = int(u().code->code.size()); }
  void jump(Op op, int label) { emit(op, uint32_t(label)); }

  uint32_t add_const(Obj value) {
    std::string key = const_key(value);
    auto it = u().consts.find(key);
    if (it != u().consts.end()) return it->second;
    auto& consts = u().code->consts;
    uint32_t i = uint32_t(consts.size());
    if (i > kMaxArg) fail("too many constants", u().pos);
    consts.push_back(std::move(value));
    u().consts.emplace(std::move(key), i);
    return i;
  }
  void load_const(Obj value) { emit(Op::LOAD_CONST, add_const(std::move(value))); }

  uint32_t add_name(const std::string& name) {
    auto it = u().names.find(name);
    if (it != u().names.end()) return it->second;
    auto& names = u().code->names;
    uint32_t i = uint32_t(names.size());
    if (i > kMaxArg) fail("too many names", u().pos);
    names.push_back(name);
    u().names.emplace(name, i);
    return i;
  }

  // ---- units ----------------------------------------------------------------------------

  std::string qualname_for(const std::string& name) {
    if (units_.empty()) return name;
    const Code& parent = *u().code;
    switch (parent.code_kind) {
      case CodeKind::Module: return name;
      case CodeKind::Class: return parent.qualname + "." + name;
      default: return parent.qualname + ".<locals>." + name;
    }
  }

  void enter_unit(const Scope& sc, CodeKind kind, const std::string& name, Pos pos) {
    auto unit = std::make_unique<Unit>();
    unit->obj = make<Code>();
    unit->code = unit->obj.as<Code>();
    unit->scope = &sc;
    unit->pos = pos;
    Code& c = *unit->code;
    c.code_kind = kind;
    c.name = name;
    c.qualname = qualname_for(name);
    c.filename = filename_;
    c.firstline = pos.line;
    c.varnames = sc.varnames;
    c.cellvars = sc.cellvars;
    c.freevars = sc.freevars;
    c.argcount = sc.argcount;
    c.kwonlyargcount = sc.kwonlyargcount;
    c.has_varargs = sc.has_varargs;
    c.has_varkw = sc.has_varkw;
    c.is_generator = sc.generator;
    const size_t nparams = size_t(sc.argcount + sc.kwonlyargcount + sc.has_varargs + sc.has_varkw);
    for (const auto& cell : c.cellvars) {
      auto p = std::find(c.varnames.begin(), c.varnames.begin() + std::min(nparams, c.varnames.size()), cell);
      c.cell_param.push_back(p != c.varnames.begin() + std::min(nparams, c.varnames.size())
                                 ? int(p - c.varnames.begin()) : -1);
    }
    for (size_t i = 0; i < c.varnames.size(); ++i) unit->varnames.emplace(c.varnames[i], uint32_t(i));
    units_.push_back(std::move(unit));
  }

  Obj finish_unit() {
    Unit& un = u();
    Code& c = *un.code;
    for (Instr& in : c.code) {
      if (!is_jump(in.op())) continue;
      int target = un.labels.at(in.arg());
      if (target < 0) fail("internal compiler error: unbound label", un.pos, ErrorKind::Runtime);
      in.set_arg(uint32_t(target));
    }
    if (c.code.size() > kMaxArg) fail("code too large", un.pos);
    if (optimize_) {
      fold_constants(c);
      optimize_jumps(c);
      // Again, to drop constants only unreachable code used (cheap: nothing new folds).
      fold_constants(c);
      optimize_jumps(c);
    }
    c.max_stack = compute_max_stack(c);
    Obj out = un.obj;
    units_.pop_back();
    return out;
  }

  // `return None` at the end of a body, attributed to the last line compiled.
  void implicit_return() {
    const auto& positions = u().code->positions;
    if (!positions.empty()) u().pos = positions.back();
    load_const(Obj::none());
    emit(Op::RETURN_VALUE);
  }

  // [defaults? kwdefaults?] are on the stack; adds the closure and the code.
  void make_function(const Obj& code_obj, uint32_t flags) {
    const Code& code = *code_obj.as<Code>();
    if (!code.freevars.empty()) {
      for (const auto& name : code.freevars) {
        int idx = u().scope->cell_index(name);
        if (idx < 0) fail("internal compiler error: no cell for free variable '" + name + "'", u().pos, ErrorKind::Runtime);
        emit(Op::LOAD_CLOSURE, uint32_t(idx));
      }
      emit(Op::BUILD_TUPLE, uint32_t(code.freevars.size()));
      flags |= 8;
    }
    load_const(code_obj);
    emit(Op::MAKE_FUNCTION, flags);
  }

  // ---- names ----------------------------------------------------------------------------

  enum class NameOp { Load, Store, Delete };

  void name_op(const std::string& name, NameOp what) {
    static constexpr Op kFast[] = {Op::LOAD_FAST, Op::STORE_FAST, Op::DELETE_FAST};
    static constexpr Op kDeref[] = {Op::LOAD_DEREF, Op::STORE_DEREF, Op::DELETE_DEREF};
    static constexpr Op kGlobal[] = {Op::LOAD_GLOBAL, Op::STORE_GLOBAL, Op::DELETE_GLOBAL};
    static constexpr Op kName[] = {Op::LOAD_NAME, Op::STORE_NAME, Op::DELETE_NAME};
    const int w = int(what);
    switch (u().scope->access_of(name)) {
      case NameAccess::Fast: {
        auto it = u().varnames.find(name);
        if (it == u().varnames.end()) fail("internal compiler error: no local '" + name + "'", u().pos, ErrorKind::Runtime);
        emit(kFast[w], it->second);
        return;
      }
      case NameAccess::Cell:
      case NameAccess::Free: {
        int idx = u().scope->cell_index(name);
        if (idx < 0) fail("internal compiler error: no cell '" + name + "'", u().pos, ErrorKind::Runtime);
        emit(kDeref[w], uint32_t(idx));
        return;
      }
      case NameAccess::Global: emit(kGlobal[w], add_name(name)); return;
      case NameAccess::Name: emit(kName[w], add_name(name)); return;
    }
  }

  // ---- statements -----------------------------------------------------------------------

  void body(const StmtList& stmts) {
    for (const auto& s : stmts) stmt(*s);
  }

  void stmt(const Stmt& s) {
    At at(*this, s.pos);
    switch (s.kind) {
      case StmtKind::FunctionDef: function_def(*s.as<FunctionDef>()); break;
      case StmtKind::ClassDef: class_def(*s.as<ClassDef>()); break;
      case StmtKind::Return: return_stmt(*s.as<Return>()); break;
      case StmtKind::Delete: for (const auto& t : s.as<Delete>()->targets) delete_target(*t); break;
      case StmtKind::Assign: assign(*s.as<Assign>()); break;
      case StmtKind::AugAssign: aug_assign(*s.as<AugAssign>()); break;
      case StmtKind::AnnAssign: ann_assign(*s.as<AnnAssign>()); break;
      case StmtKind::For: for_stmt(*s.as<For>()); break;
      case StmtKind::While: while_stmt(*s.as<While>()); break;
      case StmtKind::If: if_stmt(*s.as<If>()); break;
      case StmtKind::With: with_item(*s.as<With>(), 0); break;
      case StmtKind::Raise: {
        auto& r = *s.as<Raise>();
        uint32_t n = 0;
        if (r.exc) { expr(*r.exc); ++n; }
        if (r.cause) { expr(*r.cause); ++n; }
        emit(Op::RAISE_VARARGS, n);
        break;
      }
      case StmtKind::Try: try_stmt(*s.as<Try>()); break;
      case StmtKind::Assert: assert_stmt(*s.as<Assert>()); break;
      case StmtKind::Import: import(*s.as<Import>()); break;
      case StmtKind::ImportFrom: import_from(*s.as<ImportFrom>()); break;
      case StmtKind::Global: case StmtKind::Nonlocal: case StmtKind::Pass: break;
      case StmtKind::Expr: {
        const Expr& e = *s.as<ExprStmt>()->value;
        if (e.kind == ExprKind::Constant) break;  // docstrings and `...` have no effect
        expr(e);
        emit(Op::POP_TOP);
        break;
      }
      case StmtKind::Break: break_stmt(s.pos); break;
      case StmtKind::Continue: continue_stmt(s.pos); break;
    }
  }

  // Pushes the defaults tuple and kw-only defaults dict; returns MAKE_FUNCTION flags.
  uint32_t defaults(const Arguments& a) {
    uint32_t flags = 0;
    if (!a.defaults.empty()) {
      for (const auto& d : a.defaults) expr(*d);
      emit(Op::BUILD_TUPLE, uint32_t(a.defaults.size()));
      flags |= 1;
    }
    uint32_t n = 0;
    for (size_t i = 0; i < a.kwonlyargs.size() && i < a.kw_defaults.size(); ++i) {
      if (!a.kw_defaults[i]) continue;
      load_const(make_str(a.kwonlyargs[i].name));
      expr(*a.kw_defaults[i]);
      ++n;
    }
    if (n > 0) {
      emit(Op::BUILD_DICT, n);
      flags |= 2;
    }
    return flags;
  }

  void apply_decorators(const ExprList& decorators) {
    for (size_t i = decorators.size(); i-- > 0;) {
      At at(*this, decorators[i]->pos);
      emit(Op::CALL, 1);
    }
  }

  void function_def(const FunctionDef& f) {
    for (const auto& d : f.decorator_list) expr(*d);
    uint32_t flags = defaults(f.args);
    enter_unit(table_.scope_of(&f), CodeKind::Function, f.name, f.pos);
    body(f.body);
    implicit_return();
    Obj code = finish_unit();
    make_function(code, flags);
    store_annotations(f);
    apply_decorators(f.decorator_list);
    name_op(f.name, NameOp::Store);
  }

  // func.__annotations__ = {name: annotation, ..., 'return': ...}, evaluated
  // at def time as CPython does; the function stays on the stack.
  void store_annotations(const FunctionDef& f) {
    if (future_annotations_) return;
    uint32_t n = 0;
    for_each_annotation(f, [&](const std::string& name, const Expr& e) {
      if (n++ == 0) emit(Op::DUP_TOP);
      load_const(make_str(name));
      expr(e);
    });
    if (n == 0) return;
    emit(Op::BUILD_DICT, n);
    emit(Op::ROT_TWO);
    emit(Op::STORE_ATTR, add_name("__annotations__"));
  }

  void class_def(const ClassDef& c) {
    for (const auto& d : c.decorator_list) expr(*d);
    emit(Op::LOAD_BUILD_CLASS);
    const Scope& sc = table_.scope_of(&c);
    enter_unit(sc, CodeKind::Class, c.name, c.pos);
    setup_annotations(c.body);
    body(c.body);
    const auto& positions = u().code->positions;
    if (!positions.empty()) u().pos = positions.back();
    // The class body returns the __class__ cell so __build_class__ can fill it.
    if (int cell = sc.cell_index("__class__"); cell >= 0 && cell < int(sc.cellvars.size()))
      emit(Op::LOAD_CLOSURE, uint32_t(cell));
    else
      load_const(Obj::none());
    emit(Op::RETURN_VALUE);
    Obj code = finish_unit();
    make_function(code, 0);
    load_const(make_str(c.name));
    for (const auto& b : c.bases) expr(*b);
    emit(Op::CALL, uint32_t(2 + c.bases.size()));
    apply_decorators(c.decorator_list);
    name_op(c.name, NameOp::Store);
  }

  // Module and class bodies keep the annotations of their names in
  // `__annotations__`, as CPython does (dataclasses read them); function
  // bodies evaluate none.
  static bool has_annotations(const StmtList& stmts) {
    for (const auto& s : stmts) {
      if (auto* a = s->as<AnnAssign>(); a && a->target->kind == ExprKind::Name) return true;
      if (auto* i = s->as<If>(); i && (has_annotations(i->body) || has_annotations(i->orelse))) return true;
      if (auto* f = s->as<For>(); f && (has_annotations(f->body) || has_annotations(f->orelse))) return true;
      if (auto* w = s->as<While>(); w && (has_annotations(w->body) || has_annotations(w->orelse))) return true;
      if (auto* w = s->as<With>(); w && has_annotations(w->body)) return true;
      if (auto* t = s->as<Try>()) {
        if (has_annotations(t->body) || has_annotations(t->orelse) || has_annotations(t->finalbody)) return true;
        for (const auto& h : t->handlers)
          if (has_annotations(h.body)) return true;
      }
    }
    return false;
  }

  void setup_annotations(const StmtList& stmts) {
    if (!has_annotations(stmts)) return;
    emit(Op::BUILD_DICT, 0);
    name_op("__annotations__", NameOp::Store);
  }

  void ann_assign(const AnnAssign& a) {
    if (a.value) {
      expr(*a.value);
      store_target(*a.target, TargetCtx::Other);
    }
    const CodeKind k = u().code->code_kind;
    const auto* name = a.target->as<Name>();
    if (!name || (k != CodeKind::Module && k != CodeKind::Class)) return;
    expr(*a.annotation);
    name_op("__annotations__", NameOp::Load);
    load_const(make_str(name->id));
    emit(Op::STORE_SUBSCR);
  }

  // YIELD_VALUE leaves the value sent back in (always None: kiln has no
  // send()); `yield from it` yields each item of it and is None itself.
  void yield_expr(const Yield& y) {
    if (!y.from) {
      if (y.value) expr(*y.value);
      else load_const(Obj::none());
      emit(Op::YIELD_VALUE);
      return;
    }
    expr(*y.value);
    emit(Op::GET_ITER);
    int loop = new_label(), end = new_label();
    bind(loop);
    jump(Op::FOR_ITER, end);
    emit(Op::YIELD_VALUE);
    emit(Op::POP_TOP);
    jump(Op::JUMP_BACK, loop);
    bind(end);
    load_const(Obj::none());
  }

  void return_stmt(const Return& r) {
    CodeKind k = u().code->code_kind;
    if (k != CodeKind::Function && k != CodeKind::Lambda) fail("'return' outside function", r.pos);
    if (r.value) expr(*r.value);
    else load_const(Obj::none());
    unwind(0, true);
    emit(Op::RETURN_VALUE);
  }

  void assign(const Assign& a) {
    expr(*a.value);
    for (size_t i = 0; i < a.targets.size(); ++i) {
      if (i + 1 < a.targets.size()) emit(Op::DUP_TOP);
      store_target(*a.targets[i], a.targets.size() == 1 ? TargetCtx::Assign : TargetCtx::Other);
    }
  }

  void aug_assign(const AugAssign& a) {
    const Expr& t = *a.target;
    if (auto* n = t.as<Name>()) {
      name_op(n->id, NameOp::Load);
      expr(*a.value);
      emit(Op::INPLACE_OP, uint32_t(a.op));
      name_op(n->id, NameOp::Store);
    } else if (auto* at = t.as<Attribute>()) {
      expr(*at->value);
      emit(Op::DUP_TOP);
      emit(Op::LOAD_ATTR, add_name(at->attr));
      expr(*a.value);
      emit(Op::INPLACE_OP, uint32_t(a.op));
      emit(Op::ROT_TWO);
      emit(Op::STORE_ATTR, add_name(at->attr));
    } else if (auto* s = t.as<Subscript>()) {
      expr(*s->value);
      expr(*s->slice);
      emit(Op::DUP_TOP_TWO);
      emit(Op::BINARY_SUBSCR);
      expr(*a.value);
      emit(Op::INPLACE_OP, uint32_t(a.op));
      emit(Op::ROT_THREE);
      emit(Op::STORE_SUBSCR);
    } else {
      std::string what = t.kind == ExprKind::Tuple ? "tuple" : t.kind == ExprKind::List ? "list" : describe(t);
      fail("'" + what + "' is an illegal expression for augmented assignment", t.pos);
    }
  }

  void for_stmt(const For& f) {
    expr(*f.iter);
    emit(Op::GET_ITER);
    int head = new_label(), cleanup = new_label(), end = new_label();
    bind(head);
    jump(Op::FOR_ITER, cleanup);
    u().fblocks.push_back({FBlock::ForLoop, head, end, nullptr, {}});
    store_target(*f.target, TargetCtx::Other);
    body(f.body);
    u().fblocks.pop_back();
    jump(Op::JUMP_BACK, head);
    bind(cleanup);
    body(f.orelse);
    bind(end);
  }

  static bool always_true(const Expr& e) {
    const auto* c = e.as<Constant>();
    if (!c) return false;
    if (auto* b = std::get_if<bool>(&c->value)) return *b;
    if (auto* i = std::get_if<int64_t>(&c->value)) return *i != 0;
    return false;
  }

  void while_stmt(const While& w) {
    int head = new_label(), orelse = new_label(), end = new_label();
    bind(head);
    if (!always_true(*w.test)) jump_if(*w.test, false, orelse);
    u().fblocks.push_back({FBlock::WhileLoop, head, end, nullptr, {}});
    body(w.body);
    u().fblocks.pop_back();
    jump(Op::JUMP_BACK, head);
    bind(orelse);
    body(w.orelse);
    bind(end);
  }

  void if_stmt(const If& s) {
    int orelse = new_label(), end = new_label();
    jump_if(*s.test, false, orelse);
    body(s.body);
    if (!s.orelse.empty()) jump(Op::JUMP, end);
    bind(orelse);
    body(s.orelse);
    bind(end);
  }

  // with a as x, b as y: body  ==  with a as x: (with b as y: body)
  void with_item(const With& w, size_t i) {
    if (w.items.empty()) {
      body(w.body);
      return;
    }
    const WithItem& item = w.items[i];
    expr(*item.context_expr);
    emit(Op::BEFORE_WITH);
    if (item.optional_vars) store_target(*item.optional_vars, TargetCtx::Other);
    else emit(Op::POP_TOP);
    int handler = new_label(), suppress = new_label(), end = new_label();
    jump(Op::SETUP_FINALLY, handler);
    u().fblocks.push_back({FBlock::With, -1, -1, nullptr, {}});
    if (i + 1 < w.items.size()) with_item(w, i + 1);
    else body(w.body);
    u().fblocks.pop_back();
    emit(Op::POP_BLOCK);
    emit(Op::WITH_EXIT);
    jump(Op::JUMP, end);
    bind(handler);  // [exit exc]
    emit(Op::WITH_EXCEPT);
    jump(Op::POP_JUMP_IF_TRUE, suppress);
    emit(Op::RERAISE);
    bind(suppress);
    emit(Op::POP_EXCEPT);
    emit(Op::POP_TOP);
    bind(end);
  }

  void try_stmt(const Try& t) {
    if (t.finalbody.empty()) {
      try_except(t);
      return;
    }
    int fin = new_label(), after = new_label();
    jump(Op::SETUP_FINALLY, fin);
    u().fblocks.push_back({FBlock::FinallyTry, -1, -1, &t.finalbody, {}});
    if (t.handlers.empty()) body(t.body);
    else try_except(t);
    u().fblocks.pop_back();
    emit(Op::POP_BLOCK);
    body(t.finalbody);
    jump(Op::JUMP, after);
    bind(fin);  // [exc]
    u().fblocks.push_back({FBlock::FinallyEnd, -1, -1, nullptr, {}});
    body(t.finalbody);
    u().fblocks.pop_back();
    emit(Op::RERAISE);
    bind(after);
  }

  void try_except(const Try& t) {
    int handler = new_label(), end = new_label();
    jump(Op::SETUP_FINALLY, handler);
    u().fblocks.push_back({FBlock::TryExcept, -1, -1, nullptr, {}});
    body(t.body);
    u().fblocks.pop_back();
    emit(Op::POP_BLOCK);
    body(t.orelse);
    jump(Op::JUMP, end);
    bind(handler);  // [exc]
    bool matched_all = false;
    for (size_t i = 0; i < t.handlers.size(); ++i) {
      const ExceptHandler& h = t.handlers[i];
      At at(*this, h.pos);
      if (!h.type && i + 1 < t.handlers.size()) fail("default 'except:' must be last", h.pos);
      int next = new_label();
      if (h.type) {
        expr(*h.type);
        jump(Op::JUMP_IF_NOT_EXC_MATCH, next);
      } else {
        matched_all = true;
      }
      if (!h.name.empty()) {
        emit(Op::DUP_TOP);
        name_op(h.name, NameOp::Store);
      }
      u().fblocks.push_back({FBlock::Handler, -1, -1, nullptr, h.name});
      body(h.body);
      u().fblocks.pop_back();
      emit(Op::POP_EXCEPT);
      clear_handler_name(h.name);
      jump(Op::JUMP, end);
      bind(next);
    }
    if (!matched_all) {
      At at(*this, t.handlers.empty() ? u().pos : t.handlers.back().pos);
      emit(Op::RERAISE);
    }
    bind(end);
  }

  // `except E as e` unbinds e when the handler ends (Python 3 semantics).
  void clear_handler_name(const std::string& name) {
    if (name.empty()) return;
    load_const(Obj::none());
    name_op(name, NameOp::Store);
    name_op(name, NameOp::Delete);
  }

  void assert_stmt(const Assert& a) {
    int ok = new_label();
    jump_if(*a.test, true, ok);
    emit(Op::LOAD_ASSERTION_ERROR);
    if (a.msg) {
      expr(*a.msg);
      emit(Op::CALL, 1);
    }
    emit(Op::RAISE_VARARGS, 1);
    bind(ok);
  }

  void import(const Import& s) {
    for (const Alias& a : s.names) {
      At at(*this, a.pos);
      emit(Op::IMPORT_NAME, add_name(a.name));
      if (!a.asname.empty()) {
        name_op(a.asname, NameOp::Store);
        continue;
      }
      size_t dot = a.name.find('.');
      if (dot != std::string::npos) {  // `import a.b` binds the top-level package a
        std::string top = a.name.substr(0, dot);
        emit(Op::POP_TOP);
        emit(Op::IMPORT_NAME, add_name(top));
        name_op(top, NameOp::Store);
      } else {
        name_op(a.name, NameOp::Store);
      }
    }
  }

  void import_from(const ImportFrom& s) {
    if (s.names.size() == 1 && s.names[0].name == "*") {
      if (u().scope->kind != ScopeKind::Module) fail("import * only allowed at module level", s.names[0].pos);
      At at(*this, s.names[0].pos);
      emit(Op::IMPORT_NAME, add_name(s.module));
      emit(Op::IMPORT_STAR);
      return;
    }
    emit(Op::IMPORT_NAME, add_name(s.module));
    for (const Alias& a : s.names) {
      if (s.module == "__future__" && a.name == "annotations") future_annotations_ = true;
      At at(*this, a.pos);
      emit(Op::IMPORT_FROM, add_name(a.name));
      name_op(a.asname.empty() ? a.name : a.asname, NameOp::Store);
    }
    emit(Op::POP_TOP);
  }

  // ---- leaving blocks early ---------------------------------------------------------------

  // Emits the cleanup for every frame block above `keep`, innermost first.
  // With `preserve` the value on top of the stack (a return value) survives.
  // Each block is popped while its cleanup is emitted, so a `return` inside
  // a copied finally body unwinds only the blocks outside it.
  void unwind(size_t keep, bool preserve) {
    std::vector<FBlockInfo> saved;
    while (u().fblocks.size() > keep) {
      saved.push_back(u().fblocks.back());
      u().fblocks.pop_back();
      unwind_one(saved.back(), preserve);
    }
    for (size_t i = saved.size(); i-- > 0;) u().fblocks.push_back(saved[i]);
  }

  void unwind_one(const FBlockInfo& b, bool preserve) {
    switch (b.kind) {
      case FBlock::WhileLoop: break;
      case FBlock::ForLoop:
      case FBlock::PopValue:
        if (preserve) emit(Op::ROT_TWO);
        emit(Op::POP_TOP);
        break;
      case FBlock::TryExcept: emit(Op::POP_BLOCK); break;
      case FBlock::FinallyTry:
        emit(Op::POP_BLOCK);
        if (preserve) u().fblocks.push_back({FBlock::PopValue, -1, -1, nullptr, {}});
        body(*b.finalbody);
        if (preserve) u().fblocks.pop_back();
        break;
      case FBlock::FinallyEnd:
        if (preserve) emit(Op::ROT_TWO);
        emit(Op::POP_EXCEPT);
        break;
      case FBlock::Handler:
        if (preserve) emit(Op::ROT_TWO);
        emit(Op::POP_EXCEPT);
        clear_handler_name(b.name);
        break;
      case FBlock::With:
        emit(Op::POP_BLOCK);
        if (preserve) emit(Op::ROT_TWO);
        emit(Op::WITH_EXIT);
        break;
    }
  }

  // The innermost loop's index in the fblock stack, or -1.
  int innermost_loop() {
    for (size_t i = u().fblocks.size(); i-- > 0;) {
      FBlock k = u().fblocks[i].kind;
      if (k == FBlock::ForLoop || k == FBlock::WhileLoop) return int(i);
    }
    return -1;
  }

  void break_stmt(Pos p) {
    int loop = innermost_loop();
    if (loop < 0) fail("'break' outside loop", p);
    FBlockInfo info = u().fblocks[size_t(loop)];
    unwind(size_t(loop) + 1, false);
    if (info.kind == FBlock::ForLoop) emit(Op::POP_TOP);  // the iterator
    jump(Op::JUMP, info.exit);
  }

  void continue_stmt(Pos p) {
    int loop = innermost_loop();
    if (loop < 0) fail("'continue' not properly in loop", p);
    FBlockInfo info = u().fblocks[size_t(loop)];
    unwind(size_t(loop) + 1, false);
    jump(Op::JUMP_BACK, info.head);
  }

  // ---- assignment targets -----------------------------------------------------------------

  static std::string describe(const Expr& e) {
    switch (e.kind) {
      case ExprKind::Call: return "function call";
      case ExprKind::Constant: {
        const auto& v = e.as<Constant>()->value;
        if (std::holds_alternative<std::monostate>(v)) return "None";
        if (auto* b = std::get_if<bool>(&v)) return *b ? "True" : "False";
        if (std::holds_alternative<Ellipsis>(v)) return "ellipsis";
        return "literal";
      }
      case ExprKind::Compare: return "comparison";
      case ExprKind::IfExp: return "conditional expression";
      case ExprKind::NamedExpr: return "named expression";
      case ExprKind::Yield: return "yield expression";
      case ExprKind::Lambda: return "lambda";
      case ExprKind::ListComp: return "list comprehension";
      case ExprKind::SetComp: return "set comprehension";
      case ExprKind::DictComp: return "dict comprehension";
      case ExprKind::GeneratorExp: return "generator expression";
      case ExprKind::JoinedStr: case ExprKind::FormattedValue: return "f-string expression";
      case ExprKind::Dict: return "dict literal";
      case ExprKind::Set: return "set display";
      case ExprKind::Starred: return "starred";
      default: return "expression";
    }
  }

  [[noreturn]] void bad_target(const Expr& t, TargetCtx ctx) {
    std::string what = describe(t);
    bool hint = ctx == TargetCtx::Assign && what != "comparison" && what != "conditional expression" &&
                what != "lambda" && what != "None" && what != "True" && what != "False";
    if (auto* u = t.as<UnaryOp>(); u && u->op == UnaryOpKind::Not) hint = false;
    if (t.kind == ExprKind::BoolOp) hint = false;
    fail("cannot assign to " + what + (hint ? " here. Maybe you meant '==' instead of '='?" : ""), t.pos);
  }

  void store_target(const Expr& t, TargetCtx ctx) {
    At at(*this, t.pos);
    switch (t.kind) {
      case ExprKind::Name: name_op(t.as<Name>()->id, NameOp::Store); break;
      case ExprKind::Attribute:
        expr(*t.as<Attribute>()->value);
        emit(Op::STORE_ATTR, add_name(t.as<Attribute>()->attr));
        break;
      case ExprKind::Subscript:
        expr(*t.as<Subscript>()->value);
        expr(*t.as<Subscript>()->slice);
        emit(Op::STORE_SUBSCR);
        break;
      case ExprKind::Tuple: unpack(t.as<Tuple>()->elts, t.pos); break;
      case ExprKind::List: unpack(t.as<List>()->elts, t.pos); break;
      case ExprKind::Starred: fail("starred assignment target must be in a list or tuple", t.pos);
      default: bad_target(t, ctx);
    }
  }

  void unpack(const ExprList& elts, Pos pos) {
    size_t star = elts.size();
    for (size_t i = 0; i < elts.size(); ++i) {
      if (elts[i]->kind != ExprKind::Starred) continue;
      if (star != elts.size()) fail("multiple starred expressions in assignment", pos);
      star = i;
    }
    if (star == elts.size()) {
      emit(Op::UNPACK_SEQUENCE, uint32_t(elts.size()));
    } else {
      size_t before = star, after = elts.size() - star - 1;
      if (before > 0xff || after > (kMaxArg >> 8)) fail("too many expressions in star-unpacking assignment", pos);
      emit(Op::UNPACK_EX, uint32_t(before | (after << 8)));
    }
    for (const auto& e : elts) {
      if (auto* s = e->as<Starred>()) store_target(*s->value, TargetCtx::Other);
      else store_target(*e, TargetCtx::Other);
    }
  }

  void delete_target(const Expr& t) {
    At at(*this, t.pos);
    switch (t.kind) {
      case ExprKind::Name: name_op(t.as<Name>()->id, NameOp::Delete); break;
      case ExprKind::Attribute:
        expr(*t.as<Attribute>()->value);
        emit(Op::DELETE_ATTR, add_name(t.as<Attribute>()->attr));
        break;
      case ExprKind::Subscript:
        expr(*t.as<Subscript>()->value);
        expr(*t.as<Subscript>()->slice);
        emit(Op::DELETE_SUBSCR);
        break;
      case ExprKind::Tuple: for (const auto& e : t.as<Tuple>()->elts) delete_target(*e); break;
      case ExprKind::List: for (const auto& e : t.as<List>()->elts) delete_target(*e); break;
      default: fail("cannot delete " + describe(t), t.pos);
    }
  }

  // ---- expressions ------------------------------------------------------------------------

  void expr(const Expr& e) {
    At at(*this, e.pos);
    switch (e.kind) {
      case ExprKind::Constant: constant(*e.as<Constant>()); break;
      case ExprKind::Name: name_op(e.as<Name>()->id, NameOp::Load); break;
      case ExprKind::Attribute:
        expr(*e.as<Attribute>()->value);
        emit(Op::LOAD_ATTR, add_name(e.as<Attribute>()->attr));
        break;
      case ExprKind::Subscript:
        expr(*e.as<Subscript>()->value);
        expr(*e.as<Subscript>()->slice);
        emit(Op::BINARY_SUBSCR);
        break;
      case ExprKind::Slice: slice(*e.as<Slice>()); break;
      case ExprKind::Starred: fail("can't use starred expression here", e.pos);
      case ExprKind::Call: call(*e.as<Call>()); break;
      case ExprKind::BinOp: {
        auto& b = *e.as<BinOp>();
        expr(*b.left);
        expr(*b.right);
        emit(Op::BINARY_OP, uint32_t(b.op));
        break;
      }
      case ExprKind::UnaryOp:
        expr(*e.as<UnaryOp>()->operand);
        emit(Op::UNARY_OP, uint32_t(e.as<UnaryOp>()->op));
        break;
      case ExprKind::BoolOp: bool_op(*e.as<BoolOp>()); break;
      case ExprKind::Compare: compare(*e.as<Compare>()); break;
      case ExprKind::IfExp: {
        auto& i = *e.as<IfExp>();
        int orelse = new_label(), end = new_label();
        jump_if(*i.test, false, orelse);
        expr(*i.body);
        jump(Op::JUMP, end);
        bind(orelse);
        expr(*i.orelse);
        bind(end);
        break;
      }
      case ExprKind::Yield: yield_expr(*e.as<Yield>()); break;
      case ExprKind::NamedExpr: {
        auto& n = *e.as<NamedExpr>();
        expr(*n.value);
        emit(Op::DUP_TOP);
        name_op(n.target, NameOp::Store);
        break;
      }
      case ExprKind::Lambda: lambda(*e.as<Lambda>()); break;
      case ExprKind::List: sequence(e.as<List>()->elts, Op::BUILD_LIST); break;
      case ExprKind::Tuple: sequence(e.as<Tuple>()->elts, Op::BUILD_TUPLE); break;
      case ExprKind::Set: set_display(*e.as<Set>()); break;
      case ExprKind::Dict: dict_display(*e.as<Dict>()); break;
      case ExprKind::ListComp: {
        auto& c = *e.as<ListComp>();
        comprehension(e, "<listcomp>", c.generators, Op::BUILD_LIST, c.elt.get(), nullptr);
        break;
      }
      case ExprKind::GeneratorExp: {
        auto& c = *e.as<GeneratorExp>();
        comprehension(e, "<genexpr>", c.generators, Op::YIELD_VALUE, c.elt.get(), nullptr);
        break;
      }
      case ExprKind::SetComp: {
        auto& c = *e.as<SetComp>();
        comprehension(e, "<setcomp>", c.generators, Op::BUILD_SET, c.elt.get(), nullptr);
        break;
      }
      case ExprKind::DictComp: {
        auto& c = *e.as<DictComp>();
        comprehension(e, "<dictcomp>", c.generators, Op::BUILD_DICT, c.key.get(), c.value.get());
        break;
      }
      case ExprKind::JoinedStr: joined_str(*e.as<JoinedStr>()); break;
      case ExprKind::FormattedValue: formatted_value(*e.as<FormattedValue>()); break;
    }
  }

  void constant(const Constant& c) {
    std::visit(
        [&](const auto& v) {
          using T = std::decay_t<decltype(v)>;
          if constexpr (std::is_same_v<T, std::monostate>) load_const(Obj::none());
          else if constexpr (std::is_same_v<T, bool>) load_const(Obj::from_bool(v));
          else if constexpr (std::is_same_v<T, int64_t>) load_const(Obj::from_int(v));
          else if constexpr (std::is_same_v<T, double>) load_const(Obj::from_float(v));
          else if constexpr (std::is_same_v<T, std::string>) load_const(make_str(v));
          else if constexpr (std::is_same_v<T, BytesValue>) load_const(make_bytes(v.value));
          // `...`: the VM provides a builtin `Ellipsis` object rather than a constant kind.
          else emit(Op::LOAD_GLOBAL, add_name("Ellipsis"));
        },
        c.value);
  }

  void slice(const Slice& s) {
    auto part = [&](const ExprP& p) {
      if (p) expr(*p);
      else load_const(Obj::none());
    };
    part(s.lower);
    part(s.upper);
    if (s.step) expr(*s.step);
    emit(Op::BUILD_SLICE, s.step ? 3 : 2);
  }

  // Jumps to `label` when bool(e) == cond, else falls through; `not`, `and`
  // and `or` become jumps instead of values.
  void jump_if(const Expr& e, bool cond, int label) {
    At at(*this, e.pos);
    if (auto* u = e.as<UnaryOp>(); u && u->op == UnaryOpKind::Not) {
      jump_if(*u->operand, !cond, label);
      return;
    }
    if (auto* b = e.as<BoolOp>(); b && !b->values.empty()) {
      const bool is_or = b->op == BoolOpKind::Or;
      if (cond == is_or) {  // any operand deciding the outcome jumps straight to label
        for (const auto& v : b->values) jump_if(*v, cond, label);
      } else {
        int next = new_label();
        for (size_t i = 0; i + 1 < b->values.size(); ++i) jump_if(*b->values[i], !cond, next);
        jump_if(*b->values.back(), cond, label);
        bind(next);
      }
      return;
    }
    expr(e);
    jump(cond ? Op::POP_JUMP_IF_TRUE : Op::POP_JUMP_IF_FALSE, label);
  }

  void bool_op(const BoolOp& b) {
    int end = new_label();
    Op op = b.op == BoolOpKind::And ? Op::JUMP_IF_FALSE_OR_POP : Op::JUMP_IF_TRUE_OR_POP;
    for (size_t i = 0; i < b.values.size(); ++i) {
      expr(*b.values[i]);
      if (i + 1 < b.values.size()) jump(op, end);
    }
    bind(end);
  }

  // a < b < c evaluates b once: [a b] DUP_TOP ROT_THREE COMPARE_OP leaves [b r].
  void compare(const Compare& c) {
    expr(*c.left);
    const size_t n = c.ops.size();
    if (n == 0 || c.comparators.size() != n) fail("internal compiler error: malformed comparison", c.pos, ErrorKind::Runtime);
    if (n == 1) {
      expr(*c.comparators[0]);
      emit(Op::COMPARE_OP, uint32_t(c.ops[0]));
      return;
    }
    int cleanup = new_label(), end = new_label();
    for (size_t i = 0; i + 1 < n; ++i) {
      expr(*c.comparators[i]);
      emit(Op::DUP_TOP);
      emit(Op::ROT_THREE);
      emit(Op::COMPARE_OP, uint32_t(c.ops[i]));
      jump(Op::JUMP_IF_FALSE_OR_POP, cleanup);
    }
    expr(*c.comparators[n - 1]);
    emit(Op::COMPARE_OP, uint32_t(c.ops[n - 1]));
    jump(Op::JUMP, end);
    bind(cleanup);
    emit(Op::ROT_TWO);
    emit(Op::POP_TOP);
    bind(end);
  }

  void lambda(const Lambda& l) {
    uint32_t flags = defaults(l.args);
    enter_unit(table_.scope_of(&l), CodeKind::Lambda, "<lambda>", l.pos);
    expr(*l.body);
    emit(Op::RETURN_VALUE);
    Obj code = finish_unit();
    make_function(code, flags);
  }

  static bool has_starred(const ExprList& elts) {
    return std::any_of(elts.begin(), elts.end(), [](const ExprP& e) { return e->kind == ExprKind::Starred; });
  }

  // [elts] with BUILD_LIST; with *x parts the list is extended piecewise.
  void build_list(const ExprList& elts) {
    size_t lead = 0;
    while (lead < elts.size() && elts[lead]->kind != ExprKind::Starred) expr(*elts[lead++]);
    emit(Op::BUILD_LIST, uint32_t(lead));
    for (size_t i = lead; i < elts.size(); ++i) {
      if (auto* s = elts[i]->as<Starred>()) {
        At at(*this, s->pos);
        expr(*s->value);
        emit(Op::LIST_EXTEND, 1);
      } else {
        expr(*elts[i]);
        emit(Op::LIST_APPEND, 1);
      }
    }
  }

  void sequence(const ExprList& elts, Op build) {
    if (!has_starred(elts)) {
      for (const auto& e : elts) expr(*e);
      emit(build, uint32_t(elts.size()));
      return;
    }
    build_list(elts);
    if (build == Op::BUILD_TUPLE) emit(Op::LIST_TO_TUPLE);
  }

  void set_display(const Set& s) {
    const bool constants = s.elts.size() >= 3 && std::all_of(s.elts.begin(), s.elts.end(), [](const auto& e) {
      return e->kind == ExprKind::Constant;
    });
    if (constants) {
      for (const auto& e : s.elts) expr(*e);
      emit(Op::BUILD_CONST_SET, uint32_t(s.elts.size()));
      return;
    }
    size_t lead = 0;
    while (lead < s.elts.size() && s.elts[lead]->kind != ExprKind::Starred) expr(*s.elts[lead++]);
    emit(Op::BUILD_SET, uint32_t(lead));
    for (size_t i = lead; i < s.elts.size(); ++i) {
      auto* st = s.elts[i]->as<Starred>();
      if (!st) {
        expr(*s.elts[i]);
        emit(Op::SET_ADD, 1);
        continue;
      }
      // {*it}: there is no set-update opcode, so add the items in a small loop.
      At at(*this, st->pos);
      expr(*st->value);
      emit(Op::GET_ITER);
      int head = new_label(), done = new_label();
      bind(head);
      jump(Op::FOR_ITER, done);
      emit(Op::SET_ADD, 2);
      jump(Op::JUMP_BACK, head);
      bind(done);
    }
  }

  void dict_display(const Dict& d) {
    const size_t n = std::min(d.keys.size(), d.values.size());
    size_t lead = 0;
    while (lead < n && d.keys[lead]) {
      expr(*d.keys[lead]);
      expr(*d.values[lead]);
      ++lead;
    }
    emit(Op::BUILD_DICT, uint32_t(lead));
    for (size_t i = lead; i < n; ++i) {
      if (!d.keys[i]) {
        expr(*d.values[i]);
        emit(Op::DICT_UPDATE, 1);
      } else {
        expr(*d.keys[i]);
        expr(*d.values[i]);
        emit(Op::MAP_ADD, 1);
      }
    }
  }

  void joined_str(const JoinedStr& j) {
    if (j.values.empty()) {
      load_const(make_str(""));
      return;
    }
    for (const auto& v : j.values) expr(*v);
    if (j.values.size() > 1) emit(Op::BUILD_STRING, uint32_t(j.values.size()));
  }

  void formatted_value(const FormattedValue& f) {
    expr(*f.value);
    uint32_t flags = 0;
    switch (f.conversion) {
      case 's': flags = 1; break;
      case 'r': flags = 2; break;
      case 'a': flags = 3; break;
      default: break;
    }
    if (f.format_spec) {
      expr(*f.format_spec);
      flags |= 4;
    }
    emit(Op::FORMAT_VALUE, flags);
  }

  // ---- calls ------------------------------------------------------------------------------

  void check_keywords(const std::vector<Keyword>& kws) {
    std::set<std::string> seen;
    for (const auto& k : kws)
      if (!k.arg.empty() && !seen.insert(k.arg).second) fail("keyword argument repeated: " + k.arg, k.pos);
  }

  // Pushes keyword values and the const tuple of their names; returns how many.
  uint32_t keyword_args(const std::vector<Keyword>& kws) {
    std::vector<Obj> names;
    for (const auto& k : kws) {
      expr(*k.value);
      names.push_back(make_str(k.arg));
    }
    if (!names.empty()) load_const(make_tuple(std::move(names)));
    return uint32_t(kws.size());
  }

  // super() in a method: super(__class__, <first parameter>).
  bool zero_arg_super(const Call& c) {
    const auto* n = c.func->as<Name>();
    if (!n || n->id != "super" || !c.args.empty() || !c.keywords.empty()) return false;
    const Scope& sc = *u().scope;
    if (!sc.uses_class_cell || sc.access_of("super") != NameAccess::Global || sc.argcount < 1) return false;
    name_op("super", NameOp::Load);
    emit(Op::LOAD_DEREF, uint32_t(sc.cell_index("__class__")));
    name_op(u().code->varnames[0], NameOp::Load);
    emit(Op::CALL, 2);
    return true;
  }

  void call(const Call& c) {
    check_keywords(c.keywords);
    if (zero_arg_super(c)) return;
    const bool star = has_starred(c.args) ||
                      std::any_of(c.keywords.begin(), c.keywords.end(), [](const Keyword& k) { return k.arg.empty(); });
    if (!star) {
      if (auto* a = c.func->as<Attribute>()) {
        expr(*a->value);
        emit(Op::LOAD_METHOD, add_name(a->attr));
        for (const auto& e : c.args) expr(*e);
        uint32_t nkw = keyword_args(c.keywords);
        uint32_t n = uint32_t(c.args.size()) + nkw;
        emit(nkw ? Op::CALL_METHOD_KW : Op::CALL_METHOD, n);
        return;
      }
      expr(*c.func);
      for (const auto& e : c.args) expr(*e);
      uint32_t nkw = keyword_args(c.keywords);
      emit(nkw ? Op::CALL_KW : Op::CALL, uint32_t(c.args.size()) + nkw);
      return;
    }
    expr(*c.func);
    build_list(c.args);
    emit(Op::LIST_TO_TUPLE);
    if (c.keywords.empty()) {
      emit(Op::CALL_EX, 0);
      return;
    }
    kwargs_dict(c.keywords);
    emit(Op::CALL_EX, 1);
  }

  void kwargs_dict(const std::vector<Keyword>& kws) {
    size_t lead = 0;
    while (lead < kws.size() && !kws[lead].arg.empty()) {
      At at(*this, kws[lead].pos);
      load_const(make_str(kws[lead].arg));
      expr(*kws[lead].value);
      ++lead;
    }
    emit(Op::BUILD_DICT, uint32_t(lead));
    for (size_t i = lead; i < kws.size(); ++i) {
      At at(*this, kws[i].pos);
      if (kws[i].arg.empty()) {
        expr(*kws[i].value);
        emit(Op::DICT_UPDATE, 1);
      } else {
        load_const(make_str(kws[i].arg));
        expr(*kws[i].value);
        emit(Op::MAP_ADD, 1);
      }
    }
  }

  // ---- comprehensions -----------------------------------------------------------------------

  // A nested function of one parameter `.0` (the first iterator), called at once;
  // for a generator expression (build YIELD_VALUE) that call makes the generator.
  void comprehension(const Expr& node, const char* name, const std::vector<Comprehension>& gens, Op build,
                     const Expr* elt, const Expr* value) {
    if (gens.empty()) fail("internal compiler error: comprehension without a for", node.pos, ErrorKind::Runtime);
    enter_unit(table_.scope_of(&node), CodeKind::Comprehension, name, node.pos);
    const bool lazy = build == Op::YIELD_VALUE;  // a generator expression: yields, builds nothing
    if (!lazy) emit(build, 0);
    emit(Op::LOAD_FAST, 0);
    comprehension_loop(gens, 0, build, elt, value);
    if (lazy) load_const(Obj::none());
    emit(Op::RETURN_VALUE);
    Obj code = finish_unit();
    make_function(code, 0);
    expr(*gens[0].iter);
    emit(Op::GET_ITER);
    emit(Op::CALL, 1);
  }

  void comprehension_loop(const std::vector<Comprehension>& gens, size_t i, Op build, const Expr* elt,
                          const Expr* value) {
    const Comprehension& g = gens[i];
    if (i > 0) {
      expr(*g.iter);
      emit(Op::GET_ITER);
    }
    int head = new_label(), next = new_label(), end = new_label();
    bind(head);
    jump(Op::FOR_ITER, end);
    store_target(*g.target, TargetCtx::Other);
    // A failed condition jumps forward to the loop's one JUMP_BACK.
    for (const auto& cond : g.ifs) jump_if(*cond, false, next);
    if (i + 1 < gens.size()) {
      comprehension_loop(gens, i + 1, build, elt, value);
    } else {
      const uint32_t depth = uint32_t(gens.size() + 1);  // the container sits under one iterator per for
      expr(*elt);
      if (build == Op::YIELD_VALUE) {
        emit(Op::YIELD_VALUE);
        emit(Op::POP_TOP);
      } else if (build == Op::BUILD_DICT) {
        expr(*value);
        emit(Op::MAP_ADD, depth);
      } else {
        emit(build == Op::BUILD_SET ? Op::SET_ADD : Op::LIST_APPEND, depth);
      }
    }
    bind(next);
    jump(Op::JUMP_BACK, head);
    bind(end);
  }

  const SymbolTable& table_;
  // `from __future__ import annotations`: CPython keeps function annotations
  // as source strings; kiln has no unparser, so such functions store none.
  bool future_annotations_ = false;
  std::string filename_;
  bool optimize_;
  std::vector<std::unique_ptr<Unit>> units_;
  int depth_ = 0;
};

}  // namespace

Obj compile_module(const Module& module, bool optimize) {
  SymbolTable table = build_symtable(module);
  return Compiler(table, module.filename, optimize).compile(module);
}

Obj compile_module(const Module& module) { return compile_module(module, true); }

}  // namespace kiln::lang
