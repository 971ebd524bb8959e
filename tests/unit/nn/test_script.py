"""ember.script(layer) gives the eager layer's results (in process and after save ->
ember.mobile.load), for every ember.nn layer and the options it covers (no torch needed)."""

from __future__ import annotations

import numpy as np
import pytest

import ember
from ember import mobile, nn


def _x(*shape, seed=0, scale=1.0):
    return (np.random.default_rng(seed).standard_normal(shape) * scale).astype(np.float32)


def _idx(*shape):
    return np.random.default_rng(0).integers(0, 10, size=shape)


def _same(got, want):
    if want is None or isinstance(want, tuple):
        assert type(got) is type(want)
        for g, w in zip(got or (), want or ()):
            _same(g, w)
        return
    assert got.shape == want.shape and got.dtype == want.dtype
    np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-6)



CASES = [
    ("Linear", lambda: nn.Linear(5, 3), lambda b: (_x(b, 5),)),
    ("Linear-nobias-3d", lambda: nn.Linear(5, 3, bias=False), lambda b: (_x(b, 2, 5),)),
    ("Bilinear", lambda: nn.Bilinear(3, 4, 2), lambda b: (_x(b, 3), _x(b, 4, seed=1))),
    ("Conv1d-same-dil", lambda: nn.Conv1d(4, 6, 3, padding="same", dilation=2),
     lambda b: (_x(b, 4, 9),)),
    ("Conv1d-stride-groups", lambda: nn.Conv1d(4, 8, 3, stride=2, padding=1, groups=4),
     lambda b: (_x(b, 4, 9),)),
    ("Conv1d-unbatched", lambda: nn.Conv1d(4, 6, 2), lambda b: (_x(4, 9 + b),)),
    ("Conv2d", lambda: nn.Conv2d(4, 6, (3, 2), stride=(2, 1), padding=(1, 0), groups=2),
     lambda b: (_x(b, 4, 9, 8),)),
    ("Conv2d-valid-nobias", lambda: nn.Conv2d(4, 6, 3, padding="valid", bias=False),
     lambda b: (_x(b, 4, 7, 7),)),
    ("Conv2d-unbatched", lambda: nn.Conv2d(4, 6, 3, padding="same"),
     lambda b: (_x(4, 6, 5 + b),)),
    ("Conv2d-reflect", lambda: nn.Conv2d(4, 6, (3, 4), padding="same", padding_mode="reflect"),
     lambda b: (_x(b, 4, 6, 5),)),
    ("Conv1d-circular", lambda: nn.Conv1d(4, 6, 3, padding=2, padding_mode="circular"),
     lambda b: (_x(b, 4, 6),)),
    ("Conv2d-replicate-unbatched", lambda: nn.Conv2d(4, 6, 3, padding=1,
                                                     padding_mode="replicate"),
     lambda b: (_x(4, 6, 4 + b),)),
    ("Conv3d", lambda: nn.Conv3d(4, 6, (3, 2, 3), stride=(1, 2, 1), padding=1, groups=2),
     lambda b: (_x(b, 4, 4, 5, 6),)),
    ("Conv3d-circular-unbatched", lambda: nn.Conv3d(3, 2, 2, padding="same",
                                                    padding_mode="circular"),
     lambda b: (_x(3, 3, 4, 2 + b),)),
    ("ConvTranspose2d", lambda: nn.ConvTranspose2d(4, 6, 3, 2, 1, 1, groups=2),
     lambda b: (_x(b, 4, 5, 6),)),
    ("ConvTranspose2d-output_size", lambda: nn.ConvTranspose2d(4, 3, 3, stride=2),
     lambda b: (_x(b, 4, 3, 4), [8, 10])),
    ("ConvTranspose1d-unbatched", lambda: nn.ConvTranspose1d(3, 2, 3, 2, 1, bias=False,
                                                             dilation=2),
     lambda b: (_x(3, 5 + b),)),
    ("ConvTranspose3d", lambda: nn.ConvTranspose3d(4, 6, 3, 2, 1, 1, groups=2),
     lambda b: (_x(b, 4, 2, 3, 4),)),
    ("ConvTranspose3d-output_size", lambda: nn.ConvTranspose3d(4, 3, 3, stride=2),
     lambda b: (_x(b, 4, 2, 3, 4), [6, 8, 10])),
    ("Upsample", lambda: nn.Upsample(scale_factor=2), lambda b: (_x(b, 3, 4, 5),)),
    ("Upsample-bilinear", lambda: nn.Upsample((5, 7), mode="bilinear", align_corners=False),
     lambda b: (_x(b, 3, 4, 5),)),
    ("UpsamplingBilinear2d", lambda: nn.UpsamplingBilinear2d(scale_factor=2),
     lambda b: (_x(b, 3, 4, 5),)),
    ("UpsamplingNearest2d", lambda: nn.UpsamplingNearest2d((6, 6)),
     lambda b: (_x(b, 3, 4, 5),)),
    ("PixelShuffle", lambda: nn.PixelShuffle(2), lambda b: (_x(b, 8, 3, 4),)),
    ("PixelUnshuffle-unbatched", lambda: nn.PixelUnshuffle(2), lambda b: (_x(3, 4, 2 * b),)),
    ("ZeroPad2d", lambda: nn.ZeroPad2d((1, 2, 0, 3)), lambda b: (_x(b, 3, 4, 5),)),
    ("ConstantPad1d", lambda: nn.ConstantPad1d(2, -0.5), lambda b: (_x(b, 3, 4),)),
    ("ReflectionPad2d", lambda: nn.ReflectionPad2d(2), lambda b: (_x(b, 3, 4, 5),)),
    ("ReplicationPad1d", lambda: nn.ReplicationPad1d((0, 3)), lambda b: (_x(3, 4 + b),)),
    ("CircularPad2d", lambda: nn.CircularPad2d((1, 0, 2, 1)), lambda b: (_x(b, 3, 4, 5),)),
    ("ReflectionPad3d", lambda: nn.ReflectionPad3d(1), lambda b: (_x(b, 2, 3, 4, 5),)),
    ("PReLU", lambda: nn.PReLU(4, 0.1), lambda b: (_x(b, 4, 3),)),
    ("SELU", lambda: nn.SELU(), lambda b: (_x(b, 7, scale=3),)),
    ("CELU", lambda: nn.CELU(0.5), lambda b: (_x(b, 7, scale=3),)),
    ("Mish", lambda: nn.Mish(), lambda b: (_x(b, 7, scale=3),)),
    ("Threshold", lambda: nn.Threshold(0.2, -1.0), lambda b: (_x(b, 7),)),
    ("LogSigmoid", lambda: nn.LogSigmoid(), lambda b: (_x(b, 7, scale=3),)),
    ("Softsign", lambda: nn.Softsign(), lambda b: (_x(b, 7),)),
    ("Tanhshrink", lambda: nn.Tanhshrink(), lambda b: (_x(b, 7),)),
    ("Hardshrink", lambda: nn.Hardshrink(0.7), lambda b: (_x(b, 7),)),
    ("Softshrink", lambda: nn.Softshrink(), lambda b: (_x(b, 7),)),
    ("GLU", lambda: nn.GLU(), lambda b: (_x(b, 3, 8),)),
    ("Softmin-implicit", lambda: nn.Softmin(), lambda b: (_x(b, 2, 7),)),
    ("Softmax2d", lambda: nn.Softmax2d(), lambda b: (_x(3, b + 1, 4),)),
    ("InstanceNorm1d", lambda: nn.InstanceNorm1d(4), lambda b: (_x(b, 4, 5),)),
    ("InstanceNorm2d-affine-unbatched", lambda: nn.InstanceNorm2d(4, affine=True),
     lambda b: (_x(4, 3, 2 + b),)),
    ("InstanceNorm2d-running", lambda: nn.InstanceNorm2d(4, track_running_stats=True),
     lambda b: (_x(b, 4, 3, 3),)),
    ("InstanceNorm3d-affine-unbatched", lambda: nn.InstanceNorm3d(4, affine=True),
     lambda b: (_x(4, 3, 2, 1 + b),)),
    ("InstanceNorm3d-running", lambda: nn.InstanceNorm3d(4, track_running_stats=True),
     lambda b: (_x(b, 4, 2, 3, 3),)),
    ("RMSNorm", lambda: nn.RMSNorm(5), lambda b: (_x(b, 3, 5),)),
    ("RMSNorm-eps", lambda: nn.RMSNorm((3, 5), 1e-2, elementwise_affine=False),
     lambda b: (_x(b, 3, 5),)),
    ("LocalResponseNorm", lambda: nn.LocalResponseNorm(3), lambda b: (_x(b, 5, 3, 3),)),
    ("MaxPool3d", lambda: nn.MaxPool3d(3, 2, 1, ceil_mode=True), lambda b: (_x(b, 3, 5, 6, 7),)),
    ("AvgPool3d-divisor-unbatched", lambda: nn.AvgPool3d(2, divisor_override=3),
     lambda b: (_x(3, 4, 4, 4 + b),)),
    ("AdaptiveAvgPool3d", lambda: nn.AdaptiveAvgPool3d((2, None, 3)),
     lambda b: (_x(b, 3, 4, 5, 7),)),
    ("AdaptiveMaxPool3d", lambda: nn.AdaptiveMaxPool3d(2), lambda b: (_x(b, 3, 4, 5, 7),)),
    ("LPPool1d", lambda: nn.LPPool1d(2, 3, 2), lambda b: (_x(b, 3, 9),)),
    ("LPPool2d-neg-inf", lambda: nn.LPPool2d(-float("inf"), 2), lambda b: (_x(b, 3, 4, 6),)),
    ("LPPool3d-ceil", lambda: nn.LPPool3d(1.5, 2, ceil_mode=True),
     lambda b: (abs(_x(b, 3, 3, 5, 5)),)),
    ("Unfold", lambda: nn.Unfold(3, 1, 1, 2), lambda b: (_x(b, 3, 7, 8),)),
    ("Fold", lambda: nn.Fold((7, 8), 3, padding=1, stride=2), lambda b: (_x(b, 27, 16),)),
    ("AdaptiveMaxPool1d", lambda: nn.AdaptiveMaxPool1d(3), lambda b: (_x(b, 3, 8),)),
    ("AdaptiveMaxPool2d", lambda: nn.AdaptiveMaxPool2d((None, 2)),
     lambda b: (_x(b, 3, 5, 7),)),
    ("ChannelShuffle", lambda: nn.ChannelShuffle(2), lambda b: (_x(b, 4, 3),)),
    ("CosineSimilarity", lambda: nn.CosineSimilarity(-1), lambda b: (_x(b, 5), _x(b, 5, seed=1))),
    ("PairwiseDistance", lambda: nn.PairwiseDistance(3.0, keepdim=True),
     lambda b: (_x(b, 5), _x(b, 5, seed=1))),
    ("EmbeddingBag", lambda: nn.EmbeddingBag(10, 3), lambda b: (_idx(b, 4),)),
    ("EmbeddingBag-offsets", lambda: nn.EmbeddingBag(10, 3, mode="sum", padding_idx=2),
     lambda b: (_idx(7), np.array([0, 3, 3, 5][:b + 1]))),
    ("BatchNorm1d", lambda: nn.BatchNorm1d(4), lambda b: (_x(b, 4, 5),)),
    ("BatchNorm2d", lambda: nn.BatchNorm2d(4), lambda b: (_x(b, 4, 3, 3),)),
    ("BatchNorm3d", lambda: nn.BatchNorm3d(4), lambda b: (_x(b, 4, 2, 3, 3),)),
    ("BatchNorm3d-batch-stats", lambda: nn.BatchNorm3d(4, track_running_stats=False),
     lambda b: (_x(b, 4, 2, 3, 3),)),
    ("BatchNorm1d-batch-stats", lambda: nn.BatchNorm1d(4, track_running_stats=False),
     lambda b: (_x(b + 1, 4),)),
    ("BatchNorm2d-batch-stats", lambda: nn.BatchNorm2d(4, affine=False,
                                                       track_running_stats=False),
     lambda b: (_x(b, 4, 3, 3),)),
    ("LayerNorm", lambda: nn.LayerNorm((3, 5), eps=1e-3), lambda b: (_x(b, 3, 5),)),
    ("LayerNorm-noaffine", lambda: nn.LayerNorm(5, elementwise_affine=False),
     lambda b: (_x(b, 5),)),
    ("GroupNorm", lambda: nn.GroupNorm(2, 4), lambda b: (_x(b, 4, 5),)),
    ("GroupNorm-noaffine", lambda: nn.GroupNorm(4, 4, affine=False),
     lambda b: (_x(b, 4, 2, 3),)),
    ("Embedding", lambda: nn.Embedding(10, 3, padding_idx=0), lambda b: (_idx(b, 4),)),
    ("Dropout", lambda: nn.Dropout(0.2), lambda b: (_x(b, 3),)),
    ("Identity", lambda: nn.Identity(), lambda b: (_x(b, 3),)),
    ("Flatten", lambda: nn.Flatten(), lambda b: (_x(b, 3, 4),)),
    ("Flatten-range", lambda: nn.Flatten(0, -2), lambda b: (_x(b, 3, 4),)),
    ("Unflatten", lambda: nn.Unflatten(1, (2, -1)), lambda b: (_x(b, 6, 4),)),
    ("Unflatten-neg", lambda: nn.Unflatten(-1, (2, 2)), lambda b: (_x(b, 6, 4),)),
    ("ReLU", lambda: nn.ReLU(), lambda b: (_x(b, 7),)),
    ("ReLU6", lambda: nn.ReLU6(), lambda b: (_x(b, 7, scale=5),)),
    ("LeakyReLU", lambda: nn.LeakyReLU(0.2), lambda b: (_x(b, 7),)),
    ("ELU", lambda: nn.ELU(0.5), lambda b: (_x(b, 7),)),
    ("GELU", lambda: nn.GELU(), lambda b: (_x(b, 7),)),
    ("GELU-tanh", lambda: nn.GELU("tanh"), lambda b: (_x(b, 7),)),
    ("SiLU", lambda: nn.SiLU(), lambda b: (_x(b, 7),)),
    ("Sigmoid", lambda: nn.Sigmoid(), lambda b: (_x(b, 7),)),
    ("Tanh", lambda: nn.Tanh(), lambda b: (_x(b, 7),)),
    ("Hardswish", lambda: nn.Hardswish(), lambda b: (_x(b, 7, scale=4),)),
    ("Hardsigmoid", lambda: nn.Hardsigmoid(), lambda b: (_x(b, 7, scale=4),)),
    ("Hardtanh", lambda: nn.Hardtanh(-2.0, 3.0), lambda b: (_x(b, 7, scale=4),)),
    ("Softplus", lambda: nn.Softplus(2.0, 5.0), lambda b: (_x(b, 7, scale=4),)),
    ("Softmax", lambda: nn.Softmax(-1), lambda b: (_x(b, 7),)),
    ("Softmax-implicit", lambda: nn.Softmax(), lambda b: (_x(b, 2, 7),)),
    ("LogSoftmax", lambda: nn.LogSoftmax(1), lambda b: (_x(b, 7),)),
    ("MaxPool1d", lambda: nn.MaxPool1d(3, 2, 1), lambda b: (_x(b, 3, 9),)),
    ("MaxPool1d-unbatched", lambda: nn.MaxPool1d(2), lambda b: (_x(3, 8 + b),)),
    ("MaxPool2d", lambda: nn.MaxPool2d((3, 2), (2, 1), (1, 0), dilation=(1, 2)),
     lambda b: (_x(b, 3, 9, 9),)),
    ("AvgPool1d", lambda: nn.AvgPool1d(3, 2, 1, count_include_pad=False),
     lambda b: (_x(b, 3, 9),)),
    ("AvgPool2d", lambda: nn.AvgPool2d(3, 2, 1), lambda b: (_x(b, 3, 9, 9),)),
    ("AvgPool2d-divisor", lambda: nn.AvgPool2d(3, divisor_override=2),
     lambda b: (_x(b, 3, 9, 9),)),
    ("AdaptiveAvgPool1d", lambda: nn.AdaptiveAvgPool1d(4), lambda b: (_x(b, 3, 9),)),
    ("AdaptiveAvgPool2d", lambda: nn.AdaptiveAvgPool2d((None, 2)),
     lambda b: (_x(b, 3, 9, 9),)),
    ("AdaptiveAvgPool2d-1", lambda: nn.AdaptiveAvgPool2d(1), lambda b: (_x(3, 5, 4 + b),)),
    ("LSTM", lambda: nn.LSTM(5, 7, 2, bidirectional=True), lambda b: (_x(4, b, 5),)),
    ("LSTM-state", lambda: nn.LSTM(5, 7, batch_first=True, bias=False),
     lambda b: (_x(b, 4, 5), (_x(1, b, 7, seed=1), _x(1, b, 7, seed=2)))),
    ("LSTM-unbatched", lambda: nn.LSTM(5, 7), lambda b: (_x(3 + b, 5),)),
    ("GRU", lambda: nn.GRU(5, 7, 2, batch_first=True, bidirectional=True),
     lambda b: (_x(b, 4, 5),)),
    ("GRU-state", lambda: nn.GRU(5, 7, bias=False), lambda b: (_x(4, b, 5), _x(1, b, 7))),
    ("RNN", lambda: nn.RNN(5, 7, 2, batch_first=True, bidirectional=True),
     lambda b: (_x(b, 4, 5),)),
    ("RNN-relu-state", lambda: nn.RNN(5, 7, nonlinearity="relu"),
     lambda b: (_x(4, b, 5), _x(1, b, 7))),
    ("LSTMCell", lambda: nn.LSTMCell(5, 7), lambda b: (_x(b, 5),)),
    ("LSTMCell-state-unbatched", lambda: nn.LSTMCell(5, 7, bias=False),
     lambda b: (_x(5, seed=b), (_x(7, seed=1), _x(7, seed=2)))),
    ("GRUCell", lambda: nn.GRUCell(5, 7), lambda b: (_x(b, 5), _x(b, 7, seed=1))),
    ("RNNCell-relu", lambda: nn.RNNCell(5, 7, nonlinearity="relu"), lambda b: (_x(b, 5),)),
    ("MultiheadAttention", lambda: nn.MultiheadAttention(8, 2),
     lambda b: (_x(4, b, 8), _x(5, b, 8, seed=1), _x(5, b, 8, seed=2))),
    ("MultiheadAttention-bf-nobias", lambda: nn.MultiheadAttention(8, 4, bias=False,
                                                                   batch_first=True),
     lambda b: (_x(b, 4, 8), _x(b, 4, 8, seed=1), _x(b, 4, 8, seed=2))),
    ("TransformerEncoderLayer", lambda: nn.TransformerEncoderLayer(8, 2, 16),
     lambda b: (_x(4, b, 8),)),
    ("TransformerEncoderLayer-prenorm-gelu",
     lambda: nn.TransformerEncoderLayer(8, 2, 16, activation="gelu", norm_first=True,
                                        batch_first=True),
     lambda b: (_x(b, 4, 8),)),
    ("TransformerEncoder", lambda: nn.TransformerEncoder(nn.TransformerEncoderLayer(8, 2, 16),
                                                         2, nn.LayerNorm(8)),
     lambda b: (_x(4, b, 8),)),
    ("TransformerDecoderLayer", lambda: nn.TransformerDecoderLayer(8, 2, 16),
     lambda b: (_x(4, b, 8), _x(3, b, 8, seed=1))),
    ("TransformerDecoder", lambda: nn.TransformerDecoder(
        nn.TransformerDecoderLayer(8, 2, 16, norm_first=True, batch_first=True), 2),
     lambda b: (_x(b, 4, 8), _x(b, 3, 8, seed=1))),
    ("Transformer", lambda: nn.Transformer(8, 2, 1, 2, 16, batch_first=True),
     lambda b: (_x(b, 4, 8), _x(b, 3, 8, seed=1))),
    ("Sequential", lambda: nn.Sequential(nn.Conv2d(3, 4, 3, padding=1), nn.ReLU(),
                                         nn.MaxPool2d(2), nn.Flatten(), nn.Linear(16, 2)),
     lambda b: (_x(b, 3, 4, 4),)),
]


