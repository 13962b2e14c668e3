#!/usr/bin/env python3
"""The LLVM backend from the command line: plans in `kiln explain`, the
reference backend giving the same numbers, --dump-dir, the disk cache (a
miss explained, a hit, a corrupt file rejected and rebuilt), background
compilation. Usage: check_codegen.py KILN WORKDIR"""
import json
import os
import shutil
import subprocess
import sys

kiln, work = sys.argv[1], sys.argv[2]
here = os.path.dirname(os.path.abspath(__file__))
script = os.path.join(here, 'fused_chain.py')
failures = []


def run(*args, env=None):
    e = dict(os.environ)
    e.update(env or {})
    p = subprocess.run([kiln, *args], cwd=here, env=e, capture_output=True, text=True, timeout=300)
    return p.returncode, p.stdout, p.stderr


def check(cond, what, detail=''):
    if not cond:
        failures.append(what + ('\n' + detail if detail else ''))


def numbers(text):
    """The numbers of the script's own lines ("step sum sum prob")."""
    out = []
    for line in text.splitlines():
        parts = line.split()
        if len(parts) == 4 and parts[0].isdigit():
            out += [float(t) for t in parts]
    return out


shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
cache = os.path.join(work, 'cache')
sync = {'KILN_ASYNC_COMPILE': '0', 'KILN_CACHE_DIR': cache}

# 1. explain shows the plan: one kernel per compiled function, nothing eager.
rc, out, err = run('explain', '--json', script, env=sync)
check(rc == 0, 'explain failed', err)
report = json.loads(out) if rc == 0 else {'regions': []}
plans = {r['name']: g['plan'] for r in report['regions'] for g in r['graphs']}
check(plans.get('chain', '').count('kernel ') == 1 and 'eager' not in plans.get('chain', ''),
      'chain is not one fused kernel', str(plans))
check(plans.get('probs', '').count('kernel ') == 1 and 'eager' not in plans.get('probs', ''),
      'softmax with its producer is not one kernel', str(plans))
llvm_numbers = numbers(err)

# 2. The reference executor prints the same numbers (within float rounding).
rc, out_eager, err_eager = run('run', script, env={**sync, 'KILN_BACKEND': 'eager'})
check(rc == 0, 'KILN_BACKEND=eager failed', err_eager)
ref = numbers(out_eager)
check(len(ref) == len(llvm_numbers) and len(ref) == 12, 'unexpected output', out_eager + '\n' + err)
for a, b in zip(ref, llvm_numbers):
    check(abs(a - b) <= 1e-4 * max(1.0, abs(a)), 'llvm and eager differ: %r vs %r' % (a, b))

# 3. The disk cache: the first run stored every kernel (step 1), so a second
# process finds them all; no miss is reported.
files = [f for f in os.listdir(cache) if f.endswith('.kobj')]
check(len(files) >= 2, 'expected at least 2 cached kernels, found %r' % files)
rc, out, err = run('run', script, env={**sync, 'KILN_LOGS': 'cache'})
check(rc == 0 and 'miss' not in err and 'rejected' not in err, 'warm run missed the cache', err)
check(len(numbers(out)) == 12, 'warm run output', out)

# A corrupt file is rejected (never loaded) and rebuilt.
victim = os.path.join(cache, sorted(files)[0])
with open(victim, 'r+b') as f:
    f.seek(-5, os.SEEK_END)
    f.write(b'XXXXX')
rc, out, err = run('run', script, env={**sync, 'KILN_LOGS': 'cache'})
check(rc == 0, 'run with a corrupt cache file failed', err)
check('rejected' in err and 'checksum' in err, 'corrupt cache file not reported', err)
rc, out, err = run('run', script, env={**sync, 'KILN_LOGS': 'cache'})
check(rc == 0 and 'rejected' not in err, 'the corrupt file was not rebuilt', err)

# A foreign file (another CPU) is rejected with the key part that differs.
with open(victim, 'rb') as f:
    data = f.read()
start = data.index(b'\ntarget ') + 8
end = data.index(b'\n', start)
with open(victim, 'wb') as f:
    f.write(data[:start] + b'x86-64 someothercpu +sse2' + data[end:])
rc, out, err = run('run', script, env={**sync, 'KILN_LOGS': 'cache'})
check(rc == 0 and 'CPU features' in err, 'foreign cache file not explained', err)

# A new kernel misses with an explanation.
empty = os.path.join(work, 'empty-cache')
rc, out, err = run('run', script, env={**sync, 'KILN_CACHE_DIR': empty, 'KILN_LOGS': 'cache'})
check(rc == 0 and 'miss fused_' in err and 'no stored kernel' in err, 'cold miss not explained', err)

# 4. --dump-dir writes kernel IR, LLVM IR before and after, and assembly.
dump = os.path.join(work, 'dump')
rc, out, err = run('run', '--dump-dir', dump, script, env=sync)
check(rc == 0, '--dump-dir run failed', err)
dumped = sorted(os.listdir(dump)) if os.path.isdir(dump) else []
for ext in ('.kir', '.ll', '.opt.ll', '.s'):
    check(sum(f.endswith(ext) for f in dumped) >= 2, 'no %s dumps' % ext, str(dumped))
asm = [f for f in dumped if f.endswith('.s')]
if asm:
    text = open(os.path.join(dump, asm[0])).read()
    check('mm' in text and ('ymm' in text or 'zmm' in text or 'xmm' in text), 'dumped assembly is not vector code')

# 5. Background compilation (the default) gives the same numbers.
rc, out, err = run('run', script, env={'KILN_CACHE_DIR': os.path.join(work, 'async-cache')})
check(rc == 0, 'async run failed', err)
for a, b in zip(ref, numbers(out)):
    check(abs(a - b) <= 1e-4 * max(1.0, abs(a)), 'async run differs: %r vs %r' % (a, b))

# 6. A bad backend name is a clear error.
rc, out, err = run('run', script, env={'KILN_BACKEND': 'gpu'})
check(rc != 0 and 'KILN_BACKEND=gpu' in err, 'bad KILN_BACKEND not reported', err)

if failures:
    print('\n\n'.join(failures))
    sys.exit(1)
print('codegen CLI checks passed')
