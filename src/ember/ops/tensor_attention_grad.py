"""Backward kernel of multi-head attention (tensor.multi_head_attention), for the derivative
rule in ops/vjp_layers.py.

It reruns the forward in the general layout (projections, (N, heads, L, hd) heads, scores,
softmax) keeping q, k, v and the attention weights, then goes back through the output
projection, the weighted sum of the values, the softmax, the scaled scores and the input
projections. The gradient of the returned weights (need_weights: averaged over heads or
not) joins the softmax's. A float mask gets the scores' gradient (summed over what it
broadcasts over); a bool mask none.

    tensor.multi_head_attention_backward(grad_output, grad_weights, query, key, value, ...)
        -> (d query, d key, d value, d in_proj_weight, d in_proj_bias, d out_proj_weight,
            d out_proj_bias, d q_proj_weight, d k_proj_weight, d v_proj_weight,
            d attn_mask, d key_padding_mask)

Entries that have no operand (no bias, packed weights) are 0-element tensors.
"""

from __future__ import annotations

import math

import numpy as np

from ember.ops.tensor_activation import softmax_last
from ember.ops.tensor_attention import MHA_PARAMS, _merged_mask, _mha_info, mha_forward
from ember.ops.tensor_common import arr, reg
from ember.ops.tensorinfo import TensorInfo


def _heads(x, n, heads):
    """(L, N, E) -> (N, heads, L, hd)."""
    return x.reshape(x.shape[0], n, heads, -1).transpose(1, 2, 0, 3)


def _unheads(x):
    """(N, heads, L, hd) -> (L, N, E)."""
    n, heads, length, hd = x.shape
    return x.transpose(2, 0, 1, 3).reshape(length, n, heads * hd)


def _flat(x):
    return x.reshape(-1, x.shape[-1])


def _weights(w, b, sep, e):
    """((w_q, w_k, w_v), (b_q, b_k, b_v)) of the packed or separate projections."""
    ws = sep if sep is not None else (w[:e], w[e:2 * e], w[2 * e:])
    bs = (None,) * 3 if b is None else (b[:e], b[e:2 * e], b[2 * e:])
    return ws, bs


def _empty(dtype):
    return np.zeros(0, dtype)


