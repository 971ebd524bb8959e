"""Derivative rules of the tensor operators (see registry.VJP and ops/vjp_scalar.py).

Broadcasting operands get `tensor.sum_to(g, operand)`; a float operand of a tensor op
gets the sum of its share (`tensor.item_float(tensor.sum(...))`). Rules that need a
compile-time constant (a reduction's dims, a permutation) raise NotImplementedError
for a run-time one; the transformation reports it at the op's line."""

from __future__ import annotations

from ember.ops.registry import nondiff, vjp


def _sum_to(e, g, x):
    return e.sum_to(g, x) if e.is_tensor(x) else None


def _scalar(e, g, x, share):
    """A scalar operand's adjoint (None for an int)."""
    return e.to_float(share) if e.is_float(x) else None


def _const(e, v, what):
    c = e.value_of(v)
    if c is None and not e.is_none(v):
        raise NotImplementedError(f"{what} must be a compile-time constant")
    return c


def _false(e, v, what):
    if _const(e, v, what):
        raise NotImplementedError(f"in-place {what} is not differentiable")


# ----------------------------------------------------------------------------- arithmetic


@vjp("tensor.add")
def _add(e, a, out, g):
    return [_sum_to(e, g, a[0]), _sum_to(e, g, a[1])]


@vjp("tensor.sub")
def _sub(e, a, out, g):
    return [_sum_to(e, g, a[0]), _sum_to(e, e.op("tensor.neg", g), a[1])]


@vjp("tensor.add_alpha")
def _add_alpha(e, a, out, g):
    return [_sum_to(e, g, a[0]), _sum_to(e, e.op("tensor.mul_scalar", g, a[2]), a[1]), None]


@vjp("tensor.sub_alpha")
def _sub_alpha(e, a, out, g):
    gb = e.op("tensor.mul_scalar", g, e.op("float.neg", _as_float(e, a[2])))
    return [_sum_to(e, g, a[0]), _sum_to(e, gb, a[1]), None]


def _as_float(e, v):
    return v if e.is_float(v) else e.op("int.to_float", v)


@vjp("tensor.mul")
def _mul(e, a, out, g):
    x, y = a
    return [e.mul_sum_to(g, y, x) if e.is_tensor(x) else None,
            e.mul_sum_to(g, x, y) if e.is_tensor(y) else None]


@vjp("tensor.mul_sum_to")
def _mul_sum_to(e, a, out, g):
    """sum_to(x * y, like): g spreads back over the reduced dims."""
    x, y, _ = a
    return [e.mul_sum_to(g, y, x), e.mul_sum_to(g, x, y), None]


@vjp("tensor.truediv")
def _div(e, a, out, g):
    x, y = a
    gx = e.op("tensor.truediv", g, y)
    gy = e.op("tensor.neg", e.op("tensor.mul", gx, e.op("tensor.truediv", x, y)))
    return [_sum_to(e, gx, x), _sum_to(e, gy, y)]


@vjp("tensor.add_scalar", "tensor.radd_scalar")
def _add_scalar(e, a, out, g):
    return [g, _scalar(e, g, a[1], g)]


@vjp("tensor.sub_scalar")
def _sub_scalar(e, a, out, g):
    return [g, _scalar(e, g, a[1], e.op("tensor.neg", g))]


@vjp("tensor.rsub_scalar")
def _rsub_scalar(e, a, out, g):
    return [e.op("tensor.neg", g), _scalar(e, g, a[1], g)]


@vjp("tensor.mul_scalar", "tensor.rmul_scalar")
def _mul_scalar(e, a, out, g):
    x, s = a
    return [e.op("tensor.mul_scalar", g, s), _scalar(e, g, s, e.op("tensor.mul", g, x))]


@vjp("tensor.truediv_scalar")
def _div_scalar(e, a, out, g):
    x, s = a
    gx = e.op("tensor.truediv_scalar", g, s)
    gs = None
    if e.is_float(s):
        gs = e.op("float.neg", e.op("float.truediv", e.to_float(e.op("tensor.mul", gx, x)), s))
    return [gx, gs]


@vjp("tensor.rtruediv_scalar")
def _rdiv_scalar(e, a, out, g):
    x, s = a
    gx = e.op("tensor.neg", e.op("tensor.mul", g, e.op("tensor.truediv", out, x)))
    return [gx, _scalar(e, g, s, e.op("tensor.truediv", g, x))]


@vjp("tensor.pow_scalar")
def _pow_scalar(e, a, out, g):
    x, s = a
    sf = _as_float(e, s)
    d = e.op("tensor.mul_scalar", e.op("tensor.pow_scalar", x, e.op("float.sub", sf, 1.0)), sf)
    gs = None
    if e.is_float(s):
        gs = e.to_float(e.op("tensor.mul", e.op("tensor.mul", g, out), e.op("tensor.log", x)))
    return [e.op("tensor.mul", g, d), gs]


