# argparse: options and positionals of every common kind, parse_args on
# lists and parse_known_args, defaults through type=, and the help, usage
# and error texts (errors exit with status 2; their usage goes to stderr).
import argparse
import sys


def parse(parser, args):
    try:
        print(parser.parse_args(args))
    except SystemExit as e:
        print('SystemExit', e.code)


parser = argparse.ArgumentParser(prog='train.py', description='Train a small model on the toy data set.')
parser.add_argument('data', help='path of the data')
parser.add_argument('--lr', type=float, default=0.001, help='learning rate (default: %(default)s)')
parser.add_argument('--epochs', '-e', type=int, default='3', help='passes over the data')
parser.add_argument('-b', '--batch-size', type=int, default=32, dest='bs')
parser.add_argument('--optimizer', choices=['sgd', 'adam'], default='adam', help='one of %(choices)s')
parser.add_argument('--verbose', '-v', action='store_true', help='print more')
parser.add_argument('--no-shuffle', dest='shuffle', action='store_false')
parser.add_argument('--layers', type=int, nargs='+', default=[64], metavar='N', help='hidden sizes')
parser.add_argument('--tags', nargs='*', default=[])
parser.add_argument('--resume', nargs='?', const='last.pt', default=None)
parser.add_argument('--seed', type=int, required=True)
parser.add_argument('--tag', action='append')
parser.add_argument('-q', action='count', default=0)

parse(parser, ['data.txt', '--seed', '1'])
parse(parser, ['--seed=7', 'd', '--lr', '0.1', '-e', '10', '-b', '64', '--optimizer', 'sgd', '-v'])
parse(parser, ['d', '--seed', '2', '--layers', '128', '64', '--tags', 'a', 'b', '--resume', '--no-shuffle'])
parse(parser, ['d', '--seed', '2', '--resume', 'ckpt.pt', '--tag', 'x', '--tag', 'y', '-qqq', '--lr=-1e-3'])
parse(parser, ['d', '--seed', '-5', '--tags', '--epo', '4', '-e5', '--batch-size=8'])
parse(parser, ['--seed', '1'])
parse(parser, ['d'])
parse(parser, ['d', '--seed', 'x'])
parse(parser, ['d', '--seed', '1', '--optimizer', 'rmsprop'])
parse(parser, ['d', '--seed', '1', 'extra', '--unknown'])
parse(parser, ['d', '--seed'])
parse(parser, ['d', '--seed', '1', '--layers'])
parse(parser, ['d', '--seed', '1', '--lr', 'fast'])
print(parser.parse_known_args(['d', '--seed', '1', '--foo', 'bar']))
ns = parser.parse_args(['d', '--seed', '3'])
print(ns.lr, ns.epochs, ns.bs, ns.verbose, ns.shuffle, vars(ns)['seed'], 'lr' in ns)
print(parser.format_usage(), end='')
parser.print_help()

p2 = argparse.ArgumentParser(prog='tool')
p2.add_argument('src')
p2.add_argument('dst', nargs='?', default='out')
p2.add_argument('rest', nargs='*')
p2.add_argument('--pair', nargs=2, type=int)
p2.add_argument('--flag', action=argparse.BooleanOptionalAction, default=True)
p2.add_argument('--const', action='store_const', const=42)
p2.add_argument('--version', action='version', version='%(prog)s 1.0')
group = p2.add_argument_group('extra', 'Extra settings.')
group.add_argument('--level', type=int, default=1, help='a level of detail that is described by a rather long help text which has to wrap')
mx = p2.add_mutually_exclusive_group()
mx.add_argument('--fast', action='store_true')
mx.add_argument('--slow', action='store_true')
parse(p2, ['a'])
parse(p2, ['a', 'b', 'c', 'd', '--pair', '1', '2', '--no-flag', '--const'])
parse(p2, ['a', '--pair', '1'])
parse(p2, ['a', '--fast', '--slow'])
parse(p2, ['a', '--version'])
parse(p2, ['--', '-x', '-y'])
p2.print_help()
parse(p2, ['a', '-h'])

p3 = argparse.ArgumentParser(prog='p3', add_help=False)
p3.add_argument('--x', default=1)
p3.set_defaults(mode='eval', x=5)
print(p3.parse_args([]), p3.get_default('mode'), p3.get_default('x'))
print(argparse.Namespace(b=1, a=2), argparse.Namespace(a=1) == argparse.Namespace(a=1))
print(sys.argv[1:] == [], parser.prog)
p4 = argparse.ArgumentParser(prog='p4')
print(p4.parse_args([]), p4.parse_args(None))
