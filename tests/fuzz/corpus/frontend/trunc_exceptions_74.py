try:
    risky()
except ValueError as e:
    print(e)
except (TypeError, K