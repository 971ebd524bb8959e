"""Backward kernels of the recurrent operators (tensor.lstm, gru, rnn_tanh, rnn_relu):
back-propagation through time, for the derivative rules of ops/vjp_tensor.py.

Each kernel reruns the forward in time-major layout, keeping per step what the reverse
needs (the gate activations, the previous states), then walks the steps backwards. The
gradients of a layer's weights are one GEMM each over all steps; the gradient of a
layer's input is the upstream gradient of the layer below (a bidirectional layer's two
directions add theirs). Gates are computed as torch's cells do: plain sigmoid / tanh of
`x W_ih^T + b_ih + h W_hh^T + b_hh` (GRU: `n = tanh(W_in x + b_in + r * (W_hn h + b_hn))`).

    tensor.lstm_backward(g_out, g_h, g_c, input, hx, params, ...) -> (d input, [d h0, d c0],
                                                                       [d params])
    tensor.rnn_backward(mode, g_out, g_h, input, hx, params, ...) -> (d input, d h0,
                                                                      [d params])

A missing initial state (hx = []) gets no gradient ([] or a 0-element tensor). LSTM
projections (proj_size) and dropout between layers are refused by the rules.
"""

from __future__ import annotations

import numpy as np

from ember.ops.tensor_common import arr, reg
from ember.ops.tensorinfo import TensorInfo

_GATES = {"lstm": 4, "gru": 3, "rnn_tanh": 1, "rnn_relu": 1}


def _sigmoid(x):
    out = np.negative(x)
    np.exp(out, out=out)
    out += 1
    return np.reciprocal(out, out=out)


# ----------------------------------------------------------------------------- cells


def _lstm_forward(xw, h0, c0, w_hh, b_hh):
    """Steps of one LSTM direction; xw = x W_ih^T + b_ih (T, N, 4H). Returns (hs, cache)."""
    steps, n, _ = xw.shape
    hid = h0.shape[1]
    acts = np.empty((steps, n, 4 * hid), xw.dtype)  # i, f, g, o after their activations
    cs = np.empty((steps + 1, n, hid), xw.dtype)
    hs = np.empty((steps + 1, n, hid), xw.dtype)
    cs[0], hs[0] = c0, h0
    wt = w_hh.T
    for t in range(steps):
        gates = hs[t] @ wt
        gates += xw[t]
        if b_hh is not None:
            gates += b_hh
        a = acts[t]
        a[:, :2 * hid] = _sigmoid(gates[:, :2 * hid])
        a[:, 2 * hid:3 * hid] = np.tanh(gates[:, 2 * hid:3 * hid])
        a[:, 3 * hid:] = _sigmoid(gates[:, 3 * hid:])
        i, f, g, o = a[:, :hid], a[:, hid:2 * hid], a[:, 2 * hid:3 * hid], a[:, 3 * hid:]
        cs[t + 1] = f * cs[t] + i * g
        hs[t + 1] = o * np.tanh(cs[t + 1])
    return hs, (acts, cs)


def _lstm_backward(cache, hs, dhs, dh, dc, w_hh):
    """(d gates (T, N, 4H) for both the input and hidden products, dh0, dc0)."""
    acts, cs = cache
    steps, n, four = acts.shape
    hid = four // 4
    dg = np.empty_like(acts)
    for t in range(steps - 1, -1, -1):
        a = acts[t]
        i, f, g, o = a[:, :hid], a[:, hid:2 * hid], a[:, 2 * hid:3 * hid], a[:, 3 * hid:]
        dh = dh + dhs[t]
        tc = np.tanh(cs[t + 1])
        dc = dc + dh * o * (1 - tc * tc)
        d = dg[t]
        d[:, :hid] = dc * g * i * (1 - i)
        d[:, hid:2 * hid] = dc * cs[t] * f * (1 - f)
        d[:, 2 * hid:3 * hid] = dc * i * (1 - g * g)
        d[:, 3 * hid:] = dh * tc * o * (1 - o)
        dc = dc * f
        dh = d @ w_hh
    return dg, dg, dh, dc


