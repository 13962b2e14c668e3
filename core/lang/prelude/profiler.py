# torch.profiler over Kiln's event model (torch._C._profiler_*, core/lang/profiler_natives.cpp):
# while a profile records, every op runs eagerly and is a Kernel event named as PyTorch's
# aten:: op, and record_function ranges are Span events; key_averages, table and
# export_chrome_trace read those events. Times are Kiln's; which ops appear and how often
# follows what Kiln ran (Kiln does not record the composite ops PyTorch nests, like
# aten::linear, nor the allocation and view helpers below them).
import torch

_C = torch._C


class _Named:
    # An enum-like member: Name.MEMBER, printed as <Name.MEMBER: value>.
    def __init__(self, owner, name, value):
        self._owner = owner
        self.name = name
        self.value = value

    def __repr__(self):
        return '<{}.{}: {}>'.format(self._owner, self.name, self.value)

    def __str__(self):
        return '{}.{}'.format(self._owner, self.name)

    def __eq__(self, other):
        return isinstance(other, _Named) and other._owner == self._owner and other.value == self.value

    def __hash__(self):
        return hash((self._owner, self.value))


class ProfilerActivity:
    CPU = _Named('ProfilerActivity', 'CPU', 0)
    XPU = _Named('ProfilerActivity', 'XPU', 1)
    MTIA = _Named('ProfilerActivity', 'MTIA', 2)
    CUDA = _Named('ProfilerActivity', 'CUDA', 3)
    HPU = _Named('ProfilerActivity', 'HPU', 4)
    PrivateUse1 = _Named('ProfilerActivity', 'PrivateUse1', 5)


class ProfilerAction:
    NONE = _Named('ProfilerAction', 'NONE', 0)
    WARMUP = _Named('ProfilerAction', 'WARMUP', 1)
    RECORD = _Named('ProfilerAction', 'RECORD', 2)
    RECORD_AND_SAVE = _Named('ProfilerAction', 'RECORD_AND_SAVE', 3)


_RECORDING = (ProfilerAction.RECORD, ProfilerAction.RECORD_AND_SAVE)


def supported_activities():
    return {ProfilerActivity.CPU}


# The action for each step: skip_first steps, then cycles of wait + warmup + active steps
# (repeat of them, 0: forever); the last active step of a cycle saves the trace.
def schedule(*, wait, warmup, active, repeat=0, skip_first=0, skip_first_wait=0):
    if wait < 0 or warmup < 0 or active <= 0 or repeat < 0 or skip_first < 0:
        raise AssertionError('Invalid profiler schedule arguments. Got wait={} (need >= 0), warmup={} (need >= 0), '
                             'active={} (need > 0), repeat={} (need >= 0), skip_first={} (need >= 0).'
                             .format(wait, warmup, active, repeat, skip_first))
    cycle = wait + warmup + active

    def schedule_fn(step):
        if step < 0:
            raise AssertionError('Invalid profiler schedule step: {}'.format(step))
        if step < skip_first:
            return ProfilerAction.NONE
        step -= skip_first
        if skip_first_wait != 0:
            step += wait
        if repeat > 0 and step // cycle >= repeat:
            return ProfilerAction.NONE
        pos = step % cycle
        if pos < wait:
            return ProfilerAction.NONE
        if pos < wait + warmup:
            return ProfilerAction.WARMUP
        return ProfilerAction.RECORD if pos < cycle - 1 else ProfilerAction.RECORD_AND_SAVE

    return schedule_fn


def _default_schedule(step):
    return ProfilerAction.RECORD


class record_function:
    # A labelled range in the profile; also a decorator. __enter__ and __exit__ are natives, so
    # that no Python call's span of theirs crosses the range's edges in the trace.
    def __init__(self, name, args=None):
        self.name = name
        self.args = args

    __enter__ = _C._record_function_enter
    __exit__ = _C._record_function_exit

    def __call__(self, fn):
        name = self.name

        def wrapped(*args, **kwargs):
            with record_function(name):
                return fn(*args, **kwargs)

        wrapped.__name__ = getattr(fn, '__name__', 'wrapped')
        return wrapped


def _format_time(us):
    if us >= 1e6:
        return '{:.3f}s'.format(us / 1e6)
    if us >= 1e3:
        return '{:.3f}ms'.format(us / 1e3)
    return '{:.3f}us'.format(us)


