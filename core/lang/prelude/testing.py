# torch.testing: assert_close (PyTorch's default tolerances per dtype and its failure messages)
# and make_tensor.

import math

import torch

# dtype -> (rtol, atol) when neither is given; other dtypes compare exactly. (Kiln has no complex
# dtypes; PyTorch gives complex64 and complex128 those of float32 and float64.)
_DTYPE_PRECISIONS = {
    torch.float16: (0.001, 1e-5),
    torch.bfloat16: (0.016, 1e-5),
    torch.float32: (1.3e-6, 1e-5),
    torch.float64: (1e-7, 1e-7),
}

# Python numbers compare with the tolerances of the dtype they become.
_NUMBER_DTYPES = {int: torch.int64, float: torch.float64}


class _Failure(Exception):
    # A failed comparison: the exception type to raise, its message, and the path to the item
    # inside nested sequences and mappings.
    def __init__(self, kind, msg, path=()):
        super().__init__(msg)
        self.kind = kind
        self.msg = msg
        self.path = path

    def to_error(self, msg=None):
        if isinstance(msg, str):
            return self.kind(msg)
        text = self.msg
        if len(self.path) > 0:
            text += '\n\nThe failure occurred for item ' + ''.join(str([item]) for item in self.path)
        return self.kind(msg(text) if callable(msg) else text)


def _default_tolerances(dtypes):
    rtols = [_DTYPE_PRECISIONS.get(d, (0.0, 0.0))[0] for d in dtypes]
    atols = [_DTYPE_PRECISIONS.get(d, (0.0, 0.0))[1] for d in dtypes]
    return max(rtols), max(atols)


def _tolerances(dtypes, rtol, atol, path):
    if (rtol is None) != (atol is None):
        raise _Failure(ValueError, "Both 'rtol' and 'atol' must be either specified or omitted, but got no {}.".format(
            'rtol' if rtol is None else 'atol'), path)
    if rtol is not None:
        return rtol, atol
    return _default_tolerances(dtypes)


def _mismatch_msg(identifier, extra, abs_diff, abs_idx, atol, rel_diff, rel_idx, rtol):
    equality = rtol == 0 and atol == 0

    def diff_line(kind, diff, idx, tol):
        if idx is None:
            line = '{} difference: {}'.format(kind.title(), diff)
        else:
            line = 'Greatest {} difference: {} at index {}'.format(kind, diff, idx)
        if not equality:
            line += ' (up to {} allowed)'.format(tol)
        return line + '\n'

    msg = '{} are not {}!\n\n'.format(identifier, 'equal' if equality else 'close')
    if extra:
        msg += extra.strip() + '\n'
    msg += diff_line('absolute', abs_diff, abs_idx, atol)
    msg += diff_line('relative', rel_diff, rel_idx, rtol)
    return msg.strip()


def _scalar_mismatch_msg(actual, expected, rtol, atol):
    abs_diff = abs(actual - expected)
    rel_diff = float('inf') if expected == 0 else abs_diff / abs(expected)
    return _mismatch_msg('Scalars', 'Expected {} but got {}.'.format(expected, actual), abs_diff, None, atol,
                         rel_diff, None, rtol)


def _unravel(flat_index, shape):
    index = []
    for size in reversed(list(shape)):
        index.append(flat_index % size)
        flat_index = flat_index // size
    return tuple(reversed(index))


def _tensor_mismatch_msg(actual, expected, matches, rtol, atol):
    total = matches.numel()
    mismatches = total - int(matches.sum())
    extra = 'Mismatched elements: {} / {} ({:.1%})'.format(mismatches, total, mismatches / total)
    a = actual.flatten()
    e = expected.flatten()
    hits = matches.flatten()
    if not a.is_floating_point() and not a.is_complex():
        a = a.to(torch.int64)
        e = e.to(torch.int64)
    # The greatest differences among the mismatches only.
    abs_diff = torch.where(hits, 0, torch.abs(a - e))
    max_abs, abs_at = torch.max(abs_diff, 0)
    rel_diff = torch.where(hits, 0, abs_diff / torch.abs(e))
    max_rel, rel_at = torch.max(rel_diff, 0)
    return _mismatch_msg('Tensor-likes', extra, max_abs.item(), _unravel(int(abs_at), matches.shape), atol,
                         max_rel.item(), _unravel(int(rel_at), matches.shape), rtol)


