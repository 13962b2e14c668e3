def f(*a, **k):
    return len(a), len(k)
print(f(*range(5000), **{f'k{i}': i for i in range(1000)}))
