"""Recurrent layers with torch._VF's signatures: lstm, gru, rnn_tanh, rnn_relu
(num_layers, bidirectional, batch_first, optional initial states, LSTM projections).

Per layer and direction the input projection of all time steps is one matmul
before the time loop; each step is then one (N, H) @ (H, G*H) gemv plus a fixed
handful of in-place ufuncs on preallocated buffers, writing the hidden state
straight into the output tensor. The weights are rearranged once per call (or
once per frozen weight set, see tensor_common.prepared):

- LSTM gates are reordered from torch's (i, f, g, o) to (i, f, o, g) and the
  sigmoid gates pre-scaled by 1/2, so one tanh over all gates gives both
  tanh(g) and, after `* 0.5 + 0.5`, sigmoid(i, f, o). The cell state sits in the
  buffer right after g, so [i, f] * [g, c] is one multiply.
- GRU r and z are pre-scaled the same way; b_hn stays inside r * (W_hn h + b_hn).
Dropout between layers (train=True) is not applied: ember runs inference.
"""

from __future__ import annotations

import numpy as np

from ember.ops.tensor_common import frozen, prepared, reg
from ember.ops.tensor_linalg import flat_matmul, transposed
from ember.ops.tensorinfo import TensorInfo


def _layer_params(params, has_biases, k, per, proj):
    p = params[k * per:(k + 1) * per]
    w_ih, w_hh = p[0], p[1]
    b_ih, b_hh = (p[2], p[3]) if has_biases else (None, None)
    w_hr = p[-1] if proj else None
    return w_ih, w_hh, b_ih, b_hh, w_hr


def _check_params(params, has_biases, num_layers, dirs, what):
    base = 4 if has_biases else 2
    total = len(params)
    per = total // max(num_layers * dirs, 1)
    if per * num_layers * dirs != total or per not in (base, base + 1):
        raise RuntimeError(f"{what}: expected {num_layers * dirs} groups of {base} (or "
                           f"{base + 1} with projections) parameters, got {total}")
    return per, per == base + 1


def _sequence(x, batch_first):
    """(input as (N, T, F) or (T, N, F), whether it was unbatched)."""
    if x.ndim == 2:
        return x[None] if batch_first else x[:, None], True
    if x.ndim != 3:
        raise RuntimeError(f"input must have 2 or 3 dimensions, got {x.ndim}")
    return x, False


def _steps(x, batch_first):
    return x.shape[1] if batch_first else x.shape[0]


def _at(a, t, batch_first):
    return a[:, t] if batch_first else a[t]


# ----------------------------------------------------------------------------- LSTM


def _gates_ifog(w, dtype):
    """w with gate rows (i, f, g, o) as (i/2, f/2, o/2, g), in one pass (its transpose is
    then chosen by _weights)."""
    h = w.shape[0] // 4
    out = np.empty(w.shape, dtype)
    np.multiply(w[:2 * h], 0.5, out=out[:2 * h])
    np.multiply(w[3 * h:], 0.5, out=out[2 * h:3 * h])
    out[3 * h:] = w[2 * h:3 * h]
    return out


def _weights(tag, arrays, build):
    """build(*arrays, contiguous). Frozen weights are built once and cached, with their
    transposes copied C-contiguous (BLAS runs a third faster on them); other weights get
    transposed views, since a copy per call costs more than it saves."""
    if all(frozen(a) for a in arrays if a is not None):
        return prepared(tag, arrays, lambda *a: build(*a, True))
    return build(*arrays, False)


_HALF: dict = {}


def _half(dtype):
    """0.5 as a 0-d array of dtype: a ufunc takes it faster than a Python float."""
    h = _HALF.get(dtype)
    if h is None:
        h = _HALF[dtype] = np.array(0.5, dtype)
    return h


def _lstm_weights(w_ih, w_hh, b_ih, b_hh, contiguous):
    """(W_ih^T, W_hh^T, bias) with gates (i, f, o, g), i/f/o scaled by 1/2."""
    dt = w_ih.dtype
    b = None if b_ih is None else _gates_ifog((b_ih + b_hh)[:, None], dt)[:, 0].copy()
    return (transposed(_gates_ifog(w_ih, dt), contiguous),
            transposed(_gates_ifog(w_hh, dt), contiguous), b)


def _step_views(a, steps, batch_first, reverse, cols=None):
    """The per-step (N, F) views of a (N, T, F) or (T, N, F) array, in processing order."""
    order = range(steps - 1, -1, -1) if reverse else range(steps)
    if cols is None:
        return [a[:, t] if batch_first else a[t] for t in order]
    return [(a[:, t] if batch_first else a[t])[:, cols] for t in order]


