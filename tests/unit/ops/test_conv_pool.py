"""Convolutions and pooling against torch over strides, paddings (incl. "same"),
dilations, groups (incl. depthwise with multipliers), ceil_mode and adaptive sizes."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from tests.unit.ops.util import run, same, to_torch

torch = pytest.importorskip("torch")
F = torch.nn.functional
pytestmark = [pytest.mark.filterwarnings("error::RuntimeWarning"),
              pytest.mark.filterwarnings("ignore::UserWarning")]  # torch notes
RNG = np.random.default_rng(11)


def rand(*shape):
    return RNG.standard_normal(shape).astype(np.float32)


CONV2D = [
    # (N, C, H, W), (O, C/g, kh, kw), stride, padding, dilation, groups
    ((1, 3, 8, 8), (4, 3, 3, 3), 1, 1, 1, 1),
    ((2, 3, 7, 9), (4, 3, 3, 2), 1, 0, 1, 1),
    ((2, 4, 9, 8), (6, 2, 3, 3), 2, 1, 1, 2),
    ((1, 4, 10, 10), (4, 1, 3, 3), 1, 1, 1, 4),
    ((2, 4, 10, 10), (8, 1, 3, 3), 1, 1, 1, 4),
    ((1, 4, 11, 10), (4, 1, 5, 5), 2, 2, 1, 4),
    ((1, 3, 12, 12), (2, 3, 3, 3), (2, 1), (0, 2), (2, 1), 1),
    ((2, 6, 5, 5), (4, 6, 1, 1), 1, 0, 1, 1),
    ((2, 3, 5, 4), (8, 3, 1, 1), 1, 0, 1, 1),  # fewer in than out: bias in the GEMM
    ((1, 3, 6, 6), (5, 3, 1, 1), 2, 0, 1, 1),
    ((1, 4, 3, 3), (8, 2, 1, 1), 1, 0, 1, 2),
    ((1, 6, 6, 7), (6, 2, 1, 1), 2, 0, 1, 3),
    ((1, 3, 9, 9), (2, 3, 3, 3), 1, "same", 2, 1),
    ((1, 3, 9, 8), (2, 3, 4, 2), 1, "same", 1, 1),
    ((1, 3, 6, 6), (2, 3, 3, 3), 3, "valid", 1, 1),
    ((8, 8, 8), (5, 8, 3, 3), 1, 1, 1, 1),
]


@pytest.mark.parametrize("xs,ws,stride,padding,dilation,groups", CONV2D)
@pytest.mark.parametrize("bias", [True, False])
def test_conv2d(xs, ws, stride, padding, dilation, groups, bias):
    x, w = rand(*xs), rand(*ws)
    b = rand(ws[0]) if bias else None
    want = F.conv2d(to_torch(x), to_torch(w), to_torch(b), stride, padding, dilation, groups)
    same(run("tensor.conv2d", x, w, b, stride, padding, dilation, groups), want,
         rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("stride,padding,dilation,groups", [(1, 0, 1, 1), (2, 1, 1, 1),
                                                            (1, "same", 3, 1), (1, 1, 1, 4),
                                                            (3, 2, 2, 2)])
def test_conv1d(stride, padding, dilation, groups):
    x, w, b = rand(2, 4, 17), rand(4, 4 // groups, 3), rand(4)
    want = F.conv1d(to_torch(x), to_torch(w), to_torch(b), stride, padding, dilation, groups)
    same(run("tensor.conv1d", x, w, b, stride, padding, dilation, groups), want, atol=1e-5)


CONV3D = [
    # (N, C, D, H, W), (O, C/g, kd, kh, kw), stride, padding, dilation, groups
    ((2, 4, 5, 6, 7), (6, 4, 3, 3, 3), 1, 1, 1, 1),
    ((2, 4, 5, 6, 7), (6, 2, 3, 2, 3), 2, (1, 0, 1), (1, 2, 1), 2),
    ((1, 4, 5, 6, 7), (4, 1, 3, 3, 3), 1, "same", 1, 4),
    ((2, 3, 5, 6, 7), (5, 3, 1, 1, 1), 1, 0, 1, 1),
    ((2, 3, 5, 6, 7), (5, 3, 1, 1, 1), (2, 1, 2), 0, 1, 1),
    ((2, 4, 3, 4, 5), (4, 2, 1, 1, 1), 1, 0, 1, 2),
    ((1, 3, 4, 4, 4), (2, 3, 2, 3, 4), 1, "same", (2, 1, 1), 1),
    ((3, 5, 6, 7), (2, 3, 2, 2, 2), 1, "valid", 1, 1),
]


@pytest.mark.parametrize("xs,ws,stride,padding,dilation,groups", CONV3D)
@pytest.mark.parametrize("bias", [True, False])
def test_conv3d(xs, ws, stride, padding, dilation, groups, bias):
    x, w = rand(*xs), rand(*ws)
    b = rand(ws[0]) if bias else None
    want = F.conv3d(to_torch(x), to_torch(w), to_torch(b), stride, padding, dilation, groups)
    same(run("tensor.conv3d", x, w, b, stride, padding, dilation, groups), want,
         rtol=1e-5, atol=1e-5)


def test_im2col_bands_of_output_rows_give_the_whole_output(monkeypatch):
    from ember.ops import tensor_conv

    monkeypatch.setattr(tensor_conv, "_COLS_BYTES", 3000)  # a few output rows per band
    x, w, b = rand(2, 4, 5, 6, 7), rand(6, 2, 3, 2, 3), rand(6)
    same(run("tensor.conv3d", x, w, b, (1, 2, 1), 1, (2, 1, 1), 2),
         F.conv3d(to_torch(x), to_torch(w), to_torch(b), (1, 2, 1), 1, (2, 1, 1), 2),
         atol=1e-5)
    x, w = rand(2, 4, 9, 8), rand(6, 4, 3, 3)
    same(run("tensor.conv2d", x, w, None, 2, 1, 1, 1),
         F.conv2d(to_torch(x), to_torch(w), None, 2, 1), atol=1e-5)


def test_conv3d_errors_match_torch():
    with pytest.raises(RuntimeError, match=r"Expected 4D \(unbatched\) or 5D \(batched\) "
                       r"input to conv3d, but got input of size: \[2, 3, 4\]"):
        run("tensor.conv3d", rand(2, 3, 4), rand(2, 3, 1, 1, 1), None, 1, 0, 1, 1)
    with pytest.raises(RuntimeError, match="expected input.*to have 3 channels"):
        run("tensor.conv3d", rand(1, 2, 4, 4, 4), rand(2, 3, 1, 1, 1), None, 1, 0, 1, 1)
    with pytest.raises(RuntimeError, match="too small"):
        run("tensor.conv3d", rand(1, 3, 2, 4, 4), rand(2, 3, 3, 3, 3), None, 1, 0, 1, 1)


def test_conv_errors():
    x, w = rand(1, 3, 5, 5), rand(2, 4, 3, 3)
    with pytest.raises(RuntimeError, match="expected input.*to have 4 channels"):
        run("tensor.conv2d", x, w, None, 1, 0, 1, 1)
    with pytest.raises(RuntimeError, match="too small"):
        run("tensor.conv2d", rand(1, 3, 2, 2), rand(2, 3, 3, 3), None, 1, 0, 1, 1)
    with pytest.raises(RuntimeError, match="same"):
        run("tensor.conv2d", x, rand(2, 3, 3, 3), None, 2, "same", 1, 1)
    with pytest.raises(ValueError, match="padding string"):
        run("tensor.conv2d", x, rand(2, 3, 3, 3), None, 1, "full", 1, 1)
    with pytest.raises(RuntimeError, match="type"):
        run("tensor.conv2d", x, rand(2, 3, 3, 3).astype(np.float64), None, 1, 0, 1, 1)


POOLS = list(itertools.product([2, 3, (3, 2)], [None, 1, 2], [0, 1], [False, True]))


@pytest.mark.parametrize("k,s,p,ceil", POOLS)
def test_max_avg_pool2d(k, s, p, ceil):
    x = rand(2, 3, 9, 8)
    x[0, 0, 0, 0] = np.nan
    kw = {"kernel_size": k, "stride": s, "padding": p, "ceil_mode": ceil}
    same(run("tensor.max_pool2d", x, k, s, p, 1, ceil, False), F.max_pool2d(to_torch(x), **kw))
    for cip in (True, False):
        same(run("tensor.avg_pool2d", x, k, s, p, ceil, cip, None),
             F.avg_pool2d(to_torch(x), **kw, count_include_pad=cip), atol=1e-6)
    same(run("tensor.avg_pool2d", x, k, s, p, ceil, True, 5),
         F.avg_pool2d(to_torch(x), **kw, divisor_override=5), atol=1e-6)


def test_pool_dilation_indices_1d_and_errors():
    x = rand(2, 3, 10, 9)
    same(run("tensor.max_pool2d", x, 3, 2, 1, 2, True, False),
         F.max_pool2d(to_torch(x), 3, 2, 1, 2, True))
    same(run("tensor.max_pool2d_with_indices", x, 3, 2, 1, 1, False, True),
         F.max_pool2d(to_torch(x), 3, 2, 1, 1, False, return_indices=True))
    x1 = rand(2, 3, 11)
    same(run("tensor.max_pool1d", x1, 3, 2, 1, 1, True, False),
         F.max_pool1d(to_torch(x1), 3, 2, 1, 1, True))
    same(run("tensor.avg_pool1d", x1, 4, 3, 2, True, False),
         F.avg_pool1d(to_torch(x1), 4, 3, 2, True, False), atol=1e-6)
    same(run("tensor.max_pool2d", x[0], 2, None, 0, 1, False, False),
         F.max_pool2d(to_torch(x[0]), 2))
    with pytest.raises(RuntimeError, match="pad should be at most half"):
        run("tensor.max_pool2d", x, 2, 2, 2, 1, False, False)
    with pytest.raises(RuntimeError, match="return_indices"):
        run("tensor.max_pool2d", x, 2, 2, 0, 1, False, True)


@pytest.mark.parametrize("size", [1, 2, 3, (5, 2), (4, None), (7, 9)])
def test_adaptive_pools(size):
    x = rand(2, 3, 9, 7)
    same(run("tensor.adaptive_avg_pool2d", x, size), F.adaptive_avg_pool2d(to_torch(x), size),
         atol=1e-6)
    same(run("tensor.adaptive_max_pool2d", x, size, False),
         F.adaptive_max_pool2d(to_torch(x), size))
    same(run("tensor.adaptive_max_pool2d_with_indices", x, size, True),
         F.adaptive_max_pool2d(to_torch(x), size, return_indices=True))
    n = size if isinstance(size, int) else size[0]
    x1 = rand(2, 3, 10)
    same(run("tensor.adaptive_avg_pool1d", x1, n), F.adaptive_avg_pool1d(to_torch(x1), n),
         atol=1e-6)
    same(run("tensor.adaptive_max_pool1d", x1, n, False),
         F.adaptive_max_pool1d(to_torch(x1), n))


@pytest.mark.parametrize("size", [(3, 2), (4, 5), 2, (9, 1)], ids=str)
def test_adaptive_avg_keeps_nan_and_inf_in_their_windows(size):
    x = rand(2, 3, 9, 7)
    x[0, 1, 4, 2], x[1, 0, 0, 6], x[1, 2, 8, 0] = np.nan, np.inf, -np.inf
    x[0, 2, 0, 0], x[0, 2, 0, 1] = np.inf, -np.inf  # one window: nan
    same(run("tensor.adaptive_avg_pool2d", x, size), F.adaptive_avg_pool2d(to_torch(x), size),
         atol=1e-6)
    x3 = rand(2, 5, 4, 6)
    x3[1, 2, 3, 4] = np.nan
    same(run("tensor.adaptive_avg_pool3d", x3, (2, 3, 4)),
         F.adaptive_avg_pool3d(to_torch(x3), (2, 3, 4)), atol=1e-6)


POOLS3D = [(k, s, p, d, ceil) for k, s, p, d, ceil in itertools.product(
    [2, 3, (3, 2, 1)], [None, 2, (2, 1, 3)], [0, 1], [1, 2], [False, True])
    if all(2 * p <= d * (ki - 1) + 1 for ki in (k if isinstance(k, tuple) else (k,) * 3))]


@pytest.mark.parametrize("k,s,p,d,ceil", POOLS3D)
def test_max_avg_pool3d(k, s, p, d, ceil):
    x = rand(2, 3, 7, 8, 6)
    x[0, 0, 0, 0, 0] = np.nan
    t = to_torch(x)
    same(run("tensor.max_pool3d", x, k, s, p, d, ceil, False), F.max_pool3d(t, k, s, p, d, ceil))
    same(run("tensor.max_pool3d_with_indices", x, k, s, p, d, ceil, True),
         F.max_pool3d(t, k, s, p, d, ceil, return_indices=True))
    if d == 1 and all(2 * p <= ki for ki in (k if isinstance(k, tuple) else (k,) * 3)):
        for cip, div in ((True, None), (False, None), (True, 5)):
            same(run("tensor.avg_pool3d", x, k, s, p, ceil, cip, div),
                 F.avg_pool3d(t, k, s, p, ceil, cip, div), atol=1e-6)


@pytest.mark.parametrize("size", [1, 3, (5, 2, 4), (4, None, 6), (7, 8, 6), (9, 3, 11)],
                         ids=str)
def test_adaptive_pools_3d(size):
    x = rand(2, 3, 7, 8, 6)
    t = to_torch(x)
    same(run("tensor.adaptive_avg_pool3d", x, size), F.adaptive_avg_pool3d(t, size), atol=1e-6)
    same(run("tensor.adaptive_max_pool3d", x, size, False), F.adaptive_max_pool3d(t, size))
    same(run("tensor.adaptive_max_pool3d_with_indices", x, size, True),
         F.adaptive_max_pool3d(t, size, return_indices=True))
    same(run("tensor.adaptive_avg_pool3d", x[0], size), F.adaptive_avg_pool3d(t[0], size),
         atol=1e-6)


def test_pool_errors_match_torch():
    with pytest.raises(RuntimeError, match="divisor must be not zero"):
        run("tensor.avg_pool3d", rand(1, 2, 4, 4, 4), 2, None, 0, False, True, 0)
    with pytest.raises(RuntimeError, match=r"non-empty 3D or 4D \(batch mode\)"):
        run("tensor.max_pool2d", rand(2, 3), 2, None, 0, 1, False, False)
    with pytest.raises(RuntimeError, match=r"adaptive_avg_pool2d\(\): Expected 3D or 4D"):
        run("tensor.adaptive_avg_pool2d", rand(3), 2)


def test_circular_pad_wraps_at_most_once():
    x = rand(1, 2, 3)
    same(run("tensor.pad", x, (3, 2), "circular", None), F.pad(to_torch(x), (3, 2), "circular"))
    with pytest.raises(RuntimeError, match="wrapping around more than once"):
        run("tensor.pad", x, (4, 0), "circular", None)


@pytest.mark.parametrize("mode", ["constant", "reflect", "replicate", "circular"])
@pytest.mark.parametrize("pads", [(1, 2), (2, 1, 0, 3), (1, 1, 1, 1)])
def test_pad(mode, pads):
    x = rand(2, 3, 5, 6)
    try:
        want = F.pad(to_torch(x), pads, mode)
    except NotImplementedError:
        with pytest.raises(NotImplementedError, match="Padding size"):
            run("tensor.pad", x, pads, mode, None)
        return
    same(run("tensor.pad", x, pads, mode, None), want)
    if mode == "constant":
        same(run("tensor.pad", x, pads, mode, -1.5), F.pad(to_torch(x), pads, value=-1.5))


def test_pad_crops_with_negative_values_and_checks():
    x = rand(2, 3, 5, 6)
    same(run("tensor.pad", x, [-1, 2, 0, -2], "constant", 0.0),
         F.pad(to_torch(x), (-1, 2, 0, -2)))
    with pytest.raises(RuntimeError, match="divisible by 2"):
        run("tensor.pad", x, [1, 2, 3], "constant", None)
    with pytest.raises(RuntimeError, match="Padding size"):
        run("tensor.pad", x, [6, 6], "reflect", None)


@pytest.mark.parametrize("mode,align", [("nearest", None), ("bilinear", False),
                                        ("bilinear", True)])
@pytest.mark.parametrize("size,scale", [((7, 9), None), (None, 2), (None, 1.5), ((3, 4), None)])
def test_interpolate_2d(mode, align, size, scale):
    x = rand(2, 3, 5, 6)
    want = F.interpolate(to_torch(x), size=size, scale_factor=scale, mode=mode,
                         align_corners=align)
    same(run("tensor.interpolate", x, size, scale, mode, align, None, False), want, atol=1e-5)


@pytest.mark.parametrize("mode,align", [("nearest", None), ("linear", False),
                                        ("linear", True)])
def test_interpolate_1d(mode, align):
    x = rand(2, 3, 7)
    for size, scale in ((11, None), (None, 2.5), (4, None)):
        want = F.interpolate(to_torch(x), size=size, scale_factor=scale, mode=mode,
                             align_corners=align)
        same(run("tensor.interpolate", x, size, scale, mode, align, None, False), want,
             atol=1e-5)


_SPATIAL = {"linear": 1, "bilinear": 2, "bicubic": 2, "trilinear": 3}


@pytest.mark.parametrize("mode", ["nearest", "nearest-exact", "linear", "bilinear", "bicubic",
                                  "trilinear", "area"])
def test_interpolate_modes_on_random_sizes_and_scales(mode):
    """Random ranks, sizes, (non-integer, per-dim) scales, align_corners and
    recompute_scale_factor; batch 1 and larger."""
    rng = np.random.default_rng(sum(map(ord, mode)))
    checked = 0
    for trial in range(60):
        n = _SPATIAL.get(mode, 1 + trial % 3)
        x = rng.standard_normal((1 + trial % 3, 2) + tuple(rng.integers(1, 8, n)))
        x = x.astype(np.float32)
        align = None if mode in ("nearest", "nearest-exact", "area") else bool(trial % 2)
        size, scale, recompute = None, None, None
        if trial % 3 == 0:
            size = tuple(int(v) for v in rng.integers(1, 13, n))
        else:
            scale = tuple(float(v) for v in np.round(rng.uniform(0.4, 3.5, n), 3)) \
                if trial % 3 == 1 else float(rng.choice([0.5, 1.5, 2.0, 2.5, 3.0, 1.7]))
            recompute = [None, True, False][trial % 4 % 3]
        out_sizes = size or [int(d * f) for d, f in zip(x.shape[2:], np.broadcast_to(scale, n))]
        if min(out_sizes) < 1:
            continue
        want = F.interpolate(to_torch(x), size=size, scale_factor=scale, mode=mode,
                             align_corners=align, recompute_scale_factor=recompute)
        same(run("tensor.interpolate", x, size, scale, mode, align, recompute, False), want,
             atol=1e-5)
        checked += 1
    assert checked > 40


def test_interpolate_bicubic_clamps_at_the_borders_and_overshoots():
    x = np.zeros((1, 1, 4, 4), np.float32)
    x[..., 0, 0] = 1.0
    for align in (False, True):
        want = F.interpolate(to_torch(x), scale_factor=3, mode="bicubic", align_corners=align)
        got = run("tensor.interpolate", x, None, 3, "bicubic", align, None, False)
        same(got, want, atol=1e-6)
        assert got.min() < 0  # A = -0.75 rings


def test_interpolate_errors_match_torch():
    cases = [
        ((rand(1, 2, 5), None, 2, "bilinear", None), NotImplementedError,
         "Got 3D input, but bilinear mode needs 4D input"),
        ((rand(1, 2, 5, 5), None, 2, "trilinear", None), NotImplementedError,
         "Got 4D input, but trilinear mode needs 5D input"),
        ((rand(1, 2, 5, 5), None, 2, "area", True), ValueError,
         "align_corners option can only be set with the interpolating modes"),
        ((rand(1, 2, 5, 5), (3, 4, 5), None, "nearest", None), ValueError,
         "Input and output must have the same number of spatial dimensions"),
        ((rand(1, 2, 5, 1), None, 0.5, "bicubic", None), RuntimeError,
         r"Input and output sizes should be greater than 0, but got input \(H: 5, W: 1\) "
         r"output \(H: 2, W: 0\)"),
        ((rand(1, 2, 1), None, 0.5, "linear", None), RuntimeError,
         r"but got input \(W: 1\) and output \(W: 0\)"),
    ]
    for (x, size, scale, mode, align), exc, message in cases:
        with pytest.raises(exc, match=message):
            run("tensor.interpolate", x, size, scale, mode, align, None, False)
        with pytest.raises(exc, match=message):
            F.interpolate(to_torch(x), size=size, scale_factor=scale, mode=mode,
                          align_corners=align)


def test_1d_convolutions_reuse_a_frozen_weight_view():
    """conv1d / conv_transpose1d hand the 2-d kernels one view per frozen weight, so the
    kernels' weight caches hit on every call; a writable weight is read afresh."""
    from ember.ops.tensor_common import as_2d_weight
    w = np.frombuffer(rand(4, 3, 5).tobytes(), np.float32).reshape(4, 3, 5)  # as loaded
    assert as_2d_weight(w) is as_2d_weight(w) and as_2d_weight(w).shape == (4, 3, 1, 5)
    x = rand(2, 3, 11)
    first = run("tensor.conv1d", x, w, None, 1, 0, 1, 1)
    same(run("tensor.conv1d", x, w, None, 1, 0, 1, 1), F.conv1d(to_torch(x), to_torch(w)))
    np.testing.assert_array_equal(first, run("tensor.conv1d", x, w, None, 1, 0, 1, 1))
    wt = rand(3, 4, 5)
    same(run("tensor.conv_transpose1d", x, wt, None, 2, 1, 1, 1, 1),
         F.conv_transpose1d(to_torch(x), to_torch(wt), None, 2, 1, 1))
    wt *= 2  # writable: not cached, the new values are used
    same(run("tensor.conv_transpose1d", x, wt, None, 2, 1, 1, 1, 1),
         F.conv_transpose1d(to_torch(x), to_torch(wt), None, 2, 1, 1))


