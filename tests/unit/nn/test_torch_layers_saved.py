"""torch.nn layers converted by ember.script: scripted, saved, loaded with
ember.mobile.load, and giving torch's eager outputs at two batch sizes."""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")

import ember
from ember import mobile

from .torch_ref import max_error, randn, randomize, record, run_torch

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")

nn = torch.nn


class UpTo(nn.Module):
    """A transposed convolution told its output size (as U-Nets match skip connections)."""

    def __init__(self):
        super().__init__()
        self.up = nn.ConvTranspose2d(4, 3, 3, stride=2, padding=1)

    def forward(self, x, skip):
        return self.up(x, output_size=skip.shape) + skip


CASES = [
    ("ConvTranspose2d", lambda: nn.ConvTranspose2d(4, 6, 3, 2, 1, 1, groups=2, dilation=1),
     lambda b: (randn(b, 4, 5, 6),)),
    ("ConvTranspose2d-tiles", lambda: nn.ConvTranspose2d(4, 3, 2, stride=2, bias=False),
     lambda b: (randn(b, 4, 5, 6),)),
    ("ConvTranspose2d-dilated", lambda: nn.ConvTranspose2d(3, 2, (3, 2), (1, 2), (2, 0),
                                                           (0, 1), dilation=2),
     lambda b: (randn(b, 3, 5, 6),)),
    ("ConvTranspose2d-unbatched", lambda: nn.ConvTranspose2d(3, 2, 4, 2, 1),
     lambda b: (randn(3, 4, 3 + b),)),
    ("ConvTranspose2d-output_size", UpTo, lambda b: (randn(b, 4, 4, 5), randn(b, 3, 8, 9))),
    ("ConvTranspose1d", lambda: nn.ConvTranspose1d(4, 6, 4, 2, 1, groups=2),
     lambda b: (randn(b, 4, 9),)),
    ("ConvTranspose1d-outpad", lambda: nn.ConvTranspose1d(3, 2, 3, 3, 1, 2, bias=False),
     lambda b: (randn(b, 3, 7),)),
]
CASES = [pytest.param(*c, id=c[0]) for c in CASES]


@pytest.mark.parametrize("name,make,inputs", CASES)
def test_saved_torch_layer_matches_torch(name, make, inputs, tmp_path):
    tm = randomize(make(), seed=3)
    path = tmp_path / "layer.ember"
    ember.script(tm).save(path)
    loaded = mobile.load(path)
    for b in (1, 3):
        args = inputs(b)
        record(f"saved({name})", max_error(loaded(*args), run_torch(tm, args)))
