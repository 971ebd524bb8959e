"""More derivative rules (see ops/vjp_tensor.py for the conventions): the activations with
closed-form derivatives (mish, selu, celu, tanhshrink, gelu's tanh form), triangular
masks, roll, the fused products addmm / baddbmm, and group / instance norm (backward
kernels in ops/tensor_norm_grad.py). Each is written in ember operators,
so a gradient stays differentiable."""

from __future__ import annotations

from ember.ir import types as T
from ember.ops.registry import vjp
from ember.ops.vjp_tensor import _as_1d_param, _const, _false, _sum_to, _t, _unary, _unreduce

_SELU_ALPHA = 1.6732632423543772848170429916717
_SELU_SCALE = 1.0507009873554804934193349852946
_SQRT_2_PI = 0.7978845608028654  # sqrt(2 / pi), as torch's gelu(approximate='tanh')
_GELU_C = 0.044715


def _times(e, g, d):
    return e.op("tensor.mul", g, d)


@vjp("tensor.mish")
def _mish(e, a, out, g):
    """x tanh(softplus(x)): tanh(sp) + x sigmoid(x) (1 - tanh(sp)^2), as torch's backward."""
    _false(e, a[1], "mish")
    x = a[0]
    t = e.op("tensor.tanh", e.op("tensor.softplus", x, 1.0, 20.0))
    sech2 = e.op("tensor.rsub_scalar", e.op("tensor.mul", t, t), 1.0)
    d = e.op("tensor.add", t, e.op("tensor.mul", e.op("tensor.mul", x, e.op(
        "tensor.sigmoid", x)), sech2))
    return [_times(e, g, d), None]


@vjp("tensor.selu")
def _selu(e, a, out, g):
    """scale where x > 0, else scale alpha exp(x) = out + scale alpha."""
    _false(e, a[1], "selu")
    x = a[0]
    neg = e.op("tensor.add_scalar", out, _SELU_SCALE * _SELU_ALPHA)
    d = e.op("tensor.where", e.op("tensor.gt_scalar", x, 0.0),
             e.op("tensor.mul_scalar", e.op("tensor.ones_like", x), _SELU_SCALE), neg)
    return [_times(e, g, d), None]


@vjp("tensor.celu")
def _celu(e, a, out, g):
    """1 where x > 0, else exp(x / alpha) = out / alpha + 1."""
    x, alpha, inplace = a
    _false(e, inplace, "celu")
    alpha = _const(e, alpha, "celu's alpha")
    neg = e.op("tensor.add_scalar", e.op("tensor.mul_scalar", out, 1.0 / alpha), 1.0)
    d = e.op("tensor.where", e.op("tensor.gt_scalar", x, 0.0), e.op("tensor.ones_like", x), neg)
    return [_times(e, g, d), None, None]


@vjp("tensor.tanhshrink")
def _tanhshrink(e, a, out, g):
    t = e.op("tensor.tanh", a[0])
    return [_times(e, g, e.op("tensor.mul", t, t))]


def gelu_tanh(e, x, g):
    """d/dx of 0.5 x (1 + tanh(k (x + c x^3))): 0.5 (1 + t) + 0.5 x (1 - t^2) k (1 + 3c x^2)."""
    x2 = e.op("tensor.mul", x, x)
    inner = e.op("tensor.mul_scalar", e.op("tensor.add", x, e.op(
        "tensor.mul_scalar", e.op("tensor.mul", x2, x), _GELU_C)), _SQRT_2_PI)
    t = e.op("tensor.tanh", inner)
    left = e.op("tensor.mul_scalar", e.op("tensor.add_scalar", t, 1.0), 0.5)
    dinner = e.op("tensor.mul_scalar", e.op("tensor.add_scalar", e.op(
        "tensor.mul_scalar", x2, 3.0 * _GELU_C), 1.0), _SQRT_2_PI)
    right = e.op("tensor.mul", e.op("tensor.mul_scalar", x, 0.5), e.op(
        "tensor.mul", e.op("tensor.rsub_scalar", e.op("tensor.mul", t, t), 1.0), dinner))
    return _times(e, g, e.op("tensor.add", left, right))


