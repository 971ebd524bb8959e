"""Derivative rules of the fused layer operators (recurrent layers, multi-head attention),
checked in float64 against torch.autograd and central finite differences."""

import numpy as np
import pytest

import ember
import ember.optim

torch = pytest.importorskip("torch")
F = torch.nn.functional
Tensor = torch.Tensor

rng = np.random.default_rng(0)


def W(*shape):
    return rng.standard_normal(shape) * 0.5


def fd_grad(fn, args, i, h=1e-6):
    base = [np.array(a, dtype=np.float64) for a in args]
    out = np.zeros_like(base[i])
    it = np.nditer(base[i], flags=["multi_index"])
    for _ in it:
        idx = it.multi_index
        a = [b.copy() for b in base]
        a[i][idx] += h
        hi = float(fn(*[torch.tensor(x) for x in a]))
        a[i][idx] -= 2 * h
        lo = float(fn(*[torch.tensor(x) for x in a]))
        out[idx] = (hi - lo) / (2 * h)
    return out


def check(fn, args, fd=(0,)):
    """ember's gradient of fn w.r.t. every argument vs torch.autograd (all of them) and
    finite differences (the arguments `fd`)."""
    nums = tuple(range(len(args)))
    g = ember.grad(fn, argnums=nums)(*args)
    tx = [torch.tensor(a, requires_grad=True) for a in args]
    fn(*tx).backward()
    for k in nums:
        np.testing.assert_allclose(g[k], tx[k].grad.numpy(), rtol=1e-7, atol=1e-10,
                                   err_msg=f"argument {k}")
    for k in fd:
        np.testing.assert_allclose(g[k], fd_grad(fn, args, k), rtol=1e-5, atol=1e-6,
                                   err_msg=f"argument {k} (finite differences)")


H, FT, N, T = 5, 3, 2, 4


# ----------------------------------------------------------------------------- recurrent


def lstm_bidir_2layers(x: Tensor, w0: Tensor, u0: Tensor, b0: Tensor, c0_: Tensor,
                       w1: Tensor, u1: Tensor, b1: Tensor, c1_: Tensor, w2: Tensor, u2: Tensor,
                       b2: Tensor, c2_: Tensor, w3: Tensor, u3: Tensor, b3: Tensor, c3_: Tensor,
                       h0: Tensor, c0: Tensor) -> Tensor:
    out, h, c = torch.lstm(x, [h0, c0], [w0, u0, b0, c0_, w1, u1, b1, c1_, w2, u2, b2, c2_,
                                         w3, u3, b3, c3_], True, 2, 0.0, False, True, True)
    return (out * out).sum() + (h * c).sum() + c.sum()


def test_lstm_bidirectional_two_layers_batch_first():
    args = [W(N, T, FT)]
    for layer in range(2):
        for _ in range(2):
            width = FT if layer == 0 else 2 * H
            args += [W(4 * H, width), W(4 * H, H), W(4 * H), W(4 * H)]
    args += [W(4, N, H), W(4, N, H)]
    check(lstm_bidir_2layers, args, fd=(0, 2, 17, 18))


def lstm_no_bias(x: Tensor, w: Tensor, u: Tensor) -> Tensor:
    z = torch.zeros([1, x.size(1), u.size(1)], dtype=x.dtype)
    out, h, c = torch.lstm(x, [z, z], [w, u], False, 1, 0.0, False, False, False)
    return (out * torch.tanh(out)).mean() + h.sum()


def test_lstm_without_biases():
    check(lstm_no_bias, [W(T, N, FT), W(4 * H, FT), W(4 * H, H)], fd=(0, 1, 2))


def lstm_in_loop(x: Tensor, w: Tensor, u: Tensor, b: Tensor, c: Tensor) -> Tensor:
    h0 = torch.zeros([1, x.size(1), u.size(1)], dtype=x.dtype)
    total = torch.zeros([1], dtype=x.dtype)
    for k in range(3):
        out, h, cn = torch.lstm(x * (k + 1.0), [h0, h0], [w, u, b, c], True, 1, 0.0, False,
                                False, False)
        h0 = torch.tanh(h)
        total = total + (out * out).sum() + cn.sum()
    return total.sum()


