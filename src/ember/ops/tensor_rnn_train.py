"""The LSTM's training pair: a forward that keeps what back-propagation through time
needs, and the backward that reads it instead of running the forward again.

    tensor.lstm_train(<tensor.lstm's operands>) -> (output, h_n, c_n, reserve)
    tensor.lstm_backward_saved(g_out, g_h, g_c, input, hx, params, reserve, has_biases,
                               num_layers, bidirectional, batch_first, input_grad)
        -> (d input, [d h0, d c0], [d params])

The derivative rule of tensor.lstm (ops/vjp_layers.py) turns the forward op into
lstm_train when its results are only read element-wise (autodiff/emit.py,
`Emitter.keep_forward`), as torch's reserve space does; otherwise tensor.lstm_backward
reruns the forward (ops/tensor_rnn_grad.py). `input_grad` False skips d input (an input
no one differentiates: a model's data), which is then an empty tensor.

Layout: time-major, gates as columns (G, N) so that every gate block is contiguous, in the
order (i, f, o, g) of the inference kernel (ops/tensor_rnn.py): one tanh over the gates
with i, f, o's rows pre-scaled by 1/2 gives tanh(g) and, after `* 0.5 + 0.5`, sigmoid.
The reserve is one flat array holding, per layer and direction in params' order,

    sv (T + 1, 5H, N)   step t: [i, f, o, g, c_{t-1}] after activation; sv[T, 4H:] = c_T
    tc (T, H, N)        tanh(c_t)
    hs (T + 1, H, N)    h_{t-1} (hs[0] = h0)
"""

from __future__ import annotations

import numpy as np

from ember.ops.tensor_common import reg
from ember.ops.tensor_rnn import (_check_params, _finish, _gates_ifog, _half, _initial,
                                  _layer_params, _rnn_info, _sequence, _stack, _weights)
from ember.ops.tensorinfo import TensorInfo


def _sizes(steps, n, hid):
    return ((steps + 1, 5 * hid, n), (steps, hid, n), (steps + 1, hid, n))


def _views(reserve, count, steps, n, hid):
    """[(sv, tc, hs)] per layer-direction, carved out of the flat reserve."""
    shapes = _sizes(steps, n, hid)
    per = sum(int(np.prod(s)) for s in shapes)
    if reserve.ndim != 1 or reserve.shape[0] != per * count:
        raise RuntimeError(f"lstm_backward_saved: the reserve has {reserve.size} elements, "
                           f"expected {per * count} (it is not this forward's)")
    out, at = [], 0
    for _ in range(count):
        views = []
        for s in shapes:
            size = int(np.prod(s))
            views.append(reserve[at:at + size].reshape(s))
            at += size
        out.append(tuple(views))
    return out


def _ifog_t(w_ih, w_hh, b_ih, b_hh, contiguous):
    """(W_ih with the bias as one more column (4H, F + 1), W_hh (4H, H)); gates i, f, o, g
    with i, f, o pre-scaled by 1/2."""
    dt = w_ih.dtype
    f = w_ih.shape[1]
    wb = np.empty((w_ih.shape[0], f + 1), dt)
    wb[:, :f] = w_ih
    wb[:, f] = 0 if b_ih is None else b_ih + b_hh
    return _gates_ifog(wb, dt), np.ascontiguousarray(_gates_ifog(w_hh, dt))


def _forward_direction(x, w, h0, c0, views, reverse):
    """One direction of one layer over time-major x (T, N, F); fills views, returns
    the hidden states (T, N, H) in time order."""
    w_ih, w_hh = w
    sv, tc, hs = views
    steps, n, feats = x.shape
    hid = h0.shape[1]
    xs = x[::-1] if reverse else x
    # the input projection and bias of every step as one batched GEMM, straight into the
    # gate rows of sv (a row of ones under x carries the bias)
    x1 = np.empty((steps, feats + 1, n), x.dtype)
    x1[:, :feats] = xs.transpose(0, 2, 1)
    x1[:, feats] = 1
    np.matmul(w_ih, x1, out=sv[:steps, :4 * hid])
    tmp = np.empty((4 * hid, n), x.dtype)
    sv[0, 4 * hid:] = c0.T
    hs[0] = h0.T
    prod = np.empty((2 * hid, n), x.dtype)
    p0, p1 = prod[:hid], prod[hid:]
    mul, add, tanh, matmul = np.multiply, np.add, np.tanh, np.matmul
    half = _half(x.dtype)
    for t in range(steps):
        buf = sv[t]
        gates, sig = buf[:4 * hid], buf[:3 * hid]
        matmul(w_hh, hs[t], out=tmp)
        add(gates, tmp, out=gates)
        tanh(gates, out=gates)
        mul(sig, half, out=sig)
        add(sig, half, out=sig)
        mul(buf[:2 * hid], buf[3 * hid:], out=prod)  # [i, f] * [g, c_prev]
        c = sv[t + 1, 4 * hid:]
        add(p0, p1, out=c)
        tanh(c, out=tc[t])
        mul(buf[2 * hid:3 * hid], tc[t], out=hs[t + 1])
    out = hs[1:].transpose(0, 2, 1)
    return out[::-1] if reverse else out