def mha_backward(g_out, g_w, query, key, value, num_heads, in_proj_weight, in_proj_bias,
                 out_proj_weight, out_proj_bias, key_padding_mask, need_weights, attn_mask,
                 use_separate_proj_weight, q_proj_weight, k_proj_weight, v_proj_weight,
                 average_attn_weights, is_causal, saved=None):
    """The gradients of tensor.multi_head_attention (see the module doc); `saved`: what
    tensor.multi_head_attention_train kept (else the forward runs again)."""
    dt = query.dtype
    unbatched = query.ndim == 2
    g_out = arr(g_out)
    if unbatched:
        query, key, value, g_out = query[:, None], key[:, None], value[:, None], g_out[:, None]
        key_padding_mask = None if key_padding_mask is None else key_padding_mask[None]
    lq, n, e = query.shape
    lk = key.shape[0]
    heads = num_heads
    hd = e // heads
    if is_causal and attn_mask is None:
        attn_mask = np.triu(np.ones((lq, lk), dtype=bool), 1)
    sep = (q_proj_weight, k_proj_weight, v_proj_weight) if use_separate_proj_weight else None
    ws, bs = _weights(in_proj_weight, in_proj_bias, sep, e)
    ins = (query, key, value)
    if saved is None:
        q, k, v = [_heads(x @ w.T + (0 if b is None else b), n, heads)
                   for x, w, b in zip(ins, ws, bs)]
        scores = np.matmul(q, np.swapaxes(k, -1, -2)) * dt.type(1.0 / math.sqrt(hd))
        mask = _merged_mask(attn_mask, key_padding_mask, n, heads, lq, lk, dt)
        if mask is not None:
            scores += mask
        attn = softmax_last(scores)
        ctx = _unheads(np.matmul(attn, v))
    else:
        q, k, v, attn, ctx = _unpack(saved, lq, lk, n, heads, hd)
    scale = dt.type(1.0 / math.sqrt(hd))
    # out = ctx @ W_o^T + b_o
    d_out_w = _flat(g_out).T @ _flat(ctx)
    d_out_b = _flat(g_out).sum(0) if out_proj_bias is not None else _empty(dt)
    d_ctx = _heads(g_out @ out_proj_weight, n, heads)
    d_attn = np.matmul(d_ctx, np.swapaxes(v, -1, -2))
    if need_weights and g_w is not None and arr(g_w).size:
        gw = arr(g_w)
        if unbatched:
            gw = gw[None]
        d_attn += gw[:, None] / dt.type(heads) if average_attn_weights else gw
    d_v = np.matmul(np.swapaxes(attn, -1, -2), d_ctx)
    del d_ctx
    # the softmax's backward, in d_attn's memory (a fresh product): attn * (d_attn - sum)
    d_attn -= (d_attn * attn).sum(-1, keepdims=True)
    d_attn *= attn
    d_scores = d_attn
    d_q = np.matmul(d_scores, k)
    d_q *= scale
    d_k = np.matmul(np.swapaxes(d_scores, -1, -2), q)
    d_k *= scale
    d_mask = _mask_grad(attn_mask, d_scores, n, heads, lq, lk, dt)
    d_kpm = _empty(dt)
    if key_padding_mask is not None and key_padding_mask.dtype != np.bool_:
        d_kpm = d_scores.sum(axis=(1, 2))
        d_kpm = d_kpm[0] if unbatched else d_kpm
    del d_scores, d_attn
    # each projection's gradients, one at a time (its heads-merged copy then goes)
    d_heads = [d_q, d_k, d_v]
    del d_q, d_k, d_v
    d_in, d_w, d_b = [], [], []
    for i, (w, x) in enumerate(zip(ws, ins)):
        d = _unheads(d_heads[i])
        d_heads[i] = None
        d_in.append(d @ w)
        d_w.append(_flat(d).T @ _flat(x))
        d_b.append(_flat(d).sum(0))
        del d
    if sep is None:
        d_in_w, d_sep = np.concatenate(d_w), [_empty(dt)] * 3
    else:
        d_in_w, d_sep = _empty(dt), d_w
    d_in_b = np.concatenate(d_b) if in_proj_bias is not None else _empty(dt)
    if unbatched:
        d_in = [d[:, 0] for d in d_in]
    out = d_in + [d_in_w, d_in_b, d_out_w, d_out_b] + list(d_sep) + [d_mask, d_kpm]
    return tuple(np.ascontiguousarray(x).astype(dt, copy=False) for x in out)


def _pack(q, k, v, attn, ctx):
    """The forward's values the backward reads, as one flat tensor."""
    return np.concatenate([a.reshape(-1) for a in (q, k, v, attn, ctx)])


def _unpack(saved, lq, lk, n, heads, hd):
    """(q, k, v (N, heads, L, hd), attn (N, heads, Lq, Lk), ctx (Lq, N, E)) from _pack."""
    shapes = ((n, heads, lq, hd), (n, heads, lk, hd), (n, heads, lk, hd),
              (n, heads, lq, lk), (lq, n, heads * hd))
    total = sum(math.prod(sh) for sh in shapes)
    if saved.ndim != 1 or saved.shape[0] != total:
        raise RuntimeError(f"multi_head_attention_backward_saved: the saved forward has "
                           f"{saved.size} elements, expected {total} (it is not this "
                           "forward's)")
    out, at = [], 0
    for sh in shapes:
        size = math.prod(sh)
        out.append(saved[at:at + size].reshape(sh))
        at += size
    return out


