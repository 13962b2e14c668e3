# A compact word-level language model in the style of the pytorch/examples
# word_language_model: Dictionary/Corpus over an in-script text, batchify,
# get_batch, RNNModel (RNN_TANH / LSTM / GRU, tied weights) and a
# TransformerModel with a positional-encoding buffer, trained with a manual
# SGD step, gradient clipping and perplexity logging.
import io
import math
import os
import time
import torch
import torch.nn as nn
import torch.nn.functional as F

TEXT = """the cat sat on the mat
the dog sat on the log
a cat and a dog met on the mat
the log was near the mat and the cat
a dog ran to the log
""".split("\n")

class Dictionary(object):
    def __init__(self):
        self.word2idx = {}
        self.idx2word = []

    def add_word(self, word):
        if word not in self.word2idx:
            self.idx2word.append(word)
            self.word2idx[word] = len(self.idx2word) - 1
        return self.word2idx[word]

    def __len__(self):
        return len(self.idx2word)

class Corpus(object):
    def __init__(self, lines):
        self.dictionary = Dictionary()
        self.train = self.tokenize(lines[:3])
        self.valid = self.tokenize(lines[3:])

    def tokenize(self, lines):
        for line in lines:
            for word in line.split() + ['<eos>']:
                self.dictionary.add_word(word)
        idss = []
        for line in lines:
            words = line.split() + ['<eos>']
            ids = []
            for word in words:
                ids.append(self.dictionary.word2idx[word])
            idss.append(torch.tensor(ids).type(torch.int64))
        return torch.cat(idss)

def batchify(data, bsz):
    nbatch = data.size(0) // bsz
    data = data.narrow(0, 0, nbatch * bsz)
    data = data.view(bsz, -1).t().contiguous()
    return data

class RNNModel(nn.Module):
    def __init__(self, rnn_type, ntoken, ninp, nhid, nlayers, dropout=0.5, tie_weights=False):
        super(RNNModel, self).__init__()
        self.ntoken = ntoken
        self.drop = nn.Dropout(dropout)
        self.encoder = nn.Embedding(ntoken, ninp)
        if rnn_type in ['LSTM', 'GRU']:
            self.rnn = getattr(nn, rnn_type)(ninp, nhid, nlayers, dropout=dropout)
        else:
            try:
                nonlinearity = {'RNN_TANH': 'tanh', 'RNN_RELU': 'relu'}[rnn_type]
            except KeyError as e:
                raise ValueError("bad rnn_type") from e
            self.rnn = nn.RNN(ninp, nhid, nlayers, nonlinearity=nonlinearity, dropout=dropout)
        self.decoder = nn.Linear(nhid, ntoken)
        if tie_weights:
            if nhid != ninp:
                raise ValueError('When using the tied flag, nhid must be equal to emsize')
            self.decoder.weight = self.encoder.weight
        self.init_weights()
        self.rnn_type = rnn_type
        self.nhid = nhid
        self.nlayers = nlayers

    def init_weights(self):
        initrange = 0.1
        nn.init.uniform_(self.encoder.weight, -initrange, initrange)
        nn.init.zeros_(self.decoder.bias)
        nn.init.uniform_(self.decoder.weight, -initrange, initrange)

    def forward(self, input, hidden):
        emb = self.drop(self.encoder(input))
        output, hidden = self.rnn(emb, hidden)
        output = self.drop(output)
        decoded = self.decoder(output)
        decoded = decoded.view(-1, self.ntoken)
        return F.log_softmax(decoded, dim=1), hidden

    def init_hidden(self, bsz):
        weight = next(self.parameters())
        if self.rnn_type == 'LSTM':
            return (weight.new_zeros(self.nlayers, bsz, self.nhid),
                    weight.new_zeros(self.nlayers, bsz, self.nhid))
        else:
            return weight.new_zeros(self.nlayers, bsz, self.nhid)

class PositionalEncoding(nn.Module):
    def __init__(self, d_model, dropout=0.1, max_len=5000):
        super(PositionalEncoding, self).__init__()
        self.dropout = nn.Dropout(p=dropout)
        pe = torch.zeros(max_len, d_model)
        position = torch.arange(0, max_len, dtype=torch.float).unsqueeze(1)
        div_term = torch.exp(torch.arange(0, d_model, 2).float() * (-math.log(10000.0) / d_model))
        pe[:, 0::2] = torch.sin(position * div_term)
        pe[:, 1::2] = torch.cos(position * div_term)
        pe = pe.unsqueeze(0).transpose(0, 1)
        self.register_buffer('pe', pe)

    def forward(self, x):
        x = x + self.pe[:x.size(0), :]
        return self.dropout(x)

