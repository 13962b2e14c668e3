#!/usr/bin/env python3
"""Checks one recompile-suite script: what `kiln explain --json` reports about
it, and that the JIT never changes what it prints.

usage: check_recompiles.py KILN SCRIPT

The script runs three times with its directory as the working directory:
`KILN explain --json SCRIPT` (the report on stdout, the script's output on
stderr), `KILN run --jit=off SCRIPT` and `KILN run --jit=auto SCRIPT`. The
last two must print the same stdout and exit with the same status (the one
`# expect exit:` names, 0 by default), and so must explain.

Header lines the script carries (anywhere in the file, one per line):

  # env: NAME=VALUE ...        set for all three runs (e.g. KILN_CACHE_LIMIT=3)
  # expect exit: N             the exit status of every run (default 0)
  # expect [in SEL] COUNTED: COUNT [PRED ...]
        how many COUNTED entities in scope satisfy every PRED.
        COUNTED: regions, graphs, recompiles, warnings, breaks (breaks are
        process-wide: no `in`), or the sums eager_runs and runs (graph runs;
        no PREDs for sums).
        COUNT: N, ==N, !=N, <N, <=N, >N, >=N.
  # expect [in SEL] every ENTITY: PRED ...
        there is at least one ENTITY (region, graph, recompile, warning,
        break) in scope and each satisfies every PRED.

  SEL is KIND:NAME with shell wildcards, e.g. compiled:f, loop:*, *:step;
  without `in` the scope is the whole report.
  PRED is FIELD OP VALUE over the entity's JSON fields (kiln explain --json):
  OP is = == != < <= > >= (numbers compare as numbers, true/false as
  booleans), ~ (VALUE is a substring), !~ (is not) or ~~ (VALUE is a Python
  regular expression found in the field, lines matched one by one). FIELD may
  be left out before ~ !~ ~~: the entity's whole JSON text is searched (for a
  warning, its text). Quote values with spaces: guard~"size of dim 0".
  In a VALUE, {@NAME} is SCRIPT.py:LINE of the script line that ends with the
  comment `# @NAME`, so a graph's IR can be tied to a source line:
  ir~~"= mm\(.*# {@backward}:".
"""

import fnmatch
import json
import os
import re
import shlex
import subprocess
import sys
import difflib

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from same_output import same_output  # noqa: E402  (tests/jit/same_output.py)

COUNTED = {"regions": "region", "graphs": "graph", "recompiles": "recompile", "warnings": "warning",
           "breaks": "break"}
SUMS = ("eager_runs", "runs")
PRED_RE = re.compile(r"^([A-Za-z_]*)(==|!=|<=|>=|!~|~~|=|<|>|~)(.*)$", re.S)
MARK_RE = re.compile(r"#\s*@([A-Za-z_][\w-]*)\s*$")
MARK_REF_RE = re.compile(r"\{@([A-Za-z_][\w-]*)\}")
COUNT_RE = re.compile(r"^(==|!=|<=|>=|<|>)?(\d+)$")
EXPECT_RE = re.compile(r"^#\s*expect\s+(.*)$")
ENV_RE = re.compile(r"^#\s*env:\s*(.*)$")
TIMEOUT_S = 300


class SpecError(Exception):
    """A header line the checker cannot read: a broken test, not a JIT failure."""


class Expectation:
    def __init__(self, lineno, text):
        self.lineno = lineno
        self.text = text
        self.selector = None
        self.every = False
        self.entity = None   # singular entity name, or a SUMS name
        self.count = None    # (op, n)
        self.preds = []      # (field, op, value)
        self.exit = None
        self._parse(text)

    def _parse(self, text):
        words = text.split(None, 2)
        if words[:1] == ["in"]:
            if len(words) < 3 or ":" not in words[1]:
                raise SpecError("`in` needs a selector KIND:NAME")
            self.selector = words[1]
            text = words[2]
        head, sep, rest = text.partition(":")
        if not sep:
            raise SpecError("missing ':'")
        words = head.split()
        if words == ["exit"] and not self.selector:
            try:
                self.exit = int(rest.strip())
            except ValueError:
                raise SpecError("`expect exit:` needs an integer") from None
            return
        if words[:1] == ["every"]:
            self.every = True
            words = words[1:]
            if len(words) != 1 or words[0] not in COUNTED.values():
                raise SpecError("`every` needs one of " + ", ".join(COUNTED.values()))
            self.entity = words[0]
        elif len(words) == 1 and words[0] in COUNTED:
            self.entity = COUNTED[words[0]]
        elif len(words) == 1 and words[0] in SUMS:
            self.entity = words[0]
        else:
            raise SpecError("unknown expectation " + repr(head.strip()))
        if self.entity == "break" and self.selector:
            raise SpecError("breaks are process-wide: drop `in`")
        try:
            tokens = shlex.split(rest)
        except ValueError as e:
            raise SpecError(str(e)) from None
        if not self.every:
            if not tokens:
                raise SpecError("missing count")
            m = COUNT_RE.match(tokens[0])
            if not m:
                raise SpecError("bad count " + repr(tokens[0]))
            self.count = (m.group(1) or "==", int(m.group(2)))
            tokens = tokens[1:]
        if self.entity in SUMS and tokens:
            raise SpecError(self.entity + " is a sum: no predicates")
        if self.every and not tokens:
            raise SpecError("`every` needs predicates")
        for t in tokens:
            m = PRED_RE.match(t)
            if not m:
                raise SpecError("bad predicate " + repr(t))
            field, op, value = m.groups()
            if not field and op not in ("~", "!~", "~~"):
                raise SpecError("predicate " + repr(t) + " needs a field")
            self.preds.append((field, "==" if op == "=" else op, value))


