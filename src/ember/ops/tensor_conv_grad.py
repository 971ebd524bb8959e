"""Backward kernels of conv3d (rule in ops/vjp_more.py), for any stride, padding, dilation
and groups. d input: g spread out by the stride (zeros between), convolved through the
forward kernel with each group's weights flipped and their channel axes swapped, padded
by the kernel's reach, and cropped to the input. d weight: for a few samples at a time,
the input's windows gathered tap by tap (one strided copy each), one GEMM per group with
g, summed."""

from __future__ import annotations

from itertools import product

import numpy as np

from ember.ops.tensor_common import arr, reg
from ember.ops.tensor_conv import ntuple
from ember.ops.tensorinfo import UNKNOWN, TensorInfo


def _geometry(x, w, stride, padding, dilation):
    n = x.ndim - 2
    if isinstance(padding, str):
        raise RuntimeError("conv3d backward: string padding is not supported")
    return ntuple(stride, n, "stride"), ntuple(padding, n, "padding"), \
        ntuple(dilation, n, "dilation")


def conv3d_input_backward(g, x, w, stride, padding, dilation, groups):
    """d(conv3d)/d(input)."""
    from ember.ops.tensor_conv import conv3d
    g, x, w = arr(g), arr(x), arr(w)
    if x.ndim == 4:  # unbatched
        return conv3d_input_backward(g[None], x[None], w, stride, padding, dilation, groups)[0]
    s, p, d = _geometry(x, w, stride, padding, dilation)
    ks, sp = w.shape[2:], x.shape[2:]
    cout, cpg = w.shape[:2]
    dt = np.result_type(g.dtype, w.dtype)
    spread = np.zeros(g.shape[:2] + tuple((o - 1) * si + 1 for o, si in zip(g.shape[2:], s)),
                      dt)
    spread[(slice(None),) * 2 + tuple(slice(None, None, si) for si in s)] = g
    opg = cout // groups
    wt = w.reshape((groups, opg, cpg) + ks).transpose((0, 2, 1) + tuple(range(3, 3 + len(ks))))
    wt = wt.reshape((groups * cpg, opg) + ks)[(slice(None),) * 2 + (slice(None, None, -1),) * 3]
    reach = [di * (ki - 1) for di, ki in zip(d, ks)]
    full = conv3d(spread, np.ascontiguousarray(wt, dt), None, 1, reach, list(d), groups)
    out = np.zeros(x.shape, dt)
    src, dst = [], []
    for pi, size, fs in zip(p, sp, full.shape[2:]):
        lo, hi = pi, min(pi + size, fs)  # full's positions are padded-input positions
        src.append(slice(lo, hi))
        dst.append(slice(0, max(hi - lo, 0)))
    out[(slice(None),) * 2 + tuple(dst)] = full[(slice(None),) * 2 + tuple(src)]
    return out.astype(x.dtype, copy=False)


def conv3d_weight_backward(g, x, w, stride, padding, dilation, groups):
    """d(conv3d)/d(weight)."""
    g, x, w = arr(g), arr(x), arr(w)
    if x.ndim == 4:  # unbatched
        return conv3d_weight_backward(g[None], x[None], w, stride, padding, dilation, groups)
    s, p, d = _geometry(x, w, stride, padding, dilation)
    ks, outs = w.shape[2:], g.shape[2:]
    cout, cpg = w.shape[:2]
    cin = x.shape[1]
    n = x.shape[0]
    dt = np.result_type(g.dtype, x.dtype)
    xp = np.pad(x.astype(dt, copy=False), ((0, 0), (0, 0)) + tuple((pi, pi) for pi in p))
    k = cpg * int(np.prod(ks))
    bs = max(1, min(n, (1 << 21) // max(cin * int(np.prod(ks)) * int(np.prod(outs)) *
                                         dt.itemsize, 1)))
    opg = cout // groups
    out = np.zeros((groups, opg, k), dt)
    cols = np.empty((cin,) + tuple(ks) + (bs,) + tuple(outs), dt)
    for b0 in range(0, n, bs):
        m = min(bs, n - b0)
        c = cols[(Ellipsis, slice(0, m)) + (slice(None),) * len(outs)]
        xs = xp[b0:b0 + m].swapaxes(0, 1)
        for tap in product(*(range(ki) for ki in ks)):
            c[(slice(None),) + tap] = xs[(slice(None), slice(None)) + tuple(
                slice(t * di, t * di + si * (o - 1) + 1, si)
                for t, di, si, o in zip(tap, d, s, outs))]
        cg = c.reshape(groups, k, -1)
        gg = np.ascontiguousarray(g[b0:b0 + m].swapaxes(0, 1), dt).reshape(groups, opg, -1)
        out += np.matmul(gg, cg.transpose(0, 2, 1))
    return out.reshape(w.shape).astype(w.dtype, copy=False)


def _like(i):
    def info(args):
        a = args[i]
        return TensorInfo(a.dtype, a.shape) if a.is_tensor else UNKNOWN
    return info


_BW = ("(Tensor grad, Tensor input, Tensor weight, Any stride=1, Any padding=0, "
       "Any dilation=1, int groups=1) -> Tensor")
reg("tensor.conv3d_input_backward", _BW, conv3d_input_backward, shape=_like(1),
    may_raise=True)
reg("tensor.conv3d_weight_backward", _BW, conv3d_weight_backward, shape=_like(2),
    may_raise=True)
