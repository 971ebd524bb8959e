"""Activation layers against torch (no weights: the same layers on the same inputs)."""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")

from ember import nn

from .torch_ref import check_layer, randn

CASES = [
    ("ReLU", (), {}), ("ReLU6", (), {}), ("LeakyReLU", (), {}), ("LeakyReLU", (0.2,), {}),
    ("ELU", (), {}), ("ELU", (0.5,), {}), ("GELU", (), {}), ("GELU", (), {"approximate": "tanh"}),
    ("SiLU", (), {}), ("Sigmoid", (), {}), ("Tanh", (), {}), ("Hardswish", (), {}),
    ("Hardsigmoid", (), {}), ("Hardtanh", (), {}), ("Hardtanh", (-2.0, 3.0), {}),
    ("Softplus", (), {}), ("Softplus", (2.0, 5.0), {}), ("Softmax", (1,), {}),
    ("Softmax", (-1,), {}), ("LogSoftmax", (1,), {}), ("LogSoftmax", (), {"dim": -1}),
    ("ReLU", (), {"inplace": True}), ("PReLU", (), {}), ("PReLU", (5,), {"init": 0.1}),
    ("SELU", (), {}), ("CELU", (), {}), ("CELU", (0.5,), {}), ("Mish", (), {}),
    ("Threshold", (0.3, -2.0), {}), ("LogSigmoid", (), {}), ("Softsign", (), {}),
    ("Tanhshrink", (), {}), ("Hardshrink", (), {}), ("Hardshrink", (1.5,), {}),
    ("Softshrink", (), {}), ("Softshrink", (2.0,), {}), ("Softmin", (1,), {}),
    ("Softmin", (), {"dim": -1}), ("Softmax2d", (), {}),
]


@pytest.mark.parametrize("name,args,kwargs", CASES, ids=lambda v: str(v))
def test_activation_matches_torch(name, args, kwargs):
    tm = getattr(torch.nn, name)(*args, **kwargs)
    layer = getattr(nn, name)(*args, **kwargs)
    # scale 4 reaches the saturating and thresholded regions (softplus, hardtanh, relu6)
    check_layer(tm, layer, [(randn(b, 5, 7, scale=4),) for b in (1, 4)], name=name)


@pytest.mark.parametrize("name", ["Softmax", "LogSoftmax", "Softmin"])
@pytest.mark.parametrize("shape", [(6,), (3, 6), (2, 3, 6), (2, 3, 4, 5)])
def test_softmax_implicit_dim_follows_torch(name, shape, recwarn):
    check_layer(getattr(torch.nn, name)(), getattr(nn, name)(), [(randn(*shape),)], name=name)


def test_gelu_rejects_unknown_approximation():
    with pytest.raises(ValueError, match="none or tanh"):
        nn.GELU("sigmoid")


@pytest.mark.parametrize("dim", [-1, 0, 1])
def test_glu_matches_torch(dim):
    check_layer(torch.nn.GLU(dim), nn.GLU(dim), [(randn(b, 4, 6),) for b in (2, 4)], name="GLU")


def test_softmax2d_needs_3d_or_4d_input():
    with pytest.raises(ValueError, match="expected input to be 3D or 4D"):
        nn.Softmax2d()(randn(2, 3))
