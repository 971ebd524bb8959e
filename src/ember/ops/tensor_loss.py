"""Loss functions (torch.nn.functional's), forward kernels and their backward kernels.

Each loss takes torch's `reduction` ("mean", "sum", "none") as a keyword. The backward
kernels (`tensor.<loss>_backward(grad, input, target, …)`) give the gradient with respect
to the input; the derivative rules in `ops/vjp_tensor.py` use them.
"""

from __future__ import annotations

import numpy as np

from ember.ops.tensor_common import F, arr, quiet, reg
from ember.ops.tensorinfo import UNKNOWN, TensorInfo


def _reduce(loss, reduction):
    if reduction == "none":
        return arr(loss)
    if reduction == "sum":
        return arr(loss.sum(dtype=loss.dtype))
    if reduction == "mean":
        return arr(loss.mean(dtype=loss.dtype))
    raise ValueError(f"{reduction} is not a valid value for reduction")


def _unreduce(g, shape, dtype, reduction):
    """The gradient of the reduction: g spread back over the elements."""
    g = arr(g).astype(dtype, copy=False)
    if reduction == "none":
        return np.broadcast_to(g, shape)
    n = int(np.prod(shape))
    if reduction == "mean":
        g = g / dtype.type(max(n, 1)) if n else g
    return np.broadcast_to(g, shape)


def _check_same(x, t, what):
    if x.shape != t.shape:
        try:
            np.broadcast_shapes(x.shape, t.shape)
        except ValueError:
            raise RuntimeError(f"{what}: the size of input {tuple(x.shape)} must match the "
                               f"size of target {tuple(t.shape)}") from None


def legacy_reduction(size_average, reduce, reduction):
    """torch's _Reduction.legacy_get_string: size_average / reduce, where either is given,
    decide the reduction (both default to True)."""
    if size_average is None and reduce is None:
        return reduction
    size_average = True if size_average is None else size_average
    reduce = True if reduce is None else reduce
    return "none" if not reduce else "mean" if size_average else "sum"


def _schema(extra_schema: str) -> str:
    return f"(Tensor input, Tensor target{extra_schema}, *, str reduction='mean') -> Tensor"


def _pointwise(name, fwd, bwd, extra_schema="", python=()):
    """Register an elementwise loss and its backward."""
    def kernel(x, t, *rest):
        _check_same(x, t, name)
        *params, reduction = rest
        with quiet():
            return _reduce(fwd(x, t, *params), reduction)

    def backward(g, x, t, *rest):
        *params, reduction = rest
        dt = np.result_type(x.dtype, t.dtype)
        shape = np.broadcast_shapes(x.shape, t.shape)
        with quiet():
            d = bwd(x, t, *params).astype(dt, copy=False) * _unreduce(g, shape, dt, reduction)
        return arr(np.ascontiguousarray(d).reshape(shape))  # 0-d stays 0-d

    schema = _schema(extra_schema)
    reg(f"tensor.{name}", schema, kernel, python or (f"{F}.{name}",), shape=_loss_info,
        doc=f"torch.nn.functional.{name}")
    reg(f"tensor.{name}_legacy", f"(Tensor input, Tensor target{extra_schema}, "
        "bool? size_average=None, bool? reduce=None, str reduction='mean') -> Tensor",
        lambda x, t, *rest: kernel(x, t, *rest[:-3], legacy_reduction(*rest[-3:])),
        python or (f"{F}.{name}",), shape=_loss_info, may_raise=True,
        doc=f"torch.nn.functional.{name} with its legacy size_average / reduce arguments "
        "(positional, as the Python signature has them)")
    reg(f"tensor.{name}_backward", "(Tensor grad, " + schema[1:], backward,
        shape=_grad_info, doc=f"The gradient of {name} with respect to its input.")


def _loss_info(args):
    a = args[0]
    return TensorInfo(a.dtype, None) if a.is_tensor else UNKNOWN


def _grad_info(args):
    a = args[1]
    return TensorInfo(a.dtype, a.shape) if a.is_tensor else UNKNOWN


