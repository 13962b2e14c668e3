# operator, heapq and bisect: the functions and their errors, as CPython's.
import operator
import heapq
import bisect
from operator import itemgetter, attrgetter, methodcaller


def show(f):
    try:
        print(f())
    except Exception as e:
        print(type(e).__name__ + ':', e)


print(operator.add(2, 3), operator.sub(2, 3), operator.mul('ab', 2), operator.truediv(7, 2))
print(operator.floordiv(-7, 2), operator.mod(-7, 2), operator.pow(2, 10), operator.neg(4), operator.pos(-1))
print(operator.abs(-2.5), operator.and_(6, 3), operator.or_(6, 3), operator.xor(6, 3), operator.invert(5))
print(operator.lshift(1, 4), operator.rshift(64, 2), operator.not_(0), operator.truth([]), operator.index(7))
print(operator.lt(1, 2), operator.le(2, 2), operator.eq(1, 1.0), operator.ne(1, 2), operator.gt(1, 2), operator.ge(3, 2))
print(operator.is_(None, None), operator.is_not(1, None), operator.contains([1, 2], 2), operator.concat([1], [2]))
print(operator.countOf([1, 2, 1], 1), operator.indexOf('abc', 'c'), operator.getitem({'a': 1}, 'a'))
d = {}
operator.setitem(d, 'k', 5)
print(d)
operator.delitem(d, 'k')
print(d, operator.iadd([1], [2]), operator.imul(3, 4))
show(lambda: operator.indexOf([1, 2], 5))
show(lambda: operator.concat(1, 2))
show(lambda: operator.truediv(1, 0))

rows = [('b', 2, 9.5), ('a', 3, 1.0), ('c', 1, 4.25)]
print(sorted(rows, key=itemgetter(1)))
print(sorted(rows, key=itemgetter(0)), itemgetter(0, 2)(rows[0]), itemgetter(slice(1, None))(rows[1]))
print(repr(itemgetter(1)), repr(itemgetter('a', 'b')))


class P:
    def __init__(self, name, inner=None):
        self.name = name
        self.inner = inner

    def greet(self, greeting, punct='!'):
        return greeting + ', ' + self.name + punct


p = P('ann', P('bob'))
print(attrgetter('name')(p), attrgetter('inner.name')(p), attrgetter('name', 'inner.name')(p))
print(repr(attrgetter('name', 'inner.name')))
show(lambda: attrgetter('missing')(p))
show(lambda: attrgetter(1))
print(methodcaller('greet', 'hi')(p), methodcaller('greet', 'yo', punct='?')(p))
print(repr(methodcaller('greet', 'yo', punct='?')), methodcaller('upper')('abc'))
show(lambda: itemgetter(5)([1, 2]))

h = []
for x in [5, 1, 8, 3, 9, 2, 7]:
    heapq.heappush(h, x)
print(h, h[0])
print([heapq.heappop(h) for _ in range(3)], h)
data = [9, 4, 7, 1, 8, 2, 6, 3, 5, 0]
heapq.heapify(data)
print(data)
print(heapq.heappushpop(data, -1), heapq.heappushpop(data, 10), data)
print(heapq.heapreplace(data, 4), data)
print(heapq.nlargest(3, [5, 1, 8, 3, 9]), heapq.nsmallest(2, [5, 1, 8, 3, 9]))
words = ['pear', 'fig', 'banana', 'kiwi', 'apple']
print(heapq.nlargest(2, words, key=len), heapq.nsmallest(3, words, key=len))
tasks = []
heapq.heappush(tasks, (2, 'write'))
heapq.heappush(tasks, (1, 'read'))
heapq.heappush(tasks, (3, 'sleep'))
heapq.heappush(tasks, (1, 'eat'))
print([heapq.heappop(tasks) for _ in range(len(tasks))])
print(list(heapq.merge([1, 4, 7], [2, 5, 8], [3, 6])))
show(lambda: heapq.heappop([]))
show(lambda: heapq.heapreplace([], 1))
show(lambda: heapq.heappush((1,), 2))

a = [1, 2, 4, 4, 4, 7, 9]
print(bisect.bisect_left(a, 4), bisect.bisect_right(a, 4), bisect.bisect(a, 4), bisect.bisect(a, 0), bisect.bisect(a, 10))
print(bisect.bisect_left(a, 4, 3), bisect.bisect_right(a, 4, 0, 3), bisect.bisect_left(a, 5, lo=2, hi=6))
b = list(a)
bisect.insort(b, 5)
bisect.insort_left(b, 4)
bisect.insort_right(b, 0)
print(b)
recs = [('a', 1), ('b', 3), ('c', 5)]
print(bisect.bisect_left(recs, 3, key=itemgetter(1)), bisect.bisect_right(recs, 3, key=itemgetter(1)))
bisect.insort(recs, ('d', 4), key=itemgetter(1))
bisect.insort_left(recs, ('e', 3), key=itemgetter(1))
print(recs)
grades = 'FDCBA'
print([grades[bisect.bisect([60, 70, 80, 90], s)] for s in [33, 99, 77, 70, 89, 90, 100]])
show(lambda: bisect.bisect_left(a, 1, -1))
