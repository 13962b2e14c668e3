# torch.nn.init as an importable module (`import torch.nn.init as init`): the
# initializers live on nn's _Init class, whose static methods are plain
# functions here, so both spellings draw the same numbers.
from torch.nn import _Init as _impl

calculate_gain = _impl.calculate_gain
_calculate_fan_in_and_fan_out = _impl._calculate_fan_in_and_fan_out
uniform_ = _impl.uniform_
normal_ = _impl.normal_
constant_ = _impl.constant_
zeros_ = _impl.zeros_
ones_ = _impl.ones_
xavier_uniform_ = _impl.xavier_uniform_
xavier_normal_ = _impl.xavier_normal_
kaiming_uniform_ = _impl.kaiming_uniform_
kaiming_normal_ = _impl.kaiming_normal_
trunc_normal_ = _impl.trunc_normal_
orthogonal_ = _impl.orthogonal_
eye_ = _impl.eye_
dirac_ = _impl.dirac_