def _format_memory(nbytes):
    for unit, size in (('GB', 1024 ** 3), ('MB', 1024 ** 2), ('KB', 1024)):
        if abs(nbytes) >= size:
            return '{:.2f} {}'.format(nbytes / size, unit)
    return '{} B'.format(nbytes)


# '[5, 8], [8, 16] -> [5, 16]' (a Kernel event's text) -> [[5, 8], [8, 16]].
def _input_shapes(text):
    inputs = text.split(' -> ')[0].strip()
    if inputs == '':
        return []
    return [[int(d) for d in s.split(',') if d.strip() != ''] for s in inputs[1:-1].split('], [')]


class FunctionEvent:
    def __init__(self, id, name, thread, start_us, end_us, input_shapes, mem):
        self.id = id
        self.name = name
        self.key = name
        self.thread = thread
        self.start_us = start_us
        self.end_us = end_us
        self.input_shapes = input_shapes
        self.count = 1
        self.cpu_children = []
        self.cpu_parent = None
        self.own_memory = mem
        self.stack = []
        self.device_time_total = 0.0
        self.self_device_time_total = 0.0
        self.is_async = False

    @property
    def cpu_time_total(self):
        return self.end_us - self.start_us

    @property
    def self_cpu_time_total(self):
        return self.cpu_time_total - sum(c.cpu_time_total for c in self.cpu_children)

    @property
    def cpu_memory_usage(self):
        return self.own_memory + sum(c.cpu_memory_usage for c in self.cpu_children)

    @property
    def self_cpu_memory_usage(self):
        return self.own_memory

    def __repr__(self):
        return '<FunctionEvent id={} name={} cpu_time={} input_shapes={}>'.format(
            self.id, self.name, _format_time(self.cpu_time_total), self.input_shapes)


class FunctionEventAvg:
    def __init__(self, key, input_shapes):
        self.key = key
        self.input_shapes = input_shapes
        self.count = 0
        self.cpu_time_total = 0.0
        self.self_cpu_time_total = 0.0
        self.cpu_memory_usage = 0
        self.self_cpu_memory_usage = 0
        self.device_time_total = 0.0
        self.self_device_time_total = 0.0
        self.stack = []
        self.is_async = False

    def add(self, evt):
        self.count += evt.count
        self.cpu_time_total += evt.cpu_time_total
        self.self_cpu_time_total += evt.self_cpu_time_total
        self.cpu_memory_usage += evt.cpu_memory_usage
        self.self_cpu_memory_usage += evt.self_cpu_memory_usage

    @property
    def cpu_time(self):
        return self.cpu_time_total / self.count if self.count else 0.0

    def __repr__(self):
        return '<FunctionEventAvg key={} self_cpu_time={} cpu_time={} input_shapes={}>'.format(
            self.key, _format_time(self.self_cpu_time_total), _format_time(self.cpu_time), self.input_shapes)


_ALIASES = {'cuda': 'device', 'gpu': 'device'}


def _sort_value(evt, sort_by):
    for old, new in _ALIASES.items():
        sort_by = sort_by.replace(old, new)
    return getattr(evt, sort_by)


class EventList:
    # A list of events (Kiln's built-in list cannot be subclassed: this one wraps one).
    def __init__(self, events=None, profile_memory=False, grouped_by_shapes=False):
        self._events = list(events) if events is not None else []
        self._profile_memory = profile_memory
        self._shapes = grouped_by_shapes

    def __len__(self):
        return len(self._events)

    def __getitem__(self, i):
        return self._events[i]

    def __iter__(self):
        return iter(self._events)

    def __repr__(self):
        return repr(self._events)

    def __str__(self):
        return self.table()

    def key_averages(self, group_by_input_shape=False, group_by_stack_n=0):
        groups = {}
        for evt in self._events:
            key = 'ProfilerStep*' if evt.key.startswith('ProfilerStep#') else evt.key
            gk = (key, str(evt.input_shapes)) if group_by_input_shape else key
            if gk not in groups:
                groups[gk] = FunctionEventAvg(key, evt.input_shapes if group_by_input_shape else None)
            groups[gk].add(evt)
        return EventList(groups.values(), self._profile_memory, group_by_input_shape)

    def total_average(self):
        total = FunctionEventAvg('Total', None)
        for evt in self._events:
            total.add(evt)
        return total

    def table(self, sort_by=None, row_limit=100, max_src_column_width=75, max_name_column_width=55,
              max_shapes_column_width=80, header=None, top_level_events_only=False, time_unit=None):
        return _build_table(self, sort_by, row_limit, max_name_column_width, max_shapes_column_width, header)