@vjp("tensor.pow")
def _pow(e, a, out, g):
    x, y = a
    d = e.op("tensor.mul", y, e.op("tensor.pow", x, e.op("tensor.sub_scalar", y, 1.0)))
    gy = e.op("tensor.mul", e.op("tensor.mul", g, out), e.op("tensor.log", x))
    return [_sum_to(e, e.op("tensor.mul", g, d), x), _sum_to(e, gy, y)]


@vjp("tensor.neg")
def _neg(e, a, out, g):
    return [e.op("tensor.neg", g)]


@vjp("tensor.pos", "tensor.contiguous", "tensor.clone")
def _identity(e, a, out, g):
    return [g]


@vjp("tensor.to", "tensor.to_float", "tensor.to_double", "tensor.to_half", "tensor.type_as")
def _cast(e, a, out, g):
    return [e.op("tensor.type_as", g, a[0])] + [None] * (len(a) - 1)


# ----------------------------------------------------------------------------- pointwise math


def _unary(name, deriv):
    @vjp(name)
    def rule(e, a, out, g):
        return [e.op("tensor.mul", g, deriv(e, a[0], out))] + [None] * (len(a) - 1)
    return rule


_unary("tensor.exp", lambda e, x, y: y)
_unary("tensor.expm1", lambda e, x, y: e.op("tensor.add_scalar", y, 1.0))
_unary("tensor.log", lambda e, x, y: e.op("tensor.reciprocal", x))
_unary("tensor.log1p", lambda e, x, y: e.op("tensor.reciprocal", e.op("tensor.add_scalar", x, 1.0)))
_unary("tensor.log2", lambda e, x, y: e.op("tensor.reciprocal",
                                            e.op("tensor.mul_scalar", x, 0.6931471805599453)))
_unary("tensor.log10", lambda e, x, y: e.op("tensor.reciprocal",
                                             e.op("tensor.mul_scalar", x, 2.302585092994046)))
_unary("tensor.sqrt", lambda e, x, y: e.op("tensor.reciprocal", e.op("tensor.mul_scalar", y, 2.0)))
_unary("tensor.rsqrt", lambda e, x, y: e.op("tensor.mul_scalar", e.op("tensor.pow_scalar", y, 3),
                                             -0.5))
_unary("tensor.sin", lambda e, x, y: e.op("tensor.cos", x))
_unary("tensor.cos", lambda e, x, y: e.op("tensor.neg", e.op("tensor.sin", x)))
_unary("tensor.tanh", lambda e, x, y: e.op("tensor.rsub_scalar", e.op("tensor.mul", y, y), 1.0))
_unary("tensor.sigmoid", lambda e, x, y: e.op("tensor.mul", y, e.op("tensor.rsub_scalar", y, 1.0)))
_unary("tensor.reciprocal", lambda e, x, y: e.op("tensor.neg", e.op("tensor.mul", y, y)))
_unary("tensor.square", lambda e, x, y: e.op("tensor.mul_scalar", x, 2.0))
_unary("tensor.abs", lambda e, x, y: e.op("tensor.sign", x))
_unary("tensor.atan", lambda e, x, y: e.op("tensor.reciprocal",
                                            e.op("tensor.add_scalar", e.op("tensor.mul", x, x), 1.0)))
_unary("tensor.sinh", lambda e, x, y: e.op("tensor.cosh", x))
_unary("tensor.cosh", lambda e, x, y: e.op("tensor.sinh", x))
_unary("tensor.erf", lambda e, x, y: e.op("tensor.mul_scalar", e.op(
    "tensor.exp", e.op("tensor.neg", e.op("tensor.mul", x, x))), 1.1283791670955126))


def _mask_rule(name, mask):
    """g where mask(operands, result) holds, else 0 (mask gives a bool tensor); in-place
    forms refused."""
    @vjp(name)
    def rule(e, a, out, g):
        if len(a) > 1 and e.value_of(a[-1]) is True:
            raise NotImplementedError("in-place activation is not differentiable")
        return [e.op("tensor.mul", g, mask(e, a, out))] + [None] * (len(a) - 1)
    return rule


# relu's mask is read from its result (relu(x) > 0 exactly where x > 0, NaN included), as
# torch's threshold_backward does: the input need not be kept for the backward
_mask_rule("tensor.relu", lambda e, a, out: e.op("tensor.gt_scalar", out, 0.0))
_mask_rule("tensor.relu6", lambda e, a, out: e.op("tensor.logical_and", e.op(
    "tensor.gt_scalar", a[0], 0.0), e.op("tensor.lt_scalar", a[0], 6.0)))
