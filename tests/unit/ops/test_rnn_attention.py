"""LSTM/GRU/RNN (torch._VF signatures) and attention against torch's modules."""

from __future__ import annotations

import numpy as np
import pytest

from ember import ops
from ember.ops import tensor_common
from tests.unit.ops.util import run, same, to_torch

torch = pytest.importorskip("torch")
F = torch.nn.functional
pytestmark = [pytest.mark.filterwarnings("error::RuntimeWarning"),
              pytest.mark.filterwarnings("ignore::UserWarning")]  # torch notes
RNG = np.random.default_rng(5)


def rand(*shape):
    return RNG.standard_normal(shape).astype(np.float32)


def flat_weights(m):
    return [w.detach().numpy().copy() for w in m._flat_weights]


RNN_CASES = [
    # layers, bidirectional, batch_first, bias, with initial state, proj_size
    (1, False, True, True, False, 0),
    (2, False, False, True, True, 0),
    (2, True, True, True, True, 0),
    (1, True, False, False, False, 0),
    (2, True, True, True, True, 3),
]


@pytest.mark.parametrize("layers,bidir,batch_first,bias,init,proj", RNN_CASES)
def test_lstm(layers, bidir, batch_first, bias, init, proj):
    torch.manual_seed(0)
    m = torch.nn.LSTM(6, 5, layers, bias=bias, batch_first=batch_first, bidirectional=bidir,
                      proj_size=proj)
    x = rand(3, 4, 6)
    dirs = 2 if bidir else 1
    hx = [rand(layers * dirs, 3 if batch_first else 4, proj or 5),
          rand(layers * dirs, 3 if batch_first else 4, 5)] if init else []
    with torch.no_grad():
        want = m(to_torch(x), tuple(to_torch(hx)) if init else None)
    got = run("tensor.lstm", x, hx, flat_weights(m), bias, layers, 0.0, False, bidir,
              batch_first)
    same(got, (want[0], want[1][0], want[1][1]), rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("kind", ["gru", "rnn_tanh", "rnn_relu"])
@pytest.mark.parametrize("layers,bidir,batch_first,bias,init,proj", RNN_CASES[:4])
def test_gru_and_rnn(kind, layers, bidir, batch_first, bias, init, proj):
    torch.manual_seed(1)
    if kind == "gru":
        m = torch.nn.GRU(6, 5, layers, bias=bias, batch_first=batch_first,
                         bidirectional=bidir)
    else:
        m = torch.nn.RNN(6, 5, layers, nonlinearity=kind[4:], bias=bias,
                         batch_first=batch_first, bidirectional=bidir)
    x = rand(3, 4, 6)
    dirs = 2 if bidir else 1
    h0 = rand(layers * dirs, 3 if batch_first else 4, 5)
    with torch.no_grad():
        want = m(to_torch(x), to_torch(h0) if init else None)
    if init:
        got = run(f"tensor.{kind}", x, h0, flat_weights(m), bias, layers, 0.0, False, bidir,
                  batch_first)
    else:
        got = run(f"tensor.{kind}_nohx", x, [], flat_weights(m), bias, layers, 0.0, False,
                  bidir, batch_first)
    same(got, want, rtol=1e-5, atol=1e-5)


def test_unbatched_lstm_and_frozen_weight_cache():
    torch.manual_seed(2)
    m = torch.nn.LSTM(4, 3)
    x = rand(5, 4)
    with torch.no_grad():
        want = m(to_torch(x))
    weights = []
    for w in flat_weights(m):  # read-only arrays over bytes, as an artifact loads them
        weights.append(np.frombuffer(w.tobytes(), np.float32).reshape(w.shape))
    assert all(tensor_common.frozen(w) for w in weights)
    for _ in range(2):  # the second call uses the cached, rearranged weights
        got = run("tensor.lstm", x, [], weights, True, 1, 0.0, False, False, False)
        same(got, (want[0], want[1][0], want[1][1]), atol=1e-6)
    assert not tensor_common.frozen(x)


@pytest.mark.parametrize("mask", [None, "bool", "float", "causal"])
def test_sdpa(mask):
    q, k, v = rand(2, 3, 5, 8), rand(2, 3, 7, 8), rand(2, 3, 7, 4)
    m = None
    if mask == "bool":
        m = RNG.random((5, 7)) > 0.3
        m[:, 0] = True
    elif mask == "float":
        m = rand(2, 1, 5, 7)
    causal = mask == "causal"
    if causal:
        k, v = k[:, :, :5].copy(), v[:, :, :5].copy()
    want = F.scaled_dot_product_attention(to_torch(q), to_torch(k), to_torch(v), to_torch(m),
                                          is_causal=causal)
    same(run("tensor.sdpa", q, k, v, m, 0.0, causal, None, False), want, atol=1e-5)
    want = F.scaled_dot_product_attention(to_torch(q), to_torch(k), to_torch(v), to_torch(m),
                                          is_causal=causal, scale=0.3)
    same(run("tensor.sdpa", q, k, v, m, 0.0, causal, 0.3, False), want, atol=1e-5)


def test_sdpa_gqa():
    q, k, v = rand(1, 4, 3, 8), rand(1, 2, 3, 8), rand(1, 2, 3, 8)
    want = F.scaled_dot_product_attention(to_torch(q), to_torch(k), to_torch(v),
                                          enable_gqa=True)
    same(run("tensor.sdpa", q, k, v, None, 0.0, False, None, True), want, atol=1e-5)


@pytest.mark.parametrize("same_qkv", [True, False])
@pytest.mark.parametrize("masks", [False, True])
@pytest.mark.parametrize("need_weights", [False, True])
def test_multi_head_attention_forward(same_qkv, masks, need_weights):
    torch.manual_seed(3)
    mha = torch.nn.MultiheadAttention(8, 2).eval()
    q = rand(5, 3, 8)
    kv = q if same_qkv else rand(6, 3, 8)
    lk = kv.shape[0]
    attn_mask = rand(5, lk) if masks else None
    kpm = None
    if masks:
        kpm = RNG.random((3, lk)) > 0.7
        kpm[:, 0] = False
    with torch.no_grad():
        tq = to_torch(q)
        tkv = tq if same_qkv else to_torch(kv)
        want = mha(tq, tkv, tkv, key_padding_mask=to_torch(kpm), attn_mask=to_torch(attn_mask),
                   need_weights=need_weights)
    w = [p.detach().numpy() for p in (mha.in_proj_weight, mha.in_proj_bias,
                                      mha.out_proj.weight, mha.out_proj.bias)]
    got = run("tensor.multi_head_attention", q, kv, kv, 8, 2, w[0], w[1], None, None, False,
              0.0, w[2], w[3], False, kpm, need_weights, attn_mask, False, None, None, None,
              None, None, True, False)
    assert got[1] is None if not need_weights else got[1] is not None
    same(got[0], want[0], atol=1e-5)
    if need_weights:
        same(got[1], want[1], atol=1e-6)


@pytest.mark.parametrize("unbatched", [False, True])
@pytest.mark.parametrize("masks", [False, True])
@pytest.mark.parametrize("bias,freeze", [(True, False), (True, True), (False, True)])
def test_one_sequence_self_attention(unbatched, masks, bias, freeze):
    """Batch 1 (or unbatched) self-attention takes the per-head projection path."""
    torch.manual_seed(7)
    mha = torch.nn.MultiheadAttention(8, 2, bias=bias).eval()
    q = rand(5, 8) if unbatched else rand(5, 1, 8)
    attn_mask = rand(5, 5) if masks else None
    kpm = None
    if masks:
        kpm = np.array([False, True, False, False, True])
        kpm = kpm if unbatched else kpm[None]
    with torch.no_grad():
        tq = to_torch(q)
        want = mha(tq, tq, tq, key_padding_mask=to_torch(kpm), attn_mask=to_torch(attn_mask),
                   average_attn_weights=False)
    w = [None if p is None else p.detach().numpy()
         for p in (mha.in_proj_weight, mha.in_proj_bias, mha.out_proj.weight, mha.out_proj.bias)]
    w = [_frozen(a) if freeze and a is not None else a for a in w]
    kernel = ops.get("tensor.multi_head_attention").kernel  # `run` would copy q apart
    for _ in range(2):  # frozen weights: the second call takes the cached head weights
        got = kernel(q, q, q, 8, 2, w[0], w[1], None, None, False, 0.0, w[2], w[3], False, kpm,
                     True, attn_mask, False, None, None, None, None, None, False, False)
        same(got[0], want[0], atol=1e-5)
        same(got[1], want[1], atol=1e-6)


def _frozen(a):
    """a as weights loaded from an artifact are: read-only views of immutable bytes."""
    return np.frombuffer(np.ascontiguousarray(a).tobytes(), a.dtype).reshape(a.shape)


@pytest.mark.parametrize("kind", ["gru", "rnn_tanh"])
def test_frozen_recurrent_weights_match_unfrozen(kind):
    torch.manual_seed(4)
    m = (torch.nn.GRU if kind == "gru" else torch.nn.RNN)(6, 5, 2, batch_first=True)
    x = rand(3, 4, 6)
    with torch.no_grad():
        want = m(to_torch(x))
    weights = [_frozen(w) for w in flat_weights(m)]
    assert all(tensor_common.frozen(w) for w in weights)
    for _ in range(2):  # the second call takes the cached contiguous transposes
        got = run(f"tensor.{kind}_nohx", x, [], weights, True, 2, 0.0, False, False, True)
        same(got, want, atol=1e-5)


def test_frozen_mha_cross_attention_projects_with_cached_blocks():
    torch.manual_seed(6)
    mha = torch.nn.MultiheadAttention(8, 2).eval()
    q, kv = rand(5, 3, 8), rand(6, 3, 8)
    w = [_frozen(p.detach().numpy()) for p in (mha.in_proj_weight, mha.in_proj_bias,
                                               mha.out_proj.weight, mha.out_proj.bias)]
    for key in (kv, rand(6, 3, 8)):  # cross attention (key is value), then three tensors
        with torch.no_grad():
            want = mha(to_torch(q), to_torch(key), to_torch(kv), need_weights=False)
        for _ in range(2):
            got = run("tensor.multi_head_attention", q, key, kv, 8, 2, w[0], w[1], None, None,
                      False, 0.0, w[2], w[3], False, None, False, None, False, None, None,
                      None, None, None, True, False)
            same(got[0], want[0], atol=1e-5)


def test_frozen_linear_weight_transpose_is_cached_and_exact():
    from ember.ops.tensor_linalg import linear
    w, b = rand(7, 5), rand(7)
    fw = _frozen(w)
    for x in (rand(4, 5), rand(2, 3, 5), rand(5), rand(1, 5)):
        want = x @ w.T + b
        for _ in range(2):
            got = linear(x, fw, b)
            assert got.shape == want.shape and got.dtype == np.float32
            np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-6)
