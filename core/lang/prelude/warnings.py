# warnings: warn() with CPython's filters, once-per-location registry and
# stderr format ("/abs/path.py:line: Category: message" and the source
# line; the script's path is absolute, as CPython 3.11 makes __main__'s).
# Filter messages are matched case-insensitively as a prefix, with `.*`
# as the only regex wildcard. Replacing warnings.showwarning is not seen
# (module attributes are not the module's globals in Kiln): use
# catch_warnings(record=True) to capture warnings.

import sys
import _frames
from os.path import abspath

filters = [('default', None, DeprecationWarning, '__main__', 0),
           ('ignore', None, DeprecationWarning, None, 0),
           ('ignore', None, PendingDeprecationWarning, None, 0),
           ('ignore', None, ImportWarning, None, 0),
           ('ignore', None, ResourceWarning, None, 0)]
defaultaction = 'default'
_state = {'version': 0, 'log': None}
_registry = {}
_onceregistry = {}

_ACTIONS = ('error', 'ignore', 'always', 'default', 'module', 'once')


class WarningMessage:
    def __init__(self, message, category, filename, lineno, file=None, line=None, source=None):
        self.message = message
        self.category = category
        self.filename = filename
        self.lineno = lineno
        self.file = file
        self.line = line
        self.source = source
        self._category_name = category.__name__ if category else None

    def __str__(self):
        return ('{message : %r, category : %r, filename : %r, lineno : %s, line : %r}'
                % (self.message, self._category_name, self.filename, self.lineno, self.line))


def formatwarning(message, category, filename, lineno, line=None):
    s = '%s:%s: %s: %s\n' % (filename, lineno, category.__name__, message)
    if line:
        s += '  %s\n' % line.strip()
    return s


def showwarning(message, category, filename, lineno, file=None, line=None):
    text = formatwarning(message, category, filename, lineno, line)
    (sys.stderr if file is None else file).write(text)


def _mutated():
    _state['version'] += 1


def _add_filter(item, append):
    if not append:
        if item in filters:
            filters.remove(item)
        filters.insert(0, item)
    elif item not in filters:
        filters.append(item)
    _mutated()


def _check_action(action):
    if action not in _ACTIONS:
        raise AssertionError('invalid action: ' + repr(action))


def filterwarnings(action, message='', category=Warning, module='', lineno=0, append=False):
    _check_action(action)
    if not isinstance(message, str):
        raise AssertionError('message must be a string')
    if lineno < 0:
        raise AssertionError('lineno must be an int >= 0')
    _add_filter((action, message.lower() or None, category, module or None, lineno), append)


def simplefilter(action, category=Warning, lineno=0, append=False):
    _check_action(action)
    if lineno < 0:
        raise AssertionError('lineno must be an int >= 0')
    _add_filter((action, None, category, None, lineno), append)


def resetwarnings():
    filters[:] = []
    _mutated()


# A filter's message pattern: a case-insensitive prefix, `.*` matching any run.
def _matches(pattern, text):
    if pattern is None:
        return True
    parts = pattern.split('.*')
    text = text.lower()
    if not text.startswith(parts[0]):
        return False
    pos = len(parts[0])
    for part in parts[1:]:
        pos = text.find(part, pos)
        if pos < 0:
            return False
        pos += len(part)
    return True


def _action_for(text, category, module, lineno):
    for action, msg, cat, mod, ln in filters:
        if (_matches(msg, text) and issubclass(category, cat) and (mod is None or mod == module)
                and (ln == 0 or ln == lineno)):
            return action
    return defaultaction


# Whether an action that shows a warning only once has shown it already.
def _seen(action, text, category, lineno, module):
    if _registry.get('version') != _state['version']:
        _registry.clear()
        _onceregistry.clear()
        _registry['version'] = _state['version']
    if action == 'always':
        return False
    if action == 'once':
        key, reg = (text, category), _onceregistry
    elif action == 'module':
        key, reg = (module, text, category, 0), _registry
    else:
        key, reg = (module, text, category, lineno), _registry
    if key in reg:
        return True
    reg[key] = True
    return False


def warn(message, category=None, stacklevel=1, source=None):
    if isinstance(message, Warning):
        category = type(message)
    if category is None:
        category = UserWarning
    if not (isinstance(category, type) and issubclass(category, Warning)):
        raise TypeError("category must be a Warning subclass, not '" + type(category).__name__ + "'")
    where = _frames.caller(stacklevel)
    if where is None:
        filename, lineno, line, module = 'sys', 1, '', 'sys'
    else:
        filename, lineno, line = where[0], where[1], where[2]
        module = '__main__' if not filename.startswith('<prelude>') else filename
        if module == '__main__':
            filename = abspath(filename)
    warn_explicit(message, category, filename, lineno, module, None, None, None, source, line)


def warn_explicit(message, category, filename, lineno, module=None, registry=None,
                  module_globals=None, source=None, _source_obj=None, _line=None):
    if isinstance(message, Warning):
        text = str(message)
        category = type(message)
    else:
        text = message
        message = category(message)
    if module is None:
        module = filename[:-3] if filename.endswith('.py') else filename
    action = _action_for(text, category, module, lineno)
    if action == 'ignore':
        return
    if action == 'error':
        raise message
    if _seen(action, text, category, lineno, module):
        return
    msg = WarningMessage(message, category, filename, lineno, None, _line, source)
    if _state['log'] is not None:
        _state['log'].append(msg)
    else:
        showwarning(message, category, filename, lineno, None, _line)


class catch_warnings:
    def __init__(self, *, record=False, module=None, action=None, category=Warning, lineno=0, append=False):
        self._record = record
        self._filter = None if action is None else (action, category, lineno, append)
        self._entered = False

    def __repr__(self):
        args = ['record=True'] if self._record else []
        return 'catch_warnings(' + ', '.join(args) + ')'

    def __enter__(self):
        if self._entered:
            raise RuntimeError('Cannot enter %r twice' % self)
        self._entered = True
        self._saved = (list(filters), _state['log'])
        _mutated()
        if self._filter is not None:
            simplefilter(*self._filter)
        if self._record:
            _state['log'] = []
            return _state['log']
        return None

    def __exit__(self, *exc_info):
        if not self._entered:
            raise RuntimeError('Cannot exit %r without entering first' % self)
        filters[:] = self._saved[0]
        _state['log'] = self._saved[1]
        _mutated()