@vjp("tensor.tril")
def _tril(e, a, out, g):
    return [e.op("tensor.tril", g, a[1]), None]


@vjp("tensor.triu")
def _triu(e, a, out, g):
    return [e.op("tensor.triu", g, a[1]), None]


@vjp("tensor.roll")
def _roll(e, a, out, g):
    shifts = _const(e, a[1], "roll's shifts")
    back = [-s for s in shifts] if isinstance(shifts, (list, tuple)) else -shifts
    return [e.op("tensor.roll", g, back, a[2]), None, None]


def _fused_product(e, a, g, product, transpose):
    """self beta + (m1 @ m2) alpha (addmm, baddbmm): beta and alpha compile-time constants."""
    x, m1, m2, beta, alpha = a
    beta, alpha = _const(e, beta, "beta"), _const(e, alpha, "alpha")
    ga = g if alpha == 1 else e.op("tensor.mul_scalar", g, float(alpha))
    gx = g if beta == 1 else e.op("tensor.mul_scalar", g, float(beta))
    return [_sum_to(e, gx, x) if beta != 0 else None,
            e.op(product, ga, transpose(e, m2)) if e.need(1) else None,
            e.op(product, transpose(e, m1), ga) if e.need(2) else None, None, None]


@vjp("tensor.addmm")
def _addmm(e, a, out, g):
    return _fused_product(e, a, g, "tensor.mm", lambda e, m: e.op("tensor.t", m))


@vjp("tensor.baddbmm")
def _baddbmm(e, a, out, g):
    return _fused_product(e, a, g, "tensor.bmm", _t)


def _holds_tensor(e, v) -> bool:
    """v is a tensor, or an Optional one (a module's `weight: Optional[Tensor]`)."""
    t = getattr(v, "type", None)
    return e.is_tensor(v) or (isinstance(t, T.OptionalType) and isinstance(t.elem, T.TensorType))


def _affine_grads(e, r, w, b):
    return [e.tuple_get(r, 1) if _holds_tensor(e, w) else None,
            e.tuple_get(r, 2) if _holds_tensor(e, b) else None]


@vjp("tensor.group_norm")
def _group_norm(e, a, out, g):
    x, groups, w, b, eps = a
    r = e.op("tensor.group_norm_backward", g, x, groups, w, b, eps)
    return [e.tuple_get(r, 0), None] + _affine_grads(e, r, w, b) + [None]


@vjp("tensor.instance_norm")
def _instance_norm(e, a, out, g):
    x, rm, rv, w, b, use_input_stats, momentum, eps = a
    r = e.op("tensor.instance_norm_backward", g, x, rm, rv, w, b, use_input_stats, eps)
    return [e.tuple_get(r, 0), None, None] + _affine_grads(e, r, w, b) + [None] * 3


@vjp("tensor.avg_pool1d")
def _avg_pool1d(e, a, out, g):
    return [e.op("tensor.avg_pool1d_backward", g, *a)] + [None] * (len(a) - 1)


def _avg_pool_rule(n):
    @vjp(f"tensor.avg_pool{n}d")
    def rule(e, a, out, g):
        return [e.op(f"tensor.avg_pool{n}d_backward", g, *a)] + [None] * (len(a) - 1)
    return rule


_avg_pool_rule(2)
_avg_pool_rule(3)


@vjp("tensor.conv_transpose2d")
def _conv_transpose2d(e, a, out, g):
    """conv_transpose2d(x, w) is the adjoint of conv2d(., w): the input's gradient is that
    conv2d of g; the weight's is conv2d's weight gradient with x as the output gradient
    and g as the input (output_padding only sized g)."""
    x, w, b, stride, padding, output_padding, groups, dilation = a
    rest = (stride, padding, dilation, groups)
    gx = e.op("tensor.conv2d", g, w, None, *rest) if e.need(0) else None
    gw = e.op("tensor.conv2d_weight_backward", x, g, w, *rest) if e.need(1) else None
    gb = e.op("tensor.sum", g, [0, 2, 3]) if e.is_tensor(b) and e.need(2) else None
    return [gx, gw, gb] + [None] * 5


