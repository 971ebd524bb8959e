"""Pooling layers, Fold and Unfold against torch."""

from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch")

import ember
from ember import nn

from .torch_ref import check_layer, randn


def _check(name, args, kwargs, shape):
    tm = getattr(torch.nn, name)(*args, **kwargs)
    layer = getattr(nn, name)(*args, **kwargs)
    check_layer(tm, layer, [(randn(b, *shape, scale=2),) for b in (1, 3)], name=name)
    check_layer(tm, layer, [(randn(*shape, scale=2),)], name=name)  # unbatched


@pytest.mark.parametrize("args,kwargs", [((3,), {}), ((3, 2, 1), {}), ((2,), {"stride": 1}),
                                         ((3,), {"dilation": 2, "padding": 1}),
                                         ((3, 2), {"ceil_mode": True})], ids=str)
def test_maxpool1d(args, kwargs):
    _check("MaxPool1d", args, kwargs, (4, 11))


@pytest.mark.parametrize("args,kwargs", [((2,), {}), ((3, 2, 1), {}),
                                         (((3, 2), (2, 1), (1, 0)), {}),
                                         ((3,), {"dilation": (2, 1)}),
                                         ((3, 2), {"ceil_mode": True}),
                                         ((3, 2, 1), {"ceil_mode": True})], ids=str)
def test_maxpool2d(args, kwargs):
    _check("MaxPool2d", args, kwargs, (4, 9, 8))


@pytest.mark.parametrize("args,kwargs", [((3,), {}), ((3, 2, 1), {}),
                                         ((3, 2, 1), {"count_include_pad": False}),
                                         ((2,), {"ceil_mode": True})], ids=str)
def test_avgpool1d(args, kwargs):
    _check("AvgPool1d", args, kwargs, (4, 11))


@pytest.mark.parametrize("args,kwargs", [((2,), {}), ((3, 2, 1), {}),
                                         ((3, 2, 1), {"count_include_pad": False}),
                                         (((3, 2), (1, 2), (1, 0)), {}),
                                         ((3,), {"divisor_override": 5, "padding": 1}),
                                         ((3, 2, 1), {"ceil_mode": True}),
                                         ((3, 2, 1), {"ceil_mode": True,
                                                      "divisor_override": 4}),
                                         ((2,), {"ceil_mode": True,
                                                 "count_include_pad": False})],
                         ids=str)
def test_avgpool2d(args, kwargs):
    _check("AvgPool2d", args, kwargs, (4, 9, 8))


@pytest.mark.parametrize("size", [1, 4, 3, 11, 16])
def test_adaptive_avgpool1d(size):
    _check("AdaptiveAvgPool1d", (size,), {}, (4, 11))


@pytest.mark.parametrize("size", [1, (3, 4), (None, 2), 5, (9, None), (12, 3)], ids=str)
def test_adaptive_avgpool2d(size):
    _check("AdaptiveAvgPool2d", (size,), {}, (4, 9, 8))


@pytest.mark.parametrize("name,args,kwargs,shape", [
    ("MaxPool1d", (3, 2, 1), {"dilation": 2}, (4, 11)),
    ("MaxPool1d", (3, 2), {"ceil_mode": True}, (4, 11)),
    ("MaxPool2d", ((3, 2), (2, 1), (1, 0)), {}, (4, 9, 8)),
    ("MaxPool2d", (3, 2, 1), {"dilation": (2, 1), "ceil_mode": True}, (4, 9, 8)),
    ("MaxPool3d", (3, 2, 1), {}, (3, 7, 6, 5)),
    ("MaxPool3d", ((2, 3, 2), (1, 2, 2)), {"ceil_mode": True}, (3, 7, 6, 5)),
    ("AdaptiveMaxPool1d", (4,), {}, (4, 11)),
    ("AdaptiveMaxPool2d", ((3, None),), {}, (4, 9, 8)),
    ("AdaptiveMaxPool2d", (5,), {}, (4, 9, 8)),
    ("AdaptiveMaxPool3d", ((2, 3, 4),), {}, (3, 7, 6, 5)),
], ids=str)
def test_max_pools_return_indices(name, args, kwargs, shape):
    tm = getattr(torch.nn, name)(*args, return_indices=True, **kwargs)
    layer = getattr(nn, name)(*args, return_indices=True, **kwargs)
    inputs = [(randn(b, *shape, scale=2),) for b in (1, 3)] + [(randn(*shape, scale=2),)]
    check_layer(tm, layer, inputs, name=f"{name}-indices")
    scripted = ember.script(layer)
    for (x,) in inputs:
        values, indices = scripted(x)
        ref_values, ref_indices = tm(torch.from_numpy(x))
        assert indices.dtype == np.int64
        np.testing.assert_array_equal(values, ref_values.numpy())
        np.testing.assert_array_equal(indices, ref_indices.numpy())


