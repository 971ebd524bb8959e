"""Operators that derivative rules emit (`ops/vjp_*.py`): reductions back to an operand's
shape, and the backward kernels of operators whose gradient is not worth spelling out in
other operators (pooling, convolution weights, the losses).

Each has a derivative rule of its own where grad-of-grad needs it (`tensor.sum_to`);
the `*_backward` kernels have none (differentiating twice through them is a CompileError
naming them)."""

from __future__ import annotations

import math

import numpy as np
from numpy.lib.stride_tricks import as_strided

from ember.ops.registry import op
from ember.ops.tensor_common import arr, reg
from ember.ops.tensorinfo import UNKNOWN, TensorInfo
from ember.ops.workspace import padded, scratch


def sum_to(g, like):
    """g summed over the dims broadcasting added to like's shape, in like's dtype."""
    g = arr(g)
    shape = like.shape
    lead = g.ndim - len(shape)
    if lead > 0:
        g = g.sum(axis=tuple(range(lead)))
    axes = tuple(i for i, (a, b) in enumerate(zip(g.shape, shape)) if b == 1 and a != 1)
    if axes:
        g = g.sum(axis=axes, keepdims=True)
    if g.shape != shape:
        g = np.broadcast_to(g, shape)
    dtype = like.dtype if like.dtype.kind == "f" else g.dtype
    if type(g) is np.ndarray and g.dtype == dtype and g.flags.c_contiguous:
        return g  # a fresh sum, or g itself (tensor values are not written in place)
    return np.array(g, dtype=dtype, copy=True)


def mul_sum_to(a, b, like):
    """sum_to(a * b, like), without the whole product when like is a and b's common shape
    with trailing dims reduced to 1 (a per-channel scale's gradient: (N, C, H, W) factors
    to (N, C, 1, 1)): one dot product per kept element."""
    a, b = arr(a), arr(b)
    shape = a.shape
    if b.shape == shape and a.dtype == b.dtype == like.dtype and a.dtype.kind == "f" and \
            len(like.shape) == len(shape) and like.shape != shape:
        k = len(shape)
        while k and like.shape[k - 1] == 1:
            k -= 1
        if like.shape[:k] == shape[:k] and k < len(shape):
            m, r = math.prod(shape[:k]), math.prod(shape[k:])
            rows = np.matmul(np.ascontiguousarray(a).reshape(m, 1, r),
                             np.ascontiguousarray(b).reshape(m, r, 1))
            return rows.reshape(like.shape)
    from ember.ops.registry import get
    return sum_to(get("tensor.mul").kernel(a, b), like)


reg("tensor.mul_sum_to", "(Tensor self, Tensor other, Tensor like) -> Tensor", mul_sum_to,
    shape=lambda a: _like_second([a[0], a[2]]), may_raise=True)


def _like_second(args):
    b = args[1]
    return TensorInfo(b.dtype, b.shape) if b.is_tensor else UNKNOWN


def _like_third(args):
    b = args[2]
    return TensorInfo(b.dtype, b.shape) if b.is_tensor else UNKNOWN


reg("tensor.sum_to", "(Tensor self, Tensor like) -> Tensor", sum_to, shape=_like_second)


def seed_like(seed, like):
    """The adjoint seed of a function returning `like`: `ones_like(like) * seed` (a 0-d
    seed broadcasts), which is seed itself when it has like's shape and dtype already."""
    seed = arr(seed)
    if seed.shape == like.shape and seed.dtype == like.dtype:
        return seed
    from ember.ops.registry import get
    ones = get("tensor.ones_like").kernel(like, None, None, None)
    return get("tensor.mul").kernel(ones, seed)


def _seed_info(args):
    a, b = args[0], args[1]
    if not (a.is_tensor and b.is_tensor):
        return UNKNOWN
    return TensorInfo(b.dtype if a.dtype == b.dtype else None, b.shape)


reg("tensor.seed_like", "(Tensor seed, Tensor like) -> Tensor", seed_like, shape=_seed_info,
    pure=True, may_raise=True)


