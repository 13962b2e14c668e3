# argparse: ArgumentParser with positionals and options (store, store_const,
# store_true/false, append, append_const, count, extend, help, version,
# BooleanOptionalAction), type=, default=, choices=, nargs (None, '?', '*',
# '+', N), required=, dest=, metavar=, argument groups, mutually exclusive
# groups, subparsers (a command word; everything after it goes to its
# parser), parse_args / parse_known_args, and CPython's usage, help and
# error texts (exit status 2 for errors). Not supported: fromfile and
# prefix_chars other than '-'. Positionals are matched against all
# positional strings at once, which differs from CPython only when options
# sit between the strings of one '*' or '+' positional.

import sys
import os

SUPPRESS = '==SUPPRESS=='
OPTIONAL = '?'
ZERO_OR_MORE = '*'
ONE_OR_MORE = '+'
REMAINDER = '...'
PARSER = 'A...'


class Namespace:
    def __init__(self, **kwargs):
        for name, value in kwargs.items():
            setattr(self, name, value)

    def __repr__(self):
        parts = ['%s=%r' % (name, value) for name, value in vars(self).items()]
        return 'Namespace(' + ', '.join(parts) + ')'

    def __eq__(self, other):
        if not isinstance(other, Namespace):
            return NotImplemented
        return vars(self) == vars(other)

    def __contains__(self, key):
        return key in vars(self)


class ArgumentError(Exception):
    def __init__(self, argument, message):
        self.argument_name = None if argument is None else _action_name(argument)
        self.message = message
        self.args = (argument, message)

    def __str__(self):
        if self.argument_name is None:
            return self.message
        return 'argument ' + self.argument_name + ': ' + self.message


class ArgumentTypeError(Exception):
    pass


def _action_name(action):
    if action.option_strings:
        return '/'.join(action.option_strings)
    if action.metavar not in (None, SUPPRESS):
        return action.metavar
    if action.dest not in (None, SUPPRESS):
        return action.dest
    return '{' + ','.join(action.choices) + '}'


class Action:
    def __init__(self, option_strings, dest, nargs=None, const=None, default=None, type=None,
                 choices=None, required=False, help=None, metavar=None, kind='store'):
        self.option_strings = option_strings
        self.dest = dest
        self.nargs = nargs
        self.const = const
        self.default = default
        self.type = type
        self.choices = choices
        self.required = required
        self.help = help
        self.metavar = metavar
        self.kind = kind

    def __repr__(self):
        names = ['option_strings', 'dest', 'nargs', 'const', 'default', 'type', 'choices',
                 'required', 'help', 'metavar']
        kind = {'store': '_StoreAction', 'store_const': '_StoreConstAction',
                'store_true': '_StoreTrueAction', 'store_false': '_StoreFalseAction',
                'append': '_AppendAction', 'append_const': '_AppendConstAction',
                'count': '_CountAction', 'help': '_HelpAction', 'version': '_VersionAction',
                'extend': '_ExtendAction', 'boolean_optional': 'BooleanOptionalAction'}
        parts = [n + '=' + _type_repr(getattr(self, n)) for n in names]
        return kind.get(self.kind, 'Action') + '(' + ', '.join(parts) + ')'


def _type_repr(value):
    if isinstance(value, type):
        return "<class '" + value.__name__ + "'>"
    return repr(value)


class BooleanOptionalAction:
    pass


# add_subparsers(): a positional whose choices are the command parsers.
class _SubParsersAction(Action):
    def __init__(self, prog, dest, required, help, metavar):
        Action.__init__(self, [], dest, PARSER, None, None, None, {}, required, help, metavar, 'parsers')
        self._prog_prefix = prog
        self._choices_actions = []

    def add_parser(self, name, **kwargs):
        if kwargs.get('prog') is None:
            kwargs['prog'] = self._prog_prefix + ' ' + name
        aliases = kwargs.pop('aliases', ())
        if 'help' in kwargs:
            help = kwargs.pop('help')
            metavar = name + ' (' + ', '.join(aliases) + ')' if aliases else name
            self._choices_actions.append(Action([], name, help=help, metavar=metavar))
        parser = ArgumentParser(**kwargs)
        self.choices[name] = parser
        for alias in aliases:
            self.choices[alias] = parser
        return parser