def _gru_forward(xw, h0, w_hh, b_hh):
    steps, n, _ = xw.shape
    hid = h0.shape[1]
    acts = np.empty((steps, n, 3 * hid), xw.dtype)  # r, z, n
    hns = np.empty((steps, n, hid), xw.dtype)  # W_hn h + b_hn
    hs = np.empty((steps + 1, n, hid), xw.dtype)
    hs[0] = h0
    wt = w_hh.T
    for t in range(steps):
        hw = hs[t] @ wt
        if b_hh is not None:
            hw += b_hh
        a = acts[t]
        a[:, :2 * hid] = _sigmoid(xw[t, :, :2 * hid] + hw[:, :2 * hid])
        hns[t] = hw[:, 2 * hid:]
        a[:, 2 * hid:] = np.tanh(xw[t, :, 2 * hid:] + a[:, :hid] * hns[t])
        z, nn = a[:, hid:2 * hid], a[:, 2 * hid:]
        hs[t + 1] = (1 - z) * nn + z * hs[t]
    return hs, (acts, hns)


def _gru_backward(cache, hs, dhs, dh, dc, w_hh):
    acts, hns = cache
    steps, n, three = acts.shape
    hid = three // 3
    gi = np.empty_like(acts)
    gh = np.empty_like(acts)
    for t in range(steps - 1, -1, -1):
        a = acts[t]
        r, z, nn = a[:, :hid], a[:, hid:2 * hid], a[:, 2 * hid:]
        dh = dh + dhs[t]
        dn = dh * (1 - z) * (1 - nn * nn)
        gi[t, :, 2 * hid:] = dn
        gh[t, :, 2 * hid:] = dn * r
        gi[t, :, :hid] = dn * hns[t] * r * (1 - r)
        gi[t, :, hid:2 * hid] = dh * (hs[t] - nn) * z * (1 - z)
        gh[t, :, :2 * hid] = gi[t, :, :2 * hid]
        dh = dh * z + gh[t] @ w_hh
    return gi, gh, dh, None


def _elman_forward(relu):
    def forward(xw, h0, w_hh, b_hh):
        steps = xw.shape[0]
        hs = np.empty((steps + 1,) + h0.shape, xw.dtype)
        hs[0] = h0
        wt = w_hh.T
        for t in range(steps):
            pre = hs[t] @ wt
            pre += xw[t]
            if b_hh is not None:
                pre += b_hh
            hs[t + 1] = np.maximum(pre, 0) if relu else np.tanh(pre)
        return hs, None
    return forward


def _elman_backward(relu):
    def backward(cache, hs, dhs, dh, dc, w_hh):
        steps = dhs.shape[0]
        dg = np.empty_like(dhs)
        for t in range(steps - 1, -1, -1):
            dh = dh + dhs[t]
            h = hs[t + 1]
            dg[t] = dh * (h > 0) if relu else dh * (1 - h * h)
            dh = dg[t] @ w_hh
        return dg, dg, dh, None
    return backward


_CELLS = {
    "gru": (_gru_forward, _gru_backward),
    "rnn_tanh": (_elman_forward(False), _elman_backward(False)),
    "rnn_relu": (_elman_forward(True), _elman_backward(True)),
}


# ----------------------------------------------------------------------------- layers


def _params(params, has_biases, k):
    per = 4 if has_biases else 2
    p = params[k * per:(k + 1) * per]
    return p[0], p[1], (p[2] if has_biases else None), (p[3] if has_biases else None)


