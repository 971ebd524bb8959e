"""Neural-network operators: linear, convolution, pooling, normalization, embedding,
recurrent layers and attention — vectorized numpy with torch's layouts and numerics.

Layouts follow torch: conv weights (out, in/groups, kh, kw); LSTM gates (i, f, g, o),
GRU gates (r, z, n) with torch's bias placement; batch-first options as torch.
"""

from __future__ import annotations

import math

import numpy as np
from numpy.lib.stride_tricks import as_strided

from ember.ops.registry import ShapeMismatch
from ember.ops.tensor_common import reg, same_as_first
from ember.ops.tensorinfo import TensorInfo, fmt, same_dim

_F = "torch.nn.functional"

# ----------------------------------------------------------------------------- linear


def linear(x, w, b):
    y = x @ w.T
    if b is not None:
        y += b
    return y


def _linear_info(args):
    x, w = args[0], args[1]
    if x.shape is None or w.shape is None or not x.shape or len(w.shape) != 2:
        return TensorInfo(x.dtype, None)
    if same_dim(x.shape[-1], w.shape[1]) is False:
        raise ShapeMismatch(f"linear: input of shape {fmt(x.shape)} has {x.shape[-1]} features "
                            f"but the weight {fmt(w.shape)} expects {w.shape[1]}")
    return TensorInfo(x.dtype, x.shape[:-1] + (w.shape[0],))


reg("tensor.linear", "(Tensor input, Tensor weight, Tensor? bias=None) -> Tensor", linear,
    (f"{_F}.linear",), shape=_linear_info)
reg("tensor.addmm", "(Tensor self, Tensor mat1, Tensor mat2, float beta=1.0, float alpha=1.0)"
    " -> Tensor", lambda c, a, b, beta, alpha: beta * c + alpha * (a @ b), ("torch.addmm",))

# ----------------------------------------------------------------------------- convolution


def _pair(v):
    return (v, v) if isinstance(v, int) else tuple(v)


def _windows(x, kh, kw, sh, sw, dh, dw):
    """(N, C, Ho, Wo, kh, kw) strided view of x's sliding windows."""
    n, c, h, w = x.shape
    ho = (h - dh * (kh - 1) - 1) // sh + 1
    wo = (w - dw * (kw - 1) - 1) // sw + 1
    if ho <= 0 or wo <= 0:
        raise RuntimeError(f"input of spatial size {h}x{w} is smaller than the kernel")
    s0, s1, s2, s3 = x.strides
    return as_strided(x, (n, c, ho, wo, kh, kw), (s0, s1, s2 * sh, s3 * sw, s2 * dh, s3 * dw),
                      writeable=False)


def _same_padding(k, d):
    total = d * (k - 1)
    return total // 2, total - total // 2


def conv2d(x, w, b, stride, padding, dilation, groups):
    sh, sw = _pair(stride)
    dh, dw = _pair(dilation)
    kh, kw = w.shape[2], w.shape[3]
    if isinstance(padding, str):
        if padding == "valid":
            pads = ((0, 0), (0, 0))
        elif padding == "same":
            pads = (_same_padding(kh, dh), _same_padding(kw, dw))
        else:
            raise ValueError(f"invalid padding string {padding!r}")
    else:
        ph, pw = _pair(padding)
        pads = ((ph, ph), (pw, pw))
    if any(p for pr in pads for p in pr):
        x = np.pad(x, ((0, 0), (0, 0)) + pads)
    cols = _windows(x, kh, kw, sh, sw, dh, dw)
    c = x.shape[1]
    if groups == 1:
        out = np.tensordot(cols, w, axes=([1, 4, 5], [1, 2, 3])).transpose(0, 3, 1, 2)
    elif groups == c and w.shape[1] == 1:
        out = _depthwise(cols, w, groups)
    else:
        out = _grouped(cols, w, groups)
    out = np.ascontiguousarray(out, dtype=x.dtype)
    if b is not None:
        out += b.reshape(1, -1, 1, 1)
    return out