_mask_rule("tensor.hardtanh", lambda e, a, out: e.op("tensor.logical_and", e.op(
    "tensor.gt_scalar", a[0], a[1]), e.op("tensor.lt_scalar", a[0], a[2])))


@vjp("tensor.leaky_relu")
def _leaky(e, a, out, g):
    _false(e, a[2], "leaky_relu")
    pos = e.op("tensor.gt_scalar", a[0], 0.0)
    return [e.op("tensor.where", pos, g, e.op("tensor.mul_scalar", g, a[1])), None, None]


@vjp("tensor.silu")
def _silu(e, a, out, g):
    _false(e, a[1], "silu")
    x = a[0]
    s = e.op("tensor.sigmoid", x)
    d = e.op("tensor.mul", s, e.op("tensor.add_scalar", e.op(
        "tensor.mul", x, e.op("tensor.rsub_scalar", s, 1.0)), 1.0))
    return [e.op("tensor.mul", g, d), None]


@vjp("tensor.gelu")
def _gelu(e, a, out, g):
    if e.value_of(a[1]) == "tanh":
        from ember.ops.vjp_more import gelu_tanh
        return [gelu_tanh(e, a[0], g), None]
    if e.value_of(a[1]) != "none":
        raise NotImplementedError("gelu's approximate must be a constant 'none' or 'tanh'")
    x = a[0]
    cdf = e.op("tensor.mul_scalar", e.op("tensor.add_scalar", e.op(
        "tensor.erf", e.op("tensor.mul_scalar", x, 0.7071067811865476)), 1.0), 0.5)
    pdf = e.op("tensor.mul_scalar", e.op("tensor.exp", e.op(
        "tensor.mul_scalar", e.op("tensor.mul", x, x), -0.5)), 0.3989422804014327)
    return [e.op("tensor.mul", g, e.op("tensor.add", cdf, e.op("tensor.mul", x, pdf))), None]


@vjp("tensor.softplus")
def _softplus(e, a, out, g):
    x, beta, threshold = a
    bx = e.op("tensor.mul_scalar", x, beta)
    d = e.op("tensor.where", e.op("tensor.gt_scalar", bx, threshold), e.op("tensor.ones_like", x),
             e.op("tensor.sigmoid", bx))
    return [e.op("tensor.mul", g, d), None, None]


@vjp("tensor.hardsigmoid")
def _hardsigmoid(e, a, out, g):
    _false(e, a[1], "hardsigmoid")
    x = a[0]
    inside = e.op("tensor.logical_and", e.op("tensor.gt_scalar", x, -3.0),
                  e.op("tensor.lt_scalar", x, 3.0))
    return [e.op("tensor.mul_scalar", e.op("tensor.mul", g, inside), _ONE_SIXTH_F32), None]


_ONE_SIXTH_F32 = 0.1666666716337204
"""torch's hardsigmoid backward scales by 1/6 computed in float32 for every dtype: 3e-8
relative from 1/6 in float64, which compounds past 1e-7 through a few more ops (the
grad fuzzer's program 206000758). The rule matches torch."""


@vjp("tensor.hardswish")
def _hardswish(e, a, out, g):
    _false(e, a[1], "hardswish")
    return [e.op("tensor.hardswish_backward", g, a[0]), None]


@vjp("tensor.hardswish_backward")
def _hardswish_backward(e, a, out, g):
    """torch's: the same kernel for the incoming gradient; g * grad / 3 inside (-3, 3)."""
    go, x = a
    inside = e.op("tensor.logical_and", e.op("tensor.gt_scalar", x, -3.0),
                  e.op("tensor.lt_scalar", x, 3.0))
    gx = e.op("tensor.mul", e.op("tensor.truediv_scalar", e.op("tensor.mul", g, go), 3.0),
              inside)
    return [_sum_to(e, e.op("tensor.hardswish_backward", g, x), go), _sum_to(e, gx, x)]


@vjp("tensor.where")
def _where(e, a, out, g):
    c, x, y = a
    z = e.op("tensor.zeros_like", g)
    return [None, _sum_to(e, e.op("tensor.where", c, g, z), x),
            _sum_to(e, e.op("tensor.where", c, z, g), y)]


@vjp("tensor.maximum", "tensor.minimum")
def _maxmin(e, a, out, g):
    x, y = a
    pick = e.op("tensor.eq", out, x)
    z = e.op("tensor.zeros_like", g)
    return [_sum_to(e, e.op("tensor.where", pick, g, z), x),
            _sum_to(e, e.op("tensor.where", pick, z, g), y)]


