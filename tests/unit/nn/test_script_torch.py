"""ember.script of torch.nn built-in layers (converted through ember.nn.from_torch) gives
torch's eager results."""

from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch")

import ember
from ember.errors import UnsupportedError

from .torch_ref import max_error, randn, randomize, record, run_torch

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")

nn = torch.nn
CASES = [
    ("Linear", lambda: nn.Linear(5, 3), lambda b: (randn(b, 5),)),
    ("Conv2d", lambda: nn.Conv2d(4, 6, 3, stride=2, padding=1, groups=2),
     lambda b: (randn(b, 4, 9, 9),)),
    ("Conv1d", lambda: nn.Conv1d(4, 6, 4, padding="same"), lambda b: (randn(b, 4, 9),)),
    ("Conv3d", lambda: nn.Conv3d(4, 6, 3, stride=(1, 2, 2), padding=1, groups=2),
     lambda b: (randn(b, 4, 5, 7, 7),)),
    ("BatchNorm2d", lambda: nn.BatchNorm2d(4), lambda b: (randn(b, 4, 3, 3),)),
    ("LayerNorm", lambda: nn.LayerNorm(5), lambda b: (randn(b, 3, 5),)),
    ("GroupNorm", lambda: nn.GroupNorm(2, 4), lambda b: (randn(b, 4, 5),)),
    ("Embedding", lambda: nn.Embedding(10, 3),
     lambda b: (np.arange(2 * b).reshape(b, 2) % 10,)),
    ("GELU", lambda: nn.GELU("tanh"), lambda b: (randn(b, 7),)),
    ("Softmax", lambda: nn.Softmax(1), lambda b: (randn(b, 7),)),
    ("MaxPool2d", lambda: nn.MaxPool2d(3, 2, 1), lambda b: (randn(b, 3, 8, 8),)),
    ("AdaptiveAvgPool2d", lambda: nn.AdaptiveAvgPool2d((3, 2)),
     lambda b: (randn(b, 3, 8, 7),)),
    ("C3D-block", lambda: nn.Sequential(nn.Conv3d(3, 4, 3, padding=1), nn.BatchNorm3d(4),
                                        nn.ReLU(), nn.MaxPool3d((1, 2, 2)),
                                        nn.AvgPool3d(2, ceil_mode=True),
                                        nn.AdaptiveAvgPool3d(1), nn.Flatten()),
     lambda b: (randn(b, 3, 4, 8, 8),)),
    ("ConvTranspose3d", lambda: nn.ConvTranspose3d(4, 2, 3, stride=2, padding=1),
     lambda b: (randn(b, 4, 3, 4, 5),)),
    ("LPPool2d", lambda: nn.LPPool2d(2, 3, 2, ceil_mode=True), lambda b: (randn(b, 3, 8, 7),)),
    ("LSTM", lambda: nn.LSTM(5, 7, 2, bidirectional=True, batch_first=True),
     lambda b: (randn(b, 4, 5),)),
    ("GRU", lambda: nn.GRU(5, 7), lambda b: (randn(4, b, 5), randn(1, b, 7))),
    ("MultiheadAttention", lambda: nn.MultiheadAttention(8, 2, batch_first=True),
     lambda b: (randn(b, 4, 8), randn(b, 5, 8, seed=2), randn(b, 5, 8, seed=3))),
    ("TransformerEncoder",
     lambda: nn.TransformerEncoder(nn.TransformerEncoderLayer(8, 2, 16, activation="gelu"),
                                   2, norm=nn.LayerNorm(8)),
     lambda b: (randn(4, b, 8),)),
    ("Sequential", lambda: nn.Sequential(nn.Conv2d(3, 4, 3), nn.Hardswish(), nn.Flatten(),
                                         nn.Linear(16, 2), nn.LogSoftmax(-1)),
     lambda b: (randn(b, 3, 4, 4),)),
]
CASES = [pytest.param(*c, id=c[0]) if type(c) is tuple else c for c in CASES]


@pytest.mark.parametrize("name,make,inputs", CASES)
def test_scripted_torch_layer_matches_torch(name, make, inputs):
    tm = randomize(make(), seed=5)
    sm = ember.script(tm)
    for b in (1, 3):
        args = inputs(b)
        record(f"script({name})", max_error(sm(*args), run_torch(tm, args)))


def test_scripting_a_torch_layer_without_equivalent_names_it():
    with pytest.raises(UnsupportedError, match="torch.nn.FractionalMaxPool2d"):
        ember.script(nn.Sequential(nn.Conv2d(2, 2, 1), nn.FractionalMaxPool2d(2, output_size=2)))
