# A seq2seq GRU encoder / attention decoder in the style of the PyTorch
# translation tutorial, on a tiny synthetic "language" (the target is the
# source reversed with a word mapping): Lang vocabularies, normalizeString,
# teacher forcing decided by random.random() under random.seed, SGD,
# NLLLoss, greedy evaluation with topk and attention weights.
import math
import random
import re
import time
import unicodedata
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch import optim

SOS_token = 0
EOS_token = 1
MAX_LENGTH = 6

class Lang:
    def __init__(self, name):
        self.name = name
        self.word2index = {}
        self.word2count = {}
        self.index2word = {0: "SOS", 1: "EOS"}
        self.n_words = 2

    def addSentence(self, sentence):
        for word in sentence.split(' '):
            self.addWord(word)

    def addWord(self, word):
        if word not in self.word2index:
            self.word2index[word] = self.n_words
            self.word2count[word] = 1
            self.index2word[self.n_words] = word
            self.n_words += 1
        else:
            self.word2count[word] += 1

def unicodeToAscii(s):
    return ''.join(c for c in unicodedata.normalize('NFD', s)
                   if unicodedata.category(c) != 'Mn')

def normalizeString(s):
    s = unicodeToAscii(s.lower().strip())
    s = re.sub(r"([.!?])", r" \1", s)
    s = re.sub(r"[^a-zA-Z!?]+", r" ", s)
    return s.strip()

SRC_WORDS = ['un', 'deux', 'trois', 'quatre', 'cinq']
TGT_WORDS = ['one', 'two', 'three', 'four', 'five']

def make_pairs(n):
    rng = random.Random(5)
    pairs = []
    for _ in range(n):
        k = rng.randint(2, 4)
        idx = [rng.randrange(len(SRC_WORDS)) for _ in range(k)]
        src = ' '.join(SRC_WORDS[i] for i in idx) + ' !'
        tgt = ' '.join(TGT_WORDS[i] for i in reversed(idx)) + ' !'
        pairs.append([normalizeString(src.capitalize()), normalizeString(tgt)])
    return pairs

pairs = make_pairs(12)
input_lang, output_lang = Lang('fra'), Lang('eng')
for p in pairs:
    input_lang.addSentence(p[0])
    output_lang.addSentence(p[1])
print('Counted words:', input_lang.name, input_lang.n_words, output_lang.name, output_lang.n_words)
print(random.Random(1).choice(pairs))
print(normalizeString("  Ça va très bien?! "), normalizeString("Déjà-vu..."))

class EncoderRNN(nn.Module):
    def __init__(self, input_size, hidden_size):
        super(EncoderRNN, self).__init__()
        self.hidden_size = hidden_size
        self.embedding = nn.Embedding(input_size, hidden_size)
        self.gru = nn.GRU(hidden_size, hidden_size)

    def forward(self, input, hidden):
        embedded = self.embedding(input).view(1, 1, -1)
        output = embedded
        output, hidden = self.gru(output, hidden)
        return output, hidden

    def initHidden(self):
        return torch.zeros(1, 1, self.hidden_size)

class AttnDecoderRNN(nn.Module):
    def __init__(self, hidden_size, output_size, dropout_p=0.1, max_length=MAX_LENGTH):
        super(AttnDecoderRNN, self).__init__()
        self.hidden_size = hidden_size
        self.output_size = output_size
        self.dropout_p = dropout_p
        self.max_length = max_length
        self.embedding = nn.Embedding(self.output_size, self.hidden_size)
        self.attn = nn.Linear(self.hidden_size * 2, self.max_length)
        self.attn_combine = nn.Linear(self.hidden_size * 2, self.hidden_size)
        self.dropout = nn.Dropout(self.dropout_p)
        self.gru = nn.GRU(self.hidden_size, self.hidden_size)
        self.out = nn.Linear(self.hidden_size, self.output_size)

    def forward(self, input, hidden, encoder_outputs):
        embedded = self.embedding(input).view(1, 1, -1)
        embedded = self.dropout(embedded)
        attn_weights = F.softmax(self.attn(torch.cat((embedded[0], hidden[0]), 1)), dim=1)
        attn_applied = torch.bmm(attn_weights.unsqueeze(0), encoder_outputs.unsqueeze(0))
        output = torch.cat((embedded[0], attn_applied[0]), 1)
        output = self.attn_combine(output).unsqueeze(0)
        output = F.relu(output)
        output, hidden = self.gru(output, hidden)
        output = F.log_softmax(self.out(output[0]), dim=1)
        return output, hidden, attn_weights