@vjp("tensor.clamp")
def _clamp(e, a, out, g):
    x = a[0]
    keep = e.op("tensor.eq", out, x)
    return [e.op("tensor.mul", g, keep), None, None]


# ----------------------------------------------------------------------------- reductions


def _dims(e, dim, rank_of):
    c = _const(e, dim, "the reduction's dim")
    if c is None:
        return None
    return [c] if isinstance(c, int) else list(c)


def _unreduce(e, g, x, dim, keepdim):
    """g (a reduction's adjoint) broadcast back to x's shape."""
    dims = _dims(e, dim, None)
    if dims is not None and not _const(e, keepdim, "keepdim"):
        rank = x.type.rank
        if any(d < 0 for d in dims):
            if rank is None:
                raise NotImplementedError("a negative reduction dim needs the input's rank")
            dims = [d % rank for d in dims]
        for d in sorted(dims):
            g = e.op("tensor.unsqueeze", g, d)
    return e.op("tensor.expand_as", g, x)


@vjp("tensor.sum")
def _sum(e, a, out, g):
    x, dim, keepdim, _ = a
    return [e.op("tensor.type_as", _unreduce(e, g, x, dim, keepdim), x), None, None, None]


@vjp("tensor.mean")
def _mean(e, a, out, g):
    x, dim, keepdim, _ = a
    n = e.op("int.floordiv", e.op("tensor.numel", x), e.op("tensor.numel", out))
    gx = e.op("tensor.truediv_scalar", _unreduce(e, g, x, dim, keepdim), e.op("int.to_float", n))
    return [e.op("tensor.type_as", gx, x), None, None, None]


@vjp("tensor.logsumexp")
def _logsumexp(e, a, out, g):
    x, dim, keepdim = a
    y = _unreduce(e, out, x, dim, keepdim)
    return [e.op("tensor.mul", _unreduce(e, g, x, dim, keepdim),
                 e.op("tensor.exp", e.op("tensor.sub", x, y))), None, None]


# tensor.item_float / float_value / from_float carry no gradient, as in torch (.item()
# gives a plain number, torch.tensor(x) a new leaf): they are in nondiff below.


# ----------------------------------------------------------------------------- linear algebra


def _t(e, x):
    return e.op("tensor.transpose", x, -1, -2)


@vjp("tensor.mm")
def _mm(e, a, out, g):
    x, y = a
    return [e.op("tensor.mm", g, e.op("tensor.t", y)) if e.need(0) else None,
            e.op("tensor.mm", e.op("tensor.t", x), g) if e.need(1) else None]


@vjp("tensor.bmm")
def _bmm(e, a, out, g):
    x, y = a
    return [e.op("tensor.bmm", g, _t(e, y)), e.op("tensor.bmm", _t(e, x), g)]


@vjp("tensor.matmul")
def _matmul(e, a, out, g):
    x, y = a
    rx, ry = x.type.rank, y.type.rank
    if rx == 1 and ry == 1:
        return [e.op("tensor.mul", g, y), e.op("tensor.mul", g, x)]
    if rx == 1:
        if ry != 2:
            _nd(rx, ry)
        return [e.op("tensor.mv", y, g), e.op("tensor.outer", x, g)]
    if ry == 1:
        if rx != 2:
            _nd(rx, ry)
        return [e.op("tensor.outer", g, y), e.op("tensor.mv", e.op("tensor.t", x), g)]
    if rx is None or ry is None:
        r = e.op("tensor.matmul_backward", g, x, y)
        return [e.tuple_get(r, 0), e.tuple_get(r, 1)]
    return [_sum_to(e, e.op("tensor.matmul", g, _t(e, y)), x),
            _sum_to(e, e.op("tensor.matmul", _t(e, x), g), y)]


def _nd(rx, ry):
    raise NotImplementedError(f"matmul of ranks {rx} and {ry} has no derivative rule yet")


@vjp("tensor.mv")
def _mv(e, a, out, g):
    m, v = a
    return [e.op("tensor.outer", g, v), e.op("tensor.mv", e.op("tensor.t", m), g)]


@vjp("tensor.outer")
def _outer(e, a, out, g):
    x, y = a
    return [e.op("tensor.mv", g, y), e.op("tensor.mv", e.op("tensor.t", g), x)]


@vjp("tensor.dot")
def _dot(e, a, out, g):
    x, y = a
    return [e.op("tensor.mul", g, y), e.op("tensor.mul", g, x)]