def _depthwise(cols, w, groups):
    mult = w.shape[0] // groups
    n, c, ho, wo, kh, kw = cols.shape
    if mult != 1:
        return _grouped(cols, w, groups)
    out = np.zeros((n, c, ho, wo), dtype=w.dtype)
    for i in range(kh):
        for j in range(kw):
            out += cols[:, :, :, :, i, j] * w[:, 0, i, j].reshape(1, c, 1, 1)
    return out


def _grouped(cols, w, groups):
    cg = cols.shape[1] // groups
    og = w.shape[0] // groups
    parts = []
    for g in range(groups):
        sub = cols[:, g * cg:(g + 1) * cg]
        wg = w[g * og:(g + 1) * og]
        parts.append(np.tensordot(sub, wg, axes=([1, 4, 5], [1, 2, 3])).transpose(0, 3, 1, 2))
    return np.concatenate(parts, axis=1)


def conv1d(x, w, b, stride, padding, dilation, groups):
    pad = padding if isinstance(padding, str) else (0, _pair(padding)[0])
    out = conv2d(x[:, :, None, :], w[:, :, None, :], b, (1, _pair(stride)[0]), pad,
                 (1, _pair(dilation)[0]), groups)
    return out[:, :, 0, :]


def _conv_out(size, k, s, p, d):
    if any(not isinstance(v, int) for v in (size, k, s, p, d)):
        return None
    return (size + 2 * p - d * (k - 1) - 1) // s + 1


def _conv2d_info(args):
    x, w = args[0], args[1]
    stride, padding, dilation, groups = (a.const for a in args[3:7])
    if x.shape is None or w.shape is None or len(x.shape) != 4 or len(w.shape) != 4:
        return TensorInfo(x.dtype, None)
    if isinstance(groups, int) and same_dim(x.shape[1], w.shape[1] * groups) is False:
        raise ShapeMismatch(f"conv2d: input {fmt(x.shape)} has {x.shape[1]} channels but the "
                            f"weight {fmt(w.shape)} with groups={groups} expects "
                            f"{w.shape[1] * groups}")
    if stride is None or padding is None or dilation is None or isinstance(padding, str):
        return TensorInfo(x.dtype, (x.shape[0], w.shape[0], None, None))
    (sh, sw), (ph, pw), (dh, dw) = _pair(stride), _pair(padding), _pair(dilation)
    return TensorInfo(x.dtype, (x.shape[0], w.shape[0], _conv_out(x.shape[2], w.shape[2], sh, ph,
                                                                  dh),
                                _conv_out(x.shape[3], w.shape[3], sw, pw, dw)))


_CONV = ("(Tensor input, Tensor weight, Tensor? bias=None, int[] stride=[1, 1], "
         "Any padding=[0, 0], int[] dilation=[1, 1], int groups=1) -> Tensor")
reg("tensor.conv2d", _CONV, conv2d, (f"{_F}.conv2d", "torch.conv2d"), shape=_conv2d_info)
reg("tensor.conv1d", _CONV.replace("[1, 1]", "[1]").replace("[0, 0]", "[0]"), conv1d,
    (f"{_F}.conv1d", "torch.conv1d"))

# ----------------------------------------------------------------------------- pooling


def max_pool2d(x, kernel_size, stride, padding, dilation, ceil_mode):
    kh, kw = _pair(kernel_size)
    sh, sw = _pair(stride) if stride else (kh, kw)
    ph, pw = _pair(padding)
    dh, dw = _pair(dilation)
    if ceil_mode:
        raise NotImplementedError("max_pool2d(ceil_mode=True) is not supported by ember yet")
    if ph or pw:
        x = np.pad(x, ((0, 0), (0, 0), (ph, ph), (pw, pw)), constant_values=-np.inf)
    return np.ascontiguousarray(_windows(x, kh, kw, sh, sw, dh, dw).max(axis=(4, 5)))