CASES = [pytest.param(*c, id=c[0]) if type(c) is tuple else c for c in CASES]


@pytest.mark.parametrize("name,make,inputs", CASES)
def test_scripted_layer_matches_eager(name, make, inputs):
    nn.init.manual_seed(1)
    layer = make()
    sm = ember.script(layer)
    for b in (1, 3):
        args = inputs(b)
        _same(sm(*args), layer(*args))


MASKED = {
    "bool-padding": lambda b: {"key_padding_mask": np.arange(5)[None, :].repeat(b, 0) > 3},
    "float-attn": lambda b: {"attn_mask": _x(4, 5, seed=3)},
    "bool-attn-3d": lambda b: {"attn_mask": _x(b * 2, 4, 5, seed=4) > 1.0},
    "weights-per-head": lambda b: {"average_attn_weights": False},
    "no-weights": lambda b: {"need_weights": False, "key_padding_mask": _x(b, 5) > 1.0},
}


@pytest.mark.parametrize("kind", list(MASKED))
def test_scripted_attention_masks_match_eager(kind):
    nn.init.manual_seed(2)
    layer = nn.MultiheadAttention(8, 2)
    sm = ember.script(layer)
    for b in (1, 3):
        args = (_x(4, b, 8), _x(5, b, 8, seed=1), _x(5, b, 8, seed=2))
        kwargs = MASKED[kind](b)
        _same(sm(*args, **kwargs), layer(*args, **kwargs))


def test_scripted_encoder_with_masks_matches_eager():
    nn.init.manual_seed(3)
    enc = nn.TransformerEncoder(nn.TransformerEncoderLayer(8, 2, 16, batch_first=True), 2)
    sm = ember.script(enc)
    causal = np.triu(np.full((4, 4), -np.inf, np.float32), k=1)
    pad = np.array([[False, False, False, True], [False] * 4])
    x = _x(2, 4, 8)
    _same(sm(x, causal, pad), enc(x, causal, pad))


@pytest.mark.parametrize("make,args", [
    (lambda: nn.LSTM(4, 6, 2), (_x(3, 2, 4),)),
    (lambda: nn.TransformerEncoderLayer(8, 2, 16), (_x(4, 2, 8),)),
    (lambda: nn.Sequential(nn.Conv1d(3, 4, 3), nn.GELU(), nn.AdaptiveAvgPool1d(1)),
     (_x(2, 3, 9),)),
], ids=["lstm", "encoder-layer", "conv-stack"])
def test_saved_artifact_matches_eager(make, args, tmp_path):
    layer = make()
    path = tmp_path / "layer.ember"
    ember.script(layer).save(path)
    _same(mobile.load(path)(*args), layer(*args))
