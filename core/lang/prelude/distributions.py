# torch.distributions: Normal, Categorical, Bernoulli, Uniform, Exponential,
# Gamma, Dirichlet and Beta with PyTorch's sampling calls (so a seeded script draws
# PyTorch's samples), log_prob, entropy, moments, the reparameterized
# rsample, and kl_divergence for Normal and Categorical pairs.
import math

import torch
import torch.nn.functional as F


def _shape_of(values):
    shape = []
    for v in values:
        dims = list(v.shape)
        while len(shape) < len(dims):
            shape.insert(0, 1)
        dims = [1] * (len(shape) - len(dims)) + dims
        out = []
        for a, b in zip(shape, dims):
            if a != b and a != 1 and b != 1:
                raise RuntimeError('The size of tensor a ({}) must match the size of tensor b ({})'.format(a, b))
            out.append(max(a, b))
        shape = out
    return shape


# PyTorch's broadcast_all: numbers become tensors of the first tensor's dtype
# (or the default dtype), then everything is broadcast to one shape.
def _broadcast_all(*values):
    dtype = torch.get_default_dtype()
    for v in values:
        if isinstance(v, torch.Tensor):
            dtype = v.dtype
            break
    tensors = [v if isinstance(v, torch.Tensor) else torch.tensor(v, dtype=dtype) for v in values]
    shape = _shape_of(tensors)
    return [t.expand(shape) for t in tensors]


def _size(shape):
    return torch.Size(list(shape))


def _param_repr(t):
    return str(t.item()) if t.numel() == 1 else str(t.size())


class Distribution:
    has_rsample = False

    def __init__(self, batch_shape=(), event_shape=(), validate_args=None):
        self._batch_shape = _size(batch_shape)
        self._event_shape = _size(event_shape)

    @property
    def batch_shape(self):
        return self._batch_shape

    @property
    def event_shape(self):
        return self._event_shape

    def _extended_shape(self, sample_shape=()):
        return _size(list(sample_shape) + list(self._batch_shape) + list(self._event_shape))

    def sample(self, sample_shape=()):
        with torch.no_grad():
            return self.rsample(sample_shape)

    def rsample(self, sample_shape=()):
        raise NotImplementedError(type(self).__name__ + ' does not implement rsample')

    def sample_n(self, n):
        return self.sample((n,))

    @property
    def stddev(self):
        return self.variance.sqrt()

    def perplexity(self):
        return torch.exp(self.entropy())

    # PyTorch lists the parameters computed so far (probs and logits derive
    # from each other lazily), so this prints what has been set or read.
    def __repr__(self):
        shown = [name for name in self._param_names
                 if not hasattr(self, '_' + name) or getattr(self, '_' + name) is not None]
        args = ', '.join('{}: {}'.format(name, _param_repr(getattr(self, name))) for name in shown)
        return type(self).__name__ + '(' + args + ')'


# probs and logits of a discrete distribution: the one given at construction,
# and the other computed on first use and kept, as PyTorch's lazy_property.
class _ProbsOrLogits(Distribution):
    @property
    def probs(self):
        if self._probs is None:
            self._probs = self._to_probs(self._logits)
        return self._probs

    @property
    def logits(self):
        if self._logits is None:
            self._logits = self._to_logits(self._probs)
        return self._logits


class Normal(Distribution):
    has_rsample = True
    _param_names = ('loc', 'scale')

    def __init__(self, loc, scale, validate_args=None):
        self.loc, self.scale = _broadcast_all(loc, scale)
        if validate_args is not False and not bool((self.scale > 0).all()):
            raise ValueError('Expected parameter scale of distribution Normal to satisfy the constraint '
                             'GreaterThan(lower_bound=0.0), but found invalid values:\n' + str(self.scale))
        super().__init__(self.loc.shape)

    @property
    def mean(self):
        return self.loc

    @property
    def mode(self):
        return self.loc

    @property
    def variance(self):
        return self.scale.pow(2)

    @property
    def stddev(self):
        return self.scale

    def sample(self, sample_shape=()):
        shape = self._extended_shape(sample_shape)
        with torch.no_grad():
            return torch.normal(self.loc.expand(shape), self.scale.expand(shape))

    def rsample(self, sample_shape=()):
        shape = self._extended_shape(sample_shape)
        eps = torch.empty(list(shape), dtype=self.loc.dtype).normal_()
        return self.loc + eps * self.scale

    def log_prob(self, value):
        var = self.scale ** 2
        log_scale = self.scale.log()
        return -((value - self.loc) ** 2) / (2 * var) - log_scale - math.log(math.sqrt(2 * math.pi))

    def cdf(self, value):
        return 0.5 * (1 + torch.erf((value - self.loc) / self.scale / math.sqrt(2)))

    def entropy(self):
        return 0.5 + 0.5 * math.log(2 * math.pi) + torch.log(self.scale)


