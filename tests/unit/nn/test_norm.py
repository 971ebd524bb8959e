"""BatchNorm1d/2d/3d (inference), InstanceNorm3d, LayerNorm and GroupNorm against torch."""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")

from ember import nn

from .torch_ref import check_layer, randn, randomize


@pytest.mark.parametrize("cfg", [{}, {"eps": 1e-3}, {"affine": False},
                                 {"momentum": None}], ids=str)
@pytest.mark.parametrize("shape", [(6,), (6, 5)])
def test_batchnorm1d_running_stats(cfg, shape):
    tm = randomize(torch.nn.BatchNorm1d(6, **cfg))
    check_layer(tm, nn.BatchNorm1d(6, **cfg), [(randn(b, *shape, scale=2),) for b in (1, 4)])


@pytest.mark.parametrize("cfg", [{}, {"eps": 1e-2}, {"affine": False}], ids=str)
def test_batchnorm2d_running_stats(cfg):
    tm = randomize(torch.nn.BatchNorm2d(3, **cfg))
    check_layer(tm, nn.BatchNorm2d(3, **cfg), [(randn(b, 3, 4, 5, scale=2),) for b in (1, 4)])


@pytest.mark.parametrize("cfg", [{}, {"eps": 1e-2}, {"affine": False},
                                 {"track_running_stats": False}], ids=str)
def test_batchnorm3d(cfg):
    tm = randomize(torch.nn.BatchNorm3d(3, **cfg))
    check_layer(tm, nn.BatchNorm3d(3, **cfg), [(randn(b, 3, 2, 4, 5, scale=2),) for b in (1, 4)])


@pytest.mark.parametrize("cfg", [{}, {"eps": 1e-2, "affine": True},
                                 {"affine": True, "track_running_stats": True}], ids=str)
def test_instancenorm3d(cfg):
    tm = randomize(torch.nn.InstanceNorm3d(3, **cfg))
    layer = nn.InstanceNorm3d(3, **cfg)
    check_layer(tm, layer, [(randn(b, 3, 2, 4, 5, scale=2) + 1,) for b in (1, 4)])
    check_layer(tm, layer, [(randn(3, 2, 4, 5, scale=2),)])


def test_3d_norms_reject_wrong_ranks_like_torch():
    with pytest.raises(ValueError, match=r"expected 5D input \(got 4D input\)"):
        nn.BatchNorm3d(3)(randn(3, 2, 4, 5))
    with pytest.raises(ValueError, match=r"expected 4D or 5D input \(got 3D input\)"):
        nn.InstanceNorm3d(3)(randn(3, 4, 5))


def test_batchnorm_without_running_stats_uses_the_batch():
    tm = randomize(torch.nn.BatchNorm2d(3, track_running_stats=False))
    check_layer(tm, nn.BatchNorm2d(3, track_running_stats=False),
                [(randn(b, 3, 4, 5, scale=2),) for b in (1, 4)])
    tm = randomize(torch.nn.BatchNorm1d(3, track_running_stats=False, affine=False))
    check_layer(tm, nn.BatchNorm1d(3, track_running_stats=False, affine=False),
                [(randn(4, 3),), (randn(1, 3, 6),)])


def test_batchnorm_rejects_wrong_ranks_like_torch():
    with pytest.raises(ValueError, match="expected 2D or 3D input"):
        nn.BatchNorm1d(3)(randn(1, 3, 2, 2))
    with pytest.raises(ValueError, match="expected 4D input"):
        nn.BatchNorm2d(3)(randn(1, 3))


def test_batchnorm_state_dict_has_torch_keys():
    assert list(nn.BatchNorm2d(3).state_dict()) == list(torch.nn.BatchNorm2d(3).state_dict())


@pytest.mark.parametrize("cfg", [{"normalized_shape": 5}, {"normalized_shape": (4, 5)},
                                 {"normalized_shape": 5, "eps": 1e-2},
                                 {"normalized_shape": 5, "elementwise_affine": False},
                                 {"normalized_shape": 5, "bias": False}], ids=str)
def test_layernorm(cfg):
    tm = randomize(torch.nn.LayerNorm(**cfg))
    check_layer(tm, nn.LayerNorm(**cfg), [(randn(b, 4, 5, scale=3) + 1,) for b in (1, 3)])


def test_layernorm_shape_mismatch_is_an_error():
    with pytest.raises(RuntimeError, match="normalized_shape"):
        nn.LayerNorm(5)(randn(2, 4))


@pytest.mark.parametrize("groups", [1, 2, 6])
@pytest.mark.parametrize("affine", [True, False])
@pytest.mark.parametrize("shape", [(6, 4, 5), (6, 7)])
def test_groupnorm(groups, affine, shape):
    tm = randomize(torch.nn.GroupNorm(groups, 6, affine=affine))
    check_layer(tm, nn.GroupNorm(groups, 6, affine=affine),
                [(randn(b, *shape, scale=2),) for b in (1, 3)])


def test_groupnorm_errors():
    with pytest.raises(ValueError, match="divisible"):
        nn.GroupNorm(4, 6)
    with pytest.raises(RuntimeError, match="expected input of shape"):
        nn.GroupNorm(2, 6)(randn(1, 4, 3))