_ZERO_ARG_KINDS = ('store_const', 'store_true', 'store_false', 'append_const', 'count', 'help',
                   'version', 'boolean_optional')


class _Group:
    def __init__(self, parser, title=None, description=None, exclusive=False, required=False):
        self._parser = parser
        self.title = title
        self.description = description
        self._group_actions = []
        self._exclusive = exclusive
        self.required = required

    def add_argument(self, *args, **kwargs):
        action = self._parser._add(args, kwargs, self)
        self._group_actions.append(action)
        return action

    def add_argument_group(self, title=None, description=None):
        return self._parser.add_argument_group(title, description)

    def add_mutually_exclusive_group(self, required=False):
        return self._parser.add_mutually_exclusive_group(required=required)


class ArgumentParser:
    def __init__(self, prog=None, usage=None, description=None, epilog=None, parents=[],
                 formatter_class=None, prefix_chars='-', fromfile_prefix_chars=None,
                 argument_default=None, conflict_handler='error', add_help=True,
                 allow_abbrev=True, exit_on_error=True):
        self.prog = os.path.basename(sys.argv[0]) if prog is None else prog
        self.usage = usage
        self.description = description
        self.epilog = epilog
        self.argument_default = argument_default
        self.allow_abbrev = allow_abbrev
        self.exit_on_error = exit_on_error
        self.formatter_class = formatter_class
        self._actions = []
        self._option_map = {}
        self._defaults = {}
        self._positionals = _Group(self, 'positional arguments')
        self._optionals = _Group(self, 'options')
        self._action_groups = [self._positionals, self._optionals]
        self._exclusive_groups = []
        if add_help:
            self.add_argument('-h', '--help', action='help', default=SUPPRESS,
                              help='show this help message and exit')
        for parent in parents:
            for action in parent._actions:
                if action.kind != 'help' or not add_help:
                    self._register(action, None)
            self._defaults.update(parent._defaults)

    # ---- declaring arguments ----

    def add_argument(self, *args, **kwargs):
        return self._add(args, kwargs, None)

    def add_argument_group(self, title=None, description=None):
        group = _Group(self, title, description)
        self._action_groups.append(group)
        return group

    def add_mutually_exclusive_group(self, required=False):
        group = _Group(self, exclusive=True, required=required)
        self._exclusive_groups.append(group)
        return group

    def add_subparsers(self, title=None, description=None, prog=None, dest=SUPPRESS, required=False,
                       help=None, metavar=None):
        if [a for a in self._actions if a.kind == 'parsers']:
            self.error('cannot have multiple subparser arguments')
        if prog is None:
            formatter = _Formatter(self)
            positionals = [a for a in self._actions if not a.option_strings]
            prog = ' '.join([self.prog] + formatter.usage_parts(positionals))
        action = _SubParsersAction(prog, dest, required, help, metavar)
        if title is None and description is None:
            self._register(action, None)
        else:
            self.add_argument_group(title or 'subcommands', description)._group_actions.append(action)
            self._register(action, self._action_groups[-1])
        return action

    def set_defaults(self, **kwargs):
        self._defaults.update(kwargs)
        for action in self._actions:
            if action.dest in kwargs:
                action.default = kwargs[action.dest]

    def get_default(self, dest):
        for action in self._actions:
            if action.dest == dest and action.default is not None:
                return action.default
        return self._defaults.get(dest, None)

    def _add(self, args, kwargs, group):
        if not args or len(args) == 1 and args[0] and args[0][0] not in '-':
            action = self._positional(args, kwargs)
        else:
            action = self._optional(args, kwargs)
        if action.type is not None and not callable(action.type):
            raise ValueError(repr(action.type) + ' is not callable')
        self._register(action, group)
        return action

    def _register(self, action, group):
        for opt in action.option_strings:
            if opt in self._option_map:
                raise ArgumentError(action, 'conflicting option string: ' + opt)
        for opt in action.option_strings:
            self._option_map[opt] = action
        self._actions.append(action)
        if group is None or group._exclusive:
            group = self._optionals if action.option_strings else self._positionals
            group._group_actions.append(action)

    def _positional(self, args, kwargs):
        if 'dest' in kwargs:
            raise ValueError('dest supplied twice for positional argument')
        kwargs = dict(kwargs)
        dest = args[0] if args else kwargs.pop('dest')
        if kwargs.get('required'):
            raise TypeError("'required' is an invalid argument for positionals")
        nargs = kwargs.get('nargs')
        kwargs['required'] = nargs not in (OPTIONAL, ZERO_OR_MORE) or nargs == ZERO_OR_MORE and 'default' not in kwargs
        return self._make_action([], dest, kwargs)

    def _optional(self, args, kwargs):
        long_opts = []
        for opt in args:
            if not opt or opt[0] != '-':
                raise ValueError('invalid option string ' + repr(opt) + ': must start with a character ' + repr('-'))
            if len(opt) > 1 and opt[1] == '-':
                long_opts.append(opt)
        kwargs = dict(kwargs)
        dest = kwargs.pop('dest', None)
        if dest is None:
            dest = (long_opts[0] if long_opts else args[0]).lstrip('-').replace('-', '_')
        return self._make_action(list(args), dest, kwargs)

    def _make_action(self, option_strings, dest, kwargs):
        kind = kwargs.pop('action', 'store')
        if kind is BooleanOptionalAction:
            kind = 'boolean_optional'
            for opt in list(option_strings):
                if opt.startswith('--'):
                    option_strings.append('--no-' + opt[2:])
        known = ('nargs', 'const', 'default', 'type', 'choices', 'required', 'help', 'metavar')
        for key in kwargs:
            if key not in known and key != 'version':
                raise TypeError("__init__() got an unexpected keyword argument '" + key + "'")
        default = kwargs.get('default', self.argument_default)
        if kind == 'store_true':
            default = kwargs.get('default', False)
            kwargs['const'] = True
        elif kind == 'store_false':
            default = kwargs.get('default', True)
            kwargs['const'] = False
        elif kind in ('help', 'version'):
            default = kwargs.get('default', SUPPRESS)
        nargs = kwargs.get('nargs')
        if kind in _ZERO_ARG_KINDS:
            nargs = 0
        elif nargs == 0:
            raise ValueError('nargs for store actions must be != 0; if you have nothing to store, '
                             'actions such as store true or store const may be more appropriate')
        action = Action(option_strings, dest, nargs, kwargs.get('const'), default, kwargs.get('type'),
                        kwargs.get('choices'), kwargs.get('required', False), kwargs.get('help'),
                        kwargs.get('metavar'), kind)
        if kind == 'version':
            action.version = kwargs.get('version')
            if action.help is None:
                action.help = "show program's version number and exit"
        if kind not in ('store', 'store_const', 'store_true', 'store_false', 'append', 'append_const',
                        'count', 'help', 'version', 'extend', 'boolean_optional', 'parsers'):
            raise ValueError('unknown action "' + str(kind) + '"')
        return action

    # ---- parsing ----

    def parse_args(self, args=None, namespace=None):
        namespace, extras = self.parse_known_args(args, namespace)
        if extras:
            self.error('unrecognized arguments: ' + ' '.join(extras))
        return namespace

    def parse_known_args(self, args=None, namespace=None):
        args = sys.argv[1:] if args is None else list(args)
        if namespace is None:
            namespace = Namespace()
        for action in self._actions:
            if action.dest != SUPPRESS and not hasattr(namespace, action.dest) and action.default != SUPPRESS:
                setattr(namespace, action.dest, action.default)
        for dest, value in self._defaults.items():
            if not hasattr(namespace, dest):
                setattr(namespace, dest, value)
        try:
            extras = _Parse(self, namespace).run(args)
        except ArgumentError as err:
            if not self.exit_on_error:
                raise
            self.error(str(err))
        return namespace, extras

    def _lookup_option(self, arg):
        if arg in self._option_map:
            return self._option_map[arg], arg, None
        if '=' in arg:
            name, value = arg.split('=', 1)
            if name in self._option_map:
                return self._option_map[name], name, value
        if self.allow_abbrev and arg.startswith('--'):
            name = arg.split('=', 1)[0]
            matches = [opt for opt in self._option_map if opt.startswith(name)]
            if len(matches) > 1:
                self.error('ambiguous option: %s could match %s' % (name, ', '.join(matches)))
            if len(matches) == 1:
                value = arg.split('=', 1)[1] if '=' in arg else None
                return self._option_map[matches[0]], matches[0], value
        if not arg.startswith('--') and len(arg) > 2:
            short = arg[:2]
            if short in self._option_map:
                return self._option_map[short], short, arg[2:]
        return None, arg, None

    def _negative_numbers_are_options(self):
        for opt in self._option_map:
            if _is_negative_number(opt):
                return True
        return False

    # ---- output ----

    def format_usage(self):
        return _Formatter(self).usage() + '\n'

    def format_help(self):
        return _Formatter(self).help()

    def print_usage(self, file=None):
        (sys.stdout if file is None else file).write(self.format_usage())

    def print_help(self, file=None):
        (sys.stdout if file is None else file).write(self.format_help())

    def exit(self, status=0, message=None):
        if message:
            sys.stderr.write(message)
        sys.exit(status)

    def error(self, message):
        self.print_usage(sys.stderr)
        self.exit(2, '%s: error: %s\n' % (self.prog, message))