@vjp("tensor.conv_transpose1d")
def _conv_transpose1d(e, a, out, g):
    """conv_transpose1d as conv_transpose2d over a height of 1."""
    x, w, b, stride, padding, output_padding, groups, dilation = a
    s = _as_1d_param(e, stride, "stride")
    p = _as_1d_param(e, padding, "padding")
    d = _as_1d_param(e, dilation, "dilation")
    x2, w2, g2 = (e.op("tensor.unsqueeze", v, 2) for v in (x, w, g))
    rest = ([1, s], [0, p], [1, d], groups)
    gx = e.op("tensor.squeeze_dims", e.op("tensor.conv2d", g2, w2, None, *rest), 2) \
        if e.need(0) else None
    gw = e.op("tensor.squeeze_dims", e.op("tensor.conv2d_weight_backward", x2, g2, w2, *rest),
              2) if e.need(1) else None
    gb = e.op("tensor.sum", g, [0, 2]) if e.is_tensor(b) and e.need(2) else None
    return [gx, gw, gb] + [None] * 5


@vjp("tensor.pixel_shuffle")
def _pixel_shuffle(e, a, out, g):
    return [e.op("tensor.pixel_unshuffle", g, a[1]), None]


@vjp("tensor.pixel_unshuffle")
def _pixel_unshuffle(e, a, out, g):
    return [e.op("tensor.pixel_shuffle", g, a[1]), None]


@vjp("tensor.pad")
def _pad(e, a, out, g):
    """Constant padding: g with the padding cut off (negative pads crop); other modes: each
    padded cell's gradient added to the cell it copied (tensor.pad_backward)."""
    x, pads, mode, value = a
    if _const(e, mode, "pad's mode") != "constant":
        return [e.op("tensor.pad_backward", g, x, pads, mode), None, None, None]
    back = [-int(p) for p in _const(e, pads, "pad's sizes")]
    gv = None
    if e.is_float(value):  # the padded cells' share goes to the fill value
        whole, inner = e.op("tensor.sum", g), e.op("tensor.sum", e.op("tensor.pad", g, back))
        gv = e.to_float(e.op("tensor.sub", whole, inner))
    return [e.op("tensor.pad", g, back), None, None, gv]


@vjp("tensor.index_select")
def _index_select(e, a, out, g):
    x, dim, index = a
    return [e.op("tensor.index_select_backward", g, x, dim, index), None, None]


@vjp("tensor.repeat")
def _repeat(e, a, out, g):
    return [e.op("tensor.repeat_backward", g, a[0], a[1]), None]


def _unit(e, x, dim, eps):
    """(x / max(||x||, eps) along dim, ||x||), the norm kept as a dim of size 1."""
    norm = e.op("tensor.norm", x, 2.0, [dim], True)
    return e.op("tensor.truediv", x, e.op("tensor.clamp_min", norm, eps)), norm


def _unit_vjp(e, g, y, norm, dim, eps):
    """The adjoint of x -> y = x / max(||x||, eps): (g - y sum(g y)) / ||x|| where the norm
    passes eps, else g / eps."""
    dot = e.op("tensor.sum", e.op("tensor.mul", g, y), [dim], True)
    inside = e.op("tensor.truediv", e.op("tensor.sub", g, e.op("tensor.mul", y, dot)), norm)
    return e.op("tensor.where", e.op("tensor.gt_scalar", norm, eps), inside,
                e.op("tensor.mul_scalar", g, 1.0 / eps))


@vjp("tensor.normalize")
def _normalize(e, a, out, g):
    x, p, dim, eps = a
    if _const(e, p, "normalize's p") != 2.0:
        raise NotImplementedError("normalize with p other than 2 has no derivative rule yet")
    dim, eps = _const(e, dim, "normalize's dim"), _const(e, eps, "normalize's eps")
    norm = e.op("tensor.norm", x, 2.0, [dim], True)
    return [_unit_vjp(e, g, out, norm, dim, eps), None, None, None]


