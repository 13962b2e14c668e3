import torch
import torch.nn as nn
torch.manual_seed(0)
w = torch.empty(3, 4)
for f in [nn.init.uniform_, nn.init.normal_, nn.init.zeros_, nn.init.ones_, nn.init.xavier_uniform_, nn.init.xavier_normal_,
          nn.init.kaiming_un