#!/usr/bin/env python3
"""Writes the .kilntrace reader's fuzz corpus into corpus/.

An independent encoder of the protocol in traces/protocol.h (written from the
spec, not from the C++), so the valid files also check that the C++ reader
accepts what the spec describes. File name prefixes say what the reader must
do, and reader_fuzz_test.cpp checks it:
  valid_*  read to END without error
  bad_*    rejected with TraceError (one broken rule each)
  huge_*   rejected with TraceError (lengths and counts far past the data)
  trunc_*  rejected with TraceError (a valid file cut short)
  flip_*   either, but never a crash (a valid file with flipped bits)
Deterministic: rerunning rewrites the same files.
"""
import os
import random
import shutil
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "corpus")

MAGIC = b"KILNTRC1"
VERSION = 1
HELLO, STRINGS, EVENTS, DROPPED, END = 1, 2, 3, 4, 5
N_KINDS, N_CATEGORIES = 9, 7
EVENT = struct.Struct("<BBHIqqIIiiQQQQQdIII")  # the 100-byte event record
assert EVENT.size == 100


def s(text):
    b = text.encode() if isinstance(text, str) else text
    return struct.pack("<I", len(b)) + b


def frame(ftype, payload):
    return struct.pack("<BI", ftype, len(payload)) + payload


def hello(script="train.py", argv=("kiln", "run", "train.py"), version=VERSION,
          kiln_version="0.1.0", source="import torch\nx = torch.ones(3)\n",
          start=1732900000000000000):
    p = struct.pack("<Hq", version, start) + s(script) + s(kiln_version)
    p += struct.pack("<I", len(argv)) + b"".join(s(a) for a in argv) + s(source)
    return frame(HELLO, p)


def strings(first_id, texts):
    return frame(STRINGS, struct.pack("<II", first_id, len(texts)) + b"".join(s(t) for t in texts))


def event(kind=0, cat=0, device=0, tid=1, ts=0, dur=0, name=0, file=0, line=0, col=0,
          graph=0, flow=0, a=0, b=0, c=0, value=0.0, text=0, detail=0, stack=0):
    return EVENT.pack(kind, cat, device, tid, ts, dur, name, file, line, col,
                      graph, flow, a, b, c, value, text, detail, stack)


def events(records):
    return frame(EVENTS, struct.pack("<I", len(records)) + b"".join(records))


def dropped(total):
    return frame(DROPPED, struct.pack("<Q", total))


def end():
    return frame(END, b"")


def session(*frames, closed=True):
    return MAGIC + hello() + b"".join(frames) + (end() if closed else b"")


def sample_events(rng, n, defined):
    out = []
    for i in range(n):
        ids = [rng.randrange(defined) for _ in range(5)]
        out.append(event(kind=i % N_KINDS, cat=i % N_CATEGORIES, device=rng.randrange(3),
                         tid=rng.randrange(1, 5), ts=i * 1000, dur=rng.randrange(10**6),
                         name=ids[0], file=ids[1], line=rng.randrange(1, 500),
                         col=rng.randrange(80), graph=rng.randrange(4), flow=rng.randrange(3),
                         a=rng.randrange(2**64), b=rng.randrange(2**40), c=rng.randrange(2**20),
                         value=rng.uniform(-1e9, 1e9), text=ids[2], detail=ids[3],
                         stack=ids[4]))
    return out


def valid_files(rng):
    names = ["", "forward", "matmul", "model.py", "graph break: print()", "x.shape == (3, 4)"]
    texts = names[1:]
    rich = session(
        strings(1, texts),
        events(sample_events(rng, 40, len(names))),
        dropped(3),
        strings(len(names), ["relu", "caf\u00e9 \u2713"]),
        events(sample_events(rng, 25, len(names) + 2)),
        dropped(10),
        events([]),
        strings(len(names) + 2, []))
    many = [strings(1, [f"s{i}" for i in range(1, 200)])]
    many += [events(sample_events(rng, 10, 200)) for _ in range(5)]
    return {
        "valid_minimal": session(),
        "valid_events": rich,
        "valid_many_frames": session(*many),
        "valid_no_argv": MAGIC + hello(argv=(), source="", script="") + end(),
        "valid_binary_strings": MAGIC + hello(source=bytes(range(256))) +
                                strings(1, [b"\x00\xff", b""]) +
                                events([event(name=1, text=2)]) + end(),
        "valid_extremes": session(strings(1, ["n"]), events([event(
            kind=N_KINDS - 1, cat=N_CATEGORIES - 1, device=0xFFFF, tid=0xFFFFFFFF,
            ts=-2**63, dur=2**63 - 1, name=1, line=-2**31, col=2**31 - 1, graph=2**64 - 1,
            flow=2**64 - 1, a=2**64 - 1, b=2**64 - 1, c=2**64 - 1, value=float("nan"),
            text=1, detail=1, stack=1)])),
        "valid_big_source": MAGIC + hello(source="x = 1\n" * 20000) + end(),
        "valid_dropped_only": session(dropped(0), dropped(2**64 - 1)),
    }


