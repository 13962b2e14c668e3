# torch.nn.parameter: where PyTorch defines Parameter and its lazy forms;
# scripts import them from here (`from torch.nn.parameter import Parameter`).
from torch.nn import Parameter, UninitializedBuffer, UninitializedParameter