def zeros_unread(like):
    """Zeros of like's shape and dtype as one read-only broadcast element: the adjoint an
    adjoint function returns for a parameter it was not asked to differentiate, which
    its caller drops (ember.autodiff.train)."""
    return np.broadcast_to(np.zeros((), like.dtype), like.shape)


reg("tensor.zeros_unread", "(Tensor self) -> Tensor", zeros_unread,
    shape=lambda a: TensorInfo(a[0].dtype, a[0].shape) if a[0].is_tensor else UNKNOWN,
    pure=True)


@op("grad.check_scalar(int numel) -> None", may_raise=True, pure=False)
def check_scalar(numel):
    """torch's error for the gradient of a result that is not one element."""
    if numel != 1:
        raise RuntimeError("grad can be implicitly created only for scalar outputs "
                           f"(the function returned {numel} elements)")


# ----------------------------------------------------------------------------- pooling / conv


def max_pool2d_backward(g, x, kernel_size, stride, padding, dilation, ceil_mode):
    """The gradient of max_pool2d: each window's g goes to its (first) maximum."""
    from ember.ops.tensor_pool_grad import max_pool_backward
    return max_pool_backward(g, x, kernel_size, stride, padding, dilation, ceil_mode, 2)


reg("tensor.max_pool2d_backward",
    "(Tensor grad, Tensor self, Any kernel_size, Any stride=None, Any padding=0, "
    "Any dilation=1, bool ceil_mode=False) -> Tensor", max_pool2d_backward, shape=_like_second)


def _pair(v):
    return (v, v) if isinstance(v, int) else tuple(v)


def conv2d_input_backward(g, x, w, stride, padding, dilation, groups):
    """d(conv2d)/d(input): the transposed convolution of g with w, cropped to x's size."""
    g, w = arr(g), arr(w)
    sh, sw = _pair(stride)
    ph, pw = _pair(padding)
    dh, dw = _pair(dilation)
    n, cin, hin, win = x.shape
    cout, cpg, kh, kw = w.shape
    if (sh, sw, dh, dw) == (1, 1, 1, 1) and ph < kh and pw < kw and g.dtype == w.dtype:
        # stride 1: the "full" convolution of g with w flipped and its channels swapped
        # within each group, through the forward kernel (a GEMM over a wide im2col; the
        # depthwise kernel for depthwise layers), no strided adds
        from ember.ops.tensor_conv import conv2d
        opg = cout // groups
        wt = w.reshape(groups, opg, cpg, kh, kw).transpose(0, 2, 1, 3, 4)
        wt = np.ascontiguousarray(wt.reshape(groups * cpg, opg, kh, kw)[:, :, ::-1, ::-1])
        out = conv2d(g, wt, None, 1, (kh - 1 - ph, kw - 1 - pw), 1, groups)
        return np.ascontiguousarray(out).astype(x.dtype, copy=False)
    hp, wp = hin + 2 * ph, win + 2 * pw
    out = np.zeros((n, cin, hp, wp), dtype=np.result_type(g.dtype, w.dtype))
    oh, ow = g.shape[2], g.shape[3]
    opg = cout // groups
    for gi in range(groups):
        gg = g[:, gi * opg:(gi + 1) * opg]            # n, opg, oh, ow
        ww = w[gi * opg:(gi + 1) * opg]               # opg, cpg, kh, kw
        cols = np.tensordot(gg, ww, axes=([1], [0]))  # n, oh, ow, cpg, kh, kw
        for i in range(kh):
            for j in range(kw):
                hs, ws = i * dh, j * dw
                out[:, gi * cpg:(gi + 1) * cpg, hs:hs + sh * (oh - 1) + 1:sh,
                    ws:ws + sw * (ow - 1) + 1:sw] += cols[:, :, :, :, i, j].transpose(0, 3, 1, 2)
    return np.ascontiguousarray(out[:, :, ph:ph + hin, pw:pw + win]).astype(x.dtype, copy=False)


