# re: regular expressions, matched by std::regex (the _re module). A Python
# pattern is first rewritten into ECMAScript syntax: group names are dropped
# (and remembered for groupdict and \g<name>), \A and \Z become anchors,
# DOTALL's '.' becomes [\s\S], VERBOSE's spaces and comments go, and leading
# inline flags such as (?i) become flags. Lookbehind is not supported, and
# \w, \d and \s match ASCII characters only.
import _re

ASCII = A = 256
IGNORECASE = I = 2
LOCALE = L = 4
MULTILINE = M = 8
DOTALL = S = 16
UNICODE = U = 32
VERBOSE = X = 64
NOFLAG = 0

_INLINE_FLAGS = {'a': ASCII, 'i': IGNORECASE, 'L': LOCALE, 'm': MULTILINE, 's': DOTALL, 'u': UNICODE, 'x': VERBOSE}


class error(Exception):
    def __init__(self, msg, pattern=None, pos=None):
        Exception.__init__(self, msg)
        self.msg = msg
        self.pattern = pattern
        self.pos = pos


# Leading (?aimsux) groups become flags.
def _leading_flags(pattern, flags):
    while pattern.startswith('(?') and len(pattern) > 2 and pattern[2] in _INLINE_FLAGS:
        close = pattern.find(')')
        letters = pattern[2:close]
        if close < 0 or any(c not in _INLINE_FLAGS for c in letters):
            break
        for c in letters:
            flags |= _INLINE_FLAGS[c]
        pattern = pattern[close + 1:]
    return pattern, flags


# The group name starting at pattern[i] (after '<' or '='), up to `end`.
def _name_at(pattern, i, end):
    close = pattern.find(end, i)
    if close < 0:
        raise error('missing ' + end + ', unterminated name', pattern, i)
    return pattern[i:close], close + 1


# (ECMAScript pattern, number of groups, {name: index}).
def _translate(pattern, flags):
    out = []
    names = {}
    groups = 0
    in_class = False
    i = 0
    n = len(pattern)
    while i < n:
        c = pattern[i]
        if c == '\\' and i + 1 < n:
            nxt = pattern[i + 1]
            if not in_class and nxt == 'A':
                out.append('^')
            elif not in_class and nxt == 'Z':
                out.append('$')
            else:
                out.append(c + nxt)
            i += 2
            continue
        if in_class:
            if c == ']':
                in_class = False
            out.append(c)
            i += 1
            continue
        if c == '[':
            in_class = True
            out.append(c)
            if i + 1 < n and pattern[i + 1] == '^':
                out.append('^')
                i += 1
            if i + 1 < n and pattern[i + 1] == ']':  # a leading ']' is a literal
                out.append('\\]')
                i += 1
            i += 1
            continue
        if flags & VERBOSE and c in ' \t\n\r\f\v':
            i += 1
            continue
        if flags & VERBOSE and c == '#':
            nl = pattern.find('\n', i)
            i = n if nl < 0 else nl + 1
            continue
        if c == '.' and flags & DOTALL:
            out.append('[\\s\\S]')
            i += 1
            continue
        if c == '(':
            if pattern.startswith('(?P<', i):
                name, i = _name_at(pattern, i + 4, '>')
                groups += 1
                names[name] = groups
                out.append('(')
                continue
            if pattern.startswith('(?P=', i):
                name, i = _name_at(pattern, i + 4, ')')
                if name not in names:
                    raise error('unknown group name ' + repr(name), pattern, i)
                out.append('(?:\\' + str(names[name]) + ')')
                continue
            if pattern.startswith('(?<=', i) or pattern.startswith('(?<!', i):
                raise NotImplementedError('kiln: re lookbehind assertions are not supported')
            if not pattern.startswith('(?', i):
                groups += 1
        out.append(c)
        i += 1
    return ''.join(out), groups, names


class Match:
    def __init__(self, pattern, string, pos, endpos, spans):
        self.re = pattern
        self.string = string
        self.pos = pos
        self.endpos = endpos
        self._spans = spans
        self.lastindex = None
        last_end = -1
        for g in range(1, len(spans)):
            if spans[g][0] >= 0 and spans[g][1] >= last_end:
                self.lastindex = g
                last_end = spans[g][1]
        self.lastgroup = None
        for name, idx in pattern.groupindex.items():
            if idx == self.lastindex:
                self.lastgroup = name

    def _index(self, g):
        if isinstance(g, str):
            if g not in self.re.groupindex:
                raise IndexError('no such group')
            return self.re.groupindex[g]
        if g < 0 or g >= len(self._spans):
            raise IndexError('no such group')
        return g

    def _group(self, g, default=None):
        s, e = self._spans[self._index(g)]
        return default if s < 0 else self.string[s:e]

    def group(self, *gs):
        if len(gs) == 0:
            return self._group(0)
        if len(gs) == 1:
            return self._group(gs[0])
        return tuple(self._group(g) for g in gs)

    def __getitem__(self, g):
        return self._group(g)

    def groups(self, default=None):
        return tuple(self._group(g, default) for g in range(1, len(self._spans)))

    def groupdict(self, default=None):
        return {name: self._group(idx, default) for name, idx in self.re.groupindex.items()}

    def start(self, g=0):
        return self._spans[self._index(g)][0]

    def end(self, g=0):
        return self._spans[self._index(g)][1]

    def span(self, g=0):
        return self._spans[self._index(g)]

    def expand(self, template):
        return _expand(self, template)

    def __bool__(self):
        return True

    def __repr__(self):
        return '<re.Match object; span=' + repr(self.span()) + ', match=' + repr(self.group()) + '>'


