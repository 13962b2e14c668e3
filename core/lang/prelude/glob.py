# glob: pathnames matching a shell pattern, as CPython's module finds them:
# directory entries in os.listdir order (not sorted), names starting with '.'
# matched only by a pattern that starts with '.', '**' recursive when asked.

import os
import fnmatch

__all__ = ["glob", "iglob", "escape", "has_magic"]

_magic = ('*', '?', '[')


def has_magic(s):
    return any(c in s for c in _magic)


def _ishidden(name):
    return name[0] == '.'


def _listdir(dirname, dironly):
    try:
        names = os.listdir(dirname if dirname else os.curdir)
    except OSError:
        return []
    if dironly:
        names = [n for n in names if os.path.isdir(_join(dirname, n))]
    return names


def _glob1(dirname, pattern, include_hidden, dironly):
    names = _listdir(dirname, dironly)
    if not (include_hidden or _ishidden(pattern)):
        names = [x for x in names if not _ishidden(x)]
    return fnmatch.filter(names, pattern)


def _glob0(dirname, basename, dironly):
    if basename:
        if os.path.exists(_join(dirname, basename)):
            return [basename]
    elif os.path.isdir(dirname):
        return [basename]
    return []


def _rlistdir(dirname, dironly, include_hidden):
    for x in _listdir(dirname, dironly):
        if include_hidden or not _ishidden(x):
            yield x
            path = _join(dirname, x) if dirname else x
            for y in _rlistdir(path, dironly, include_hidden):
                yield _join(x, y)


def _glob2(dirname, pattern, include_hidden, dironly):
    yield pattern[:0]
    yield from _rlistdir(dirname, dironly, include_hidden)


def _iglob(pathname, root_dir, recursive, dironly, include_hidden):
    dirname, basename = os.path.split(pathname)
    if not has_magic(pathname):
        if basename:
            if os.path.exists(_join(root_dir, pathname)):
                yield pathname
        elif os.path.isdir(_join(root_dir, dirname)):
            yield pathname
        return
    if not dirname:
        if recursive and basename == '**':
            yield from _glob2(root_dir, basename, include_hidden, dironly)
        else:
            yield from _glob1(root_dir, basename, include_hidden, dironly)
        return
    if dirname != pathname and has_magic(dirname):
        dirs = _iglob(dirname, root_dir, recursive, True, include_hidden)
    else:
        dirs = [dirname]
    if has_magic(basename):
        glob_in_dir = _glob2 if recursive and basename == '**' else _glob1
        for name in dirs:
            for sub in glob_in_dir(_join(root_dir, name), basename, include_hidden, dironly):
                yield os.path.join(name, sub)
    else:
        for name in dirs:
            for sub in _glob0(_join(root_dir, name), basename, dironly):
                yield os.path.join(name, sub)


def _join(dirname, basename):
    if not dirname or not basename:
        return dirname or basename
    return os.path.join(dirname, basename)


def iglob(pathname, *, root_dir=None, dir_fd=None, recursive=False, include_hidden=False):
    it = _iglob(pathname, pathname[:0] if root_dir is None else root_dir, recursive, False, include_hidden)
    if not pathname or recursive and pathname[:2] == '**':
        for x in it:  # the empty name '**' yields first is dropped, as CPython's
            if x:
                yield x
        return
    yield from it


def glob(pathname, *, root_dir=None, dir_fd=None, recursive=False, include_hidden=False):
    return list(iglob(pathname, root_dir=root_dir, dir_fd=dir_fd, recursive=recursive,
                      include_hidden=include_hidden))


def escape(pathname):
    drive, pathname = '', pathname
    out = ''
    for c in pathname:
        out += '[' + c + ']' if c in _magic else c
    return drive + out
