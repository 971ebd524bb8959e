"""Derivative rules added with the differentiable-program fuzzer (ember fuzz --mode grad):
a number raised to a tensor, and the rules of operators real models use that had none
(see ops/vjp_tensor.py for the conventions). Each is written in ember operators, so a
gradient stays differentiable."""

from __future__ import annotations

from ember.ops.registry import vjp
from ember.ops.vjp_tensor import _const, _dims, _sum_to, _unreduce


@vjp("tensor.rpow_scalar")
def _rpow_scalar(e, a, out, g):
    """out = s ** x: dx = out * log(s), ds = sum(out * x / s)."""
    x, s = a
    sf = s if e.is_float(s) else e.op("int.to_float", s)
    gx = e.op("tensor.mul_scalar", e.op("tensor.mul", g, out), e.op("math.log", sf))
    gs = None
    if e.is_float(s):
        gs = e.to_float(e.op("tensor.truediv_scalar",
                             e.op("tensor.mul", e.op("tensor.mul", g, out), x), s))
    return [gx, gs]


@vjp("grad.log_or_zero")
def _log_or_zero(e, a, out, g):
    """The exponent's share of a ** b differentiates again (grad of grad of a power)."""
    return [e.op("float.mul", g, e.op("grad.inv_or_zero", a[0]))]


@vjp("grad.to_float")
def _to_float(e, a, out, g):
    """A float operand's share differentiates again (grad of grad through x * s)."""
    return [e.op("tensor.full_like", a[0], g)]


@vjp("grad.inv_or_zero")
def _inv_or_zero(e, a, out, g):
    return [e.op("float.neg", e.op("float.mul", g, e.op("float.mul", out, out)))]


# ----------------------------------------------------------------------------- attention


@vjp("tensor.sdpa")
def _sdpa(e, a, out, g):
    """dq, dk, dv (and a float mask's gradient) by tensor.sdpa_backward; dropout and
    grouped-query attention are refused."""
    q, k, v, mask, dropout_p, causal, scale, gqa = a
    if _const(e, dropout_p, "dropout_p") not in (0, 0.0):
        raise NotImplementedError("scaled_dot_product_attention with dropout has no "
                                  "derivative rule yet")
    if _const(e, gqa, "enable_gqa"):
        raise NotImplementedError("scaled_dot_product_attention with enable_gqa has no "
                                  "derivative rule yet")
    r = e.op("tensor.sdpa_backward", g, q, k, v, mask, causal, scale)
    grads = [_sum_to(e, e.tuple_get(r, i), x) for i, x in enumerate((q, k, v))]
    gm = _sum_to(e, e.tuple_get(r, 3), mask) if e.is_tensor(mask) and \
        mask.type.dtype != "bool" else None
    return grads + [gm, None, None, None, None]


# ----------------------------------------------------------------------------- norms


@vjp("tensor.rms_norm")
def _rms_norm(e, a, out, g):
    x, shape, w, eps = a
    r = e.op("tensor.rms_norm_backward", g, x, shape, w, eps)
    return [e.tuple_get(r, 0), None, e.tuple_get(r, 1) if e.is_tensor(w) else None, None]


def _var_rules(name: str, std: bool) -> None:
    @vjp(f"tensor.{name}_correction")
    def correction_rule(e, a, out, g):
        """var/std with torch's `correction` (None: 1): var's rule with n - correction."""
        x, dim, correction, keepdim = a
        c = _const(e, correction, "correction")
        return [_var_share(e, x, dim, keepdim, out, g, 1 if c is None else c, std),
                None, None, None]

    @vjp(f"tensor.{name}_unbiased")
    def unbiased_rule(e, a, out, g):
        c = 1 if _const(e, a[1], "unbiased") else 0
        return [_var_share(e, a[0], None, False, out, g, c, std), None]


_var_rules("var", std=False)
_var_rules("std", std=True)


def _var_share(e, x, dim, keepdim, out, g, correction, std: bool):
    """d var(x) = g 2 (x - mean) / (n - correction); std: g / (2 std) first."""
    if std:
        g = e.op("tensor.truediv", g, e.op("tensor.mul_scalar", out, 2.0))
    dims = _dims(e, dim, None)
    n = e.op("int.floordiv", e.op("tensor.numel", x), e.op("tensor.numel", out))
    den = e.op("float.sub", e.op("int.to_float", n), float(correction))
    mean = e.op("tensor.mean", x, dims, True) if dims else e.op("tensor.mean", x)
    d = e.op("tensor.sub", x, mean)
    gx = e.op("tensor.mul", _unreduce(e, g, x, dim, keepdim), d)
    return e.op("tensor.mul_scalar", gx, e.op("float.truediv", 2.0, den))


