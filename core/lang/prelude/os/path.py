# os.path: CPython's posixpath string functions, and the file tests over
# _os. realpath does not resolve symbolic links (it is abspath).

import _os

sep = '/'
curdir = '.'
pardir = '..'
extsep = '.'


def join(a, *p):
    path = a
    for b in p:
        if b.startswith('/'):
            path = b
        elif not path or path.endswith('/'):
            path += b
        else:
            path += '/' + b
    return path


def split(p):
    i = p.rfind('/') + 1
    head, tail = p[:i], p[i:]
    if head and head != '/' * len(head):
        head = head.rstrip('/')
    return head, tail


def normcase(s):
    return s


def basename(p):
    return p[p.rfind('/') + 1:]


def dirname(p):
    return split(p)[0]


def splitext(p):
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
    return s.startswith('/')


def normpath(path):
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
    if not isabs(path):
        path = join(_os.getcwd(), path)
    return normpath(path)


realpath = abspath


def relpath(path, start=None):
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
    return _os.kind(path) != 0


def isfile(path):
    return _os.kind(path) == 1


def isdir(path):
    return _os.kind(path) == 2


def getsize(filename):
    return _os.getsize(filename)