class BahdanauAttention(nn.Module):
    def __init__(self, hidden_size):
        super(BahdanauAttention, self).__init__()
        self.Wa = nn.Linear(hidden_size, hidden_size)
        self.Ua = nn.Linear(hidden_size, hidden_size)
        self.Va = nn.Linear(hidden_size, 1)

    def forward(self, query, keys):
        scores = self.Va(torch.tanh(self.Wa(query) + self.Ua(keys)))
        scores = scores.squeeze(2).unsqueeze(1)
        weights = F.softmax(scores, dim=-1)
        context = torch.bmm(weights, keys)
        return context, weights

def indexesFromSentence(lang, sentence):
    return [lang.word2index[word] for word in sentence.split(' ')]

def tensorFromSentence(lang, sentence):
    indexes = indexesFromSentence(lang, sentence)
    indexes.append(EOS_token)
    return torch.tensor(indexes, dtype=torch.long).view(-1, 1)

def tensorsFromPair(pair):
    return (tensorFromSentence(input_lang, pair[0]), tensorFromSentence(output_lang, pair[1]))

teacher_forcing_ratio = 0.5

def train(input_tensor, target_tensor, encoder, decoder, encoder_optimizer, decoder_optimizer,
          criterion, max_length=MAX_LENGTH):
    encoder_hidden = encoder.initHidden()
    encoder_optimizer.zero_grad()
    decoder_optimizer.zero_grad()
    input_length = input_tensor.size(0)
    target_length = target_tensor.size(0)
    encoder_outputs = torch.zeros(max_length, encoder.hidden_size)
    loss = 0
    for ei in range(input_length):
        encoder_output, encoder_hidden = encoder(input_tensor[ei], encoder_hidden)
        encoder_outputs[ei] = encoder_output[0, 0]
    decoder_input = torch.tensor([[SOS_token]])
    decoder_hidden = encoder_hidden
    use_teacher_forcing = True if random.random() < teacher_forcing_ratio else False
    if use_teacher_forcing:
        for di in range(target_length):
            decoder_output, decoder_hidden, decoder_attention = decoder(
                decoder_input, decoder_hidden, encoder_outputs)
            loss += criterion(decoder_output, target_tensor[di])
            decoder_input = target_tensor[di]  # Teacher forcing
    else:
        for di in range(target_length):
            decoder_output, decoder_hidden, decoder_attention = decoder(
                decoder_input, decoder_hidden, encoder_outputs)
            topv, topi = decoder_output.topk(1)
            decoder_input = topi.squeeze().detach()
            loss += criterion(decoder_output, target_tensor[di])
            if decoder_input.item() == EOS_token:
                break
    loss.backward()
    encoder_optimizer.step()
    decoder_optimizer.step()
    return loss.item() / target_length, use_teacher_forcing

def asMinutes(s):
    m = math.floor(s / 60)
    s -= m * 60
    return '%dm %ds' % (m, s)