def test_lstm_gradient_keeps_the_forwards_gates():
    # the forward becomes tensor.lstm_train, whose reserve the backward reads: the forward
    # runs once (no tensor.lstm left, no tensor.lstm_backward rerunning it)
    g = ember.grad(lstm_no_bias, argnums=(0, 1, 2))
    text = g.graph
    assert "tensor.lstm_train " in text and "tensor.lstm_backward_saved " in text
    assert "tensor.lstm " not in text and "tensor.lstm_backward " not in text
    # inside a loop the reverse sweep recomputes the body, with its own reserve
    args = [W(T, N, FT), W(4 * H, FT), W(4 * H, H), W(4 * H), W(4 * H)]
    check(lstm_in_loop, args, fd=(0, 1))
    assert "tensor.lstm_backward " not in ember.grad(lstm_in_loop, argnums=(1,)).graph


def test_lstm_gradient_without_the_inputs():
    # argnums leaving x out: the backward skips d input (input_grad false)
    args = [W(N, T, FT)]
    for width in (FT, FT, 2 * H, 2 * H):
        args += [W(4 * H, width), W(4 * H, H), W(4 * H), W(4 * H)]
    args += [W(4, N, H), W(4, N, H)]
    nums = tuple(range(1, len(args)))
    g = ember.grad(lstm_bidir_2layers, argnums=nums)
    assert "tensor.lstm_backward_saved " in g.graph
    got = g(*args)
    tx = [torch.tensor(a, requires_grad=True) for a in args]
    lstm_bidir_2layers(*tx).backward()
    for k in nums:
        np.testing.assert_allclose(got[k - 1], tx[k].grad.numpy(), rtol=1e-7, atol=1e-10)


@pytest.mark.parametrize("layers,bidir,batch_first,given,bias,unbatched", [
    (1, False, True, False, True, False), (2, True, False, True, True, False),
    (2, False, True, True, False, False), (1, True, True, True, True, True),
    (2, True, False, False, False, True)])
def test_lstm_training_kernels_against_torch(layers, bidir, batch_first, given, bias,
                                             unbatched):
    from ember.ops import tensor_rnn, tensor_rnn_train as tr
    torch.manual_seed(1)
    m = torch.nn.LSTM(FT, H, num_layers=layers, bidirectional=bidir, batch_first=batch_first,
                      bias=bias).double()
    params = [p.detach().numpy().copy() for p in m._flat_weights]
    d = 2 if bidir else 1
    x = W(T, FT) if unbatched else W(N, T, FT) if batch_first else W(T, N, FT)
    state = (layers * d, H) if unbatched else (layers * d, N, H)
    hx = [W(*state), W(*state)] if given else []
    flags = (bias, layers, bidir, batch_first)
    out, hn, cn, reserve = tr.lstm_train(x, hx, params, bias, layers, 0.0, True, bidir,
                                         batch_first)
    for a, b in zip((out, hn, cn), tensor_rnn.lstm(x, hx, params, bias, layers, 0.0, True,
                                                    bidir, batch_first)):
        np.testing.assert_allclose(a, b, rtol=1e-13, atol=1e-14)
    gs = [W(*out.shape), W(*hn.shape), W(*cn.shape)]
    dx, dstates, dparams = tr.lstm_backward_saved(*gs, x, hx, params, reserve, *flags, True)
    tx = torch.tensor(x, requires_grad=True)
    th = tuple(torch.tensor(h, requires_grad=True) for h in hx) or None
    o, (h, c) = m(tx, th)
    torch.autograd.backward([o, h, c], [torch.tensor(v) for v in gs])
    np.testing.assert_allclose(dx, tx.grad.numpy(), rtol=1e-10, atol=1e-12)
    for a, p in zip(dparams, m._flat_weights):
        np.testing.assert_allclose(a, p.grad.numpy(), rtol=1e-10, atol=1e-12)
    for a, t in zip(dstates, th or ()):
        np.testing.assert_allclose(a, t.grad.numpy(), rtol=1e-10, atol=1e-12)
    assert tr.lstm_backward_saved(*gs, x, hx, params, reserve, *flags, False)[0].size == 0
    with pytest.raises(RuntimeError, match="reserve"):
        tr.lstm_backward_saved(*gs, x, hx, params, reserve[1:], *flags, True)