def conv2d_weight_backward(g, x, w, stride, padding, dilation, groups):
    """d(conv2d)/d(weight): correlation of the padded input with g (one GEMM per group
    over the input's windows)."""
    g, x = arr(g), arr(x)
    sh, sw = _pair(stride)
    ph, pw = _pair(padding)
    dh, dw = _pair(dilation)
    cout, cpg, kh, kw = w.shape
    oh, ow = g.shape[2], g.shape[3]
    if groups == 1:
        return _conv2d_weight_taps(g, x, w, (sh, sw), (ph, pw), (dh, dw), oh, ow)
    if cpg == 1 and cout == groups:  # depthwise: per tap, a per-channel dot product
        return _depthwise_weight(g, x, w, (sh, sw), (ph, pw), (dh, dw), oh, ow)
    xp = np.pad(x, ((0, 0), (0, 0), (ph, ph), (pw, pw)))
    win = np.lib.stride_tricks.sliding_window_view(
        xp, ((kh - 1) * dh + 1, (kw - 1) * dw + 1), axis=(2, 3))
    win = win[:, :, :sh * (oh - 1) + 1:sh, :sw * (ow - 1) + 1:sw, ::dh, ::dw]
    opg = cout // groups
    out = np.empty(w.shape, dtype=np.result_type(g.dtype, x.dtype))
    for gi in range(groups):
        gg = g[:, gi * opg:(gi + 1) * opg]
        ws = win[:, gi * cpg:(gi + 1) * cpg]
        cols = np.ascontiguousarray(ws.transpose(0, 2, 3, 1, 4, 5)).reshape(-1, cpg * kh * kw)
        rows = np.ascontiguousarray(gg.transpose(1, 0, 2, 3)).reshape(opg, -1)
        out[gi * opg:(gi + 1) * opg] = (rows @ cols).reshape(opg, cpg, kh, kw)
    return out.astype(w.dtype, copy=False)


_DW_PLANES = 32
"""(sample, channel) planes per block in _depthwise_weight (its tap columns stay in L2)."""


def _depthwise_weight(g, x, w, stride, padding, dilation, oh, ow):
    """d(depthwise conv2d)/d(weight): per block of (sample, channel) planes, the planes'
    kh * kw shifted windows copied into a (planes, taps, oh * ow) buffer in cache and one
    batched product with the planes' g as columns; the planes' sums added per channel."""
    (sh, sw), (ph, pw), (dh, dw) = stride, padding, dilation
    c, _, kh, kw = w.shape
    n = x.shape[0]
    dt = np.result_type(g.dtype, x.dtype)
    xp = np.ascontiguousarray(x, dtype=dt)
    if ph or pw:
        xp = padded("dwgrad.xp", xp, [(ph, ph), (pw, pw)])
    planes = xp.reshape(n * c, xp.shape[2], xp.shape[3])
    gp = np.ascontiguousarray(g, dtype=dt).reshape(n * c, oh * ow, 1)
    taps, size = kh * kw, oh * ow
    s0, s1, s2 = planes.strides
    block = min(_DW_PLANES, n * c)
    cols = scratch("dwgrad.cols", (block, kh, kw, oh, ow), dt)
    per = np.empty((n * c, taps, 1), dt)
    for b0 in range(0, n * c, block):
        nb = min(block, n * c - b0)
        view = as_strided(planes[b0:], (nb, kh, kw, oh, ow),
                          (s0, dh * s1, dw * s2, sh * s1, sw * s2), writeable=False)
        np.copyto(cols[:nb], view)
        np.matmul(cols[:nb].reshape(nb, taps, size), gp[b0:b0 + nb], out=per[b0:b0 + nb])
    out = per.reshape(n, c, taps).sum(axis=0, dtype=dt)
    return out.reshape(w.shape).astype(w.dtype, copy=False)


