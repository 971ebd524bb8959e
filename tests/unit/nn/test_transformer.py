"""TransformerEncoderLayer and TransformerEncoder against torch."""

from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from ember import nn

from .torch_ref import check_layer, max_error, randn, randomize, record, run_torch

D, HEADS, FF, T = 8, 2, 16, 5

# torch warns about its own fast paths and padding choices; not ember's business.
pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")


def _src(batch, batch_first):
    return randn(batch, T, D, seed=batch) if batch_first else randn(T, batch, D, seed=batch)


def _padding(batch):
    mask = np.zeros((batch, T), bool)
    mask[-1, -2:] = True
    return mask


@pytest.mark.parametrize("norm_first", [False, True])
@pytest.mark.parametrize("activation", ["relu", "gelu"])
@pytest.mark.parametrize("batch_first", [False, True])
@pytest.mark.parametrize("bias", [True, False])
def test_encoder_layer(norm_first, activation, batch_first, bias):
    args = {"dim_feedforward": FF, "activation": activation, "batch_first": batch_first,
                "norm_first": norm_first, "bias": bias}
    tm = randomize(torch.nn.TransformerEncoderLayer(D, HEADS, **args))
    check_layer(tm, nn.TransformerEncoderLayer(D, HEADS, **args),
                [(_src(b, batch_first),) for b in (1, 3)])


@pytest.mark.parametrize("norm_first", [False, True])
def test_encoder_layer_masks(norm_first):
    tm = randomize(torch.nn.TransformerEncoderLayer(D, HEADS, FF, batch_first=True,
                                                    norm_first=norm_first))
    layer = nn.TransformerEncoderLayer(D, HEADS, FF, batch_first=True, norm_first=norm_first)
    causal = np.triu(np.full((T, T), -np.inf, np.float32), k=1)
    for b in (1, 3):
        check_layer(tm, layer, [(_src(b, True), causal)])
        check_layer(tm, layer, [(_src(b, True), None, _padding(b))],
                    name="TransformerEncoderLayer(padded)")
        check_layer(tm, layer, [(_src(b, True),)], {"src_mask": causal, "is_causal": True})


def test_encoder_layer_takes_ember_activation_functions():
    layer = nn.TransformerEncoderLayer(D, HEADS, FF, activation=nn.functional.gelu)
    assert layer.activation == "gelu"
    assert nn.TransformerEncoderLayer(D, HEADS, activation=nn.ReLU()).activation == "relu"
    with pytest.raises(RuntimeError, match="relu/gelu"):
        nn.TransformerEncoderLayer(D, HEADS, activation="tanh")
    with pytest.raises(ValueError, match="relu and gelu"):
        nn.TransformerEncoderLayer(D, HEADS, activation=nn.functional.tanh)


def _encoder(norm, norm_first=False, batch_first=True, nested=True):
    layer = torch.nn.TransformerEncoderLayer(D, HEADS, FF, batch_first=batch_first,
                                             norm_first=norm_first, activation="gelu")
    tm = torch.nn.TransformerEncoder(layer, 3, norm=torch.nn.LayerNorm(D) if norm else None,
                                     enable_nested_tensor=nested)
    ours = nn.TransformerEncoder(
        nn.TransformerEncoderLayer(D, HEADS, FF, batch_first=batch_first,
                                   norm_first=norm_first, activation="gelu"),
        3, norm=nn.LayerNorm(D) if norm else None)
    return randomize(tm, seed=7), ours


@pytest.mark.parametrize("norm", [False, True])
@pytest.mark.parametrize("norm_first", [False, True])
@pytest.mark.parametrize("batch_first", [False, True])
def test_encoder_stack(norm, norm_first, batch_first):
    tm, ours = _encoder(norm, norm_first, batch_first)
    causal = np.triu(np.full((T, T), -np.inf, np.float32), k=1)
    check_layer(tm, ours, [(_src(b, batch_first),) for b in (1, 3)])
    check_layer(tm, ours, [(_src(b, batch_first), causal) for b in (1, 3)])


@pytest.mark.parametrize("nested", [False, True])
def test_encoder_stack_key_padding(nested):
    """torch's nested-tensor fast path zeroes padded positions; the others must agree."""
    tm, ours = _encoder(True, nested=nested)
    ours.load_state_dict(tm.state_dict())
    for b in (1, 3):
        src, pad = _src(b, True), _padding(b)
        ref = run_torch(tm, (src, None, pad))
        out = ours(src, None, pad)
        keep = ~pad
        record("TransformerEncoder(padded)",
               max_error(out[keep], torch.from_numpy(ref.numpy()[keep])))


def test_encoder_layers_are_independent_copies():
    enc = nn.TransformerEncoder(nn.TransformerEncoderLayer(D, HEADS, FF), 2)
    assert enc.layers[0].linear1.weight is not enc.layers[1].linear1.weight
    assert list(enc.state_dict()) == list(torch.nn.TransformerEncoder(
        torch.nn.TransformerEncoderLayer(D, HEADS, FF), 2, enable_nested_tensor=False
    ).state_dict())


@pytest.mark.parametrize("batch_first", [False, True])
def test_full_transformer(batch_first):
    args = {"num_encoder_layers": 2, "num_decoder_layers": 1, "dim_feedforward": FF,
            "batch_first": batch_first}
    tm = randomize(torch.nn.Transformer(D, HEADS, **args))
    mask = nn.Transformer.generate_square_subsequent_mask(4)
    np.testing.assert_array_equal(mask, torch.nn.Transformer.generate_square_subsequent_mask(4))
    tgt = [randn(b, 4, D, seed=7) if batch_first else randn(4, b, D, seed=7) for b in (1, 3)]
    check_layer(tm, nn.Transformer(D, HEADS, **args),
                [(_src(b, batch_first), t, None, mask) for b, t in zip((1, 3), tgt)])


def test_full_transformer_checks_its_inputs():
    m = nn.Transformer(D, HEADS, 1, 1, FF, batch_first=True)
    with pytest.raises(RuntimeError, match="batch number of src and tgt"):
        m(randn(2, 5, D), randn(3, 4, D))
    with pytest.raises(RuntimeError, match="feature number"):
        m(randn(2, 5, D), randn(2, 4, D + 1))
