import torch


def step(x):
    return (x * 2).sum()


print(step(torch.ones(3)).item())
raise ValueError("the script fails after some tensor work")
