# The official PyTorch tutorials' "NLP From Scratch" character-level RNN,
# written from memory and shrunk: names files found with glob, Unicode to ASCII
# through unicodedata, one-hot letter tensors, a hand-written RNN cell with
# NLLLoss, topk/multinomial sampling, the generator's torch.LongTensor targets.
# Then what such scripts lean on: legacy typed tensor constructors, glob /
# fnmatch / shutil, OSError's errno fields, pathlib ("What is torch.nn
# really?"), and the spatial transformer's affine_grid / grid_sample in 3-D.
from io import open
import glob
import os
import unicodedata
import string
import math
import time
import random
import torch
import torch.nn as nn

torch.manual_seed(0)
random.seed(0)

all_letters = string.ascii_letters + " .,;'"
n_letters = len(all_letters)
print(n_letters, all_letters)

def unicodeToAscii(s):
    return ''.join(
        c for c in unicodedata.normalize('NFD', s)
        if unicodedata.category(c) != 'Mn'
        and c in all_letters
    )

print(unicodeToAscii('Ślusàrski'))
print(unicodeToAscii('Adèle Müller Ñoño Ærøskøbing Đorđe Łukasz Çelik'))
for ch in 'éÅßØ1 ,aZ\u0301':
    print(repr(ch), unicodedata.category(ch), unicodedata.normalize('NFD', ch).encode('utf-8'))
print(unicodedata.normalize('NFC', 'e\u0301') == 'é')

data = {
    'English': ['Smith', 'Jones', 'Taylor', 'Brown', 'Williams', 'Wilson'],
    'French': ['Dubois', 'Lefèvre', 'Moreau', 'Léger', 'Bélanger', 'Girard'],
    'Polish': ['Ślusàrski', 'Nowak', 'Wójcik', 'Kowalczyk', 'Zając', 'Łukasik'],
}
path = '/tmp/charrnn_' + str(os.getpid())
os.makedirs(path + '/names', exist_ok=True)
for lang, names in data.items():
    with open(path + '/names/' + lang + '.txt', 'w', encoding='utf-8') as f:
        f.write('\n'.join(names) + '\n')

def findFiles(p): return sorted(glob.glob(p))

category_lines = {}
all_categories = []

def readLines(filename):
    lines = open(filename, encoding='utf-8').read().strip().split('\n')
    return [unicodeToAscii(line) for line in lines]

for filename in findFiles(path + '/names/*.txt'):
    category = os.path.splitext(os.path.basename(filename))[0]
    all_categories.append(category)
    lines = readLines(filename)
    category_lines[category] = lines

n_categories = len(all_categories)
print(all_categories, category_lines['Polish'][:3])

def letterToIndex(letter):
    return all_letters.find(letter)

def letterToTensor(letter):
    tensor = torch.zeros(1, n_letters)
    tensor[0][letterToIndex(letter)] = 1
    return tensor

def lineToTensor(line):
    tensor = torch.zeros(len(line), 1, n_letters)
    for li, letter in enumerate(line):
        tensor[li][0][letterToIndex(letter)] = 1
    return tensor

print(letterToTensor('J'))
print(lineToTensor('Jones').size())

class RNN(nn.Module):
    def __init__(self, input_size, hidden_size, output_size):
        super(RNN, self).__init__()
        self.hidden_size = hidden_size
        self.i2h = nn.Linear(input_size + hidden_size, hidden_size)
        self.i2o = nn.Linear(input_size + hidden_size, output_size)
        self.softmax = nn.LogSoftmax(dim=1)

    def forward(self, input, hidden):
        combined = torch.cat((input, hidden), 1)
        hidden = self.i2h(combined)
        output = self.i2o(combined)
        output = self.softmax(output)
        return output, hidden

    def initHidden(self):
        return torch.zeros(1, self.hidden_size)

n_hidden = 32
rnn = RNN(n_letters, n_hidden, n_categories)
print(rnn)
input = lineToTensor('Albert')
hidden = torch.zeros(1, n_hidden)
output, next_hidden = rnn(input[0], hidden)
print(output.detach(), output.grad_fn.name())

