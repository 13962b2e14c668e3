class E(Exception):
    def __str__(self):
        raise ValueError('str failed')
raise E()
