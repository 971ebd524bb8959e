"""Observers: torch.ao's calibration statistics and qparams, reproduced in float32 numpy.

Each observer takes batches (`observe(x)`) and gives `(scale, zero_point)` with
`qparams()` — float32 scales and int zero points, per tensor (a float and an int) or per
channel (arrays). Arithmetic follows torch's observers step by step in float32 (a Python
float meeting a float32 tensor is rounded to float32 first, as torch's wrapped scalars
are), so the same batches give the same qparams:

* MinMaxObserver: running min / max;
* MovingAverageMinMaxObserver: the first batch sets min / max, then
  `m = f32(m + f32(0.01 * f32(cur - m)))`;
* PerChannelMinMaxObserver: min / max per slice of `ch_axis`;
* HistogramObserver: 2048-bin histogram (torch.histc's binning), re-binned through a
  16x upsampled histogram when the range grows, then torch's non-linear search for the
  range with the least L2 quantization error.

Activations (quint8, affine, reduce_range → [0, 127]); weights (qint8, symmetric).
"""

from __future__ import annotations

import numpy as np

_F = np.float32
_EPS = _F(np.finfo(np.float32).eps)
_RANGES = {("quint8", False): (0, 255), ("quint8", True): (0, 127),
           ("qint8", False): (-128, 127), ("qint8", True): (-64, 63)}


class _Base:
    def __init__(self, dtype="quint8", symmetric=False, reduce_range=False):
        if (dtype, reduce_range) not in _RANGES:
            raise ValueError(f"observer dtype must be 'quint8' or 'qint8', got {dtype!r}")
        self.dtype, self.symmetric = dtype, symmetric
        self.qmin, self.qmax = _RANGES[(dtype, reduce_range)]

    def _qparams(self, mn, mx):
        """torch's _calculate_qparams for float32 arrays (or scalars) mn, mx."""
        mn, mx = np.asarray(mn, _F), np.asarray(mx, _F)
        if not (np.all(np.isfinite(mn)) and np.all(np.isfinite(mx))):
            return _F(1.0), 0
        mn_neg = np.minimum(mn, _F(0))
        mx_pos = np.maximum(mx, _F(0))
        if self.symmetric:
            mx_pos = np.maximum(-mn_neg, mx_pos)
            scale = np.maximum((mx_pos / _F((self.qmax - self.qmin) / 2)).astype(_F), _EPS)
            zp = np.full(scale.shape, 128 if self.dtype == "quint8" else 0, np.int64)
        else:
            scale = np.maximum(((mx_pos - mn_neg) / _F(self.qmax - self.qmin)).astype(_F),
                               _EPS)
            zp = self.qmin - np.rint((mn_neg / scale).astype(_F)).astype(np.int64)
            zp = np.clip(zp, self.qmin, self.qmax)
        if scale.ndim == 0:
            return float(scale), int(zp)
        return scale.astype(_F), zp


def _aminmax(x):
    x = np.asarray(x, _F)
    return _F(x.min()), _F(x.max())


class MinMaxObserver(_Base):
    def __init__(self, dtype="quint8", symmetric=False, reduce_range=False):
        super().__init__(dtype, symmetric, reduce_range)
        self.min, self.max = _F(np.inf), _F(-np.inf)

    def observe(self, x):
        if np.size(x) == 0:
            return
        lo, hi = _aminmax(x)
        self.min, self.max = min(self.min, lo), max(self.max, hi)

    def qparams(self):
        return self._qparams(self.min, self.max)


class MovingAverageMinMaxObserver(MinMaxObserver):
    def __init__(self, averaging_constant=0.01, dtype="quint8", symmetric=False,
                 reduce_range=False):
        super().__init__(dtype, symmetric, reduce_range)
        self.c = _F(averaging_constant)

    def observe(self, x):
        if np.size(x) == 0:
            return
        lo, hi = _aminmax(x)
        if self.min == np.inf and self.max == -np.inf:
            self.min, self.max = lo, hi
        else:
            self.min = _F(self.min + _F(self.c * _F(lo - self.min)))
            self.max = _F(self.max + _F(self.c * _F(hi - self.max)))