def categoryFromOutput(output):
    top_n, top_i = output.topk(1)
    category_i = top_i[0].item()
    return all_categories[category_i], category_i

print(categoryFromOutput(output))

def randomChoice(l):
    return l[random.randint(0, len(l) - 1)]

def randomTrainingExample():
    category = randomChoice(all_categories)
    line = randomChoice(category_lines[category])
    category_tensor = torch.tensor([all_categories.index(category)], dtype=torch.long)
    line_tensor = lineToTensor(line)
    return category, line, category_tensor, line_tensor

for i in range(3):
    category, line, category_tensor, line_tensor = randomTrainingExample()
    print('category =', category, '/ line =', line)

criterion = nn.NLLLoss()
learning_rate = 0.005

def train(category_tensor, line_tensor):
    hidden = rnn.initHidden()
    rnn.zero_grad()
    for i in range(line_tensor.size()[0]):
        output, hidden = rnn(line_tensor[i], hidden)
    loss = criterion(output, category_tensor)
    loss.backward()
    for p in rnn.parameters():
        p.data.add_(p.grad.data, alpha=-learning_rate)
    return output, loss.item()

n_iters = 300
print_every = 50
current_loss = 0
all_losses = []

def timeSince(since):
    now = since + 125.7
    s = now - since
    m = math.floor(s / 60)
    s -= m * 60
    return '%dm %ds' % (m, s)

start = 0.0
for iter in range(1, n_iters + 1):
    category, line, category_tensor, line_tensor = randomTrainingExample()
    output, loss = train(category_tensor, line_tensor)
    current_loss += loss
    if iter % print_every == 0:
        guess, guess_i = categoryFromOutput(output)
        correct = '✓' if guess == category else '✗ (%s)' % category
        print('%d %d%% (%s) %.4f %s / %s %s' % (iter, iter / n_iters * 100, timeSince(start), loss, line, guess, correct))
        all_losses.append(current_loss / print_every)
        current_loss = 0

confusion = torch.zeros(n_categories, n_categories)
def evaluate(line_tensor):
    hidden = rnn.initHidden()
    for i in range(line_tensor.size()[0]):
        output, hidden = rnn(line_tensor[i], hidden)
    return output

for i in range(60):
    category, line, category_tensor, line_tensor = randomTrainingExample()
    output = evaluate(line_tensor)
    guess, guess_i = categoryFromOutput(output)
    category_i = all_categories.index(category)
    confusion[category_i][guess_i] += 1
for i in range(n_categories):
    confusion[i] = confusion[i] / confusion[i].sum()
print(confusion)

def predict(input_line, n_predictions=2):
    print('\n> %s' % input_line)
    with torch.no_grad():
        output = evaluate(lineToTensor(input_line))
        topv, topi = output.topk(n_predictions, 1, True)
        predictions = []
        for i in range(n_predictions):
            value = topv[0][i].item()
            category_index = topi[0][i].item()
            print('(%.2f) %s' % (value, all_categories[category_index]))
            predictions.append([value, all_categories[category_index]])

predict('Dovesky')
predict('Jackson')

# generation
class GRNN(nn.Module):
    def __init__(self, input_size, hidden_size, output_size):
        super(GRNN, self).__init__()
        self.hidden_size = hidden_size
        self.i2h = nn.Linear(n_categories + input_size + hidden_size, hidden_size)
        self.i2o = nn.Linear(n_categories + input_size + hidden_size, output_size)
        self.o2o = nn.Linear(hidden_size + output_size, output_size)
        self.dropout = nn.Dropout(0.1)
        self.softmax = nn.LogSoftmax(dim=1)

    def forward(self, category, input, hidden):
        input_combined = torch.cat((category, input, hidden), 1)
        hidden = self.i2h(input_combined)
        output = self.i2o(input_combined)
        output_combined = torch.cat((hidden, output), 1)
        output = self.o2o(output_combined)
        output = self.dropout(output)
        output = self.softmax(output)
        return output, hidden

    def initHidden(self):
        return torch.zeros(1, self.hidden_size)

n_letters_g = n_letters + 1
g = GRNN(n_letters_g, 32, n_letters_g)

