"""The gradients of the losses with respect to their target, as torch.autograd gives them
(binary_cross_entropy, binary_cross_entropy_with_logits, kl_div, and cross_entropy with
probability targets): `tensor.<loss>_target_backward(grad, input, target, ...)`, with
the loss's own schema after `grad`. The derivative rules in `ops/vjp_tensor.py` use them
(the input's gradients are tensor_loss.py's `_backward` kernels)."""

from __future__ import annotations

import numpy as np

from ember.ops.tensor_common import arr, quiet, reg
from ember.ops.tensor_loss import _BCE, _BCE_LOGITS, _CE, _KL, _class_dim, _log_softmax, \
    _unreduce
from ember.ops.tensorinfo import UNKNOWN, TensorInfo


def _target_info(args):
    t = args[2]
    return TensorInfo(t.dtype, t.shape) if t.is_tensor else UNKNOWN


def _spread(g, d, x, t, reduction):
    """d (the per-element derivative) times the reduction's share of g, in the result
    dtype; 0-d inputs give a 0-d gradient."""
    dt = np.result_type(x.dtype, t.dtype)
    shape = np.broadcast_shapes(x.shape, t.shape)
    out = np.broadcast_to(d, shape).astype(dt, copy=False) * _unreduce(g, shape, dt, reduction)
    return arr(np.ascontiguousarray(out).reshape(shape))


def bce_target_backward(g, x, t, weight=None, reduction="mean"):
    """-logit(input), as torch: unclamped (the loss clamps its logs at -100, this gradient
    does not), so an input of exactly 0 or 1 gives +-inf."""
    with quiet():
        d = np.log1p(-x) - np.log(x)
    return _spread(g, d * weight if weight is not None else d, x, t, reduction)


def bce_logits_target_backward(g, x, t, weight=None, pos_weight=None, reduction="mean"):
    m = np.maximum(-x, 0)
    with quiet():
        log_sig = -(m + np.log(np.exp(-m) + np.exp(-x - m)))
    log_1m = log_sig - x
    d = log_1m - (pos_weight * log_sig if pos_weight is not None else log_sig)
    return _spread(g, d * weight if weight is not None else d, x, t, reduction)


def kl_div_target_backward(g, x, t, reduction="mean", log_target=False):
    with quiet():
        if log_target:
            d = np.exp(t) * (t - x + 1)
        else:
            d = np.where(t > 0, np.log(np.where(t > 0, t, 1)) + 1 - x, 0 * x)
    if reduction == "batchmean":
        n = x.shape[0] if x.ndim else 1
        return _spread(arr(g) / np.result_type(x.dtype, t.dtype).type(n), d, x, t, "sum")
    return _spread(g, d, x, t, reduction)


def cross_entropy_target_backward(g, x, t, weight=None, ignore_index=-100, reduction="mean",
                                  label_smoothing=0.0):
    """Probability targets: -(1 - label_smoothing) * weight * log_softmax(input), spread
    like the loss's reduction; class-index targets carry no gradient (zeros)."""
    x, t = arr(x), arr(t)
    if t.dtype.kind != "f":
        return arr(np.zeros(t.shape, t.dtype))
    cd = _class_dim(x)
    logp = _log_softmax(x, cd)
    c = x.shape[cd]
    shape = [1] * x.ndim
    shape[cd] = -1
    d = -logp * x.dtype.type(1 - label_smoothing)
    if weight is not None:
        d = d * weight.reshape(shape)
    g = arr(g).astype(x.dtype, copy=False)
    if reduction == "none":
        lead = np.expand_dims(g, cd)
    elif reduction == "mean":
        lead = g / x.dtype.type(max(logp.size // max(c, 1), 1))
    else:
        lead = g
    return arr(np.ascontiguousarray((d * lead).astype(x.dtype)).reshape(t.shape))


def _register(name, schema, kernel):
    reg(f"tensor.{name}_target_backward", "(Tensor grad, " + schema[1:], kernel,
        shape=_target_info, doc=f"The gradient of {name} with respect to its target.")


_register("binary_cross_entropy", _BCE, bce_target_backward)
_register("binary_cross_entropy_with_logits", _BCE_LOGITS, bce_logits_target_backward)
_register("kl_div", _KL, kl_div_target_backward)
_register("cross_entropy", _CE, cross_entropy_target_backward)

TARGET_GRADIENTS = ("binary_cross_entropy", "binary_cross_entropy_with_logits", "kl_div",
                    "cross_entropy")
"""Losses whose target gets a gradient from `tensor.<loss>_target_backward`."""
