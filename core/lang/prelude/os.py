# os: the environment, the working directory and the directory and file
# calls model scripts make, with CPython's errors (FileNotFoundError ...);
# os.path is prelude/os/path.py.

import _os
import os.path as path

name = 'posix'
sep = '/'
altsep = None
extsep = '.'
pathsep = ':'
linesep = '\n'
curdir = '.'
pardir = '..'
devnull = '/dev/null'


# os.environ: a dict-like view of the process environment whose writes reach
# the environment (putenv), as CPython's.
class _Environ:
    def __init__(self):
        self._data = _os.environ()

    def __getitem__(self, key):
        if key not in self._data:
            raise KeyError(key)
        return self._data[key]

    def __setitem__(self, key, value):
        if not isinstance(key, str):
            raise TypeError('str expected, not ' + type(key).__name__)
        if not isinstance(value, str):
            raise TypeError('str expected, not ' + type(value).__name__)
        _os.putenv(key, value)
        self._data[key] = value

    def __delitem__(self, key):
        if key not in self._data:
            raise KeyError(key)
        _os.unsetenv(key)
        del self._data[key]

    def __contains__(self, key):
        return key in self._data

    def __iter__(self):
        return iter(list(self._data))

    def __len__(self):
        return len(self._data)

    def __repr__(self):
        return 'environ(' + repr(self._data) + ')'

    def get(self, key, default=None):
        return self._data.get(key, default)

    def setdefault(self, key, value=None):
        if key not in self._data:
            self[key] = value
        return self._data[key]

    def pop(self, key, *default):
        if key in self._data:
            _os.unsetenv(key)
        return self._data.pop(key, *default)

    def keys(self):
        return self._data.keys()

    def values(self):
        return self._data.values()

    def items(self):
        return self._data.items()

    def copy(self):
        return dict(self._data)

    def update(self, *args, **kwargs):
        for key, value in dict(*args, **kwargs).items():
            self[key] = value


environ = _Environ()


def getenv(key, default=None):
    return environ.get(key, default)


def putenv(key, value):
    _os.putenv(key, value)


def unsetenv(key):
    _os.unsetenv(key)


def getcwd():
    return _os.getcwd()


def chdir(p):
    p = path.fspath(p)
    _os.chdir(p)


def getpid():
    return _os.getpid()


def listdir(p='.'):
    return _os.listdir(path.fspath(p))


def mkdir(p, mode=511, *, dir_fd=None):
    p = path.fspath(p)
    _os.mkdir(p, mode)


def makedirs(name, mode=511, exist_ok=False):
    name = path.fspath(name)
    head, tail = path.split(name)
    if not tail:
        head, tail = path.split(head)
    if head and tail and not path.exists(head):
        try:
            makedirs(head, exist_ok=exist_ok)
        except FileExistsError:
            pass
        if tail == curdir:
            return
    try:
        _os.mkdir(name, mode)
    except OSError:
        if not exist_ok or not path.isdir(name):
            raise


def remove(p):
    p = path.fspath(p)
    _os.remove(p)


unlink = remove


def rmdir(p):
    p = path.fspath(p)
    _os.rmdir(p)


def removedirs(name):
    name = path.fspath(name)
    rmdir(name)
    head, tail = path.split(name)
    if not tail:
        head, tail = path.split(head)
    while head and tail:
        try:
            rmdir(head)
        except OSError:
            break
        head, tail = path.split(head)


def rename(src, dst):
    _os.rename(path.fspath(src), path.fspath(dst))


replace = rename


def walk(top, topdown=True):
    top = path.fspath(top)
    try:
        names = _os.listdir(top)
    except OSError:
        return
    dirs = [n for n in names if path.isdir(path.join(top, n))]
    nondirs = [n for n in names if not path.isdir(path.join(top, n))]
    if topdown:
        yield top, dirs, nondirs
    for d in dirs:
        yield from walk(path.join(top, d), topdown)
    if not topdown:
        yield top, dirs, nondirs


def cpu_count():
    return _os.cpu_count()


fspath = path.fspath


class PathLike:
    # The os.PathLike protocol: anything with __fspath__ is one (isinstance).
    def __fspath__(self):
        raise NotImplementedError
