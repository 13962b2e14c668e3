# A predicted class id used to index a Python list: the 0-d integer tensor
# becomes a Python int (__index__), which reads its value like .item().
# Both calls: the head and argmax are one graph (same graph, 2 runs), then the
# list index reads the argmax.
# expect graphs: 1
# expect breaks: item@18 x2
# expect region: compiled predict
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
