"""Multi-head attention in a training step keeps its forward's q, k, v, weights and context
(tensor.multi_head_attention_train) for the backward (..._backward_saved): the same
results as the forward, and the gradients of the backward that reruns it."""

import numpy as np
import pytest

from ember.ops import tensor_attention as A
from ember.ops import tensor_attention_grad as AG

L, S, N, E, H = 5, 6, 3, 8, 2


def _args(rng, separate, masks, self_attn, unbatched, dtype):
    q = rng.standard_normal((L, N, E)).astype(dtype)
    k = q if self_attn else rng.standard_normal((S, N, E)).astype(dtype)
    v = k if self_attn else rng.standard_normal((S, N, E)).astype(dtype)
    lk = k.shape[0]
    if unbatched:
        q, k, v = q[:, 0], k[:, 0], v[:, 0]
    w = rng.standard_normal((3 * E, E)).astype(dtype) * 0.3
    b = rng.standard_normal(3 * E).astype(dtype) * 0.1
    ow, ob = rng.standard_normal((E, E)).astype(dtype) * 0.3, rng.standard_normal(E).astype(dtype)
    sep = [rng.standard_normal((E, E)).astype(dtype) * 0.3 for _ in range(3)] if separate \
        else [None] * 3
    am = rng.standard_normal((L, lk)).astype(dtype) if masks else None
    kpm = None
    if masks and not unbatched:
        kpm = np.zeros((N, lk), bool)
        kpm[0, -1] = True
    return q, k, v, (None if separate else w), b, ow, ob, sep, am, kpm


@pytest.mark.parametrize("separate,masks,self_attn,unbatched,need", [
    (False, False, True, False, False), (False, True, False, False, True),
    (True, True, False, False, False), (False, False, True, True, True),
    (True, False, False, True, False)])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_saved_forward_gives_the_recomputed_gradients(separate, masks, self_attn, unbatched,
                                                      need, dtype):
    rng = np.random.default_rng(7)
    q, k, v, w, b, ow, ob, sep, am, kpm = _args(rng, separate, masks, self_attn, unbatched,
                                                dtype)
    fargs = (q, k, v, E, H, w, b, None, None, False, 0.0, ow, ob, True, kpm, need, am,
             separate, *sep, None, None, True, False)
    out, weights = A.mha_forward(*fargs)
    out2, weights2, saved = AG.mha_train(*fargs)
    np.testing.assert_allclose(out2, out, rtol=1e-5 if dtype == np.float32 else 1e-12)
    assert (weights is None) == (weights2 is None)
    g = rng.standard_normal(out.shape).astype(dtype)
    gw = rng.standard_normal(weights.shape).astype(dtype) if need else None
    bargs = (q, k, v, H, w, b, ow, ob, kpm, need, am, separate, *sep, True, False)
    want = AG.mha_backward(g, gw, *bargs)
    got = AG.mha_backward_saved(g, gw, saved, *bargs)
    tol = 1e-5 if dtype == np.float32 else 1e-12
    for a, e in zip(got, want):
        assert a.shape == e.shape and a.dtype == e.dtype
        np.testing.assert_allclose(a, e, rtol=tol, atol=tol)


def test_a_reserve_of_another_forward_is_refused():
    rng = np.random.default_rng(1)
    q, k, v, w, b, ow, ob, sep, am, kpm = _args(rng, False, False, True, False, np.float64)
    bargs = (q, k, v, H, w, b, ow, ob, None, False, None, False, None, None, None, True, False)
    with pytest.raises(RuntimeError, match="not this forward's"):
        AG.mha_backward_saved(np.ones((L, N, E)), None, np.zeros(7), *bargs)