@vjp("tensor.cosine_similarity")
def _cosine_similarity(e, a, out, g):
    """sum(u1 u2) with u = x / max(||x||, eps), as torch computes it."""
    x1, x2, dim, eps = a
    dim, eps = _const(e, dim, "cosine_similarity's dim"), _const(e, eps, "its eps")
    b1 = e.op("tensor.add", x1, e.op("tensor.zeros_like", x2))  # broadcast, as torch does
    b2 = e.op("tensor.add", x2, e.op("tensor.zeros_like", x1))
    (u1, n1), (u2, n2) = _unit(e, b1, dim, eps), _unit(e, b2, dim, eps)
    gk = e.op("tensor.unsqueeze", g, dim)
    g1 = _unit_vjp(e, e.op("tensor.mul", gk, u2), u1, n1, dim, eps) if e.need(0) else None
    g2 = _unit_vjp(e, e.op("tensor.mul", gk, u1), u2, n2, dim, eps) if e.need(1) else None
    return [_sum_to(e, g1, x1) if g1 is not None else None,
            _sum_to(e, g2, x2) if g2 is not None else None, None, None]


@vjp("tensor.max_pool1d")
def _max_pool1d(e, a, out, g):
    """max_pool1d as max_pool2d over a height of 1 (its backward kernel)."""
    x, k, stride, padding, dilation, ceil_mode, ret_idx = a
    one = [_as_1d_param(e, v, what) for v, what in ((k, "kernel_size"), (padding, "padding"),
                                                     (dilation, "dilation"))]
    st = _const(e, stride, "stride")
    st = [1, one[0]] if st is None or st == [] else [1, _as_1d_param(e, stride, "stride")]
    r = e.op("tensor.max_pool2d_backward", e.op("tensor.unsqueeze", g, -2),
             e.op("tensor.unsqueeze", x, -2), [1, one[0]], st, [0, one[1]], [1, one[2]],
             ceil_mode)
    return [e.op("tensor.squeeze_dims", r, -2)] + [None] * 6


@vjp("tensor.adaptive_avg_pool1d")
def _adaptive_avg_pool1d(e, a, out, g):
    r = e.op("tensor.adaptive_avg_pool2d_backward", e.op("tensor.unsqueeze", g, -2),
             e.op("tensor.unsqueeze", a[0], -2))
    return [e.op("tensor.squeeze_dims", r, -2), None]


@vjp("tensor.norm")
def _norm(e, a, out, g):
    """The p-norm: g sign(x) |x|^(p-1) / ||x||^(p-1) (p = 2: g x / ||x||), 0 where the
    norm is 0, as torch's subgradient."""
    from ember.ops.vjp_extra import _p_norm_share

    x, p, dim, keepdim, _ = a
    pv = _const(e, p, "norm's p")
    pv = 2.0 if pv is None else pv
    if isinstance(pv, bool) or not isinstance(pv, (int, float)) or pv <= 0 or \
            pv == float("inf"):
        raise NotImplementedError(f"norm with p={pv!r} has no derivative rule yet")
    if _const(e, dim, "norm's dim") in (None, []):  # over everything: a 0-dim result
        n, gx = e.op("tensor.expand_as", out, x), e.op("tensor.expand_as", g, x)
    else:
        n, gx = _unreduce(e, out, x, dim, keepdim), _unreduce(e, g, x, dim, keepdim)
    return [_p_norm_share(e, x, n, gx, float(pv)), None, None, None, None]


@vjp("tensor.prelu")
def _prelu(e, a, out, g):
    r = e.op("tensor.prelu_backward", g, a[0], a[1])
    return [e.tuple_get(r, 0) if e.need(0) else None, e.tuple_get(r, 1) if e.need(1) else None]


@vjp("tensor.glu")
def _glu(e, a, out, g):
    """a * sigmoid(b) for the halves (a, b) of x along dim: (g s, g a s (1 - s)) joined."""
    x, dim = a
    half = e.op("int.floordiv", e.op("tensor.size_dim", x, dim), 2)
    first, second = e.op("tensor.narrow", x, dim, 0, half), e.op("tensor.narrow", x, dim, half, half)
    s = e.op("tensor.sigmoid", second)
    ga = e.op("tensor.mul", g, s)
    gb = e.op("tensor.mul", e.op("tensor.mul", ga, first), e.op("tensor.rsub_scalar", s, 1.0))
    return [e.op("tensor.cat", [ga, gb], dim), None]


