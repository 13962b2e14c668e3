# logging: loggers in CPython's dotted hierarchy with levels and
# propagation, StreamHandler/FileHandler/NullHandler, Formatter with the
# %-style record attributes, basicConfig, and the module-level functions
# (which configure the root logger on first use, as CPython's do). A logger
# with no handler on its path prints the bare message to stderr (CPython's
# last resort). Not supported: {}- and $-style formats, filters, exc_info
# tracebacks and config files.

import os
import sys
import time
import _os
import _frames

CRITICAL = 50
FATAL = CRITICAL
ERROR = 40
WARNING = 30
WARN = WARNING
INFO = 20
DEBUG = 10
NOTSET = 0

_levelToName = {CRITICAL: 'CRITICAL', ERROR: 'ERROR', WARNING: 'WARNING', INFO: 'INFO', DEBUG: 'DEBUG',
                NOTSET: 'NOTSET'}
_nameToLevel = {'CRITICAL': CRITICAL, 'FATAL': FATAL, 'ERROR': ERROR, 'WARN': WARNING, 'WARNING': WARNING,
                'INFO': INFO, 'DEBUG': DEBUG, 'NOTSET': NOTSET}
_state = {'disable': 0, 'start': time.time()}

BASIC_FORMAT = '%(levelname)s:%(name)s:%(message)s'


def getLevelName(level):
    if level in _levelToName:
        return _levelToName[level]
    if level in _nameToLevel:
        return _nameToLevel[level]
    return 'Level %s' % level


def addLevelName(level, levelName):
    _levelToName[level] = levelName
    _nameToLevel[levelName] = level


def _checkLevel(level):
    if isinstance(level, int):
        return level
    if isinstance(level, str):
        if level not in _nameToLevel:
            raise ValueError('Unknown level: %r' % level)
        return _nameToLevel[level]
    raise TypeError('Level not an integer or a valid string: %r' % (level,))


class LogRecord:
    def __init__(self, name, level, pathname, lineno, msg, args, exc_info, func=None):
        self.name = name
        self.msg = msg
        if args and len(args) == 1 and isinstance(args[0], dict) and args[0]:
            args = args[0]
        self.args = args
        self.levelname = getLevelName(level)
        self.levelno = level
        self.pathname = pathname
        self.filename = pathname[pathname.rfind('/') + 1:]
        self.module = self.filename[:-3] if self.filename.endswith('.py') else self.filename
        self.lineno = lineno
        self.funcName = func
        self.exc_info = exc_info
        self.created = time.time()
        self.msecs = int((self.created - int(self.created)) * 1000)
        self.relativeCreated = (self.created - _state['start']) * 1000
        self.process = _os.getpid()
        self.processName = 'MainProcess'
        self.thread = 0
        self.threadName = 'MainThread'

    def getMessage(self):
        msg = str(self.msg)
        if self.args:
            msg = msg % self.args
        return msg

    def __repr__(self):
        return '<LogRecord: %s, %s, %s, %s, "%s">' % (self.name, self.levelno, self.pathname, self.lineno, self.msg)


class Formatter:
    default_time_format = '%Y-%m-%d %H:%M:%S'
    default_msec_format = '%s,%03d'

    def __init__(self, fmt=None, datefmt=None, style='%', validate=True):
        if style != '%':
            raise ValueError("kiln's logging supports only %-style formats")
        self._fmt = '%(message)s' if fmt is None else fmt
        self.datefmt = datefmt

    def usesTime(self):
        return '%(asctime)' in self._fmt

    def formatTime(self, record, datefmt=None):
        if datefmt:
            return _os.strftime(datefmt, record.created)
        seconds = _os.strftime(self.default_time_format, record.created)
        return self.default_msec_format % (seconds, record.msecs)

    def format(self, record):
        record.message = record.getMessage()
        if self.usesTime():
            record.asctime = self.formatTime(record, self.datefmt)
        return self._fmt % vars(record)


_defaultFormatter = Formatter()