class PerChannelMinMaxObserver(_Base):
    def __init__(self, ch_axis=0, dtype="qint8", symmetric=True, reduce_range=False):
        super().__init__(dtype, symmetric, reduce_range)
        self.ch_axis = ch_axis
        self.min = self.max = None

    def observe(self, x):
        x = np.asarray(x, _F)
        if x.size == 0:
            return
        rows = np.moveaxis(x, self.ch_axis, 0).reshape(x.shape[self.ch_axis], -1)
        lo, hi = rows.min(axis=1), rows.max(axis=1)
        if self.min is None:
            self.min, self.max = lo, hi
        else:
            self.min, self.max = np.minimum(self.min, lo), np.maximum(self.max, hi)

    def qparams(self):
        if self.min is None:
            return np.ones(1, _F), np.zeros(1, np.int64)
        return self._qparams(self.min, self.max)


# ----------------------------------------------------------------------------- histogram


def histc(x, bins, lo, hi):
    """torch.histc(x, bins, min=lo, max=hi) for float32 x: bin (x - lo) * bins / (hi - lo)
    in float32, truncated; the last bin holds hi; values outside [lo, hi] are dropped.
    lo == hi takes the data's range, and a single value the range value +- 1."""
    x = np.asarray(x, _F).reshape(-1)
    lo, hi = _F(lo), _F(hi)
    if lo == hi and x.size:  # torch then bins over the data's own range
        lo, hi = _aminmax(x)
    if lo == hi:
        lo, hi = _F(lo - 1), _F(hi + 1)
    x = x[(x >= lo) & (x <= hi)]
    pos = (((x - lo) * _F(bins)).astype(_F) / _F(hi - lo)).astype(_F).astype(np.int64)
    pos[pos == bins] = bins - 1
    return np.bincount(pos, minlength=bins).astype(_F)


def linspace32(start, end, steps):
    """torch.linspace in float32: the first half counts up from start, the rest down from
    end."""
    start, end = _F(start), _F(end)
    if steps == 1:
        return np.array([start], _F)
    step = _F((end - start) / _F(steps - 1))
    idx = np.arange(steps)
    half = steps // 2
    out = np.empty(steps, _F)
    out[:half] = start + step * idx[:half].astype(_F)
    out[half:] = end - step * (steps - idx[half:] - 1).astype(_F)
    return out