def avg_pool2d(x, kernel_size, stride, padding, ceil_mode, count_include_pad):
    kh, kw = _pair(kernel_size)
    sh, sw = _pair(stride) if stride else (kh, kw)
    ph, pw = _pair(padding)
    if ceil_mode:
        raise NotImplementedError("avg_pool2d(ceil_mode=True) is not supported by ember yet")
    if ph or pw:
        xp = np.pad(x, ((0, 0), (0, 0), (ph, ph), (pw, pw)))
        sums = _windows(xp, kh, kw, sh, sw, 1, 1).sum(axis=(4, 5))
        if count_include_pad:
            return (sums / (kh * kw)).astype(x.dtype)
        ones = np.pad(np.ones(x.shape[2:], x.dtype), ((ph, ph), (pw, pw)))[None, None]
        counts = _windows(ones, kh, kw, sh, sw, 1, 1).sum(axis=(4, 5))
        return (sums / counts).astype(x.dtype)
    return _windows(x, kh, kw, sh, sw, 1, 1).mean(axis=(4, 5), dtype=x.dtype)


def adaptive_avg_pool2d(x, output_size):
    oh, ow = _pair(output_size)
    h, w = x.shape[-2:]
    if (oh, ow) == (1, 1):
        return x.mean(axis=(-2, -1), keepdims=True, dtype=x.dtype)
    if h % oh == 0 and w % ow == 0:
        r = x.reshape(x.shape[:-2] + (oh, h // oh, ow, w // ow))
        return r.mean(axis=(-3, -1), dtype=x.dtype)
    out = np.empty(x.shape[:-2] + (oh, ow), dtype=x.dtype)
    for i in range(oh):
        h0, h1 = (i * h) // oh, -(-((i + 1) * h) // oh)
        for j in range(ow):
            w0, w1 = (j * w) // ow, -(-((j + 1) * w) // ow)
            out[..., i, j] = x[..., h0:h1, w0:w1].mean(axis=(-2, -1))
    return out


def _pool_info(args):
    x, k, s, p = args[0], args[1].const, args[2].const, args[3].const
    if x.shape is None or len(x.shape) != 4 or k is None or p is None:
        return TensorInfo(x.dtype, None)
    (kh, kw), (ph, pw) = _pair(k), _pair(p)
    sh, sw = _pair(s) if s else (kh, kw)
    return TensorInfo(x.dtype, x.shape[:2] + (_conv_out(x.shape[2], kh, sh, ph, 1),
                                               _conv_out(x.shape[3], kw, sw, pw, 1)))


def _adaptive_info(args):
    x, size = args[0], args[1].const
    if x.shape is None or size is None:
        return TensorInfo(x.dtype, None)
    return TensorInfo(x.dtype, x.shape[:-2] + _pair(size))


reg("tensor.max_pool2d", "(Tensor self, int[] kernel_size, int[]? stride=None, int[] padding=0,"
    " int[] dilation=1, bool ceil_mode=False) -> Tensor", max_pool2d,
    (f"{_F}.max_pool2d", "torch.max_pool2d"), shape=_pool_info)
reg("tensor.avg_pool2d", "(Tensor self, int[] kernel_size, int[]? stride=None, int[] padding=0,"
    " bool ceil_mode=False, bool count_include_pad=True) -> Tensor", avg_pool2d,
    (f"{_F}.avg_pool2d",), shape=_pool_info)
reg("tensor.adaptive_avg_pool2d", "(Tensor self, int[] output_size) -> Tensor",
    adaptive_avg_pool2d, (f"{_F}.adaptive_avg_pool2d",), shape=_adaptive_info)

# ----------------------------------------------------------------------------- normalization


def batch_norm(x, mean, var, weight, bias, eps):
    scale = 1.0 / np.sqrt(var + eps)
    if weight is not None:
        scale = scale * weight
    shift = -mean * scale
    if bias is not None:
        shift = shift + bias
    shape = (1, -1) + (1,) * (x.ndim - 2)
    return x * scale.astype(x.dtype).reshape(shape) + shift.astype(x.dtype).reshape(shape)


def layer_norm(x, normalized_shape, weight, bias, eps):
    axes = tuple(range(x.ndim - len(normalized_shape), x.ndim))
    mean = x.mean(axis=axes, keepdims=True)
    c = x - mean
    var = (c * c).mean(axis=axes, keepdims=True)
    y = c / np.sqrt(var + eps)
    if weight is not None:
        y = y * weight
    if bias is not None:
        y = y + bias
    return y.astype(x.dtype, copy=False)


def group_norm(x, groups, weight, bias, eps):
    n, c = x.shape[:2]
    g = x.reshape(n, groups, -1)
    mean = g.mean(axis=2, keepdims=True)
    var = g.var(axis=2, keepdims=True)
    y = ((g - mean) / np.sqrt(var + eps)).reshape(x.shape)
    shape = (1, c) + (1,) * (x.ndim - 2)
    if weight is not None:
        y = y * weight.reshape(shape)
    if bias is not None:
        y = y + bias.reshape(shape)
    return y.astype(x.dtype, copy=False)


reg("tensor.batch_norm", "(Tensor input, Tensor running_mean, Tensor running_var, "
    "Tensor? weight=None, Tensor? bias=None, float eps=1e-05) -> Tensor", batch_norm,
    (), shape=same_as_first)
reg("tensor.layer_norm", "(Tensor input, int[] normalized_shape, Tensor? weight=None, "
    "Tensor? bias=None, float eps=1e-05) -> Tensor", layer_norm, (f"{_F}.layer_norm",),
    shape=same_as_first)
reg("tensor.group_norm", "(Tensor input, int num_groups, Tensor? weight=None, Tensor? bias=None,"
    " float eps=1e-05) -> Tensor", group_norm, (f"{_F}.group_norm",), shape=same_as_first)

# ----------------------------------------------------------------------------- embedding, dropout


def embedding(idx, weight):
    return weight[idx]


reg("tensor.embedding", "(Tensor input, Tensor weight) -> Tensor", embedding,
    (f"{_F}.embedding",), shape=lambda a: TensorInfo(
        a[1].dtype, None if a[0].shape is None or a[1].shape is None else
        a[0].shape + a[1].shape[1:]))
reg("tensor.dropout", "(Tensor input, float p=0.5, bool training=False) -> Tensor",
    lambda x, p, training: x, (f"{_F}.dropout",), shape=same_as_first)

# ----------------------------------------------------------------------------- recurrent


def _sigmoid(x):
    return 0.5 * (1.0 + np.tanh(0.5 * x))


def _lstm_direction(xw, w_hh, h, c, reverse):
    """One direction of one layer; xw = x @ w_ih.T + biases, (T, N, 4H)."""
    steps = range(xw.shape[0] - 1, -1, -1) if reverse else range(xw.shape[0])
    hsz = h.shape[-1]
    outs = [None] * xw.shape[0]
    w_t = np.ascontiguousarray(w_hh.T)
    for t in steps:
        g = xw[t] + h @ w_t
        i = _sigmoid(g[:, :hsz])
        f = _sigmoid(g[:, hsz:2 * hsz])
        gg = np.tanh(g[:, 2 * hsz:3 * hsz])
        o = _sigmoid(g[:, 3 * hsz:])
        c = f * c + i * gg
        h = o * np.tanh(c)
        outs[t] = h
    return np.stack(outs), h, c


def lstm(x, h0, c0, params, num_layers, batch_first, bidirectional):
    """torch.nn.LSTM forward: params per layer and direction = w_ih, w_hh, b_ih, b_hh."""
    if batch_first:
        x = x.transpose(1, 0, 2)
    dirs = 2 if bidirectional else 1
    t, n = x.shape[:2]
    hsz = params[1].shape[1]
    if h0 is None:
        h0 = np.zeros((num_layers * dirs, n, hsz), dtype=x.dtype)
    if c0 is None:
        c0 = np.zeros((num_layers * dirs, n, hsz), dtype=x.dtype)
    hs, cs = [], []
    inp = x
    for layer in range(num_layers):
        outs = []
        for d in range(dirs):
            k = layer * dirs + d
            w_ih, w_hh, b_ih, b_hh = params[4 * k:4 * k + 4]
            xw = inp @ w_ih.T + (b_ih + b_hh)
            out, h, c = _lstm_direction(xw, w_hh, h0[k], c0[k], d == 1)
            outs.append(out)
            hs.append(h)
            cs.append(c)
        inp = outs[0] if dirs == 1 else np.concatenate(outs, axis=2)
    out = inp.transpose(1, 0, 2) if batch_first else inp
    return np.ascontiguousarray(out), np.stack(hs), np.stack(cs)


def _gru_direction(xw, w_hh, b_hh, h, reverse):
    steps = range(xw.shape[0] - 1, -1, -1) if reverse else range(xw.shape[0])
    hsz = h.shape[-1]
    outs = [None] * xw.shape[0]
    w_t = np.ascontiguousarray(w_hh.T)
    for t in steps:
        hw = h @ w_t + b_hh
        x_t = xw[t]
        r = _sigmoid(x_t[:, :hsz] + hw[:, :hsz])
        z = _sigmoid(x_t[:, hsz:2 * hsz] + hw[:, hsz:2 * hsz])
        nn_ = np.tanh(x_t[:, 2 * hsz:] + r * hw[:, 2 * hsz:])
        h = (1.0 - z) * nn_ + z * h
        outs[t] = h
    return np.stack(outs), h


def gru(x, h0, params, num_layers, batch_first, bidirectional):
    if batch_first:
        x = x.transpose(1, 0, 2)
    dirs = 2 if bidirectional else 1
    t, n = x.shape[:2]
    hsz = params[1].shape[1]
    if h0 is None:
        h0 = np.zeros((num_layers * dirs, n, hsz), dtype=x.dtype)
    hs = []
    inp = x
    for layer in range(num_layers):
        outs = []
        for d in range(dirs):
            k = layer * dirs + d
            w_ih, w_hh, b_ih, b_hh = params[4 * k:4 * k + 4]
            xw = inp @ w_ih.T + b_ih
            out, h = _gru_direction(xw, w_hh, b_hh, h0[k], d == 1)
            outs.append(out)
            hs.append(h)
        inp = outs[0] if dirs == 1 else np.concatenate(outs, axis=2)
    out = inp.transpose(1, 0, 2) if batch_first else inp
    return np.ascontiguousarray(out), np.stack(hs)


reg("tensor.lstm", "(Tensor input, Tensor? h0, Tensor? c0, Tensor[] params, int num_layers, "
    "bool batch_first, bool bidirectional) -> Tuple[Tensor, Tensor, Tensor]", lstm, ())
reg("tensor.gru", "(Tensor input, Tensor? h0, Tensor[] params, int num_layers, "
    "bool batch_first, bool bidirectional) -> Tuple[Tensor, Tensor]", gru, ())

# ----------------------------------------------------------------------------- attention


def sdpa(q, k, v, mask, dropout_p, is_causal, scale):
    d = q.shape[-1]
    s = scale if scale is not None else 1.0 / math.sqrt(d)
    scores = (q @ np.swapaxes(k, -1, -2)) * np.asarray(s, dtype=q.dtype)
    if is_causal:
        lq, lk = scores.shape[-2:]
        causal = np.triu(np.ones((lq, lk), dtype=bool), k=1)
        scores = np.where(causal, np.asarray(-np.inf, dtype=q.dtype), scores)
    if mask is not None:
        if mask.dtype == np.bool_:
            scores = np.where(mask, scores, np.asarray(-np.inf, dtype=q.dtype))
        else:
            scores = scores + mask
    scores = scores - scores.max(axis=-1, keepdims=True)
    e = np.exp(scores)
    return (e / e.sum(axis=-1, keepdims=True)) @ v


reg("tensor.sdpa", "(Tensor query, Tensor key, Tensor value, Tensor? attn_mask=None, "
    "float dropout_p=0.0, bool is_causal=False, float? scale=None) -> Tensor", sdpa,
    (f"{_F}.scaled_dot_product_attention",),
    shape=lambda a: TensorInfo(a[0].dtype, None if a[0].shape is None or a[2].shape is None
                               else a[0].shape[:-1] + a[2].shape[-1:]))