@vjp("tensor.linear")
def _linear(e, a, out, g):
    x, w, b = a
    gx = e.op("tensor.matmul", g, w) if e.need(0) else None
    gw = None
    if e.need(1):
        if x.type.rank == 1:
            gw = e.op("tensor.outer", g, x)
        else:
            gw = e.op("tensor.mm", e.op("tensor.t", e.op("tensor.flatten", g, 0, -2)),
                      e.op("tensor.flatten", x, 0, -2))
    gb = e.sum_to(g, b) if e.is_tensor(b) and e.need(2) else None
    return [gx, gw, gb]


# ----------------------------------------------------------------------------- shapes


@vjp("tensor.view", "tensor.view_seq", "tensor.flatten", "tensor.unflatten", "tensor.unsqueeze",
     "tensor.squeeze", "tensor.squeeze_dims", "tensor.view_as")
def _reshape(e, a, out, g):
    return [e.op("tensor.view", e.op("tensor.contiguous", g), e.op("tensor.size", a[0]))] + \
        [None] * (len(a) - 1)


@vjp("tensor.t")
def _tt(e, a, out, g):
    return [e.op("tensor.t", g)]


@vjp("tensor.transpose")
def _transpose(e, a, out, g):
    return [e.op("tensor.transpose", g, a[1], a[2]), None, None]


@vjp("tensor.permute", "tensor.permute_seq")
def _permute(e, a, out, g):
    dims = _const(e, a[1], "permute's dims")
    n = len(dims)
    inv = [0] * n
    for i, d in enumerate(dims):
        inv[d % n] = i
    return [e.op("tensor.permute", g, inv), None]


@vjp("tensor.expand", "tensor.expand_seq", "tensor.expand_as")
def _expand(e, a, out, g):
    return [e.sum_to(g, a[0]), None]


@vjp("tensor.softmax")
def _softmax(e, a, out, g):
    dim = a[1]
    s = e.op("tensor.sum", e.op("tensor.mul", g, out), [_const(e, dim, "softmax's dim")], True)
    return [e.op("tensor.mul", out, e.op("tensor.sub", g, s)), None, None]


@vjp("tensor.log_softmax")
def _log_softmax(e, a, out, g):
    dim = a[1]
    s = e.op("tensor.sum", g, [_const(e, dim, "log_softmax's dim")], True)
    return [e.op("tensor.sub", g, e.op("tensor.mul", e.op("tensor.exp", out), s)), None, None]


# ----------------------------------------------------------------------------- layers


@vjp("tensor.conv2d")
def _conv2d(e, a, out, g):
    x, w, b, stride, padding, dilation, groups = a
    if isinstance(e.value_of(padding), str):
        raise NotImplementedError("conv2d with a string padding has no derivative rule yet")
    rest = (stride, padding, dilation, groups)
    gx = e.op("tensor.conv2d_input_backward", g, x, w, *rest) if e.need(0) else None
    gw = e.op("tensor.conv2d_weight_backward", g, x, w, *rest) if e.need(1) else None
    gb = None if not e.is_tensor(b) or not e.need(2) else e.op("tensor.sum", g, [0, 2, 3])
    return [gx, gw, gb, None, None, None, None]


@vjp("tensor.max_pool2d")
def _max_pool2d(e, a, out, g):
    x, k, stride, padding, dilation, ceil_mode, ret_idx = a
    return [e.op("tensor.max_pool2d_backward", g, x, k, stride, padding, dilation, ceil_mode),
            None, None, None, None, None, None]


@vjp("tensor.max_pool3d")
def _max_pool3d(e, a, out, g):
    x, k, stride, padding, dilation, ceil_mode, ret_idx = a
    return [e.op("tensor.max_pool3d_backward", g, x, k, stride, padding, dilation, ceil_mode),
            None, None, None, None, None, None]


@vjp("tensor.batch_norm")
def _batch_norm(e, a, out, g):
    x, rm, rv, w, b, training, momentum, eps = a
    saved = e.keep_forward(out, "tensor.batch_norm_train") \
        if e.value_of(training) is True else None
    if saved is not None:  # the forward keeps the batch's mean and 1 / std
        r = e.op("tensor.batch_norm_backward_saved", g, x, w, saved)
    else:
        r = e.op("tensor.batch_norm_backward", g, x, rm, rv, w, training, eps)
    gw = e.tuple_get(r, 1) if e.is_tensor(w) else None
    gb = e.tuple_get(r, 2) if e.is_tensor(b) else None
    return [e.tuple_get(r, 0), None, None, gw, gb, None, None, None]


@vjp("tensor.embedding")
def _embedding(e, a, out, g):
    idx, w, padding_idx = a[0], a[1], a[2]
    return [None, e.op("tensor.embedding_backward", g, idx, w, padding_idx)] + [None] * 5