def _compare_tensors(actual, expected, path, rtol, atol, equal_nan, check_device, check_dtype):
    def mismatch(attribute, a, e):
        raise _Failure(AssertionError, "The values for attribute '{}' do not match: {} != {}.".format(attribute, a, e),
                       path)

    if actual.shape != expected.shape:
        mismatch('shape', actual.shape, expected.shape)
    if check_device and actual.device != expected.device:
        mismatch('device', actual.device, expected.device)
    if check_dtype and actual.dtype != expected.dtype:
        mismatch('dtype', actual.dtype, expected.dtype)
    rtol, atol = _tolerances([actual.dtype, expected.dtype], rtol, atol, path)
    actual = actual.detach()
    expected = expected.detach()
    if actual.device != expected.device:
        actual = actual.cpu()
        expected = expected.cpu()
    if actual.dtype != expected.dtype:
        dtype = torch.promote_types(actual.dtype, expected.dtype)
        actual = actual.to(dtype)
        expected = expected.to(dtype)
    if not actual.is_floating_point() and not actual.is_complex() and rtol == 0 and atol == 0:
        matches = actual == expected
    else:
        matches = torch.isclose(actual, expected, rtol=rtol, atol=atol, equal_nan=equal_nan)
    if bool(matches.all()):
        return
    if actual.dim() == 0:
        msg = _scalar_mismatch_msg(actual.item(), expected.item(), rtol, atol)
    else:
        msg = _tensor_mismatch_msg(actual, expected, matches, rtol, atol)
    raise _Failure(AssertionError, msg, path)


def _is_number(x):
    return (isinstance(x, int) or isinstance(x, float)) and not isinstance(x, bool)


def _compare_numbers(actual, expected, path, rtol, atol, equal_nan, check_dtype):
    rtol, atol = _tolerances([_NUMBER_DTYPES[type(actual)], _NUMBER_DTYPES[type(expected)]], rtol, atol, path)
    if check_dtype and type(actual) is not type(expected):
        raise _Failure(AssertionError, 'The (d)types do not match: {} != {}.'.format(type(actual), type(expected)),
                       path)
    if actual == expected:
        return
    if equal_nan and actual != actual and expected != expected:
        return
    abs_diff = abs(actual - expected)
    if not math.isinf(abs_diff) and abs_diff == abs_diff and abs_diff <= atol + rtol * abs(expected):
        return
    raise _Failure(AssertionError, _scalar_mismatch_msg(actual, expected, rtol, atol), path)


def _is_sequence(x):
    return isinstance(x, list) or isinstance(x, tuple)


def _compare(actual, expected, path, options):
    rtol, atol, equal_nan, check_device, check_dtype = options
    if _is_sequence(actual) and _is_sequence(expected):
        if len(actual) != len(expected):
            raise _Failure(AssertionError, 'The length of the sequences mismatch: {} != {}'.format(
                len(actual), len(expected)), path)
        for i in range(len(actual)):
            _compare(actual[i], expected[i], path + (i,), options)
    elif isinstance(actual, dict) and isinstance(expected, dict):
        _compare_mappings(actual, expected, path, options)
    elif actual is None or expected is None:
        if not (actual is None and expected is None):
            raise _Failure(AssertionError, 'None mismatch: {} is not {}'.format(actual, expected), path)
    elif isinstance(actual, bool) and isinstance(expected, bool):
        if actual is not expected:
            raise _Failure(AssertionError, 'Booleans mismatch: {} is not {}'.format(actual, expected), path)
    elif _is_number(actual) and _is_number(expected):
        _compare_numbers(actual, expected, path, rtol, atol, equal_nan, check_dtype)
    elif isinstance(actual, torch.Tensor) and isinstance(expected, torch.Tensor):
        _compare_tensors(actual, expected, path, rtol, atol, equal_nan, check_device, check_dtype)
    else:
        raise _Failure(TypeError, 'No comparison pair was able to handle inputs of type {} and {}.'.format(
            type(actual), type(expected)), path)


