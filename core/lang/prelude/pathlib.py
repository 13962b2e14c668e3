# pathlib: PurePath / PurePosixPath and Path / PosixPath as CPython 3.11's
# (POSIX flavour): paths parsed into root and parts, joined with `/`, their
# name/suffix/parent views, and Path's file-system calls over os, os.path,
# glob and io.

import os
import glob as _glob
import fnmatch as _fnmatch

__all__ = ["PurePath", "PurePosixPath", "Path", "PosixPath"]


# CPython's parse: '/'-separated, empty and '.' parts dropped, a leading '//'
# (exactly two) kept as the root.
def _parse(args):
    root = ''
    parts = []
    for a in args:
        if isinstance(a, PurePath):
            a_root, a_parts = a._root, a._parts
        else:
            a = os.fspath(a)
            a_root = ''
            if a.startswith('/'):
                a_root = '//' if a.startswith('//') and not a.startswith('///') else '/'
            a_parts = [x for x in a.split('/') if x and x != '.']
        if a_root:
            root, parts = a_root, list(a_parts)
        else:
            parts.extend(a_parts)
    return root, parts


class PurePath(os.PathLike):
    def __new__(cls, *args):
        if cls is PurePath:
            cls = PurePosixPath
        return cls._from_parsed(*_parse(args))

    @classmethod
    def _from_parsed(cls, root, parts):
        self = object.__new__(cls)
        self._root = root
        self._parts = parts
        return self

    def _make_child(self, args):
        root, parts = _parse((self,) + tuple(args))
        return type(self)._from_parsed(root, parts)

    def __str__(self):
        return (self._root + '/'.join(self._parts)) or '.'

    def __fspath__(self):
        return str(self)

    def as_posix(self):
        return str(self)

    def __repr__(self):
        return type(self).__name__ + '(' + repr(self.as_posix()) + ')'

    def __truediv__(self, key):
        try:
            return self._make_child((key,))
        except TypeError:
            return NotImplemented

    def __rtruediv__(self, key):
        try:
            return type(self)(key, self)
        except TypeError:
            return NotImplemented

    def _key(self):
        return (self._root, self._parts)

    def __eq__(self, other):
        if not isinstance(other, PurePath):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self):
        return hash(str(self))

    def __lt__(self, other):
        if not isinstance(other, PurePath):
            return NotImplemented
        return self._key() < other._key()

    def __le__(self, other):
        if not isinstance(other, PurePath):
            return NotImplemented
        return self._key() <= other._key()

    def __gt__(self, other):
        if not isinstance(other, PurePath):
            return NotImplemented
        return self._key() > other._key()

    def __ge__(self, other):
        if not isinstance(other, PurePath):
            return NotImplemented
        return self._key() >= other._key()

    @property
    def drive(self):
        return ''

    @property
    def root(self):
        return self._root

    @property
    def anchor(self):
        return self._root

    @property
    def parts(self):
        return ((self._root,) if self._root else ()) + tuple(self._parts)

    @property
    def name(self):
        return self._parts[-1] if self._parts else ''

    @property
    def suffix(self):
        name = self.name
        i = name.rfind('.')
        return name[i:] if 0 < i < len(name) - 1 else ''

    @property
    def suffixes(self):
        name = self.name
        if name.endswith('.'):
            return []
        name = name.lstrip('.')
        return ['.' + s for s in name.split('.')[1:]]

    @property
    def stem(self):
        name = self.name
        i = name.rfind('.')
        return name[:i] if 0 < i < len(name) - 1 else name

    @property
    def parent(self):
        if not self._parts:
            return self
        return type(self)._from_parsed(self._root, self._parts[:-1])

    @property
    def parents(self):
        out = []
        p = self
        while p._parts:
            p = p.parent
            out.append(p)
        return tuple(out)

    def is_absolute(self):
        return bool(self._root)

    def is_reserved(self):
        return False

    def joinpath(self, *args):
        return self._make_child(args)

    def with_name(self, name):
        if not self.name:
            raise ValueError(repr(self) + ' has an empty name')
        if not name or '/' in name or name == '.':
            raise ValueError('Invalid name ' + repr(name))
        return type(self)._from_parsed(self._root, self._parts[:-1] + [name])

    def with_stem(self, stem):
        return self.with_name(stem + self.suffix)

    def with_suffix(self, suffix):
        if '/' in suffix or suffix and (not suffix.startswith('.') or suffix == '.'):
            raise ValueError('Invalid suffix ' + repr(suffix))
        name = self.name
        if not name:
            raise ValueError(repr(self) + ' has an empty name')
        old = self.suffix
        return self.with_name((name[:-len(old)] if old else name) + suffix)

    def relative_to(self, *other):
        base = type(self)(*other)
        n = len(base._parts)
        if base._root != self._root or self._parts[:n] != base._parts:
            raise ValueError(repr(str(self)) + ' is not in the subpath of ' + repr(str(base))
                             + ' OR one path is relative and the other is absolute.')
        return type(self)._from_parsed('', self._parts[n:])

    def is_relative_to(self, *other):
        try:
            self.relative_to(*other)
            return True
        except ValueError:
            return False

    def match(self, path_pattern):
        pat = type(self)(path_pattern)
        if not pat._parts:
            raise ValueError('empty pattern')
        if pat._root:
            if pat._root != self._root or len(pat._parts) != len(self._parts):
                return False
        elif len(pat._parts) > len(self._parts):
            return False
        return all(_fnmatch.fnmatchcase(part, p)
                   for part, p in zip(reversed(self._parts), reversed(pat._parts)))


