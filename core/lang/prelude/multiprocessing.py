# torch.multiprocessing for scripts such as the Hogwild example: Kiln runs one
# process, so Process.start() runs the target to its end right there, in the
# way a child would see it: under 'spawn' torch's generator starts from a new
# process's default seed, under 'fork' from the parent's state, and the
# parent's torch and Python random states are put back afterwards. Tensors shared with share_memory() are the parent's own, so
# the child's in-place updates reach the parent as with real shared memory.
import torch

_start_method = [None]
_FRESH_SEED = 67280421310721  # a new PyTorch process's default CPU seed
_count = [0]


def set_start_method(method, force=False):
    if method not in ('fork', 'spawn', 'forkserver'):
        raise ValueError('cannot find context for %r' % (method,))
    if _start_method[0] is not None and not force:
        raise RuntimeError('context has already been set')
    _start_method[0] = method


def get_start_method(allow_none=False):
    if _start_method[0] is None and not allow_none:
        _start_method[0] = 'fork'
    return _start_method[0]


def get_all_start_methods():
    return ['fork', 'spawn', 'forkserver']


def cpu_count():
    import os
    return os.cpu_count()


class Process:
    def __init__(self, group=None, target=None, name=None, args=(), kwargs=None, *, daemon=None):
        _count[0] += 1
        self._target = target
        self._args = tuple(args)
        self._kwargs = dict(kwargs or {})
        self.name = name if name is not None else 'Process-%d' % _count[0]
        self.daemon = bool(daemon)
        self.exitcode = None
        self._started = False

    def run(self):
        if self._target is not None:
            self._target(*self._args, **self._kwargs)

    def start(self):
        if self._started:
            raise AssertionError('cannot start a process twice')
        import random  # here, so that importing torch does not load it
        import sys
        self._started = True
        torch_state, py_state = torch.get_rng_state(), random.getstate()
        if get_start_method() != 'fork':  # a forked child goes on from a copy of the parent's
            torch.manual_seed(_FRESH_SEED)
        try:
            self.run()
            self.exitcode = 0
        except Exception as e:
            # A child's uncaught exception ends the child, not the parent.
            sys.stderr.write('Process %s:\n%s: %s\n' % (self.name, type(e).__name__, e))
            self.exitcode = 1
        finally:
            torch.set_rng_state(torch_state)
            random.setstate(py_state)

    def join(self, timeout=None):
        if not self._started:
            raise AssertionError('can only join a started process')

    def is_alive(self):
        return False

    def terminate(self):
        pass

    def kill(self):
        pass

    def close(self):
        pass

    @property
    def pid(self):
        import os
        return os.getpid() if self._started else None


class _Context:
    # get_context(method): the same functions under a chosen start method.
    def __init__(self, method):
        self._method = method
        self.Process = Process
        self.cpu_count = cpu_count

    def get_start_method(self, allow_none=False):
        return self._method


def get_context(method=None):
    return _Context(method if method is not None else get_start_method())
