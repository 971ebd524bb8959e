"""ember.quant.observers give torch.ao's observers' qparams on the same batches."""

import warnings

import numpy as np
import pytest

from ember.quant import observers as E

torch = pytest.importorskip("torch")
from torch.ao.quantization import observer as O  # noqa: E402

warnings.filterwarnings("ignore", category=DeprecationWarning)


def batches(kind, seed):
    rng = np.random.default_rng(seed)
    out = []
    for i in range(6):
        if kind == "normal":
            b = rng.standard_normal((8, 64)) * (1 + i * 0.3) + 0.1 * i
        elif kind == "relu":
            b = np.maximum(rng.standard_normal((4, 16, 8, 8)), 0) * (1 + 0.5 * i)
        elif kind == "heavy":
            b = rng.standard_t(2, (3, 1000))
        elif kind == "shrinking":
            b = rng.standard_normal((3, 300)) * (3 - 0.4 * i)
        else:  # one constant batch, then spread
            b = np.full((2, 5), 0.5) if i == 0 else rng.uniform(-1, 2, (2, 5))
        out.append(b.astype(np.float32))
    return out


def pairs():
    return [
        (lambda: O.MinMaxObserver(reduce_range=True), lambda: E.MinMaxObserver(reduce_range=True)),
        (lambda: O.MinMaxObserver(dtype=torch.qint8, qscheme=torch.per_tensor_symmetric),
         lambda: E.MinMaxObserver(dtype="qint8", symmetric=True)),
        (lambda: O.MovingAverageMinMaxObserver(reduce_range=True),
         lambda: E.MovingAverageMinMaxObserver(reduce_range=True)),
        (lambda: O.HistogramObserver(reduce_range=True), lambda: E.HistogramObserver()),
        (lambda: O.PerChannelMinMaxObserver(ch_axis=1, dtype=torch.qint8,
                                            qscheme=torch.per_channel_symmetric),
         lambda: E.PerChannelMinMaxObserver(ch_axis=1)),
    ]


@pytest.mark.parametrize("kind", ["normal", "relu", "heavy", "shrinking", "constant_first"])
@pytest.mark.parametrize("seed", [0, 1])
@pytest.mark.parametrize("which", range(5))
def test_same_qparams_as_torch(kind, seed, which):
    make_t, make_e = pairs()[which]
    t, e = make_t(), make_e()
    for b in batches(kind, seed):
        t(torch.from_numpy(b))
        e.observe(b)
    ts, tz = t.calculate_qparams()
    es, ez = e.qparams()
    assert np.array_equal(ts.numpy().astype(np.float32).reshape(-1),
                          np.asarray(es, np.float32).reshape(-1))
    assert np.array_equal(tz.numpy().reshape(-1), np.asarray(ez).reshape(-1))


def test_histc_matches_torch():
    x = np.random.default_rng(3).standard_normal(5000).astype(np.float32)
    for lo, hi in [(-1.0, 1.0), (float(x.min()), float(x.max())), (0.3, 0.3)]:
        ref = torch.histc(torch.from_numpy(x), 2048, min=lo, max=hi).numpy()
        assert np.array_equal(E.histc(x, 2048, lo, hi), ref)


def test_unobserved_gives_the_default():
    assert E.HistogramObserver().qparams() == (1.0, 0)
