try:
    raise ValueError('x')
except ValueError as e:
    e.self = e
    err = e
print(err.self.self)