@vjp("tensor.interpolate")
def _interpolate(e, a, out, g):
    return [e.op("tensor.interpolate_backward", g, *a)] + [None] * (len(a) - 1)


# ----------------------------------------------------------------------------- prod, einsum


@vjp("tensor.prod")
def _prod(e, a, out, g):
    x, dim, keepdim = a[0], a[1], a[2]
    return [e.op("tensor.prod_backward", g, x, dim, keepdim), None, None, None]


def _adaptive_max_pool(n):
    @vjp(f"tensor.adaptive_max_pool{n}d")
    def rule(e, a, out, g):
        return [e.op(f"tensor.adaptive_max_pool{n}d_backward", g, a[0], a[1]), None, None]
    return rule


_adaptive_max_pool(1)
_adaptive_max_pool(2)


@vjp("tensor.einsum", "tensor.einsum1", "tensor.einsum2", "tensor.einsum3")
def _einsum(e, a, out, g):
    """Operand i's gradient is the einsum of g with the other operands into i's subscripts
    (a ones tensor supplies letters only operand i has); diagonals and '...' are refused."""
    eq = e.value_of(a[0])
    if not isinstance(eq, str):
        raise NotImplementedError("einsum's equation must be a constant string")
    listed = len(a) == 2 and not e.is_tensor(a[1])
    items = e.list_items(a[1]) if listed else a[1:]
    if items is None:
        raise NotImplementedError("einsum's operands must be a list literal to carry "
                                  "gradients")
    eq = eq.replace(" ", "")
    lhs, arrow, rhs = eq.partition("->")
    terms = lhs.split(",")
    if "." in eq or any(len(set(t)) != len(t) for t in terms):
        raise NotImplementedError("einsum with '...' or a repeated subscript in one operand "
                                  "(a diagonal) has no derivative rule yet")
    if not arrow:
        letters = "".join(terms)
        rhs = "".join(sorted(c for c in set(letters) if letters.count(c) == 1))
    grads = []
    for i, (term, x) in enumerate(zip(terms, items)):
        if not e.is_tensor(x):
            grads.append(None)
            continue
        others = [(t, v) for j, (t, v) in enumerate(zip(terms, items)) if j != i]
        have = set(rhs).union(*[set(t) for t, _ in others])
        subs = [rhs] + [t for t, _ in others]
        ops = [g] + [v for _, v in others]
        if not set(term) <= have:
            subs.append(term)
            ops.append(e.op("tensor.ones_like", x))
        grads.append(e.op("tensor.einsum", ",".join(subs) + "->" + term, e.tensor_list(ops)))
    return [None, grads] if listed else [None] + grads


@vjp("tensor.conv3d")
def _conv3d(e, a, out, g):
    x, w, b, stride, padding, dilation, groups = a
    if isinstance(e.value_of(padding), str):
        raise NotImplementedError("conv3d with a string padding has no derivative rule yet")
    rest = (stride, padding, dilation, groups)
    gx = e.op("tensor.conv3d_input_backward", g, x, w, *rest) if e.need(0) else None
    gw = e.op("tensor.conv3d_weight_backward", g, x, w, *rest) if e.need(1) else None
    gb = None  # (N, C) or (C,) after the spatial sums; sum_to drops the batch
    if e.is_tensor(b) and e.need(2):
        gb = e.op("tensor.sum_to", e.op("tensor.sum", g, [-1, -2, -3]), b)
    return [gx, gw, gb, None, None, None, None]