class TransformerModel(nn.Transformer):
    def __init__(self, ntoken, ninp, nhead, nhid, nlayers, dropout=0.5):
        super(TransformerModel, self).__init__(d_model=ninp, nhead=nhead, dim_feedforward=nhid, num_encoder_layers=nlayers)
        self.model_type = 'Transformer'
        self.src_mask = None
        self.pos_encoder = PositionalEncoding(ninp, dropout)
        self.input_emb = nn.Embedding(ntoken, ninp)
        self.ninp = ninp
        self.decoder = nn.Linear(ninp, ntoken)
        self.init_weights()

    def _generate_square_subsequent_mask(self, sz):
        return torch.log(torch.tril(torch.ones(sz, sz)))

    def init_weights(self):
        initrange = 0.1
        nn.init.uniform_(self.input_emb.weight, -initrange, initrange)
        nn.init.zeros_(self.decoder.bias)
        nn.init.uniform_(self.decoder.weight, -initrange, initrange)

    def forward(self, src, has_mask=True):
        if has_mask:
            device = src.device
            if self.src_mask is None or self.src_mask.size(0) != len(src):
                mask = self._generate_square_subsequent_mask(len(src)).to(device)
                self.src_mask = mask
        else:
            self.src_mask = None
        src = self.input_emb(src) * math.sqrt(self.ninp)
        src = self.pos_encoder(src)
        output = self.encoder(src, mask=self.src_mask)
        output = self.decoder(output)
        return F.log_softmax(output, dim=-1)

def repackage_hidden(h):
    if isinstance(h, torch.Tensor):
        return h.detach()
    else:
        return tuple(repackage_hidden(v) for v in h)

BPTT = 4

def get_batch(source, i):
    seq_len = min(BPTT, len(source) - 1 - i)
    data = source[i:i + seq_len]
    target = source[i + 1:i + 1 + seq_len].view(-1)
    return data, target

def evaluate(model, data_source, ntokens, eval_batch_size, criterion):
    model.eval()
    total_loss = 0.
    if model.__class__.__name__ != 'TransformerModel':
        hidden = model.init_hidden(eval_batch_size)
    with torch.no_grad():
        for i in range(0, data_source.size(0) - 1, BPTT):
            data, targets = get_batch(data_source, i)
            if model.__class__.__name__ == 'TransformerModel':
                output = model(data)
                output = output.view(-1, ntokens)
            else:
                output, hidden = model(data, hidden)
                hidden = repackage_hidden(hidden)
            total_loss += len(data) * criterion(output, targets).item()
    return total_loss / (len(data_source) - 1)

