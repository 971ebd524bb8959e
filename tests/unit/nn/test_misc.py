"""Identity, Dropout, Flatten, Unflatten and Embedding against torch."""

from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from ember import nn
from ember.errors import UnsupportedError

from .torch_ref import check_layer, randn, randomize


@pytest.mark.parametrize("name,args", [("Identity", ()), ("Identity", (3, "x")),
                                       ("Dropout", ()), ("Dropout", (0.3,)),
                                       ("Flatten", ()), ("Flatten", (0,)), ("Flatten", (1, -2)),
                                       ("Flatten", (2, 3)), ("Unflatten", (1, (2, -1))),
                                       ("Unflatten", (-1, (3, 2))),
                                       ("Unflatten", (2, (1, 4, 1)))], ids=str)
def test_shape_layers(name, args):
    tm = getattr(torch.nn, name)(*args)
    check_layer(tm, getattr(nn, name)(*args), [(randn(b, 6, 4, 6),) for b in (1, 3)],
                name=name)


def test_dropout_validates_p():
    with pytest.raises(ValueError, match="between 0 and 1"):
        nn.Dropout(1.5)


@pytest.mark.parametrize("padding_idx", [None, 0, -1])
@pytest.mark.parametrize("shape", [(7,), (3, 7)])
def test_embedding(padding_idx, shape):
    tm = randomize(torch.nn.Embedding(10, 4, padding_idx=padding_idx))
    idx = np.random.default_rng(0).integers(0, 10, size=shape)
    check_layer(tm, nn.Embedding(10, 4, padding_idx=padding_idx), [(idx,), (idx[..., :1],)])
    if padding_idx is not None:
        assert (nn.Embedding(10, 4, padding_idx=padding_idx).weight[padding_idx] == 0).all()


def test_embedding_max_norm_is_unsupported():
    with pytest.raises(UnsupportedError, match="max_norm"):
        nn.Embedding(10, 4, max_norm=1.0)