@vjp("tensor.dropout")
def _dropout(e, a, out, g):
    """The mask is read back from the result (kept elements are nonzero): an element whose
    input was exactly 0 gets no gradient where torch would scale it."""
    x, p, training, inplace = a
    _false(e, inplace, "dropout")
    if _const(e, training, "dropout's training flag") is False:
        return [g, None, None, None]
    keep = e.op("tensor.ne_scalar", out, 0.0)
    scale = e.op("float.truediv", 1.0, e.op("float.sub", 1.0, p))
    return [e.op("tensor.mul_scalar", e.op("tensor.mul", g, keep), scale), None, None, None]


# ----------------------------------------------------------------------------- losses


def _loss(name, target):
    """target: "neg" (the input's gradient negated: a function of input - target),
    "kernel" (tensor.<name>_target_backward, ops/tensor_loss_grad.py) or None (class
    indices). Both gradients are summed back to their operand's shape (broadcasting)."""
    @vjp(f"tensor.{name}")
    def rule(e, a, out, g):
        gx = e.op(f"tensor.{name}_backward", g, *a)
        gt = None
        if target == "neg":
            gt = _sum_to(e, e.op("tensor.neg", gx), a[1])
        elif target == "kernel" and e.is_tensor(a[1]):
            gt = _sum_to(e, e.op(f"tensor.{name}_target_backward", g, *a), a[1])
        return [_sum_to(e, gx, a[0]), gt] + [None] * (len(a) - 2)
    return rule


for _n in ("mse_loss", "l1_loss", "smooth_l1_loss", "huber_loss"):
    _loss(_n, "neg")
for _n in ("binary_cross_entropy", "binary_cross_entropy_with_logits", "kl_div",
           "cross_entropy"):
    _loss(_n, "kernel")
_loss("nll_loss", None)


@vjp("tensor.seed_like")
def _seed_like_rule(e, a, out, g):
    return [_sum_to(e, g, a[0]), None]


@vjp("tensor.sum_to")
def _sum_to_rule(e, a, out, g):
    return [e.op("tensor.expand_as", g, a[0]), None]


nondiff(
    "tensor.eq", "tensor.eq_scalar", "tensor.ne", "tensor.ne_scalar", "tensor.lt",
    "tensor.lt_scalar", "tensor.le", "tensor.le_scalar", "tensor.gt", "tensor.gt_scalar",
    "tensor.ge", "tensor.ge_scalar", "tensor.equal", "tensor.isclose", "tensor.allclose",
    "tensor.isnan", "tensor.isinf", "tensor.isfinite", "tensor.argmax", "tensor.argmin",
    "tensor.argsort", "tensor.sign", "tensor.floor", "tensor.ceil", "tensor.round",
    "tensor.trunc", "tensor.zeros_like", "tensor.zeros_unread", "tensor.ones_like", "tensor.empty_like",
    "tensor.full_like", "tensor.rand_like", "tensor.randn_like", "tensor.detach",
    "tensor.logical_and", "tensor.logical_or", "tensor.logical_xor", "tensor.logical_not",
    "tensor.to_int", "tensor.to_long", "tensor.to_bool", "tensor.to_short", "tensor.to_char",
    "tensor.to_byte", "tensor.count_nonzero", "tensor.nonzero", "tensor.one_hot",
    "tensor.floordiv", "tensor.floordiv_scalar", "tensor.size", "tensor.size_dim",
    "tensor.numel", "tensor.dim", "tensor.int_value", "tensor.bool_value",
    "tensor.item_float", "tensor.float_value", "tensor.from_float",
)


# ----------------------------------------------------------------------------- indexing, joins


@vjp("tensor.index")
def _index(e, a, out, g):
    x, spec, ints, tensors = a
    return [e.op("tensor.index_backward", g, x, spec, ints, tensors), None, None, None]


@vjp("tensor.select")
def _select(e, a, out, g):
    return [e.op("tensor.select_backward", g, a[0], a[1], a[2]), None, None]


@vjp("tensor.narrow")
def _narrow(e, a, out, g):
    return [e.op("tensor.narrow_backward", g, a[0], a[1], a[2]), None, None, None]


@vjp("tensor.gather")
def _gather(e, a, out, g):
    return [e.op("tensor.gather_backward", g, a[0], a[1], a[2]), None, None]


@vjp("tensor.cat")
def _cat(e, a, out, g):
    """Each operand's slice of g (a list of adjoints for the list literal)."""
    dim = a[1]
    items = e.list_items(a[0])
    if items is None:  # a list built otherwise: its adjoint is a list too
        return [e.op("tensor.split_sizes", g, e.op("grad.sizes_along", a[0], dim), dim), None]
    start = e.const(0)
    grads = []
    for x in items:
        n = e.op("tensor.size_dim", x, dim)
        grads.append(e.op("tensor.narrow", g, dim, start, n))
        start = e.op("int.add", start, n)
    return [grads, None]