class Handler:
    def __init__(self, level=NOTSET):
        self.level = _checkLevel(level)
        self.formatter = None
        self.name = None

    def setLevel(self, level):
        self.level = _checkLevel(level)

    def setFormatter(self, fmt):
        self.formatter = fmt

    def format(self, record):
        return (self.formatter or _defaultFormatter).format(record)

    def handle(self, record):
        self.emit(record)
        return True

    def emit(self, record):
        raise NotImplementedError('emit must be implemented by Handler subclasses')

    def flush(self):
        pass

    def close(self):
        pass

    def __repr__(self):
        return '<%s (%s)>' % (type(self).__name__, getLevelName(self.level))


class StreamHandler(Handler):
    terminator = '\n'

    def __init__(self, stream=None):
        Handler.__init__(self)
        self.stream = sys.stderr if stream is None else stream

    def emit(self, record):
        self.stream.write(self.format(record) + self.terminator)
        self.flush()

    def flush(self):
        if hasattr(self.stream, 'flush'):
            self.stream.flush()

    def setStream(self, stream):
        old = self.stream
        self.stream = stream
        return old

    def __repr__(self):
        name = getattr(self.stream, 'name', None)
        name = '<stderr>' if self.stream is sys.stderr else ('<stdout>' if self.stream is sys.stdout else name)
        return '<%s %s(%s)>' % (type(self).__name__, '' if name is None else str(name) + ' ',
                                getLevelName(self.level))


class FileHandler(StreamHandler):
    def __init__(self, filename, mode='a', encoding=None, delay=False, errors=None):
        self.baseFilename = os.path.abspath(filename)
        StreamHandler.__init__(self, open(filename, mode))

    def close(self):
        self.stream.close()


class NullHandler(Handler):
    def handle(self, record):
        return True

    def emit(self, record):
        pass


class _LastResort(StreamHandler):
    def __init__(self):
        StreamHandler.__init__(self)
        self.level = WARNING

    def emit(self, record):
        sys.stderr.write(self.format(record) + '\n')


lastResort = _LastResort()


class Logger:
    def __init__(self, name, level=NOTSET):
        self.name = name
        self.level = _checkLevel(level)
        self.parent = None
        self.propagate = True
        self.handlers = []
        self.disabled = False

    def setLevel(self, level):
        self.level = _checkLevel(level)

    def getEffectiveLevel(self):
        logger = self
        while logger is not None:
            if logger.level:
                return logger.level
            logger = logger.parent
        return NOTSET

    def isEnabledFor(self, level):
        if self.disabled or _state['disable'] >= level:
            return False
        return level >= self.getEffectiveLevel()

    def addHandler(self, hdlr):
        if hdlr not in self.handlers:
            self.handlers.append(hdlr)

    def removeHandler(self, hdlr):
        if hdlr in self.handlers:
            self.handlers.remove(hdlr)

    def hasHandlers(self):
        logger = self
        while logger is not None:
            if logger.handlers:
                return True
            logger = logger.parent if logger.propagate else None
        return False

    def getChild(self, suffix):
        return getLogger(suffix if self is root else self.name + '.' + suffix)

    def _log(self, level, msg, args, exc_info=None, extra=None, stack_info=False, stacklevel=1):
        where = _frames.caller(stacklevel + 1)
        if where is None:
            where = ('(unknown file)', 0, '', '(unknown function)')
        record = LogRecord(self.name, level, where[0], where[1], msg, args, exc_info, where[3])
        if extra:
            for key, value in extra.items():
                setattr(record, key, value)
        self.handle(record)

    def handle(self, record):
        if self.disabled:
            return
        found = 0
        logger = self
        while logger is not None:
            for hdlr in logger.handlers:
                found += 1
                if record.levelno >= hdlr.level:
                    hdlr.handle(record)
            logger = logger.parent if logger.propagate else None
        if found == 0 and record.levelno >= lastResort.level:
            lastResort.handle(record)

    def log(self, level, msg, *args, **kwargs):
        if not isinstance(level, int):
            raise TypeError('level must be an integer')
        if self.isEnabledFor(level):
            self._log(level, msg, args, **kwargs)

    def debug(self, msg, *args, **kwargs):
        if self.isEnabledFor(DEBUG):
            self._log(DEBUG, msg, args, **kwargs)

    def info(self, msg, *args, **kwargs):
        if self.isEnabledFor(INFO):
            self._log(INFO, msg, args, **kwargs)

    def warning(self, msg, *args, **kwargs):
        if self.isEnabledFor(WARNING):
            self._log(WARNING, msg, args, **kwargs)

    warn = warning

    def error(self, msg, *args, **kwargs):
        if self.isEnabledFor(ERROR):
            self._log(ERROR, msg, args, **kwargs)

    def exception(self, msg, *args, exc_info=True, **kwargs):
        if self.isEnabledFor(ERROR):
            self._log(ERROR, msg, args, exc_info=exc_info, **kwargs)

    def critical(self, msg, *args, **kwargs):
        if self.isEnabledFor(CRITICAL):
            self._log(CRITICAL, msg, args, **kwargs)

    fatal = critical

    def __repr__(self):
        return '<%s %s (%s)>' % (type(self).__name__, self.name, getLevelName(self.getEffectiveLevel()))


