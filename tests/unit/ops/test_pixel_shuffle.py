"""pixel_shuffle / pixel_unshuffle and the upsample_* spellings of interpolate against
torch, with their shape functions and errors."""

from __future__ import annotations

import numpy as np
import pytest

from ember.ops import get
from ember.ops.registry import ShapeMismatch
from tests.unit.ops.util import arg_info, run, same, to_torch

torch = pytest.importorskip("torch")
F = torch.nn.functional
pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")  # upsample_* are deprecated
RNG = np.random.default_rng(13)


def rand(*shape):
    return RNG.standard_normal(shape).astype(np.float32)


@pytest.mark.parametrize("shape,r", [((1, 4, 3, 5), 2), ((2, 18, 2, 2), 3), ((8, 3, 4), 2),
                                     ((2, 3, 4, 1, 1), 2), ((2, 3, 4, 5), 1)])
def test_pixel_shuffle(shape, r):
    x = rand(*shape)
    same(run("tensor.pixel_shuffle", x, r), F.pixel_shuffle(to_torch(x), r))
    y = rand(*shape[:-2], shape[-2] * r, shape[-1] * r)
    same(run("tensor.pixel_unshuffle", y, r), F.pixel_unshuffle(to_torch(y), r))
    back = run("tensor.pixel_unshuffle", run("tensor.pixel_shuffle", x, r), r)
    np.testing.assert_array_equal(back, x)


def test_pixel_shuffle_errors():
    with pytest.raises(RuntimeError, match="divisible by the square of upscale_factor"):
        run("tensor.pixel_shuffle", rand(1, 6, 2, 2), 2)
    with pytest.raises(RuntimeError, match="width to be divisible by downscale_factor"):
        run("tensor.pixel_unshuffle", rand(1, 6, 4, 3), 2)
    with pytest.raises(RuntimeError, match="at least 3 dimensions"):
        run("tensor.pixel_shuffle", rand(4, 4), 2)
    with pytest.raises(RuntimeError, match="greater than 0"):
        run("tensor.pixel_unshuffle", rand(1, 6, 4, 4), 0)
    info = get("tensor.pixel_shuffle").shape_fn
    with pytest.raises(ShapeMismatch, match="not divisible"):
        info([arg_info(rand(1, 6, 2, 2)), arg_info(2)])
    info = get("tensor.pixel_unshuffle").shape_fn
    with pytest.raises(ShapeMismatch, match="not divisible"):
        info([arg_info(rand(1, 6, 4, 3)), arg_info(2)])


@pytest.mark.parametrize("size,scale", [(None, 2), ((5, 7), None), (None, (1.5, 2.0))])
def test_upsample_spellings(size, scale):
    x = rand(2, 3, 4, 5)
    same(run("tensor.upsample_nearest", x, size, scale),
         F.upsample_nearest(to_torch(x), size, scale))
    same(run("tensor.upsample_bilinear", x, size, scale),
         F.upsample_bilinear(to_torch(x), size, scale), atol=1e-6)