class HistogramObserver(_Base):
    def __init__(self, bins=2048, dtype="quint8", symmetric=False, reduce_range=True):
        super().__init__(dtype, symmetric, reduce_range)
        self.bins = bins
        self.histogram = np.zeros(bins, _F)
        self.min, self.max = _F(np.inf), _F(-np.inf)
        self.dst_nbins = 256
        self.upsample_rate = 16

    def observe(self, x):
        x = np.asarray(x, _F).reshape(-1)
        if x.size == 0:
            return
        lo, hi = _aminmax(x)
        if lo == -np.inf or hi == np.inf:
            x = x[np.abs(x) != np.inf]
            if x.size == 0:
                return
            lo, hi = _aminmax(x)
        if self.min == np.inf or self.max == -np.inf:
            self.min, self.max = lo, hi
            self.histogram = histc(x, self.bins, lo, hi)
            return
        new_min, new_max = min(self.min, lo), max(self.max, hi)
        update = histc(x, self.bins, new_min, new_max)
        if new_min == self.min and new_max == self.max:
            self.histogram = (self.histogram + update).astype(_F)
            return
        self.histogram = self._combine(self.histogram, self.min, self.max, update,
                                       new_min, new_max)
        self.min, self.max = new_min, new_max

    def _combine(self, orig, omin, omax, update, umin, umax):
        if umin == omin and umax == omax:
            return (orig + update).astype(_F)
        if omin == omax:
            total = _F(orig.sum())
            return (histc(np.array([omin], _F), self.bins, umin, umax) * total
                    + update).astype(_F)
        return (update + self._upscale(orig, omin, omax, umin, umax)).astype(_F)

    def _upscale(self, hist, omin, omax, umin, umax):
        r = self.upsample_rate
        hist = (np.repeat(hist, r) / _F(r)).astype(_F)
        bin_size = _F(_F(omax - omin) / _F(self.bins * r))
        mids = (linspace32(omin, omax, self.bins * r + 1)[:-1] + _F(0.5) * bin_size).astype(_F)
        bounds = linspace32(umin, umax, self.bins + 1)
        b = np.searchsorted(bounds, mids, side="right") - 1
        b = np.clip(b, 0, self.bins - 1)
        out = np.zeros(self.bins, _F)
        np.add.at(out, b, hist)  # torch's bincount adds in index order, in float32
        return out

    def _norm(self, begin, end, density):
        return (density * ((end * end * end - begin * begin * begin) / _F(3)).astype(_F)) \
            .astype(_F)

    def _error(self, start, end):
        bin_width = (float(self.max) - float(self.min)) / self.bins
        dst = bin_width * (end - start + 1) / self.dst_nbins
        if dst == 0.0:
            return 0.0
        bw, d = _F(bin_width), _F(dst)
        src = np.arange(self.bins)
        begin = ((src - start).astype(_F) * bw).astype(_F)
        src_end = (begin + bw).astype(_F)
        top = _F(self.dst_nbins - 1)
        of_begin = np.clip(np.floor_divide(begin, d), _F(0), top).astype(_F)
        begin_center = ((of_begin + _F(0.5)) * d).astype(_F)
        of_end = np.clip(np.floor_divide(src_end, d), _F(0), top).astype(_F)
        density = (self.histogram / bw).astype(_F)
        norm = np.zeros(self.bins, _F)
        norm += self._norm((begin - begin_center).astype(_F),
                           np.full(self.bins, _F(dst / 2), _F), density)
        norm += ((of_end - of_begin - _F(1)) *
                 self._norm(_F(-dst / 2), _F(dst / 2), density)).astype(_F)
        end_center = (of_end * d + _F(dst / 2)).astype(_F)
        norm += self._norm(_F(-dst / 2), (src_end - end_center).astype(_F), density)
        return float(norm.sum(dtype=_F))

    def _search(self):
        bin_width = _F(_F(self.max - self.min) / _F(self.bins))
        total = float(self.histogram.sum(dtype=_F))
        csum = np.cumsum(self.histogram, dtype=_F)
        alpha, beta = 0.0, 1.0
        start, end = 0, self.bins - 1
        norm_min = float("inf")
        while alpha < beta:
            next_alpha, next_beta = alpha + 1e-5, beta - 1e-5
            lo, hi = start, end
            while lo < end and csum[lo] < _F(next_alpha * total):
                lo += 1
            while hi > start and csum[hi] > _F(next_beta * total):
                hi -= 1
            ns, ne = start, end
            if (lo - start) > (end - hi):
                ns, alpha = lo, next_alpha
            else:
                ne, beta = hi, next_beta
            if ns == start and ne == end:
                continue
            norm = self._error(ns, ne)
            if norm > norm_min:
                break
            norm_min, start, end = norm, ns, ne
        return (_F(self.min + _F(bin_width * _F(start))),
                _F(self.min + _F(bin_width * _F(end + 1))))

    def qparams(self):
        if self.min == np.inf and self.max == -np.inf:
            return 1.0, 0
        return self._qparams(*self._search())


OBSERVERS = {"minmax": MinMaxObserver, "moving_average": MovingAverageMinMaxObserver,
             "histogram": HistogramObserver}
