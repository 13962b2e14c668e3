# json: dumps/dump and loads/load with CPython's output (separators, indent,
# sort_keys, ensure_ascii, float reprs, Infinity/NaN) and its
# JSONDecodeError messages. IntEnum and StrEnum members encode as their
# values (in CPython they are ints and strs). Not supported: cls=, object_pairs_hook=,
# parse_float= and friends, and the circular-reference check.

import math
from enum import _ValueEnum


class JSONDecodeError(ValueError):
    def __init__(self, msg, doc, pos):
        lineno = doc.count('\n', 0, pos) + 1
        colno = pos - doc.rfind('\n', 0, pos)
        self.msg = msg
        self.doc = doc
        self.pos = pos
        self.lineno = lineno
        self.colno = colno
        self.args = ('%s: line %d column %d (char %d)' % (msg, lineno, colno, pos),)

    def __str__(self):
        return self.args[0]


_ESCAPES = {'"': '\\"', '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t', '\b': '\\b', '\f': '\\f'}


def _encode_str(s, ensure_ascii):
    out = ['"']
    for ch in s:
        if ch in _ESCAPES:
            out.append(_ESCAPES[ch])
            continue
        n = ord(ch)
        if n < 0x20 or (ensure_ascii and n > 0x7e):
            if n > 0xffff:
                n -= 0x10000
                out.append('\\u%04x\\u%04x' % (0xd800 | (n >> 10), 0xdc00 | (n & 0x3ff)))
            else:
                out.append('\\u%04x' % n)
        else:
            out.append(ch)
    out.append('"')
    return ''.join(out)


def _encode_float(f, allow_nan):
    if f != f:
        text = 'NaN'
    elif f == math.inf:
        text = 'Infinity'
    elif f == -math.inf:
        text = '-Infinity'
    else:
        return repr(f)
    if not allow_nan:
        raise ValueError('Out of range float values are not JSON compliant')
    return text


class _Encoder:
    def __init__(self, indent, separators, sort_keys, default, ensure_ascii, skipkeys, allow_nan):
        if indent is not None and not isinstance(indent, str):
            indent = ' ' * indent
        self.indent = indent
        if separators is None:
            separators = (', ', ': ') if indent is None else (',', ': ')
        self.item_sep, self.key_sep = separators
        self.sort_keys = sort_keys
        self.default = default
        self.ensure_ascii = ensure_ascii
        self.skipkeys = skipkeys
        self.allow_nan = allow_nan

    def encode(self, o, level):
        if isinstance(o, _ValueEnum):
            o = o.value
        if isinstance(o, str):
            return _encode_str(o, self.ensure_ascii)
        if o is None:
            return 'null'
        if o is True:
            return 'true'
        if o is False:
            return 'false'
        if isinstance(o, int):
            return repr(int(o))
        if isinstance(o, float):
            return _encode_float(o, self.allow_nan)
        if isinstance(o, (list, tuple)):
            return self.encode_list(o, level)
        if isinstance(o, dict):
            return self.encode_dict(o, level)
        if self.default is None:
            raise TypeError('Object of type ' + type(o).__name__ + ' is not JSON serializable')
        return self.encode(self.default(o), level)

    def _joined(self, parts, level, open_, close):
        if not parts:
            return open_ + close
        if self.indent is None:
            return open_ + self.item_sep.join(parts) + close
        inner = '\n' + self.indent * (level + 1)
        return open_ + inner + (self.item_sep + inner).join(parts) + '\n' + self.indent * level + close

    def encode_list(self, o, level):
        return self._joined([self.encode(x, level + 1) for x in o], level, '[', ']')

    def key(self, k):
        if isinstance(k, _ValueEnum):
            k = k.value
        if isinstance(k, str):
            return k
        if k is None or isinstance(k, (int, float)):
            return self.encode(k, 0)
        if self.skipkeys:
            return None
        raise TypeError('keys must be str, int, float, bool or None, not ' + type(k).__name__)

    def encode_dict(self, o, level):
        items = list(o.items())
        if self.sort_keys:
            items = sorted(items, key=lambda kv: kv[0])
        parts = []
        for k, v in items:
            key = self.key(k)
            if key is None:
                continue
            parts.append(_encode_str(key, self.ensure_ascii) + self.key_sep + self.encode(v, level + 1))
        return self._joined(parts, level, '{', '}')


def dumps(obj, *, skipkeys=False, ensure_ascii=True, check_circular=True, allow_nan=True, cls=None,
          indent=None, separators=None, default=None, sort_keys=False):
    encoder = _Encoder(indent, separators, sort_keys, default, ensure_ascii, skipkeys, allow_nan)
    return encoder.encode(obj, 0)


def dump(obj, fp, **kwargs):
    fp.write(dumps(obj, **kwargs))


_WS = ' \t\n\r'
_UNESCAPE = {'"': '"', '\\': '\\', '/': '/', 'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t'}
_NUMBER_CHARS = '0123456789+-.eE'


