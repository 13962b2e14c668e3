total = 1 + \
        2 + \
        3
items = [
    1,
    2,  # comment
    3,
]
call(a,
     b,
     c=3)
# trailing comment
if (a and
        b):
    pass
x = {
    'k': [1, (2,
              3)],
}