def _lstm_direction(x, batch_first, weights, w_hr, h0, c0, out, col, reverse):
    """One LSTM direction of one layer, writing h into out[..., col:col + width]."""
    wi, wh, b = weights
    steps = _steps(x, batch_first)
    dsts = _step_views(out, steps, batch_first, reverse, slice(col, col + h0.shape[1]))
    if h0.shape[0] == 1:
        xw = flat_matmul(x, wi)
        if b is not None:
            xw += b
        return _lstm_rows(_step_views(xw, steps, batch_first, reverse), dsts, wh, w_hr, h0, c0)
    # (4H, T, N): the input projection of every step as one GEMM, in the columns layout
    x_cols = np.ascontiguousarray(x.transpose(2, 1, 0) if batch_first else x.transpose(2, 0, 1))
    xw = np.matmul(wi.T, x_cols.reshape(x_cols.shape[0], -1)).reshape(wi.shape[1], steps, -1)
    if b is not None:
        xw += b[:, None, None]
    order = range(steps - 1, -1, -1) if reverse else range(steps)
    return _lstm_columns([xw[:, t] for t in order], dsts, wh, w_hr, h0, c0)


def _lstm_rows(xs, dsts, wh, w_hr, h0, c0):
    """Batch 1: gates as one row [i, f, o, g | c] (h @ W_hh^T is the fastest gemv)."""
    n, hid = c0.shape
    buf = np.empty((n, 5 * hid), c0.dtype)
    buf[:, 4 * hid:] = c0
    prod = np.empty((n, 2 * hid), c0.dtype)
    tc = np.empty((n, hid), c0.dtype)
    gates, sig, c = buf[:, :4 * hid], buf[:, :3 * hid], buf[:, 4 * hid:]
    i_f, g_c, o = buf[:, :2 * hid], buf[:, 3 * hid:], buf[:, 2 * hid:3 * hid]
    p0, p1 = prod[:, :hid], prod[:, hid:]
    hfull = np.empty((n, hid), c0.dtype) if w_hr is not None else None
    mul, add, tanh, dot = np.multiply, np.add, np.tanh, np.dot
    half = _half(c0.dtype)
    h = h0
    for xt, dst in zip(xs, dsts):  # positional out: a ufunc parses it faster than out=
        dot(h, wh, gates)
        add(gates, xt, gates)
        tanh(gates, gates)
        mul(sig, half, sig)
        add(sig, half, sig)
        mul(i_f, g_c, prod)  # [i * g, f * c]
        add(p0, p1, c)
        tanh(c, tc)
        if w_hr is None:
            h = mul(o, tc, dst)
        else:
            mul(o, tc, hfull)
            h = np.matmul(hfull, w_hr.T, out=dst)
    return h, c.copy()


def _lstm_columns(xs, dsts, wh, w_hr, h0, c0):
    """Batch > 1: gates as columns (5H, N): every gate block stays contiguous, where row
    slices of an (N, 5H) buffer would be strided and halve the ufunc speed."""
    n, hid = c0.shape
    w_t = wh.T  # (4H, width), C-contiguous
    buf = np.empty((5 * hid, n), c0.dtype)
    buf[4 * hid:] = c0.T
    prod = np.empty((2 * hid, n), c0.dtype)
    tc = np.empty((hid, n), c0.dtype)
    h_t = np.ascontiguousarray(h0.T)
    gates, sig, c = buf[:4 * hid], buf[:3 * hid], buf[4 * hid:]
    i_f, g_c, o = buf[:2 * hid], buf[3 * hid:], buf[2 * hid:3 * hid]
    p0, p1 = prod[:hid], prod[hid:]
    hfull = np.empty((hid, n), c0.dtype) if w_hr is not None else None
    mul, add, tanh, matmul = np.multiply, np.add, np.tanh, np.matmul
    half = _half(c0.dtype)
    for xt, dst in zip(xs, dsts):
        matmul(w_t, h_t, out=gates)
        add(gates, xt, out=gates)
        tanh(gates, out=gates)
        mul(sig, half, out=sig)
        add(sig, half, out=sig)
        mul(i_f, g_c, out=prod)
        add(p0, p1, out=c)
        tanh(c, out=tc)
        if w_hr is None:
            mul(o, tc, out=h_t)
        else:
            mul(o, tc, out=hfull)
            matmul(w_hr, hfull, out=h_t)
        dst[...] = h_t.T
    return h_t.T.copy(), c.T.copy()


