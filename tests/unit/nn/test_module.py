"""ember.nn.Module state handling the layers rely on (no torch needed)."""

from __future__ import annotations

import copy

import numpy as np
import pytest

from ember import nn


class _Affine(nn.Module):
    def __init__(self, bias: bool):
        super().__init__()
        self.weight = np.zeros((2, 3), np.float32)
        self.register_parameter("bias", np.zeros(2, np.float32) if bias else None)

    def forward(self, x):
        return x @ self.weight.T if self.bias is None else x @ self.weight.T + self.bias


def test_state_dict_round_trip_skips_absent_tensors():
    layer = _Affine(bias=False)
    assert list(layer.state_dict()) == ["weight"]
    layer.load_state_dict({"weight": np.ones((2, 3))})
    assert layer.weight.dtype == np.float32 and (layer.weight == 1).all()
    assert layer.bias is None
    with pytest.raises(KeyError, match="unexpected \\['bias'\\]"):
        layer.load_state_dict({"weight": np.ones((2, 3)), "bias": np.ones(2)})


def test_load_state_dict_checks_shapes_and_names():
    layer = _Affine(bias=True)
    with pytest.raises(ValueError, match="'weight' has shape"):
        layer.load_state_dict({"weight": np.ones((3, 2)), "bias": np.ones(2)})
    with pytest.raises(KeyError, match="missing \\['bias'\\]"):
        layer.load_state_dict({"weight": np.ones((2, 3))})
    layer.load_state_dict({"weight": np.ones((2, 3))}, strict=False)
    assert (layer.weight == 1).all()


def test_deepcopy_gives_independent_modules():
    a = nn.Sequential(_Affine(bias=True))
    b = copy.deepcopy(a)
    b[0].weight[...] = 1
    assert (a[0].weight == 0).all()
    assert (b(np.ones((1, 3), np.float32)) == 3).all()
