# Closures with cells, nonlocal, global, late binding.
def make_counter():
    count = 0
    def inc(step=1):
        nonlocal count
        count += step
        return count
    return inc
c1 = make_counter()
c2 = make_counter()
print(c1(), c1(), c1(5), c2())
def make_adders():
    return [lambda x, i=i: x + i for i in range(3)]
print([f(10) for f in make_adders()])
late = [lambda: i for i in range(3)]
print([f() for f in late])
def outer():
    x = "outer"
    def middle():
        def inner():
            return x
        return inner()
    x = "changed"
    return middle()
print(outer())
total = 0
def add_to_total(v):
    global total
    total += v
add_to_total(5)
add_to_total(7)
print(total)
def read_global():
    return total * 2
print(read_global())
def set_new_global():
    global created
    created = "made inside"
set_new_global()
print(created)
def accumulator():
    items = []
    def add(v):
        items.append(v)
        return len(items)
    def get():
        return items
    return add, get
add, get = accumulator()
add(1)
add("two")
print(get())
def compose(f, g):
    return lambda x: f(g(x))
inc_then_double = compose(lambda x: x * 2, lambda x: x + 1)
print(inc_then_double(5))
def unbound():
    def inner():
        return y
    try:
        inner()
    except NameError as e:
        print("NameError:", e)
    y = 1
    return inner()
print(unbound())
try:
    print(undefined_name)
except NameError as e:
    print("NameError:", e)
