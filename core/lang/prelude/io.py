# io: StringIO, BytesIO (for torch.save/torch.load), and the text and binary files behind the builtin open()
# (which calls io.open): reading reads the whole file at open(), each write
# goes to the file at once. '+' modes are not supported.

import _os
import os.path as _path

SEEK_SET = 0
SEEK_CUR = 1
SEEK_END = 2


class UnsupportedOperation(OSError):
    pass


# What every in-memory stream and text file shares: the open check, the
# position, and the context-manager and capability protocol.
class _Stream:
    _closed_message = 'I/O operation on closed file.'

    def _check_open(self):
        if self.closed:
            raise ValueError(self._closed_message)

    def tell(self):
        self._check_open()
        return self._pos

    def close(self):
        self.closed = True

    def __enter__(self):
        self._check_open()
        return self

    def __exit__(self, *args):
        self.close()

    def flush(self):
        self._check_open()

    def readable(self):
        self._check_open()
        return True

    def seekable(self):
        self._check_open()
        return True

    # Lines end at self._newline ('\n' or b'\n'), in the buffer _buf from _pos.
    def readline(self, size=-1):
        self._check_open()
        nl = self._buf.find(self._newline, self._pos)
        end = len(self._buf) if nl < 0 else nl + 1
        if size is not None and size >= 0:
            end = min(end, self._pos + size)
        line = self._buf[self._pos:end]
        self._pos = max(self._pos, end)
        return line

    def readlines(self, hint=-1):
        lines = []
        while True:
            line = self.readline()
            if not line:
                return lines
            lines.append(line)

    def __iter__(self):
        self._check_open()
        return self

    def __next__(self):
        line = self.readline()
        if not line:
            raise StopIteration
        return line


# The read side of StringIO and text files: a string and a position in it.
class _TextBuffer(_Stream):
    _newline = '\n'

    def read(self, size=-1):
        self._check_open()
        if size is None or size < 0:
            end = len(self._buf)
        else:
            end = min(len(self._buf), self._pos + size)
        text = self._buf[self._pos:end]
        self._pos = max(self._pos, end)
        return text


class StringIO(_TextBuffer):
    _closed_message = 'I/O operation on closed file'

    def __init__(self, initial_value='', newline='\n'):
        if initial_value is None:
            initial_value = ''
        if not isinstance(initial_value, str):
            raise TypeError('initial_value must be str or None, not ' + type(initial_value).__name__)
        self._buf = initial_value
        self._pos = 0
        self.closed = False

    def write(self, s):
        self._check_open()
        if not isinstance(s, str):
            raise TypeError('string argument expected, got ' + repr(type(s).__name__))
        if self._pos > len(self._buf):
            self._buf += '\0' * (self._pos - len(self._buf))
        self._buf = self._buf[:self._pos] + s + self._buf[self._pos + len(s):]
        self._pos += len(s)
        return len(s)

    def writelines(self, lines):
        for line in lines:
            self.write(line)

    def getvalue(self):
        self._check_open()
        return self._buf

    def seek(self, pos, whence=0):
        self._check_open()
        if whence == 0:
            if pos < 0:
                raise ValueError('Negative seek position ' + str(pos))
            self._pos = pos
        elif whence == 1:
            if pos != 0:
                raise OSError("Can't do nonzero cur-relative seeks")
        elif whence == 2:
            if pos != 0:
                raise OSError("Can't do nonzero end-relative seeks")
            self._pos = len(self._buf)
        else:
            raise ValueError('Invalid whence (' + str(whence) + ', should be 0, 1 or 2)')
        return self._pos

    def truncate(self, size=None):
        self._check_open()
        size = self._pos if size is None else size
        self._buf = self._buf[:size]
        return size

    def writable(self):
        self._check_open()
        return True

    def __repr__(self):
        return '<_io.StringIO object>'


def _check_bytes(b):
    if not isinstance(b, bytes):
        raise TypeError("a bytes-like object is required, not '" + type(b).__name__ + "'")


# The read side of BytesIO and binary files: bytes and a position in them.
class _BytesBuffer(_Stream):
    _newline = b'\n'

    def read(self, size=-1):
        self._check_open()
        end = len(self._buf) if size is None or size < 0 else min(len(self._buf), self._pos + size)
        data = self._buf[self._pos:end]
        self._pos = max(self._pos, end)
        return data

    def read1(self, size=-1):
        return self.read(size)



# An in-memory binary stream over bytes (torch.save / torch.load write and read it).
class BytesIO(_BytesBuffer):
    def __init__(self, initial_bytes=None):
        if initial_bytes is None:
            initial_bytes = b''
        _check_bytes(initial_bytes)
        self._buf = initial_bytes
        self._pos = 0
        self.closed = False

    def write(self, b):
        self._check_open()
        _check_bytes(b)
        n = len(b)
        if self._pos == len(self._buf):
            self._buf += b
        else:
            head = self._buf[:self._pos]
            if self._pos > len(self._buf):
                head = self._buf + b'\0' * (self._pos - len(self._buf))
            self._buf = head + b + self._buf[self._pos + n:]
        self._pos += n
        return n

    def writelines(self, lines):
        for line in lines:
            self.write(line)

    def getvalue(self):
        self._check_open()
        return self._buf

    def getbuffer(self):
        # A memoryview in CPython; kiln has none, and bytes read alike.
        self._check_open()
        return self._buf

    def seek(self, pos, whence=0):
        self._check_open()
        if whence == 0:
            if pos < 0:
                raise ValueError('negative seek value ' + str(pos))
            self._pos = pos
        elif whence == 1:
            self._pos = max(0, self._pos + pos)
        elif whence == 2:
            self._pos = max(0, len(self._buf) + pos)
        else:
            raise ValueError('invalid whence (' + str(whence) + ', should be 0, 1 or 2)')
        return self._pos

    def truncate(self, size=None):
        self._check_open()
        size = self._pos if size is None else size
        self._buf = self._buf[:size]
        return size

    def writable(self):
        self._check_open()
        return True

    def __repr__(self):
        return '<_io.BytesIO object>'


