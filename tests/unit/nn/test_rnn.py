"""LSTM and GRU against torch: layers, directions, batch_first, bias, initial state."""

from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from ember import nn
from ember.errors import UnsupportedError

from .torch_ref import check_layer, randn, randomize

CONFIGS = [
    {},
    {"num_layers": 2},
    {"bidirectional": True},
    {"num_layers": 3, "bidirectional": True, "batch_first": True},
    {"batch_first": True},
    {"bias": False, "num_layers": 2, "bidirectional": True},
    {"num_layers": 2, "dropout": 0.3},
]
T, IN, H = 6, 5, 7


def _inputs(cfg, batch, with_state, lstm):
    dirs = 2 if cfg.get("bidirectional") else 1
    layers = cfg.get("num_layers", 1)
    x = randn(batch, T, IN, seed=batch) if cfg.get("batch_first") else \
        randn(T, batch, IN, seed=batch)
    if not with_state:
        return (x,)
    h0 = randn(layers * dirs, batch, H, seed=batch + 10)
    if lstm:
        return (x, (h0, randn(layers * dirs, batch, H, seed=batch + 20)))
    return (x, h0)


@pytest.mark.parametrize("name", ["LSTM", "GRU"])
@pytest.mark.parametrize("cfg", CONFIGS, ids=str)
@pytest.mark.parametrize("with_state", [False, True])
def test_rnn_matches_torch(name, cfg, with_state):
    tm = randomize(getattr(torch.nn, name)(IN, H, **cfg), seed=3)
    layer = getattr(nn, name)(IN, H, **cfg)
    check_layer(tm, layer, [_inputs(cfg, b, with_state, name == "LSTM") for b in (1, 4)],
                name=name)


@pytest.mark.parametrize("name", ["LSTM", "GRU"])
@pytest.mark.parametrize("with_state", [False, True])
def test_rnn_unbatched_input(name, with_state):
    cfg = {"num_layers": 2, "bidirectional": True, "batch_first": True}
    tm = randomize(getattr(torch.nn, name)(IN, H, **cfg), seed=4)
    args = _inputs(cfg, 1, with_state, name == "LSTM")
    x = args[0][0]
    if not with_state:
        check_layer(tm, getattr(nn, name)(IN, H, **cfg), [(x,)], name=name)
    elif name == "LSTM":
        h0, c0 = args[1]
        check_layer(tm, nn.LSTM(IN, H, **cfg), [(x, (h0[:, 0], c0[:, 0]))], name=name)
    else:
        check_layer(tm, nn.GRU(IN, H, **cfg), [(x, args[1][:, 0])], name=name)


def test_weights_have_torch_names_and_order():
    ours = nn.LSTM(3, 4, num_layers=2, bidirectional=True)
    theirs = torch.nn.LSTM(3, 4, num_layers=2, bidirectional=True)
    assert list(ours.state_dict()) == list(theirs.state_dict())
    assert ours._flat_weights_names == theirs._flat_weights_names
    assert [w.shape for w in ours._flat_weights] == [tuple(w.shape) for w in
                                                     theirs._flat_weights]
    assert list(nn.GRU(3, 4, bias=False).state_dict()) == \
        list(torch.nn.GRU(3, 4, bias=False).state_dict())


def test_flat_weights_follow_loaded_and_assigned_weights():
    gru = nn.GRU(3, 4)
    state = {k: v * 0 for k, v in gru.state_dict().items()}
    gru.load_state_dict(state)
    assert all((w == 0).all() for w in gru._flat_weights)
    gru.bias_hh_l0 = np.ones(12, np.float32)
    assert gru._flat_weights[3] is gru.bias_hh_l0
    # zero weights, b_hh = 1, h0 = 0: r = z = sigmoid(1), n = tanh(r), h = (1 - z) * n
    s = 1 / (1 + np.exp(-1.0))
    np.testing.assert_allclose(gru(randn(2, 1, 3))[0][0], np.full((1, 4), (1 - s) * np.tanh(s)),
                               rtol=1e-6)


def test_rnn_errors():
    with pytest.raises(UnsupportedError, match="proj_size=2"):
        nn.LSTM(3, 4, proj_size=2)
    with pytest.raises(ValueError, match="num_layers"):
        nn.GRU(3, 4, num_layers=0)
    with pytest.raises(RuntimeError, match="input_size. Expected 3, got 5"):
        nn.LSTM(3, 4)(randn(2, 1, 5))
    with pytest.raises(ValueError, match="2D or 3D"):
        nn.GRU(3, 4)(randn(2, 1, 1, 3))
    with pytest.raises(RuntimeError, match="Expected hidden size \\(1, 2, 4\\)"):
        nn.GRU(3, 4)(randn(5, 2, 3), randn(1, 3, 4))


@pytest.mark.parametrize("cls", ["LSTMCell", "GRUCell", "RNNCell"])
def test_cell_argument_errors_match_torch(cls):
    cell, tcell = getattr(nn, cls)(3, 4), getattr(torch.nn, cls)(3, 4)
    for bad in (randn(2, 2, 3), randn(2, 5)):
        with pytest.raises(Exception) as want:
            tcell(torch.from_numpy(bad))
        with pytest.raises(type(want.value)):
            cell(bad)
    with pytest.raises(ValueError, match="nonlinearity"):
        nn.RNN(3, 4, nonlinearity="gelu")
