# sorted / list.sort with key= and reverse=, stability, sorting tuples and strings.
people = [("bob", 25), ("alice", 30), ("carol", 25), ("dave", 20), ("eve", 30)]
print(sorted(people))
print(sorted(people, key=lambda p: p[1]))
print(sorted(people, key=lambda p: p[1], reverse=True))
print(sorted(people, key=lambda p: (-p[1], p[0])))
print([name for name, _ in sorted(people, key=lambda p: len(p[0]))])
words = ["banana", "Apple", "cherry", "apple", "Banana"]
print(sorted(words), sorted(words, key=lambda w: w.lower()), sorted(words, key=len, reverse=True))
nums = [3.5, -1, 2, -7.25, 0, 2]
nums.sort()
print(nums)
nums.sort(key=abs)
print(nums)
nums.sort(key=lambda v: -v, reverse=True)
print(nums)
print(sorted(range(10), key=lambda i: i % 3))
print(sorted("kiln"), sorted([[2, 1], [1, 2], [1]]), sorted([True, False, 0, 1]))
d = {"x": 3, "y": 1, "z": 2}
print(sorted(d, key=lambda k: d[k]), sorted(d.values()), sorted(d.items(), key=lambda kv: -kv[1]))
print(max(people, key=lambda p: p[1]), min(people, key=lambda p: p[1]))
try:
    sorted([1, "a"])
except TypeError as e:
    print("TypeError:", e)
