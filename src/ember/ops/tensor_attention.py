"""Attention: scaled_dot_product_attention (masks, causal, GQA) and
multi_head_attention_forward (torch.nn.functional's, seq-first, the subset
nn.MultiheadAttention uses without bias_k/bias_v/add_zero_attn).

Scores are computed in place: one batched matmul, a scale, the mask, a
four-pass softmax, one batched matmul with the values. Self-attention with a
packed in_proj_weight is a single projection GEMM, as in torch.

Self-attention over one sequence (batch 1, the latency case) projects straight into
the layouts its matmuls want: q and v per head as one (2 * heads, L, hd) product (q
pre-scaled through its weights), k transposed per head as (heads, hd, L), and the
values' product written into the (L, heads, hd) rows the output projection reads. No
strided copy of q, k or v is made, and every matmul sees contiguous operands.
"""

from __future__ import annotations

import math

import numpy as np

from ember.ops.tensor_activation import softmax_last
from ember.ops.tensor_common import F, prepared, reg
from ember.ops.tensor_linalg import T_CACHE_MAX_BYTES, linear
from ember.ops.tensorinfo import TensorInfo


def _apply_mask(scores, mask, is_causal):
    if is_causal:
        lq, lk = scores.shape[-2:]
        scores[..., np.triu(np.ones((lq, lk), dtype=bool), 1)] = -np.inf
    if mask is not None:
        if mask.dtype == np.bool_:
            np.copyto(scores, -np.inf, where=~mask)  # torch: True means "take part"
        else:
            scores += mask


def sdpa(q, k, v, mask, dropout_p, is_causal, scale, enable_gqa=False):
    """softmax(q @ k^T * scale + mask) @ v over the last two dims."""
    if q.dtype != k.dtype or q.dtype != v.dtype:
        raise RuntimeError(f"Expected query, key, and value to have the same dtype, but got "
                           f"query.dtype: {q.dtype} key.dtype: {k.dtype} and value.dtype: "
                           f"{v.dtype} instead.")
    if is_causal and mask is not None:
        raise RuntimeError("_scaled_dot_product_attention: Explicit attn_mask should not be "
                           "set when is_causal=True")
    if enable_gqa and q.ndim >= 3 and k.shape[-3] != q.shape[-3]:
        rep = q.shape[-3] // k.shape[-3]
        k, v = np.repeat(k, rep, axis=-3), np.repeat(v, rep, axis=-3)
    s = (1.0 / math.sqrt(q.shape[-1])) if scale is None else scale
    scores = np.matmul(q, np.swapaxes(k, -1, -2))
    scores *= scores.dtype.type(s)
    _apply_mask(scores, mask, is_causal)
    attn = softmax_last(scores)
    if dropout_p > 0.0:
        keep = np.random.default_rng().random(attn.shape) >= dropout_p
        attn *= keep * attn.dtype.type(1.0 / (1.0 - dropout_p))
    return np.matmul(attn, v)


def _sdpa_info(args):
    q, v = args[0], args[2]
    if q.shape is None or v.shape is None:
        return TensorInfo(q.dtype, None)
    return TensorInfo(q.dtype, q.shape[:-1] + v.shape[-1:])


reg("tensor.sdpa", "(Tensor query, Tensor key, Tensor value, Tensor? attn_mask=None, "
    "float dropout_p=0.0, bool is_causal=False, *, float? scale=None, bool enable_gqa=False) "
    "-> Tensor", sdpa, (f"{F}.scaled_dot_product_attention",), _sdpa_info, may_raise=True)

# ----------------------------------------------------------------------------- MHA


def _split_in_proj(w):
    """(w_q, w_k, w_v, w_kv) row blocks of in_proj_weight; cached per frozen weight, so
    linear sees the same view objects every call and caches their transposes."""
    e = w.shape[0] // 3
    return w[:e], w[e:2 * e], w[2 * e:], w[e:]


def _project(query, key, value, w, b, separate):
    e = query.shape[-1]
    if separate is not None:
        wq, wk, wv = separate
        bq, bk, bv = (None, None, None) if b is None else (b[:e], b[e:2 * e], b[2 * e:])
        return linear(query, wq, bq), linear(key, wk, bk), linear(value, wv, bv)
    if query is key and key is value:
        qkv = linear(query, w, b)
        return qkv[..., :e], qkv[..., e:2 * e], qkv[..., 2 * e:]
    wq, wk, wv, wkv = prepared("mha_split", (w,), _split_in_proj)
    bq, bkv = (None, None) if b is None else (b[:e], b[e:])
    q = linear(query, wq, bq)
    if key is value:
        kv = linear(key, wkv, bkv)
        return q, kv[..., :e], kv[..., e:]
    bk, bv = (None, None) if b is None else (b[e:2 * e], b[2 * e:])
    return q, linear(key, wk, bk), linear(value, wv, bv)


def _heads(x, n, heads):
    """(L, N, E) -> (N, heads, L, E / heads)."""
    length = x.shape[0]
    return x.reshape(length, n, heads, -1).transpose(1, 2, 0, 3)