def _is_negative_number(s):
    if len(s) < 2 or s[0] != '-':
        return False
    body = s[1:]
    if body.count('.') > 1:
        return False
    digits = body.replace('.', '')
    return digits.isdigit() and (body[-1] != '.' or len(body) > 1) and body != '.'


# One parse: classifies the strings into options ('O') and arguments ('A'),
# applies each option as it comes and the positionals to the arguments left.
class _Parse:
    def __init__(self, parser, namespace):
        self.parser = parser
        self.ns = namespace
        self.seen = []
        self.seen_non_default = []

    def is_arg(self, s):
        if not s or s[0] != '-' or s == '-':
            return True
        if _is_negative_number(s) and not self.parser._negative_numbers_are_options():
            return True
        if ' ' in s and s not in self.parser._option_map:
            return True
        return False

    # Unknown options and unmatched positional strings are the extras, in
    # the order they came.
    def run(self, args):
        unknown = []
        positional = []
        i = 0
        while i < len(args):
            arg = args[i]
            if arg == '--':
                positional.extend([(j, args[j]) for j in range(i + 1, len(args))])
                break
            if self.is_arg(arg) and self.is_command(len(positional)):
                unknown.extend(self.run_command(args[i:], i))
                break
            if self.is_arg(arg):
                positional.append((i, arg))
                i += 1
                continue
            action, name, explicit = self.parser._lookup_option(arg)
            if action is None:
                unknown.append((i, arg))
                i += 1
                continue
            i = self.consume_option(action, name, explicit, args, i + 1)
        left = len(positional) - len(self.consume_positionals([s for _, s in positional]))
        extras = [s for _, s in sorted(positional[left:] + unknown, key=lambda p: p[0])]
        self.check_required()
        self.convert_defaults()
        return extras

    # Whether the positional string after `count` others is the command word:
    # the positionals before the subparsers action take exactly `count`.
    def is_command(self, count):
        need = 0
        for action in self.parser._actions:
            if action.option_strings:
                continue
            if action.kind == 'parsers':
                return need == count
            need += _nargs_range(action.nargs)[0]
        return False

    # Runs the command's parser on the rest; its values join the namespace.
    def run_command(self, args, start):
        action = [a for a in self.parser._actions if a.kind == 'parsers'][0]
        name = args[0]
        self.seen.append(action)
        if action.dest != SUPPRESS:
            setattr(self.ns, action.dest, name)
        if name not in action.choices:
            choices = ', '.join([repr(c) for c in action.choices])
            raise ArgumentError(action, 'invalid choice: %r (choose from %s)' % (name, choices))
        sub_ns, extras = action.choices[name].parse_known_args(args[1:], None)
        for key, value in vars(sub_ns).items():
            setattr(self.ns, key, value)
        return [(start + 1 + k, s) for k, s in enumerate(extras)]

    def consume_option(self, action, name, explicit, args, i):
        if explicit is not None and action.nargs == 0:
            if len(name) == 2 and name[1] != '-':
                self.take(action, [], name)
                flag = '-' + explicit[0]
                follow, _, rest = self.parser._lookup_option(flag + explicit[1:])
                if follow is None:
                    raise ArgumentError(action, 'ignored explicit argument %r' % explicit)
                return self.consume_option(follow, flag, explicit[1:] or None, args, i)
            raise ArgumentError(action, 'ignored explicit argument %r' % explicit)
        if explicit is not None:
            self.take(action, [explicit], name)
            return i
        j = i
        while j < len(args) and self.is_arg(args[j]) and args[j] != '--':
            j += 1
        available = args[i:j]
        nargs = action.nargs
        if nargs is None:
            count = 1
        elif nargs == OPTIONAL:
            count = min(1, len(available))
        elif nargs in (ZERO_OR_MORE, REMAINDER):
            count = len(available)
        elif nargs == ONE_OR_MORE:
            count = len(available)
        else:
            count = nargs
        if count > len(available) or nargs == ONE_OR_MORE and not available:
            raise ArgumentError(action, _nargs_error(nargs))
        self.take(action, available[:count], name)
        return i + count

    def consume_positionals(self, strings):
        actions = [a for a in self.parser._actions if not a.option_strings and a.kind != 'parsers']
        counts = _match_positionals(actions, len(strings))
        pos = 0
        for action, count in zip(actions, counts):
            if count is None:
                continue
            self.take(action, strings[pos:pos + count], None)
            pos += count
        return strings[pos:]

    def take(self, action, strings, name):
        self.seen.append(action)
        value = self.values(action, strings)
        if value is not action.default:
            self.seen_non_default.append(action)
            for group in self.parser._exclusive_groups:
                if action in group._group_actions:
                    for other in group._group_actions:
                        if other is not action and other in self.seen_non_default:
                            raise ArgumentError(action, 'not allowed with argument ' + _action_name(other))
        self.apply(action, value, name)

    def values(self, action, strings):
        nargs = action.nargs
        if nargs == 0:
            return None
        if not strings and nargs == OPTIONAL:
            value = action.const if action.option_strings else action.default
            if isinstance(value, str):
                value = self.convert(action, value)
                self.check_choice(action, value)
            return value
        if not strings and nargs == ZERO_OR_MORE and not action.option_strings:
            value = action.default if action.default is not None else []
            self.check_choice(action, value)
            return value
        if nargs is None or nargs == OPTIONAL:
            value = self.convert(action, strings[0])
            self.check_choice(action, value)
            return value
        values = [self.convert(action, s) for s in strings]
        for v in values:
            self.check_choice(action, v)
        return values

    def convert(self, action, string):
        func = action.type
        if func is None:
            return string
        try:
            return func(string)
        except ArgumentTypeError as err:
            raise ArgumentError(action, str(err))
        except (TypeError, ValueError):
            name = getattr(func, '__name__', repr(func))
            raise ArgumentError(action, 'invalid %s value: %r' % (name, string))

    def check_choice(self, action, value):
        if action.choices is not None and value not in action.choices:
            choices = ', '.join([repr(c) for c in action.choices])
            raise ArgumentError(action, 'invalid choice: %r (choose from %s)' % (value, choices))

    def apply(self, action, value, name):
        kind = action.kind
        ns = self.ns
        if kind == 'store':
            setattr(ns, action.dest, value)
        elif kind in ('store_const', 'store_true', 'store_false'):
            setattr(ns, action.dest, action.const)
        elif kind == 'boolean_optional':
            setattr(ns, action.dest, not name.startswith('--no-'))
        elif kind in ('append', 'append_const', 'extend'):
            items = getattr(ns, action.dest, None)
            items = [] if items is None else list(items)
            if kind == 'append':
                items.append(value)
            elif kind == 'append_const':
                items.append(action.const)
            else:
                items.extend(value)
            setattr(ns, action.dest, items)
        elif kind == 'count':
            count = getattr(ns, action.dest, None)
            setattr(ns, action.dest, 1 if count is None else count + 1)
        elif kind == 'help':
            self.parser.print_help()
            self.parser.exit()
        elif kind == 'version':
            sys.stdout.write(action.version.replace('%(prog)s', self.parser.prog) + '\n')
            self.parser.exit()

    def check_required(self):
        missing = [_action_name(a) for a in self.parser._actions if a.required and a not in self.seen]
        if missing:
            raise ArgumentError(None, 'the following arguments are required: ' + ', '.join(missing))
        for group in self.parser._exclusive_groups:
            if group.required and not [a for a in group._group_actions if a in self.seen_non_default]:
                names = [_action_name(a) for a in group._group_actions if a.help != SUPPRESS]
                raise ArgumentError(None, 'one of the arguments %s is required' % ' '.join(names))

    # String defaults of options not given go through type=, as in CPython.
    def convert_defaults(self):
        for action in self.parser._actions:
            if action in self.seen or not isinstance(action.default, str):
                continue
            if getattr(self.ns, action.dest, None) is action.default and action.kind == 'store':
                setattr(self.ns, action.dest, self.convert(action, action.default))