def _smooth_l1(x, t, beta):
    d = np.abs(x - t)
    if beta == 0:
        return d
    return np.where(d < beta, 0.5 * d * d / beta, d - 0.5 * beta)


def _smooth_l1_grad(x, t, beta):
    d = x - t
    if beta == 0:
        return np.sign(d)
    return np.where(np.abs(d) < beta, d / beta, np.sign(d))


def _huber(x, t, delta):
    d = np.abs(x - t)
    return np.where(d < delta, 0.5 * d * d, delta * (d - 0.5 * delta))


def _huber_grad(x, t, delta):
    d = x - t
    return np.where(np.abs(d) < delta, d, delta * np.sign(d))


_pointwise("mse_loss", lambda x, t: (x - t) ** 2, lambda x, t: 2 * (x - t))
_pointwise("l1_loss", lambda x, t: np.abs(x - t), lambda x, t: np.sign(x - t))
_pointwise("smooth_l1_loss", _smooth_l1, _smooth_l1_grad, ", float beta=1.0")
_pointwise("huber_loss", _huber, _huber_grad, ", float delta=1.0")


def _bce(x, t, w):
    if np.any((x < 0) | (x > 1)):
        raise RuntimeError("all elements of input should be between 0 and 1")
    loss = -(t * np.maximum(np.log(x), -100) + (1 - t) * np.maximum(np.log1p(-x), -100))
    return loss * w if w is not None else loss


def _bce_grad(x, t, w):
    eps = x.dtype.type(1e-12)
    d = (x - t) / np.maximum((1 - x) * x, eps)
    return d * w if w is not None else d


def _bce_logits(x, t, w, pos_weight):
    m = np.maximum(-x, 0)
    log_sig = -(m + np.log(np.exp(-m) + np.exp(-x - m)))   # log(sigmoid(x)), stable
    log_1m = log_sig - x                                       # log(1 - sigmoid(x))
    if pos_weight is not None:
        loss = -(pos_weight * t * log_sig + (1 - t) * log_1m)
    else:
        loss = -(t * log_sig + (1 - t) * log_1m)
    return loss * w if w is not None else loss


def _bce_logits_grad(x, t, w, pos_weight):
    s = 1 / (1 + np.exp(-x))
    if pos_weight is not None:
        d = (pos_weight * t + 1 - t) * s - pos_weight * t
    else:
        d = s - t
    return d * w if w is not None else d


_BCE = _schema(", Tensor? weight=None")
_BCE_LOGITS = _schema(", Tensor? weight=None, Tensor? pos_weight=None")
_pointwise("binary_cross_entropy", _bce, _bce_grad, ", Tensor? weight=None")
_pointwise("binary_cross_entropy_with_logits", _bce_logits, _bce_logits_grad,
           ", Tensor? weight=None, Tensor? pos_weight=None")


def _kl(x, t, log_target):
    if log_target:
        return np.exp(t) * (t - x)
    with quiet():
        return np.where(t > 0, t * (np.log(np.where(t > 0, t, 1)) - x), 0 * x)


def _kl_grad(x, t, log_target):
    return -np.exp(t) if log_target else -t + 0 * x


def kl_div(x, t, reduction="mean", log_target=False):
    with quiet():
        loss = _kl(arr(x), arr(t), log_target)
    if reduction == "batchmean":
        return arr(loss.sum(dtype=loss.dtype) / loss.dtype.type(x.shape[0] if x.ndim else 1))
    return _reduce(loss, reduction)


def kl_div_backward(g, x, t, reduction="mean", log_target=False):
    dt = np.result_type(x.dtype, t.dtype)
    shape = np.broadcast_shapes(x.shape, t.shape)
    if reduction == "batchmean":
        gg = np.broadcast_to(arr(g).astype(dt) / dt.type(x.shape[0] if x.ndim else 1), shape)
    else:
        gg = _unreduce(g, shape, dt, reduction)
    with quiet():
        return arr(np.ascontiguousarray(_kl_grad(x, t, log_target).astype(dt) * gg)
                   .reshape(shape))