def _merged_mask(attn_mask, key_padding_mask, n, heads, lq, lk, dtype):
    """One additive float mask (N, heads, Lq, Lk) or None from torch's two masks."""
    out = None
    if attn_mask is not None:
        if attn_mask.ndim == 2:
            _check_mask(attn_mask, (lq, lk), "2D attn_mask")
            m = attn_mask
        else:
            _check_mask(attn_mask, (n * heads, lq, lk), "3D attn_mask")
            m = attn_mask.reshape(n, heads, lq, lk)
        out = _as_additive(m, dtype)
    if key_padding_mask is not None:
        _check_mask(key_padding_mask, (n, lk), "key_padding_mask")
        kp = _as_additive(key_padding_mask, dtype, padding=True).reshape(n, 1, 1, lk)
        out = kp if out is None else out + kp
    return out


def _check_mask(m, want, what):
    if tuple(m.shape) != tuple(want):
        raise RuntimeError(f"The shape of the {what} is {list(m.shape)}, but should be "
                           f"{list(want)}.")


def _as_additive(m, dtype, padding=False):
    if m.dtype == np.bool_:
        # attn_mask / key_padding_mask in MHA: True means "masked out" (unlike sdpa).
        return np.where(m, dtype.type(-np.inf), dtype.type(0))
    return m.astype(dtype, copy=False)