# open(path, 'rb') / 'wb' / 'ab' / 'xb': a read file holds its bytes from
# open() on; each write goes to the file at once.
class _BinaryFile(_BytesBuffer):
    def __init__(self, file, mode):
        self.name = file
        self.mode = mode
        self.closed = False
        self._pos = 0
        self._buf = b''
        if mode == 'rb':
            self._buf = _os.read_bytes(file)
        elif mode == 'xb' and _os.kind(file) != 0:
            raise FileExistsError("[Errno 17] File exists: " + repr(file))
        else:
            _os.write_bytes(file, b'', mode == 'ab')

    def write(self, b):
        self._check_open()
        if self.mode == 'rb':
            raise UnsupportedOperation('write')
        _check_bytes(b)
        _os.write_bytes(self.name, b, True)
        self._pos += len(b)
        return len(b)

    def writelines(self, lines):
        for line in lines:
            self.write(line)

    def read(self, size=-1):
        if self.mode != 'rb':
            self._check_open()
            raise UnsupportedOperation('read')
        return _BytesBuffer.read(self, size)

    def readline(self, size=-1):
        if self.mode != 'rb':
            self._check_open()
            raise UnsupportedOperation('readline')
        return _BytesBuffer.readline(self, size)

    def seek(self, pos, whence=0):
        self._check_open()
        if self.mode != 'rb':
            raise UnsupportedOperation("kiln's binary files seek only when reading")
        if whence == 0:
            if pos < 0:
                raise ValueError('negative seek position ' + str(pos))
            self._pos = pos
        elif whence == 1:
            self._pos = max(0, self._pos + pos)
        elif whence == 2:
            self._pos = max(0, len(self._buf) + pos)
        else:
            raise ValueError('whence value ' + str(whence) + ' unsupported')
        return self._pos

    def readable(self):
        self._check_open()
        return self.mode == 'rb'

    def writable(self):
        self._check_open()
        return self.mode != 'rb'

    def __repr__(self):
        kind = 'BufferedReader' if self.mode == 'rb' else 'BufferedWriter'
        return '<_io.' + kind + ' name=' + repr(self.name) + '>'


class TextIOWrapper(_TextBuffer):
    def __init__(self, file, mode):
        self.name = file
        self.mode = mode
        self.encoding = 'UTF-8'
        self.closed = False
        self._pos = 0
        self._buf = ''
        if mode == 'r':
            self._buf = _os.read_text(file)
        elif mode == 'x' and _os.kind(file) != 0:
            raise FileExistsError("[Errno 17] File exists: " + repr(file))
        else:
            _os.write_text(file, '', mode == 'a')

    def write(self, s):
        self._check_open()
        if self.mode == 'r':
            raise UnsupportedOperation('not writable')
        if not isinstance(s, str):
            raise TypeError('write() argument must be str, not ' + type(s).__name__)
        _os.write_text(self.name, s, True)
        return len(s)

    def writelines(self, lines):
        for line in lines:
            self.write(line)

    def read(self, size=-1):
        if self.mode != 'r':
            self._check_open()
            raise UnsupportedOperation('not readable')
        return _TextBuffer.read(self, size)

    def seek(self, pos, whence=0):
        self._check_open()
        if self.mode != 'r' or whence != 0:
            raise UnsupportedOperation("kiln's text files seek only to an absolute position when reading")
        self._pos = pos
        return pos

    def writable(self):
        self._check_open()
        return self.mode != 'r'

    def __repr__(self):
        return "<_io.TextIOWrapper name=" + repr(self.name) + " mode=" + repr(self.mode) + " encoding='UTF-8'>"


def open(file, mode='r', buffering=-1, encoding=None, errors=None, newline=None, closefd=True, opener=None):
    file = _path.fspath(file)
    if '+' in mode:
        raise NotImplementedError("open() mode '" + mode + "' is not supported by kiln (r, w, a, x, text or binary)")
    if 'b' in mode:
        if 't' in mode:
            raise ValueError("can't have text and binary mode at once")
        base = mode.replace('b', '')
        if base not in ('r', 'w', 'a', 'x'):
            raise ValueError('invalid mode: ' + repr(mode))
        if encoding is not None:
            raise ValueError("binary mode doesn't take an encoding argument")
        return _BinaryFile(file, base + 'b')
    text_mode = mode.replace('t', '')
    if text_mode not in ('r', 'w', 'a', 'x'):
        raise ValueError('invalid mode: ' + repr(mode))
    return TextIOWrapper(file, text_mode)

