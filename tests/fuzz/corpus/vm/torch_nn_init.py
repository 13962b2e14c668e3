import torch
import torch.nn as nn
torch.manual_seed(0)
w = torch.empty(3, 4)
for f in [nn.init.uniform_, nn.init.normal_, nn.init.zeros_, nn.init.ones_, nn.init.xavier_uniform_, nn.init.xavier_normal_,
          nn.init.kaiming_uniform_, nn.init.kaiming_normal_]:
    print(f(w).shape)
print(nn.init.constant_(w, 0.5)[0], nn.init.calculate_gain('relu'), nn.init.calculate_gain('leaky_relu', 0.2))
for f in [lambda: nn.init.xavier_uniform_(torch.empty(3)), lambda: nn.init.calculate_gain('bogus'), lambda: nn.init.kaiming_uniform_(torch.empty(0, 0))]:
    try:
        print(f())
    except Exception as e:
        print(type(e).__name__)