@vjp("tensor.stack")
def _stack(e, a, out, g):
    items = e.list_items(a[0])
    if items is None:
        return [e.op("tensor.unbind", g, a[1]), None]
    return [[e.op("tensor.select", g, a[1], i) for i in range(len(items))], None]


@vjp("tensor.chunk", "tensor.split", "tensor.split_sizes")
def _pieces(e, a, out, g):
    """g is the pieces' adjoints (a list): they join back along dim."""
    return [e.op("tensor.cat", g, a[2]), None, None]


@vjp("tensor.unbind")
def _unbind(e, a, out, g):
    return [e.op("tensor.stack", g, a[1]), None]


@vjp("tensor.layer_norm")
def _layer_norm(e, a, out, g):
    x, shape, w, b, eps = a
    r = e.op("tensor.layer_norm_backward", g, x, shape, w, b, eps)
    return [e.tuple_get(r, 0), None, e.tuple_get(r, 1) if e.is_tensor(w) else None,
            e.tuple_get(r, 2) if e.is_tensor(b) else None, None]


@vjp("tensor.adaptive_avg_pool2d")
def _adaptive_avg_pool2d(e, a, out, g):
    return [e.op("tensor.adaptive_avg_pool2d_backward", g, a[0]), None]


@vjp("tensor.max_all", "tensor.min_all")
def _max_all(e, a, out, g):
    x = a[0]
    hit = e.op("tensor.eq", x, out)
    share = e.op("tensor.truediv", g, e.op("tensor.sum", hit))
    return [e.op("tensor.mul", hit, share)]


@vjp("tensor.var")
def _var(e, a, out, g):
    x, dim, unbiased, keepdim = a
    dims = _dims(e, dim, None)
    n = e.op("int.floordiv", e.op("tensor.numel", x), e.op("tensor.numel", out))
    if _const(e, unbiased, "unbiased"):
        n = e.op("int.sub", n, 1)
    mean = e.op("tensor.mean", x, dims, True) if dims is not None else e.op("tensor.mean", x)
    d = e.op("tensor.sub", x, mean)
    gx = e.op("tensor.mul", _unreduce(e, g, x, dim, keepdim), d)
    return [e.op("tensor.mul_scalar", gx, e.op("float.truediv", 2.0, e.op("int.to_float", n))),
            None, None, None]


@vjp("tensor.mul_conv2d")
def _mul_conv2d(e, a, out, g):
    """conv2d(self * other, weight, bias, ...): conv2d's rule, then the product's."""
    x, y, w, b, stride, padding, dilation, groups = a
    if isinstance(e.value_of(padding), str):
        raise NotImplementedError("conv2d with a string padding has no derivative rule yet")
    rest = (stride, padding, dilation, groups)  # the kernels make no x * y (a fast path)
    gxy = e.op("tensor.mul_conv2d_input_backward", g, x, y, w, *rest) \
        if e.need(0) or e.need(1) else None
    gw = e.op("tensor.mul_conv2d_weight_backward", g, x, y, w, *rest) if e.need(2) else None
    gb = e.op("tensor.sum", g, [0, 2, 3]) if e.is_tensor(b) and e.need(3) else None
    gx = e.mul_sum_to(gxy, y, x) if e.need(0) else None
    gy = e.mul_sum_to(gxy, x, y) if e.need(1) else None
    return [gx, gy, gw, gb, None, None, None, None]


@vjp("tensor.dropout_seeded")
def _dropout_seeded(e, a, out, g):
    x, p, seed, counter, site = a  # the backward reads only x's shape and dtype
    return [e.op("tensor.dropout_seeded_backward", g, e.shape_of(x), p, seed, counter,
                 site)] + [None] * 4


def _as_1d_param(e, v, what):
    c = _const(e, v, what)
    if isinstance(c, (list, tuple)):
        if len(c) != 1:
            raise NotImplementedError(f"conv1d's {what} must have one element")
        c = c[0]
    if not isinstance(c, int):
        raise NotImplementedError(f"conv1d's {what} must be a constant int")
    return c


