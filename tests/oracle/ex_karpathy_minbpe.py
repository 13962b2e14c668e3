# minbpe in miniature: byte-pair encoding over UTF-8 bytes. A BasicTokenizer
# merges the most frequent pair across the whole text; a RegexTokenizer first
# splits the text into chunks with `re` and never merges across them. Both
# round-trip, and a save()-like rendering prints the merges and the vocab.
import re
import unicodedata


def get_stats(ids, counts=None):
    # counts of consecutive pairs, e.g. [1, 2, 3, 1, 2] -> {(1, 2): 2, (2, 3): 1, (3, 1): 1}
    counts = {} if counts is None else counts
    for pair in zip(ids, ids[1:]):
        counts[pair] = counts.get(pair, 0) + 1
    return counts


def merge(ids, pair, idx):
    newids = []
    i = 0
    while i < len(ids):
        if ids[i] == pair[0] and i < len(ids) - 1 and ids[i + 1] == pair[1]:
            newids.append(idx)
            i += 2
        else:
            newids.append(ids[i])
            i += 1
    return newids


def replace_control_characters(s: str) -> str:
    chars = []
    for ch in s:
        if unicodedata.category(ch)[0] != "C":
            chars.append(ch)
        else:
            chars.append(f"\\u{ord(ch):04x}")
    return "".join(chars)


def render_token(t: bytes) -> str:
    s = t.decode('utf-8', errors='replace')
    s = replace_control_characters(s)
    return s


class Tokenizer:
    def __init__(self):
        self.merges = {}
        self.pattern = ""
        self.special_tokens = {}
        self.vocab = self._build_vocab()

    def _build_vocab(self):
        vocab = {idx: bytes([idx]) for idx in range(256)}
        for (p0, p1), idx in self.merges.items():
            vocab[idx] = vocab[p0] + vocab[p1]
        for special, idx in self.special_tokens.items():
            vocab[idx] = special.encode("utf-8")
        return vocab

    def save_lines(self):
        # what save() would write to the .model and .vocab files
        lines = ["minbpe v1", self.pattern, f"{len(self.special_tokens)}"]
        for special, idx in self.special_tokens.items():
            lines.append(f"{special} {idx}")
        for idx1, idx2 in self.merges:
            lines.append(f"{idx1} {idx2}")
        inverted_merges = {idx: pair for pair, idx in self.merges.items()}
        for idx, token in self.vocab.items():
            s = render_token(token)
            if idx in inverted_merges:
                idx0, idx1 = inverted_merges[idx]
                s0 = render_token(self.vocab[idx0])
                s1 = render_token(self.vocab[idx1])
                lines.append(f"[{s0}][{s1}] -> [{s}] {idx}")
            elif idx in (10, 32, 65, 200):
                lines.append(f"[{s}] {idx}")
        return lines


class BasicTokenizer(Tokenizer):
    def train(self, text, vocab_size, verbose=False):
        assert vocab_size >= 256
        num_merges = vocab_size - 256
        text_bytes = text.encode("utf-8")
        ids = list(text_bytes)
        merges = {}
        vocab = {idx: bytes([idx]) for idx in range(256)}
        for i in range(num_merges):
            stats = get_stats(ids)
            pair = max(stats, key=stats.get)
            idx = 256 + i
            ids = merge(ids, pair, idx)
            merges[pair] = idx
            vocab[idx] = vocab[pair[0]] + vocab[pair[1]]
            if verbose:
                print(f"merge {i+1}/{num_merges}: {pair} -> {idx} ({vocab[idx]}) had {stats[pair]} occurrences")
        self.merges = merges
        self.vocab = vocab

    def decode(self, ids):
        text_bytes = b"".join(self.vocab[idx] for idx in ids)
        return text_bytes.decode("utf-8", errors="replace")

    def encode(self, text):
        ids = list(text.encode("utf-8"))
        while len(ids) >= 2:
            stats = get_stats(ids)
            pair = min(stats, key=lambda p: self.merges.get(p, float("inf")))
            if pair not in self.merges:
                break
            ids = merge(ids, pair, self.merges[pair])
        return ids


# a simplified GPT-4-like split: contractions, letters, numbers, punctuation, spaces
SPLIT_PATTERN = r"""'s|'t|'re|'ve|'m|'ll|'d| ?[a-zA-Z]+| ?[0-9]{1,3}| ?[^\sa-zA-Z0-9]+|\s+(?!\S)|\s+"""


