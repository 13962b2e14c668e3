# torch.nn.utils.parametrizations: weight_norm, spectral_norm and orthogonal as parametrizations
# (torch.nn.utils.parametrize); the first two are PyTorch 2.x's replacements of the hook-based forms.

import torch
import torch.nn as nn
import torch.nn.functional as F
from enum import Enum, auto
from torch.nn.utils import parametrize


# ||v|| over every dim but `dim`, shaped to broadcast against v; dim -1 stands for the norm of
# all of v (torch.norm_except_dim's convention).
def _norm_except_dim(v, dim):
    if dim == -1:
        return v.norm()
    shape = [1] * v.dim()
    shape[dim] = v.size(dim)
    return v.transpose(0, dim).reshape(v.size(dim), -1).norm(dim=1).reshape(shape)


class _WeightNorm(nn.Module):
    def __init__(self, dim=0):
        super().__init__()
        if dim is None:
            dim = -1
        self.dim = dim

    def forward(self, weight_g, weight_v):
        w = weight_v * (weight_g / _norm_except_dim(weight_v, self.dim))
        if self.dim != -1 and (self.dim == 0 or self.dim == weight_v.dim() - 1):
            w = torch._C._set_grad_fn_name(w, 'WeightNormInterfaceBackward0')  # PyTorch's fused kernel
        return w

    def right_inverse(self, weight):
        return _norm_except_dim(weight, self.dim), weight


def weight_norm(module, name='weight', dim=0):
    # weight = g * v / ||v||: original0 is g, original1 is v.
    parametrize.register_parametrization(module, name, _WeightNorm(dim), unsafe=True)
    return module


class _SpectralNorm(nn.Module):
    def __init__(self, weight, n_power_iterations=1, dim=0, eps=1e-12):
        super().__init__()
        ndim = weight.dim()
        if dim >= ndim or dim < -ndim:
            raise IndexError('Dimension out of range (expected to be in range of [-{}, {}] but got {})'.format(
                ndim, ndim - 1, dim))
        if n_power_iterations <= 0:
            raise ValueError('Expected n_power_iterations to be positive, but got n_power_iterations={}'.format(
                n_power_iterations))
        self.dim = dim if dim >= 0 else dim + ndim
        self.eps = eps
        if ndim > 1:
            self.n_power_iterations = n_power_iterations
            weight_mat = self._reshape_weight_to_matrix(weight)
            h, w = weight_mat.size(0), weight_mat.size(1)
            u = weight_mat.new_empty(h).normal_(0, 1)
            v = weight_mat.new_empty(w).normal_(0, 1)
            self.register_buffer('_u', F.normalize(u, dim=0, eps=self.eps))
            self.register_buffer('_v', F.normalize(v, dim=0, eps=self.eps))
            # Start from a good estimate of the top singular vectors.
            self._power_method(weight_mat, 15)

    def _reshape_weight_to_matrix(self, weight):
        if self.dim != 0:
            weight = weight.permute([self.dim] + [d for d in range(weight.dim()) if d != self.dim])
        return weight.flatten(1)

    def _power_method(self, weight_mat, n_power_iterations):
        # u and v are updated in place: the buffers keep their identity, as with PyTorch's out=.
        with torch.no_grad():
            for _ in range(n_power_iterations):
                self._u.copy_(F.normalize(torch.mv(weight_mat, self._v), dim=0, eps=self.eps))
                self._v.copy_(F.normalize(torch.mv(weight_mat.t(), self._u), dim=0, eps=self.eps))

    def forward(self, weight):
        if weight.dim() == 1:
            return F.normalize(weight, dim=0, eps=self.eps)
        weight_mat = self._reshape_weight_to_matrix(weight)
        if self.training:
            self._power_method(weight_mat, self.n_power_iterations)
        u = self._u.clone()
        v = self._v.clone()
        sigma = torch.dot(u, torch.mv(weight_mat, v))
        return weight / sigma

    def right_inverse(self, value):
        return value


def spectral_norm(module, name='weight', n_power_iterations=1, eps=1e-12, dim=None):
    weight = getattr(module, name, None)
    if not isinstance(weight, torch.Tensor):
        raise ValueError("Module '{}' has no parameter or buffer with name '{}'".format(module, name))
    if dim is None:
        transposed = (nn.ConvTranspose1d, nn.ConvTranspose2d, getattr(nn, 'ConvTranspose3d', nn.ConvTranspose2d))
        dim = 1 if isinstance(module, transposed) else 0
    parametrize.register_parametrization(module, name, _SpectralNorm(weight, n_power_iterations, dim, eps))
    return module


# ---- orthogonal -----------------------------------------------------------------------------

class _OrthMaps(Enum):
    matrix_exp = auto()
    cayley = auto()
    householder = auto()


def _is_orthogonal(Q):
    n, k = Q.size(-2), Q.size(-1)
    eye = torch.eye(k, dtype=Q.dtype, device=Q.device)
    eps = 10.0 * n * torch.finfo(Q.dtype).eps
    return torch.allclose(Q.mT @ Q, eye, atol=eps)


