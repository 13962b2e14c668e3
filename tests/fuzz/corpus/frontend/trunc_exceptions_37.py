try:
    risky()
except ValueError as