"""Normalization, embedding and dropout: batch_norm, layer_norm, group_norm,
instance_norm, rms_norm, local_response_norm, normalize, embedding, dropout (F.* signatures
and argument order).

batch_norm in eval mode folds mean, var, weight and bias into one per-channel
scale and shift, so the tensor is read once and written once (x * scale + shift).
layer_norm takes row means and variances as matrix-vector products and scales by the
outer product of the row scales and the weight in one flat pass.
In training mode batch_norm and instance_norm normalize with batch statistics
and update the running statistics in place, as torch does.
"""

from __future__ import annotations

import math

import numpy as np

from ember.ops.registry import ShapeMismatch
from ember.ops.tensor_common import (
    F,
    arr,
    check_dim,
    float_only_info,
    need_float,
    prepared,
    quiet,
    reg,
    row_sums,
    same_as_first,
)
from ember.ops.tensorinfo import UNKNOWN, TensorInfo, fmt, same_dim
from ember.ops.workspace import scratch


def _channel_shape(x):
    return (1, -1) + (1,) * (x.ndim - 2)


def _affine(y, weight, bias, shape):
    if weight is not None:
        y *= weight if weight.shape == shape else weight.reshape(shape)
    if bias is not None:
        y += bias if bias.shape == shape else bias.reshape(shape)
    return y


# ----------------------------------------------------------------------------- batch norm


def _update_running(running, batch, momentum):
    if running is not None:
        running *= 1.0 - momentum
        running += momentum * batch.astype(running.dtype, copy=False)


def batch_norm(x, mean, var, weight, bias, training, momentum, eps):
    """(x - mean) / sqrt(var + eps) * weight + bias per channel (dim 1)."""
    return _batch_norm(x, mean, var, weight, bias, training, momentum, eps)[0]


def batch_norm_train(x, mean, var, weight, bias, training, momentum, eps):
    """batch_norm's result and what its backward reads: the mean and 1 / sqrt(var + eps)
    it normalized with, as one (2C,) tensor (tensor.batch_norm_backward_saved)."""
    y, m, v = _batch_norm(x, mean, var, weight, bias, training, momentum, eps)
    dt = x.dtype
    invstd = 1 / np.sqrt(v.astype(dt, copy=False) + dt.type(eps))
    return y, np.concatenate([m.astype(dt, copy=False), invstd])


def batch_norm_from_saved(x, saved, weight, bias):
    """A training batch_norm's result again, from the mean and 1 / std its forward kept
    (tensor.batch_norm_train's second result): the same scale and shift, so the same bits.
    The reverse sweep recomputes it for a backward that reads it, rather than keeping it."""
    c = x.shape[1]
    scale = saved[c:].copy()
    if weight is not None:
        scale *= weight
    shift = -saved[:c] * scale
    if bias is not None:
        shift += bias
    shape = _channel_shape(x)
    y = np.multiply(x, scale.reshape(shape))
    y += shift.reshape(shape)
    return y


reg("tensor.batch_norm_from_saved", "(Tensor input, Tensor saved, Tensor? weight, "
    "Tensor? bias) -> Tensor", batch_norm_from_saved,
    shape=lambda a: TensorInfo(a[0].dtype, a[0].shape) if a[0].is_tensor else UNKNOWN,
    may_raise=True)


def _batch_norm(x, mean, var, weight, bias, training, momentum, eps):
    """(result, mean, var used)."""
    need_float(x, "batch_norm")
    if x.ndim < 2:
        raise ValueError(f"batch_norm: expected a 2D or higher input, got {x.ndim}D")
    if training:
        count = x.size // x.shape[1]
        if count <= 1:
            raise ValueError(f"Expected more than 1 value per channel when training, got "
                             f"input size {list(x.shape)}")
        mean_b, var_b = _batch_stats(x, count)
        _update_running(mean, mean_b, momentum)
        _update_running(var, var_b * (count / (count - 1)), momentum)
        mean, var = mean_b, var_b
    elif mean is None or var is None:
        raise RuntimeError("batch_norm in eval mode needs running_mean and running_var")
    fold = _bn_fold(x.dtype, eps)
    scale, shift = fold(mean, var, weight, bias) if training else \
        prepared(f"bn{eps}{x.dtype}", (mean, var, weight, bias), fold)
    shape = _channel_shape(x)
    y = np.multiply(x, scale.reshape(shape))
    y += shift.reshape(shape)
    return y, mean, var