def _forward_all(mode, x, h0, c0, params, has_biases, layers, dirs):
    """Run every layer and direction keeping their caches: [(layer input, [(hs, cache)])]."""
    run = []
    for layer in range(layers):
        outs, dirs_run = [], []
        for d in range(dirs):
            k = layer * dirs + d
            w_ih, w_hh, b_ih, b_hh = _params(params, has_biases, k)
            xs = x[::-1] if d else x
            xw = xs @ w_ih.T
            if b_ih is not None:
                xw += b_ih
            if mode == "lstm":
                hs, cache = _lstm_forward(xw, h0[k], c0[k], w_hh, b_hh)
            else:
                hs, cache = _CELLS[mode][0](xw, h0[k], w_hh, b_hh)
            dirs_run.append((hs, cache))
            outs.append(hs[1:][::-1] if d else hs[1:])
        run.append((x, dirs_run))
        x = np.concatenate(outs, axis=2) if dirs > 1 else outs[0]
    return run


def _backward_all(mode, run, g_out, g_h, g_c, params, has_biases, dirs):
    """(d input, d h0 (L*D, N, H), d c0 or None, d params in params' order)."""
    dparams = [None] * len(params)
    layers = len(run)
    n, hid = run[0][1][0][0].shape[1:]
    dh0 = np.zeros((layers * dirs, n, hid), g_out.dtype)
    dc0 = np.zeros_like(dh0) if mode == "lstm" else None
    back = _lstm_backward if mode == "lstm" else _CELLS[mode][1]
    per = 4 if has_biases else 2
    dy = g_out
    for layer in range(layers - 1, -1, -1):
        x, dirs_run = run[layer]
        dx = np.zeros(x.shape, g_out.dtype)
        for d in range(dirs):
            k = layer * dirs + d
            w_ih, w_hh, _, _ = _params(params, has_biases, k)
            hs, cache = dirs_run[d]
            dys = dy[:, :, d * hid:(d + 1) * hid]
            xs = x[::-1] if d else x
            dys = dys[::-1] if d else dys
            dc = g_c[k] if g_c is not None else None
            gi, gh, dh, dc = back(cache, hs, dys, g_h[k], dc, w_hh)
            dh0[k] = dh
            if dc0 is not None:
                dc0[k] = dc
            steps_n = gi.shape[0] * gi.shape[1]
            gi2, gh2 = gi.reshape(steps_n, -1), gh.reshape(steps_n, -1)
            grads = [gi2.T @ xs.reshape(steps_n, -1), gh2.T @ hs[:-1].reshape(steps_n, -1)]
            if has_biases:
                grads += [gi2.sum(0), gh2.sum(0)]
            dparams[k * per:(k + 1) * per] = grads
            dxs = gi @ w_ih
            dx += dxs[::-1] if d else dxs
        dy = dx
    return dy, dh0, dc0, dparams


def _prepare(x, hx, params, has_biases, num_layers, bidirectional, batch_first, states):
    """(time-major x, initial states, unbatched, dirs) with torch's checks."""
    from ember.ops.tensor_rnn import _check_params, _initial, _sequence
    dirs = 2 if bidirectional else 1
    per, proj = _check_params(params, has_biases, num_layers, dirs, "rnn backward")
    if proj:
        raise RuntimeError("the gradient of an LSTM with projections (proj_size) is not "
                           "supported by ember yet")
    x, unbatched = _sequence(x, batch_first)
    if batch_first:
        x = x.transpose(1, 0, 2)
    n = x.shape[1]
    hid = params[1].shape[1]
    init = _initial(hx, states, num_layers * dirs, n, (hid,) * states, x.dtype, unbatched)
    return x, init, unbatched, dirs


def _grad_in(g, like_batch_first, unbatched):
    """An output gradient (as the forward returned it) in time-major (T, N, F) layout."""
    g = arr(g)
    if unbatched:
        g = g[:, None] if g.ndim == 2 else g
        return g
    return g.transpose(1, 0, 2) if like_batch_first else g