def _compare_mappings(actual, expected, path, options):
    actual_keys = set(actual.keys())
    expected_keys = set(expected.keys())
    if actual_keys != expected_keys:
        raise _Failure(AssertionError, 'The keys of the mappings do not match:\nMissing keys in the actual mapping: '
                       '{}\nAdditional keys in the actual mapping: {}'.format(
                           sorted(expected_keys - actual_keys), sorted(actual_keys - expected_keys)), path)
    # Sorted when the keys allow it, as PyTorch goes through them.
    keys = list(actual.keys())
    try:
        keys = sorted(keys)
    except Exception:
        pass
    for key in keys:
        _compare(actual[key], expected[key], path + (key,), options)


def assert_close(actual, expected, *, allow_subclasses=True, rtol=None, atol=None, equal_nan=False,
                 check_device=True, check_dtype=True, check_layout=True, check_stride=False, msg=None):
    try:
        _compare(actual, expected, (), (rtol, atol, equal_nan, check_device, check_dtype))
    except _Failure as failure:
        raise failure.to_error(msg)


def _low_high(low, high, dtype, lowest, highest, default_low, default_high, integral):
    low = default_low if low is None else low
    high = default_high if high is None else high
    if (isinstance(low, float) and math.isnan(low)) or (isinstance(high, float) and math.isnan(high)):
        raise ValueError('`low` and `high` cannot be NaN, but got low={} and high={}'.format(low, high))
    if low >= high and not (low == high and not integral):
        raise ValueError('`low` must be less than `high`, but got {} >= {}'.format(low, high))
    if high < lowest or low >= highest:
        raise ValueError('The value interval specified by `low` and `high` is [{}, {}), but {} only supports '
                         '[{}, {})'.format(low, high, dtype, lowest, highest))
    low = min(max(low, lowest), highest)
    high = min(max(high, lowest), highest)
    if integral:
        return math.ceil(low), math.ceil(high)
    return low, high


_INTEGRAL = [torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64]
_FLOATING = [torch.float16, torch.bfloat16, torch.float32, torch.float64]


def make_tensor(*shape, dtype, device, low=None, high=None, requires_grad=False, noncontiguous=False,
                exclude_zero=False, memory_format=None):
    # Values uniform in [low, high): [-9, 9) for floats, [-9, 10) for integers, {0, 1} for bool.
    if len(shape) == 1 and _is_sequence(shape[0]):
        shape = shape[0]
    shape = tuple(shape)
    if requires_grad and (dtype == torch.bool or dtype in _INTEGRAL):
        raise ValueError('`requires_grad=True` is not supported for boolean and integral dtypes, but got '
                         'dtype={}'.format(dtype))
    numel = 1
    for s in shape:
        numel *= s
    noncontiguous = noncontiguous and numel > 1
    if noncontiguous:
        shape = shape[:-1] + (2 * shape[-1],)
    if dtype == torch.bool:
        low, high = _low_high(low, high, dtype, 0, 2, 0, 2, True)
        result = torch.randint(low, high, shape, device=device, dtype=dtype)
    elif dtype in _INTEGRAL:
        info = torch.iinfo(dtype)
        low, high = _low_high(low, high, dtype, info.min, info.max + (1 if dtype != torch.int64 else 0), -9, 10,
                              True)
        result = torch.randint(low, high, shape, device=device, dtype=dtype)
    elif dtype in _FLOATING:
        info = torch.finfo(dtype)
        low, high = _low_high(low, high, dtype, info.min, info.max, -9, 9, False)
        result = torch.empty(shape, device=device, dtype=dtype)
        if high - low >= info.max:
            result.uniform_(low / 2, high / 2).mul_(2)
        else:
            result.uniform_(low, high)
    else:
        raise TypeError("The requested dtype '{}' is not supported by torch.testing.make_tensor(). To request "
                        'support, file an issue at: https://github.com/pytorch/pytorch/issues'.format(dtype))
    if noncontiguous:
        result = result[..., 1::2]
    if exclude_zero:
        fill = 1 if (dtype == torch.bool or dtype in _INTEGRAL) else torch.finfo(dtype).tiny
        result = torch.where(result == 0, torch.full_like(result, fill), result)
    if dtype in _FLOATING:
        result.requires_grad_(requires_grad)
    return result
