# Sampling tokens with torch.multinomial from probabilities computed in the
# graph. Random ops run at once, so the sampler reads the pending probabilities.
# The softmax is the only graph; the sample is not pending, so there is no
# second one.
# expect graphs: 1
# expect breaks: data_access@15
import torch

torch.manual_seed(11)


@torch.compile
def sample(logits, temperature):
    probs = torch.softmax(logits / temperature, dim=-1)
    return torch.multinomial(probs, 1)


logits = torch.tensor([[2.0, 1.0, 0.1], [0.1, 0.2, 3.0]])
print(sample(logits, 0.5).flatten())