def gru_bidir(x: Tensor, w0: Tensor, u0: Tensor, b0: Tensor, c0_: Tensor, w1: Tensor,
              u1: Tensor, b1: Tensor, c1_: Tensor, h0: Tensor) -> Tensor:
    out, h = torch.gru(x, h0, [w0, u0, b0, c0_, w1, u1, b1, c1_], True, 1, 0.0, False, True,
                       False)
    return (out * out).sum() + (h * h).sum()


def test_gru_bidirectional():
    args = [W(T, N, FT)] + [W(3 * H, FT), W(3 * H, H), W(3 * H), W(3 * H)] * 2 + [W(2, N, H)]
    args = [np.array(a) for a in args]
    check(gru_bidir, args, fd=(0, 2, 4, 9))


def rnn_tanh_2layers(x: Tensor, w0: Tensor, u0: Tensor, w1: Tensor, u1: Tensor,
                     h0: Tensor) -> Tensor:
    out, h = torch.rnn_tanh(x, h0, [w0, u0, w1, u1], False, 2, 0.0, False, False, False)
    return (out * out).sum() + (h * h).sum()


def rnn_relu_batch_first(x: Tensor, w: Tensor, u: Tensor, b: Tensor, c: Tensor,
                         h0: Tensor) -> Tensor:
    out, h = torch.rnn_relu(x, h0, [w, u, b, c], True, 1, 0.0, False, False, True)
    return (out * out).sum() + (h * h).sum()


def test_elman_rnns():
    check(rnn_tanh_2layers, [W(T, N, FT), W(H, FT), W(H, H), W(H, H), W(H, H), W(2, N, H)],
          fd=(0, 1, 4, 5))
    check(rnn_relu_batch_first, [W(N, T, FT), W(H, FT), W(H, H), W(H), W(H), W(1, N, H)],
          fd=(0, 2, 5))


