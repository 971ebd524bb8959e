"""unfold (im2col) and fold (col2im) over 2-d images, as torch.nn.functional's.

unfold copies every window of the zero-padded (N, C, H, W) input through one strided view
into (N, C*kh*kw, L) blocks; fold adds each tap's row of blocks into one strided slice of
the padded output (kh * kw vectorized adds) and crops the padding.
"""

from __future__ import annotations

import math
from itertools import product

import numpy as np
from numpy.lib.stride_tricks import as_strided

from ember.ops.tensor_common import F, reg
from ember.ops.tensor_conv import _padded, ntuple
from ember.ops.tensorinfo import TensorInfo


def _params(kernel_size, dilation, padding, stride):
    return tuple(ntuple(v, 2, what) for v, what in ((kernel_size, "kernel_size"),
                                                    (dilation, "dilation"),
                                                    (padding, "padding"), (stride, "stride")))


def _blocks(sizes, k, d, p, s):
    """The number of sliding blocks along each spatial dim."""
    return tuple((n + 2 * pi - di * (ki - 1) - 1) // si + 1
                 for n, ki, di, pi, si in zip(sizes, k, d, p, s))


def unfold(x, kernel_size, dilation, padding, stride):
    """(N, C, H, W) (or (C, H, W)) -> (N, C*kh*kw, L): every sliding block as a column."""
    if x.ndim == 3:
        return unfold(x[None], kernel_size, dilation, padding, stride)[0]
    if x.ndim != 4:
        raise RuntimeError(f"Input Error: Only 3D or 4D input Tensors are supported (got "
                           f"{x.ndim}D)")
    k, d, p, s = _params(kernel_size, dilation, padding, stride)
    n, c, h, w = x.shape
    out = _blocks((h, w), k, d, p, s)
    if min(out) < 1:
        raise RuntimeError(f"Given input with spatial size ({h}, {w}), kernel_size={k}, "
                           f"dilation={d}, padding={p}, calculated shape of the array of "
                           f"sliding blocks as {out}, but its components must be at least one.")
    xp = _padded(x, [(pi, pi) for pi in p])
    s0, s1, s2, s3 = xp.strides
    view = as_strided(xp, (n, c) + k + out, (s0, s1, d[0] * s2, d[1] * s3, s[0] * s2,
                                             s[1] * s3), writeable=False)
    return view.reshape(n, c * k[0] * k[1], out[0] * out[1])  # copies (strided view)


def fold(x, output_size, kernel_size, dilation, padding, stride):
    """(N, C*kh*kw, L) (or (C*kh*kw, L)) -> (N, C, H, W): the sum of the blocks at their
    sliding positions (unfold's adjoint)."""
    if x.ndim == 2:
        return fold(x[None], output_size, kernel_size, dilation, padding, stride)[0]
    if x.ndim != 3:
        raise RuntimeError(f"Expected 2D or 3D (batch mode) tensor for input with possibly 0 "
                           f"batch size and non-zero dimensions for input, but got: "
                           f"{list(x.shape)}")
    size = ntuple(output_size, 2, "output_size")
    k, d, p, s = _params(kernel_size, dilation, padding, stride)
    n, ck, length = x.shape
    taps = math.prod(k)
    if ck % taps:
        raise RuntimeError(f"Expected size of input's dimension 1 to be divisible by the "
                           f"product of kernel_size, but got input.size(1)={ck} and "
                           f"kernel_size={k}.")
    out = _blocks(size, k, d, p, s)
    if out[0] * out[1] != length:
        raise RuntimeError(f"Given output_size={size}, kernel_size={k}, dilation={d}, "
                           f"padding={p}, stride={s}, expected size of input's dimension 2 to "
                           f"match the calculated number of sliding blocks {out[0]} * "
                           f"{out[1]} = {out[0] * out[1]}, but got input.size(2)={length}.")
    c = ck // taps
    full = [max(size[i] + 2 * p[i], (out[i] - 1) * s[i] + d[i] * (k[i] - 1) + 1)
            for i in range(2)]
    y = np.zeros((n, c) + tuple(full), x.dtype)
    cols = x.reshape((n, c) + k + out)
    for i, j in product(range(k[0]), range(k[1])):
        y[:, :, i * d[0]:i * d[0] + (out[0] - 1) * s[0] + 1:s[0],
          j * d[1]:j * d[1] + (out[1] - 1) * s[1] + 1:s[1]] += cols[:, :, i, j]
    return np.ascontiguousarray(y[:, :, p[0]:p[0] + size[0], p[1]:p[1] + size[1]])


# ----------------------------------------------------------------------------- shape functions


def _unfold_info(args):
    x = args[0]
    consts = [a.const for a in args[1:5]]
    if x.shape is None or len(x.shape) not in (3, 4) or any(v is None for v in consts):
        return TensorInfo(x.dtype, None if x.shape is None or len(x.shape) not in (3, 4)
                          else (None,) * (len(x.shape) - 1))
    try:
        k, d, p, s = _params(*consts)
    except (TypeError, RuntimeError):
        return TensorInfo(x.dtype, (None,) * (len(x.shape) - 1))
    lead, (c, h, w) = x.shape[:-3], x.shape[-3:]
    ck = c * k[0] * k[1] if isinstance(c, int) else None
    blocks = None
    if isinstance(h, int) and isinstance(w, int):
        out = _blocks((h, w), k, d, p, s)
        blocks = out[0] * out[1]
    return TensorInfo(x.dtype, tuple(lead) + (ck, blocks))


def _fold_info(args):
    x = args[0]
    consts = [a.const for a in args[1:6]]
    if x.shape is None or len(x.shape) not in (2, 3) or any(v is None for v in consts):
        return TensorInfo(x.dtype, None)
    try:
        size = ntuple(consts[0], 2, "output_size")
        k = ntuple(consts[1], 2, "kernel_size")
    except (TypeError, RuntimeError):
        return TensorInfo(x.dtype, None)
    ck = x.shape[-2]
    c = ck // (k[0] * k[1]) if isinstance(ck, int) else None
    return TensorInfo(x.dtype, tuple(x.shape[:-2]) + (c,) + size)


reg("tensor.unfold_blocks", "(Tensor input, Any kernel_size, Any dilation=1, Any padding=0, "
    "Any stride=1) -> Tensor", unfold, (f"{F}.unfold",), _unfold_info, may_raise=True)
reg("tensor.fold", "(Tensor input, Any output_size, Any kernel_size, Any dilation=1, "
    "Any padding=0, Any stride=1) -> Tensor", fold, (f"{F}.fold",), _fold_info,
    may_raise=True)