def lstm_train(x, hx, params, has_biases, num_layers, dropout, train, bidirectional,
               batch_first):
    """tensor.lstm's results and the reserve its backward reads."""
    dirs = 2 if bidirectional else 1
    per, proj = _check_params(params, has_biases, num_layers, dirs, "lstm")
    if proj:
        raise RuntimeError("lstm_train: LSTM projections (proj_size) are not supported")
    x, unbatched = _sequence(x, batch_first)
    xt = x.transpose(1, 0, 2) if batch_first else x
    steps, n = xt.shape[0], xt.shape[1]
    hid = params[1].shape[1]
    h0, c0 = _initial(hx, 2, num_layers * dirs, n, (hid, hid), x.dtype, unbatched)
    size = sum(int(np.prod(s)) for s in _sizes(steps, n, hid))
    reserve = np.empty(size * num_layers * dirs, x.dtype)
    views = _views(reserve, num_layers * dirs, steps, n, hid)
    hn, cn = [], []
    for layer in range(num_layers):
        outs = []
        for d in range(dirs):
            k = layer * dirs + d
            w_ih, w_hh, b_ih, b_hh, _ = _layer_params(params, has_biases, k, per, False)
            if xt.dtype != w_ih.dtype:
                raise RuntimeError(f"lstm: input dtype {xt.dtype} and weight dtype "
                                   f"{w_ih.dtype} differ")
            w = _weights("lstm_train", (w_ih, w_hh, b_ih, b_hh), _ifog_t)
            outs.append(_forward_direction(xt, w, h0[k], c0[k], views[k], d == 1))
            sv, _, hs = views[k]
            hn.append(hs[steps].T.copy())
            cn.append(sv[steps, 4 * hid:].T.copy())
        xt = np.concatenate(outs, axis=2) if dirs > 1 else outs[0]
    out = np.ascontiguousarray(xt.transpose(1, 0, 2) if batch_first else xt)
    return _finish(out, unbatched, batch_first), _stack(hn, unbatched), \
        _stack(cn, unbatched), reserve


# ----------------------------------------------------------------------------- backward


def _swap_go(a):
    """Gate rows (i, f, g, o) <-> (i, f, o, g) (torch's order and the kernels'), unscaled."""
    h = a.shape[0] // 4
    return np.concatenate([a[:2 * h], a[3 * h:], a[2 * h:3 * h]])


def _backward_direction(views, dys, dh, dc, w_hh_ifog_t):
    """d gates (4H, T * N) in (i, f, o, g) order, columns in processing order, given the
    output gradients dys (T, H, N) in processing order; dh and dc (H, N) are updated in
    place to d h0, d c0."""
    sv, tc, hs = views
    steps = tc.shape[0]
    hid = tc.shape[1]
    sig = sv[:steps, :3 * hid]
    sd = sig * (1 - sig)                         # s (1 - s) of i, f, o
    g = sv[:steps, 3 * hid:4 * hid]
    gd = 1 - g * g
    ot = 1 - tc * tc
    ot *= sv[:steps, 2 * hid:3 * hid]            # o (1 - tanh(c)^2)
    dg = np.empty((4 * hid, steps, tc.shape[2]), tc.dtype)  # step t: the (4H, N) dg[:, t]
    m = np.empty((3 * hid, tc.shape[2]), tc.dtype)
    tmp = np.empty_like(dh)
    mul, add, matmul = np.multiply, np.add, np.matmul
    for t in range(steps - 1, -1, -1):
        add(dh, dys[t], out=dh)
        mul(dh, ot[t], out=tmp)
        add(dc, tmp, out=dc)
        mul(dc, g[t], out=m[:hid])
        mul(dc, sv[t, 4 * hid:], out=m[hid:2 * hid])
        mul(dh, tc[t], out=m[2 * hid:])
        d = dg[:, t]
        mul(m, sd[t], out=d[:3 * hid])
        mul(dc, sv[t, :hid], out=d[3 * hid:])
        mul(d[3 * hid:], gd[t], out=d[3 * hid:])
        mul(dc, sv[t, hid:2 * hid], out=dc)
        matmul(w_hh_ifog_t, d, out=dh)
    return dg.reshape(4 * hid, -1)


def _time_major_grad(g, batch_first, unbatched):
    """An output gradient in time-major (T, N, F) layout (a view)."""
    if unbatched:
        return g[:, None] if g.ndim == 2 else g
    return g.transpose(1, 0, 2) if batch_first else g


def _state(g, shape, unbatched, dtype):
    g = g[:, None] if unbatched and g.ndim == 2 else g
    return np.array(np.broadcast_to(g, shape), dtype)