def parse_headers(path):
    env, expects, errors, marks = {}, [], [], {}
    base = os.path.basename(path)
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    for lineno, line in enumerate(lines, 1):
        m = MARK_RE.search(line)
        if m and not line.lstrip().startswith("#"):
            marks.setdefault(m.group(1), f"{base}:{lineno}")
    for lineno, line in enumerate(lines, 1):
        line = line.strip()
        m = ENV_RE.match(line)
        if m:
            for item in m.group(1).split():
                name, eq, value = item.partition("=")
                if not eq or not name:
                    errors.append(f"line {lineno}: bad env item {item!r}")
                env[name] = value
            continue
        m = EXPECT_RE.match(line)
        if m:
            try:
                exp = Expectation(lineno, m.group(1))
                exp.preds = [(f, op, expand_marks(v, marks)) for f, op, v in exp.preds]
                expects.append(exp)
            except SpecError as e:
                errors.append(f"line {lineno}: {e}: {line}")
    return env, expects, errors


def expand_marks(value, marks):
    def one(m):
        if m.group(1) not in marks:
            raise SpecError(f"no script line ends with `# @{m.group(1)}`")
        return marks[m.group(1)]
    return MARK_REF_RE.sub(one, value)


# ---- evaluating ----------------------------------------------------------------------------

def compare(actual, op, want):
    if op in ("~", "!~", "~~"):
        text = actual if isinstance(actual, str) else json.dumps(actual)
        if op == "~~":
            try:
                return re.search(want, text, re.M) is not None
            except re.error as e:
                raise SpecError(f"bad regular expression {want!r}: {e}") from None
        return (want in text) == (op == "~")
    if isinstance(actual, bool):
        if want not in ("true", "false"):
            raise SpecError(f"boolean field compared with {want!r}")
        a, w = actual, want == "true"
    elif isinstance(actual, (int, float)):
        try:
            a, w = actual, float(want)
        except ValueError:
            raise SpecError(f"numeric field compared with {want!r}") from None
    else:
        a, w = str(actual), want
    return {"==": a == w, "!=": a != w, "<": a < w, "<=": a <= w, ">": a > w, ">=": a >= w}[op]


def field_of(entity, field):
    if not field:
        return entity
    if not isinstance(entity, dict) or field not in entity:
        raise SpecError(f"no field {field!r} (fields: {', '.join(entity) if isinstance(entity, dict) else 'none'})")
    return entity[field]


def satisfies(entity, preds):
    return all(compare(field_of(entity, f), op, v) for f, op, v in preds)


def regions_in_scope(report, selector):
    regions = report.get("regions", [])
    if not selector:
        return regions
    kind, _, name = selector.partition(":")
    return [r for r in regions if fnmatch.fnmatchcase(r["kind"], kind) and fnmatch.fnmatchcase(r["name"], name)]


def entities(report, regions, entity):
    if entity == "region":
        return regions
    if entity == "break":
        return report.get("breaks", [])
    key = {"graph": "graphs", "recompile": "recompiles", "warning": "warnings"}[entity]
    return [e for r in regions for e in r[key]]


def evaluate(exp, report):
    """None when the expectation holds, else what was found."""
    regions = regions_in_scope(report, exp.selector)
    if exp.entity == "eager_runs":
        value = sum(r["eager_runs"] for r in regions)
    elif exp.entity == "runs":
        value = sum(g["runs"] for r in regions for g in r["graphs"])
    else:
        items = entities(report, regions, exp.entity)
        if exp.every:
            bad = [e for e in items if not satisfies(e, exp.preds)]
            if items and not bad:
                return None
            return "none in scope" if not items else "these do not match:\n" + describe(bad, exp.entity)
        value = sum(1 for e in items if satisfies(e, exp.preds))
    op, n = exp.count
    if compare(value, op, str(n)):
        return None
    found = f"found {value}"
    if exp.entity not in SUMS:
        items = entities(report, regions, exp.entity)
        found += f" ({len(items)} in scope before predicates)"
        if items:
            found += ":\n" + describe(items, exp.entity)
    return found


