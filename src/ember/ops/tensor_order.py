"""Order statistics: kthvalue, median and nanmedian (whole tensor, or along a dim with
indices), as torch computes them on CPU.

The k-th value is the one at position k-1 of a stable ascending sort along the dim (NaN
sorts last, as torch orders it); its index is where the sort took it from (for kthvalue,
where equal values tie, the one torch's CPU quick select picks). `median` is the lower median
(position (n-1)//2) and is NaN, with the index of the first NaN, when the lane holds one;
`nanmedian` ignores NaN (NaN only for a lane of NaN).
"""

from __future__ import annotations

import numpy as np

from ember.ops.tensor_common import arr, check_dim, reg
from ember.ops.tensor_reduce import _pair_info, _same
from ember.ops.tensorinfo import TensorInfo


def _lanes(x, d):
    """x with dim d moved last (a 0-d tensor is one lane of one value)."""
    return np.moveaxis(x, d, -1) if x.ndim else x.reshape(1)


def _gt_or_nan(a, b) -> bool:
    return (a != a and b == b) or a > b


def _quick_select(values: list, k: int) -> int:
    """The index torch's CPU quick select (aten SortingUtils.h: median-of-three pivot,
    Hoare partition) leaves at position k of `values`: which of equal values it picks."""
    arr, ind = list(values), list(range(len(values)))

    def swap(a, b):
        arr[a], arr[b] = arr[b], arr[a]
        ind[a], ind[b] = ind[b], ind[a]
    lo, hi = 0, len(arr) - 1
    while hi > lo:
        if hi == lo + 1:
            if _gt_or_nan(arr[lo], arr[hi]):
                swap(lo, hi)
            break
        swap(lo + (hi - lo) // 2, lo + 1)
        if _gt_or_nan(arr[lo + 1], arr[hi]):
            swap(lo + 1, hi)
        if _gt_or_nan(arr[lo], arr[hi]):
            swap(lo, hi)
        if _gt_or_nan(arr[lo + 1], arr[lo]):
            swap(lo + 1, lo)
        i, j, piv = lo + 1, hi, arr[lo]
        while True:
            i += 1
            while _gt_or_nan(piv, arr[i]):
                i += 1
            j -= 1
            while _gt_or_nan(arr[j], piv):
                j -= 1
            if j < i:
                break
            swap(i, j)
        swap(lo, j)
        if j <= k:
            lo = i
        if j >= k:
            hi = j - 1
    return ind[k]


def _pick(x, d, pos, keepdim, quick=False):
    """(values, indices) at sorted position pos[...] (one per lane) along dim d: the stable
    sort's (torch's median), or with `quick` the index torch's quick select returns where
    equal values tie (torch's kthvalue)."""
    lanes = _lanes(x, d)
    order = np.argsort(lanes, axis=-1, kind="stable")
    idx = np.take_along_axis(order, pos[..., None], axis=-1)
    vals = np.take_along_axis(lanes, idx, axis=-1)
    ordered = np.take_along_axis(lanes, order, axis=-1)
    ties = (ordered[..., 1:] == ordered[..., :-1]).any(axis=-1) if quick and \
        lanes.shape[-1] > 1 else np.zeros(lanes.shape[:-1], bool)
    for lane in np.ndindex(ties.shape):
        if ties[lane]:
            idx[lane + (0,)] = _quick_select(lanes[lane].tolist(), int(pos[lane]))
    if x.ndim == 0:
        return arr(vals.reshape(())), np.zeros((), np.int64)
    vals, idx = np.moveaxis(vals, -1, d), np.moveaxis(idx, -1, d)
    if not keepdim:
        vals, idx = np.squeeze(vals, d), np.squeeze(idx, d)
    return arr(vals), arr(idx.astype(np.int64, copy=False))


def _lane_shape(x, d):
    return _lanes(x, d).shape[:-1]


def _kthvalue(x, k, dim, keepdim):
    """(values, indices) of the k-th smallest element along dim (k counts from 1)."""
    d = check_dim(dim, x.ndim)
    n = x.shape[d] if x.ndim else 1
    if not 1 <= k <= n:
        raise RuntimeError(f"kthvalue(): selected number k out of range for dimension {dim}")
    return _pick(x, d, np.full(_lane_shape(x, d), k - 1, np.int64), keepdim, quick=True)


def _median_dim(ignore_nan):
    what = "nanmedian" if ignore_nan else "median"

    def kernel(x, dim, keepdim):
        d = check_dim(dim, x.ndim)
        n = x.shape[d] if x.ndim else 1
        if n == 0:
            raise IndexError(f"{what}(): Expected reduction dim {dim} to have non-zero size.")
        lanes = _lanes(x, d)
        nan = np.isnan(lanes) if x.dtype.kind in "fc" else np.zeros(lanes.shape, bool)
        if ignore_nan:
            count = n - nan.sum(axis=-1)
            pos = np.maximum(count - 1, 0) // 2
            return _pick(x, d, pos.astype(np.int64), keepdim)
        vals, idx = _pick(x, d, np.full(lanes.shape[:-1], (n - 1) // 2, np.int64), keepdim)
        has = nan.any(axis=-1)
        if has.any():
            first = np.argmax(nan, axis=-1)
            if x.ndim and keepdim:
                has, first = np.expand_dims(has, d), np.expand_dims(first, d)
            vals = np.where(has, np.array(np.nan, x.dtype), vals).astype(x.dtype)
            idx = np.where(has, first, idx).astype(np.int64)
        return arr(vals), arr(idx)
    kernel.__doc__ = f"(values, indices) of the {what} along dim (the lower median)."
    return kernel


def _median_all(ignore_nan):
    def kernel(x):
        flat = x.reshape(-1)
        if x.dtype.kind in "fc":
            nan = np.isnan(flat)
            if ignore_nan:
                flat = flat[~nan]
            elif nan.any():
                return np.array(np.nan, x.dtype)
        if flat.size == 0:
            return np.array(np.nan if x.dtype.kind in "fc" else 0, x.dtype)
        return arr(np.sort(flat, kind="stable")[(flat.size - 1) // 2])
    kernel.__doc__ = "The lower median of all elements (a 0-d tensor)."
    return kernel


def _kth_info(args):
    return _pair_info(_same, 2, 3)(args)


reg("tensor.kthvalue", "(Tensor self, int k, int dim=-1, bool keepdim=False) -> "
    "Tuple[Tensor, Tensor]", _kthvalue, ("torch.kthvalue", "Tensor.kthvalue"), _kth_info,
    may_raise=True)
for _n, _ignore in (("median", False), ("nanmedian", True)):
    reg(f"tensor.{_n}_all", "(Tensor self) -> Tensor", _median_all(_ignore),
        (f"torch.{_n}", f"Tensor.{_n}"), lambda a: TensorInfo(a[0].dtype, ()))
    reg(f"tensor.{_n}_dim", "(Tensor self, int dim, bool keepdim=False) -> "
        "Tuple[Tensor, Tensor]", _median_dim(_ignore), (f"torch.{_n}", f"Tensor.{_n}"),
        _pair_info(_same), may_raise=True)