@vjp("tensor.vector_norm")
def _vector_norm(e, a, out, g):
    """g sign(x) |x|^(p-1) / ||x||^(p-1) (p = 2: g x / ||x||), 0 where the norm is 0; p
    = inf: the largest |x| take g (shared between ties)."""
    x, ord_, dim, keepdim, _ = a
    p = _const(e, ord_, "vector_norm's ord")
    if isinstance(p, bool) or not isinstance(p, (int, float)) or p <= 0:
        raise NotImplementedError(f"vector_norm with ord={p!r} has no derivative rule yet")
    dims = _dims(e, dim, None)
    n = _unreduce(e, out, x, dim, keepdim)
    gx = _unreduce(e, g, x, dim, keepdim)
    if p == float("inf"):
        ax = e.op("tensor.abs", x)
        hit = e.op("tensor.eq", ax, n)
        cnt = e.op("tensor.expand_as", e.op("tensor.sum", hit, dims, True) if dims else
                   e.op("tensor.sum", hit), x)
        share = e.op("tensor.mul", e.op("tensor.truediv", e.op("tensor.mul", gx, hit), cnt),
                     e.op("tensor.sign", x))
        return [share, None, None, None, None]
    return [_p_norm_share(e, x, n, gx, float(p)), None, None, None, None]


def _p_norm_share(e, d, n, gd, p):
    """gd * d|d|^(p-2) / n^(p-1), 0 where n is 0 (torch's subgradient)."""
    if p == 2.0:
        share = e.op("tensor.truediv", e.op("tensor.mul", gd, d), n)
    elif p == 1.0:
        share = e.op("tensor.mul", gd, e.op("tensor.sign", d))
    else:
        ad = e.op("tensor.abs", d)
        num = e.op("tensor.mul", e.op("tensor.sign", d), e.op("tensor.pow_scalar", ad, p - 1.0))
        share = e.op("tensor.mul", gd, e.op("tensor.truediv", num,
                                            e.op("tensor.pow_scalar", n, p - 1.0)))
    return e.op("tensor.where", e.op("tensor.gt_scalar", n, 0.0), share,
                e.op("tensor.zeros_like", share))


@vjp("tensor.pairwise_distance")
def _pairwise_distance(e, a, out, g):
    """||x1 - x2 + eps||_p over the last dim: the p-norm's share, to x1 and (negated) x2."""
    x1, x2, p, eps, keepdim = a
    pv = _const(e, p, "pairwise_distance's p")
    if isinstance(pv, bool) or not isinstance(pv, (int, float)) or pv <= 0 or \
            pv == float("inf"):
        raise NotImplementedError(f"pairwise_distance with p={pv!r} has no derivative rule yet")
    d = e.op("tensor.add_scalar", e.op("tensor.sub", x1, x2), eps)
    if _const(e, keepdim, "keepdim"):
        n, gd = e.op("tensor.expand_as", out, d), e.op("tensor.expand_as", g, d)
    else:
        n = e.op("tensor.expand_as", e.op("tensor.unsqueeze", out, -1), d)
        gd = e.op("tensor.expand_as", e.op("tensor.unsqueeze", g, -1), d)
    share = _p_norm_share(e, d, n, gd, float(pv))
    return [_sum_to(e, share, x1), _sum_to(e, e.op("tensor.neg", share), x2), None, None, None]


# ----------------------------------------------------------------------------- elementwise


@vjp("tensor.lerp_scalar", "tensor.lerp_tensor")
def _lerp(e, a, out, g):
    """a + w (b - a): (g (1 - w), g w, g (b - a))."""
    x, y, w = a
    if e.is_tensor(w):
        gx = e.op("tensor.mul", g, e.op("tensor.rsub_scalar", w, 1.0))
        gy = e.op("tensor.mul", g, w)
        gw = _sum_to(e, e.op("tensor.mul", g, e.op("tensor.sub", y, x)), w)
    else:
        gx = e.op("tensor.mul_scalar", g, e.op("float.sub", 1.0, _to_f(e, w)))
        gy = e.op("tensor.mul_scalar", g, w)
        gw = e.to_float(e.op("tensor.mul", g, e.op("tensor.sub", y, x))) \
            if e.is_float(w) else None
    return [_sum_to(e, gx, x), _sum_to(e, gy, y), gw]


def _to_f(e, v):
    return v if e.is_float(v) else e.op("int.to_float", v)


@vjp("tensor.nan_to_num")
def _nan_to_num(e, a, out, g):
    """g where x is finite; the replaced NaN and infinities are constants."""
    return [e.op("tensor.mul", g, e.op("tensor.isfinite", a[0])), None, None, None]


@vjp("tensor.frac")
def _frac(e, a, out, g):
    return [g]


@vjp("tensor.softmin")
def _softmin(e, a, out, g):
    """softmax(-x): minus softmax's rule."""
    dim = _const(e, a[1], "softmin's dim")
    s = e.op("tensor.sum", e.op("tensor.mul", g, out), [dim], True)
    return [e.op("tensor.neg", e.op("tensor.mul", out, e.op("tensor.sub", g, s))), None, None]


# ----------------------------------------------------------------------------- reordering


@vjp("tensor.cumprod")
def _cumprod(e, a, out, g):
    return [e.op("tensor.cumprod_backward", g, a[0], a[1]), None]