def describe(items, entity, limit=4):
    out = []
    for e in items[:limit]:
        if entity == "graph":
            ir = e.get("ir", "").splitlines()
            head = {k: v for k, v in e.items() if k not in ("guard_ns", "guard_checks", "ir")}
            shown = ir if len(ir) <= 40 else ir[:36] + [f"... {len(ir) - 38} lines ..."] + ir[-2:]
            out.append("    " + json.dumps(head, sort_keys=True) + "\n      " + "\n      ".join(shown))
            continue
        if entity == "region":
            e = {k: (len(v) if k == "graphs" else v) for k, v in e.items()}
        out.append("    " + json.dumps(e, sort_keys=True))
    if len(items) > limit:
        out.append(f"    ... {len(items) - limit} more")
    return "\n".join(out)


def summary(report):
    lines = [f"report: {report.get('graphs')} graphs, {len(report.get('breaks', []))} break sites"]
    for r in report.get("regions", []):
        lines.append(f"  {r['kind']}:{r['name']} at {r['loc']}: {len(r['graphs'])} graphs "
                     f"(runs {[g['runs'] for g in r['graphs']]}), {len(r['recompiles'])} recompiles, "
                     f"{len(r['warnings'])} warnings, eager_runs {r['eager_runs']}")
        for c in r["recompiles"]:
            lines.append(f"    recompile: {c['guard']}: expected {c['expected']}, got {c['actual']}"
                         f"{' (made dynamic)' if c['made_dynamic'] else ''}")
        for w in r["warnings"]:
            lines.append(f"    warning: {w}")
    for b in report.get("breaks", []):
        lines.append(f"  break [{b['category']}] at {b['loc']} x{b['count']}")
    return "\n".join(lines)


# ---- running ---------------------------------------------------------------------------------

def run(cmd, cwd, env):
    try:
        p = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, timeout=TIMEOUT_S)
    except subprocess.TimeoutExpired:
        return None, "", f"timed out after {TIMEOUT_S}s"
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")


def tail(text, n=25):
    lines = text.splitlines()
    return "\n".join(("    " + l) for l in lines[-n:])


def main(argv):
    if len(argv) != 3:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    kiln, script = os.path.abspath(argv[1]), os.path.abspath(argv[2])
    cwd, name = os.path.dirname(script), os.path.basename(script)
    env_extra, expects, errors = parse_headers(script)
    if errors:
        print("FAIL: unreadable header lines in " + name + ":\n  " + "\n  ".join(errors))
        return 1
    if not any(e.exit is None for e in expects):
        print(f"FAIL: {name} has no `# expect` lines about the report")
        return 1
    want_exit = next((e.exit for e in expects if e.exit is not None), 0)
    env = dict(os.environ)
    env.update(env_extra)
    failures = []

    runs = {}
    for label, cmd in (("jit=off", [kiln, "run", "--jit=off", name]), ("jit=auto", [kiln, "run", "--jit=auto", name]),
                       ("explain", [kiln, "explain", "--json", name])):
        runs[label] = run(cmd, cwd, env)
        rc, out, err = runs[label]
        if rc != want_exit:
            failures.append(f"`kiln {' '.join(cmd[1:])}` exited {rc}, expected {want_exit}; stderr tail:\n{tail(err)}")

    off, auto = runs["jit=off"], runs["jit=auto"]
    if not same_output(off[1], auto[1]):
        diff = difflib.unified_diff(off[1].splitlines(), auto[1].splitlines(), "stdout --jit=off",
                                    "stdout --jit=auto", lineterm="", n=2)
        failures.append("stdout differs between --jit=off and --jit=auto:\n" + "\n".join(list(diff)[:80]))

    report = None
    try:
        report = json.loads(runs["explain"][1])
    except ValueError as e:
        failures.append(f"kiln explain --json printed no JSON ({e}); stdout tail:\n{tail(runs['explain'][1])}")

    if report is not None:
        for exp in expects:
            if exp.exit is not None:
                continue
            try:
                found = evaluate(exp, report)
            except SpecError as e:
                found = f"cannot check: {e}"
            if found:
                failures.append(f"line {exp.lineno}: expect {exp.text}\n  {found}")

    if env_extra:
        print("env: " + " ".join(f"{k}={v}" for k, v in env_extra.items()))
    if report is not None:
        print(summary(report))
    if failures:
        print(f"\nFAIL {name}: {len(failures)} problem(s)")
        for f in failures:
            print("\n- " + f)
        return 1
    print(f"\nOK {name}: {sum(1 for e in expects if e.exit is None)} expectations, stdout identical with and "
          "without the JIT")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
