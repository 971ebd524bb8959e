"""Derivative rules of the fused layer operators: the recurrent layers (tensor.lstm, gru,
rnn_tanh, rnn_relu; their kernels' backward is ops/tensor_rnn_grad.py) and multi-head
attention (ops/tensor_attention_grad.py).

Their weights come as a list (`params`); the rules give each element of a list literal
its adjoint (ember.train_step turns a layer's `_flat_weights` into one). Inter-layer
dropout, LSTM projections and attention dropout in training mode are refused: the
forward kernels draw no reproducible mask for them."""

from __future__ import annotations

from ember.ops.registry import vjp


def _const(e, v, what):
    c = e.value_of(v)
    if c is None and not e.is_none(v):
        raise NotImplementedError(f"{what} must be a compile-time constant")
    return c


def _items(e, v, what):
    items = e.list_items(v)
    if items is None:
        raise NotImplementedError(f"{what} must be a list literal [w_ih, w_hh, ...] to "
                                  "carry gradients")
    return items


def _check_recurrent(e, a, gates):
    x, hx, params, has_biases, layers, dropout, train, bidir, bf = a
    biases = _const(e, has_biases, "has_biases")
    n_layers = _const(e, layers, "num_layers")
    bidir_c = _const(e, bidir, "bidirectional")
    items = _items(e, params, "the recurrent weights")
    if _const(e, train, "train") and (_const(e, dropout, "dropout") or 0.0) > 0.0 and \
            n_layers > 1:
        raise NotImplementedError("dropout between recurrent layers in training mode has no "
                                  "derivative rule yet")
    per = len(items) // max(n_layers * (2 if bidir_c else 1), 1)
    if per != (4 if biases else 2):
        raise NotImplementedError("recurrent layers with projections (proj_size) have no "
                                  "derivative rule yet")
    return items


def _list_adjoints(e, lst, n):
    return [e.op("list.getitem", lst, i) for i in range(n)]


@vjp("tensor.lstm")
def _lstm(e, a, out, g):
    x, hx, params = a[0], a[1], a[2]
    items = _check_recurrent(e, a, 4)
    hx_items = e.list_items(hx)
    if hx_items is None:
        raise NotImplementedError("the initial states must be a list literal [h0, c0]")
    grads = [e.tuple_get(g, i) for i in range(3)]
    reserve = e.keep_forward(out, "tensor.lstm_train")
    if reserve is not None:  # the forward keeps its gates (ops/tensor_rnn_train.py)
        r = e.op("tensor.lstm_backward_saved", *grads, x, hx, params, reserve, a[3], a[4],
                 a[7], a[8], e.need(0))
    else:
        r = e.op("tensor.lstm_backward", *grads, x, hx, params, a[3], a[4], a[7], a[8])
    ghx = _list_adjoints(e, e.tuple_get(r, 1), len(hx_items)) if hx_items else None
    gx = e.tuple_get(r, 0) if e.need(0) or reserve is None else None
    return [gx, ghx, _list_adjoints(e, e.tuple_get(r, 2), len(items))] + [None] * 6


def _recurrent(kind, listed):
    @vjp(f"tensor.{kind}{'_nohx' if listed else ''}")
    def rule(e, a, out, g):
        x, hx, params = a[0], a[1], a[2]
        items = _check_recurrent(e, a, 1)
        r = e.op("tensor.rnn_backward", kind, e.tuple_get(g, 0), e.tuple_get(g, 1), x, hx,
                 params, a[3], a[4], a[7], a[8])
        ghx = e.tuple_get(r, 1)
        if listed:
            hx_items = e.list_items(hx)
            if hx_items is None:
                raise NotImplementedError("the initial state must be a list literal [h0]")
            ghx = [ghx] if hx_items else None
        return [e.tuple_get(r, 0), ghx, _list_adjoints(e, e.tuple_get(r, 2), len(items))] + \
            [None] * 6
    return rule


for _kind in ("gru", "rnn_tanh", "rnn_relu"):
    _recurrent(_kind, False)
    _recurrent(_kind, True)


# ----------------------------------------------------------------------------- attention


@vjp("tensor.multi_head_attention")
def _mha(e, a, out, g):
    (query, key, value, _, heads, in_w, in_b, bias_k, bias_v, zero_attn, dropout_p, out_w,
     out_b, training, kpm, need_weights, mask, separate, q_w, k_w, v_w, static_k, static_v,
     average, causal) = a
    if _const(e, training, "training") is not False and \
            (_const(e, dropout_p, "dropout_p") or 0.0) > 0.0:
        raise NotImplementedError("attention dropout in training mode has no derivative rule "
                                  "yet (use dropout=0.0)")
    if any(not _is_none(v) for v in (bias_k, bias_v, static_k, static_v)) or \
            _const(e, zero_attn, "add_zero_attn"):
        raise NotImplementedError("bias_k / bias_v, add_zero_attn and static_k / static_v have "
                                  "no derivative rule")
    if not e.elem_is_tensor(out, 1) and _weights_differentiated(out):
        raise NotImplementedError("gradients through the returned attention weights are not "
                                  "supported yet (only through the output)")
    gw = e.tuple_get(g, 1) if e.elem_is_tensor(g, 1) else None
    saved = e.keep_forward(out, "tensor.multi_head_attention_train") \
        if _const(e, dropout_p, "dropout_p") == 0.0 else None
    if saved is not None:  # the forward keeps q, k, v, the weights and the context
        r = e.op("tensor.multi_head_attention_backward_saved", e.tuple_get(g, 0), gw, saved,
                 query, key, value, heads, in_w, in_b, out_w, out_b, kpm, need_weights, mask,
                 separate, q_w, k_w, v_w, average, causal)
    else:
        r = e.op("tensor.multi_head_attention_backward", e.tuple_get(g, 0), gw, query, key,
                 value, heads, in_w, in_b, out_w, out_b, kpm, need_weights, mask, separate,
                 q_w, k_w, v_w, average, causal)
    d = [e.tuple_get(r, i) for i in range(12)]

    def pick(v, i):
        return d[i] if e.is_tensor(v) else None

    grads = [None] * 25
    grads[0], grads[1], grads[2] = d[0], d[1], d[2]
    grads[5], grads[6], grads[11], grads[12] = pick(in_w, 3), pick(in_b, 4), d[5], \
        pick(out_b, 6)
    grads[18], grads[19], grads[20] = pick(q_w, 7), pick(k_w, 8), pick(v_w, 9)
    grads[16], grads[14] = pick(mask, 10), pick(kpm, 11)
    return grads


def _is_none(v) -> bool:
    """v is None (a `none` constant, possibly widened to an Optional)."""
    while getattr(v, "op", None) is not None and v.op.name == "widen":
        v = v.op.operands[0]
    op = getattr(v, "op", None)
    return str(v.type) == "none" or (op is not None and op.name == "const" and
                                     op.attrs.get("value") is None)


def _weights_differentiated(out) -> bool:
    """Whether the op's returned attention weights, typed Optional (need_weights is not a
    constant True) and so carrying no adjoint, are narrowed to a tensor that a gradient
    could flow through."""
    for use in out.uses:
        user = use.op
        if user.name == "tuple.get" and user.attrs.get("index") == 1:
            if any(u.op.name == "narrow" for u in user.result.uses):
                return True
    return False