class PurePosixPath(PurePath):
    pass


class Path(PurePath):
    def __new__(cls, *args, **kwargs):
        if cls is Path:
            cls = PosixPath
        return cls._from_parsed(*_parse(args))

    @classmethod
    def cwd(cls):
        return cls(os.getcwd())

    @classmethod
    def home(cls):
        return cls(os.path.expanduser('~'))

    def absolute(self):
        if self._root:
            return self
        return type(self)(os.getcwd(), self)

    def resolve(self, strict=False):
        return type(self)(os.path.abspath(str(self)))

    def expanduser(self):
        return type(self)(os.path.expanduser(str(self)))

    def exists(self):
        return os.path.exists(str(self))

    def is_file(self):
        return os.path.isfile(str(self))

    def is_dir(self):
        return os.path.isdir(str(self))

    def iterdir(self):
        for name in os.listdir(str(self)):
            yield self._make_child((name,))

    def glob(self, pattern):
        for p in _glob.glob(pattern, root_dir=str(self), recursive=True):
            yield self._make_child((p,))

    def rglob(self, pattern):
        return self.glob('**/' + pattern)

    def mkdir(self, mode=511, parents=False, exist_ok=False):
        try:
            os.mkdir(str(self), mode)
        except FileNotFoundError:
            if not parents or self.parent == self:
                raise
            self.parent.mkdir(parents=True, exist_ok=True)
            self.mkdir(mode, parents=False, exist_ok=exist_ok)
        except OSError:
            if not exist_ok or not self.is_dir():
                raise

    def rmdir(self):
        os.rmdir(str(self))

    def unlink(self, missing_ok=False):
        try:
            os.remove(str(self))
        except FileNotFoundError:
            if not missing_ok:
                raise

    def rename(self, target):
        os.rename(str(self), os.fspath(target))
        return type(self)(target)

    def replace(self, target):
        return self.rename(target)

    def touch(self, mode=438, exist_ok=True):
        if self.exists():
            if not exist_ok:
                raise FileExistsError(17, 'File exists', str(self))
            return
        with open(str(self), 'w'):
            pass

    def open(self, mode='r', buffering=-1, encoding=None, errors=None, newline=None):
        return open(str(self), mode, buffering, encoding, errors, newline)

    def read_text(self, encoding=None, errors=None):
        with self.open('r', encoding=encoding, errors=errors) as f:
            return f.read()

    def write_text(self, data, encoding=None, errors=None, newline=None):
        if not isinstance(data, str):
            raise TypeError('data must be str, not ' + type(data).__name__)
        with self.open('w', encoding=encoding, errors=errors, newline=newline) as f:
            return f.write(data)

    def read_bytes(self):
        with self.open('rb') as f:
            return f.read()

    def write_bytes(self, data):
        with self.open('wb') as f:
            return f.write(data)


class PosixPath(Path, PurePosixPath):
    pass