def _batch_stats(x, count):
    """Per-channel mean and biased variance of x over every dim but 1 (x as (N, C, T):
    one sum, one centred dot product)."""
    x3 = x.reshape(x.shape[0], x.shape[1], -1)
    n = x.dtype.type(count)
    mean = x3.sum(axis=(0, 2), dtype=x.dtype) / n
    xc = np.subtract(x3, mean[:, None], out=scratch("bn.xc", x3.shape, x.dtype))
    return mean, np.einsum("nct,nct->c", xc, xc) / n


def _bn_fold(dtype, eps):
    """(scale, shift) per channel: the eval-mode batch norm as one affine map."""
    def fold(mean, var, weight, bias):
        scale = 1.0 / np.sqrt(var.astype(dtype, copy=False) + dtype.type(eps))
        if weight is not None:
            scale *= weight
        shift = -mean.astype(dtype, copy=False) * scale
        if bias is not None:
            shift += bias
        return scale, shift
    return fold


def _channels_info(args):
    x = args[0]
    if x.shape is not None and len(x.shape) >= 2:
        for p in args[1:5]:
            if p.is_tensor and p.shape is not None and len(p.shape) == 1 and \
                    same_dim(p.shape[0], x.shape[1]) is False:
                raise ShapeMismatch(f"batch_norm: input {fmt(x.shape)} has {x.shape[1]} "
                                    f"channels, a parameter has {p.shape[0]}")
    return TensorInfo(x.dtype, x.shape)


reg("tensor.batch_norm", "(Tensor input, Tensor? running_mean, Tensor? running_var, "
    "Tensor? weight=None, Tensor? bias=None, bool training=False, float momentum=0.1, "
    "float eps=0.00001) -> Tensor", batch_norm, (f"{F}.batch_norm",), _channels_info,
    may_raise=True)


def _train_info(args):
    y = _channels_info(args)
    c = y.shape[1] if y.shape is not None and len(y.shape) > 1 else None
    return y, TensorInfo(y.dtype, (None if c is None or not isinstance(c, int) else 2 * c,))


reg("tensor.batch_norm_train", "(Tensor input, Tensor? running_mean, Tensor? running_var, "
    "Tensor? weight=None, Tensor? bias=None, bool training=False, float momentum=0.1, "
    "float eps=0.00001) -> Tuple[Tensor, Tensor]", batch_norm_train, shape=_train_info,
    may_raise=True)

# ----------------------------------------------------------------------------- layer, group norm


def layer_norm(x, normalized_shape, weight, bias, eps):
    """Normalize over the trailing normalized_shape dims, then weight and bias. Row means
    and variances are matrix-vector products (numpy's short-row reductions are slow)."""
    need_float(x, "layer_norm")
    if isinstance(normalized_shape, int):
        normalized_shape = (normalized_shape,)
    k = len(normalized_shape)
    if tuple(x.shape[x.ndim - k:]) != tuple(normalized_shape) or k == 0:
        raise RuntimeError(f"Given normalized_shape={list(normalized_shape)}, expected input "
                           f"with shape [*, {', '.join(map(str, normalized_shape))}], but got "
                           f"input of size{list(x.shape)}")
    d = math.prod(normalized_shape)
    rows = x.reshape(-1, d)
    c = rows - row_sums(rows, 1.0 / d)
    rstd = row_sums(np.square(c), 1.0 / d)
    rstd += eps
    np.sqrt(rstd, out=rstd)
    np.divide(1.0, rstd, out=rstd)
    if weight is None:
        c *= rstd
    else:  # one flat pass with the outer product rstd x weight (numpy's row-by-row
        c *= np.dot(rstd, weight.reshape(1, d))  # broadcasting costs twice as much)
    if bias is not None:
        c += bias.reshape(d)
    return c.reshape(x.shape)


def group_norm(x, groups, weight, bias, eps):
    """Normalize each group of channels over its channels and positions."""
    need_float(x, "group_norm")
    n, c = x.shape[0], x.shape[1]
    if c % groups:
        raise RuntimeError(f"Expected number of channels in input to be divisible by "
                           f"num_groups, but got input of shape {list(x.shape)} and num_groups"
                           f"={groups}")
    g = x.reshape(n * groups, -1)
    y = g - g.mean(axis=1, keepdims=True)
    var = np.einsum("ij,ij->i", y, y) * (1.0 / g.shape[1])
    y *= (1.0 / np.sqrt(var + eps)).astype(x.dtype, copy=False)[:, None]
    return _affine(y.reshape(x.shape), weight, bias, _channel_shape(x))