def _conv2d_weight_taps(g, x, w, stride, padding, dilation, oh, ow):
    """d(conv2d)/d(weight) without groups: a few samples at a time, their input windows
    gathered tap by tap into a (C, kh, kw, n * oh * ow) buffer that stays in cache (each
    tap one copy of whole rows), then one GEMM with their g as (O, n * oh * ow), summed."""
    (sh, sw), (ph, pw), (dh, dw) = stride, padding, dilation
    cout, cin, kh, kw = w.shape
    n = x.shape[0]
    dt = np.result_type(g.dtype, x.dtype)
    xp = x.astype(dt, copy=False)
    if ph or pw:
        xp = padded("conv.xp", xp, [(ph, ph), (pw, pw)])
    k = cin * kh * kw
    bs = max(1, min(n, (1 << 21) // max(k * oh * ow * dt.itemsize, 1)))
    g = g.astype(dt, copy=False)
    out = np.zeros((cout, k), dt)
    part = np.empty((cout, k), dt)
    cols = scratch("conv.cols", (cin, kh, kw, bs, oh, ow), dt)
    for s in range(0, n, bs):
        m = min(bs, n - s)
        c = cols[:, :, :, :m]
        xs = xp[s:s + m].transpose(1, 0, 2, 3)
        for i in range(kh):
            for j in range(kw):
                c[:, i, j] = xs[:, :, i * dh:i * dh + sh * (oh - 1) + 1:sh,
                                j * dw:j * dw + sw * (ow - 1) + 1:sw]
        rows = g[s:s + m].transpose(1, 0, 2, 3).reshape(cout, -1)  # one copy per block
        np.matmul(rows, c.reshape(k, -1).T, out=part)
        out += part
    return out.reshape(w.shape).astype(w.dtype, copy=False)


_CONV_BW = ("(Tensor grad, Tensor input, Tensor weight, Any stride=1, Any padding=0, "
            "Any dilation=1, int groups=1) -> Tensor")
reg("tensor.conv2d_input_backward", _CONV_BW, conv2d_input_backward, shape=_like_second)
reg("tensor.conv2d_weight_backward", _CONV_BW, conv2d_weight_backward, shape=_like_third)


# ----------------------------------------------------------------------------- scalar helpers


@op("grad.sign(float x) -> float")
def sign(x):
    """-1.0, 0.0 or 1.0 (the derivative of abs, 0 at 0 as in torch)."""
    return (x > 0) - (x < 0) + 0.0


@op("grad.log_or_zero(float x) -> float")
def log_or_zero(x):
    """log(x) for x > 0, else 0 (the exponent's share of a ** b where a <= 0)."""
    import math
    return math.log(x) if x > 0 else 0.0


@op("grad.to_float(Tensor self) -> float", may_raise=True)
def to_float(x):
    """A float operand's gradient from its (one-element) tensor share: `.item()` that
    differentiates again (tensor.item_float is the user's `.item()`, which detaches)."""
    return float(np.asarray(x).reshape(()))


@op("grad.inv_or_zero(float x) -> float")
def inv_or_zero(x):
    """1 / x for x > 0, else 0 (the derivative of log_or_zero)."""
    return 1.0 / x if x > 0 else 0.0


# ----------------------------------------------------------------------------- norms, embedding


def _bn_axes(x):
    return (0,) + tuple(range(2, x.ndim))


def _bn_shape(x):
    return (1, -1) + (1,) * (x.ndim - 2)


_BN_BLOCK_BYTES = 1 << 18
"""Bytes of x per channel block in batch_norm_backward (a block's passes stay in L2)."""

_BN_WHOLE_BYTES = 1 << 23
"""Inputs up to this size are one block: they stay in the last-level cache between whole
passes, and whole passes cost fewer numpy calls (measured)."""


def batch_norm_backward(g, x, running_mean, running_var, weight, training, eps):
    """(d input, d weight, d bias) of batch_norm; training uses the batch statistics
    (computed again here), eval the running ones."""
    g, x = arr(g).astype(x.dtype, copy=False), arr(x)
    if training:
        return _bn_backward(g, x, weight, None, eps, True)
    mean = running_mean.astype(x.dtype)
    invstd = 1 / np.sqrt(running_var.astype(x.dtype) + x.dtype.type(eps))
    return _bn_backward(g, x, weight, mean, invstd, False)


def _bn_backward(g, x, weight, mean, invstd, training):
    """Per channel over x as (N, C, T): gx = g * a + (x - mean) * b + c, every pass over a
    block of channels before the next block (a large input is read from memory once).
    mean None: the batch's mean and variance are computed here, `invstd` is then eps."""
    dt = x.dtype.type
    x3 = x.reshape(x.shape[0], x.shape[1], -1)
    g3 = g.reshape(x3.shape)
    nb, c, t = x3.shape
    n = dt(nb * t)
    w = weight.astype(x.dtype) if weight is not None else np.ones(c, x.dtype)
    gx = np.empty(x3.shape, x.dtype)
    gw, gb = np.empty(c, x.dtype), np.empty(c, x.dtype)
    cb = c if x.nbytes <= _BN_WHOLE_BYTES else \
        max(1, min(c, _BN_BLOCK_BYTES // max(1, nb * t * x.dtype.itemsize)))
    xc = scratch("bn.xc", (nb, cb, t), x.dtype)
    for c0 in range(0, c, cb):
        c1 = min(c, c0 + cb)
        xs, gs, out, xcs = x3[:, c0:c1], g3[:, c0:c1], gx[:, c0:c1], xc[:, :c1 - c0]
        if mean is None:
            m = xs.sum(axis=(0, 2), dtype=x.dtype) / n
            np.subtract(xs, m[:, None], out=xcs)
            var = np.einsum("nct,nct->c", xcs, xcs) / n
            inv = 1 / np.sqrt(var + dt(invstd))
        else:
            np.subtract(xs, mean[c0:c1, None], out=xcs)
            inv = invstd[c0:c1]
        gsum = gs.sum(axis=(0, 2), dtype=x.dtype)
        gdc = np.einsum("nct,nct->c", gs, xcs)  # sum of g * (x - mean)
        a = w[c0:c1] * inv
        np.multiply(gs, a[:, None], out=out)
        if training:
            np.multiply(xcs, (-a * inv * inv * gdc / n)[:, None], out=xcs)
            out += xcs
            out += (-a * gsum / n)[:, None]
        gw[c0:c1] = gdc * inv
        gb[c0:c1] = gsum
    return arr(gx.reshape(x.shape)), gw, gb


def batch_norm_backward_saved(g, x, weight, saved):
    """(d input, d weight, d bias) of a training batch_norm from the mean and 1 / std its
    forward kept (tensor.batch_norm_train): batch_norm_backward without the passes that
    recompute them."""
    g, x = arr(g).astype(x.dtype, copy=False), arr(x)
    c = x.shape[1]
    return _bn_backward(g, x, weight, saved[:c], saved[c:], True)


def _bn_info(args):
    a = args[1]
    c = a.shape[1] if a.shape is not None and len(a.shape) > 1 else None
    return (TensorInfo(a.dtype, a.shape), TensorInfo(a.dtype, (c,)), TensorInfo(a.dtype, (c,)))


reg("tensor.batch_norm_backward",
    "(Tensor grad, Tensor input, Tensor? running_mean, Tensor? running_var, Tensor? weight, "
    "bool training, float eps) -> Tuple[Tensor, Tensor, Tensor]", batch_norm_backward,
    shape=_bn_info)


def _bn_saved_info(args):
    return _bn_info([args[0], args[1]])


reg("tensor.batch_norm_backward_saved",
    "(Tensor grad, Tensor input, Tensor? weight, Tensor saved) -> Tuple[Tensor, Tensor, Tensor]",
    batch_norm_backward_saved, shape=_bn_saved_info)


def embedding_backward(g, indices, weight, padding_idx):
    """d(embedding)/d(weight): rows of g added at their indices (padding_idx gets none)."""
    g = arr(g)
    out = np.zeros(weight.shape, dtype=weight.dtype)
    idx = arr(indices).reshape(-1).astype(np.int64)
    rows = g.reshape(-1, weight.shape[1]).astype(weight.dtype, copy=False)
    if padding_idx is not None:
        keep = idx != (padding_idx % weight.shape[0])
        idx, rows = idx[keep], rows[keep]
    np.add.at(out, idx, rows)
    return out


reg("tensor.embedding_backward",
    "(Tensor grad, Tensor input, Tensor weight, int? padding_idx=None) -> Tensor",
    embedding_backward, shape=_like_third)


def matmul_backward(g, x, y):
    """(d x, d y) of matmul for operands of any rank (1-d operands as torch treats them)."""
    g, x, y = arr(g), arr(x), arr(y)
    if x.ndim == 1 and y.ndim == 1:
        return arr(g * y), arr(g * x)
    x1 = x[None, :] if x.ndim == 1 else x
    y1 = y[:, None] if y.ndim == 1 else y
    g1 = g
    if x.ndim == 1:
        g1 = np.expand_dims(g1, -2)
    if y.ndim == 1:
        g1 = np.expand_dims(g1, -1)
    gx = g1 @ np.swapaxes(y1, -1, -2)
    gy = np.swapaxes(x1, -1, -2) @ g1
    gx = sum_to(gx, x1).reshape(x.shape) if x.ndim > 1 else sum_to(gx, x1).reshape(x.shape)
    gy = sum_to(gy, y1).reshape(y.shape)
    return arr(gx.astype(x.dtype, copy=False)), arr(gy.astype(y.dtype, copy=False))


def _mm_info(args):
    a, b = args[1], args[2]
    return (TensorInfo(a.dtype, a.shape), TensorInfo(b.dtype, b.shape))


reg("tensor.matmul_backward", "(Tensor grad, Tensor self, Tensor other) -> Tuple[Tensor, Tensor]",
    matmul_backward, shape=_mm_info)


# ----------------------------------------------------------------------------- indexing


def _zeros_like_float(x, g):
    return np.zeros(x.shape, dtype=np.result_type(x.dtype, arr(g).dtype)
                    if x.dtype.kind != "f" else x.dtype)


def index_backward(g, x, spec, ints, tensors):
    """d x[index]: g added into zeros at the indexed places (repeats accumulate)."""
    from ember.ops.tensor_index import build_index
    out = _zeros_like_float(x, g)
    idx = build_index(spec, ints, tensors)
    np.add.at(out, idx, np.broadcast_to(arr(g), out[idx].shape))
    return out


reg("tensor.index_backward",
    "(Tensor grad, Tensor self, str spec, int[] ints, Tensor[] tensors) -> Tensor",
    index_backward, shape=_like_second)


def select_backward(g, x, dim, index):
    """d x.select(dim, index): g placed into zeros at index along dim."""
    out = _zeros_like_float(x, g)
    key = [slice(None)] * x.ndim
    key[dim % x.ndim] = index
    out[tuple(key)] = g
    return out


reg("tensor.select_backward", "(Tensor grad, Tensor self, int dim, int index) -> Tensor",
    select_backward, shape=_like_second)


def narrow_backward(g, x, dim, start):
    """d x.narrow(dim, start, n): g placed into zeros from start along dim."""
    out = _zeros_like_float(x, g)
    d = dim % x.ndim
    start = start % x.shape[d] if start < 0 else start
    key = [slice(None)] * x.ndim
    key[d] = slice(start, start + arr(g).shape[d])
    out[tuple(key)] = g
    return out


reg("tensor.narrow_backward", "(Tensor grad, Tensor self, int dim, int start) -> Tensor",
    narrow_backward, shape=_like_second)


def gather_backward(g, x, dim, idx):
    """d gather(x, dim, idx): g added at idx along dim (repeats accumulate)."""
    out = _zeros_like_float(x, g)
    d = dim % max(x.ndim, 1)
    grid = list(np.indices(idx.shape, sparse=True))
    grid[d] = idx.astype(np.int64)
    np.add.at(out, tuple(grid), arr(g))
    return out


reg("tensor.gather_backward", "(Tensor grad, Tensor self, int dim, Tensor index) -> Tensor",
    gather_backward, shape=_like_second)


# ----------------------------------------------------------------------------- layer norm, pools


def layer_norm_backward(g, x, normalized_shape, weight, bias, eps):
    """(d input, d weight, d bias) of layer_norm over the trailing normalized_shape dims."""
    g, x = arr(g).astype(x.dtype, copy=False), arr(x)
    shape = (normalized_shape,) if isinstance(normalized_shape, int) else tuple(normalized_shape)
    axes = tuple(range(x.ndim - len(shape), x.ndim))
    n = x.dtype.type(int(np.prod(shape)))
    mean = x.mean(axis=axes, keepdims=True, dtype=x.dtype)
    var = x.var(axis=axes, keepdims=True, dtype=x.dtype)
    invstd = 1 / np.sqrt(var + x.dtype.type(eps))
    xhat = (x - mean) * invstd
    lead = tuple(range(x.ndim - len(shape)))
    gw = (g * xhat).sum(axis=lead, dtype=x.dtype) if weight is not None else np.zeros(shape, x.dtype)
    gb = g.sum(axis=lead, dtype=x.dtype) if bias is not None else np.zeros(shape, x.dtype)
    gh = g * weight.astype(x.dtype) if weight is not None else g
    gx = invstd / n * (n * gh - gh.sum(axis=axes, keepdims=True)
                       - xhat * (gh * xhat).sum(axis=axes, keepdims=True))
    return arr(gx.astype(x.dtype)), arr(gw.astype(x.dtype)), arr(gb.astype(x.dtype))


def _ln_info(args):
    a = args[1]
    return (TensorInfo(a.dtype, a.shape), TensorInfo(a.dtype, None), TensorInfo(a.dtype, None))


reg("tensor.layer_norm_backward",
    "(Tensor grad, Tensor input, Any normalized_shape, Tensor? weight, Tensor? bias, "
    "float eps) -> Tuple[Tensor, Tensor, Tensor]", layer_norm_backward, shape=_ln_info)


def adaptive_avg_pool2d_backward(g, x):
    """d adaptive_avg_pool2d: each output cell's g spread evenly over its input window."""
    g = arr(g)
    h, w = x.shape[-2:]
    oh, ow = g.shape[-2:]
    out = np.zeros(x.shape, dtype=x.dtype)
    for i in range(oh):
        h0, h1 = (i * h) // oh, -((-(i + 1) * h) // oh)
        for j in range(ow):
            w0, w1 = (j * w) // ow, -((-(j + 1) * w) // ow)
            out[..., h0:h1, w0:w1] += (g[..., i:i + 1, j:j + 1] /
                                       x.dtype.type((h1 - h0) * (w1 - w0)))
    return out


reg("tensor.adaptive_avg_pool2d_backward", "(Tensor grad, Tensor self) -> Tensor",
    adaptive_avg_pool2d_backward, shape=_like_second)


# ----------------------------------------------------------------------------- dropout


def _dropout_mask(shape, p, seed, counter, site):
    """Keep-mask of a training step's dropout: numpy's PCG64 seeded with (seed, step counter,
    dropout site), so a run is reproducible and the backward sees the forward's mask."""
    rng = np.random.default_rng([int(seed) & 0xFFFFFFFF, int(counter), int(site)])
    return rng.random(shape) >= p


def dropout_seeded(x, p, seed, counter, site):
    """Training-mode dropout with a reproducible mask (see _dropout_mask)."""
    if not 0.0 <= p <= 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    if p == 0.0:
        return x
    keep = _dropout_mask(x.shape, p, seed, counter, site)
    scale = x.dtype.type(0.0) if p == 1.0 else x.dtype.type(1 / (1 - p))
    return arr(x * (keep.astype(x.dtype) * scale))


def dropout_seeded_backward(g, x, p, seed, counter, site):
    """The gradient of dropout_seeded: g through the same mask, scaled."""
    g = arr(g)
    if p == 0.0:
        return g
    keep = _dropout_mask(x.shape, p, seed, counter, site)
    scale = x.dtype.type(0.0) if p == 1.0 else x.dtype.type(1 / (1 - p))
    return arr(g * (keep.astype(x.dtype) * scale))


def _like_first(args):
    a = args[0]
    return TensorInfo(a.dtype, a.shape) if a.is_tensor else UNKNOWN


reg("tensor.dropout_seeded",
    "(Tensor input, float p, int seed, Tensor counter, int site) -> Tensor", dropout_seeded,
    shape=_like_first)
reg("tensor.dropout_seeded_backward",
    "(Tensor grad, Tensor input, float p, int seed, Tensor counter, int site) -> Tensor",
    dropout_seeded_backward, shape=_like_second)


# ----------------------------------------------------------------------------- list adjoints
# A list of tensors' adjoint is a list of the same length (ember.autodiff.lists): made of
# zeros, each read of an element adds its gradient in place, and each append is undone by
# a pop in the reverse sweep (so its length always matches the list's at that point).


@op("grad.list_zeros(Tensor[] xs) -> Tensor[]", pure=False)
def list_zeros(xs):
    """A new list of zero tensors shaped as xs's elements."""
    return [np.zeros_like(arr(x)) for x in xs]


@op("grad.list_add_at(Tensor[] gs, int i, Tensor g) -> None", pure=False, may_raise=True)
def list_add_at(gs, i, g):
    """gs[i] += g (a new array: the old one may be shared)."""
    old = gs[i]
    gs[i] = np.asarray(old + arr(g), dtype=old.dtype)


@op("grad.float_list_zeros(float[] xs) -> float[]", pure=False)
def float_list_zeros(xs):
    """A new list of as many 0.0 as xs has floats (a list of floats' adjoint)."""
    return [0.0] * len(xs)


@op("grad.float_list_add_at(float[] gs, int i, float g) -> None", pure=False,
    may_raise=True)
def float_list_add_at(gs, i, g):
    """gs[i] += g."""
    gs[i] = gs[i] + g


@op("grad.list_add_all(Tensor[] gs, Tensor[] g) -> None", pure=False, may_raise=True)
def list_add_all(gs, g):
    """gs[i] += g[i] for every i (the lists have one length)."""
    if len(gs) != len(g):
        raise RuntimeError(f"internal: list adjoints of lengths {len(gs)} and {len(g)}")
    for i, gi in enumerate(g):
        old = gs[i]
        gs[i] = np.asarray(old + arr(gi), dtype=old.dtype)


@op("grad.sizes_along(Tensor[] xs, int dim) -> int[]", pure=False, may_raise=True)
def sizes_along(xs, dim):
    """Each tensor's size along dim (how cat's gradient splits)."""
    return [int(arr(x).shape[dim]) for x in xs]


# ----------------------------------------------------------------------------- prod


def prod_backward(g, x, dim, keepdim):
    """d prod: each element's gradient is the product of the others (exclusive products
    from both sides, so zeros are exact), times g."""
    x, g = arr(x), arr(g)
    if dim is None:
        flat = x.reshape(-1)
        return (_others_product(flat, 0) * g.reshape(())).reshape(x.shape).astype(x.dtype)
    d = dim % max(x.ndim, 1)
    if x.ndim and not keepdim:
        g = np.expand_dims(g, d)
    return (_others_product(x, d) * g).astype(x.dtype, copy=False)


def _others_product(x, axis):
    if x.ndim == 0:
        return np.ones_like(x)
    one = np.ones_like(np.take(x, [0], axis=axis))
    left = np.concatenate([one, np.cumprod(x, axis=axis)], axis=axis)
    right = np.flip(np.cumprod(np.flip(x, axis), axis=axis), axis)
    right = np.concatenate([right, one], axis=axis)
    n = x.shape[axis]
    return np.take(left, range(n), axis=axis) * np.take(right, range(1, n + 1), axis=axis)


reg("tensor.prod_backward", "(Tensor grad, Tensor self, int? dim, bool keepdim) -> Tensor",
    prod_backward, shape=_like_second)
