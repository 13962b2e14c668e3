# bytes: literals, the type's sequence behaviour, encode/decode, hex, int conversions.
b = b"AB\x01\n\t\\'q"
print(b, len(b), b[0], b[-1], b[1:3], b[::-1], list(b"hi"))
print(repr(b'"'), repr(b"'"), repr(b"'\""), b"", bytes(), bytes(3), bytes([65, 66, 255]))
print(b"ab" + b"cd", b"ab" * 3, 2 * b"x", b"b" in b"abc", 98 in b"abc", b"x" in b"abc")
print(b"ab" == b"ab", b"ab" == "ab", b"ab" < b"b", hash(b"ab") == hash(b"a" + b"b"))
print({b"k": 1}[b"k"], type(b).__name__, isinstance(b, bytes), bytes(b"xy"), bool(b""))
print(rb"\n", len(rb"\n"), b"\x00\x7f\x80\xff", b"a" b"c")
print("héllo".encode(), "héllo".encode("utf-8"), "abc".encode("ascii"), "é".encode("latin-1"))
print(b"h\xc3\xa9".decode(), b"abc".decode("ascii"), b"\xe9".decode("latin-1"), str(b"x", "utf-8"))
print(b"\x01\xab".hex(), bytes.fromhex("01ab ff"), b"".hex())
print(int.from_bytes(b"\x01\x00", "little"), int.from_bytes(b"\x01\x00", "big"))
print(int.from_bytes(b"\xff\xfe", "big", signed=True), int.from_bytes([1, 2], byteorder="little"))
print((1024).to_bytes(2, "big"), (1024).to_bytes(4, "little"), (-2).to_bytes(2, "big", signed=True))
print([c for c in b"ok"], b"a,b".split(b","), b" x ".strip(), b"abc".startswith(b"ab"), b"AbC".upper())
print(b"abcb".count(b"b"), b"abcb".find(b"c"), b"-".join([b"a", b"b"]), b"abc".replace(b"b", b"X"))
print(str(b"q"), f"{b'z'}", bytes("hé", "utf-8"), b"%d" if False else b"ok")
for bad in [lambda: "é".encode("ascii"), lambda: b"\xff".decode(), lambda: b"\xe9".decode("ascii"),
            lambda: bytes([256]), lambda: b"a" + "b", lambda: b"x"[5], lambda: bytes.fromhex("zz"),
            lambda: (256).to_bytes(1, "big"), lambda: (-1).to_bytes(1, "big"), lambda: "x".encode("bogus"),
            lambda: bytes("x"), lambda: b"ab".decode("utf-8", "strict")[5]]:
    try:
        print(bad())
    except Exception as e:
        print(type(e).__name__, e)
# codec errors, more methods, int conversions
for b in [b"\xe2\x28\xa1", b"\xe2\x82", b"a\xe2", b"\xed\xa0\x80", b"\xc0\xaf", b"\xf0\x90\x80", b"\xe0\x80\x80", b"\x80\x80", b"\xf0\x9f\x98\x80x"]:
    try: print(b.decode())
    except Exception as e: print(type(e).__name__, e)
    print([hex(ord(c)) for c in b.decode("utf-8", "replace")], b.decode("utf-8", "ignore"))
for s, enc in [("aé€x", "ascii"), ("€€", "latin-1"), ("a😀", "ascii"), ("ÿ", "latin1")]:
    try: print(s.encode(enc))
    except Exception as e: print(type(e).__name__, e)
print("é€".encode("ascii", "replace"), "é€".encode("ascii", "ignore"), "😀".encode())
print(repr(b"\x7f\x80 ~\r"), bytes(range(3)), max(b"abc"), sum(b"ab"), sorted([b"b", b"a", b"ab"]))
print(len({b"a", b"a", b"b"}), type(b""), b"ab"[::-1], bytes.split(b"a b"), bytes.upper(b"q"))
print(bytes.fromhex(" 01 "), int.from_bytes(b""), (5).to_bytes(), (0).to_bytes(0, "big"), (-1).to_bytes(3, "little", signed=True))
print(int.from_bytes(b"\xff" * 8, "big", signed=True), int.from_bytes(b"\x00" * 10 + b"\x05", "big"), (127).to_bytes(1, "big", signed=True))
print(b"abc".index(b"c"), b"a.b.c".rsplit(b".", 1), b"x".center(5, b"*"), b"%s" if 0 else b"Title me".title(), b"  a\n".splitlines())
print(b"abc".endswith((b"x", b"c")), b"abc".partition(b"b"), b"a\xffb".find(b"b"), b"\xff\xfe".hex(), b"AB".lower())
print("x=%s" % b"q", "{}".format(b"r"), str(b"\xff"))
for bad in [lambda: bytes.fromhex("0"), lambda: bytes.fromhex("0 1"), lambda: b"a" < "a", lambda: "a" in b"a",
            lambda: 300 in b"a", lambda: b"a"[str("x")], lambda: (1).to_bytes(1, "mid"), lambda: b"a" * 1.5,
            lambda: "a" + b"a", lambda: bytes(-1), lambda: bytes(1.5), lambda: b"a".split("a"), lambda: bytes(["a"]),
            lambda: b"abc".index(b"z"), lambda: bytes("a", encoding="x"), lambda: b"a".nope, lambda: bytes.upper("a"),
            lambda: (1).to_bytes(-1, "big"), lambda: (128).to_bytes(1, "big", signed=True), lambda: bytes(None)]:
    try: print(bad())
    except Exception as e: print(type(e).__name__, e)
print(list(reversed(b"abc")), bytes(reversed(b"xy")))
