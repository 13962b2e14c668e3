// Jump optimisation: thread jumps through unconditional forward jumps,
// blank out jumps to the next instruction and code no path reaches, then
// delete the NOPs. Only forward JUMPs are threaded through, so every loop
// keeps its back-edge as a JUMP_BACK the VM counts for the JIT.
#include "core/lang/peephole.h"

namespace kiln::lang {

namespace {

bool ends_block(Op op) {
  return op == Op::JUMP || op == Op::JUMP_BACK || op == Op::RETURN_VALUE || op == Op::RERAISE ||
         op == Op::RAISE_VARARGS;
}

bool thread_jumps(Code& c) {
  bool changed = false;
  const size_t n = c.code.size();
  for (size_t i = 0; i < n; ++i) {
    Instr& in = c.code[i];
    if (!is_jump(in.op()) || in.op() == Op::SETUP_FINALLY) continue;
    uint32_t t = in.arg();
    for (size_t steps = 0; t < n && c.code[t].op() == Op::JUMP && c.code[t].arg() != t && steps < n; ++steps)
      t = c.code[t].arg();
    if (t != in.arg()) {
      in.set_arg(t);
      changed = true;
    }
  }
  return changed;
}

// The first non-NOP instruction at or after i.
size_t skip_nops(const Code& c, size_t i) {
  while (i < c.code.size() && c.code[i].op() == Op::NOP) ++i;
  return i;
}

bool drop_jumps_to_next(Code& c) {
  bool changed = false;
  for (size_t i = 0; i < c.code.size(); ++i) {
    Instr& in = c.code[i];
    if (in.op() == Op::JUMP && skip_nops(c, in.arg()) == skip_nops(c, i + 1)) {
      in = Instr(Op::NOP);
      changed = true;
    }
  }
  return changed;
}

bool drop_unreachable(Code& c) {
  const size_t n = c.code.size();
  std::vector<bool> seen(n, false);
  std::vector<size_t> work;
  auto reach = [&](size_t i) {
    if (i < n && !seen[i]) {
      seen[i] = true;
      work.push_back(i);
    }
  };
  reach(0);
  while (!work.empty()) {
    size_t i = work.back();
    work.pop_back();
    Instr in = c.code[i];
    if (is_jump(in.op())) reach(in.arg());
    if (!ends_block(in.op())) reach(i + 1);
  }
  bool changed = false;
  for (size_t i = 0; i < n; ++i) {
    if (!seen[i] && c.code[i].op() != Op::NOP) {
      c.code[i] = Instr(Op::NOP);
      changed = true;
    }
  }
  return changed;
}

void remove_nops(Code& c) {
  const size_t n = c.code.size();
  std::vector<uint32_t> new_index(n + 1);
  uint32_t kept = 0;
  for (size_t i = 0; i < n; ++i) {
    new_index[i] = kept;
    if (c.code[i].op() != Op::NOP) ++kept;
  }
  new_index[n] = kept;
  if (kept == n) return;
  std::vector<Instr> code;
  std::vector<Pos> positions;
  code.reserve(kept);
  positions.reserve(kept);
  for (size_t i = 0; i < n; ++i) {
    Instr in = c.code[i];
    if (in.op() == Op::NOP) continue;
    if (is_jump(in.op())) in.set_arg(new_index[std::min<size_t>(in.arg(), n)]);
    code.push_back(in);
    positions.push_back(i < c.positions.size() ? c.positions[i] : Pos{});
  }
  c.code = std::move(code);
  c.positions = std::move(positions);
}

}  // namespace

void optimize_jumps(Code& c) {
  for (int round = 0; round < 8; ++round) {
    bool changed = thread_jumps(c);
    changed |= drop_jumps_to_next(c);
    changed |= drop_unreachable(c);
    remove_nops(c);
    if (!changed) break;
  }
  remove_nops(c);
}

}  // namespace kiln::lang