def test_nn_layers_unbatched_and_with_given_states():
    # through ember.nn's LSTM / GRU modules (torch's), unbatched input and given states
    torch.manual_seed(0)
    lstm = torch.nn.LSTM(FT, H, batch_first=True).double()
    gru = torch.nn.GRU(FT, H).double()

    class Both(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.lstm, self.gru = lstm, gru

        def forward(self, x, h0, c0):
            a, (h, c) = self.lstm(x, (h0, c0))
            b, g = self.gru(x, h0)
            return (a * b).sum() + (h * c).sum() + g.sum()

    m = Both()
    step = ember.train_step(_Wrap(m), torch.nn.MSELoss(), ember.optim.SGD(1.0))
    x, h0, c0 = W(T, FT), W(1, H), W(1, H)
    loss = step((x, h0, c0), np.zeros(()))
    want = (m(torch.tensor(x), torch.tensor(h0), torch.tensor(c0))) ** 2
    want.backward()
    assert loss == pytest.approx(want.item(), rel=1e-12)
    sd = step.state_dict()
    for k, p in m.named_parameters():
        np.testing.assert_allclose(sd["m." + k], (p - p.grad).detach().numpy(), rtol=0, atol=1e-12,
                                   err_msg=k)


class _Wrap(torch.nn.Module):
    def __init__(self, m):
        super().__init__()
        self.m = m

    def forward(self, x: Tensor, h0: Tensor, c0: Tensor) -> Tensor:
        return self.m(x, h0, c0)


# ----------------------------------------------------------------------------- attention


def mha_self(x: Tensor, w: Tensor, b: Tensor, ow: Tensor, ob: Tensor, mask: Tensor,
             pad: Tensor) -> Tensor:
    out, _ = F.multi_head_attention_forward(x, x, x, 6, 2, w, b, None, None, False, 0.0, ow,
                                            ob, False, pad, False, mask)
    return (out * out).sum()


def test_self_attention_with_float_masks():
    # both masks float (added to the scores): they get gradients too
    check(mha_self, [W(4, 3, 6), W(18, 6), W(18), W(6, 6), W(6), W(4, 4), W(3, 4)],
          fd=(0, 2, 5, 6))


def mha_cross(q: Tensor, kv: Tensor, w: Tensor, b: Tensor, ow: Tensor, ob: Tensor) -> Tensor:
    out, weights = F.multi_head_attention_forward(q, kv, kv, 4, 2, w, b, None, None, False,
                                                  0.0, ow, ob, False, None, True, None,
                                                  is_causal=False)
    return (out * torch.sin(out)).sum()


def mha_separate(q: Tensor, k: Tensor, v: Tensor, wq: Tensor, wk: Tensor, wv: Tensor,
                 ow: Tensor) -> Tensor:
    out, _ = F.multi_head_attention_forward(q, k, v, 4, 4, None, None, None, None, False, 0.0,
                                            ow, None, False, None, False, None, True, wq, wk,
                                            wv)
    return (out * out).sum()


def mha_unbatched_causal(x: Tensor, w: Tensor, b: Tensor, ow: Tensor, ob: Tensor) -> Tensor:
    mask = torch.triu(torch.ones(5, 5), 1) > 0.0
    out, _ = F.multi_head_attention_forward(x, x, x, 4, 2, w, b, None, None, False, 0.0, ow,
                                            ob, False, None, False, mask)
    return (out * out).sum()


def test_cross_separate_and_unbatched_attention():
    check(mha_cross, [W(3, 2, 4), W(5, 2, 4), W(12, 4), W(12), W(4, 4), W(4)], fd=(0, 1, 3))
    check(mha_separate, [W(3, 2, 4), W(5, 2, 4), W(5, 2, 4), W(4, 4), W(4, 4), W(4, 4),
                         W(4, 4)], fd=(0, 2, 4))
    check(mha_unbatched_causal, [W(5, 4), W(12, 4), W(12), W(4, 4), W(4)], fd=(0, 1))


def mha_weights_used(x: Tensor, w: Tensor, ow: Tensor) -> Tensor:
    out, weights = F.multi_head_attention_forward(x, x, x, 4, 2, w, None, None, None, False,
                                                  0.0, ow, None, False, None, True, None)
    assert weights is not None
    return out.sum() + (weights * weights).sum() * 3.0


def mha_weights_per_head(x: Tensor, w: Tensor, ow: Tensor) -> Tensor:
    out, weights = F.multi_head_attention_forward(x, x, x, 4, 2, w, None, None, None, False,
                                                  0.0, ow, None, False, None, True, None,
                                                  average_attn_weights=False)
    assert weights is not None
    return (out * out).sum() + (weights * torch.cos(weights)).sum()


def test_gradients_through_the_attention_weights():
    check(mha_weights_used, [W(3, 2, 4), W(12, 4), W(4, 4)], fd=(0, 1))
    check(mha_weights_per_head, [W(3, 2, 4), W(12, 4), W(4, 4)], fd=(1,))


def mha_weights_maybe(x: Tensor, w: Tensor, ow: Tensor, need: bool) -> Tensor:
    out, weights = F.multi_head_attention_forward(x, x, x, 4, 2, w, None, None, None, False,
                                                  0.0, ow, None, False, None, need, None)
    r = out.sum()
    if weights is not None:
        r = r + weights.sum()
    return r


def mha_dropout(x: Tensor, w: Tensor, ow: Tensor) -> Tensor:
    out, _ = F.multi_head_attention_forward(x, x, x, 4, 2, w, None, None, None, False, 0.1,
                                            ow, None, True, None, False, None)
    return out.sum()


def test_attention_refusals_name_the_op():
    args = [W(3, 2, 4), W(12, 4), W(4, 4)]
    with pytest.raises(ember.errors.UnsupportedError, match="attention weights"):
        ember.grad(mha_weights_maybe, argnums=1)(*args, True)
    with pytest.raises(ember.errors.UnsupportedError, match="attention dropout") as ei:
        ember.grad(mha_dropout, argnums=1)(*args)
    assert "multi_head_attention" in str(ei.value) and "^" in str(ei.value)
