"""unfold and fold against torch over kernel sizes, dilations, paddings and strides,
batched and unbatched, plus their shape functions."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from tests.unit.ops.util import run, same, to_torch

torch = pytest.importorskip("torch")
F = torch.nn.functional
RNG = np.random.default_rng(13)


@pytest.mark.parametrize("k,d,p,s", list(itertools.product([2, (3, 2)], [1, (2, 1)], [0, 1],
                                                            [1, (2, 3)])))
def test_unfold_and_fold(k, d, p, s):
    x = RNG.standard_normal((2, 3, 7, 8)).astype(np.float32)
    cols = F.unfold(to_torch(x), k, d, p, s)
    same(run("tensor.unfold_blocks", x, k, d, p, s), cols)
    same(run("tensor.unfold_blocks", x[0], k, d, p, s), cols[0])
    c = cols.numpy()
    same(run("tensor.fold", c, (7, 8), k, d, p, s), F.fold(cols, (7, 8), k, d, p, s),
         atol=1e-5)
    same(run("tensor.fold", c[1], [7, 8], k, d, p, s), F.fold(cols[1], (7, 8), k, d, p, s),
         atol=1e-5)
