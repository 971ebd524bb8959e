"""F.embedding_bag: sums, means or maxima of bags of embedding rows, the bags given as the
rows of a 2-D index tensor or as a 1-D index tensor cut at `offsets`; optional per-sample
weights (mode 'sum') and a padding index whose rows are left out.

One gather of all rows, then one `reduceat` per reduction; empty bags are 0, as in torch.
"""

from __future__ import annotations

import numpy as np

from ember.ops.registry import ShapeMismatch
from ember.ops.tensor_common import F, reg
from ember.ops.tensorinfo import TensorInfo

_MODES = ("sum", "mean", "max")


def _bags(idx, offsets, include_last_offset):
    """(flat indices, bag starts, bag ends)."""
    if idx.ndim == 2:
        if offsets is not None:
            raise ValueError("if input is 2D, then offsets has to be None, as input is treated "
                             "is a mini-batch of fixed length sequences.")
        b, n = idx.shape
        starts = np.arange(b, dtype=np.int64) * n
        return idx.reshape(-1), starts, starts + n
    if idx.ndim != 1:
        raise ValueError(f"input has to be 1D or 2D Tensor, but got Tensor of dimension "
                         f"{idx.ndim}")
    if offsets is None or offsets.ndim != 1:
        raise ValueError("offsets has to be a 1D Tensor when input is 1D")
    cuts = offsets.astype(np.int64)
    if cuts.size and (cuts[0] != 0 or (np.diff(cuts) < 0).any() or cuts[-1] > idx.size):
        raise RuntimeError("offsets must start at 0, not decrease and not pass the input's "
                           f"length {idx.size}, got {cuts.tolist()}")
    if include_last_offset:
        return idx, cuts[:-1], cuts[1:]
    return idx, cuts, np.append(cuts[1:], idx.size)


def _reduce(ufunc, rows, starts, ends, empty_value):
    """ufunc.reduceat over the contiguous [starts, ends) segments; empty segments get
    empty_value."""
    out = np.full((starts.size,) + rows.shape[1:], empty_value, rows.dtype)
    full = ends > starts
    if full.any():  # reduceat's last segment runs to the end: cut rows after the last bag
        out[full] = ufunc.reduceat(rows[:ends[full][-1]], starts[full], axis=0)
    return out


def embedding_bag(idx, weight, offsets, max_norm, norm_type, scale_grad_by_freq, mode, sparse,
                  per_sample_weights, include_last_offset, padding_idx):
    """Per bag: the sum, mean or max of weight's rows at the bag's indices."""
    if mode not in _MODES:
        raise ValueError(f"mode has to be one of sum, mean or max, got {mode!r}")
    if max_norm is not None:
        raise RuntimeError("embedding_bag(max_norm=...) renormalizes the weight in place; "
                           "ember does not support it")
    if idx.dtype.kind not in "iu":
        raise RuntimeError(f"expected indices of an integer type, got {idx.dtype}")
    flat, starts, ends = _bags(idx, offsets, include_last_offset)
    if flat.size and (flat.min() < 0 or flat.max() >= weight.shape[0]):
        raise IndexError(f"index out of range in self (embedding_bag of {weight.shape[0]} "
                         f"rows, indices in [{flat.min()}, {flat.max()}])")
    rows = np.take(weight, flat, axis=0)
    if per_sample_weights is not None:
        if mode != "sum":
            raise NotImplementedError(f"embedding_bag: per_sample_weights was not None. "
                                      f"per_sample_weights is only supported for mode='sum' "
                                      f"(got mode='{mode}'). Please open a feature request "
                                      f"on GitHub.")
        rows = rows * per_sample_weights.reshape(-1, 1).astype(rows.dtype, copy=False)
    keep = np.ones(flat.shape, bool) if padding_idx is None else flat != padding_idx
    if mode == "max":
        rows = np.where(keep[:, None], rows, np.asarray(-np.inf, rows.dtype))
        out = _reduce(np.maximum, rows, starts, ends, 0)
        out[np.isneginf(out)] = 0  # bags of padding only
        return out
    if padding_idx is not None:
        rows = rows * keep[:, None].astype(rows.dtype)
    out = _reduce(np.add, rows, starts, ends, 0)
    if mode == "mean":
        counts = np.add.reduceat(np.append(keep, False).astype(np.int64),
                                 np.minimum(starts, flat.size))
        counts = np.where(ends > starts, counts, 0)
        out /= np.maximum(counts, 1).astype(out.dtype)[:, None]
    return out