def trainIters(encoder, decoder, n_iters, print_every=10, learning_rate=0.05):
    start = time.time()
    print_loss_total = 0
    forced = 0
    encoder_optimizer = optim.SGD(encoder.parameters(), lr=learning_rate)
    decoder_optimizer = optim.SGD(decoder.parameters(), lr=learning_rate)
    training_pairs = [tensorsFromPair(random.choice(pairs)) for i in range(n_iters)]
    criterion = nn.NLLLoss()
    for iter in range(1, n_iters + 1):
        training_pair = training_pairs[iter - 1]
        loss, tf = train(training_pair[0], training_pair[1], encoder, decoder,
                         encoder_optimizer, decoder_optimizer, criterion)
        print_loss_total += loss
        forced += int(tf)
        if iter % print_every == 0:
            print_loss_avg = print_loss_total / print_every
            print_loss_total = 0
            assert asMinutes(time.time() - start).endswith('s')
            print('(%d %d%%) %.4f forced=%d' % (iter, iter / n_iters * 100, print_loss_avg, forced))

def evaluate(encoder, decoder, sentence, max_length=MAX_LENGTH):
    with torch.no_grad():
        input_tensor = tensorFromSentence(input_lang, sentence)
        input_length = input_tensor.size()[0]
        encoder_hidden = encoder.initHidden()
        encoder_outputs = torch.zeros(max_length, encoder.hidden_size)
        for ei in range(input_length):
            encoder_output, encoder_hidden = encoder(input_tensor[ei], encoder_hidden)
            encoder_outputs[ei] += encoder_output[0, 0]
        decoder_input = torch.tensor([[SOS_token]])
        decoder_hidden = encoder_hidden
        decoded_words = []
        decoder_attentions = torch.zeros(max_length, max_length)
        for di in range(max_length):
            decoder_output, decoder_hidden, decoder_attention = decoder(
                decoder_input, decoder_hidden, encoder_outputs)
            decoder_attentions[di] = decoder_attention.data
            topv, topi = decoder_output.data.topk(1)
            if topi.item() == EOS_token:
                decoded_words.append('<EOS>')
                break
            else:
                decoded_words.append(output_lang.index2word[topi.item()])
            decoder_input = topi.squeeze().detach()
        return decoded_words, decoder_attentions[:di + 1]

random.seed(11)
torch.manual_seed(11)
hidden_size = 16
encoder1 = EncoderRNN(input_lang.n_words, hidden_size)
attn_decoder1 = AttnDecoderRNN(hidden_size, output_lang.n_words, dropout_p=0.1)
trainIters(encoder1, attn_decoder1, 40, print_every=10)
encoder1.eval()
attn_decoder1.eval()
for pair in pairs[:3]:
    output_words, attentions = evaluate(encoder1, attn_decoder1, pair[0])
    print('>', pair[0])
    print('=', pair[1])
    print('<', ' '.join(output_words), tuple(attentions.shape),
          [round(v, 4) for v in attentions[0, :3].tolist()])

att = BahdanauAttention(hidden_size)
q = torch.randn(2, 1, hidden_size)
keys = torch.randn(2, 5, hidden_size)
ctx, w = att(q, keys)
print('bahdanau', tuple(ctx.shape), tuple(w.shape), [round(v, 4) for v in w[1, 0].tolist()])

# The stdlib pieces the tutorial leans on: unicodedata and random.Random
# instances drawing independently of the module-level generator.
s = "Où es-tu, Zoë? Ça ira, garçon naïf!"
print(unicodedata.normalize('NFC', unicodedata.normalize('NFD', s)) == s, len(unicodedata.normalize('NFD', s)))
print([unicodedata.category(c) for c in 'aZ5 ,!é\u0301'], unicodedata.combining('\u0301'),
      unicodedata.decomposition('é'), repr(unicodedata.decomposition('a')))
r1, r2 = random.Random(3), random.Random(3)
random.seed(3)
a = [r1.random(), random.random(), r1.randint(1, 6)]
b = [r2.random(), r2.random(), r2.randint(1, 6)]
print([round(v, 6) for v in a], [round(v, 6) for v in b])
deck = list(range(8))
r1.shuffle(deck)
print(deck, r1.sample(range(20), 4), round(r1.gauss(0, 1), 6), round(r1.uniform(2, 3), 6), r1.choice('xyz'))
r1.seed(3)
print(round(r1.random(), 6), r1.getrandbits(10), round(random.random(), 6))