def _sorted_rule(name: str, dim_at: int, keepdim_at: int | None) -> None:
    @vjp(f"tensor.{name}")
    def rule(e, a, out, g):
        """The values' gradient goes back to where the indices say they came from."""
        if not e.elem_is_tensor(g, 0):
            return [None] * len(a)
        gv, idx, dim = e.tuple_get(g, 0), e.tuple_get(out, 1), a[dim_at]
        if keepdim_at is not None and _const(e, a[keepdim_at], "keepdim") is not True:
            gv, idx = e.op("tensor.unsqueeze", gv, dim), e.op("tensor.unsqueeze", idx, dim)
        return [e.op("tensor.gather_backward", gv, a[0], dim, idx)] + [None] * (len(a) - 1)


_sorted_rule("sort", 1, None)
_sorted_rule("topk", 2, None)
_sorted_rule("kthvalue", 2, 3)
_sorted_rule("median_dim", 1, 2)


@vjp("tensor.tile")
def _tile(e, a, out, g):
    return [e.op("tensor.tile_backward", g, a[0], a[1]), None]


@vjp("tensor.hstack")
def _hstack(e, a, out, g):
    return [_hv_stack(e, a[0], g, False)]


@vjp("tensor.vstack")
def _vstack(e, a, out, g):
    return [_hv_stack(e, a[0], g, True)]


def _hv_stack(e, tensors, g, vertical: bool):
    """The operands' slices (tensor.hvstack_backward): one per element of a list literal,
    else the list of them (a list built in a loop)."""
    pieces = e.op("tensor.hvstack_backward", g, tensors, vertical)
    items = e.list_items(tensors)
    if items is None:
        return pieces
    return [e.op("list.getitem", pieces, i) for i in range(len(items))]


@vjp("tensor.diag")
def _diag(e, a, out, g):
    return [e.op("tensor.diag_backward", g, a[0], a[1]), None]


@vjp("tensor.repeat_interleave")
def _repeat_interleave(e, a, out, g):
    x, repeats, dim = a
    return [e.op("tensor.repeat_interleave_backward", g, x, repeats, dim), None, None]


@vjp("tensor.take")
def _take(e, a, out, g):
    return [e.op("tensor.take_backward", g, a[0], a[1]), None]


@vjp("tensor.masked_select")
def _masked_select(e, a, out, g):
    return [e.op("tensor.masked_select_backward", g, a[0], a[1]), None]


@vjp("tensor.scatter", "tensor.scatter_value")
def _scatter(e, a, out, g):
    """The overwritten positions of self get nothing; src (a tensor of index's shape)
    gets g gathered at index."""
    x, dim, index, src = a
    gx = e.op("tensor.scatter_value", g, dim, index, 0.0)
    gsrc = e.op("tensor.gather", g, dim, index) if e.is_tensor(src) else None
    return [gx, None, None, gsrc]


@vjp("tensor.msort")
def _msort(e, a, out, g):
    """The sorted values' gradient goes back to where sort's indices say they came from."""
    idx = e.tuple_get(e.op("tensor.sort", a[0], 0, False), 1)
    return [e.op("tensor.gather_backward", g, a[0], 0, idx)]


@vjp("tensor.diff")
def _diff(e, a, out, g):
    x, n, dim, prepend, append = a
    r = e.op("tensor.diff_backward", g, x, n, dim, prepend, append)
    return [e.tuple_get(r, 0), None, None,
            e.tuple_get(r, 1) if e.is_tensor(prepend) else None,
            e.tuple_get(r, 2) if e.is_tensor(append) else None]


@vjp("tensor.tensordot", "tensor.tensordot_pair", "tensor.tensordot_lists")
def _tensordot(e, a, out, g):
    r = e.op("tensor.tensordot_backward", g, a[0], a[1], a[2])
    return [e.tuple_get(r, 0), e.tuple_get(r, 1), None]


@vjp("tensor.local_response_norm")
def _local_response_norm(e, a, out, g):
    x, size, alpha, beta, k = a
    return [e.op("tensor.local_response_norm_backward", g, x, size, alpha, beta, k)] + \
        [None] * 4


@vjp("tensor.scatter_add")
def _scatter_add(e, a, out, g):
    """self's gradient is g; src's (index's shape) is g gathered at index."""
    x, dim, index, src = a
    return [g, None, None, e.op("tensor.gather", g, dim, index)]


def _creation_ops():
    """Operators that make a tensor from sizes, numbers or data: no tensor operand, so
    nothing to differentiate (`x * torch.arange(4.0)` was refused for want of a rule)."""
    from ember.ops.registry import NONDIFF, REGISTRY, VJP, nondiff

    names = ["tensor.zeros", "tensor.ones", "tensor.empty", "tensor.full", "tensor.arange",
             "tensor.arange_range", "tensor.linspace", "tensor.eye", "tensor.tril_indices",
             "tensor.triu_indices", "tensor.rand", "tensor.randn", "tensor.randint",
             "tensor.index_ints", "tensor.index_bools"]
    names += [n for n in REGISTRY if n.startswith("tensor.from_")]
    nondiff(*[n for n in names if n in REGISTRY and n not in VJP and n not in NONDIFF])


_creation_ops()
