# The re module as tokenizers use it: findall with and without groups,
# sub with templates and functions, split with captured separators, named
# groups, flags, match objects, and a word-level vocabulary built from them.
import re
from collections import Counter

text = "The quick brown fox, jumps over the lazy dog! The dog sleeps... 42 times?"
toks = re.findall(r"\w+|[^\w\s]+", text.lower())
print(toks)
print(re.findall(r"(\w)(\w)\b", "ab cd e"), re.findall(r"d(o)g", text))
print(re.sub(r"\s+", " ", "a   b \t c"), re.sub(r"(\w+)@(\w+)", r"\2 at \1", "me@home you@work"))
print(re.sub(r"\d+", lambda m: str(int(m.group()) * 2), "3 apples and 10 pears"))
print(re.subn(r"o", "0", "foo boo", count=3), re.sub(r"(?P<w>\w+)", r"<\g<w>>", "hi there"))
print(re.split(r"[,!.?]+", text), re.split(r"(\s)", "a b", maxsplit=1))
m = re.search(r"(?P<word>\w+) (?P<num>\d+)", "id: item 42 end")
print(m.group(), m.group("word"), m.group(1, 2), m.groups(), m.groupdict(), m.span("num"), m.start(), m.end(2))
print(m, m.lastindex, m.lastgroup, m[2])
print(re.match(r"\d+", "abc 12"), re.match(r"[a-z]+", "abc 12").group(), re.fullmatch(r"\w+", "abc"))
pat = re.compile(r"^(\s*)#\s*(.*)$", re.MULTILINE)
print(pat.findall("x = 1\n  # comment one\n# two"), pat.groups, pat.pattern)
print(re.findall(r"HELLO", "hello Hello", flags=re.IGNORECASE), re.findall(r"(?i)the", text))
print(re.findall(r"a.b", "a\nb axb", re.DOTALL), re.findall(r"a.b", "a\nb axb"))
print([mm.span() for mm in re.finditer(r"o+", "foo boo o")], re.escape("a.b*c"))
verbose = re.compile(r"""
    (\d{4})   # year
    -(\d{2})  # month
""", re.VERBOSE)
print(verbose.search("date 2024-05-01").groups())
print(bool(re.match(r"^[A-Za-z_]\w*$", "var_1")), re.search(r"z", "abc") is None)
print(re.sub(r"([.,!?])", r" \1 ", "Hi, there!").split())
try:
    re.compile(r"(unclosed")
except re.error:
    print("re.error")

vocab = {"<pad>": 0, "<unk>": 1}
for w, _ in Counter(toks).most_common():
    vocab.setdefault(w, len(vocab))
print(len(vocab), list(vocab.items())[:6])
print([vocab.get(t, 1) for t in re.findall(r"\w+", "The cat jumps over 42 dogs")])
