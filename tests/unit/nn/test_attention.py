"""MultiheadAttention against torch: layouts, masks, weights, bias, unbatched inputs."""

from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from ember import nn
from ember.errors import UnsupportedError

from .torch_ref import check_layer, randn, randomize

E, HEADS, L, S = 8, 2, 4, 5


def _qkv(batch, batch_first, self_attn=False):
    def make(n, seed):
        return randn(batch, n, E, seed=seed) if batch_first else randn(n, batch, E, seed=seed)
    q = make(L, batch)
    if self_attn:
        return (q, q, q)
    return (q, make(S, batch + 7), make(S, batch + 9))


def _padding(batch, kind):
    mask = np.zeros((batch, S), bool)
    mask[:, -1] = True
    mask[0, 1] = True
    return mask if kind == "bool" else np.where(mask, -1e4, 0.0).astype(np.float32)


def _attn_mask(kind, batch):
    rng = np.random.default_rng(5)
    if kind == "bool2d":
        m = rng.random((L, S)) < 0.3
        m[:, 0] = False  # every query keeps one key
        return m
    if kind == "float2d":
        return rng.standard_normal((L, S)).astype(np.float32)
    return rng.standard_normal((batch * HEADS, L, S)).astype(np.float32)


@pytest.mark.parametrize("batch_first", [False, True])
@pytest.mark.parametrize("need_weights,average", [(True, True), (True, False), (False, True)])
@pytest.mark.parametrize("bias", [True, False])
def test_mha_outputs_and_weights(batch_first, need_weights, average, bias):
    tm = randomize(torch.nn.MultiheadAttention(E, HEADS, bias=bias, batch_first=batch_first))
    layer = nn.MultiheadAttention(E, HEADS, bias=bias, batch_first=batch_first)
    kwargs = {"need_weights": need_weights, "average_attn_weights": average}
    check_layer(tm, layer, [_qkv(b, batch_first) for b in (1, 3)], kwargs,
                name="MultiheadAttention")


@pytest.mark.parametrize("pad", [None, "bool", "float"])
@pytest.mark.parametrize("mask", [None, "bool2d", "float2d", "float3d"])
@pytest.mark.parametrize("need_weights", [True, False])
def test_mha_masks(pad, mask, need_weights):
    tm = randomize(torch.nn.MultiheadAttention(E, HEADS, batch_first=True))
    layer = nn.MultiheadAttention(E, HEADS, batch_first=True)
    for b in (1, 3):
        kwargs = {"need_weights": need_weights}
        if pad is not None:
            kwargs["key_padding_mask"] = _padding(b, pad)
        if mask is not None:
            kwargs["attn_mask"] = _attn_mask(mask, b)
        if pad == "bool" and mask is not None and mask.startswith("float"):
            continue  # torch refuses mixing bool and float masks
        check_layer(tm, layer, [_qkv(b, True)], kwargs, name="MultiheadAttention")


def test_mha_self_attention_with_causal_hint():
    tm = randomize(torch.nn.MultiheadAttention(E, HEADS))
    causal = np.triu(np.ones((L, L), bool), k=1)
    for need in (False, True):
        check_layer(tm, nn.MultiheadAttention(E, HEADS), [_qkv(2, False, self_attn=True)],
                    {"attn_mask": causal, "is_causal": True, "need_weights": need},
                    name="MultiheadAttention")


@pytest.mark.parametrize("need_weights", [True, False])
def test_mha_unbatched(need_weights):
    tm = randomize(torch.nn.MultiheadAttention(E, HEADS, batch_first=True))
    q, k, v = (a[0] for a in _qkv(1, True))
    pad = np.array([False, False, True, False, False])
    check_layer(tm, nn.MultiheadAttention(E, HEADS, batch_first=True), [(q, k, v)],
                {"need_weights": need_weights, "key_padding_mask": pad},
                name="MultiheadAttention")


def test_mha_state_dict_matches_torch():
    ours = nn.MultiheadAttention(E, HEADS)
    theirs = torch.nn.MultiheadAttention(E, HEADS)
    assert list(ours.state_dict()) == list(theirs.state_dict())
    assert {k: v.shape for k, v in ours.state_dict().items()} == \
        {k: tuple(v.shape) for k, v in theirs.state_dict().items()}


def test_mha_errors():
    with pytest.raises(ValueError, match="divisible by num_heads"):
        nn.MultiheadAttention(6, 4)
    with pytest.raises(UnsupportedError, match="kdim=4"):
        nn.MultiheadAttention(E, HEADS, kdim=4)
    with pytest.raises(UnsupportedError, match="add_bias_kv"):
        nn.MultiheadAttention(E, HEADS, add_bias_kv=True)
    layer = nn.MultiheadAttention(E, HEADS)
    q, k, v = _qkv(2, False)
    with pytest.raises(RuntimeError, match="Need attn_mask"):
        layer(q, k, v, is_causal=True)
    with pytest.raises(RuntimeError, match="2D attn_mask is \\[4, 4\\], but should be"):
        layer(q, k, v, attn_mask=np.zeros((L, L), np.float32))
    with pytest.raises(RuntimeError, match="key_padding_mask"):
        layer(q, k, v, key_padding_mask=np.zeros((3, S), bool))