@pytest.mark.parametrize("n,shape,kw", [
    (1, (2, 3, 11), {"kernel_size": 3, "stride": 2, "padding": 1}),
    (1, (3, 10), {"kernel_size": 2}),
    (2, (2, 3, 10, 9), {"kernel_size": 3, "stride": 2, "padding": 1}),
    (2, (3, 8, 6), {"kernel_size": (2, 3), "stride": (2, 1)}),
    (3, (2, 3, 5, 6, 7), {"kernel_size": 2, "stride": (1, 2, 2)}),
    (3, (3, 4, 6, 5), {"kernel_size": 3, "stride": 2, "padding": 1}),
], ids=str)
def test_max_unpool_inverts_max_pool_like_torch(n, shape, kw):
    x = to_torch(rand(*shape))
    v, i = getattr(F, f"max_pool{n}d")(x, return_indices=True, **kw)
    sizes = [None, tuple(x.shape[-n:])] + ([tuple(x.shape)] if x.ndim == n + 2 else [])
    for size in sizes:
        try:
            ref = getattr(F, f"max_unpool{n}d")(v, i, output_size=size, **kw)
        except RuntimeError:  # the default size is smaller than the pooled input
            continue
        k, s, p = kw["kernel_size"], kw.get("stride"), kw.get("padding", 0)
        same(run(f"tensor.max_unpool{n}d", v.numpy(), i.numpy(), k, s, p,
                 None if size is None else list(size)), ref)


