# str: indexing, slicing, methods that model code uses, concatenation.
s = "  Hello, World  "
t = s.strip()
print(repr(t), len(t), t[0], t[-1], t[1:5], t[::-1], t[::2], t[7:], t[:-7])
print(t.upper(), t.lower(), t.startswith("Hell"), t.endswith("!"), t.replace("l", "L"), t.replace("l", "", 1))
print(t.split(", "), "a b  c".split(), "a,b,,c".split(","), "1 2 3".split(" ", 1))
print("-".join(["x", "y", "z"]), "".join(["a", "b"]), ", ".join([str(i) for i in range(4)]))
print("  pad ".lstrip(), "|" + " pad  ".rstrip() + "|", "xxhixx".strip("x"))
print("abc" + "def", "ab" * 3, 3 * "-", "a" in "cat", "abc".find("c"), "abc".find("z"), "banana".count("a"))
print("hello".index("l"), "a1".isdigit(), "12".isdigit())
print(ord("A"), chr(97), chr(ord("a") + 1), [ord(ch) for ch in "hey"])
words = "the quick brown fox".split()
print(words, len(words), sorted(words), max(words), min(words, key=len))
print("line1\nline2", "tab\tsep", "back\\slash", 'single "double"', "esc \x41 \u00e9")
print("%s=%d" % ("n", 5), "{}-{}".format(1, 2), "{0}{1}{0}".format("a", "b"), "{name}!".format(name="hi"))
print("abc" == "abc", "abc" != "abd", "b" > "a", "A".lower() == "a")
c = 0
for ch in "hello":
    c += 1
print(c, list("abc"), tuple("ab"))
print("x=" + str(3) + ", y=" + str(4.5))

# Character classes and case over non-ASCII letters, digits and spaces.
for w in ["Émile", "ÉCOLE", "straße", "Δέλτα", "привет", "日本語", "١٢٣", "x²", "½", "\u00a0\u3000", "\x1c", "ªº", "a1é", ""]:
    print(repr(w), w.isalpha(), w.isalnum(), w.isdigit(), w.isdecimal(), w.isnumeric(), w.isspace(), w.isupper(), w.islower())
print("émile ça vA-bien ÀÉÎ δέλτα".title(), "éCOLE".capitalize(), "ÉcoLe Δέλτα".swapcase())