def categoryTensor(category):
    li = all_categories.index(category)
    tensor = torch.zeros(1, n_categories)
    tensor[0][li] = 1
    return tensor

def inputTensor(line):
    tensor = torch.zeros(len(line), 1, n_letters_g)
    for li in range(len(line)):
        letter = line[li]
        tensor[li][0][all_letters.find(letter)] = 1
    return tensor

def targetTensor(line):
    letter_indexes = [all_letters.find(line[li]) for li in range(1, len(line))]
    letter_indexes.append(n_letters_g - 1)
    return torch.LongTensor(letter_indexes)

gcrit = nn.NLLLoss()
def gtrain(category_tensor, input_line_tensor, target_line_tensor):
    target_line_tensor.unsqueeze_(-1)
    hidden = g.initHidden()
    g.zero_grad()
    loss = torch.Tensor([0])
    for i in range(input_line_tensor.size(0)):
        output, hidden = g(category_tensor, input_line_tensor[i], hidden)
        l = gcrit(output, target_line_tensor[i])
        loss += l
    loss.backward()
    for p in g.parameters():
        p.data.add_(p.grad.data, alpha=-0.0005)
    return output, loss.item() / input_line_tensor.size(0)

tot = 0
for it in range(40):
    category = randomChoice(all_categories)
    line = randomChoice(category_lines[category])
    output, loss = gtrain(categoryTensor(category), inputTensor(line), targetTensor(line))
    tot += loss
print('gen loss %.4f' % (tot / 40))

max_length = 8
def sample(category, start_letter='A'):
    with torch.no_grad():
        category_tensor = categoryTensor(category)
        input = inputTensor(start_letter)
        hidden = g.initHidden()
        output_name = start_letter
        for i in range(max_length):
            output, hidden = g(category_tensor, input[0], hidden)
            topv, topi = output.topk(1)
            topi = topi[0][0]
            if topi == n_letters_g - 1:
                break
            else:
                letter = all_letters[topi]
                output_name += letter
            input = inputTensor(letter)
        return output_name

g.eval()
for c in all_categories:
    print(c, sample(c, 'S'), sample(c, 'Z'))
probs = torch.exp(g(categoryTensor('French'), inputTensor('A')[0], g.initHidden())[0])
torch.manual_seed(3)
print(torch.multinomial(probs, 5, replacement=True), torch.multinomial(probs[0], 3))
print(torch.multinomial(torch.tensor([0.1, 0.0, 0.9]), 2), torch.multinomial(torch.tensor([[1., 2.], [3., 0.]]), 1))
print('%dm %ds' % (math.floor(125.7 / 60), 125.7 - 120), math.floor(-1.5), type(math.floor(2.0)))
import shutil; shutil.rmtree(path)
print(os.path.exists(path))

# ---- legacy tensor types ----
a = torch.LongTensor([1, 2, 3])
print(a, a.dtype, torch.FloatTensor(2, 3).shape, torch.DoubleTensor([[1, 2]]), torch.IntTensor(), torch.BoolTensor([1, 0]))
print(torch.ByteTensor([1, 255]), torch.CharTensor([-1]), torch.ShortTensor([3]), torch.HalfTensor([0.5]), torch.BFloat16Tensor([1.5]))
# Sizes give uninitialized memory in PyTorch: only shapes and dtypes are compared.
print(torch.FloatTensor(torch.Size([2])).shape, torch.Tensor(2, 2).shape, torch.Tensor([1, 2]).dtype, torch.Tensor(torch.Size([1, 2])).shape, torch.IntTensor(3).dtype)
cpu_long = torch.zeros(2, dtype=torch.long, device='cpu')  # the legacy types are CPU tensors of their dtype
print(isinstance(cpu_long, torch.LongTensor), isinstance(cpu_long, torch.FloatTensor), isinstance(a, torch.Tensor), torch.LongTensor.dtype, torch.LongTensor.__name__)
print(torch.LongTensor, a.type(), a.type(torch.FloatTensor), a.type('torch.DoubleTensor'), a.type(torch.float16), torch.LongTensor.is_cuda)
f = torch.FloatTensor([1.5, 2])
print(torch.FloatTensor(f) is f, torch.FloatTensor(f).data_ptr() == f.data_ptr(), torch.LongTensor([1.7, -2.9]), torch.LongTensor((1, 2)))
try:
    torch.LongTensor(f)
