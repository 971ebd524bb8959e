"""Upsample's interpolation modes against torch, eagerly and scripted."""

from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch")

import ember
from ember import nn

from .torch_ref import check_layer, randn


@pytest.mark.parametrize("kwargs,shape", [
    ({"scale_factor": (1.7, 2.3), "mode": "nearest-exact"}, (3, 5, 4)),
    ({"size": 7, "mode": "nearest-exact"}, (3, 4)),
    ({"scale_factor": 2.5, "mode": "bicubic"}, (3, 4, 5)),
    ({"scale_factor": 1.3, "mode": "bicubic", "align_corners": True}, (3, 4, 5)),
    ({"size": (3, 9), "mode": "bicubic", "recompute_scale_factor": None}, (3, 6, 4)),
    ({"scale_factor": 0.7, "mode": "bicubic", "recompute_scale_factor": True}, (3, 6, 7)),
    ({"scale_factor": (1.5, 2.0, 0.7), "mode": "trilinear"}, (2, 4, 3, 6)),
    ({"size": (2, 5, 3), "mode": "trilinear", "align_corners": True}, (2, 4, 3, 6)),
    ({"size": (3, 5), "mode": "area"}, (3, 7, 8)),
    ({"scale_factor": 0.6, "mode": "area"}, (3, 9)),
    ({"size": (2, 3, 4), "mode": "area"}, (2, 5, 6, 7)),
    ({"scale_factor": (2.0, 1.5, 1.2)}, (2, 3, 4, 5)),
], ids=str)
def test_upsample_modes(kwargs, shape):
    tm = torch.nn.Upsample(**kwargs)
    layer = nn.Upsample(**kwargs)
    inputs = [(randn(b, *shape),) for b in (1, 3)]
    check_layer(tm, layer, inputs, name=f"Upsample-{kwargs.get('mode', 'nearest')}")
    scripted = ember.script(layer)
    for (x,) in inputs:
        np.testing.assert_array_equal(scripted(x), layer(x))