def mha_forward(query, key, value, embed_dim, num_heads, in_proj_weight, in_proj_bias,
                bias_k, bias_v, add_zero_attn, dropout_p, out_proj_weight, out_proj_bias,
                training, key_padding_mask, need_weights, attn_mask, use_separate_proj_weight,
                q_proj_weight, k_proj_weight, v_proj_weight, static_k, static_v,
                average_attn_weights, is_causal, keep=None):
    """F.multi_head_attention_forward on (L, N, E) inputs: (output, weights or None).
    `keep`, a list: the general path runs and appends q, k, v (N, heads, L, hd), the
    weights (N, heads, Lq, Lk) and the context (Lq, N, E) for the backward."""
    if bias_k is not None or bias_v is not None or add_zero_attn or static_k is not None \
            or static_v is not None:
        raise RuntimeError("multi_head_attention_forward: bias_k/bias_v, add_zero_attn and "
                           "static_k/static_v are not supported by ember")
    unbatched = query.ndim == 2
    if unbatched:
        query, key, value = query[:, None], key[:, None], value[:, None]
        key_padding_mask = None if key_padding_mask is None else key_padding_mask[None]
    lq, n, e = query.shape
    if e != embed_dim:
        raise RuntimeError(f"was expecting embedding dimension of {embed_dim}, but got {e}")
    if e % num_heads:
        raise RuntimeError(f"embed_dim {e} not divisible by num_heads {num_heads}")
    lk = key.shape[0]
    if is_causal and attn_mask is None:
        attn_mask = np.triu(np.ones((lq, lk), dtype=bool), 1)
    mask = _merged_mask(attn_mask, key_padding_mask, n, num_heads, lq, lk, query.dtype)
    if keep is None and _one_sequence(query, key, value, in_proj_weight, in_proj_bias,
                                      out_proj_weight, out_proj_bias,
                                      use_separate_proj_weight, training and dropout_p > 0.0):
        out, attn = _self_attend(query.reshape(lq, e), num_heads, in_proj_weight, in_proj_bias,
                                 mask, out_proj_weight, out_proj_bias)
        return _finish(out[:, None], attn[None], need_weights, average_attn_weights, unbatched)
    sep = (q_proj_weight, k_proj_weight, v_proj_weight) if use_separate_proj_weight else None
    q, k, v = _project(query, key, value, in_proj_weight, in_proj_bias, sep)
    q, k, v = _heads(q, n, num_heads), _heads(k, n, num_heads), _heads(v, n, num_heads)
    scores = np.matmul(q, np.swapaxes(k, -1, -2))
    scores *= scores.dtype.type(1.0 / math.sqrt(e // num_heads))
    if mask is not None:
        scores += mask
    attn = softmax_last(scores)
    if training and dropout_p > 0.0:
        keep = np.random.default_rng().random(attn.shape) >= dropout_p
        attn = attn * (keep * attn.dtype.type(1.0 / (1.0 - dropout_p)))
    ctx = np.matmul(attn, v)  # (N, heads, Lq, hd)
    ctx = ctx.transpose(2, 0, 1, 3).reshape(lq, n, e)
    if keep is not None:
        keep.extend((q, k, v, attn, ctx))
    out = linear(ctx, out_proj_weight, out_proj_bias)
    return _finish(out, attn, need_weights, average_attn_weights, unbatched)


def _finish(out, attn, need_weights, average, unbatched):
    """(output, weights or None) from the (L, N, E) output and (N, heads, L, S) weights."""
    weights = None
    if need_weights:
        weights = attn.mean(axis=1) if average else attn
        weights = weights[0] if unbatched else weights
    return (out[:, 0] if unbatched else out), weights


# ----------------------------------------------------------------------------- one sequence


def _one_sequence(query, key, value, w, b, out_w, out_b, separate, dropout) -> bool:
    """Whether the one-sequence self-attention path applies: batch 1, weights of the
    input's dtype and torch's shapes (else the general path raises torch's errors), and
    small enough that its rearranged copy of them (cached for frozen weights) costs little
    memory; larger ones go through `linear` on views of the weights."""
    lq, n, e = query.shape
    dt = query.dtype
    return n == 1 and query is key and key is value and not separate and not dropout \
        and w is not None and w.nbytes <= T_CACHE_MAX_BYTES \
        and w.dtype == dt and w.shape == (3 * e, e) \
        and (b is None or (b.dtype == dt and b.shape == (3 * e,))) \
        and out_w.dtype == dt and out_w.ndim == 2 and out_w.shape[1] == e \
        and (out_b is None or (out_b.dtype == dt and out_b.shape == out_w.shape[:1]))


def _head_weights(heads):
    def build(w, b):
        """q and v stacked as (2 * heads, E [+ 1], hd), q scaled by 1 / sqrt(hd), and k as
        (heads, hd, E [+ 1]); with a bias, its values are the extra row (column) that
        meets the inputs' column (row) of ones."""
        e = w.shape[1]
        hd = e // heads
        scale = w.dtype.type(1.0 / math.sqrt(hd))
        rows = w.reshape(3, heads, hd, e)
        qv = np.concatenate([rows[0] * scale, rows[2]]).transpose(0, 2, 1)
        k = rows[1]
        if b is not None:
            bias = b.reshape(3, heads, hd)
            qv = np.concatenate([qv, np.concatenate([bias[0] * scale, bias[2]])[:, None]], 1)
            k = np.concatenate([k, bias[1][..., None]], 2)
        return np.ascontiguousarray(qv), np.ascontiguousarray(k)
    return build


def _out_weights(w, b):
    """w.T (E [+ 1], O): with a bias, its values are the extra row."""
    return np.ascontiguousarray(w.T if b is None else np.concatenate([w.T, b[None]]))


def _with_ones(x, width):
    """x (L, E) and x.T, C-contiguous, with a column (row) of ones when width is E + 1."""
    length, e = x.shape
    if width == e:
        return x, np.ascontiguousarray(x.T)
    xe = np.empty((length, e + 1), x.dtype)
    xe[:, :e] = x
    xe[:, e] = 1
    xt = np.empty((e + 1, length), x.dtype)
    xt[:e] = x.T
    xt[e] = 1
    return xe, xt


def _self_attend(x, heads, w, b, mask, out_w, out_b):
    """Self-attention of one sequence x (L, E): (output (L, O), weights (heads, L, L)).
    Biases ride in the products as weight rows times a column of ones."""
    length, e = x.shape
    wqv, wk = prepared(f"mha_heads{heads}", (w, b), _head_weights(heads))
    xe, xt = _with_ones(x, wqv.shape[1])
    qv = np.matmul(xe, wqv)  # (2 * heads, L, hd): q (scaled), then v
    scores = np.matmul(qv[:heads], np.matmul(wk, xt))  # k as (heads, hd, L)
    if mask is not None:
        batched = scores[None]  # a view: the mask is (N = 1, heads, L, S) or broadcasts to it
        batched += mask
    attn = softmax_last(scores)
    wo = prepared("mha_out", (out_w, out_b), _out_weights)
    ctx = np.empty((length, wo.shape[0]), x.dtype)  # (L, E [+ 1])
    if wo.shape[0] > e:
        ctx[:, e] = 1
    np.matmul(attn, qv[heads:], out=ctx[:, :e].reshape(length, heads, -1).transpose(1, 0, 2))
    return np.matmul(ctx, wo), attn


def _mha_info(args):
    """The output like the query; the weights a tensor only when need_weights is surely
    true (else they stay Optional: None at run time without need_weights)."""
    q = args[0]
    need = args[15].const if len(args) > 15 else True
    return (TensorInfo(q.dtype, q.shape), TensorInfo(q.dtype, None) if need is True else None)


MHA_PARAMS = (
    "(Tensor query, Tensor key, Tensor value, "
    "int embed_dim_to_check, int num_heads, Tensor? in_proj_weight, Tensor? in_proj_bias, "
    "Tensor? bias_k, Tensor? bias_v, bool add_zero_attn, float dropout_p, "
    "Tensor out_proj_weight, Tensor? out_proj_bias, bool training=True, "
    "Tensor? key_padding_mask=None, bool need_weights=True, Tensor? attn_mask=None, "
    "bool use_separate_proj_weight=False, Tensor? q_proj_weight=None, "
    "Tensor? k_proj_weight=None, Tensor? v_proj_weight=None, Tensor? static_k=None, "
    "Tensor? static_v=None, bool average_attn_weights=True, bool is_causal=False) -> ")
"""F.multi_head_attention_forward's parameters (the forward's and the training form's)."""

reg("tensor.multi_head_attention", MHA_PARAMS + "Tuple[Tensor, Tensor?]", mha_forward,
    (f"{F}.multi_head_attention_forward",), _mha_info, may_raise=True)
