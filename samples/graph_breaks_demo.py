# Graph breaks, all ten kinds, in a small training script.
#
# An MLP learns a synthetic 4-class problem with Adam and hard-example
# sampling. The script is ordinary PyTorch, but it does what real training
# scripts do: it logs, tracks the best loss, clips weights, reads metrics
# into Python. Each of those lines makes Kiln's JIT run the graph it was
# capturing early (a graph break); the comment on the line says why and how
# to keep the work in the graph. See them all with
#
#     kiln explain samples/graph_breaks_demo.py
#
# Kinds of break: item, tolist, data_dependent_branch, print,
# data_dependent_shape, data_dependent_check, metadata_mutation, disabled,
# data_access, exception (the compiled evaluation at the end).
#
# What the JIT does here (tests/jit/breaks checks it): train()'s loop is a
# region from its third iteration, so steps 2-39 (38 iterations) are captured
# and every-step breaks count 38, the logging ones 3 (steps 10, 20, 30); of
# the weight reports (steps 20, 39) only step 39's finds ops pending. The
# iteration graph is cut at each break: 12 graphs there, variants included.
# Steps 0-1 run the prelude's Module.__call__, Sequential's and Adam.step's
# loops and Adam's update function until they turn hot (7 graphs), the first
# backward passes form 1 graph, the class-count list comprehension's loop 1.
# evaluate_shards' loop is a region from the third (bad) shard: its error is
# caught inside the region, so no break there; its forward runs at the
# back-edge (1 graph). The compiled evaluation's error leaves its region:
# the exception break, its forward run on the way out (1 graph).
# expect graphs: 23
# expect breaks: data_dependent_branch@68 x38, metadata_mutation@71 x38
# expect breaks: data_access@74 x38
# expect breaks: data_dependent_check@77 x38
# expect breaks: item@80 x3, print@83 x3, tolist@85 x3
# expect breaks: data_dependent_shape@88 x3
# expect breaks: disabled@92 x1, exception@123 x1
# expect stack: disabled@92 train <- <module>
# expect region: loop loop at graph_breaks_demo.py:60 in train
# expect output: shard losses [0.1804, 0.2295, None]
import torch
import torch.nn.functional as F

torch.manual_seed(0)
N, D, H, C, B = 512, 16, 32, 4, 64
x = torch.randn(N, D)
y = (x @ torch.randn(D, C)).argmax(dim=1)
model = torch.nn.Sequential(torch.nn.Linear(D, H), torch.nn.ReLU(), torch.nn.Linear(H, C))
opt = torch.optim.Adam(model.parameters(), lr=0.01)


@torch.compiler.disable
def weight_report(step, w):
    # Code kept out of graphs on purpose, e.g. a logger that calls into a library.
    return f"  |W1| at step {step}: {w.norm().item():.3f}"


def train(steps):
    best = torch.tensor(float("inf"))
    hardness = torch.ones(N)
    idx = torch.multinomial(hardness, B)
    xb, yb = x[idx], y[idx]
    for step in range(steps):
        opt.zero_grad()
        logits = model(xb)
        per_example = F.cross_entropy(logits, yb, reduction="none")
        loss = per_example.mean()
        loss.backward()
        opt.step()
        # `if` needs the comparison's value now. Fix: best = torch.minimum(best, loss.detach()).
        if loss < best:  # BREAK data_dependent_branch
            best = loss.detach()
        # Swapping .data rewrites a tensor pending ops hold. Fix: w.clamp_(-0.5, 0.5) under torch.no_grad().
        model[0].weight.data = model[0].weight.clamp(-0.5, 0.5)  # BREAK metadata_mutation
        hardness[idx] = per_example.detach()
        # A random op runs at once and reads its input. Fix: sample at the top of the next step.
        idx = torch.multinomial(hardness, B)  # BREAK data_access
        pred = logits.argmax(dim=1)
        # gather validates pred, the last thing computed in this graph. Fix: logits.amax(dim=1).
        confidence = torch.gather(logits, 1, pred.unsqueeze(1))  # BREAK data_dependent_check
        if step % 10 == 0:
            # A Python float needs the value now. Fix: sum into a tensor, read it once at the end.
            acc = (pred == yb).float().mean().item()  # BREAK item
            print(f"step {step}: loss {best.item():.4f} accuracy {acc:.3f}")
            # Printing a tensor needs its values. Fix: print a number read once, and less often.
            print("  mean confidence:", confidence.mean())  # BREAK print
            # A list needs the values. Fix: keep the counts a tensor until training ends.
            counts = torch.stack([(pred == c).sum() for c in range(C)]).tolist()  # BREAK tolist
            print("  predicted per class:", counts)
            # nonzero's size depends on the values. Fix: (pred != yb).sum() has a fixed shape.
            wrong = torch.nonzero(pred != yb).shape[0]  # BREAK data_dependent_shape
            print("  misclassified:", wrong)
        if step == steps // 2 or step == steps - 1:
            # torch.compiler.disable'd code runs outside graphs. Fix: drop the decorator where you can.
            print(weight_report(step, model[0].weight))  # BREAK disabled
        # The next batch, gathered before the back-edge: the next cross_entropy finds its labels computed.
        xb, yb = x[idx], y[idx]
    return best


def evaluate(xs, ys):
    logits = model(xs)
    # A bad label raises here, at the call, with the forward pass still pending.
    return F.cross_entropy(logits, ys)


def evaluate_shards(shards):
    losses = []
    for xs, ys in shards:
        try:
            losses.append(round(evaluate(xs, ys).item(), 4))
        except (IndexError, RuntimeError):
            losses.append(None)
    return losses


best = train(40)
print("best loss", round(best.item(), 4))
corrupt = y[:64].clone()
corrupt[3] = C  # a label out of range: the third shard is bad
print("shard losses", evaluate_shards([(x[:64], y[:64]), (x[64:128], y[64:128]), (x[:64], corrupt)]))
# The error leaves a compiled region with the forward pending: that work runs
# as the exception passes. Fix: validate labels before the forward pass.
checked_eval = torch.compile(evaluate)
try:
    checked_eval(x[:64], corrupt)  # BREAK exception
except IndexError as err:
    print("bad labels:", type(err).__name__)
