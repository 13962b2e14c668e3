# if/elif/else, while, for with break/continue/else, pass.
def classify(n):
    if n < 0:
        return "neg"
    elif n == 0:
        return "zero"
    elif n < 10:
        return "small"
    else:
        return "big"
print([classify(v) for v in [-5, 0, 3, 42]])
i = 0
total = 0
while i < 10:
    i += 1
    if i % 2 == 0:
        continue
    if i > 7:
        break
    total += i
print(i, total)
for n in range(2, 20):
    for d in range(2, n):
        if n % d == 0:
            break
    else:
        print(n, "is prime")
k = 0
while k < 3:
    k += 1
else:
    print("while-else ran", k)
while True:
    k -= 1
    if k == 0:
        break
else:
    print("not printed")
for _ in []:
    pass
else:
    print("empty for-else")
for x in [1, 2, 3]:
    pass
print(x)
count = 0
for a in range(3):
    for b in range(3):
        if b > a:
            break
        count += 1
print(count)
if not []:
    print("empty list is falsy")
if 0:
    pass
elif None:
    pass
else:
    print("else branch")
for i, ch in enumerate("ab", start=1):
    print(i, ch)
for a, b in zip(range(3), reversed(range(3))):
    print(a, b, end=" ")
print()
for key in {"x": 1, "y": 2}:
    print(key, end=";")
print("", sep="")
print("a", "b", sep="-")