except TypeError as e:
    print(e)
try:
    a.type('torch.FooTensor')
except ValueError as e:
    print(e)
x = torch.Tensor([0]); x += 2; print(x)

# ---- glob, fnmatch, shutil ----
import fnmatch
base = '/tmp/globt_' + str(os.getpid())
os.makedirs(base + '/names/sub', exist_ok=True)
for n in ['English.txt', 'French.txt', 'a1.csv', '.hidden.txt', 'sub/deep.txt', 'b[1].txt']:
    with open(base + '/names/' + n, 'w') as f:
        f.write(n)
print(sorted(glob.glob(base + '/names/*.txt')) == sorted(glob.glob(base + '/names/*.txt')))
rel = lambda l: sorted(p[len(base):] for p in l)
print(rel(glob.glob(base + '/names/*.txt')))
print(rel(glob.glob(base + '/names/[EF]*')), rel(glob.glob(base + '/names/?1.*')), rel(glob.glob(base + '/names/[!E]*.txt')))
print(rel(glob.glob(base + '/names/**/*.txt', recursive=True)), rel(glob.glob(base + '/**', recursive=True)))
print(rel(glob.glob(base + '/names/.*')), rel(glob.glob(base + '/*/sub')), rel(glob.glob(base + '/names/nothing*')), glob.glob(base + '/names/English.txt') == [base + '/names/English.txt'])
print(rel(glob.glob(base + '/names/' + glob.escape('b[1].txt'))), glob.has_magic('a*'), glob.escape('x?[y]'))
print(sorted(glob.glob('*.txt', root_dir=base + '/names')), rel(glob.iglob(base + '/names/*.csv')), rel(glob.glob(base + '/names/*', include_hidden=True)))
print(fnmatch.fnmatch('foo.txt', '*.txt'), fnmatch.fnmatch('foo.txt', '*.TXT'), fnmatch.filter(['a.py', 'b.c', 'c.py'], '*.py'), fnmatch.fnmatchcase('abc', 'a[a-c]c'), fnmatch.fnmatch('a[', 'a['), fnmatch.fnmatch('aXbYc', 'a*b*c'), fnmatch.fnmatch('ab', 'a*b*c'))
shutil.copyfile(base + '/names/English.txt', base + '/copy.txt')
print(open(base + '/copy.txt').read(), shutil.copy(base + '/names/French.txt', base + '/names/sub')[len(base):])
shutil.copytree(base + '/names', base + '/names2')
print(rel(glob.glob(base + '/names2/**', recursive=True)))
print(shutil.move(base + '/copy.txt', base + '/names2')[len(base):])
shutil.rmtree(base + '/names2')
print(os.path.exists(base + '/names2'))
try:
    shutil.rmtree(base + '/missing')
except FileNotFoundError as e:
    print('FNF', e.errno)
shutil.rmtree(base + '/missing', ignore_errors=True)
shutil.rmtree(base)
print(os.path.exists(base))

# ---- OSError ----
for args in [(), ('msg',), (2, 'No such file'), (2, 'No such file', 'f.txt'), (2, 'x', 'a', None, 'b'), (1, 2, 3, 4, 5, 6)]:
    e = OSError(*args)
    print(repr(str(e)), e.args, e.errno, e.strerror, e.filename)
try:
    os.remove('/nonexistent/zz')
except FileNotFoundError as e:
    print(e, e.errno, e.strerror, e.filename, e.args, repr(e))
try:
    open('/nonexistent/zz')
except OSError as e:
    print(type(e).__name__, e, e.errno)
try:
    os.mkdir('/tmp')
except FileExistsError as e:
    print(e)
class MyErr(OSError):
    pass
print(MyErr(5, 'bad', 'p'), FileNotFoundError(2, 'No such file or directory', 'q'))