_KL = "(Tensor input, Tensor target, str reduction='mean', bool log_target=False) -> Tensor"
reg("tensor.kl_div", _KL, kl_div, (f"{F}.kl_div",), shape=_loss_info,
    doc="torch.nn.functional.kl_div (input holds log-probabilities)")
reg("tensor.kl_div_backward", "(Tensor grad, " + _KL[1:], kl_div_backward, shape=_grad_info,
    doc="The gradient of kl_div with respect to its input.")


# ----------------------------------------------------------------------------- nll / cross entropy


def _class_dim(x):
    return 1 if x.ndim >= 2 else 0


def _picked(x, t, ignore_index, weight):
    """(mask of counted elements, their class weights, the target clamped to a class)."""
    cd = _class_dim(x)
    c = x.shape[cd]
    t = arr(t).astype(np.int64, copy=False)
    mask = t != ignore_index
    tc = np.where(mask, t, 0)
    if np.any((tc < 0) | (tc >= c)):
        bad = tc[(tc < 0) | (tc >= c)][0]
        raise IndexError(f"Target {bad} is out of bounds.")
    w = weight[tc] if weight is not None else np.ones(tc.shape, x.dtype)
    return mask, np.where(mask, w, 0).astype(x.dtype), tc


def _take_class(x, tc):
    cd = _class_dim(x)
    return np.squeeze(np.take_along_axis(x, np.expand_dims(tc, cd), axis=cd), axis=cd)


def _put_class(shape, tc, vals, dtype):
    cd = 1 if len(shape) >= 2 else 0
    out = np.zeros(shape, dtype)
    np.put_along_axis(out, np.expand_dims(tc, cd), np.expand_dims(vals, cd), axis=cd)
    return out


def nll_loss(x, t, weight=None, ignore_index=-100, reduction="mean"):
    mask, w, tc = _picked(x, t, ignore_index, weight)
    loss = -_take_class(x, tc) * w
    if reduction == "none":
        return arr(loss.astype(x.dtype))
    if reduction == "sum":
        return arr(loss.sum(dtype=x.dtype))
    with quiet():
        return arr(loss.sum(dtype=x.dtype) / w.sum(dtype=x.dtype))


def _nll_grad(g, x, t, weight, ignore_index, reduction):
    """d nll / d input (input = log-probabilities)."""
    mask, w, tc = _picked(x, t, ignore_index, weight)
    g = arr(g).astype(x.dtype, copy=False)
    if reduction == "mean":
        with quiet():
            scale = -w * (g / w.sum(dtype=x.dtype))
    elif reduction == "sum":
        scale = -w * g
    else:
        scale = -w * g
    return _put_class(x.shape, tc, scale.astype(x.dtype), x.dtype)


def nll_loss_backward(g, x, t, weight=None, ignore_index=-100, reduction="mean"):
    return arr(_nll_grad(g, x, t, weight, ignore_index, reduction))


def _log_softmax(x, dim):
    with quiet():
        s = x - x.max(axis=dim, keepdims=True)
        return s - np.log(np.exp(s).sum(axis=dim, keepdims=True))


def _smooth_parts(logp, t, weight, ignore_index, cd):
    """(per-element smooth loss, mask of ignored elements) for label smoothing."""
    if weight is not None:
        shape = [1] * logp.ndim
        shape[cd] = -1
        smooth = -(logp * weight.reshape(shape)).sum(axis=cd)
    else:
        smooth = -logp.sum(axis=cd)
    ignore = arr(t) == ignore_index
    return np.where(ignore, 0, smooth).astype(logp.dtype), ignore


