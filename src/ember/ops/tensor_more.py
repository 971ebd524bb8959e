"""Smaller tensor operators TorchScript programs use: trace, rot90, cross, logspace,
scalar_tensor, strides, unfold (sliding windows) and index_add_, with torch's dtypes and
errors."""

from __future__ import annotations

import numpy as np

from ember.ops.tensor_common import TORCH_SCALAR_NAMES, F, arr, broadcast_error, check_dim, \
    check_dims, reg
from ember.ops.tensor_loss import legacy_reduction
from ember.ops.tensorinfo import TensorInfo

_KW = "*, ScalarType? dtype=None, Any device=None, bool requires_grad=False"


def _trace(x):
    """torch.trace: the sum of a matrix's diagonal (int tensors sum to int64)."""
    if x.ndim != 2:
        raise RuntimeError(f"trace: expected a matrix, but got tensor with dim {x.ndim}")
    d = np.diagonal(x)
    out = d.sum(dtype=np.int64 if x.dtype.kind in "biu" else x.dtype)
    return arr(np.asarray(out))


def _trace_info(a):
    dt = a[0].dtype
    return TensorInfo("int64" if dt in ("bool", "uint8", "int8", "int16", "int32", "int64")
                      else dt, ())


def _rot90(x, k, dims):
    """torch.rot90: k quarter turns from the first dim of dims towards the second."""
    if len(dims) != 2:
        raise RuntimeError(f"expected total rotation dims == 2, but got dims = {len(dims)}")
    if x.ndim < 2:
        raise RuntimeError(f"expected total dims >= 2, but got total dims = {x.ndim}")
    d = check_dims(dims, x.ndim)
    return np.rot90(x, k, axes=d).copy()


def _cross(a, b, dim):
    """torch.cross / torch.linalg.cross: the cross product along a dim of size 3 (the
    first such dim when none is given, as torch.cross does)."""
    if a.ndim != b.ndim:
        raise RuntimeError(f"linalg.cross: inputs must have the same number of dimensions, "
                           f"got {a.ndim} and {b.ndim}")
    shape = np.broadcast_shapes(a.shape, b.shape)
    if dim is None:
        dim = next((i for i, n in enumerate(shape) if n == 3), None)
        if dim is None:
            raise RuntimeError("no dimension of size 3 in input")
    d = check_dim(dim, len(shape))
    if shape[d] != 3:
        raise RuntimeError(f"linalg.cross: inputs dimension {dim} must have length 3. Got "
                           f"{a.shape[d]} and {b.shape[d]}")
    return arr(np.cross(a, b, axis=d).astype(np.result_type(a, b)))


def _logspace(start, end, steps, base, dtype, device=None, requires_grad=False):
    """base ** (steps values evenly spaced from start to end), float32 by default."""
    if steps < 0:
        raise RuntimeError("number of steps must be non-negative")
    exps = np.linspace(start, end, steps, dtype=np.float64)
    return np.power(float(base), exps).astype(dtype or np.float32)


def _scalar_tensor(s, dtype, device=None, requires_grad=False):
    """torch.scalar_tensor: a 0-d tensor of s (float32 unless a dtype is given)."""
    return np.asarray(s).astype(dtype or np.float32)


