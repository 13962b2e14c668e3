e = ValueError()
e.args = (e,)
print(e)
raise e