def cross_entropy(x, t, weight=None, ignore_index=-100, reduction="mean", label_smoothing=0.0):
    x, t = arr(x), arr(t)
    if x.dtype.kind != "f":
        raise RuntimeError(f"cross_entropy: expected a floating point input, got {x.dtype}")
    cd = _class_dim(x)
    logp = _log_softmax(x, cd)
    c = x.shape[cd]
    if t.dtype.kind == "f":  # class probabilities
        tt = t * (1 - label_smoothing) + label_smoothing / c if label_smoothing else t
        shape = [1] * x.ndim
        shape[cd] = -1
        wl = logp * weight.reshape(shape) if weight is not None else logp
        loss = -(wl * tt).sum(axis=cd)
        if reduction == "mean":
            n = loss.size
            return arr((loss.sum(dtype=x.dtype) / x.dtype.type(max(n, 1))).astype(x.dtype))
        return _reduce(loss.astype(x.dtype), reduction)
    nll = nll_loss(logp, t, weight, ignore_index, reduction)
    if not label_smoothing:
        return nll
    smooth, ignore = _smooth_parts(logp, t, weight, ignore_index, cd)
    if reduction == "mean":
        mask, w, _ = _picked(x, t, ignore_index, weight)
        with quiet():
            ret = smooth.sum(dtype=x.dtype) / (w.sum(dtype=x.dtype) if weight is not None
                                               else x.dtype.type((~ignore).sum()))
    elif reduction == "sum":
        ret = smooth.sum(dtype=x.dtype)
    else:
        ret = smooth
    ls = x.dtype.type(label_smoothing)
    return arr(((1 - ls) * nll + ret * (ls / x.dtype.type(c))).astype(x.dtype))


def cross_entropy_backward(g, x, t, weight=None, ignore_index=-100, reduction="mean",
                           label_smoothing=0.0):
    x, t = arr(x), arr(t)
    cd = _class_dim(x)
    logp = _log_softmax(x, cd)
    c = x.shape[cd]
    g = arr(g).astype(x.dtype, copy=False)
    shape = [1] * x.ndim
    shape[cd] = -1
    if t.dtype.kind == "f":
        tt = t * (1 - label_smoothing) + label_smoothing / c if label_smoothing else t
        wt = tt * weight.reshape(shape) if weight is not None else tt
        lead = np.expand_dims(g, cd) if reduction == "none" else g
        if reduction == "mean":
            lead = g / x.dtype.type(max(logp.size // max(c, 1), 1))
        dlogp = -wt * lead
    else:
        ls = x.dtype.type(label_smoothing)
        dlogp = _nll_grad(g, logp, t, weight, ignore_index, reduction) * (1 - ls)
        if label_smoothing:
            _, ignore = _smooth_parts(logp, t, weight, ignore_index, cd)
            if reduction == "mean":
                mask, w, _ = _picked(x, t, ignore_index, weight)
                den = w.sum(dtype=x.dtype) if weight is not None else \
                    x.dtype.type((~ignore).sum())
                gs = np.broadcast_to(g / den, ignore.shape)
            else:
                gs = np.broadcast_to(g, ignore.shape)
            gs = np.where(ignore, 0, gs) * (ls / x.dtype.type(c))
            wv = weight.reshape(shape) if weight is not None else x.dtype.type(1)
            dlogp = dlogp - np.expand_dims(gs, cd) * wv
    dlogp = dlogp.astype(x.dtype, copy=False)
    with quiet():
        dx = dlogp - np.exp(logp) * dlogp.sum(axis=cd, keepdims=True)
    return arr(np.ascontiguousarray(dx.astype(x.dtype)))


_CE = ("(Tensor input, Tensor target, Tensor? weight=None, int ignore_index=-100, "
       "str reduction='mean', float label_smoothing=0.0) -> Tensor")
_NLL = ("(Tensor input, Tensor target, Tensor? weight=None, int ignore_index=-100, "
        "str reduction='mean') -> Tensor")
reg("tensor.cross_entropy", _CE, cross_entropy, (f"{F}.cross_entropy",), shape=_loss_info,
    doc="torch.nn.functional.cross_entropy: class indices or probabilities, label smoothing")
reg("tensor.cross_entropy_backward", "(Tensor grad, " + _CE[1:], cross_entropy_backward,
    shape=_grad_info, doc="The gradient of cross_entropy with respect to its input.")
reg("tensor.nll_loss", _NLL, nll_loss, (f"{F}.nll_loss",), shape=_loss_info,
    doc="torch.nn.functional.nll_loss (input holds log-probabilities)")
reg("tensor.nll_loss_backward", "(Tensor grad, " + _NLL[1:], nll_loss_backward,
    shape=_grad_info, doc="The gradient of nll_loss with respect to its input.")
