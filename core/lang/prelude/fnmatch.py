# fnmatch: Unix shell-style wildcards (*, ?, [seq], [!seq]) as CPython's
# module matches them; on POSIX, names compare case-sensitively. Patterns
# are matched directly rather than through a translated regular expression
# (so there is no translate()).

import os

__all__ = ["filter", "fnmatch", "fnmatchcase"]


def fnmatch(name, pat):
    name = os.path.normcase(name)
    pat = os.path.normcase(pat)
    return fnmatchcase(name, pat)


def filter(names, pat):
    pat = os.path.normcase(pat)
    return [name for name in names if fnmatchcase(os.path.normcase(name), pat)]


# The pattern as a list of tokens: a literal character, '*', '?', or a
# (negated, chars, ranges) set; an unclosed '[' is a literal, as in CPython.
def _compile(pat):
    tokens = []
    i, n = 0, len(pat)
    while i < n:
        c = pat[i]
        i += 1
        if c == '*':
            if not tokens or tokens[-1] != '*':
                tokens.append('*')
        elif c == '?':
            tokens.append('?')
        elif c == '[':
            j = i
            if j < n and pat[j] == '!':
                j += 1
            if j < n and pat[j] == ']':
                j += 1
            while j < n and pat[j] != ']':
                j += 1
            if j >= n:
                tokens.append(('lit', '['))
                continue
            body = pat[i:j]
            i = j + 1
            negated = body.startswith('!')
            if negated:
                body = body[1:]
            ranges = []
            k = 0
            while k < len(body):
                if k + 2 < len(body) and body[k + 1] == '-':
                    ranges.append((body[k], body[k + 2]))
                    k += 3
                else:
                    ranges.append((body[k], body[k]))
                    k += 1
            tokens.append(('set', negated, ranges))
        else:
            tokens.append(('lit', c))
    return tokens


def _token_matches(tok, ch):
    if tok == '?':
        return True
    if tok[0] == 'lit':
        return tok[1] == ch
    hit = any(lo <= ch <= hi for lo, hi in tok[2])
    return hit != tok[1]


_cache = {}


def fnmatchcase(name, pat):
    tokens = _cache.get(pat)
    if tokens is None:
        tokens = _cache[pat] = _compile(pat)
    # Greedy matching with backtracking to the last '*'.
    t = s = 0
    star_t, star_s = -1, 0
    while s < len(name):
        if t < len(tokens) and tokens[t] != '*' and _token_matches(tokens[t], name[s]):
            t += 1
            s += 1
        elif t < len(tokens) and tokens[t] == '*':
            star_t, star_s = t, s
            t += 1
        elif star_t >= 0:
            t = star_t + 1
            star_s += 1
            s = star_s
        else:
            return False
    while t < len(tokens) and tokens[t] == '*':
        t += 1
    return t == len(tokens)
