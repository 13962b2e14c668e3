# Regenerates the category table in core/lang/prelude/_unicode_categories.py from
# the running CPython's unicodedata (Kiln follows CPython 3.11: Unicode
# 14.0.0). Run with that Python: python3.11 scripts/gen_unicodedata.py
# The table is run-length encoded: consecutive code points with one category
# form a run; _RUN_CATS holds one letter per run (its place in the alphabet
# indexes _CATEGORIES)
# and _RUN_LENGTHS the runs' lengths.
import sys
import unicodedata

runs = []
for cp in range(sys.maxunicode + 1):
    cat = unicodedata.category(chr(cp))
    if runs and runs[-1][0] == cat:
        runs[-1][1] += 1
    else:
        runs.append([cat, 1])
cats = sorted({c for c, _ in runs})
ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefgh'  # no quote or backslash
letters = ''.join(ALPHABET[cats.index(c)] for c, _ in runs)
lengths = ','.join(str(n) for _, n in runs)
print(f"_UNIDATA_VERSION = '{unicodedata.unidata_version}'")
print(f"_CATEGORIES = {cats!r}")
print('_RUN_CATS = (')
for i in range(0, len(letters), 96):
    print(f"    '{letters[i:i + 96]}'")
print(')')
print('_RUN_LENGTHS = (')
chunk = []
for part in lengths.split(','):
    chunk.append(part)
    if len(','.join(chunk)) > 90:
        print(f"    '{','.join(chunk)},'")
        chunk = []
print(f"    '{','.join(chunk)}'")
print(')')