def bad_files():
    head = MAGIC + hello()
    return {
        "bad_empty": b"",
        "bad_magic": b"KILNTRC2" + hello() + end(),
        "bad_json": b'{"traceEvents": []}',
        "bad_magic_prefix": b"KIL",
        "bad_version_0": MAGIC + hello(version=0) + end(),
        "bad_version_2": MAGIC + hello(version=2) + end(),
        "bad_version_ffff": MAGIC + hello(version=0xFFFF) + end(),
        "bad_frame_type_0": head + frame(0, b"") + end(),
        "bad_frame_type_6": head + frame(6, b"abc") + end(),
        "bad_frame_type_ff": head + frame(255, b"") + end(),
        "bad_event_kind": head + events([event(kind=N_KINDS)]) + end(),
        "bad_event_category": head + events([event(cat=N_CATEGORIES)]) + end(),
        "bad_undefined_name": head + events([event(name=1)]) + end(),
        "bad_undefined_file": head + strings(1, ["a"]) + events([event(file=2)]) + end(),
        "bad_undefined_text": head + events([event(text=0xFFFFFFFF)]) + end(),
        "bad_undefined_detail": head + events([event(detail=7)]) + end(),
        "bad_undefined_stack": head + events([event(stack=3)]) + end(),
        "bad_strings_gap": head + strings(2, ["a"]) + end(),
        "bad_strings_redefine": head + strings(1, ["a"]) + strings(1, ["b"]) + end(),
        "bad_strings_id0": head + strings(0, ["x"]) + end(),
        "bad_events_before_hello": MAGIC + events([event()]) + end(),
        "bad_end_before_hello": MAGIC + end(),
        "bad_two_hellos": head + hello() + end(),
        "bad_after_end": head + end() + dropped(1),
        "bad_garbage_after_end": head + end() + b"\x00",
        "bad_end_payload": head + frame(END, b"x"),
        "bad_dropped_short": head + frame(DROPPED, b"\x01\x02\x03") + end(),
        "bad_dropped_long": head + frame(DROPPED, b"\x00" * 9) + end(),
        "bad_events_count_low": head + frame(EVENTS, struct.pack("<I", 0) + event()) + end(),
        "bad_events_partial_record":
            head + frame(EVENTS, struct.pack("<I", 1) + event()[:99]) + end(),
        "bad_hello_trailing": MAGIC + frame(HELLO, hello()[5:] + b"!") + end(),
        "bad_no_end": head,
        "bad_header_only": MAGIC,
    }


def huge_files():
    head = MAGIC + hello()
    hp = hello()[5:]  # the HELLO payload
    out = {}
    for t in (HELLO, STRINGS, EVENTS, DROPPED, END):
        out[f"huge_frame_len_type{t}"] = head + struct.pack("<BI", t, 0xFFFFFFFF)
    out["huge_frame_16mib_plus_1"] = (head + struct.pack("<BI", EVENTS, (16 << 20) + 1) +
                                      b"\x00" * 64)
    start = struct.pack("<Hq", 1, 0) + s("a") + s("b")  # version, time, script, kiln_version
    out["huge_hello_script_len"] = MAGIC + frame(HELLO, hp[:10] + struct.pack("<I", 0xFFFFFFF0) +
                                                 hp[14:])
    out["huge_hello_argc"] = MAGIC + frame(HELLO, start + struct.pack("<I", 0x7FFFFFFF)) + end()
    out["huge_hello_source_len"] = MAGIC + frame(HELLO, start + struct.pack("<II", 0, 2**31))
    out["huge_strings_count"] = head + frame(STRINGS, struct.pack("<II", 1, 0xFFFFFFFF)) + end()
    out["huge_string_len"] = head + frame(STRINGS, struct.pack("<III", 1, 1, 0xFFFFFFFF) +
                                          b"abc") + end()
    out["huge_events_count"] = head + frame(EVENTS, struct.pack("<I", 0xFFFFFFFF) +
                                            event()) + end()
    out["huge_events_count_overflow"] = head + frame(EVENTS, struct.pack("<I", 0x028F5C29)) + end()
    return out


def derived_files(rng, base):
    out = {}
    # Truncations: every early byte (header and handshake), then spread out.
    cuts = sorted(set(list(range(0, 24)) + [rng.randrange(len(base)) for _ in range(24)] +
                      [len(base) - 1, len(base) - 5]))
    for cut in cuts:
        out[f"trunc_{cut:05d}"] = base[:cut]
    # Bit flips: one to eight bits anywhere, the frame headers included.
    for i in range(48):
        b = bytearray(base)
        for _ in range(1 + i % 8):
            b[rng.randrange(len(b))] ^= 1 << rng.randrange(8)
        out[f"flip_{i:02d}"] = bytes(b)
    return out


def main():
    rng = random.Random(4)
    files = valid_files(rng)
    files.update(bad_files())
    files.update(huge_files())
    files.update(derived_files(rng, files["valid_events"]))
    if os.path.isdir(OUT):
        shutil.rmtree(OUT)
    os.makedirs(OUT)
    for name, data in sorted(files.items()):
        with open(os.path.join(OUT, name + ".kilntrace"), "wb") as f:
            f.write(data)
    print(f"wrote {len(files)} files to {OUT}")


if __name__ == "__main__":
    main()
