import torch
class E:
    def __eq__(self, o):
        return torch.ones(3)
print(E() in [1])