# A replacement template: \1 .. \99, \g<n>, \g<name> and the usual escapes.
def _expand(m, template):
    out = []
    i = 0
    n = len(template)
    escapes = {'n': '\n', 't': '\t', 'r': '\r', 'f': '\f', 'v': '\v', 'a': '\a', 'b': '\b', '\\': '\\'}
    while i < n:
        c = template[i]
        if c != '\\' or i + 1 == n:
            out.append(c)
            i += 1
            continue
        nxt = template[i + 1]
        if nxt == 'g' and i + 2 < n and template[i + 2] == '<':
            name, i = _name_at(template, i + 3, '>')
            out.append(m.group(int(name) if name.isdigit() else name) or '')
        elif nxt.isdigit():
            j = i + 2 if i + 2 < n and template[i + 2].isdigit() else i + 1
            out.append(m.group(int(template[i + 1:j + 1])) or '')
            i = j + 1
        elif nxt in escapes:
            out.append(escapes[nxt])
            i += 2
        elif nxt.isalpha():
            raise error('bad escape \\' + nxt, template, i)
        else:
            out.append(c + nxt)
            i += 2
    return ''.join(out)


class Pattern:
    def __init__(self, pattern, flags):
        self.pattern = pattern
        body, flags = _leading_flags(pattern, flags)
        self.flags = flags | (0 if flags & ASCII else UNICODE)
        self._source, self.groups, self.groupindex = _translate(body, flags)
        self._scan('', 0, 0, 0, 1)  # a bad pattern fails here, as at CPython's compile

    def _scan(self, string, pos, endpos, mode, limit):
        if not isinstance(string, str):
            raise TypeError("expected string or bytes-like object, got '" + type(string).__name__ + "'")
        n = len(string)
        endpos = n if endpos is None else max(0, min(endpos, n))
        pos = max(0, min(pos, n))
        try:
            found = _re.scan(self._source, self.flags, string, pos, endpos, mode, limit)
        except ValueError as e:
            raise error(str(e), self.pattern)
        return [Match(self, string, pos, endpos, spans) for spans in found]

    def _one(self, string, pos, endpos, mode):
        found = self._scan(string, pos, endpos, mode, 1)
        return found[0] if found else None

    def search(self, string, pos=0, endpos=None):
        return self._one(string, pos, endpos, 0)

    def match(self, string, pos=0, endpos=None):
        return self._one(string, pos, endpos, 1)

    def fullmatch(self, string, pos=0, endpos=None):
        return self._one(string, pos, endpos, 2)

    def finditer(self, string, pos=0, endpos=None):
        return iter(self._scan(string, pos, endpos, 0, 0))

    def findall(self, string, pos=0, endpos=None):
        out = []
        for m in self._scan(string, pos, endpos, 0, 0):
            if self.groups == 0:
                out.append(m.group())
            elif self.groups == 1:
                out.append(m.group(1) or '')
            else:
                out.append(m.groups(''))
        return out

    def subn(self, repl, string, count=0):
        pieces = []
        last = 0
        done = 0
        for m in self._scan(string, 0, None, 0, count):
            pieces.append(string[last:m.start()])
            pieces.append(repl(m) if callable(repl) else _expand(m, repl))
            last = m.end()
            done += 1
        pieces.append(string[last:])
        return ''.join(pieces), done

    def sub(self, repl, string, count=0):
        return self.subn(repl, string, count)[0]

    def split(self, string, maxsplit=0):
        pieces = []
        last = 0
        for m in self._scan(string, 0, None, 0, maxsplit):
            pieces.append(string[last:m.start()])
            pieces.extend(m.groups())
            last = m.end()
        pieces.append(string[last:])
        return pieces

    def __eq__(self, other):
        return isinstance(other, Pattern) and self.pattern == other.pattern and self.flags == other.flags

    def __hash__(self):
        return hash((self.pattern, self.flags))

    def __repr__(self):
        text = 're.compile(' + repr(self.pattern)
        shown = []
        for name, bit in (('re.IGNORECASE', IGNORECASE), ('re.MULTILINE', MULTILINE), ('re.DOTALL', DOTALL),
                          ('re.VERBOSE', VERBOSE), ('re.ASCII', ASCII)):
            if self.flags & bit:
                shown.append(name)
        return text + (', ' + '|'.join(shown) if shown else '') + ')'


_cache = {}


def compile(pattern, flags=0):
    if isinstance(pattern, Pattern):
        return pattern
    key = (pattern, flags)
    if key not in _cache:
        _cache[key] = Pattern(pattern, flags)
    return _cache[key]


def search(pattern, string, flags=0):
    return compile(pattern, flags).search(string)


def match(pattern, string, flags=0):
    return compile(pattern, flags).match(string)


def fullmatch(pattern, string, flags=0):
    return compile(pattern, flags).fullmatch(string)


def findall(pattern, string, flags=0):
    return compile(pattern, flags).findall(string)


def finditer(pattern, string, flags=0):
    return compile(pattern, flags).finditer(string)


def sub(pattern, repl, string, count=0, flags=0):
    return compile(pattern, flags).sub(repl, string, count)


def subn(pattern, repl, string, count=0, flags=0):
    return compile(pattern, flags).subn(repl, string, count)


def split(pattern, string, maxsplit=0, flags=0):
    return compile(pattern, flags).split(string, maxsplit)


_SPECIAL = set('()[]{}?*+-|^$\\.&~# \t\n\r\v\f')


def escape(pattern):
    return ''.join('\\' + c if c in _SPECIAL else c for c in pattern)


def purge():
    _cache.clear()