# PyTorch validates a log_prob's value against the distribution's support.
def _check_support(dist, value, ok, support):
    if not ok:
        raise ValueError('Expected value argument (Tensor of shape {}) to be within the support ({}) of the '
                         'distribution {}, but found invalid values:\n{}'.format(tuple(value.shape), support, dist,
                                                                               value))


def _clamp_probs(probs):
    eps = torch.finfo(probs.dtype).eps
    return probs.clamp(min=eps, max=1 - eps)


class Categorical(_ProbsOrLogits):
    _param_names = ('probs', 'logits')

    def __init__(self, probs=None, logits=None, validate_args=None):
        if (probs is None) == (logits is None):
            raise ValueError('Either `probs` or `logits` must be specified, but not both.')
        self._probs = None
        self._logits = None
        if probs is not None:
            if probs.dim() < 1:
                raise ValueError('`probs` parameter must be at least one-dimensional.')
            self._probs = probs / probs.sum(-1, keepdim=True)
            param = self._probs
        else:
            if logits.dim() < 1:
                raise ValueError('`logits` parameter must be at least one-dimensional.')
            self._logits = logits - logits.logsumexp(dim=-1, keepdim=True)
            param = self._logits
        self._num_events = param.size(-1)
        super().__init__(param.shape[:-1])

    def _to_probs(self, logits):
        return F.softmax(logits, dim=-1)

    def _to_logits(self, probs):
        return torch.log(_clamp_probs(probs))

    @property
    def param_shape(self):
        return self.probs.size()

    @property
    def mean(self):
        return torch.full(list(self._extended_shape()), float('nan'), dtype=self.probs.dtype)

    @property
    def mode(self):
        return self.probs.argmax(dim=-1)

    def sample(self, sample_shape=()):
        n = 1
        for s in sample_shape:
            n *= s
        probs_2d = self.probs.reshape(-1, self._num_events)
        samples_2d = torch.multinomial(probs_2d, n, True).T
        return samples_2d.reshape(list(self._extended_shape(sample_shape)))

    def log_prob(self, value):
        ok = bool(((value >= 0) & (value < self._num_events) & (value == value.long())).all())
        _check_support(self, value, ok, 'IntegerInterval(lower_bound=0, upper_bound={})'.format(self._num_events - 1))
        value = value.long().unsqueeze(-1)
        shape = _shape_of([value, self.logits])
        value = value.expand(shape[:-1] + [1])
        log_pmf = self.logits.expand(shape)
        return log_pmf.gather(-1, value).squeeze(-1)

    def entropy(self):
        min_real = torch.finfo(self.logits.dtype).min
        logits = torch.clamp(self.logits, min=min_real)
        return -(logits * self.probs).sum(-1)


# Counts of total_count draws from a Categorical: PyTorch draws the
# categories first (total_count picks per sample) and adds them up with
# scatter_add_, so the same seed gives the same counts.
class Multinomial(Distribution):
    _param_names = ('probs', 'logits')

    def __init__(self, total_count=1, probs=None, logits=None, validate_args=None):
        if not isinstance(total_count, int):
            raise NotImplementedError('inhomogeneous total_count is not supported')
        self.total_count = total_count
        self._categorical = Categorical(probs=probs, logits=logits)
        param = self._categorical.probs if probs is not None else self._categorical.logits
        super().__init__(param.shape[:-1], param.shape[-1:])

    @property
    def probs(self):
        return self._categorical.probs

    @property
    def logits(self):
        return self._categorical.logits

    @property
    def param_shape(self):
        return self._categorical.param_shape

    @property
    def mean(self):
        return self.probs * self.total_count

    @property
    def variance(self):
        return self.total_count * self.probs * (1 - self.probs)

    def sample(self, sample_shape=()):
        picks = self._categorical.sample([self.total_count] + list(sample_shape))
        # (total_count, *sample, *batch) -> (*sample, *batch, total_count)
        picks = picks.permute(*range(1, picks.dim()), 0)
        counts = picks.new_zeros(list(self._extended_shape(sample_shape)))
        counts.scatter_add_(-1, picks, torch.ones_like(picks))
        return counts.type_as(self.probs)

    def log_prob(self, value):
        logits = (self.logits + torch.zeros_like(value)).clone()
        value = value + torch.zeros_like(logits)
        log_factorial_n = torch.lgamma(value.sum(-1) + 1)
        log_factorial_xs = torch.lgamma(value + 1).sum(-1)
        # 0 * log(0) counts as 0 for a category that is never drawn
        logits[(value == 0) & (logits == -math.inf)] = 0
        return log_factorial_n - log_factorial_xs + (logits * value).sum(-1)

    def __repr__(self):
        return 'Multinomial()'