def lstm(x, hx, params, has_biases, num_layers, dropout, train, bidirectional, batch_first):
    """torch._VF.lstm: (output, h_n, c_n); hx = [h0, c0] (or [] for zeros)."""
    dirs = 2 if bidirectional else 1
    per, proj = _check_params(params, has_biases, num_layers, dirs, "lstm")
    x, unbatched = _sequence(x, batch_first)
    n = x.shape[0] if batch_first else x.shape[1]
    hid = params[1].shape[0] // 4
    width = params[per - 1].shape[0] if proj else hid
    h0, c0 = _initial(hx, 2, num_layers * dirs, n, (width, hid), x.dtype, unbatched)
    hs, cs = [], []
    for layer in range(num_layers):
        steps = _steps(x, batch_first)
        out = np.empty(((n, steps) if batch_first else (steps, n)) + (dirs * width,), x.dtype)
        for d in range(dirs):
            k = layer * dirs + d
            w_ih, w_hh, b_ih, b_hh, w_hr = _layer_params(params, has_biases, k, per, proj)
            if x.dtype != w_ih.dtype:
                raise RuntimeError(f"lstm: input dtype {x.dtype} and weight dtype "
                                   f"{w_ih.dtype} differ")
            weights = _weights("lstm", (w_ih, w_hh, b_ih, b_hh), _lstm_weights)
            h, c = _lstm_direction(x, batch_first, weights, w_hr, h0[k], c0[k], out,
                                   d * width, d == 1)
            hs.append(h)
            cs.append(c)
        x = out
    return _finish(x, unbatched, batch_first), _stack(hs, unbatched), _stack(cs, unbatched)


def _initial(hx, count, layers, n, widths, dtype, unbatched):
    if isinstance(hx, np.ndarray):
        hx = [hx]
    if not hx:
        return [np.zeros((layers, n, w), dtype) for w in widths][:count]
    if len(hx) != count:
        raise RuntimeError(f"expected {count} initial state tensors, got {len(hx)}")
    out = []
    for h, w in zip(hx, widths):
        h = h[:, None] if unbatched and h.ndim == 2 else h
        if h.shape != (layers, n, w):
            raise RuntimeError(f"Expected hidden size {(layers, n, w)}, got {tuple(h.shape)}")
        out.append(h.astype(dtype, copy=False))
    return out


def _finish(out, unbatched, batch_first):
    if unbatched:
        return out[0] if batch_first else out[:, 0]
    return out


def _stack(hs, unbatched):
    s = np.stack(hs)
    return s[:, 0] if unbatched else s


# ----------------------------------------------------------------------------- GRU, RNN


def _half_rz(w):
    """w with the r and z gate rows scaled by 1/2 (one pass)."""
    h = w.shape[0] // 3
    out = np.empty(w.shape, w.dtype)
    np.multiply(w[:2 * h], 0.5, out=out[:2 * h])
    out[2 * h:] = w[2 * h:]
    return out


def _gru_weights(w_ih, w_hh, b_ih, b_hh, contiguous):
    """(W_ih^T, W_hh^T, input bias, b_hn) with r and z scaled by 1/2 and b_hr, b_hz folded
    into the input bias."""
    h = w_hh.shape[0] // 3
    wi, wh = transposed(_half_rz(w_ih), contiguous), transposed(_half_rz(w_hh), contiguous)
    if b_ih is None:
        return wi, wh, None, None
    b = b_ih.copy()
    b[:2 * h] += b_hh[:2 * h]
    return wi, wh, _half_rz(b[:, None])[:, 0], b_hh[2 * h:].copy()


def _gru_direction(x, batch_first, weights, h0, out, col, reverse):
    wi, wh, b, b_hn = weights
    hid = wh.shape[1] // 3
    n = h0.shape[0]
    xw = flat_matmul(x, wi)
    if b is not None:
        xw += b
    hw = np.empty((n, 3 * hid), x.dtype)
    diff = np.empty((n, hid), x.dtype)
    rz, hn, r, z = hw[:, :2 * hid], hw[:, 2 * hid:], hw[:, :hid], hw[:, hid:2 * hid]
    steps = _steps(x, batch_first)
    xs = _step_views(xw, steps, batch_first, reverse)
    dsts = _step_views(out, steps, batch_first, reverse, slice(col, col + hid))
    gemv = np.dot if n == 1 else np.matmul
    mul, add, tanh, half = np.multiply, np.add, np.tanh, _half(x.dtype)
    h = h0
    for xt, dst in zip(xs, dsts):
        gemv(h, wh, out=hw)
        add(rz, xt[:, :2 * hid], out=rz)
        tanh(rz, out=rz)
        mul(rz, half, out=rz)
        add(rz, half, out=rz)
        if b_hn is not None:
            add(hn, b_hn, out=hn)
        mul(hn, r, out=hn)
        add(hn, xt[:, 2 * hid:], out=hn)
        tanh(hn, out=hn)
        np.subtract(h, hn, out=diff)
        mul(diff, z, out=diff)
        h = add(hn, diff, out=dst)
    return h


def _rnn_weights(w_ih, w_hh, b_ih, b_hh, contiguous):
    b = None if b_ih is None else b_ih + b_hh
    return transposed(w_ih, contiguous), transposed(w_hh, contiguous), b


