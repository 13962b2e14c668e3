# os, os.path, io and json: the environment, paths, a scratch directory of
# text files written and read back through open(), StringIO, and JSON
# encoding (floats, escapes, indent, separators, sort_keys) and decoding
# with CPython's error messages.
import os
import os.path
import io
import json


scratch = '/tmp/kiln_stdlib_scratch_' + str(os.getpid())


def show(f):
    try:
        print(f())
    except Exception as e:
        print(type(e).__name__ + ':', str(e).replace(scratch, 'SCRATCH'))


os.environ['KILN_TEST_VAR'] = 'value 1'
print(os.environ['KILN_TEST_VAR'], os.getenv('KILN_TEST_VAR'), os.environ.get('KILN_NOPE', 'dflt'), os.getenv('KILN_NOPE'))
print('KILN_TEST_VAR' in os.environ, 'KILN_NOPE' in os.environ, os.environ.setdefault('KILN_NEW', 'x'), os.environ['KILN_NEW'])
del os.environ['KILN_NEW']
print('KILN_NEW' in os.environ, os.environ.pop('KILN_TEST_VAR'), 'KILN_TEST_VAR' in os.environ)
show(lambda: os.environ['KILN_NOPE'])
print(os.sep, os.pathsep, repr(os.linesep), os.curdir, os.pardir, os.name, os.path.sep)
print(os.getcwd() == os.path.abspath('.'), os.path.isabs(os.getcwd()), isinstance(os.getpid(), int))

j = os.path.join
print(j('a', 'b', 'c.txt'), j('/x', 'y/'), j('a/', 'b'), j('a', '/abs', 'c'), j('', 'x'), j('a', ''))
for p in ['/usr/lib/file.tar.gz', 'dir/sub/', 'name', '.bashrc', '/', 'a/b.c/d', '../x.py', '']:
    print(repr(p), os.path.basename(p), os.path.dirname(p), os.path.split(p), os.path.splitext(p))
print(os.path.normpath('a//b/./c/../d/'), os.path.normpath('/../x'), os.path.normpath('../../a'), os.path.normpath(''))
print(os.path.abspath('/a/b/../c'), os.path.relpath('/a/b/c', '/a/x'), os.path.relpath('/a', '/a'))
print(os.path.expanduser('x/~'), os.path.exists('/definitely/not/here'), os.path.isdir('/'), os.path.isfile('/'))

os.makedirs(j(scratch, 'sub', 'deeper'))
os.makedirs(j(scratch, 'sub'), exist_ok=True)
show(lambda: os.makedirs(j(scratch, 'sub')))
show(lambda: os.mkdir(scratch))
print(os.path.isdir(scratch), os.path.exists(j(scratch, 'sub', 'deeper')), sorted(os.listdir(scratch)))
path = j(scratch, 'notes.txt')
with open(path, 'w') as f:
    print(f.write('first line\n'), f.writable())
    f.write('second line\n')
    print('third', 3, file=f)
print(os.path.isfile(path), os.path.getsize(path), f.closed)
with open(path) as f:
    print(repr(f.read()))
with open(path, 'a') as f:
    f.writelines(['more\n', 'lines\n'])
with open(path) as f:
    print(repr(f.readline()), repr(f.readline(4)), f.readlines())
with open(path) as f:
    print([line.rstrip() for line in f])
f = open(path)
print(len(f.read(5)), f.read(6), f.tell())
f.close()
show(lambda: f.read())
show(lambda: open(j(scratch, 'missing.txt')))
show(lambda: open(path, 'q'))
show(lambda: open(path, 'x'))

config = {'name': 'run-1', 'lr': 0.001, 'layers': [64, 32], 'dropout': 0.1, 'ok': True, 'none': None,
          'nested': {'b': 2, 'a': [1.5, 1e-07, 1e+16, 3.0]}, 'unicode': 'caf\u00e9 \u2713', 'esc': 'q"\\\n\t'}
text = json.dumps(config)
print(text)
print(json.dumps(config, indent=2, sort_keys=True))
print(json.dumps(config['nested'], separators=(',', ':')), json.dumps(config['unicode'], ensure_ascii=False))
print(json.dumps([1, (2, 3), {}], indent='\t'), json.dumps([]), json.dumps({}, indent=4), json.dumps({'a': []}, indent=1))
print(json.dumps({1: 'int', 2.5: 'float', True: 'bool', None: 'none'}), json.dumps([float('inf'), float('-inf')]))
print(json.dumps(float('nan')), json.dumps(12345678901234), json.dumps(-0.0), json.dumps('\x01\x1f'))
print(json.loads(text) == config, json.loads(text)['nested'], json.loads('"\\u00e9\\ud83d\\ude00"'))
print(json.loads(' [1, 2.5, -3e2, 0, -0.5, "x", true, false, null, {"k": {}}] '), json.loads('NaN') != json.loads('NaN'))
print(json.loads('{"a": 1, "a": 2}'), json.loads('1E3'), json.loads('"tab\\there"'), json.loads('Infinity'))
print(json.loads('{"x": {"y": 1}}', object_hook=lambda d: sorted(d)))
with open(j(scratch, 'config.json'), 'w') as f:
    json.dump(config, f, indent=4)
with open(j(scratch, 'config.json')) as f:
    print(json.load(f) == config)
show(lambda: json.dumps({(1, 2): 3}))
show(lambda: json.dumps(object))
show(lambda: json.dumps(float('inf'), allow_nan=False))
print(json.dumps({(1, 2): 3, 'k': 1}, skipkeys=True), json.dumps({'s': {1, 2}} and [1], default=str))
print(json.dumps({'x': {3, 4}}, default=lambda o: sorted(o)))
for bad in ['', '[1, 2', '{"a" 1}', '{"a": 1,}', '[1,]', '{1: 2}', '"abc', 'nul', '[1] x', '{"a": tru}', '"\\x"', '01']:
    try:
        json.loads(bad)
        print('parsed', repr(bad))
    except json.JSONDecodeError as e:
        print(repr(bad), '->', e, '|', e.msg, e.pos, e.lineno, e.colno)
show(lambda: json.loads('[\n  1,\n  oops\n]'))
print(issubclass(json.JSONDecodeError, ValueError))

s = io.StringIO()
print(s.write('hello '), s.write('world\n'), s.tell())
print('via print', 42, file=s)
print(repr(s.getvalue()))
s.seek(0)
print(repr(s.readline()), repr(s.read()))
s.seek(6)
s.write('WORLD')
print(repr(s.getvalue()))
s2 = io.StringIO('a\nb\nc')
print(list(s2), repr(s2.read()))
s2.seek(0)
print(s2.readlines(), s2.truncate(1), repr(s2.getvalue()))
with io.StringIO('ctx') as s3:
    print(s3.read())
show(lambda: s3.getvalue())
show(lambda: io.StringIO(5))

for name in sorted(os.listdir(scratch)):
    if os.path.isfile(j(scratch, name)):
        os.remove(j(scratch, name))
os.rmdir(j(scratch, 'sub', 'deeper'))
os.removedirs(j(scratch, 'sub'))
print(os.path.exists(scratch))
show(lambda: os.remove(j(scratch, 'gone.txt')))
show(lambda: os.listdir(scratch))