def instance_norm(x, mean, var, weight, bias, use_input_stats, momentum, eps):
    """Normalize each (sample, channel) over its positions (or by running stats)."""
    need_float(x, "instance_norm")
    shape = _channel_shape(x)
    if not use_input_stats:
        return batch_norm(x, mean, var, weight, bias, False, momentum, eps)
    axes = tuple(range(2, x.ndim))
    mu = x.mean(axis=axes, keepdims=True)
    y = x - mu
    v = np.mean(y * y, axis=axes, keepdims=True)
    if mean is not None:
        count = math.prod(x.shape[2:])
        _update_running(mean, mu.mean(axis=0).reshape(-1), momentum)
        _update_running(var, v.mean(axis=0).reshape(-1) * (count / max(count - 1, 1)),
                        momentum)
    y /= np.sqrt(v + eps)
    return _affine(y, weight, bias, shape)


def _check_normalized(x, normalized_shape):
    shape = (normalized_shape,) if isinstance(normalized_shape, int) else tuple(normalized_shape)
    k = len(shape)
    if tuple(x.shape[x.ndim - k:]) != shape or k == 0 or k > x.ndim:
        raise RuntimeError(f"Given normalized_shape={list(shape)}, expected input with shape "
                           f"[*, {', '.join(map(str, shape))}], but got input of size"
                           f"{list(x.shape)}")
    return shape


def rms_norm(x, normalized_shape, weight, eps):
    """x / sqrt(mean(x^2 over the trailing normalized_shape dims) + eps) * weight; eps None is
    the dtype's machine epsilon, as in torch."""
    need_float(x, "rms_norm")
    shape = _check_normalized(x, normalized_shape)
    d = math.prod(shape)
    rows = x.reshape(-1, d)
    ms = row_sums(np.square(rows), 1.0 / d)
    ms += np.finfo(x.dtype).eps if eps is None else eps
    y = rows / np.sqrt(ms)
    y = y.reshape(x.shape)
    if weight is not None:
        y *= weight
    return y


