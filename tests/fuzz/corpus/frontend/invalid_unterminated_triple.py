x = """abc