# A recursive-descent parser over the document string, CPython's error texts.
class _Decoder:
    def __init__(self, doc, strict):
        self.doc = doc
        self.strict = strict

    def fail(self, msg, pos):
        raise JSONDecodeError(msg, self.doc, pos)

    def skip(self, i):
        while i < len(self.doc) and self.doc[i] in _WS:
            i += 1
        return i

    def value(self, i):
        doc = self.doc
        if i >= len(doc):
            self.fail('Expecting value', i)
        ch = doc[i]
        if ch == '"':
            return self.string(i + 1)
        if ch == '{':
            return self.obj(i + 1)
        if ch == '[':
            return self.array(i + 1)
        for word, value in (('null', None), ('true', True), ('false', False), ('NaN', math.nan),
                            ('Infinity', math.inf), ('-Infinity', -math.inf)):
            if doc.startswith(word, i):
                return value, i + len(word)
        if ch == '-' or ch.isdigit():
            return self.number(i)
        self.fail('Expecting value', i)

    def number(self, i):
        doc = self.doc
        j = i + 1 if doc[i] == '-' else i
        if j >= len(doc) or not doc[j].isdigit():
            self.fail('Expecting value', i)
        if doc[j] == '0':
            j += 1
        else:
            while j < len(doc) and doc[j].isdigit():
                j += 1
        is_float = False
        if j + 1 < len(doc) and doc[j] == '.' and doc[j + 1].isdigit():
            is_float = True
            j += 2
            while j < len(doc) and doc[j].isdigit():
                j += 1
        if j < len(doc) and doc[j] in 'eE':
            k = j + 1
            if k < len(doc) and doc[k] in '+-':
                k += 1
            if k < len(doc) and doc[k].isdigit():
                is_float = True
                j = k
                while j < len(doc) and doc[j].isdigit():
                    j += 1
        text = doc[i:j]
        return (float(text) if is_float else int(text)), j

    def string(self, i):
        doc = self.doc
        start = i - 1
        chunks = []
        while True:
            j = i
            while j < len(doc) and doc[j] != '"' and doc[j] != '\\' and (ord(doc[j]) >= 0x20 or not self.strict):
                j += 1
            chunks.append(doc[i:j])
            if j >= len(doc):
                self.fail('Unterminated string starting at', start)
            ch = doc[j]
            if ch == '"':
                return ''.join(chunks), j + 1
            if ch != '\\':
                self.fail('Invalid control character at', j)
            if j + 1 >= len(doc):
                self.fail('Unterminated string starting at', start)
            esc = doc[j + 1]
            if esc == 'u':
                code, i = self.unicode_escape(j)
                chunks.append(chr(code))
                continue
            if esc not in _UNESCAPE:
                self.fail('Invalid \\escape', j)
            chunks.append(_UNESCAPE[esc])
            i = j + 2

    def hex4(self, j):
        esc = self.doc[j + 2:j + 6]
        if len(esc) == 4 and all([c in '0123456789abcdefABCDEF' for c in esc]):
            return int(esc, 16)
        self.fail('Invalid \\uXXXX escape', j + 1)

    def unicode_escape(self, j):
        code = self.hex4(j)
        end = j + 6
        if 0xd800 <= code <= 0xdbff and self.doc[end:end + 2] == '\\u':
            low = self.hex4(end)
            if 0xdc00 <= low <= 0xdfff:
                return 0x10000 + (((code - 0xd800) << 10) | (low - 0xdc00)), end + 6
        return code, end

    def obj(self, i):
        doc = self.doc
        result = {}
        i = self.skip(i)
        if i < len(doc) and doc[i] == '}':
            return result, i + 1
        while True:
            if i >= len(doc) or doc[i] != '"':
                self.fail('Expecting property name enclosed in double quotes', i)
            key, i = self.string(i + 1)
            i = self.skip(i)
            if i >= len(doc) or doc[i] != ':':
                self.fail("Expecting ':' delimiter", i)
            i = self.skip(i + 1)
            value, i = self.value(i)
            result[key] = value
            i = self.skip(i)
            if i < len(doc) and doc[i] == '}':
                return result, i + 1
            if i >= len(doc) or doc[i] != ',':
                self.fail("Expecting ',' delimiter", i)
            i = self.skip(i + 1)

    def array(self, i):
        doc = self.doc
        result = []
        i = self.skip(i)
        if i < len(doc) and doc[i] == ']':
            return result, i + 1
        while True:
            value, i = self.value(i)
            result.append(value)
            i = self.skip(i)
            if i < len(doc) and doc[i] == ']':
                return result, i + 1
            if i >= len(doc) or doc[i] != ',':
                self.fail("Expecting ',' delimiter", i)
            i = self.skip(i + 1)


def loads(s, *, cls=None, object_hook=None, parse_float=None, parse_int=None, parse_constant=None,
          object_pairs_hook=None, strict=True):
    if not isinstance(s, str):
        raise TypeError('the JSON object must be str, bytes or bytearray, not ' + type(s).__name__)
    decoder = _Decoder(s, strict)
    value, end = decoder.value(decoder.skip(0))
    end = decoder.skip(end)
    if end != len(s):
        decoder.fail('Extra data', end)
    if object_hook is not None:
        value = _apply_hook(value, object_hook)
    return value


def _apply_hook(value, hook):
    if isinstance(value, list):
        return [_apply_hook(v, hook) for v in value]
    if isinstance(value, dict):
        return hook({k: _apply_hook(v, hook) for k, v in value.items()})
    return value


def load(fp, **kwargs):
    return loads(fp.read(), **kwargs)
