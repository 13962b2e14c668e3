# torch.profiler's deterministic structure: which ops and ranges appear and how often, input
# shapes, the schedule's steps, the table's columns, the exported trace. The names and counts
# printed here are those PyTorch 2.15 prints for the same script (ops Kiln runs otherwise,
# such as nn.Linear's addmm, a mm and an add in Kiln, are left out).
import json
import os
import sys
import torch
import torch.nn as nn
from torch.profiler import profile, record_function, ProfilerActivity, ProfilerAction, schedule

SHOWN = ('aten::mm', 'aten::relu', 'aten::sum', 'model_inference', 'work', 'ProfilerStep*')


def counts(prof, shown=SHOWN):
    return sorted((e.key, e.count) for e in prof.key_averages() if e.key in shown)


def shape_counts(prof, shown):
    ka = prof.key_averages(group_by_input_shape=True)
    return sorted((e.key, e.count, e.input_shapes) for e in ka if (e.key, str(e.input_shapes)) in shown)


def columns(table):
    lines = table.split('\n')
    return ' '.join(lines[1].split()), lines[-2].split(':')[0]


torch.manual_seed(0)
model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 4))
x = torch.randn(5, 8)
for _ in range(3):  # hot already, so the JIT would capture it
    model(x)
with profile(activities=[ProfilerActivity.CPU], record_shapes=True) as prof:
    with record_function('model_inference'):
        y = model(x)
    z = torch.mm(x, x.T).relu().sum()
print(counts(prof, ('aten::relu', 'aten::sum', 'model_inference')))
print(shape_counts(prof, (('aten::mm', '[[5, 8], [8, 5]]'), ('aten::relu', '[[5, 16]]'), ('aten::relu', '[[5, 5]]'))))
print(columns(prof.key_averages().table(sort_by='cpu_time_total', row_limit=5)))
print(columns(prof.key_averages(group_by_input_shape=True).table(sort_by='self_cpu_time_total', row_limit=5)))
ka = prof.key_averages()
print(type(ka).__name__, type(ka[0]).__name__, len(ka.table(row_limit=2).split('\n')))
print(all(e.cpu_time_total >= e.self_cpu_time_total >= 0 for e in ka))
inference = [e for e in prof.events() if e.name == 'model_inference'][0]
print(sorted(set(c.name for c in inference.cpu_children if c.name in ('aten::relu', 'aten::sum'))))

with profile(activities=[ProfilerActivity.CPU], profile_memory=True) as prof:
    (x @ x.T).relu()
print(columns(prof.key_averages().table(sort_by='self_cpu_memory_usage', row_limit=3)))
print(counts(prof))

sched = schedule(wait=1, warmup=1, active=2, repeat=2, skip_first=1)
print([sched(i).name for i in range(12)])
print(ProfilerActivity.CPU, repr(ProfilerAction.RECORD_AND_SAVE))
try:
    schedule(wait=1, warmup=0, active=0)
except AssertionError as e:
    print('AssertionError', e)

ready = []


def handler(p):
    ready.append((p.step_num, counts(p)))


@record_function('work')
def work(t):
    return (t @ t).relu().sum()


with profile(activities=[ProfilerActivity.CPU], schedule=schedule(wait=1, warmup=1, active=2),
             on_trace_ready=handler) as prof:
    for i in range(8):
        work(torch.ones(3, 3))
        prof.step()
print(ready)
print(prof.step_num)

# the exported trace is Kiln's Chrome trace of the profiled span
path = 'profiler_trace_{}.json'.format(os.getpid())  # one per run: the modes run in parallel
if len(sys.argv) > 1:
    path = sys.argv[1]
with profile(activities=[ProfilerActivity.CPU]) as prof:
    with record_function('outer'):
        torch.mm(x, x.T)
prof.export_chrome_trace(path)
with open(path) as f:
    trace = json.load(f)
trace = trace['traceEvents'] if isinstance(trace, dict) else trace  # PyTorch's is an object
print(sorted(set(e['name'] for e in trace if e.get('ph') == 'X' and e['name'] in ('outer', 'aten::mm'))))
if len(sys.argv) == 1:
    os.remove(path)