def _state_grad(g, shape, unbatched):
    g = arr(g)
    return g[:, None] if unbatched and g.ndim == 2 else np.broadcast_to(g, shape)


def _input_grad(dx, x, batch_first, unbatched):
    if batch_first:
        dx = dx.transpose(1, 0, 2)
    if unbatched:
        dx = dx[0] if batch_first else dx[:, 0]
    return np.ascontiguousarray(dx).astype(x.dtype, copy=False)


def _out_state(d, given, unbatched):
    return np.ascontiguousarray(d[:, 0] if unbatched else d).astype(given.dtype, copy=False)


def lstm_backward(g_out, g_h, g_c, x, hx, params, has_biases, num_layers, bidirectional,
                  batch_first):
    """(d input, [d h0, d c0] ([] without hx), d params) of tensor.lstm."""
    xt, (h0, c0), unbatched, dirs = _prepare(x, hx, params, has_biases, num_layers,
                                              bidirectional, batch_first, 2)
    run = _forward_all("lstm", xt, h0, c0, params, has_biases, num_layers, dirs)
    gy = _grad_in(g_out, batch_first and not unbatched, unbatched)
    dx, dh0, dc0, dp = _backward_all("lstm", run, gy, _state_grad(g_h, h0.shape, unbatched),
                                     _state_grad(g_c, c0.shape, unbatched), params,
                                     has_biases, dirs)
    states = [] if not hx else [_out_state(dh0, hx[0], unbatched),
                                _out_state(dc0, hx[1], unbatched)]
    return (_input_grad(dx, x, batch_first and not unbatched, unbatched), states,
            [p.astype(w.dtype, copy=False) for p, w in zip(dp, params)])


def rnn_backward(mode, g_out, g_h, x, hx, params, has_biases, num_layers, bidirectional,
                 batch_first):
    """(d input, d h0 (0 elements without hx), d params) of tensor.gru / rnn_tanh /
    rnn_relu (mode); hx is a tensor or a list of at most one."""
    if mode not in _CELLS:
        raise RuntimeError(f"rnn_backward: unknown mode {mode!r}")
    if isinstance(hx, list):
        given = hx[0] if hx else None
    else:
        given = hx
    xt, (h0,), unbatched, dirs = _prepare(x, [] if given is None else [given], params,
                                          has_biases, num_layers, bidirectional,
                                          batch_first, 1)
    run = _forward_all(mode, xt, h0, None, params, has_biases, num_layers, dirs)
    gy = _grad_in(g_out, batch_first and not unbatched, unbatched)
    dx, dh0, _, dp = _backward_all(mode, run, gy, _state_grad(g_h, h0.shape, unbatched), None,
                                   params, has_biases, dirs)
    dh = np.zeros(0, x.dtype) if given is None else _out_state(dh0, given, unbatched)
    return (_input_grad(dx, x, batch_first and not unbatched, unbatched), dh,
            [p.astype(w.dtype, copy=False) for p, w in zip(dp, params)])


def _lstm_info(args):
    x = args[3]
    return (TensorInfo(x.dtype, x.shape), None, None)


def _rnn_info(args):
    x = args[3]
    return (TensorInfo(x.dtype, x.shape), TensorInfo(x.dtype, None), None)


_TAIL = "Tensor[] params, bool has_biases, int num_layers, bool bidirectional, bool batch_first"
reg("tensor.lstm_backward",
    f"(Tensor grad_output, Tensor grad_h, Tensor grad_c, Tensor input, Tensor[] hx, {_TAIL}) "
    "-> Tuple[Tensor, Tensor[], Tensor[]]", lstm_backward, shape=_lstm_info, may_raise=True)
reg("tensor.rnn_backward",
    f"(str mode, Tensor grad_output, Tensor grad_h, Tensor input, Any hx, {_TAIL}) "
    "-> Tuple[Tensor, Tensor, Tensor[]]", rnn_backward, shape=_rnn_info, may_raise=True)
