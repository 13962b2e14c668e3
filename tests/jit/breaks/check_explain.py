#!/usr/bin/env python3
"""Checks a script's graph breaks against the expectations in its header.

usage: check_explain.py KILN SCRIPT

Runs `KILN explain --json SCRIPT` in the script's directory and compares the
report with the script's `# expect ...` comments:

  # expect graphs: 3                       top-level "graphs" of the report
  # expect breaks: item@12 x2, print@15 x1 every break (category@line xcount);
                                           `none` for no break; several lines add up;
                                           a break outside the script is category@file:line
  # expect region: compiled f              a region of that kind and name captured graphs
  # expect stack: item@12 g <- f <- <module>  that break's user stack (frames outside
                                           the script's directory, the prelude, left out)
  # expect output: some text               the script's output under explain contains it
  # expect exit: 1                         explain's exit status (default 0)

Then runs the script with `run --jit=off` and `run --jit=auto`: the JIT must
not change what the script prints or how it exits. Exit 1 with a diff on any
mismatch. Standard library only.
"""

import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from same_output import same_output  # noqa: E402  (tests/jit/same_output.py)

EXPECT = re.compile(r"^#\s*expect\s+(\w+)\s*:\s*(.*?)\s*$")
BREAK = re.compile(r"^(\w+)@(.+?)(?:\s+x(\d+))?$")
STACK_FRAME = re.compile(r"^(.*) \((.*):(\d+)\)$")
TUNING = ("KILN_HOT_CALLS", "KILN_HOT_LOOPS", "KILN_CACHE_LIMIT", "KILN_MAX_GRAPH_OPS")


class Expectations:
    def __init__(self):
        self.graphs = None
        self.breaks = {}      # (category, loc) -> count
        self.breaks_given = False
        self.regions = []     # (kind, name)
        self.stacks = {}      # (category, loc) -> "g <- f <- <module>"
        self.outputs = []
        self.exit = 0


def break_key(spec, script_name, where):
    m = BREAK.match(spec.strip())
    if not m:
        raise SystemExit(f"{where}: cannot read break '{spec}' (want category@line xN)")
    category, loc, count = m.group(1), m.group(2), int(m.group(3) or 1)
    if loc.isdigit():
        loc = f"{script_name}:{loc}"
    return (category, loc), count


def read_expectations(path):
    e = Expectations()
    name = os.path.basename(path)
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            m = EXPECT.match(line)
            if not m:
                continue
            what, text = m.group(1), m.group(2)
            where = f"{name}:{n}"
            if what == "graphs":
                e.graphs = int(text)
            elif what == "breaks":
                e.breaks_given = True
                if text == "none":
                    continue
                for spec in text.split(","):
                    key, count = break_key(spec, name, where)
                    e.breaks[key] = e.breaks.get(key, 0) + count
            elif what == "region":
                kind, _, region_name = text.partition(" ")
                e.regions.append((kind, region_name))
            elif what == "stack":
                spec, _, stack = text.partition(" ")
                key, _ = break_key(spec, name, where)
                e.stacks[key] = stack.strip()
            elif what == "output":
                e.outputs.append(text)
            elif what == "exit":
                e.exit = int(text)
            else:
                raise SystemExit(f"{where}: unknown expectation '{what}'")
    if e.graphs is None or not e.breaks_given:
        raise SystemExit(f"{name}: needs `# expect graphs: N` and `# expect breaks: ...` (or `none`)")
    return e


def run(kiln, args, cwd):
    # The expectations hold for the JIT's defaults: when regions open and graphs end.
    env = {k: v for k, v in os.environ.items() if k not in TUNING}
    return subprocess.run([kiln] + args, cwd=cwd, env=env, capture_output=True, text=True, timeout=300)


def line_of(loc):
    """'model.py:12:5' -> 'model.py:12'."""
    return loc.rsplit(":", 1)[0]


def user_stack(stack, script_name):
    """Frames of the script itself, innermost first: 'g <- f <- <module>'."""
    names = []
    for frame in stack.split(" <- "):
        m = STACK_FRAME.match(frame)
        if m and m.group(2) == script_name:
            names.append(m.group(1))
    return " <- ".join(names)


def compare_report(e, report, script_name):
    problems = []
    if report["graphs"] != e.graphs:
        problems.append(f"graphs: expected {e.graphs}, got {report['graphs']}")
    got = {}
    stacks = {}
    for b in report["breaks"]:
        key = (b["category"], line_of(b["loc"]))
        got[key] = got.get(key, 0) + b["count"]
        stacks[key] = user_stack(b["stack"], script_name)
    for key in sorted(set(e.breaks) | set(got)):
        want, have = e.breaks.get(key, 0), got.get(key, 0)
        if want != have:
            what = f"{key[0]}@{key[1]}"
            if not want:
                problems.append(f"unexpected break {what} x{have}")
            elif not have:
                problems.append(f"missing break {what} x{want}")
            else:
                problems.append(f"break {what}: expected x{want}, got x{have}")
    for key, stack in e.stacks.items():
        if key in stacks and stacks[key] != stack:
            problems.append(f"stack of {key[0]}@{key[1]}: expected '{stack}', got '{stacks[key]}'")
    regions = [(r["kind"], r["name"]) for r in report["regions"]]
    for kind, name in e.regions:
        if (kind, name) not in regions:
            problems.append(f"no {kind} region '{name}'; regions: " +
                            ", ".join(f"{k} '{n}'" for k, n in regions))
    return problems


def describe(report):
    lines = [f"  graphs: {report['graphs']}"]
    for r in report["regions"]:
        lines.append(f"  {r['kind']} region '{r['name']}' at {r['loc']}: {len(r['graphs'])} graphs, "
                     f"{len(r['recompiles'])} recompiles")
    for b in report["breaks"]:
        lines.append(f"  break {b['category']}@{b['loc']} x{b['count']}: {b['stack']}")
    return "\n".join(lines)


def main():
    if len(sys.argv) != 3:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    kiln, script = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    cwd, name = os.path.dirname(script), os.path.basename(script)
    e = read_expectations(script)
    problems = []

    explain = run(kiln, ["explain", "--json", name], cwd)
    if explain.returncode != e.exit:
        problems.append(f"explain exit status: expected {e.exit}, got {explain.returncode}")
    try:
        report = json.loads(explain.stdout)
    except ValueError:
        report = None
        problems.append("explain --json printed no JSON report")
    if report is not None:
        problems += compare_report(e, report, name)
    for text in e.outputs:
        if text not in explain.stderr:
            problems.append(f"the script's output lacks '{text}'")

    off = run(kiln, ["run", "--jit=off", name], cwd)
    auto = run(kiln, ["run", "--jit=auto", name], cwd)
    if off.returncode != auto.returncode:
        problems.append(f"exit status: --jit=off {off.returncode}, --jit=auto {auto.returncode}")
    if not same_output(off.stdout, auto.stdout):
        problems.append("stdout differs between --jit=off and --jit=auto:\n--- off\n" + off.stdout +
                        "--- auto\n" + auto.stdout)
    if off.returncode != e.exit:
        problems.append(f"run --jit=off exit status: expected {e.exit}, got {off.returncode}\n{off.stderr}")

    if problems:
        print(f"FAIL {name}")
        for p in problems:
            print("  " + p)
        if report is not None:
            print("what kiln explain reported:\n" + describe(report))
        if explain.returncode != 0:
            print("explain's stderr:\n" + explain.stderr)
        return 1
    print(f"ok {name}: {report['graphs']} graphs, {sum(e.breaks.values())} breaks")
    return 0


if __name__ == "__main__":
    sys.exit(main())
