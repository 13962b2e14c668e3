# Classes: __init__, methods, class attributes, single inheritance, super(),
# @property, @staticmethod, __call__, __repr__/__str__, isinstance, getattr & co.
class Animal:
    kind = "animal"
    count = 0

    def __init__(self, name, sound="..."):
        self.name = name
        self.sound = sound
        Animal.count += 1

    def speak(self):
        return self.name + " says " + self.sound

    def describe(self):
        return "%s (%s)" % (self.name, self.kind)

    def __repr__(self):
        return "Animal(" + repr(self.name) + ")"


class Dog(Animal):
    kind = "dog"

    def __init__(self, name, tricks=None):
        super().__init__(name, "woof")
        self.tricks = tricks if tricks is not None else []

    def speak(self):
        return super().speak() + "!"

    def __str__(self):
        return "Dog named " + self.name


class Puppy(Dog):
    def speak(self):
        return "tiny " + super().speak()


a = Animal("cat", "meow")
d = Dog("rex", ["sit"])
p = Puppy("bit")
print(a.speak(), "|", d.speak(), "|", p.speak())
print(a.describe(), d.describe(), p.describe(), Animal.count, d.count)
print(repr(a), a, str(d), d, [a], [d])
print(isinstance(d, Animal), isinstance(a, Dog), isinstance(p, Dog), isinstance(3, int), isinstance(2.0, (int, float)))
print(type(d).__name__, type(d) is Dog, type(p) is Dog, Dog.kind, Puppy.kind)
print(hasattr(d, "tricks"), hasattr(a, "tricks"), getattr(a, "name"), getattr(a, "missing", "dflt"))
setattr(a, "age", 3)
print(a.age)
a.kind = "instance-level"
print(a.kind, Animal.kind)


class Temperature:
    def __init__(self, celsius):
        self._c = celsius

    @property
    def fahrenheit(self):
        return self._c * 9 / 5 + 32

    @property
    def celsius(self):
        return self._c

    @celsius.setter
    def celsius(self, v):
        self._c = v

    @staticmethod
    def convert(c):
        return c + 273.15

    def __call__(self, delta):
        self._c += delta
        return self


t = Temperature(100)
print(t.fahrenheit, t.celsius, Temperature.convert(0), t.convert(10))
t.celsius = 0
print(t.fahrenheit)
print(t(5).celsius, t(-10).fahrenheit)


class Vec:
    def __init__(self, x, y):
        self.x = x
        self.y = y

    def __add__(self, o):
        return Vec(self.x + o.x, self.y + o.y)

    def __mul__(self, k):
        return Vec(self.x * k, self.y * k)

    def __eq__(self, o):
        return self.x == o.x and self.y == o.y

    def __len__(self):
        return 2

    def __getitem__(self, i):
        return [self.x, self.y][i]

    def __repr__(self):
        return f"Vec({self.x}, {self.y})"


v = Vec(1, 2) + Vec(3, 4) * 2
print(v, v == Vec(7, 10), v == Vec(0, 0), len(v), v[0], v[-1])


class Stack:
    def __init__(self):
        self.items = []

    def push(self, x):
        self.items.append(x)
        return self

    def pop(self):
        return self.items.pop()


s = Stack().push(1).push(2)
print(s.pop(), s.items)
m = s.push
m(9)
print(s.items)
try:
    a.nonexistent
except AttributeError as e:
    print("AttributeError:", e)