class RootLogger(Logger):
    def __init__(self, level):
        Logger.__init__(self, 'root', level)


root = RootLogger(WARNING)
_loggers = {}


def getLogger(name=None):
    if not name or name == 'root':
        return root
    if not isinstance(name, str):
        raise TypeError('A logger name must be a string')
    if name in _loggers:
        return _loggers[name]
    logger = Logger(name)
    _loggers[name] = logger
    _fix_parents(name)
    return logger


# A new logger's parent is its nearest existing ancestor, and it becomes the
# parent of the existing loggers below it.
def _fix_parents(name):
    logger = _loggers[name]
    parent = root
    i = name.rfind('.')
    while i > 0:
        prefix = name[:i]
        if prefix in _loggers:
            parent = _loggers[prefix]
            break
        i = prefix.rfind('.')
    logger.parent = parent
    for other_name, other in _loggers.items():
        if other_name.startswith(name + '.') and other.parent is parent:
            other.parent = logger


def basicConfig(**kwargs):
    force = kwargs.pop('force', False)
    if force:
        for h in list(root.handlers):
            root.removeHandler(h)
            h.close()
    if root.handlers:
        return
    filename = kwargs.pop('filename', None)
    stream = kwargs.pop('stream', None)
    handlers = kwargs.pop('handlers', None)
    if handlers is not None and (filename is not None or stream is not None):
        raise ValueError("'stream' or 'filename' should not be specified together with 'handlers'")
    if filename is not None and stream is not None:
        raise ValueError("'stream' and 'filename' should not be specified together")
    if handlers is None:
        if filename is not None:
            handlers = [FileHandler(filename, kwargs.pop('filemode', 'a'))]
        else:
            handlers = [StreamHandler(stream)]
    kwargs.pop('filemode', None)
    fmt = Formatter(kwargs.pop('format', BASIC_FORMAT), kwargs.pop('datefmt', None), kwargs.pop('style', '%'))
    level = kwargs.pop('level', None)
    kwargs.pop('encoding', None)
    kwargs.pop('errors', None)
    if kwargs:
        raise ValueError('Unrecognised argument(s): ' + ', '.join(kwargs.keys()))
    for h in handlers:
        if h.formatter is None:
            h.setFormatter(fmt)
        root.addHandler(h)
    if level is not None:
        root.setLevel(level)


def disable(level=CRITICAL):
    _state['disable'] = level


def _root_call(level, msg, args, kwargs):
    if not root.handlers:
        basicConfig()
    if root.isEnabledFor(level):
        root._log(level, msg, args, stacklevel=2, **kwargs)


def debug(msg, *args, **kwargs):
    _root_call(DEBUG, msg, args, kwargs)


def info(msg, *args, **kwargs):
    _root_call(INFO, msg, args, kwargs)


def warning(msg, *args, **kwargs):
    _root_call(WARNING, msg, args, kwargs)


warn = warning


def error(msg, *args, **kwargs):
    _root_call(ERROR, msg, args, kwargs)


def exception(msg, *args, exc_info=True, **kwargs):
    _root_call(ERROR, msg, args, kwargs)


def critical(msg, *args, **kwargs):
    _root_call(CRITICAL, msg, args, kwargs)


fatal = critical


def log(level, msg, *args, **kwargs):
    _root_call(level, msg, args, kwargs)


def shutdown():
    pass