# ---- pathlib ----
from pathlib import Path, PurePath, PurePosixPath
base = Path('/tmp') / ('pl_' + str(os.getpid()))
rel = lambda p: str(p)[len(str(base)):]
print(type(base).__name__, isinstance(base, os.PathLike), isinstance(base, PurePath), repr(Path('a/b')), Path(), Path('/a//b/./c/'), Path('a', 'b', '/c', 'd'))
p = Path('/usr/lib/libfoo.tar.gz')
print(p.name, p.suffix, p.suffixes, p.stem, p.parent, list(map(str, p.parents)), p.parts, p.anchor, p.root, p.is_absolute())
print(p.with_suffix('.bz2'), p.with_name('x.py'), p.with_stem('bar'), p.relative_to('/usr'), p.as_posix(), os.fspath(p), str(PurePosixPath('x')/'y'))
print(Path('a') == Path('a/'), Path('a') < Path('b'), sorted([Path('b'), Path('a/c'), Path('a')]), hash(Path('a')) == hash(Path('a')), 'x' / Path('y'), Path('.hidden').suffix, Path('a.').suffix, Path('..').name)
print(p.match('*.gz'), p.match('lib/*.gz'), p.match('/lib/*.gz'), Path('a/b').joinpath('c', 'd'))
(base / 'data' / 'sub').mkdir(parents=True, exist_ok=True)
f = base / 'data' / 'hello.txt'
print(f.write_text('hi there'), f.read_text(), f.exists(), f.is_file(), f.parent.is_dir(), (base / 'nope').exists())
(base / 'data' / 'b.bin').write_bytes(b'\x00\x01')
print((base / 'data' / 'b.bin').read_bytes(), sorted(rel(x) for x in (base / 'data').iterdir()), sorted(rel(x) for x in base.glob('data/*.txt')), sorted(rel(x) for x in base.rglob('*.bin')))
torch.save({'w': torch.arange(3)}, base / 'ck.pt')
print(torch.load(base / 'ck.pt'), os.path.exists(base / 'ck.pt'), rel(os.path.join(base, 'q')), os.listdir(base / 'data' / 'sub'))
with open(base / 'data' / 'hello.txt') as fh:
    print(fh.read())
with (base / 'data' / 'hello.txt').open() as fh:
    print(fh.readline())
try:
    (base / 'data').mkdir()
except FileExistsError as e:
    print('exists', e.errno)
try:
    p.relative_to('/etc')
except ValueError as e:
    print(e)
try:
    Path(3)
except TypeError as e:
    print(e)
f.unlink(); (base / 'data' / 'b.bin').unlink(); (base / 'nope').unlink(missing_ok=True)
import shutil; shutil.rmtree(base)
print(base.exists(), Path('~').expanduser() == Path.home(), Path.cwd() == Path(os.getcwd()), Path('x').absolute() == Path.cwd() / 'x')

# ---- 3-D affine_grid / grid_sample ----
import torch.nn.functional as F
torch.manual_seed(0)
th = torch.tensor([[[0.9, -0.2, 0.1, 0.05], [0.3, 1.1, -0.05, 0.0], [0.1, 0.0, 0.8, -0.1]]])
for ac in (False, True):
    g3 = F.affine_grid(th, (1, 2, 3, 4, 2), align_corners=ac)
    print(g3.shape, g3[0, 1, 2])
v = torch.arange(2 * 3 * 4 * 5, dtype=torch.float).view(1, 2, 3, 4, 5)
for ac in (False, True):
    g = F.affine_grid(th, (1, 2, 2, 3, 2), align_corners=ac) * 1.3
    for mode in ('bilinear', 'nearest'):
        for pm in ('zeros', 'border', 'reflection'):
            y = F.grid_sample(v, g, mode=mode, padding_mode=pm, align_corners=ac)
            print(ac, mode, pm, y.shape, round(y.sum().item(), 3), y[0, 1, 1, 1])
thr = th.clone().requires_grad_()
vr = v.clone().requires_grad_()
out = F.grid_sample(vr, F.affine_grid(thr, (1, 2, 2, 2, 3), align_corners=False), align_corners=False)
out.pow(2).sum().backward()
print(out.grad_fn.name(), thr.grad.cpu(), vr.grad[0, 0, 1].cpu())
print(F.affine_grid(th.double(), (1, 1, 1, 1, 1), align_corners=False).cpu())