@vjp("tensor.embedding_bag")
def _embedding_bag(e, a, out, g):
    (idx, weight, offsets, max_norm, _, by_freq, mode, _, psw, last, padding_idx) = a
    m = e.value_of(mode)
    if m not in ("sum", "mean"):
        raise NotImplementedError("embedding_bag's mode must be a constant 'sum' or 'mean' "
                                  "to differentiate ('max' has no derivative rule yet)")
    if e.value_of(by_freq) is not False:
        raise NotImplementedError("embedding_bag(scale_grad_by_freq=True) has no derivative "
                                  "rule yet")
    r = e.op("tensor.embedding_bag_backward", g, idx, weight, offsets, mode, psw, last,
             padding_idx)
    grads = [None] * 11
    grads[1] = e.tuple_get(r, 0)
    if e.is_tensor(psw):
        grads[8] = e.tuple_get(r, 1)
    return grads


# ----------------------------------------------------------------------------- more math


def _recip(e, v):
    return e.op("tensor.reciprocal", v)


_unary("tensor.asinh", lambda e, x, y: _recip(e, e.op("tensor.sqrt", e.op(
    "tensor.add_scalar", e.op("tensor.mul", x, x), 1.0))))
_unary("tensor.acosh", lambda e, x, y: _recip(e, e.op("tensor.sqrt", e.op(
    "tensor.add_scalar", e.op("tensor.mul", x, x), -1.0))))
_unary("tensor.atanh", lambda e, x, y: _recip(e, e.op(
    "tensor.rsub_scalar", e.op("tensor.mul", x, x), 1.0)))
_unary("tensor.exp2", lambda e, x, y: e.op("tensor.mul_scalar", y, 0.6931471805599453))


@vjp("tensor.hypot")
def _hypot(e, a, out, g):
    share = e.op("tensor.truediv", g, out)
    return [_sum_to(e, e.op("tensor.mul", share, a[0]), a[0]),
            _sum_to(e, e.op("tensor.mul", share, a[1]), a[1])]


@vjp("tensor.atan2")
def _atan2(e, a, out, g):
    y, x = a
    share = e.op("tensor.truediv", g, e.op("tensor.add", e.op("tensor.mul", y, y),
                                           e.op("tensor.mul", x, x)))
    return [_sum_to(e, e.op("tensor.mul", share, x), y),
            _sum_to(e, e.op("tensor.neg", e.op("tensor.mul", share, y)), x)]


@vjp("tensor.addcmul", "tensor.addcdiv")
def _addc(e, a, out, g):
    s, t1, t2, value = a
    v = e.value_of(value)
    if not isinstance(v, (int, float)) or isinstance(v, bool):
        raise NotImplementedError("the value must be a constant number")
    gv = e.op("tensor.mul_scalar", g, float(v))
    if out.op.name == "tensor.addcmul":
        g1, g2 = e.op("tensor.mul", gv, t2), e.op("tensor.mul", gv, t1)
    else:
        g1 = e.op("tensor.truediv", gv, t2)
        g2 = e.op("tensor.neg", e.op("tensor.truediv", e.op("tensor.mul", g1, t1), t2))
    return [_sum_to(e, g, s), _sum_to(e, g1, t1), _sum_to(e, g2, t2), None]


def _shrink_rule(name):
    @vjp(name)
    def rule(e, a, out, g):
        keep = e.op("tensor.gt_scalar", e.op("tensor.abs", a[0]), a[1])
        return [e.op("tensor.mul", g, keep), None]
    return rule


_shrink_rule("tensor.softshrink")
_shrink_rule("tensor.hardshrink")


@vjp("tensor.threshold")
def _threshold(e, a, out, g):
    _false(e, a[3], "threshold")
    return [e.op("tensor.mul", g, e.op("tensor.gt_scalar", a[0], a[1])), None, None, None]


@vjp("tensor.max_dim", "tensor.min_dim")
def _extreme_dim(e, a, out, g):
    """The values' gradient goes back to the picked elements (the returned indices)."""
    x, dim, keepdim = a
    if not e.elem_is_tensor(g, 0):
        return [None, None, None]
    gv, idx = e.tuple_get(g, 0), e.tuple_get(out, 1)
    if _const(e, keepdim, "keepdim") is not True:
        gv, idx = e.op("tensor.unsqueeze", gv, dim), e.op("tensor.unsqueeze", idx, dim)
    return [e.op("tensor.gather_backward", gv, x, dim, idx), None, None]