# PyTorch's table layout: columns right-aligned, two spaces after each, dashed rules.
def _build_table(events, sort_by, row_limit, max_name_width, max_shapes_width, header):
    rows = list(events)
    if sort_by is not None:
        rows = sorted(rows, key=lambda e: _sort_value(e, sort_by), reverse=True)
    if len(rows) == 0:
        return ''
    total_self = sum(e.self_cpu_time_total for e in rows)
    name_width = min(max(len(e.key) for e in rows), max_name_width) + 4
    heads = [('Name', name_width), ('Self CPU %', 12), ('Self CPU', 12), ('CPU total %', 12),
             ('CPU total', 12), ('CPU time avg', 12)]
    if events._profile_memory:
        heads += [('CPU Mem', 12), ('Self CPU Mem', 12)]
    heads.append(('# of Calls', 12))
    shapes_width = 0
    if events._shapes:
        shapes_width = min(max(len(str(e.input_shapes)) for e in rows), max_shapes_width) + 4
        heads.append(('Input Shapes', shapes_width))
    rule = ''.join('-' * w + '  ' for _, w in heads)

    def line(cells):
        return ''.join(' ' * (w - len(c)) + c + '  ' for c, (_, w) in zip(cells, heads))

    out = []
    if header is not None:
        out += ['=' * len(rule), header]
    out += [rule, line([h for h, _ in heads]), rule]
    if row_limit is not None and row_limit > 0:
        rows = rows[:row_limit]
    for e in rows:
        out.append(line(_row(e, total_self, name_width, max_name_width, shapes_width, events)))
    out += [rule, 'Self CPU time total: ' + _format_time(total_self)]
    return '\n'.join(out) + '\n'


def _percent(part, total):
    return '{:.2f}%'.format(part * 100.0 / total) if total > 0 else 'nan%'


def _row(e, total_self, name_width, max_name_width, shapes_width, events):
    name = e.key
    if len(name) >= max_name_width - 3:
        name = name[:max_name_width - 3] + '...'
    cells = [name, _percent(e.self_cpu_time_total, total_self), _format_time(e.self_cpu_time_total),
             _percent(e.cpu_time_total, total_self), _format_time(e.cpu_time_total), _format_time(e.cpu_time)]
    if events._profile_memory:
        cells += [_format_memory(e.cpu_memory_usage), _format_memory(e.self_cpu_memory_usage)]
    cells.append(str(e.count))
    if shapes_width:
        cells.append(str(e.input_shapes)[:shapes_width - 4])
    return cells


# Kiln's events and the step ranges -> FunctionEvents: each op a leaf under the innermost
# range (record_function, step) that encloses it on its thread (interpreter spans of Python
# functions are left out).
def _function_events(raw, steps, record_shapes, profile_memory):
    evs = [FunctionEvent(0, name, tid, start / 1000.0, end / 1000.0, [], 0) for name, start, end, tid in steps]
    for kind, cat, name, ts, dur, text, detail, tid, read, written in raw:
        if kind == 'Span' and detail == 'user_annotation':
            evs.append(FunctionEvent(len(evs), name, tid, ts / 1000.0, (ts + dur) / 1000.0, [], 0))
        elif kind == 'Kernel':
            mem = written if profile_memory and not name.endswith('_') else 0
            shapes = _input_shapes(text) if record_shapes else []
            evs.append(FunctionEvent(len(evs), name, tid, ts / 1000.0, (ts + dur) / 1000.0, shapes, mem))
    evs.sort(key=lambda e: (e.thread, e.start_us, -e.end_us))
    stack = []
    for e in evs:
        while len(stack) > 0 and (stack[-1].thread != e.thread or stack[-1].end_us < e.end_us):
            stack.pop()
        if len(stack) > 0:
            e.cpu_parent = stack[-1]
            stack[-1].cpu_children.append(e)
        stack.append(e)
    evs.sort(key=lambda e: e.start_us)
    for i, e in enumerate(evs):
        e.id = i
    return evs