def _strides(x):
    return [s // x.itemsize for s in x.strides] if x.itemsize else [0] * x.ndim


def _stride_dim(x, dim):
    return _strides(x)[check_dim(dim, x.ndim)] if x.ndim else 1


def _unfold(x, dim, size, step):
    """x.unfold(dim, size, step): the windows of `size` elements `step` apart along dim,
    as a new last dim."""
    if x.ndim == 0:
        if size > 1:
            raise RuntimeError(f"maximum size for tensor at dimension 0 is 1 but size is "
                               f"{size}")
        return x.reshape(1).copy()
    d = check_dim(dim, x.ndim)
    if size > x.shape[d]:
        raise RuntimeError(f"maximum size for tensor at dimension {d} is {x.shape[d]} but "
                           f"size is {size}")
    if step <= 0:
        raise RuntimeError(f"step is {step} but must be > 0")
    if size < 0:
        raise RuntimeError(f"size is {size} but must be >= 0")
    w = np.lib.stride_tricks.sliding_window_view(x, size, axis=d)
    sl = [slice(None)] * w.ndim
    sl[d] = slice(None, None, step)
    return w[tuple(sl)].copy()


def _unfold_info(a):
    x = a[0]
    return TensorInfo(x.dtype, None)


def _index_add_(x, dim, index, source, alpha=1):
    """x.index_add_(dim, index, source, alpha=1): alpha * source's slices added into x at
    index along dim (repeated indices add up)."""
    d = check_dim(dim, x.ndim)
    if index.dtype.kind not in "iu":
        raise RuntimeError("index_add_(): Expected dtype int32/int64 for index")
    idx = index.reshape(-1)
    if source.ndim != x.ndim and not (x.ndim == 1 and source.ndim == 1):
        raise RuntimeError(f"source tensor shape must match self tensor shape, excluding the "
                           f"specified dimension. Got self.shape = {list(x.shape)} "
                           f"source.shape = {list(source.shape)}")
    n = x.shape[d] if x.ndim else 1
    if idx.size and (idx.min() < -n or idx.max() >= n):
        raise IndexError("index out of range in self")
    src = source if x.ndim else source.reshape(1)
    moved = np.moveaxis(x if x.ndim else x.reshape(1), d, 0)
    np.add.at(moved, idx, np.moveaxis(src, d, 0) * alpha)
    return x


def _index_put_into(out, indices, values, accumulate):
    if values.dtype != out.dtype:
        raise RuntimeError("Index put requires the source and destination dtypes match, got "
                           f"{TORCH_SCALAR_NAMES[out.dtype.name]} for the destination and "
                           f"{TORCH_SCALAR_NAMES[values.dtype.name]} for the source.")
    if len(indices) > max(out.ndim, 1):
        raise IndexError(f"too many indices for tensor of dimension {out.ndim}")
    for i in indices:
        if i.dtype.kind not in "iub":
            raise IndexError("tensors used as indices must be long, int, byte or bool tensors")
    idx = tuple(indices)
    if accumulate:
        np.add.at(out, idx, values)
    else:
        out[idx] = values
    return out


def _index_put(x, indices, values, accumulate=False):
    """torch.index_put(x, [i, j, ...], values, accumulate): a copy of x with x[i, j, ...]
    set to values (added to it, repeated indices adding up, when accumulate)."""
    return _index_put_into(x.copy(), indices, values, accumulate)


def _index_put_(x, indices, values, accumulate=False):
    """x.index_put_(indices, values, accumulate): x[indices] = values, in place."""
    return _index_put_into(x, indices, values, accumulate)


reg("tensor.index_put_copy",
    "(Tensor self, Tensor[] indices, Tensor values, bool accumulate=False) -> Tensor",
    _index_put, ("torch.index_put", "Tensor.index_put"),
    lambda a: TensorInfo(a[0].dtype, a[0].shape), may_raise=True)
reg("tensor.index_put_",
    "(Tensor self, Tensor[] indices, Tensor values, bool accumulate=False) -> Tensor",
    _index_put_, ("torch.index_put_", "Tensor.index_put_"),
    lambda a: TensorInfo(a[0].dtype, a[0].shape), may_raise=True)
reg("tensor.trace", "(Tensor self) -> Tensor", _trace, ("torch.trace", "Tensor.trace"),
    _trace_info, may_raise=True)
reg("tensor.rot90", "(Tensor self, int k=1, int[] dims=[0, 1]) -> Tensor", _rot90,
    ("torch.rot90", "Tensor.rot90"), lambda a: TensorInfo(a[0].dtype, None), may_raise=True,
    doc="x turned k times by 90 degrees in the plane of dims (a copy).")
reg("tensor.cross", "(Tensor self, Tensor other, int? dim=None) -> Tensor", _cross,
    ("torch.cross", "Tensor.cross", "torch.linalg.cross"),
    lambda a: TensorInfo(a[0].dtype if a[0].dtype == a[1].dtype else None, None),
    may_raise=True)
reg("tensor.logspace",
    f"(Scalar start, Scalar end, int steps, float base=10.0, {_KW}) -> Tensor", _logspace,
    ("torch.logspace",), lambda a: TensorInfo(a[4].const or "float32", (a[2].const,)),
    may_raise=True)
reg("tensor.scalar_tensor", f"(Scalar s, {_KW}) -> Tensor", _scalar_tensor,
    ("torch.scalar_tensor",), lambda a: TensorInfo(a[1].const or "float32", ()),
    doc="A 0-d tensor of s (float32 unless a dtype is given).")
reg("tensor.stride", "(Tensor self) -> int[]", _strides, ("Tensor.stride",), pure=True,
    doc="The step in elements between neighbours along each dim.")
reg("tensor.stride_dim", "(Tensor self, int dim) -> int", _stride_dim, ("Tensor.stride",),
    pure=True, may_raise=True, doc="The step in elements between neighbours along dim.")
reg("tensor.unfold", "(Tensor self, int dimension, int size, int step) -> Tensor", _unfold,
    ("Tensor.unfold",), _unfold_info, may_raise=True)
reg("tensor.index_add",
    "(Tensor self, int dim, Tensor index, Tensor source, *, Scalar alpha=1) -> Tensor",
    lambda x, d, i, s, alpha=1: _index_add_(x.copy(), d, i, s, alpha),
    ("torch.index_add", "Tensor.index_add"), lambda a: TensorInfo(a[0].dtype, a[0].shape),
    may_raise=True, doc="A copy of self with alpha * source's slices added at index along dim.")
reg("tensor.index_add_",
    "(Tensor self, int dim, Tensor index, Tensor source, *, Scalar alpha=1) -> Tensor",
    _index_add_, ("Tensor.index_add_",), lambda a: TensorInfo(a[0].dtype, a[0].shape),
    may_raise=True)


# ----------------------------------------------------------------------------- elementwise

def _flt(x):
    """x as a float tensor (int and bool tensors become float32, as torch's float ops)."""
    return x if x.dtype.kind in "fc" else x.astype(np.float32)


def _flt2(x, y):
    dt = np.result_type(x, y)
    if dt.kind not in "fc":
        dt = np.dtype(np.float32)
    return x.astype(dt, copy=False), y.astype(dt, copy=False)


def _float_info(a):
    from ember.ops.tensorinfo import to_float
    return TensorInfo(to_float(a[0].dtype), a[0].shape)


def _float2_info(a):
    from ember.ops.tensorinfo import promote_types, to_float
    return TensorInfo(to_float(promote_types(a[0].dtype, a[1].dtype)), None)


def _sinc(x):
    """sin(pi x) / (pi x), 1 at 0."""
    x = _flt(x)
    return arr(np.sinc(x).astype(x.dtype))


def _xlogy(x, y):
    """x * log(y), 0 where x is 0 (unless y is NaN)."""
    x, y = _flt2(x, y)
    with np.errstate(all="ignore"):
        return arr(np.where((x == 0) & ~np.isnan(y), 0, x * np.log(y)).astype(x.dtype))


def _logit(x, eps=None):
    """log(x / (1 - x)), x clamped to [eps, 1 - eps] when eps is given."""
    x = _flt(x)
    if eps is not None:
        x = np.clip(x, eps, 1 - eps)
    with np.errstate(all="ignore"):
        return arr(np.log(x / (1 - x)).astype(x.dtype))


def _binary(fn):
    def kernel(x, y):
        x, y = _flt2(x, y)
        with np.errstate(all="ignore"):
            return arr(fn(x, y).astype(x.dtype))
    kernel.__doc__ = "Elementwise, of the two tensors (float)."
    return kernel


def _erfinv(x):
    """The inverse of erf: Giles' approximation refined by Newton steps on math.erf."""
    import math
    x = _flt(x)
    v = x.astype(np.float64)
    w = -np.log((1.0 - v) * (1.0 + v))
    small = w < 5.0
    ws = w - 2.5
    ps = 2.81022636e-08
    for c in (3.43273939e-07, -3.5233877e-06, -4.39150654e-06, 0.00021858087,
              -0.00125372503, -0.00417768164, 0.246640727, 1.50140941):
        ps = c + ps * ws
    wl = np.sqrt(np.where(w > 0, w, 0)) - 3.0
    pl = -0.000200214257
    for c in (0.000100950558, 0.00134934322, -0.00367342844, 0.00573950773,
              -0.0076224613, 0.00943887047, 1.00167406, 2.83297682):
        pl = c + pl * wl
    with np.errstate(all="ignore"):
        r = np.where(small, ps, pl) * v
        erf = np.frompyfunc(math.erf, 1, 1)
        for _ in range(2):
            fin = np.isfinite(r)
            err = np.where(fin, np.asarray(erf(np.where(fin, r, 0))).astype(np.float64), 0) - v
            r = np.where(fin, r - err / (2 / math.sqrt(math.pi) * np.exp(-r * r)), r)
        r = np.where(v == 1, np.inf, np.where(v == -1, -np.inf, r))
        r = np.where(np.abs(v) > 1, np.nan, r)
    return arr(r.astype(x.dtype))


def _lgamma(x):
    """log|gamma(x)| of each element (math.lgamma; inf at the poles)."""
    import math

    def one(v):
        try:
            return math.lgamma(v)
        except (ValueError, OverflowError):
            return math.inf if v == v else v
    x = _flt(x)
    return arr(np.asarray(np.frompyfunc(one, 1, 1)(x.astype(np.float64))).astype(x.dtype))


def _digamma(x):
    """psi(x): the recurrence up to x >= 6, then the asymptotic series (reflection below
    0; -inf at 0 and NaN at the negative integers, as torch)."""
    x = _flt(x)
    v = x.astype(np.float64)
    out = np.empty_like(v)
    with np.errstate(all="ignore"):
        neg = v < 0
        refl = np.where(neg, 1 - v, v)
        acc = np.zeros_like(v)
        z = refl.copy()
        for _ in range(6):
            lt = z < 6
            acc = np.where(lt, acc - 1 / z, acc)
            z = np.where(lt, z + 1, z)
        z2 = 1 / (z * z)
        series = np.log(z) - 0.5 / z - z2 * (1 / 12 - z2 * (1 / 120 - z2 * (1 / 252 - z2 * (
            1 / 240 - z2 / 132))))
        psi = acc + series
        psi = np.where(neg, psi - np.pi / np.tan(np.pi * v), psi)
        out = np.where(v == 0, -np.inf, psi)
        out = np.where(neg & (v == np.floor(v)), np.nan, out)
    return arr(out.astype(x.dtype))


for _n, _k in (("sinc", _sinc), ("erfinv", _erfinv), ("lgamma", _lgamma),
               ("digamma", _digamma)):
    reg(f"tensor.{_n}", "(Tensor self) -> Tensor", _k,
        (f"torch.{_n}", f"Tensor.{_n}", f"torch.special.{_n}"), _float_info)


def _mvlgamma(x, p):
    """The multivariate log-gamma of dimension p: p(p-1)/4 log(pi) + the sum over
    j < p of lgamma(x - j/2); every element must exceed (p - 1) / 2."""
    import math
    if p < 1:
        raise RuntimeError("p has to be greater than or equal to 1")
    x = _flt(x)
    if np.any(x <= (p - 1) / 2):
        raise RuntimeError(f"All elements must be greater than (p-1)/2 = {(p - 1) / 2}")
    out = sum(_lgamma(x - j / 2).astype(np.float64) for j in range(p))
    return arr((out + p * (p - 1) / 4 * math.log(math.pi)).astype(x.dtype))


reg("tensor.mvlgamma", "(Tensor self, int p) -> Tensor", _mvlgamma,
    ("torch.mvlgamma", "Tensor.mvlgamma", "torch.special.multigammaln"), _float_info,
    may_raise=True)
reg("tensor.logit", "(Tensor self, float? eps=None) -> Tensor", _logit,
    ("torch.logit", "Tensor.logit", "torch.special.logit"), _float_info)
reg("tensor.xlogy", "(Tensor self, Tensor other) -> Tensor", _xlogy,
    ("torch.xlogy", "Tensor.xlogy", "torch.special.xlogy"), _float2_info, may_raise=True)
for _n, _f in (("logaddexp", np.logaddexp), ("copysign", np.copysign), ("fmax", np.fmax),
               ("fmin", np.fmin), ("heaviside", lambda x, v: np.where(x == 0, v, x > 0))):
    reg(f"tensor.{_n}", "(Tensor self, Tensor other) -> Tensor", _binary(_f),
        (f"torch.{_n}", f"Tensor.{_n}"), _float2_info, may_raise=True)
reg("tensor.signbit", "(Tensor self) -> Tensor", lambda x: arr(np.signbit(x)),
    ("torch.signbit", "Tensor.signbit"), lambda a: TensorInfo("bool", a[0].shape),
    doc="Whether each element's sign bit is set (-0.0 included).")
reg("tensor.float_power", "(Tensor self, Scalar exponent) -> Tensor",
    lambda x, e: arr(np.power(x.astype(np.complex128 if x.dtype.kind == "c" else np.float64),
                              e)),
    ("torch.float_power", "Tensor.float_power"),
    lambda a: TensorInfo("complex128" if a[0].dtype in ("complex64", "complex128")
                         else "float64", a[0].shape), doc="x ** e in double precision.")


# ----------------------------------------------------------------------------- reductions

def _dims(dim, ndim):
    if dim is None or dim == []:
        return None
    return check_dims([dim] if isinstance(dim, int) else dim, ndim)


def _nansum(x, dim=None, keepdim=False):
    """The sum treating NaN as 0."""
    d = _dims(dim, x.ndim)
    return arr(np.asarray(np.nansum(x, axis=d, keepdims=keepdim)).astype(x.dtype))


def _nanmean(x, dim=None, keepdim=False):
    """The mean of the values that are not NaN."""
    d = _dims(dim, x.ndim)
    with np.errstate(all="ignore"), __import__("warnings").catch_warnings():
        __import__("warnings").simplefilter("ignore")
        return arr(np.asarray(np.nanmean(x, axis=d, keepdims=keepdim)).astype(x.dtype))


def _moments(kind):
    def kernel(x, dim=None, unbiased=True, keepdim=False):
        d = _dims(dim, x.ndim)
        ddof = 1 if unbiased else 0
        with np.errstate(all="ignore"), __import__("warnings").catch_warnings():
            __import__("warnings").simplefilter("ignore")
            v = np.var(x, axis=d, ddof=ddof, keepdims=keepdim)
            m = np.mean(x, axis=d, keepdims=keepdim)
        s = np.sqrt(v) if kind == "std" else v
        return (arr(np.asarray(s).astype(x.dtype)), arr(np.asarray(m).astype(x.dtype)))
    kernel.__doc__ = f"({kind}, mean) over dims (the unbiased {kind} unless said)."
    return kernel


def _aminmax(x, dim=None, keepdim=False):
    """(min, max) over dim, or over all elements."""
    if x.size == 0:
        raise RuntimeError("aminmax(): cannot compute aminmax over an empty dimension")
    d = None if dim is None else check_dim(dim, x.ndim)
    return (arr(np.asarray(np.min(x, axis=d, keepdims=keepdim))),
            arr(np.asarray(np.max(x, axis=d, keepdims=keepdim))))


def _cumext(better):
    def kernel(x, dim):
        d = check_dim(dim, x.ndim)
        if x.ndim == 0:
            return x.copy(), np.zeros((), np.int64)
        v = np.moveaxis(x, d, 0)
        vals = np.empty_like(v)
        idx = np.empty(v.shape, np.int64)
        cur, at = v[0].copy(), np.zeros(v.shape[1:], np.int64)
        for i in range(v.shape[0]):
            take = better(v[i], cur) | (v[i] == cur) | np.isnan(v[i]) if v.dtype.kind in "fc" \
                else better(v[i], cur) | (v[i] == cur)
            if v.dtype.kind in "fc":
                take = take & ~(np.isnan(cur) & ~np.isnan(v[i]))
            cur = np.where(take, v[i], cur)
            at = np.where(take, i, at)
            vals[i], idx[i] = cur, at
        return arr(np.moveaxis(vals, 0, d)), arr(np.moveaxis(idx, 0, d))
    return kernel


def _frexp(x):
    """(mantissa, exponent): x = mantissa * 2 ** exponent, |mantissa| in [0.5, 1)."""
    if x.dtype.kind != "f":
        raise RuntimeError("torch.frexp() only supports floating-point dtypes")
    m, e = np.frexp(x)
    return arr(m.astype(x.dtype)), arr(e.astype(np.int32))


def _pair_of(dt_first, dt_second=None):
    return lambda a: (TensorInfo(dt_first(a), None),
                      TensorInfo(dt_second(a) if dt_second else dt_first(a), None))


_DIM = "int[]? dim=None, bool unbiased=True, bool keepdim=False"
reg("tensor.nansum", "(Tensor self, int[]? dim=None, bool keepdim=False) -> Tensor", _nansum,
    ("torch.nansum", "Tensor.nansum"), lambda a: TensorInfo(a[0].dtype, None),
    may_raise=True)
reg("tensor.nanmean", "(Tensor self, int[]? dim=None, bool keepdim=False) -> Tensor",
    _nanmean, ("torch.nanmean", "Tensor.nanmean"), lambda a: TensorInfo(a[0].dtype, None),
    may_raise=True)
for _n in ("var", "std"):
    reg(f"tensor.{_n}_mean", f"(Tensor self, {_DIM}) -> Tuple[Tensor, Tensor]",
        _moments(_n), (f"torch.{_n}_mean",), _pair_of(lambda a: a[0].dtype), may_raise=True)
reg("tensor.aminmax", "(Tensor self, *, int? dim=None, bool keepdim=False) -> "
    "Tuple[Tensor, Tensor]", _aminmax, ("torch.aminmax", "Tensor.aminmax"),
    _pair_of(lambda a: a[0].dtype), may_raise=True)
def _logcumsumexp(x, dim):
    """log(cumsum(exp(x))) along dim, accumulated stably."""
    if x.dtype.kind not in "fc":
        raise RuntimeError("logcumsumexp(): expected a floating point or complex input")
    if x.ndim == 0:
        return x.copy()
    d = check_dim(dim, x.ndim)
    with np.errstate(all="ignore"):
        return np.logaddexp.accumulate(x, axis=d).astype(x.dtype, copy=False)


def _bincount(x, weights=None, minlength=0):
    """The count of each value 0..max(x) of a 1-D non-negative int tensor (weights summed
    instead where given: float64 unless the weights are float32)."""
    if x.ndim != 1 or x.dtype.kind not in "iu":
        raise RuntimeError("bincount only supports 1-d non-negative integral inputs.")
    if x.size and x.min() < 0:
        raise RuntimeError("bincount only supports 1-d non-negative integral inputs.")
    if minlength < 0:
        raise RuntimeError("minlength should be >= 0")
    if weights is not None and weights.shape != x.shape:
        raise RuntimeError("weights should be 1-d and have the same length as input")
    out = np.bincount(x, None if weights is None else weights.astype(np.float64),
                      minlength=minlength)
    if weights is None:
        return out.astype(np.int64)
    return out.astype(np.float32 if weights.dtype == np.float32 else np.float64)


reg("tensor.logcumsumexp", "(Tensor self, int dim) -> Tensor", _logcumsumexp,
    ("torch.logcumsumexp", "Tensor.logcumsumexp"), lambda a: TensorInfo(a[0].dtype, a[0].shape),
    may_raise=True)
reg("tensor.bincount", "(Tensor self, Tensor? weights=None, int minlength=0) -> Tensor",
    _bincount, ("torch.bincount", "Tensor.bincount"), lambda a: TensorInfo(None, (None,)),
    may_raise=True)
reg("tensor.cummax", "(Tensor self, int dim) -> Tuple[Tensor, Tensor]", _cumext(np.greater),
    ("torch.cummax", "Tensor.cummax"), _pair_of(lambda a: a[0].dtype, lambda a: "int64"),
    may_raise=True, doc="(running max along dim, where each was found).")
reg("tensor.cummin", "(Tensor self, int dim) -> Tuple[Tensor, Tensor]", _cumext(np.less),
    ("torch.cummin", "Tensor.cummin"), _pair_of(lambda a: a[0].dtype, lambda a: "int64"),
    may_raise=True, doc="(running min along dim, where each was found).")
reg("tensor.frexp", "(Tensor self) -> Tuple[Tensor, Tensor]", _frexp,
    ("torch.frexp", "Tensor.frexp"), _pair_of(lambda a: a[0].dtype, lambda a: "int32"),
    may_raise=True)
reg("tensor.dist", "(Tensor self, Tensor other, Scalar p=2) -> Tensor",
    lambda x, y, p=2: arr(np.asarray(_pnorm(_flt(x) - _flt(_broadcastable(x, y)), p))),
    ("torch.dist", "Tensor.dist"), lambda a: TensorInfo(None, ()), may_raise=True,
    doc="The p-norm of x - y.")


def _broadcastable(x, y):
    """y, once x and y are known to broadcast (torch's RuntimeError otherwise)."""
    err = broadcast_error(x, y)
    if err is not None:
        raise err
    return y


def _pnorm(d, p):
    a = np.abs(d).astype(d.dtype).reshape(-1)
    if p == np.inf:
        return a.max(initial=0).astype(d.dtype)
    if p == -np.inf:
        return a.min().astype(d.dtype)
    if p == 0:
        return np.asarray(np.count_nonzero(a), d.dtype)
    return (np.sum(a ** p) ** (1.0 / p)).astype(d.dtype)


def _histc(x, bins=100, min=0, max=0):
    """A histogram of bins equal bins from min to max (the data's range when both are 0)."""
    lo, hi = float(min), float(max)
    if lo == hi and x.size:
        lo, hi = float(x.min()), float(x.max())
    if lo == hi:
        lo, hi = lo - 1, hi + 1
    h, _ = np.histogram(x, bins=bins, range=(lo, hi))
    return arr(h.astype(x.dtype if x.dtype.kind == "f" else np.float32))


reg("tensor.histc", "(Tensor self, int bins=100, Scalar min=0, Scalar max=0) -> Tensor",
    _histc, ("torch.histc", "Tensor.histc"), lambda a: TensorInfo(a[0].dtype, None),
    may_raise=True)
reg("tensor.bucketize", "(Tensor self, Tensor boundaries, *, bool out_int32=False, "
    "bool right=False) -> Tensor",
    lambda x, b, i32=False, right=False: arr(np.searchsorted(
        b, x, side="right" if right else "left").astype(np.int32 if i32 else np.int64)),
    ("torch.bucketize",), lambda a: TensorInfo("int64", a[0].shape),
    doc="The bucket of each element among the sorted 1-D boundaries.")
reg("tensor.searchsorted", "(Tensor sorted_sequence, Tensor self, *, bool out_int32=False, "
    "bool right=False) -> Tensor",
    lambda s, x, i32=False, right=False: arr(np.searchsorted(
        s, x, side="right" if right else "left").astype(np.int32 if i32 else np.int64)),
    ("torch.searchsorted",), lambda a: TensorInfo("int64", a[1].shape),
    doc="Where each value would be inserted into a sorted 1-D sequence.")


# ----------------------------------------------------------------------------- linear algebra

def _square(x, what):
    if x.ndim < 2 or x.shape[-1] != x.shape[-2]:
        raise RuntimeError(f"{what}: A must be batches of square matrices, but they are "
                           f"{x.shape[-2] if x.ndim >= 2 else 1} by {x.shape[-1]} matrices")
    if x.dtype.kind not in "fc":
        raise RuntimeError(f"{what}: Expected a floating point or complex tensor as input. "
                           f"Got {x.dtype}")


def _det(x):
    """The determinant of each square matrix."""
    _square(x, "linalg.det")
    return arr(np.asarray(np.linalg.det(x)).astype(x.dtype))


def _inv(x):
    """The inverse of each square matrix (RuntimeError if singular)."""
    _square(x, "linalg.inv")
    try:
        return arr(np.linalg.inv(x).astype(x.dtype))
    except np.linalg.LinAlgError:
        raise RuntimeError("linalg.inv: The diagonal element 1 is zero, the inversion could "
                           "not be completed because the input matrix is singular.") from None


def _slogdet(x):
    """(sign, log |det|) of each square matrix."""
    _square(x, "linalg.slogdet")
    s, ld = np.linalg.slogdet(x)
    return arr(np.asarray(s).astype(x.dtype)), arr(np.asarray(ld).astype(x.dtype))


def _logdet(x):
    """log det of each square matrix (NaN if negative, -inf if 0)."""
    s, ld = _slogdet(x)
    return arr(np.where(s < 0, np.nan, np.where(s == 0, -np.inf, ld)).astype(x.dtype))


def _cholesky(x, upper=False):
    """The Cholesky factor (lower, or upper with upper=True) of a positive-definite matrix."""
    _square(x, "linalg.cholesky")
    try:
        low = np.linalg.cholesky(x)
    except np.linalg.LinAlgError:
        raise RuntimeError("linalg.cholesky: The factorization could not be completed "
                           "because the input is not positive-definite.") from None
    out = np.swapaxes(low, -1, -2).conj() if upper else low
    return arr(out.astype(x.dtype))


def _matrix_power(x, n):
    """x multiplied by itself n times (the identity for 0, the inverse's powers below)."""
    _square(x, "linalg.matrix_power") if x.dtype.kind in "fc" else None
    if n < 0:
        x, n = _inv(x), -n
    return arr(np.linalg.matrix_power(x, n).astype(x.dtype))


def _solve(a, b):
    """The X with A X = B (B a vector or a matrix)."""
    _square(a, "linalg.solve")
    try:
        if b.ndim == a.ndim - 1:
            return arr(np.linalg.solve(a, b[..., None])[..., 0].astype(a.dtype))
        return arr(np.linalg.solve(a, b).astype(a.dtype))
    except np.linalg.LinAlgError:
        raise RuntimeError("linalg.solve: The solver failed because the input matrix is "
                           "singular.") from None


_MAT = lambda a: TensorInfo(a[0].dtype, None)  # noqa: E731
_TRAPZ = getattr(np, "trapezoid", None) or getattr(np, "trapz")
reg("tensor.det", "(Tensor self) -> Tensor", _det, ("torch.det", "Tensor.det",
                                                    "torch.linalg.det"), _MAT, may_raise=True)
reg("tensor.inverse", "(Tensor self) -> Tensor", _inv,
    ("torch.inverse", "Tensor.inverse", "torch.linalg.inv"), _MAT, may_raise=True)
reg("tensor.slogdet", "(Tensor self) -> Tuple[Tensor, Tensor]", _slogdet,
    ("torch.slogdet", "Tensor.slogdet", "torch.linalg.slogdet"),
    _pair_of(lambda a: a[0].dtype), may_raise=True)
reg("tensor.logdet", "(Tensor self) -> Tensor", _logdet, ("torch.logdet", "Tensor.logdet"),
    _MAT, may_raise=True)
reg("tensor.cholesky", "(Tensor self, bool upper=False) -> Tensor", _cholesky,
    ("torch.cholesky", "Tensor.cholesky", "torch.linalg.cholesky"), _MAT, may_raise=True)
reg("tensor.matrix_power", "(Tensor self, int n) -> Tensor", _matrix_power,
    ("torch.matrix_power", "Tensor.matrix_power", "torch.linalg.matrix_power"), _MAT,
    may_raise=True)
reg("tensor.pinverse", "(Tensor self, float rcond=0.000000000000001) -> Tensor",
    lambda x, rcond=1e-15: arr(np.linalg.pinv(x, rcond=rcond).astype(x.dtype)),
    ("torch.pinverse", "Tensor.pinverse"), _MAT, may_raise=True,
    doc="The Moore-Penrose pseudo-inverse (singular values below rcond * the largest cut).")
reg("tensor.linalg_pinv", "(Tensor self) -> Tensor",
    lambda x: arr(np.linalg.pinv(x).astype(x.dtype)), ("torch.linalg.pinv",), _MAT,
    may_raise=True, doc="The Moore-Penrose pseudo-inverse.")
reg("tensor.linalg_solve", "(Tensor A, Tensor B) -> Tensor", _solve, ("torch.linalg.solve",),
    _MAT, may_raise=True, doc=_solve.__doc__)
reg("tensor.svdvals", "(Tensor A) -> Tensor",
    lambda x: arr(np.linalg.svd(x, compute_uv=False).astype(x.dtype)),
    ("torch.linalg.svdvals",), _MAT, may_raise=True,
    doc="The singular values, largest first.")
reg("tensor.eigvalsh", "(Tensor A, str UPLO=\"L\") -> Tensor",
    lambda x, uplo="L": arr(np.linalg.eigvalsh(x, UPLO=uplo).astype(x.dtype)),
    ("torch.linalg.eigvalsh",), _MAT, may_raise=True,
    doc="The eigenvalues of a symmetric (Hermitian) matrix, ascending.")
reg("tensor.matrix_rank", "(Tensor A) -> Tensor",
    lambda x: arr(np.asarray(np.linalg.matrix_rank(x)).astype(np.int64)),
    ("torch.linalg.matrix_rank",), lambda a: TensorInfo("int64", None), may_raise=True,
    doc="The numerical rank (singular values above the default tolerance).")


def _addmv(inp, mat, vec, beta=1, alpha=1):
    """beta * input + alpha * (mat @ vec)."""
    prod = mat @ vec
    return arr((inp * beta + prod * alpha if beta != 0 else prod * alpha + 0 * inp)
               .astype(np.result_type(inp, mat)))


def _addr(inp, v1, v2, beta=1, alpha=1):
    """beta * input + alpha * outer(vec1, vec2)."""
    prod = np.outer(v1, v2)
    return arr((inp * beta + prod * alpha if beta != 0 else prod * alpha + 0 * inp)
               .astype(np.result_type(inp, v1)))


def _addbmm(inp, b1, b2, beta=1, alpha=1):
    """beta * input + alpha * (the sum over the batch of b1[i] @ b2[i])."""
    prod = np.matmul(b1, b2).sum(axis=0)
    return arr((inp * beta + prod * alpha if beta != 0 else prod * alpha + 0 * inp)
               .astype(np.result_type(inp, b1)))


_AB = "*, Scalar beta=1, Scalar alpha=1"
reg("tensor.addmv", f"(Tensor self, Tensor mat, Tensor vec, {_AB}) -> Tensor", _addmv,
    ("torch.addmv", "Tensor.addmv"), _MAT, may_raise=True)
reg("tensor.addr", f"(Tensor self, Tensor vec1, Tensor vec2, {_AB}) -> Tensor", _addr,
    ("torch.addr", "Tensor.addr"), _MAT, may_raise=True)
reg("tensor.addbmm", f"(Tensor self, Tensor batch1, Tensor batch2, {_AB}) -> Tensor", _addbmm,
    ("torch.addbmm", "Tensor.addbmm"), _MAT, may_raise=True)
reg("tensor.kron", "(Tensor self, Tensor other) -> Tensor", lambda x, y: arr(np.kron(x, y)),
    ("torch.kron", "Tensor.kron"), _MAT, doc="The Kronecker product.")
reg("tensor.vdot", "(Tensor self, Tensor other) -> Tensor",
    lambda x, y: arr(np.asarray(np.vdot(x, y)).astype(np.result_type(x, y))),
    ("torch.vdot", "Tensor.vdot"), lambda a: TensorInfo(a[0].dtype, ()), may_raise=True,
    doc="The dot product of two 1-D tensors, the first conjugated.")


def _cdist(x1, x2, p=2.0):
    """The p-norm distance between each row of x1 and each row of x2."""
    d = np.abs(x1[..., :, None, :] - x2[..., None, :, :])
    if p == 0:
        return arr((d != 0).sum(-1).astype(x1.dtype))
    if p == np.inf:
        return arr(d.max(-1).astype(x1.dtype))
    return arr((d ** p).sum(-1) ** (1.0 / p)).astype(x1.dtype)


reg("tensor.cdist", "(Tensor x1, Tensor x2, float p=2.0) -> Tensor", _cdist, ("torch.cdist",),
    _MAT, may_raise=True)


# ----------------------------------------------------------------------------- shapes

def _diagonal(x, offset=0, dim1=0, dim2=1):
    """The diagonal of the (dim1, dim2) planes, as a new last dim."""
    a, b = check_dims([dim1, dim2], x.ndim)
    return np.diagonal(x, offset, a, b).copy()


def _diag_embed(x, offset=0, dim1=-2, dim2=-1):
    """Matrices with x's last dim on their diagonal (offset above it)."""
    n = x.shape[-1] + abs(offset)
    out = np.zeros(x.shape[:-1] + (n, n), x.dtype)
    i = np.arange(x.shape[-1])
    r, c = (i, i + offset) if offset >= 0 else (i - offset, i)
    out[..., r, c] = x
    d1, d2 = check_dims([dim1, dim2], out.ndim)
    return np.moveaxis(out, (out.ndim - 2, out.ndim - 1), (d1, d2)).copy()


def _index_copy(x, dim, index, source):
    """A copy of x with the slices at index along dim replaced by source's."""
    if x.ndim == 0:  # torch takes a 0-dim self (and source) as one element
        check_dim(dim, 1)
        return _index_copy(x.reshape(1), 0, index, source.reshape(-1)).reshape(())
    out = x.copy()
    d = check_dim(dim, x.ndim)
    moved = np.moveaxis(out, d, 0)
    moved[index.reshape(-1)] = np.moveaxis(source, d, 0)
    return out


def _index_fill(x, dim, index, value):
    """A copy of x with the slices at index along dim set to value."""
    if x.ndim == 0:
        check_dim(dim, 1)
        return _index_fill(x.reshape(1), 0, index, value).reshape(())
    out = x.copy()
    d = check_dim(dim, x.ndim)
    np.moveaxis(out, d, 0)[index.reshape(-1)] = value
    return out


def _masked_scatter(x, mask, source):
    """A copy of x whose elements where mask is True take source's, in order."""
    m = np.broadcast_to(mask, x.shape)
    out = x.copy()
    k = int(m.sum())
    if k > source.size:
        raise RuntimeError("masked_scatter: expected source to have at least as many "
                           "elements as ones in mask")
    out[m] = source.reshape(-1)[:k]
    return out


def _renorm(x, p, dim, maxnorm):
    """Each slice along dim scaled down to a p-norm of at most maxnorm."""
    d = check_dim(dim, x.ndim)
    axes = tuple(i for i in range(x.ndim) if i != d)
    with np.errstate(all="ignore"):
        if p == float("inf"):
            norms = np.max(np.abs(x), axis=axes, keepdims=True, initial=0)
        else:
            norms = np.sum(np.abs(x) ** p, axis=axes, keepdims=True) ** (1.0 / p)
        scale = np.where(norms > maxnorm, maxnorm / (norms + 1e-7), 1.0)
    return arr((x * scale).astype(x.dtype))


def _fill_diagonal_(x, value, wrap=False):
    """The main diagonal of x set to value (in place)."""
    if x.ndim < 2:
        raise RuntimeError("dimensions must larger than 1")
    if x.ndim > 2 and len(set(x.shape)) != 1:
        raise RuntimeError("all dimensions of input must be of equal length")
    np.fill_diagonal(x, value, wrap=wrap)
    return x


reg("tensor.diagonal", "(Tensor self, int offset=0, int dim1=0, int dim2=1) -> Tensor",
    _diagonal, ("torch.diagonal", "Tensor.diagonal"), _MAT, may_raise=True)
reg("tensor.diag_embed", "(Tensor self, int offset=0, int dim1=-2, int dim2=-1) -> Tensor",
    _diag_embed, ("torch.diag_embed", "Tensor.diag_embed"), _MAT, may_raise=True)
reg("tensor.index_copy", "(Tensor self, int dim, Tensor index, Tensor source) -> Tensor",
    _index_copy, ("torch.index_copy", "Tensor.index_copy"), _MAT, may_raise=True)
reg("tensor.index_fill", "(Tensor self, int dim, Tensor index, Scalar value) -> Tensor",
    _index_fill, ("torch.index_fill", "Tensor.index_fill"), _MAT, may_raise=True)
reg("tensor.masked_scatter", "(Tensor self, Tensor mask, Tensor source) -> Tensor",
    _masked_scatter, ("torch.masked_scatter", "Tensor.masked_scatter"), _MAT, may_raise=True)
reg("tensor.renorm", "(Tensor self, Scalar p, int dim, Scalar maxnorm) -> Tensor", _renorm,
    ("torch.renorm", "Tensor.renorm"), _MAT, may_raise=True)
reg("tensor.fill_diagonal_", "(Tensor self, Scalar fill_value, bool wrap=False) -> Tensor",
    _fill_diagonal_, ("Tensor.fill_diagonal_",), _MAT, may_raise=True)
reg("tensor.new_empty", "(Tensor self, int[] size, *, ScalarType? dtype=None, "
    "Any device=None, bool requires_grad=False) -> Tensor",
    lambda x, s, d=None, *_: np.zeros(tuple(s), d or x.dtype), ("Tensor.new_empty",),
    lambda a: TensorInfo(a[2].const or a[0].dtype, None), may_raise=True,
    doc="A new tensor of size (zeros: ember's empty tensors are zeroed).")
reg("tensor.broadcast_to", "(Tensor self, int[] size) -> Tensor",
    lambda x, s: np.broadcast_to(x, tuple(x.shape[i - len(s) + x.ndim] if n == -1 else n
                                          for i, n in enumerate(s))).copy(),
    ("torch.broadcast_to", "Tensor.broadcast_to"), _MAT, may_raise=True,
    doc="x expanded to size (-1 keeps a dim), as a copy.")
reg("tensor.dstack", "(Tensor[] tensors) -> Tensor", lambda ts: arr(np.dstack(ts)),
    ("torch.dstack",), lambda a: TensorInfo(None, None), may_raise=True,
    doc="The tensors stacked along a third dim (made 3-D first).")
reg("tensor.column_stack", "(Tensor[] tensors) -> Tensor",
    lambda ts: arr(np.column_stack(ts)), ("torch.column_stack",),
    lambda a: TensorInfo(None, None), may_raise=True,
    doc="The tensors as the columns of a matrix (1-D ones as single columns).")
for _k in (1, 2, 3):
    reg(f"tensor.atleast_{_k}d", "(Tensor self) -> Tensor",
        getattr(np, f"atleast_{_k}d"), (f"torch.atleast_{_k}d",), _MAT,
        doc=f"x with at least {_k} dims (size-1 dims added).")
reg("tensor.trapezoid", "(Tensor y, *, Scalar dx=1, int dim=-1) -> Tensor",
    lambda y, dx=1, dim=-1: arr(np.asarray(_TRAPZ(_flt(y), dx=dx, axis=check_dim(
        dim, y.ndim)))), ("torch.trapz", "torch.trapezoid"), lambda a: TensorInfo(None, None),
    may_raise=True, doc="The trapezoid rule's integral of y along dim (spacing dx).")



def _int_pair(fn, what):
    def kernel(x, y):
        if x.dtype.kind not in "biu" or y.dtype.kind not in "biu":
            raise RuntimeError(f"\"{what}_cpu\" not implemented for '{x.dtype}'")
        return arr(fn(x, y).astype(np.result_type(x, y)))
    kernel.__doc__ = f"The elementwise {what} of two integer tensors."
    return kernel


for _n, _f in (("gcd", np.gcd), ("lcm", np.lcm)):
    reg(f"tensor.{_n}", "(Tensor self, Tensor other) -> Tensor", _int_pair(_f, _n),
        (f"torch.{_n}", f"Tensor.{_n}"), _MAT, may_raise=True)
reg("tensor.ldexp", "(Tensor self, Tensor other) -> Tensor",
    lambda x, e: arr((_flt(x) * np.power(2.0, e)).astype(_flt(x).dtype)),
    ("torch.ldexp", "Tensor.ldexp"), _float_info, may_raise=True,
    doc="x * 2 ** other (float).")
def _take_along_dim(x, idx, dim=None):
    """The elements of x at idx along dim (of the flattened x without a dim)."""
    if dim is None:
        return arr(np.take_along_axis(x.reshape(-1), idx.reshape(-1), 0))
    return arr(np.take_along_axis(x, idx, check_dim(dim, x.ndim)))


reg("tensor.take_along_dim", "(Tensor self, Tensor indices, int? dim=None) -> Tensor",
    _take_along_dim, ("torch.take_along_dim", "Tensor.take_along_dim"), _MAT,
    may_raise=True)


# ----------------------------------------------------------------------------- tensor lists

def _meshgrid(ts, indexing=None):
    """Coordinate grids of 1-D tensors ('ij' indexing unless 'xy' is asked for)."""
    if any(t.ndim > 1 for t in ts):
        raise RuntimeError("torch.meshgrid: Expected 0D or 1D tensor in the tensor list")
    return [g.copy() for g in np.meshgrid(*ts, indexing=indexing or "ij")]


def _block_diag(ts):
    """The tensors (matrices, or vectors as rows) on the diagonal of a zero matrix."""
    mats = [t.reshape(1, -1) if t.ndim == 1 else t.reshape(1, 1) if t.ndim == 0 else t
            for t in ts]
    if any(m.ndim != 2 for m in mats):
        raise RuntimeError("torch.block_diag: Input tensors must have 2 or fewer dimensions")
    dt = np.result_type(*mats) if mats else np.float32
    out = np.zeros((sum(m.shape[0] for m in mats), sum(m.shape[1] for m in mats)), dt)
    r = c = 0
    for m in mats:
        out[r:r + m.shape[0], c:c + m.shape[1]] = m
        r, c = r + m.shape[0], c + m.shape[1]
    return out


def _cartesian_prod(ts):
    """Every combination of one element of each 1-D tensor, as rows (a 1-D tensor for one)."""
    if len(ts) == 1:
        return ts[0].copy()
    grids = np.meshgrid(*ts, indexing="ij")
    return np.stack([g.reshape(-1) for g in grids], axis=1)


def _chain_matmul(ts):
    """The product of the matrices, left to right."""
    out = ts[0]
    for t in ts[1:]:
        out = out @ t
    return arr(np.asarray(out))


def _tensor_split(x, sections, dim=0):
    """x split along dim into `sections` parts (the first ones one longer), or at the
    given indices."""
    d = check_dim(dim, x.ndim)
    parts = np.array_split(x, sections, axis=d) if isinstance(sections, int) else \
        np.split(x, list(sections), axis=d)
    return [p.copy() for p in parts]


def _unique_consecutive(x):
    """x with each run of equal neighbours (of the flattened x) kept once."""
    flat = x.reshape(-1)
    if flat.size == 0:
        return flat.copy()
    keep = np.concatenate([[True], flat[1:] != flat[:-1]])
    return flat[keep].copy()


_LIST = lambda a: TensorInfo(None, None)  # noqa: E731
reg("tensor.meshgrid", "(Tensor[] tensors, *, str? indexing=None) -> Tensor[]", _meshgrid,
    ("torch.meshgrid",), may_raise=True, doc=_meshgrid.__doc__.split("\n")[0])
reg("tensor.block_diag", "(Tensor[] tensors) -> Tensor", _block_diag, ("torch.block_diag",),
    _LIST, may_raise=True)
reg("tensor.cartesian_prod", "(Tensor[] tensors) -> Tensor", _cartesian_prod,
    ("torch.cartesian_prod",), _LIST, may_raise=True)
reg("tensor.chain_matmul", "(Tensor[] matrices) -> Tensor", _chain_matmul,
    ("torch.chain_matmul", "torch.linalg.multi_dot"), _LIST, may_raise=True)
reg("tensor.tensor_split", "(Tensor self, Any indices_or_sections, int dim=0) -> Tensor[]",
    _tensor_split, ("torch.tensor_split", "Tensor.tensor_split"), may_raise=True,
    doc="x split along dim into sections parts, or at the given indices.")
def _even_split(x, s, dim, what, least):
    if x.ndim < least:
        _too_few(x, what, least)
    if isinstance(s, int) and (s == 0 or x.shape[dim] % s):
        raise RuntimeError(f"torch.{what} attempted to split along dimension {dim}, but the "
                           f"size of the dimension {x.shape[dim]} is not divisible by the "
                           f"split_size {s}!")
    return _tensor_split(x, s, dim)


reg("tensor.vsplit", "(Tensor self, Any indices_or_sections) -> Tensor[]",
    lambda x, s: _even_split(x, s, 0, "vsplit", 2),
    ("torch.vsplit", "Tensor.vsplit"), may_raise=True, doc="tensor_split along dim 0.")
reg("tensor.hsplit", "(Tensor self, Any indices_or_sections) -> Tensor[]",
    lambda x, s: _even_split(x, s, 1 if x.ndim >= 2 else 0, "hsplit", 1),
    ("torch.hsplit", "Tensor.hsplit"), may_raise=True,
    doc="tensor_split along dim 1 (dim 0 of a 1-D tensor).")
reg("tensor.unique_consecutive", "(Tensor self) -> Tensor", _unique_consecutive,
    ("torch.unique_consecutive", "Tensor.unique_consecutive"), _LIST)


def _too_few(x, what, n):
    raise RuntimeError(f"torch.{what} requires a tensor with at least {n} dimension, but got "
                       f"a tensor with {x.ndim} dimensions!")


# ----------------------------------------------------------------------------- losses

def _reduced(loss, reduction):
    if reduction == "none":
        return arr(loss)
    if reduction == "sum":
        return arr(np.asarray(loss.sum(dtype=loss.dtype)))
    if reduction == "mean":
        return arr(np.asarray(loss.mean(dtype=loss.dtype)))
    raise ValueError(f"{reduction} is not a valid value for reduction")


def _hinge_embedding(x, y, margin=1.0, reduction="mean"):
    """x where y is not -1, plus max(0, margin - x) where y is not 1 (torch's formula)."""
    x, y = _flt2(x, y)
    loss = np.where(y != -1, x, 0) + np.where(y != 1, np.maximum(0, margin - x), 0)
    return _reduced(loss.astype(x.dtype), reduction)


def _margin_ranking(x1, x2, y, margin=0.0, reduction="mean"):
    """max(0, -y * (x1 - x2) + margin)."""
    if not x1.ndim == x2.ndim == y.ndim:
        raise RuntimeError("margin_ranking_loss : All input tensors should have same "
                           f"dimension but got sizes: input1: torch.Size({list(x1.shape)}), "
                           f"input2: torch.Size({list(x2.shape)}), target: "
                           f"torch.Size({list(y.shape)}) ")
    loss = np.maximum(0, -y * (x1 - x2) + margin)
    return _reduced(loss.astype(np.result_type(x1, x2)), reduction)


def _soft_margin(x, y, reduction="mean"):
    """log(1 + exp(-y * x))."""
    x, y = _flt2(x, y)
    return _reduced(np.logaddexp(0, -y * x).astype(x.dtype), reduction)


def _multilabel_soft_margin(x, y, weight=None, reduction="mean"):
    """The mean over classes of the binary cross entropy of sigmoid(x) against y."""
    x, y = _flt2(x, y)
    loss = -(y * -np.logaddexp(0, -x) + (1 - y) * -np.logaddexp(0, x))
    if weight is not None:
        loss = loss * weight
    loss = loss.mean(axis=-1).astype(x.dtype)
    return _reduced(loss, reduction)


def _poisson_nll(x, t, log_input=True, full=False, eps=1e-8, reduction="mean"):
    """exp(x) - t * x (log_input), else x - t * log(x + eps); Stirling's term with full."""
    x, t = _flt2(x, t)
    loss = np.exp(x) - t * x if log_input else x - t * np.log(x + eps)
    if full:
        with np.errstate(all="ignore"):
            st = t * np.log(t) - t + 0.5 * np.log(2 * np.pi * t)
        loss = loss + np.where(t > 1, st, 0)
    return _reduced(loss.astype(x.dtype), reduction)


def _gaussian_nll(x, t, var, full=False, eps=1e-6, reduction="mean"):
    """0.5 * (log(max(var, eps)) + (x - t) ** 2 / max(var, eps)) (+ 0.5 log(2 pi))."""
    x, t = _flt2(x, t)
    if var.ndim != x.ndim and var.shape == x.shape[:-1]:
        var = var[..., None]
    if np.any(var < 0):
        raise ValueError("var has negative entry/entries")
    v = np.maximum(var, eps)
    loss = 0.5 * (np.log(v) + (x - t) ** 2 / v)
    if full:
        loss = loss + 0.5 * np.log(2 * np.pi)
    return _reduced(loss.astype(x.dtype), reduction)


def _triplet_margin(a, p, n, margin=1.0, pn=2.0, eps=1e-6, swap=False, reduction="mean"):
    """max(d(a, p) - d(a, n) + margin, 0), d the pn-norm distance (+ eps)."""
    def dist(u, v):
        return np.sum(np.abs(u - v + eps) ** pn, axis=-1) ** (1.0 / pn)
    dp, dn = dist(a, p), dist(a, n)
    if swap:
        dn = np.minimum(dn, dist(p, n))
    return _reduced(np.maximum(dp - dn + margin, 0).astype(a.dtype), reduction)


def _bilinear(x1, x2, w, b=None):
    """x1^T W_k x2 (+ b_k) for each output k."""
    out = np.einsum("...i,kij,...j->...k", x1, w, x2)
    if b is not None:
        out = out + b
    return arr(out.astype(np.result_type(x1, w)))


def _margin_targets(x, target, what):
    if x.ndim not in (1, 2) or target.ndim != x.ndim - (0 if what == "multilabel" else 1) \
            and not (x.ndim == 1 and target.ndim == 0):
        raise RuntimeError(f"{what}_margin_loss: inconsistent input {list(x.shape)} and "
                           f"target {list(target.shape)}")
    return x.reshape(1, -1) if x.ndim == 1 else x


def _multi_margin(x, target, p=1, margin=1.0, weight=None, size_average=None, reduce=None,
                  reduction="mean"):
    """Per sample: the sum over classes i != y of max(0, margin - x[y] + x[i]) ** p (times
    weight[y]), over the number of classes."""
    reduction = legacy_reduction(size_average, reduce, reduction)
    if p not in (1, 2):
        raise RuntimeError("only p == 1 and p == 2 supported")
    if x.dtype.kind != "f":
        raise RuntimeError("multi_margin_loss: expected a floating point input")
    x2 = _margin_targets(x, target, "multi")
    y = target.reshape(-1).astype(np.int64)
    n, c = x2.shape
    if y.shape[0] != n or np.any((y < 0) | (y >= c)):
        raise RuntimeError("multi_margin_loss: target out of range")
    rows = np.arange(n)
    with np.errstate(all="ignore"):
        z = np.maximum(margin - x2[rows, y][:, None] + x2, 0) ** p
        if weight is not None:
            z = z * weight[y][:, None]
        z[rows, y] = 0
        loss = (z.sum(axis=1) / c).astype(x.dtype)
    if x.ndim == 1 and reduction == "none":
        loss = loss.reshape(())
    return _reduced(loss, reduction)


def _multilabel_margin(x, target, size_average=None, reduce=None, reduction="mean"):
    """Per sample: for each target class j (those before the first -1) and each class i not
    a target, max(0, 1 - (x[j] - x[i])), summed, over the number of classes."""
    reduction = legacy_reduction(size_average, reduce, reduction)
    if x.dtype.kind != "f":
        raise RuntimeError("multilabel_margin_loss: expected a floating point input")
    x2 = _margin_targets(x, target, "multilabel")
    t2 = target.reshape(x2.shape).astype(np.int64)
    n, c = x2.shape
    loss = np.zeros(n, dtype=x.dtype)
    for k in range(n):
        ends = np.nonzero(t2[k] < 0)[0]
        tgt = t2[k, :ends[0] if len(ends) else c]
        if np.any(tgt >= c):
            raise RuntimeError("multilabel_margin_loss: target out of range")
        is_t = np.zeros(c, dtype=bool)
        is_t[tgt] = True
        others = x2[k, ~is_t]
        total = sum(np.maximum(1 - (x2[k, j] - others), 0).sum() for j in tgt)
        loss[k] = total / c
    if x.ndim == 1 and reduction == "none":
        loss = loss.reshape(())
    return _reduced(loss, reduction)


_R = 'str reduction="mean"'
_LOSS = lambda a: TensorInfo(a[0].dtype, None)  # noqa: E731
reg("tensor.hinge_embedding_loss", f"(Tensor self, Tensor target, float margin=1.0, {_R}) "
    "-> Tensor", _hinge_embedding, (f"{F}.hinge_embedding_loss",), _LOSS, may_raise=True)
reg("tensor.margin_ranking_loss", "(Tensor input1, Tensor input2, Tensor target, "
    f"float margin=0.0, {_R}) -> Tensor", _margin_ranking, (f"{F}.margin_ranking_loss",),
    _LOSS, may_raise=True)
reg("tensor.multi_margin_loss", "(Tensor self, Tensor target, int p=1, float margin=1.0, "
    f"Tensor? weight=None, bool? size_average=None, bool? reduce=None, {_R}) -> Tensor",
    _multi_margin, (f"{F}.multi_margin_loss", "torch.multi_margin_loss"), _LOSS,
    may_raise=True)
reg("tensor.multilabel_margin_loss", "(Tensor self, Tensor target, bool? size_average=None, "
    f"bool? reduce=None, {_R}) -> Tensor", _multilabel_margin,
    (f"{F}.multilabel_margin_loss", "torch.multilabel_margin_loss"), _LOSS, may_raise=True)
reg("tensor.soft_margin_loss", f"(Tensor self, Tensor target, {_R}) -> Tensor", _soft_margin,
    (f"{F}.soft_margin_loss",), _LOSS, may_raise=True)
reg("tensor.multilabel_soft_margin_loss", f"(Tensor self, Tensor target, Tensor? weight=None, "
    f"{_R}) -> Tensor", _multilabel_soft_margin, (f"{F}.multilabel_soft_margin_loss",), _LOSS,
    may_raise=True)
reg("tensor.poisson_nll_loss", "(Tensor self, Tensor target, bool log_input=True, "
    f"bool full=False, float eps=0.00000001, {_R}) -> Tensor", _poisson_nll,
    (f"{F}.poisson_nll_loss",), _LOSS, may_raise=True)
reg("tensor.gaussian_nll_loss", "(Tensor self, Tensor target, Tensor var, bool full=False, "
    f"float eps=0.000001, {_R}) -> Tensor", _gaussian_nll, (f"{F}.gaussian_nll_loss",), _LOSS,
    may_raise=True)
reg("tensor.triplet_margin_loss", "(Tensor anchor, Tensor positive, Tensor negative, "
    "float margin=1.0, float p=2.0, float eps=0.000001, bool swap=False, "
    f"{_R}) -> Tensor", _triplet_margin, (f"{F}.triplet_margin_loss",), _LOSS, may_raise=True)
reg("tensor.bilinear", "(Tensor input1, Tensor input2, Tensor weight, Tensor? bias=None) -> "
    "Tensor", _bilinear, (f"{F}.bilinear",), _LOSS, may_raise=True)
reg("tensor.rrelu_eval", "(Tensor self, float lower=0.125, float upper=0.3333333333333333, "
    "bool training=False, bool inplace=False) -> Tensor",
    lambda x, lo=0.125, hi=1 / 3, training=False, inplace=False: _rrelu(x, lo, hi, training),
    (f"{F}.rrelu", "torch.rrelu"), lambda a: TensorInfo(a[0].dtype, a[0].shape),
    may_raise=True, doc="rrelu outside training: a leaky relu of slope (lower + upper) / 2.")


def _rrelu(x, lo, hi, training):
    if training:
        raise RuntimeError("rrelu in training mode draws random slopes; ember supports "
                           "rrelu(training=False) only")
    return arr(np.where(x >= 0, x, x * ((lo + hi) / 2)).astype(x.dtype))


def _pad_sequence(seqs, batch_first=False, padding_value=0.0, padding_side="right"):
    """The tensors padded to the longest one's length along dim 0 and stacked (on dim 1,
    or dim 0 with batch_first); padding on the right, or the left."""
    if not seqs:
        raise RuntimeError("received an empty list of sequences")
    if padding_side not in ("right", "left"):
        raise ValueError(f"Expected padding_side to be one of left or right, but got "
                         f"{padding_side}.")
    n = max(s.shape[0] for s in seqs)
    trail = seqs[0].shape[1:]
    out = np.full((len(seqs), n) + trail, padding_value, np.result_type(*seqs))
    for i, s in enumerate(seqs):
        if padding_side == "right":
            out[i, :s.shape[0]] = s
        else:
            out[i, n - s.shape[0]:] = s
    return out if batch_first else np.swapaxes(out, 0, 1).copy()


reg("tensor.pad_sequence", "(Tensor[] sequences, bool batch_first=False, "
    "float padding_value=0.0, str padding_side=\"right\") -> Tensor", _pad_sequence,
    ("torch.nn.utils.rnn.pad_sequence",), _LIST, may_raise=True)


def _linalg_norm(x, ord=None, dim=None, keepdim=False):
    """torch.linalg.norm without ord: the 2-norm of the flattened x (or over dim); with an
    ord, numpy's vector or matrix norm of that order."""
    if x.dtype.kind not in "fc":
        raise RuntimeError(f"linalg.vector_norm: Expected a floating point or complex tensor "
                           f"as input. Got {x.dtype.name.capitalize()}")
    d = None if dim is None else tuple(check_dim(k, x.ndim) for k in
                                       ([dim] if isinstance(dim, int) else dim))
    if ord is None:
        a = np.abs(x)
        out = np.sqrt(np.sum(a * a, axis=d, keepdims=keepdim))
    else:
        out = np.linalg.norm(x, ord=ord, axis=d, keepdims=keepdim)
    part = x.real.dtype if x.dtype.kind == "c" else x.dtype
    return arr(np.asarray(out).astype(part))


def _matrix_norm(x, ord="fro", dim=(-2, -1), keepdim=False):
    """The Frobenius (default), nuclear or induced norm of the matrices in x."""
    d = tuple(check_dim(k, x.ndim) for k in dim)
    out = np.linalg.norm(x, ord=ord, axis=d, keepdims=keepdim)
    part = x.real.dtype if x.dtype.kind == "c" else x.dtype
    return arr(np.asarray(out).astype(part))


def _qr(x, mode="reduced"):
    """(Q, R) of the QR decomposition (LAPACK's, as torch's CPU kernel)."""
    if mode not in ("reduced", "complete", "r"):
        raise RuntimeError(f"qr received unrecognized mode '{mode}' but expected one of "
                           "'reduced' (default), 'r', or 'complete'")
    q, r = np.linalg.qr(x, mode="complete" if mode == "complete" else "reduced")
    if mode == "r":
        q = np.zeros((0,), x.dtype)
    return arr(q.astype(x.dtype)), arr(r.astype(x.dtype))


reg("tensor.linalg_norm", "(Tensor self, Any ord=None, Any dim=None, bool keepdim=False) "
    "-> Tensor", _linalg_norm, ("torch.linalg.norm",), lambda a: TensorInfo(None, None),
    may_raise=True)
reg("tensor.matrix_norm", "(Tensor self, Any ord=\"fro\", int[] dim=[-2, -1], "
    "bool keepdim=False) -> Tensor", _matrix_norm, ("torch.linalg.matrix_norm",),
    lambda a: TensorInfo(None, None), may_raise=True)
reg("tensor.qr", "(Tensor self, str mode=\"reduced\") -> Tuple[Tensor, Tensor]", _qr,
    ("torch.linalg.qr",), lambda a: (TensorInfo(a[0].dtype, None),
                                     TensorInfo(a[0].dtype, None)), may_raise=True)


def _mode(x, dim=-1, keepdim=False):
    """(the most frequent value along dim, the last index where it is); the smallest value
    among equally frequent ones, as torch's CPU kernel."""
    if x.ndim == 0:
        return x.copy(), np.zeros((), np.int64)
    d = check_dim(dim, x.ndim)
    lanes = np.moveaxis(x, d, -1)
    flat = lanes.reshape(-1, lanes.shape[-1])
    if flat.shape[-1] == 0:
        raise IndexError("mode(): Expected reduction dim 0 to have non-zero size.")
    vals = np.empty(flat.shape[0], x.dtype)
    idx = np.empty(flat.shape[0], np.int64)
    for i, lane in enumerate(flat):
        u, c = np.unique(lane, return_counts=True)
        v = u[np.argmax(c)]  # np.unique sorts: the first of the most frequent is smallest
        vals[i] = v
        idx[i] = np.nonzero(lane == v)[0][-1]
    shape = lanes.shape[:-1]
    vals, idx = vals.reshape(shape), idx.reshape(shape)
    if keepdim:
        vals, idx = np.expand_dims(vals, d), np.expand_dims(idx, d)
    return arr(vals), arr(idx)


reg("tensor.mode", "(Tensor self, int dim=-1, bool keepdim=False) -> Tuple[Tensor, Tensor]",
    _mode, ("torch.mode", "Tensor.mode"), _pair_of(lambda a: a[0].dtype, lambda a: "int64"),
    may_raise=True)


def _new_tensor(x, data, dtype=None, device=None, requires_grad=False):
    """A new tensor holding a copy of data, of x's dtype unless one is given."""
    if isinstance(data, np.ndarray):
        return data.astype(dtype or x.dtype)
    return np.array(data).astype(dtype or x.dtype)


reg("tensor.new_tensor", "(Tensor self, Any data, *, ScalarType? dtype=None, Any device=None, "
    "bool requires_grad=False) -> Tensor", _new_tensor, ("Tensor.new_tensor",),
    lambda a: TensorInfo(a[2].const or a[0].dtype, None), may_raise=True)