def _nargs_error(nargs):
    if nargs is None:
        return 'expected one argument'
    if nargs == OPTIONAL:
        return 'expected at most one argument'
    if nargs == ONE_OR_MORE:
        return 'expected at least one argument'
    return 'expected %s argument%s' % (nargs, 's' if nargs != 1 else '')


def _nargs_range(nargs):
    if nargs is None:
        return 1, 1
    if nargs == OPTIONAL:
        return 0, 1
    if nargs in (ZERO_OR_MORE, REMAINDER):
        return 0, None
    if nargs == ONE_OR_MORE:
        return 1, None
    return nargs, nargs


# How many strings each positional takes, greedily from the left while the
# ones after it can still be satisfied (the regex match CPython builds);
# None for a positional with nothing left to match.
def _match_positionals(actions, n):
    counts = []
    remaining = n
    for k, action in enumerate(actions):
        lo, hi = _nargs_range(action.nargs)
        need_after = sum([_nargs_range(a.nargs)[0] for a in actions[k + 1:]])
        if remaining < lo:
            counts.extend([None] * (len(actions) - k))
            break
        take = remaining - need_after if hi is None else min(hi, remaining - need_after)
        take = max(take, lo)
        counts.append(take)
        remaining -= take
    return counts


def _terminal_width():
    try:
        return int(os.environ['COLUMNS']) - 2
    except (KeyError, ValueError):
        return 78