def _layer_inputs(x, views, num_layers, dirs):
    """Each layer's time-major input, rebuilt from the reserve's hidden states."""
    inputs = [x]
    for layer in range(num_layers - 1):
        outs = []
        for d in range(dirs):
            hs = views[layer * dirs + d][2][1:].transpose(0, 2, 1)
            outs.append(hs[::-1] if d else hs)
        inputs.append(np.concatenate(outs, axis=2) if dirs > 1 else np.ascontiguousarray(outs[0]))
    return inputs


def lstm_backward_saved(g_out, g_h, g_c, x, hx, params, reserve, has_biases, num_layers,
                        bidirectional, batch_first, input_grad):
    """(d input, [d h0, d c0] ([] without hx), d params) from lstm_train's reserve."""
    dirs = 2 if bidirectional else 1
    per, proj = _check_params(params, has_biases, num_layers, dirs, "lstm backward")
    if proj:
        raise RuntimeError("the gradient of an LSTM with projections (proj_size) is not "
                           "supported by ember yet")
    xs, unbatched = _sequence(x, batch_first)
    xt = xs.transpose(1, 0, 2) if batch_first else xs
    steps, n = xt.shape[0], xt.shape[1]
    hid = params[1].shape[1]
    count = num_layers * dirs
    views = _views(reserve, count, steps, n, hid)
    dt = x.dtype
    gy = _time_major_grad(np.asarray(g_out), batch_first and not unbatched, unbatched)
    dh0 = _state(np.asarray(g_h), (count, n, hid), unbatched, dt).transpose(0, 2, 1).copy()
    dc0 = _state(np.asarray(g_c), (count, n, hid), unbatched, dt).transpose(0, 2, 1).copy()
    inputs = _layer_inputs(xt, views, num_layers, dirs)
    dparams = [None] * len(params)
    dy = gy
    dx = None
    for layer in range(num_layers - 1, -1, -1):
        need_dx = layer > 0 or input_grad
        lx = inputs[layer]
        dx = np.zeros(lx.shape, dt) if need_dx else None
        for d in range(dirs):
            k = layer * dirs + d
            w_ih, w_hh, _, _, _ = _layer_params(params, has_biases, k, per, False)
            dys = dy[:, :, d * hid:(d + 1) * hid]
            dys = (dys[::-1] if d else dys).transpose(0, 2, 1)
            dgc = _backward_direction(views[k], dys, dh0[k], dc0[k],
                                      np.ascontiguousarray(_swap_go(w_hh).T))
            x2 = (lx[::-1] if d else lx).reshape(steps * n, -1)
            hs = views[k][2][:steps]
            h2 = np.ascontiguousarray(hs.transpose(0, 2, 1)).reshape(steps * n, hid)
            grads = [_swap_go(dgc @ x2), _swap_go(dgc @ h2)]
            if has_biases:
                db = _swap_go(dgc.sum(1))
                grads += [db, db.copy()]
            dparams[k * per:(k + 1) * per] = [gp.astype(params[k * per + i].dtype, copy=False)
                                              for i, gp in enumerate(grads)]
            if need_dx:
                dxs = (dgc.T @ _swap_go(w_ih)).reshape(steps, n, -1)
                dx += dxs[::-1] if d else dxs
        dy = dx
    states = [] if not hx else [_out_state(dh0, hx[0], unbatched),
                                _out_state(dc0, hx[1], unbatched)]
    return _input_grad(dx, x, batch_first, unbatched, input_grad), states, dparams


def _out_state(d, given, unbatched):
    d = d.transpose(0, 2, 1)
    return np.ascontiguousarray(d[:, 0] if unbatched else d).astype(given.dtype, copy=False)


def _input_grad(dx, x, batch_first, unbatched, wanted):
    if not wanted:
        return np.zeros(0, x.dtype)
    if unbatched:
        dx = dx[:, 0]
    elif batch_first:
        dx = dx.transpose(1, 0, 2)
    return np.ascontiguousarray(dx).astype(x.dtype, copy=False)


def _train_info(args):
    out, h, c = _rnn_info(4, 2)(args)
    return out, h, c, TensorInfo(args[0].dtype, None)


def _backward_info(args):
    x = args[3]
    return (TensorInfo(x.dtype, None), None, None)


_VF = ("Tensor input, Tensor[] hx, Tensor[] params, bool has_biases, int num_layers, "
       "float dropout, bool train, bool bidirectional, bool batch_first")
reg("tensor.lstm_train", f"({_VF}) -> Tuple[Tensor, Tensor, Tensor, Tensor]", lstm_train,
    shape=_train_info, may_raise=True)
reg("tensor.lstm_backward_saved",
    "(Tensor grad_output, Tensor grad_h, Tensor grad_c, Tensor input, Tensor[] hx, "
    "Tensor[] params, Tensor reserve, bool has_biases, int num_layers, bool bidirectional, "
    "bool batch_first, bool input_grad) -> Tuple[Tensor, Tensor[], Tensor[]]",
    lstm_backward_saved, shape=_backward_info, may_raise=True)