@vjp("tensor.conv1d")
def _conv1d(e, a, out, g):
    """conv1d as conv2d over a height of 1 (the 2-d backward kernels)."""
    x, w, b, stride, padding, dilation, groups = a
    s = _as_1d_param(e, stride, "stride")
    p = _as_1d_param(e, padding, "padding")
    d = _as_1d_param(e, dilation, "dilation")
    x2, w2, g2 = (e.op("tensor.unsqueeze", v, 2) for v in (x, w, g))
    rest = ([1, s], [0, p], [1, d], groups)
    gx = e.op("tensor.squeeze_dims", e.op("tensor.conv2d_input_backward", g2, x2, w2, *rest),
              2) if e.need(0) else None
    gw = e.op("tensor.squeeze_dims", e.op("tensor.conv2d_weight_backward", g2, x2, w2, *rest),
              2) if e.need(1) else None
    gb = e.op("tensor.sum", g, [0, 2]) if e.is_tensor(b) and e.need(2) else None
    return [gx, gw, gb, None, None, None, None]


# ----------------------------------------------------------------------------- more pointwise


def _rsqrt1m(e, x):
    """1 / sqrt(1 - x^2)."""
    return e.op("tensor.rsqrt", e.op("tensor.rsub_scalar", e.op("tensor.mul", x, x), 1.0))


_unary("tensor.tan", lambda e, x, y: e.op("tensor.add_scalar", e.op("tensor.mul", y, y), 1.0))
_unary("tensor.asin", lambda e, x, y: _rsqrt1m(e, x))
_unary("tensor.acos", lambda e, x, y: e.op("tensor.neg", _rsqrt1m(e, x)))
_unary("tensor.erfc", lambda e, x, y: e.op("tensor.mul_scalar", e.op(
    "tensor.exp", e.op("tensor.neg", e.op("tensor.mul", x, x))), -1.1283791670955126))
_unary("tensor.logsigmoid", lambda e, x, y: e.op("tensor.sigmoid", e.op("tensor.neg", x)))
_unary("tensor.softsign", lambda e, x, y: e.op("tensor.reciprocal", e.op(
    "tensor.square", e.op("tensor.add_scalar", e.op("tensor.abs", x), 1.0))))


@vjp("tensor.clamp_min", "tensor.clamp_max")
def _clamp_one(e, a, out, g):
    return [e.op("tensor.mul", g, e.op("tensor.eq", out, a[0])), None]


@vjp("tensor.elu")
def _elu(e, a, out, g):
    x, alpha, inplace = a
    _false(e, inplace, "elu")
    neg = e.op("tensor.add_scalar", out, alpha)  # alpha * exp(x) where x <= 0
    d = e.op("tensor.where", e.op("tensor.gt_scalar", x, 0.0), e.op("tensor.ones_like", x), neg)
    return [e.op("tensor.mul", g, d), None, None]


@vjp("tensor.masked_fill")
def _masked_fill(e, a, out, g):
    x, mask, value = a
    z = e.op("tensor.zeros_like", g)
    gv = e.to_float(e.op("tensor.where", mask, g, z)) if e.is_float(value) else None
    return [_sum_to(e, e.op("tensor.where", mask, z, g), x), None, gv]


@vjp("tensor.T")
def _tT(e, a, out, g):
    return [e.op("tensor.T", g)]  # reversing the dims is its own inverse


@vjp("tensor.mT")
def _mT(e, a, out, g):
    return [e.op("tensor.transpose", g, -1, -2)]


@vjp("tensor.movedim")
def _movedim(e, a, out, g):
    return [e.op("tensor.movedim", g, a[2], a[1]), None, None]


@vjp("tensor.flip")
def _flip(e, a, out, g):
    return [e.op("tensor.flip", g, a[1]), None]


@vjp("tensor.cumsum")
def _cumsum(e, a, out, g):
    x, dim, _ = a
    d = [_const(e, dim, "cumsum's dim")]
    r = e.op("tensor.flip", e.op("tensor.cumsum", e.op("tensor.flip", g, d), dim), d)
    return [e.op("tensor.type_as", r, x), None, None]


@vjp("tensor.amax", "tensor.amin")
def _amax(e, a, out, g):
    x, dim, keepdim = a
    if _const(e, dim, "amax's dim") == []:
        dim = None
    hit = e.op("tensor.eq", x, _unreduce(e, out, x, dim, keepdim))
    n = _unreduce(e, e.op("tensor.sum", hit, dim if dim is not None else None, keepdim)
                  if dim is not None else e.op("tensor.sum", hit), x, dim, keepdim)
    return [e.op("tensor.mul", e.op("tensor.truediv", _unreduce(e, g, x, dim, keepdim), n),
                 hit), None, None]


@vjp("tensor.std")
def _std(e, a, out, g):
    x, dim, unbiased, keepdim = a
    gvar = e.op("tensor.truediv", g, e.op("tensor.mul_scalar", out, 2.0))
    return _var(e, a, e.op("tensor.mul", out, out), gvar)