def mha_train(query, key, value, embed_dim, num_heads, in_proj_weight, in_proj_bias,
              bias_k, bias_v, add_zero_attn, dropout_p, out_proj_weight, out_proj_bias,
              training, key_padding_mask, need_weights, attn_mask, use_separate_proj_weight,
              q_proj_weight, k_proj_weight, v_proj_weight, static_k, static_v,
              average_attn_weights, is_causal):
    """tensor.multi_head_attention's results and what its backward reads (q, k, v, the
    attention weights and the context, flat), from the general path's forward."""
    if dropout_p > 0.0 and training:
        raise RuntimeError("multi_head_attention_train: attention dropout is not supported")
    args = (query, key, value, embed_dim, num_heads, in_proj_weight, in_proj_bias, bias_k,
            bias_v, add_zero_attn, dropout_p, out_proj_weight, out_proj_bias, training,
            key_padding_mask, need_weights, attn_mask, use_separate_proj_weight,
            q_proj_weight, k_proj_weight, v_proj_weight, static_k, static_v,
            average_attn_weights, is_causal)
    kept = []
    out, weights = mha_forward(*args, keep=kept)
    return out, weights, _pack(*kept)


def mha_backward_saved(g_out, g_w, saved, query, key, value, num_heads, in_proj_weight,
                       in_proj_bias, out_proj_weight, out_proj_bias, key_padding_mask,
                       need_weights, attn_mask, use_separate_proj_weight, q_proj_weight,
                       k_proj_weight, v_proj_weight, average_attn_weights, is_causal):
    """mha_backward from the values tensor.multi_head_attention_train kept."""
    return mha_backward(g_out, g_w, query, key, value, num_heads, in_proj_weight,
                        in_proj_bias, out_proj_weight, out_proj_bias, key_padding_mask,
                        need_weights, attn_mask, use_separate_proj_weight, q_proj_weight,
                        k_proj_weight, v_proj_weight, average_attn_weights, is_causal,
                        saved=arr(saved))


def _mask_grad(attn_mask, d_scores, n, heads, lq, lk, dt):
    if attn_mask is None or attn_mask.dtype == np.bool_:
        return _empty(dt)
    if attn_mask.ndim == 2:
        return d_scores.sum(axis=(0, 1))
    return d_scores.reshape(n * heads, lq, lk)


def _info(args):
    """d query, d key, d value shaped like them; the rest of the query's dtype."""
    return tuple(TensorInfo(a.dtype, a.shape) for a in args[2:5]) + \
        (TensorInfo(args[2].dtype, None),) * 9


reg("tensor.multi_head_attention_backward",
    "(Tensor grad_output, Tensor? grad_weights, Tensor query, Tensor key, Tensor value, "
    "int num_heads, Tensor? in_proj_weight, Tensor? in_proj_bias, Tensor out_proj_weight, "
    "Tensor? out_proj_bias, Tensor? key_padding_mask, bool need_weights, Tensor? attn_mask, "
    "bool use_separate_proj_weight, Tensor? q_proj_weight, Tensor? k_proj_weight, "
    "Tensor? v_proj_weight, bool average_attn_weights, bool is_causal) -> "
    "Tuple[Tensor, Tensor, Tensor, Tensor, Tensor, Tensor, Tensor, Tensor, Tensor, Tensor, "
    "Tensor, Tensor]", mha_backward, shape=_info, may_raise=True)


def _train_info(args):
    out, w = _mha_info(args)
    return out, w, TensorInfo(args[0].dtype, None)


reg("tensor.multi_head_attention_train", MHA_PARAMS + "Tuple[Tensor, Tensor?, Tensor]",
    mha_train, shape=_train_info, may_raise=True)
reg("tensor.multi_head_attention_backward_saved",
    "(Tensor grad_output, Tensor? grad_weights, Tensor saved, Tensor query, Tensor key, "
    "Tensor value, int num_heads, Tensor? in_proj_weight, Tensor? in_proj_bias, "
    "Tensor out_proj_weight, Tensor? out_proj_bias, Tensor? key_padding_mask, "
    "bool need_weights, Tensor? attn_mask, bool use_separate_proj_weight, "
    "Tensor? q_proj_weight, Tensor? k_proj_weight, Tensor? v_proj_weight, "
    "bool average_attn_weights, bool is_causal) -> Tuple[Tensor, Tensor, Tensor, Tensor, "
    "Tensor, Tensor, Tensor, Tensor, Tensor, Tensor, Tensor, Tensor]", mha_backward_saved,
    shape=lambda a: _info([a[0], a[1]] + list(a[3:])), may_raise=True)
