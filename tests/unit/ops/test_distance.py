"""cosine_similarity, pairwise_distance and channel_shuffle against torch, with their shape
functions."""

from __future__ import annotations

import numpy as np
import pytest

from ember.ops import get
from ember.ops.registry import ShapeMismatch
from tests.unit.ops.util import arg_info, run, same, to_torch

torch = pytest.importorskip("torch")
F = torch.nn.functional
pytestmark = pytest.mark.filterwarnings("error::RuntimeWarning")
RNG = np.random.default_rng(14)


def rand(*shape):
    return RNG.standard_normal(shape).astype(np.float32)


@pytest.mark.parametrize("sa,sb,dim", [((4, 5), (4, 5), 1), ((4, 5, 3), (1, 5, 3), 0),
                                       ((2, 3, 4), (4,), -1), ((6,), (6,), 0)])
def test_cosine_similarity(sa, sb, dim):
    a, b = rand(*sa), rand(*sb)
    a.reshape(-1)[:sa[-1]] = 0.0  # a zero vector: the norm is clamped to eps
    same(run("tensor.cosine_similarity", a, b, dim, 1e-8),
         F.cosine_similarity(to_torch(a), to_torch(b), dim), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("p", [2.0, 1.0, 3.0, float("inf"), 0.0])
@pytest.mark.parametrize("keepdim", [False, True])
def test_pairwise_distance(p, keepdim):
    a, b = rand(3, 4, 6), rand(4, 6)
    same(run("tensor.pairwise_distance", a, b, p, 1e-6, keepdim),
         F.pairwise_distance(to_torch(a), to_torch(b), p, 1e-6, keepdim), rtol=1e-5, atol=1e-6)


def test_distance_errors():
    with pytest.raises(RuntimeError, match="must match the size"):
        run("tensor.cosine_similarity", rand(3, 4), rand(3, 5), 1, 1e-8)
    with pytest.raises(ShapeMismatch, match="cannot broadcast"):
        get("tensor.pairwise_distance").shape_fn(
            [arg_info(v) for v in (rand(3, 4), rand(3, 5), 2.0, 1e-6, False)])


@pytest.mark.parametrize("shape,groups", [((2, 12, 3, 4), 3), ((2, 6, 5), 2), ((1, 4, 1, 1), 4)])
def test_channel_shuffle(shape, groups):
    x = rand(*shape)
    same(run("tensor.channel_shuffle", x, groups), F.channel_shuffle(to_torch(x), groups))


def test_channel_shuffle_errors():
    with pytest.raises(RuntimeError, match="divisible by groups"):
        run("tensor.channel_shuffle", rand(1, 6, 2, 2), 4)
    with pytest.raises(ShapeMismatch, match="groups"):
        get("tensor.channel_shuffle").shape_fn([arg_info(rand(1, 6, 2, 2)), arg_info(4)])