def train_epoch(model, train_data, ntokens, batch_size, criterion, lr, epoch, clip=0.25):
    model.train()
    total_loss = 0.
    start_time = time.time()
    if model.__class__.__name__ != 'TransformerModel':
        hidden = model.init_hidden(batch_size)
    log_interval = 2
    for batch, i in enumerate(range(0, train_data.size(0) - 1, BPTT)):
        data, targets = get_batch(train_data, i)
        model.zero_grad()
        if model.__class__.__name__ == 'TransformerModel':
            output = model(data)
            output = output.view(-1, ntokens)
        else:
            hidden = repackage_hidden(hidden)
            output, hidden = model(data, hidden)
        loss = criterion(output, targets)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), clip)
        for p in model.parameters():
            p.data.add_(p.grad, alpha=-lr)
        total_loss += loss.item()
        if batch % log_interval == 0 and batch > 0:
            cur_loss = total_loss / log_interval
            elapsed = time.time() - start_time
            line = '| epoch {:3d} | {:5d}/{:5d} batches | lr {:02.2f} | loss {:5.2f} | ppl {:8.2f}'.format(
                epoch, batch, len(train_data) // BPTT, lr, cur_loss, math.exp(cur_loss))
            print(line)
            assert elapsed >= 0
            total_loss = 0
            start_time = time.time()

corpus = Corpus(TEXT)
ntokens = len(corpus.dictionary)
print('vocab', ntokens, corpus.dictionary.idx2word[:6])
print('train', corpus.train.shape, corpus.train[:8].tolist())
train_data = batchify(corpus.train, 2)
val_data = batchify(corpus.valid, 2)
print('batched', tuple(train_data.shape), tuple(val_data.shape), train_data.dtype)
criterion = nn.NLLLoss()

for kind, tied in [('LSTM', True), ('GRU', False), ('RNN_TANH', False), ('RNN_RELU', True)]:
    torch.manual_seed(1111)
    model = RNNModel(kind, ntokens, 8, 8, 2, dropout=0.2, tie_weights=tied)
    nparams = sum(p.numel() for p in model.parameters())
    print(kind, 'params', nparams, 'tied', model.decoder.weight is model.encoder.weight)
    lr = 5.0
    best_val_loss = None
    for epoch in range(1, 3):
        epoch_start_time = time.time()
        train_epoch(model, train_data, ntokens, 2, criterion, lr, epoch)
        val_loss = evaluate(model, val_data, ntokens, 2, criterion)
        print('-' * 40)
        print('| end of epoch {:3d} | valid loss {:5.2f} | valid ppl {:8.2f}'.format(epoch, val_loss, math.exp(val_loss)))
        if not best_val_loss or val_loss < best_val_loss:
            checkpoint = io.BytesIO()
            torch.save(model, checkpoint)
            best_val_loss = val_loss
        else:
            lr /= 4.0
    print(kind, 'best', round(best_val_loss, 4), 'lr', lr)
    checkpoint.seek(0)
    model = torch.load(checkpoint, weights_only=False)
    model.rnn.flatten_parameters()
    print('reloaded', round(evaluate(model, val_data, ntokens, 2, criterion), 4),
          model.decoder.weight is model.encoder.weight)
checkpoint.seek(0)
try:
    torch.load(checkpoint)
except Exception as e:
    print(type(e).__name__)

try:
    RNNModel('LSTM', ntokens, 8, 6, 1, tie_weights=True)
except ValueError as e:
    print('ValueError', e)
try:
    RNNModel('FOO', ntokens, 8, 8, 1)
except ValueError as e:
    print('ValueError', e, type(e.__cause__).__name__)

torch.manual_seed(1111)
tmodel = TransformerModel(ntokens, 8, 2, 16, 2, dropout=0.1)
print('pe', tuple(tmodel.pos_encoder.pe.shape), [round(v, 4) for v in tmodel.pos_encoder.pe[3, 0, :4].tolist()])
print('buffers', [n for n, _ in tmodel.named_buffers()])
print('mask', tmodel._generate_square_subsequent_mask(3).tolist())
lr = 0.5
for epoch in range(1, 3):
    train_epoch(tmodel, train_data, ntokens, 2, criterion, lr, epoch, clip=0.5)
    val_loss = evaluate(tmodel, val_data, ntokens, 2, criterion)
    print('| end of epoch {:3d} | valid loss {:5.2f} | valid ppl {:8.2f}'.format(epoch, val_loss, math.exp(val_loss)))

# Generation as in generate.py: sample words with multinomial over exp(logits / temperature).
torch.manual_seed(7)
model = RNNModel('GRU', ntokens, 8, 8, 1, dropout=0.0)
model.eval()
hidden = model.init_hidden(1)
input = torch.randint(ntokens, (1, 1), dtype=torch.long)
words = []
with torch.no_grad():
    for i in range(8):
        output, hidden = model(input, hidden)
        word_weights = output.squeeze().div(0.8).exp().cpu()
        word_idx = torch.multinomial(word_weights, 1)[0]
        input.fill_(word_idx)
        word = corpus.dictionary.idx2word[word_idx]
        words.append(word + ('\n' if i % 4 == 3 else ' '))
print(''.join(words), end='')
tinput = torch.randint(ntokens, (1, 1))
with torch.no_grad():
    for i in range(4):
        output = tmodel(tinput, False)
        word_weights = output[-1].squeeze().exp()
        word_idx = torch.multinomial(word_weights, 1)[0]
        word_tensor = torch.Tensor([[word_idx]]).long().to(tinput.device)
        tinput = torch.cat([tinput, word_tensor], 0)
print('tgen', tinput.view(-1).tolist())