def local_response_norm(x, size, alpha, beta, k):
    """x / (k + alpha * mean of x^2 over a window of `size` channels) ** beta; the window is
    zero-padded by size // 2 before and (size - 1) // 2 after each channel."""
    need_float(x, "local_response_norm")
    if x.ndim < 3:
        raise ValueError(f"Expected 3D or higher dimensionality input (got {x.ndim} "
                         "dimensions)")
    if x.shape[1] == 0:
        return x.copy()
    c = x.shape[1]
    sq = np.square(x)
    padded = np.zeros((x.shape[0], c + size - 1) + x.shape[2:], x.dtype)
    padded[:, size // 2:size // 2 + c] = sq
    div = padded[:, 0:c].copy()
    for i in range(1, size):  # a short loop over the window, vectorized over everything
        div += padded[:, i:i + c]
    div *= alpha / size
    div += k
    with quiet():
        np.power(div, beta, out=div)
    return np.divide(x, div, out=div)


def normalize(x, p, dim, eps):
    """x / max(norm_p(x along dim), eps)."""
    need_float(x, "normalize")
    d = check_dim(dim, x.ndim)
    a = np.abs(x)
    with quiet():
        if p == 2:
            norm = np.sqrt(np.einsum("...i,...i->...", np.moveaxis(x, d, -1),
                                     np.moveaxis(x, d, -1)))
            norm = np.expand_dims(norm, d)
        else:
            norm = np.sum(a ** p, axis=d, keepdims=True) ** (1.0 / p)
    return arr(x / np.maximum(norm, eps).astype(x.dtype, copy=False))


reg("tensor.layer_norm", "(Tensor input, Any normalized_shape, Tensor? weight=None, "
    "Tensor? bias=None, float eps=0.00001) -> Tensor", layer_norm,
    (f"{F}.layer_norm", "torch.layer_norm"), same_as_first, may_raise=True)
reg("tensor.group_norm", "(Tensor input, int num_groups, Tensor? weight=None, Tensor? bias=None,"
    " float eps=0.00001) -> Tensor", group_norm, (f"{F}.group_norm", "torch.group_norm"),
    same_as_first, may_raise=True)
reg("tensor.instance_norm", "(Tensor input, Tensor? running_mean=None, "
    "Tensor? running_var=None, Tensor? weight=None, Tensor? bias=None, "
    "bool use_input_stats=True, float momentum=0.1, float eps=0.00001) -> Tensor",
    instance_norm, (f"{F}.instance_norm",), same_as_first, may_raise=True)
reg("tensor.rms_norm", "(Tensor input, Any normalized_shape, Tensor? weight=None, "
    "float? eps=None) -> Tensor", rms_norm, (f"{F}.rms_norm", "torch.rms_norm"),
    float_only_info("rms_norm"), may_raise=True)
reg("tensor.local_response_norm", "(Tensor input, int size, float alpha=0.0001, "
    "float beta=0.75, float k=1.0) -> Tensor", local_response_norm,
    (f"{F}.local_response_norm",), float_only_info("local_response_norm"), may_raise=True)
reg("tensor.normalize", "(Tensor input, float p=2.0, int dim=1, float eps=0.000000000001) -> Tensor",
    normalize, (f"{F}.normalize",), same_as_first, may_raise=True)

# ----------------------------------------------------------------------------- embedding


def embedding(idx, weight, padding_idx=None, max_norm=None, *_):
    """The rows of weight at the int indices idx (result shape idx.shape + [dim])."""
    if idx.dtype.kind not in "iu":
        raise RuntimeError(f"Expected tensor for argument #1 'indices' to have one of the "
                           f"following scalar types: Long, Int; but got {idx.dtype} instead")
    if idx.size and (idx.min() < 0 or idx.max() >= weight.shape[0]):
        raise IndexError(f"index out of range in self (embedding of {weight.shape[0]} rows, "
                         f"indices in [{idx.min()}, {idx.max()}])")
    if max_norm is not None:
        raise RuntimeError("embedding(max_norm=...) renormalizes the weight in place; ember "
                           "does not support it")
    return np.take(weight, idx, axis=0)


def _embedding_info(args):
    i, w = args[0], args[1]
    if i.shape is None or w.shape is None:
        return TensorInfo(w.dtype, None)
    return TensorInfo(w.dtype, i.shape + w.shape[1:])


reg("tensor.embedding", "(Tensor input, Tensor weight, int? padding_idx=None, "
    "float? max_norm=None, float norm_type=2.0, bool scale_grad_by_freq=False, "
    "bool sparse=False) -> Tensor", embedding, (f"{F}.embedding",), _embedding_info,
    may_raise=True)

# ----------------------------------------------------------------------------- dropout


def dropout(x, p, training, inplace, channels=False):
    """x unchanged unless training; then zero elements (or whole channels) with
    probability p and scale the rest by 1 / (1 - p). numpy's generator, not torch's."""
    if not 0.0 <= p <= 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    if not training or p == 0.0:
        return x
    need_float(x, "dropout")
    shape = x.shape[:2] + (1,) * (x.ndim - 2) if channels and x.ndim > 2 else x.shape
    keep = np.random.default_rng().random(shape) >= p
    scale = keep.astype(x.dtype) * (x.dtype.type(0.0) if p == 1.0 else x.dtype.type(1 / (1 - p)))
    return np.multiply(x, scale, out=x if inplace else None)


def _alpha_dropout(x, p, training, inplace=False):
    if training and p > 0:
        raise RuntimeError("ember implements alpha dropout in eval mode only (training=False)")
    return x


_DROP = "(Tensor input, float p=0.5, bool training=True, bool inplace=False) -> Tensor"
reg("tensor.dropout", _DROP, dropout, (f"{F}.dropout",), same_as_first, may_raise=True)
reg("tensor.dropout_channels", _DROP, lambda x, p, t, i: dropout(x, p, t, i, True),
    (f"{F}.dropout1d", f"{F}.dropout2d", f"{F}.dropout3d"), same_as_first, may_raise=True,
    doc="Channel dropout (dropout1d/2d/3d): whole channels are zeroed when training.")
reg("tensor.alpha_dropout", _DROP, _alpha_dropout, (f"{F}.alpha_dropout",
                                                    f"{F}.feature_alpha_dropout"),
    same_as_first, may_raise=True, doc="Alpha dropout: identity in eval mode.")
reg("tensor.dropout_fn", "(Tensor input, float p, bool train) -> Tensor",
    lambda x, p, t: dropout(x, p, t, False), ("torch.dropout",), same_as_first,
    may_raise=True, doc="torch.dropout(input, p, train).")