# The Q of A's QR decomposition with R's diagonal made positive: unique for a full-rank A, so it
# equals PyTorch's geqrf + householder_product construction.
def _make_orthogonal(A):
    Q, R = torch.linalg.qr(A)
    return Q * R.diagonal(dim1=-2, dim2=-1).sign().unsqueeze(-2)


# torch.linalg.householder_product: the first k columns of H_1 ... H_k, H_i = I - tau_i v_i v_i^T,
# v_i column i of A below the diagonal with a 1 on it.
def _householder_product(A, tau):
    n, k = A.size(-2), A.size(-1)
    eye = torch.eye(n, k, dtype=A.dtype, device=A.device)
    V = A.tril(-1) + eye
    Q = eye.expand(A.shape)
    for i in range(k - 1, -1, -1):
        v = V[..., :, i:i + 1]
        Q = Q - tau[..., i:i + 1].unsqueeze(-1) * (v @ (v.mT @ Q))
    return Q


class _Orthogonal(nn.Module):
    def __init__(self, weight, orthogonal_map, use_trivialization=True):
        super().__init__()
        self.shape = weight.shape
        self.orthogonal_map = orthogonal_map
        if use_trivialization:
            self.register_buffer('base', None)

    def forward(self, X):
        n, k = X.size(-2), X.size(-1)
        transposed = n < k
        if transposed:
            X = X.mT
            n, k = k, n
        if self.orthogonal_map == _OrthMaps.householder:
            A = X.tril(diagonal=-1)
            tau = 2.0 / (1.0 + (A * A).sum(dim=-2))
            Q = _householder_product(A, tau)
            Q = Q * X.diagonal(dim1=-2, dim2=-1).int().unsqueeze(-2)
        else:
            # The exponential (or Cayley transform) of a skew-symmetric matrix built from X's
            # lower triangle, padded to n x n and cut back to k columns.
            X = X.tril()
            if n != k:
                X = torch.cat([X, X.new_zeros(n, n - k).expand(X.shape[:-2] + (n, n - k))], dim=-1)
            A = X - X.mT
            if self.orthogonal_map == _OrthMaps.matrix_exp:
                Q = torch.matrix_exp(A)
            else:
                eye = torch.eye(n, dtype=A.dtype, device=A.device)
                Q = torch.linalg.solve(torch.add(eye, A, alpha=-0.5), torch.add(eye, A, alpha=0.5))
            if n != k:
                Q = Q[..., :k]
        if 'base' in self._buffers:
            Q = self.base @ Q
        if transposed:
            Q = Q.mT
        return Q

    def right_inverse(self, Q):
        with torch.no_grad():
            return self._right_inverse(Q)

    def _right_inverse(self, Q):
        if Q.shape != self.shape:
            raise ValueError('Expected a matrix or batch of matrices of shape {}. Got a tensor of shape {}.'.format(
                self.shape, Q.shape))
        Q_init = Q
        n, k = Q.size(-2), Q.size(-1)
        if n < k:
            Q = Q.mT
            n, k = k, n
        if 'base' not in self._buffers:
            if self.orthogonal_map != _OrthMaps.householder:
                raise NotImplementedError('It is not possible to assign to the matrix exponential or the Cayley '
                                          'parametrizations when use_trivialization=False.')
            raise RuntimeError('kiln: orthogonal(..., use_trivialization=False) with the householder map needs '
                               'torch.geqrf, which kiln lacks')
        # With the trivialization the new value becomes the base, and X the point mapping to I.
        if n == k:
            Q = Q.clone() if _is_orthogonal(Q) else _make_orthogonal(Q)
        else:
            N = torch.randn(Q.shape[:-2] + (n, n - k), dtype=Q.dtype, device=Q.device)
            Q = _make_orthogonal(torch.cat([Q, N], dim=-1))
        self.base = Q
        neg_id = torch.zeros_like(Q_init)
        neg_id.diagonal(dim1=-2, dim2=-1).fill_(-1.0)
        return neg_id


def orthogonal(module, name='weight', orthogonal_map=None, use_trivialization=True):
    weight = getattr(module, name, None)
    if not isinstance(weight, torch.Tensor):
        raise ValueError("Module '{}' has no parameter or buffer with name '{}'".format(module, name))
    if weight.dim() < 2:
        raise ValueError('Expected a matrix or batch of matrices. Got a tensor of {} dimensions.'.format(weight.dim()))
    if orthogonal_map is None:
        orthogonal_map = 'matrix_exp' if weight.size(-2) == weight.size(-1) else 'householder'
    orth_enum = getattr(_OrthMaps, orthogonal_map, None)
    if orth_enum is None:
        raise ValueError('orthogonal_map has to be one of "matrix_exp", "cayley", "householder". Got: {}'.format(
            orthogonal_map))
    orth = _Orthogonal(weight, orth_enum, use_trivialization=use_trivialization)
    parametrize.register_parametrization(module, name, orth, unsafe=True)
    return module