class profile:
    def __init__(self, *, activities=None, schedule=None, on_trace_ready=None, record_shapes=False,
                 profile_memory=False, with_stack=False, with_flops=False, with_modules=False,
                 experimental_config=None, execution_trace_observer=None, acc_events=False, use_cuda=None,
                 custom_trace_id_callback=None):
        self.activities = set(activities) if activities is not None else supported_activities()
        self.schedule = schedule if schedule is not None else _default_schedule
        self.record_steps = schedule is not None
        self.on_trace_ready = on_trace_ready
        self.record_shapes = record_shapes
        self.profile_memory = profile_memory
        self.with_stack = with_stack
        self.with_flops = with_flops
        self.with_modules = with_modules
        self.step_num = 0
        self.current_action = self.schedule(0)
        self._collecting = False
        self._profile_id = None
        self._step_range = None
        self._steps = []
        self._profile_steps = []
        self._events = None

    def __enter__(self):
        self.start()
        return self

    def __exit__(self, exc_type, exc_value, traceback):
        self.stop()
        return False

    def start(self):
        self._transit(ProfilerAction.NONE, self.current_action)
        self._enter_step()

    def stop(self):
        self._exit_step()
        self._transit(self.current_action, None)

    def step(self):
        self._exit_step()
        prev = self.current_action
        self.step_num += 1
        self.current_action = self.schedule(self.step_num)
        self._transit(prev, self.current_action)
        self._enter_step()

    # Each step is a range ProfilerStep#<n> of the recorded profile.
    def _enter_step(self):
        if self.record_steps and self._collecting:
            self._step_range = ('ProfilerStep#' + str(self.step_num), _C._profiler_clock())

    def _exit_step(self):
        if self._step_range is not None:
            name, (start, tid) = self._step_range
            self._steps.append((name, start, _C._profiler_clock()[0], tid))
            self._step_range = None

    # Recording stops where a RECORD_AND_SAVE step ends (the trace is then ready) or where the
    # schedule leaves the recording actions; it starts where it enters them.
    def _transit(self, prev, cur):
        if prev in _RECORDING and (prev == ProfilerAction.RECORD_AND_SAVE or cur not in _RECORDING):
            self._stop_trace()
            if prev == ProfilerAction.RECORD_AND_SAVE or cur is None:
                self._trace_ready()
        if cur in _RECORDING and not self._collecting:
            _C._profiler_start()
            self._collecting = True
            self._steps = []

    def _stop_trace(self):
        if self._collecting:
            self._profile_id = _C._profiler_stop()
            self._profile_steps = self._steps
            self._collecting = False
            self._events = None

    def _trace_ready(self):
        if self.on_trace_ready is not None:
            self.on_trace_ready(self)

    def _check_results(self):
        if self._profile_id is None:
            raise AssertionError('Profiler must be initialized before exporting chrome trace')

    def events(self):
        self._check_results()
        if self._events is None:
            raw = _C._profiler_events(self._profile_id)
            evs = _function_events(raw, self._profile_steps, self.record_shapes, self.profile_memory)
            self._events = EventList(evs, self.profile_memory)
        return self._events

    def key_averages(self, group_by_input_shape=False, group_by_stack_n=0, group_by_overload_name=False):
        return self.events().key_averages(group_by_input_shape, group_by_stack_n)

    def export_chrome_trace(self, path):
        self._check_results()
        _C._profiler_export_chrome_trace(self._profile_id, path)

    def export_stacks(self, path, metric='self_cpu_time_total'):
        with open(path, 'w') as f:
            f.write('')

    def export_memory_timeline(self, path, device=None):
        raise NotImplementedError('kiln: profile.export_memory_timeline is not supported')


# A ready handler writing each trace as <dir>/<worker>.<step>.pt.trace.json (Kiln's Chrome trace).
def tensorboard_trace_handler(dir_name, worker_name=None, use_gzip=False):
    def handler(prof):
        import os
        os.makedirs(dir_name, exist_ok=True)
        worker = worker_name if worker_name is not None else 'kiln_{}'.format(os.getpid())
        prof.export_chrome_trace(os.path.join(dir_name, '{}.{}.pt.trace.json'.format(worker, prof.step_num)))

    return handler