@pytest.mark.parametrize("n,args,shape", [(1, (3, 2, 1), (4, 11)), (1, (2,), (4, 10)),
                                          (2, ((3, 2), (2, 1), (1, 0)), (4, 9, 8)),
                                          (2, (2,), (4, 8, 6)), (3, (3, 2, 1), (3, 7, 6, 5)),
                                          (3, (2, (1, 2, 2)), (3, 4, 6, 6))], ids=str)
def test_max_unpool(n, args, shape):
    pool = getattr(torch.nn, f"MaxPool{n}d")(*args, return_indices=True)
    tm = getattr(torch.nn, f"MaxUnpool{n}d")(*args)
    layer = getattr(nn, f"MaxUnpool{n}d")(*args)
    for x in [randn(b, *shape, scale=2) for b in (1, 3)] + [randn(*shape, scale=2)]:
        v, i = (t.numpy() for t in pool(torch.from_numpy(x)))
        check_layer(tm, layer, [(v, i)], kwargs={"output_size": list(x.shape[-n:])},
                    name=f"MaxUnpool{n}d")
        scripted = ember.script(layer)
        np.testing.assert_array_equal(scripted(v, i, list(x.shape[-n:])),
                                      layer(v, i, list(x.shape[-n:])))


def test_max_pool_without_indices_still_returns_a_tensor():
    x = randn(2, 3, 6, 6)
    for layer in (nn.MaxPool2d(2), nn.AdaptiveMaxPool2d(3)):
        assert isinstance(layer(x), np.ndarray)
        assert isinstance(ember.script(layer)(x), np.ndarray)


def test_unsupported_pool_options_are_named():
    with pytest.raises(ValueError, match="divisor must be not zero"):
        nn.AvgPool3d(2, divisor_override=0)
    with pytest.raises(ValueError, match="pad should be at most half"):
        nn.MaxPool2d(2, padding=2)


@pytest.mark.parametrize("args,kwargs", [((2,), {}), ((3, 2, 1), {}),
                                         (((3, 2, 1), (2, 1, 1), (1, 0, 0)), {}),
                                         ((3,), {"dilation": (2, 1, 1)}),
                                         ((3, 2), {"ceil_mode": True}),
                                         ((3, 2, 1), {"ceil_mode": True})], ids=str)
def test_maxpool3d(args, kwargs):
    _check("MaxPool3d", args, kwargs, (3, 7, 6, 5))


@pytest.mark.parametrize("args,kwargs", [((2,), {}), ((3, 2, 1), {}),
                                         ((3, 2, 1), {"count_include_pad": False}),
                                         (((3, 2, 1), (1, 2, 1), (1, 0, 0)), {}),
                                         ((3,), {"divisor_override": 5, "padding": 1}),
                                         ((3, 2, 1), {"ceil_mode": True}),
                                         ((3, 2, 1), {"ceil_mode": True,
                                                      "divisor_override": 7}),
                                         ((2,), {"ceil_mode": True,
                                                 "count_include_pad": False})],
                         ids=str)
def test_avgpool3d(args, kwargs):
    _check("AvgPool3d", args, kwargs, (3, 7, 6, 5))


@pytest.mark.parametrize("size", [1, (3, 4, 2), (None, 2, None), 5, (7, 6, 5), (9, 3, 8)],
                         ids=str)
def test_adaptive_pools_3d(size):
    _check("AdaptiveAvgPool3d", (size,), {}, (3, 7, 6, 5))
    _check("AdaptiveMaxPool3d", (size,), {}, (3, 7, 6, 5))


