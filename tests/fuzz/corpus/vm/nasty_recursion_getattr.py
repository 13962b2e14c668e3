class A:
    @property
    def x(self):
        return self.x
A().x
