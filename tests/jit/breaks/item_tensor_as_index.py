# A predicted class id used to index a Python list: the 0-d integer tensor
# becomes a Python int (__index__), which reads its value like .item().
# expect graphs: 0
# expect breaks: none
import torch

torch.manual_seed(3)
classes = ["cat", "dog", "bird", "fish"]
head = torch.nn.Linear(5, 4)


@torch.compile
def predict(features):
    logits = head(features)
    return classes[logits.argmax()]


with torch.no_grad():
    print(predict(torch.randn(5)))
    print(predict(torch.randn(5)))
