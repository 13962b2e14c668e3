name = "kiln"
width = 10
print(f"hello {na 'k': [1, (2,
              3)],
}