def test_3d_pools_reject_wrong_ranks_like_torch():
    x = randn(3, 4, 5)
    with pytest.raises(RuntimeError, match=r"non-empty 4D or 5D \(batch mode\) tensor"):
        nn.MaxPool3d(2)(x)
    with pytest.raises(RuntimeError, match=r"non-empty 4D or 5D \(batch mode\) tensor"):
        nn.AvgPool3d(2)(x)
    with pytest.raises(RuntimeError, match=r"adaptive_avg_pool3d\(\): Expected 4D or 5D"):
        nn.AdaptiveAvgPool3d(2)(x)
    with pytest.raises(RuntimeError, match=r"adaptive_max_pool3d\(\): Expected 4D or 5D"):
        nn.AdaptiveMaxPool3d(2)(x)
    with pytest.raises(RuntimeError, match="Output size is too small"):
        nn.MaxPool3d(3)(randn(1, 2, 2, 4, 4))


@pytest.mark.parametrize("args", [(2, 3), (1.5, 2, 1), (3, 3, 2, True), (float("inf"), 2),
                                  (-float("inf"), 3, 2, True)], ids=str)
def test_lppool(args):
    for n, shape in ((1, (4, 11)), (2, (4, 9, 8)), (3, (3, 7, 6, 5))):
        tm = getattr(torch.nn, f"LPPool{n}d")(*args)
        layer = getattr(nn, f"LPPool{n}d")(*args)
        # |x|: a fractional power of a negative sum is NaN in both
        check_layer(tm, layer, [(abs(randn(b, *shape, scale=2)),) for b in (1, 3)])
        check_layer(tm, layer, [(abs(randn(*shape, scale=2)),)])


@pytest.mark.parametrize("cfg", [{"kernel_size": 2}, {"kernel_size": (3, 2), "stride": (2, 1)},
                                 {"kernel_size": 3, "dilation": (2, 1), "padding": 1}],
                         ids=str)
def test_fold_unfold(cfg):
    unfold = check_layer(torch.nn.Unfold(**cfg), nn.Unfold(**cfg),
                         [(randn(b, 3, 9, 8),) for b in (1, 3)], name="Unfold")[0]
    cols = unfold(randn(3, 3, 9, 8))
    check_layer(torch.nn.Fold((9, 8), **cfg), nn.Fold((9, 8), **cfg),
                [(cols,), (cols[:1],), (cols[0],)], name="Fold")


def test_fold_errors_match_torch():
    with pytest.raises(RuntimeError, match="divisible by the product of kernel_size"):
        nn.Fold(3, 2)(randn(2, 7, 4))
    with pytest.raises(RuntimeError, match="calculated number of sliding blocks 2 \\* 2 = 4"):
        nn.Fold(3, 2)(randn(2, 8, 5))
    with pytest.raises(RuntimeError, match="Expected 2D or 3D"):
        nn.Fold(3, 2)(randn(2, 8, 4, 1))
    with pytest.raises(RuntimeError, match="must be at least one"):
        nn.Unfold(3)(randn(1, 2, 1, 1))


def _pool_with_indices(x: torch.Tensor):
    v, i = torch.nn.functional.max_pool2d(x, 2, return_indices=True)
    w = torch.nn.functional.max_pool2d(x, 3, 1, 1)
    a, j = torch.nn.functional.adaptive_max_pool1d(x[0], 3, True)
    return v + w[:, :, ::2, ::2], i, a, j


def test_functional_max_pools_dispatch_on_a_constant_return_indices():
    """F.max_pool*d / F.adaptive_max_pool*d with return_indices=True return (values,
    indices), scripted (TorchScript's boolean dispatch on the constant) and eagerly."""
    x = torch.rand(2, 3, 6, 6)
    want = _pool_with_indices(x)
    got = ember.script(_pool_with_indices)(x.numpy())
    assert [g.dtype.name for g in got] == ["float32", "int64", "float32", "int64"]
    for g, w in zip(got, want):
        np.testing.assert_array_equal(g, w.numpy())
    v, i = nn.functional.max_pool2d(x.numpy(), 2, return_indices=True)
    np.testing.assert_array_equal(i, want[1].numpy())
    a, j = nn.functional.adaptive_max_pool1d(x.numpy()[0], 3, return_indices=True)
    np.testing.assert_array_equal(j, want[3].numpy())