def _embedding_bag_info(args):
    i, w, offsets = args[0], args[1], args[2]
    if i.shape is None or w.shape is None or len(w.shape) != 2:
        return TensorInfo(w.dtype, None)
    if len(i.shape) == 2:
        return TensorInfo(w.dtype, (i.shape[0], w.shape[1]))
    if len(i.shape) != 1:
        raise ShapeMismatch(f"embedding_bag: input has to be 1-D or 2-D, got rank {len(i.shape)}")
    bags = offsets.shape[0] if offsets.is_tensor and offsets.shape else None
    last = args[9].const if len(args) > 9 else False
    if isinstance(bags, int) and last is True:
        bags -= 1
    elif not isinstance(last, bool):
        bags = None
    return TensorInfo(w.dtype, (bags, w.shape[1]))


reg("tensor.embedding_bag", "(Tensor input, Tensor weight, Tensor? offsets=None, "
    "float? max_norm=None, float norm_type=2.0, bool scale_grad_by_freq=False, "
    "str mode='mean', bool sparse=False, Tensor? per_sample_weights=None, "
    "bool include_last_offset=False, int? padding_idx=None) -> Tensor", embedding_bag,
    (f"{F}.embedding_bag",), _embedding_bag_info, may_raise=True)


# ----------------------------------------------------------------------------- backward


def embedding_bag_backward(g, idx, weight, offsets, mode, per_sample_weights,
                           include_last_offset, padding_idx):
    """(d weight, d per_sample_weights) of embedding_bag in mode sum or mean: each bag's
    gradient row added to the rows it gathered (divided by the bag's count for mean; times
    the sample's weight), padding rows left out."""
    flat, starts, ends = _bags(idx, offsets, include_last_offset)
    lengths = np.maximum(ends - starts, 0)
    bag = np.repeat(np.arange(starts.size), lengths)
    pos = np.repeat(starts, lengths) + (np.arange(bag.size) -
                                        np.repeat(np.cumsum(lengths) - lengths, lengths))
    rows = flat[pos]
    keep = np.ones(rows.shape, bool) if padding_idx is None else rows != padding_idx
    share = g.astype(weight.dtype, copy=False)[bag]
    if mode == "mean":
        counts = np.bincount(bag[keep], minlength=starts.size)
        share = share / np.maximum(counts, 1).astype(weight.dtype)[bag][:, None]
    gps = None
    if per_sample_weights is not None:
        psw = per_sample_weights.reshape(-1)
        gps = np.zeros(psw.shape, psw.dtype)
        gps[pos] = np.where(keep, (share * weight[rows]).sum(axis=1), 0)
        share = share * psw[pos].astype(weight.dtype)[:, None]
        gps = gps.reshape(per_sample_weights.shape)
    gw = np.zeros(weight.shape, weight.dtype)
    np.add.at(gw, rows[keep], share[keep])
    return gw, gps if gps is not None else np.zeros((0,), weight.dtype)


def _backward_info(args):
    w, p = args[2], args[5]
    return (TensorInfo(w.dtype, w.shape),
            TensorInfo(p.dtype, p.shape) if p.is_tensor else TensorInfo(w.dtype, (0,)))


reg("tensor.embedding_bag_backward", "(Tensor grad, Tensor input, Tensor weight, "
    "Tensor? offsets, str mode, Tensor? per_sample_weights, bool include_last_offset, "
    "int? padding_idx) -> Tuple[Tensor, Tensor]", embedding_bag_backward,
    shape=_backward_info, may_raise=True)