class Bernoulli(_ProbsOrLogits):
    _param_names = ('probs', 'logits')

    def __init__(self, probs=None, logits=None, validate_args=None):
        if (probs is None) == (logits is None):
            raise ValueError('Either `probs` or `logits` must be specified, but not both.')
        self._probs = None
        self._logits = None
        if probs is not None:
            self._probs, = _broadcast_all(probs)
            param = self._probs
        else:
            self._logits, = _broadcast_all(logits)
            param = self._logits
        super().__init__(param.shape)

    def _to_probs(self, logits):
        return torch.sigmoid(logits)

    def _to_logits(self, probs):
        clamped = _clamp_probs(probs)
        return torch.log(clamped) - torch.log1p(-clamped)

    @property
    def mean(self):
        return self.probs

    @property
    def variance(self):
        return self.probs * (1 - self.probs)

    def sample(self, sample_shape=()):
        shape = self._extended_shape(sample_shape)
        with torch.no_grad():
            return torch.bernoulli(self.probs.expand(list(shape)))

    def log_prob(self, value):
        _check_support(self, value, bool(((value == 0) | (value == 1)).all()), 'Boolean()')
        logits, value = _broadcast_all(self.logits, value)
        return -F.binary_cross_entropy_with_logits(logits, value, reduction='none')

    def entropy(self):
        return F.binary_cross_entropy_with_logits(self.logits, self.probs, reduction='none')


class Uniform(Distribution):
    has_rsample = True
    _param_names = ('low', 'high')

    def __init__(self, low, high, validate_args=None):
        self.low, self.high = _broadcast_all(low, high)
        if validate_args is not False and not bool((self.low < self.high).all()):
            raise ValueError('Expected parameter low of distribution Uniform to be less than high')
        super().__init__(self.low.shape)

    @property
    def mean(self):
        return (self.high + self.low) / 2

    @property
    def variance(self):
        return (self.high - self.low).pow(2) / 12

    def rsample(self, sample_shape=()):
        shape = self._extended_shape(sample_shape)
        rand = torch.rand(list(shape), dtype=self.low.dtype)
        return self.low + rand * (self.high - self.low)

    def log_prob(self, value):
        _check_support(self, value, bool(((value >= self.low) & (value < self.high)).all()),
                       'Interval(lower_bound={}, upper_bound={})'.format(_param_repr(self.low), _param_repr(self.high)))
        lb = self.low.le(value).type_as(self.low)
        ub = self.high.gt(value).type_as(self.low)
        return torch.log(lb.mul(ub)) - torch.log(self.high - self.low)

    def entropy(self):
        return torch.log(self.high - self.low)


class Exponential(Distribution):
    has_rsample = True
    _param_names = ('rate',)

    def __init__(self, rate, validate_args=None):
        self.rate, = _broadcast_all(rate)
        super().__init__(self.rate.shape)

    @property
    def mean(self):
        return self.rate.reciprocal()

    @property
    def variance(self):
        return self.rate.pow(-2)

    def rsample(self, sample_shape=()):
        shape = self._extended_shape(sample_shape)
        return torch.empty(list(shape), dtype=self.rate.dtype).exponential_() / self.rate

    def log_prob(self, value):
        return self.rate.log() - self.rate * value

    def entropy(self):
        return 1.0 - torch.log(self.rate)