def _rnn_direction(x, batch_first, weights, h0, out, col, reverse, act):
    wi, wh, b = weights
    xw = flat_matmul(x, wi)
    if b is not None:
        xw += b
    hid = wh.shape[1]
    steps = _steps(x, batch_first)
    xs = _step_views(xw, steps, batch_first, reverse)
    dsts = _step_views(out, steps, batch_first, reverse, slice(col, col + hid))
    h = h0
    for xt, dst in zip(xs, dsts):
        np.matmul(h, wh, out=dst)
        dst += xt
        h = act(dst, out=dst) if act is np.tanh else np.clip(dst, 0.0, np.inf, out=dst)
    return h


def _recurrent(kind):
    gates = {"gru": 3, "rnn_tanh": 1, "rnn_relu": 1}[kind]

    def kernel(x, hx, params, has_biases, num_layers, dropout, train, bidirectional,
               batch_first):
        dirs = 2 if bidirectional else 1
        per, _ = _check_params(params, has_biases, num_layers, dirs, kind)
        x, unbatched = _sequence(x, batch_first)
        n = x.shape[0] if batch_first else x.shape[1]
        hid = params[1].shape[0] // gates
        (h0,) = _initial(hx, 1, num_layers * dirs, n, (hid,), x.dtype, unbatched)
        hs = []
        for layer in range(num_layers):
            steps = _steps(x, batch_first)
            out = np.empty(((n, steps) if batch_first else (steps, n)) + (dirs * hid,),
                           x.dtype)
            for d in range(dirs):
                k = layer * dirs + d
                w_ih, w_hh, b_ih, b_hh, _ = _layer_params(params, has_biases, k, per, False)
                if kind == "gru":
                    weights = _weights("gru", (w_ih, w_hh, b_ih, b_hh), _gru_weights)
                    hs.append(_gru_direction(x, batch_first, weights, h0[k], out, d * hid,
                                             d == 1))
                else:
                    weights = _weights("rnn", (w_ih, w_hh, b_ih, b_hh), _rnn_weights)
                    act = np.tanh if kind == "rnn_tanh" else None
                    hs.append(_rnn_direction(x, batch_first, weights, h0[k], out, d * hid,
                                             d == 1, act))
            x = out
        return _finish(x, unbatched, batch_first), _stack(hs, unbatched)
    kernel.__doc__ = f"torch._VF.{kind}: (output, h_n); hx is h0 (or an empty tensor list)."
    return kernel


# ----------------------------------------------------------------------------- registration


def _rnn_info(gates, states):
    """Output and final-state types; widths come from w_hh, which is (gates * H, H or P)."""
    def info(args):
        x, layers, bidir, bf = args[0], args[4].const, args[7].const, args[8].const
        params = args[2].items
        unknown = (TensorInfo(x.dtype, None),) * (states + 1)
        if x.shape is None or len(x.shape) != 3 or params is None or len(params) < 2 or \
                not isinstance(layers, int) or not isinstance(bidir, bool) or \
                not isinstance(bf, bool) or params[1].shape is None:
            return unknown
        rows, width = params[1].shape
        hid = rows // gates if isinstance(rows, int) else None
        dirs = 2 if bidir else 1
        n, t = (x.shape[0], x.shape[1]) if bf else (x.shape[1], x.shape[0])
        feats = width * dirs if isinstance(width, int) else None
        out = TensorInfo(x.dtype, ((n, t) if bf else (t, n)) + (feats,))
        h = TensorInfo(x.dtype, (layers * dirs, n, width))
        c = TensorInfo(x.dtype, (layers * dirs, n, hid))
        return (out, h, c) if states == 2 else (out, h)
    return info


_VF = ("Tensor input, {hx}, Tensor[] params, bool has_biases, int num_layers, float dropout, "
       "bool train, bool bidirectional, bool batch_first")
reg("tensor.lstm", f"({_VF.format(hx='Tensor[] hx')}) -> Tuple[Tensor, Tensor, Tensor]", lstm,
    ("torch.lstm", "torch._VF.lstm"), _rnn_info(4, 2), may_raise=True)
for _kind, _gates in (("gru", 3), ("rnn_tanh", 1), ("rnn_relu", 1)):
    reg(f"tensor.{_kind}", f"({_VF.format(hx='Tensor hx')}) -> Tuple[Tensor, Tensor]",
        _recurrent(_kind), (f"torch.{_kind}", f"torch._VF.{_kind}"), _rnn_info(_gates, 1),
        may_raise=True)
    reg(f"tensor.{_kind}_nohx", f"({_VF.format(hx='Tensor[] hx')}) -> Tuple[Tensor, Tensor]",
        _recurrent(_kind), (f"torch.{_kind}", f"torch._VF.{_kind}"), _rnn_info(_gates, 1),
        may_raise=True, doc=f"torch._VF.{_kind} with hx given as a list ([] for zeros).")