def test_max_unpool_errors_match_torch():
    v, i = F.max_pool2d(to_torch(rand(2, 3, 4, 4)), 2, return_indices=True)
    v, i = v.numpy(), i.numpy()
    cases = [
        ((v, i.astype(np.int32), 2), RuntimeError,
         "elements in indices should be type int64 but got: Int"),
        ((v, i[:, :2], 2), RuntimeError, r"Expected shape of indices to be same as that of "
         r"the input tensor \(\[2, 3, 2, 2\]\) but got indices tensor with shape: \[2, 2, 2, 2\]"),
        ((v, i + 100, 2), RuntimeError, r"Found an invalid max index: 1\d\d \(output volumes "
         r"are of size 4x4\)"),
        ((v, i - 100, 2), RuntimeError, "Found an invalid max index: -"),
        ((v, i, 2, None, 0, [6, 4]), ValueError,
         r'invalid output_size "\[6, 4\]" \(dim 0 must be between 2 and 6\)'),
        ((v, i, 2, None, 0, [3, 5, 4]), ValueError, "output_size should be a sequence "
         "containing 2 or 4 elements, but it has a length of '3'"),
        ((v[0, 0], i[0, 0], 2), RuntimeError, "Input to max_unpooling2d should be a 3d or 4d "
         "Tensor, but got a tensor with 2 dimensions."),
        ((v.astype(np.int64), i, 2), NotImplementedError,
         "\"max_unpool2d\" not implemented for 'Long'"),
    ]
    for args, exc, message in cases:
        with pytest.raises(exc, match=message):
            run("tensor.max_unpool2d", *args)
        with pytest.raises(exc, match=message):
            F.max_unpool2d(*(to_torch(a) for a in args))
    with pytest.raises(RuntimeError, match=r"\(output volumes are of size 4x1\)"):
        run("tensor.max_unpool1d", v[:, :, 0], i[:, :, 0] + 50, 2)
    with pytest.raises(RuntimeError, match="Input to max_unpooling3d should be a 4d or 5d"):
        run("tensor.max_unpool3d", v[0], i[0], 2)