class Gamma(Distribution):
    # Draws through torch._standard_gamma, PyTorch's sampler, so seeded
    # scripts see its numbers (the draws carry no gradient in kiln).
    has_rsample = True
    _param_names = ('concentration', 'rate')

    def __init__(self, concentration, rate, validate_args=None):
        self.concentration, self.rate = _broadcast_all(concentration, rate)
        super().__init__(self.concentration.shape)

    @property
    def mean(self):
        return self.concentration / self.rate

    @property
    def mode(self):
        return ((self.concentration - 1) / self.rate).clamp(min=0)

    @property
    def variance(self):
        return self.concentration / self.rate.pow(2)

    def rsample(self, sample_shape=()):
        shape = list(self._extended_shape(sample_shape))
        value = torch._standard_gamma(self.concentration.expand(shape)) / self.rate.expand(shape)
        value.detach().clamp_(min=torch.finfo(value.dtype).tiny)
        return value

    def log_prob(self, value):
        value = torch.as_tensor(value, dtype=self.rate.dtype)
        return (torch.xlogy(self.concentration, self.rate) + torch.xlogy(self.concentration - 1, value)
                - self.rate * value - torch.lgamma(self.concentration))

    def entropy(self):
        c = self.concentration
        return c - torch.log(self.rate) + torch.lgamma(c) + (1.0 - c) * torch.digamma(c)


class Dirichlet(Distribution):
    has_rsample = True
    _param_names = ('concentration',)

    def __init__(self, concentration, validate_args=None):
        if concentration.dim() < 1:
            raise ValueError('`concentration` parameter must be at least one-dimensional.')
        self.concentration = concentration
        super().__init__(concentration.shape[:-1], concentration.shape[-1:])

    @property
    def mean(self):
        return self.concentration / self.concentration.sum(-1, True)

    @property
    def variance(self):
        total = self.concentration.sum(-1, True)
        return self.concentration * (total - self.concentration) / (total.pow(2) * (total + 1))

    def rsample(self, sample_shape=()):
        shape = list(self._extended_shape(sample_shape))
        return torch._sample_dirichlet(self.concentration.expand(shape))

    def log_prob(self, value):
        c = self.concentration
        return torch.xlogy(c - 1.0, value).sum(-1) + torch.lgamma(c.sum(-1)) - torch.lgamma(c).sum(-1)

    def entropy(self):
        c = self.concentration
        k = c.size(-1)
        total = c.sum(-1)
        return (torch.lgamma(c).sum(-1) - torch.lgamma(total) - (k - total) * torch.digamma(total)
                - ((c - 1.0) * torch.digamma(c)).sum(-1))


class Beta(Distribution):
    # A two-category Dirichlet over (x, 1 - x), as PyTorch samples it.
    has_rsample = True
    _param_names = ('concentration1', 'concentration0')

    def __init__(self, concentration1, concentration0, validate_args=None):
        c1, c0 = _broadcast_all(concentration1, concentration0)
        self._dirichlet = Dirichlet(torch.stack([c1, c0], -1))
        super().__init__(self._dirichlet.batch_shape)

    @property
    def concentration1(self):
        return self._dirichlet.concentration[..., 0]

    @property
    def concentration0(self):
        return self._dirichlet.concentration[..., 1]

    @property
    def mean(self):
        return self.concentration1 / (self.concentration1 + self.concentration0)

    @property
    def variance(self):
        total = self.concentration1 + self.concentration0
        return self.concentration1 * self.concentration0 / (total.pow(2) * (total + 1))

    def rsample(self, sample_shape=()):
        return self._dirichlet.rsample(sample_shape).select(-1, 0)

    def log_prob(self, value):
        value = torch.as_tensor(value, dtype=self.concentration1.dtype)
        return self._dirichlet.log_prob(torch.stack([value, 1.0 - value], -1))

    def entropy(self):
        return self._dirichlet.entropy()

    def __repr__(self):
        return 'Beta()'  # PyTorch lists only parameters stored on the object, and Beta stores a Dirichlet


def kl_divergence(p, q):
    if isinstance(p, Normal) and isinstance(q, Normal):
        var_ratio = (p.scale / q.scale).pow(2)
        t1 = ((p.loc - q.loc) / q.scale).pow(2)
        return 0.5 * (var_ratio + t1 - 1 - var_ratio.log())
    if isinstance(p, Categorical) and isinstance(q, Categorical):
        t = p.probs * (p.logits - q.logits)
        t = t.masked_fill((q.probs == 0).expand_as(t), float('inf'))
        return t.masked_fill((p.probs == 0).expand_as(t), 0.0).sum(-1)
    raise NotImplementedError('No KL(p || q) is implemented for {} and {}'.format(type(p).__name__,
                                                                                   type(q).__name__))
