# os.path: CPython's posixpath string functions, and the file tests over
# _os. realpath does not resolve symbolic links (it is abspath). Paths are
# str or os.PathLike (pathlib.Path): their __fspath__ gives the str.

import _os

sep = '/'
curdir = '.'
pardir = '..'
extsep = '.'


# os.fspath: a str as is, a PathLike's __fspath__() (os.fspath is this).
def fspath(p):
    if isinstance(p, str):
        return p
    f = getattr(type(p), '__fspath__', None)
    if f is None:
        raise TypeError('expected str, bytes or os.PathLike object, not ' + type(p).__name__)
    r = f(p)
    if not isinstance(r, str):
        raise TypeError('expected ' + type(p).__name__ + '.__fspath__() to return str or bytes, not '
                        + type(r).__name__)
    return r


def join(a, *p):
    path = fspath(a)
    for b in map(fspath, p):
        if b.startswith('/'):
            path = b
        elif not path or path.endswith('/'):
            path += b
        else:
            path += '/' + b
    return path


def split(p):
    p = fspath(p)
    i = p.rfind('/') + 1
    head, tail = p[:i], p[i:]
    if head and head != '/' * len(head):
        head = head.rstrip('/')
    return head, tail


def normcase(s):
    s = fspath(s)
    return s


def basename(p):
    p = fspath(p)
    return p[p.rfind('/') + 1:]


def dirname(p):
    p = fspath(p)
    return split(p)[0]


def splitext(p):
    p = fspath(p)
    sep_index = p.rfind('/')
    dot_index = p.rfind('.')
    if dot_index > sep_index:
        i = sep_index + 1
        while i < dot_index:
            if p[i] != '.':
                return p[:dot_index], p[dot_index:]
            i += 1
    return p, ''


def isabs(s):
    s = fspath(s)
    return s.startswith('/')


def normpath(path):
    path = fspath(path)
    if not path:
        return '.'
    initial = 0
    if path.startswith('/'):
        initial = 2 if path.startswith('//') and not path.startswith('///') else 1
    comps = []
    for comp in path.split('/'):
        if comp in ('', '.'):
            continue
        if comp != '..' or (not initial and not comps) or (comps and comps[-1] == '..'):
            comps.append(comp)
        elif comps:
            comps.pop()
    path = '/' * initial + '/'.join(comps)
    return path or '.'


def abspath(path):
    path = fspath(path)
    if not isabs(path):
        path = join(_os.getcwd(), path)
    return normpath(path)


realpath = abspath


def relpath(path, start=None):
    path = fspath(path)
    if not path:
        raise ValueError('no path specified')
    start_list = [x for x in abspath(curdir if start is None else start).split('/') if x]
    path_list = [x for x in abspath(path).split('/') if x]
    i = 0
    while i < min(len(start_list), len(path_list)) and start_list[i] == path_list[i]:
        i += 1
    rel_list = [pardir] * (len(start_list) - i) + path_list[i:]
    return join(*rel_list) if rel_list else curdir


def expanduser(path):
    path = fspath(path)
    if not path.startswith('~'):
        return path
    i = path.find('/', 1)
    if i < 0:
        i = len(path)
    if i != 1:
        return path
    home = _os.environ().get('HOME', '/')
    return (home.rstrip('/') or '/') + path[i:]


def exists(path):
    path = fspath(path)
    return _os.kind(path) != 0


def isfile(path):
    path = fspath(path)
    return _os.kind(path) == 1


def isdir(path):
    path = fspath(path)
    return _os.kind(path) == 2


def getsize(filename):
    filename = fspath(filename)
    return _os.getsize(filename)