def _wrap(text, width):
    words = text.split()
    lines = []
    line = ''
    for word in words:
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = ''
        while len(word) > width:
            if line:
                lines.append(line)
                line = ''
            lines.append(word[:width])
            word = word[width:]
        line = word if not line else line + ' ' + word
    if line:
        lines.append(line)
    return lines


# CPython's HelpFormatter layout: usage wrapped at the terminal width,
# sections of actions with help text from column min(longest + 4, 24).
class _Formatter:
    def __init__(self, parser):
        self.parser = parser
        self.width = _terminal_width()
        self.max_help_position = min(24, max(self.width - 20, 4))

    def metavar(self, action):
        if action.metavar is not None:
            return action.metavar
        if action.choices is not None:
            return '{' + ','.join([str(c) for c in action.choices]) + '}'
        return action.dest if not action.option_strings else action.dest.upper()

    def args_text(self, action):
        m = self.metavar(action)
        nargs = action.nargs
        if isinstance(m, tuple):
            parts = list(m)
        else:
            parts = None
        if nargs is None:
            return m if parts is None else parts[0]
        if nargs == OPTIONAL:
            return '[%s]' % m
        if nargs == ZERO_OR_MORE:
            return '[%s ...]' % m
        if nargs == ONE_OR_MORE:
            return '%s [%s ...]' % (m, m)
        if nargs == REMAINDER:
            return '...'
        if nargs == PARSER:
            return '%s ...' % m
        if nargs == 0:
            return ''
        return ' '.join(parts if parts is not None else [m] * nargs)

    def usage_part(self, action, bracket=True):
        if not action.option_strings:
            return self.args_text(action)
        opt = action.option_strings[0]
        part = opt if action.nargs == 0 else opt + ' ' + self.args_text(action)
        if action.kind == 'boolean_optional':
            part = ' | '.join(action.option_strings)
        return part if action.required or not bracket else '[' + part + ']'

    # A mutually exclusive group shows as one part, [--a | --b] or (--a | --b).
    def usage_parts(self, actions):
        parts = []
        done = []
        for action in actions:
            group = None
            for g in self.parser._exclusive_groups:
                if action in g._group_actions:
                    group = g
            if group is None:
                parts.append(self.usage_part(action))
            elif group not in done:
                done.append(group)
                inner = ' | '.join([self.usage_part(a, False) for a in group._group_actions if a in actions])
                parts.append(('(' + inner + ')') if group.required else ('[' + inner + ']'))
        return parts

    def usage(self):
        parser = self.parser
        prefix = 'usage: '
        if parser.usage is not None:
            return prefix + parser.usage.replace('%(prog)s', parser.prog)
        shown = [a for a in parser._actions if a.help != SUPPRESS]
        opt_parts = self.usage_parts([a for a in shown if a.option_strings])
        pos_parts = self.usage_parts([a for a in shown if not a.option_strings])
        prog = parser.prog
        text = ' '.join([p for p in [prog] + opt_parts + pos_parts if p])
        text_width = self.width
        if len(prefix) + len(text) <= text_width:
            return prefix + text
        if len(prefix) + len(prog) <= 0.75 * text_width:
            indent = ' ' * (len(prefix) + len(prog) + 1)
            if opt_parts:
                lines = _usage_lines([prog] + opt_parts, indent, text_width, prefix)
                lines.extend(_usage_lines(pos_parts, indent, text_width))
            else:
                lines = _usage_lines([prog] + pos_parts, indent, text_width, prefix)
        else:
            indent = ' ' * len(prefix)
            lines = _usage_lines(opt_parts + pos_parts, indent, text_width)
            if len(lines) > 1:
                lines = _usage_lines(opt_parts, indent, text_width)
                lines.extend(_usage_lines(pos_parts, indent, text_width))
            lines = [prog] + lines
        return prefix + '\n'.join(lines)

    def invocation(self, action):
        if not action.option_strings:
            m = self.metavar(action)
            return m[0] if isinstance(m, tuple) else m
        if action.nargs == 0:
            return ', '.join(action.option_strings)
        args = self.args_text(action)
        return ', '.join([opt + ' ' + args for opt in action.option_strings])

    def expand_help(self, action):
        params = dict(vars(action))
        params['prog'] = self.parser.prog
        for name in list(params):
            if params[name] == SUPPRESS:
                del params[name]
            elif hasattr(params[name], '__name__'):
                params[name] = params[name].__name__
        if params.get('choices') is not None:
            params['choices'] = ', '.join([str(c) for c in params['choices']])
        return action.help % params

    def action_lines(self, action, help_position, indent=2):
        help_width = max(self.width - help_position, 11)
        action_width = help_position - indent - 2
        header = self.invocation(action)
        out = ' ' * indent + header
        if not action.help:
            return out + '\n' + self.subcommand_lines(action, help_position, indent)
        if len(header) <= action_width:
            out += ' ' * (action_width - len(header)) + '  '
            indent_first = 0
        else:
            out += '\n'
            indent_first = help_position
        help_lines = _wrap(self.expand_help(action), help_width)
        if help_lines:
            out += ' ' * indent_first + help_lines[0] + '\n'
            for line in help_lines[1:]:
                out += ' ' * help_position + line + '\n'
        elif not out.endswith('\n'):
            out += '\n'
        return out + self.subcommand_lines(action, help_position, indent)

    def subcommand_lines(self, action, help_position, indent):
        subs = getattr(action, '_choices_actions', [])
        return ''.join([self.action_lines(sub, help_position, indent + 2) for sub in subs])

    def text(self, text, indent):
        lines = _wrap(text, max(self.width - indent, 11))
        return '\n'.join([' ' * indent + line for line in lines]) + '\n\n'

    def help(self):
        parser = self.parser
        shown = [a for a in parser._actions if a.help != SUPPRESS]
        longest = 0
        for action in shown:
            longest = max(longest, len(self.invocation(action)) + 2)
            for sub in getattr(action, '_choices_actions', []):
                longest = max(longest, len(self.invocation(sub)) + 4)
        help_position = min(longest + 2, self.max_help_position)
        out = self.usage() + '\n\n'
        if parser.description:
            out += self.text(parser.description, 0)
        for group in parser._action_groups:
            actions = [a for a in group._group_actions if a.help != SUPPRESS]
            if not actions and not group.description:
                continue
            out += group.title + ':\n'
            if group.description:
                out += self.text(group.description, 2)
            for action in actions:
                out += self.action_lines(action, help_position)
            out += '\n'
        if parser.epilog:
            out += self.text(parser.epilog, 0)
        return out.strip('\n') + '\n'


def _usage_lines(parts, indent, text_width, prefix=None):
    lines = []
    line = []
    line_len = len(prefix) - 1 if prefix is not None else len(indent) - 1
    for part in parts:
        if line_len + 1 + len(part) > text_width and line:
            lines.append(indent + ' '.join(line))
            line = []
            line_len = len(indent) - 1
        line.append(part)
        line_len += len(part) + 1
    if line:
        lines.append(indent + ' '.join(line))
    if prefix is not None:
        lines[0] = lines[0][len(indent):]
    return lines