class RegexTokenizer(Tokenizer):
    def __init__(self, pattern=None):
        super().__init__()
        self.pattern = SPLIT_PATTERN if pattern is None else pattern
        self.compiled_pattern = re.compile(self.pattern)
        self.special_tokens = {}
        self.inverse_special_tokens = {}

    def train(self, text, vocab_size, verbose=False):
        num_merges = vocab_size - 256
        text_chunks = re.findall(self.compiled_pattern, text)
        ids = [list(ch.encode("utf-8")) for ch in text_chunks]
        merges = {}
        vocab = {idx: bytes([idx]) for idx in range(256)}
        for i in range(num_merges):
            stats = {}
            for chunk_ids in ids:
                get_stats(chunk_ids, stats)
            pair = max(stats, key=stats.get)
            idx = 256 + i
            ids = [merge(chunk_ids, pair, idx) for chunk_ids in ids]
            merges[pair] = idx
            vocab[idx] = vocab[pair[0]] + vocab[pair[1]]
            if verbose:
                print(f"merge {i+1}/{num_merges}: {pair} -> {idx} ({vocab[idx]}) had {stats[pair]} occurrences")
        self.merges = merges
        self.vocab = vocab

    def register_special_tokens(self, special_tokens):
        self.special_tokens = special_tokens
        self.inverse_special_tokens = {v: k for k, v in special_tokens.items()}

    def decode(self, ids):
        part_bytes = []
        for idx in ids:
            if idx in self.vocab:
                part_bytes.append(self.vocab[idx])
            elif idx in self.inverse_special_tokens:
                part_bytes.append(self.inverse_special_tokens[idx].encode("utf-8"))
            else:
                raise ValueError(f"invalid token id: {idx}")
        text_bytes = b"".join(part_bytes)
        return text_bytes.decode("utf-8", errors="replace")

    def _encode_chunk(self, text_bytes):
        ids = list(text_bytes)
        while len(ids) >= 2:
            stats = get_stats(ids)
            pair = min(stats, key=lambda p: self.merges.get(p, float("inf")))
            if pair not in self.merges:
                break
            ids = merge(ids, pair, self.merges[pair])
        return ids

    def encode_ordinary(self, text):
        ids = []
        for chunk in re.findall(self.compiled_pattern, text):
            ids.extend(self._encode_chunk(chunk.encode("utf-8")))
        return ids

    def encode(self, text, allowed_special="none_raise"):
        special = None
        if allowed_special == "all":
            special = self.special_tokens
        elif allowed_special == "none":
            special = {}
        elif allowed_special == "none_raise":
            special = {}
            assert all(token not in text for token in self.special_tokens)
        if not special:
            return self.encode_ordinary(text)
        special_pattern = "(" + "|".join(re.escape(k) for k in special) + ")"
        special_chunks = re.split(special_pattern, text)
        ids = []
        for part in special_chunks:
            if part in special:
                ids.append(special[part])
            else:
                ids.extend(self.encode_ordinary(part))
        return ids


print(get_stats([1, 2, 3, 1, 2]))
print(merge([5, 6, 6, 7, 9, 1], (6, 7), 99))
print(list("hi 👋".encode("utf-8")), [ord(c) for c in "hé"])
print(len("안녕하세요 👋 (hello in Korean!)"), len("안녕하세요 👋 (hello in Korean!)".encode("utf-8")))

text = ("The quick brown fox jumps over the lazy dog. The dog sleeps; the fox doesn't. "
        "Tokenizers turn text into tokens, and tokens into text again! "
        "Byte pair encoding merges the most common pair of tokens, over and over. "
        "Numbers like 12345 and 2024 are split, and so is naïve café ünïcödé text. 🙂🙂 ")
tokens = text.encode("utf-8")
tokens = list(map(int, tokens))
print('length:', len(text), len(tokens))
stats = get_stats(tokens)
print(sorted(((v, k) for k, v in stats.items()), reverse=True)[:5])
top_pair = max(stats, key=stats.get)
print(top_pair, chr(top_pair[0]) + chr(top_pair[1]))

tok = BasicTokenizer()
tok.train(text, 256 + 12, verbose=True)
ids = tok.encode(text)
print(len(ids), f"compression ratio: {len(tokens) / len(ids):.2f}X")
print(tok.decode(ids) == text, tok.decode(tok.encode("hello world")) == "hello world")
print(tok.encode("the fox"), tok.decode([256, 257, 258]))
print(tok.decode([128]), repr(tok.vocab[256 + 3]))
for line in tok.save_lines()[:10]:
    print(line)

rtok = RegexTokenizer()
print(re.findall(rtok.compiled_pattern, "Hello've world123 how's are you!!!?   "))
rtok.train(text, 256 + 12, verbose=True)
ids = rtok.encode(text)
print(len(ids), rtok.decode(ids) == text)
rtok.register_special_tokens({"<|endoftext|>": 100257})
mixed = "hello fox<|endoftext|>the dog"
ids = rtok.encode(mixed, allowed_special="all")
print(ids, rtok.decode(ids) == mixed)
print(rtok.encode("the\tdog\n\nx", allowed_special="none"))
for line in rtok.save_lines():
    print(line)
print(render_token(b"a\nb\x00c"), render_token(bytes([0xe2, 0x82])))
print(unicodedata.category('A'), unicodedata.category('\n'), unicodedata.category('é'), unicodedata.category(' '),
      unicodedata.category('🙂'), unicodedata.category('1'), unicodedata.category('!'), unicodedata.category('\u200b'))
