"""torch.nn layers converted by ember.script: scripted, saved, loaded with
ember.mobile.load, and giving torch's eager outputs at two batch sizes, the same bits as the
scripted program run in process."""

from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch")

import ember
from ember import mobile

from .torch_ref import max_error, randn, randomize, record, run_torch

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")

nn = torch.nn


class Decoder(nn.Module):
    """A cell unrolled over a sequence in Python (as decoders and streaming models do)."""

    def __init__(self):
        super().__init__()
        self.cell = nn.LSTMCell(5, 6)
        self.out = nn.Linear(6, 5)

    def forward(self, x, steps: int):
        h = torch.zeros(x.shape[0], 6)
        c = torch.zeros(x.shape[0], 6)
        outs = []
        for _ in range(steps):
            h, c = self.cell(x, (h, c))
            x = self.out(h)
            outs.append(x)
        return torch.stack(outs, 1)


class UpTo(nn.Module):
    """A transposed convolution told its output size (as U-Nets match skip connections)."""

    def __init__(self):
        super().__init__()
        self.up = nn.ConvTranspose2d(4, 3, 3, stride=2, padding=1)

    def forward(self, x, skip):
        return self.up(x, output_size=skip.shape) + skip


class PoolUnpool(nn.Module):
    """A max pool's indices feeding an unpool to the input's size (SegNet's decoder)."""

    def __init__(self, n: int):
        super().__init__()
        self.pool = getattr(nn, f"MaxPool{n}d")(3, 2, 1, return_indices=True)
        self.unpool = getattr(nn, f"MaxUnpool{n}d")(3, 2, 1)

    def forward(self, x):
        y, indices = self.pool(x)
        return self.unpool(y * 2.0, indices, output_size=x.shape)


CASES = [
    ("Conv3d", lambda: nn.Conv3d(4, 6, 3, (1, 2, 2), 1, groups=2),
     lambda b: (randn(b, 4, 5, 6, 7),)),
    ("Conv3d-same-dilated", lambda: nn.Conv3d(3, 4, (2, 3, 3), padding="same",
                                              dilation=(1, 2, 1), bias=False),
     lambda b: (randn(b, 3, 4, 6, 5),)),
    ("Conv3d-replicate-unbatched", lambda: nn.Conv3d(3, 2, 3, padding=1,
                                                     padding_mode="replicate"),
     lambda b: (randn(3, 4, 5, 3 + b),)),
    ("Conv3d-pointwise", lambda: nn.Conv3d(3, 5, 1), lambda b: (randn(b, 3, 2, 3, 4),)),
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
    ("ConvTranspose3d", lambda: nn.ConvTranspose3d(4, 6, 3, 2, 1, 1, groups=2),
     lambda b: (randn(b, 4, 3, 4, 5),)),
    ("ConvTranspose3d-tiles-unbatched", lambda: nn.ConvTranspose3d(3, 2, 2, 2, bias=False),
     lambda b: (randn(3, 2, 3, 3 + b),)),
    ("ConvTranspose3d-dilated", lambda: nn.ConvTranspose3d(3, 2, (3, 2, 2), (1, 2, 1),
                                                           (2, 0, 1), (0, 1, 0), dilation=2),
     lambda b: (randn(b, 3, 3, 4, 5),)),
    ("ConvTranspose1d", lambda: nn.ConvTranspose1d(4, 6, 4, 2, 1, groups=2),
     lambda b: (randn(b, 4, 9),)),
    ("ConvTranspose1d-outpad", lambda: nn.ConvTranspose1d(3, 2, 3, 3, 1, 2, bias=False),
     lambda b: (randn(b, 3, 7),)),
    ("Upsample-nearest", lambda: nn.Upsample(scale_factor=2), lambda b: (randn(b, 3, 4, 5),)),
    ("Upsample-size", lambda: nn.Upsample(size=(7, 9)), lambda b: (randn(b, 3, 4, 5),)),
    ("Upsample-bilinear", lambda: nn.Upsample(scale_factor=(2.0, 1.5), mode="bilinear"),
     lambda b: (randn(b, 3, 4, 6),)),
    ("Upsample-bilinear-corners", lambda: nn.Upsample(size=(8, 3), mode="bilinear",
                                                      align_corners=True),
     lambda b: (randn(b, 3, 4, 6),)),
    ("Upsample-linear-recompute", lambda: nn.Upsample(scale_factor=1.7, mode="linear",
                                                      recompute_scale_factor=True),
     lambda b: (randn(b, 3, 5),)),
    ("Upsample-nearest-exact", lambda: nn.Upsample(scale_factor=(1.7, 2.3),
                                                   mode="nearest-exact"),
     lambda b: (randn(b, 3, 5, 4),)),
    ("Upsample-nearest-3d", lambda: nn.Upsample(size=(3, 7, 5)),
     lambda b: (randn(b, 2, 4, 3, 5),)),
    ("Upsample-bicubic", lambda: nn.Upsample(scale_factor=2.5, mode="bicubic"),
     lambda b: (randn(b, 3, 4, 5),)),
    ("Upsample-bicubic-corners", lambda: nn.Upsample(size=(7, 3), mode="bicubic",
                                                     align_corners=True),
     lambda b: (randn(b, 3, 4, 6),)),
    ("Upsample-trilinear", lambda: nn.Upsample(scale_factor=(1.5, 2.0, 0.7),
                                               mode="trilinear"),
     lambda b: (randn(b, 2, 4, 3, 6),)),
    ("Upsample-trilinear-corners-recompute", lambda: nn.Upsample(
        scale_factor=1.6, mode="trilinear", align_corners=True, recompute_scale_factor=True),
     lambda b: (randn(b, 2, 3, 4, 5),)),
    ("Upsample-area", lambda: nn.Upsample(size=(3, 5), mode="area"),
     lambda b: (randn(b, 3, 7, 8),)),
    ("Upsample-area-1d", lambda: nn.Upsample(scale_factor=0.6, mode="area"),
     lambda b: (randn(b, 3, 9),)),
    ("UpsamplingNearest2d", lambda: nn.UpsamplingNearest2d(scale_factor=3),
     lambda b: (randn(b, 2, 3, 4),)),
    ("UpsamplingBilinear2d", lambda: nn.UpsamplingBilinear2d(scale_factor=2),
     lambda b: (randn(b, 2, 3, 4),)),
    ("PixelShuffle", lambda: nn.PixelShuffle(3), lambda b: (randn(b, 18, 3, 4),)),
    ("PixelShuffle-5d", lambda: nn.PixelShuffle(2), lambda b: (randn(b, 2, 8, 3, 4),)),
    ("PixelUnshuffle", lambda: nn.PixelUnshuffle(2), lambda b: (randn(b, 3, 4, 6),)),
    ("ZeroPad1d", lambda: nn.ZeroPad1d((1, 2)), lambda b: (randn(b, 3, 5),)),
    ("ZeroPad2d", lambda: nn.ZeroPad2d(2), lambda b: (randn(b, 3, 4, 5),)),
    ("ZeroPad2d-crop", lambda: nn.ZeroPad2d((1, -1, -2, 0)), lambda b: (randn(b, 3, 4, 5),)),
    ("ZeroPad3d", lambda: nn.ZeroPad3d((1, 0, 0, 1, 2, 1)), lambda b: (randn(b, 2, 3, 4, 5),)),
    ("ConstantPad1d", lambda: nn.ConstantPad1d(2, 3.5), lambda b: (randn(3, 5 + b),)),
    ("ConstantPad2d", lambda: nn.ConstantPad2d((1, 0, 2, 3), -1.0),
     lambda b: (randn(b, 3, 4, 5),)),
    ("ConstantPad3d", lambda: nn.ConstantPad3d(1, 0.5), lambda b: (randn(b, 2, 3, 4, 5),)),
    ("ReflectionPad1d", lambda: nn.ReflectionPad1d((3, 1)), lambda b: (randn(b, 3, 5),)),
    ("ReflectionPad2d", lambda: nn.ReflectionPad2d(2), lambda b: (randn(b, 3, 4, 5),)),
    ("ReflectionPad2d-unbatched", lambda: nn.ReflectionPad2d((0, 1, 3, 2)),
     lambda b: (randn(3, 4, 4 + b),)),
    ("ReflectionPad3d", lambda: nn.ReflectionPad3d(1), lambda b: (randn(b, 2, 3, 4, 5),)),
    ("ReplicationPad1d", lambda: nn.ReplicationPad1d(4), lambda b: (randn(b, 3, 2),)),
    ("ReplicationPad2d", lambda: nn.ReplicationPad2d((1, 2, 3, 4)),
     lambda b: (randn(b, 3, 4, 5),)),
    ("ReplicationPad3d", lambda: nn.ReplicationPad3d((2, 0, 1, 1, 0, 2)),
     lambda b: (randn(b, 2, 3, 4, 5),)),
    ("CircularPad1d", lambda: nn.CircularPad1d((2, 5)), lambda b: (randn(b, 3, 5),)),
    ("CircularPad2d", lambda: nn.CircularPad2d(1), lambda b: (randn(b, 3, 4, 5),)),
    ("CircularPad3d", lambda: nn.CircularPad3d((1, 2, 0, 1, 1, 0)),
     lambda b: (randn(b, 2, 3, 4, 5),)),
    ("PReLU", lambda: nn.PReLU(), lambda b: (randn(b, 3, 4),)),
    ("PReLU-channels", lambda: nn.PReLU(3), lambda b: (randn(b, 3, 4, 5),)),
    ("SELU", nn.SELU, lambda b: (randn(b, 7, scale=3),)),
    ("CELU", lambda: nn.CELU(0.7), lambda b: (randn(b, 7, scale=3),)),
    ("Mish", nn.Mish, lambda b: (randn(b, 7, scale=3),)),
    ("Threshold", lambda: nn.Threshold(0.1, 20.0), lambda b: (randn(b, 7),)),
    ("LogSigmoid", nn.LogSigmoid, lambda b: (randn(b, 7, scale=3),)),
    ("Softsign", nn.Softsign, lambda b: (randn(b, 7, scale=3),)),
    ("Tanhshrink", nn.Tanhshrink, lambda b: (randn(b, 7, scale=3),)),
    ("Hardshrink", lambda: nn.Hardshrink(0.3), lambda b: (randn(b, 7),)),
    ("Softshrink", lambda: nn.Softshrink(0.3), lambda b: (randn(b, 7),)),
    ("GLU", lambda: nn.GLU(1), lambda b: (randn(b, 6, 3),)),
    ("Softmin", lambda: nn.Softmin(-1), lambda b: (randn(b, 2, 7),)),
    ("Softmin-implicit", nn.Softmin, lambda b: (randn(b, 7),)),
    ("Softmax2d", nn.Softmax2d, lambda b: (randn(b, 3, 2, 4),)),
    ("RReLU", lambda: nn.RReLU(0.1, 0.3), lambda b: (randn(b, 7),)),
    ("InstanceNorm1d", lambda: nn.InstanceNorm1d(3), lambda b: (randn(b, 3, 7),)),
    ("InstanceNorm1d-unbatched-affine", lambda: nn.InstanceNorm1d(3, affine=True),
     lambda b: (randn(3, 5 + b),)),
    ("InstanceNorm2d-affine", lambda: nn.InstanceNorm2d(4, eps=1e-3, affine=True),
     lambda b: (randn(b, 4, 5, 6),)),
    ("InstanceNorm2d-running", lambda: nn.InstanceNorm2d(4, affine=True,
                                                         track_running_stats=True),
     lambda b: (randn(b, 4, 5, 6),)),
    ("InstanceNorm3d", lambda: nn.InstanceNorm3d(3), lambda b: (randn(b, 3, 4, 5, 2),)),
    ("InstanceNorm3d-running-unbatched", lambda: nn.InstanceNorm3d(3, affine=True,
                                                                   track_running_stats=True),
     lambda b: (randn(3, 4, 5, 1 + b),)),
    ("BatchNorm3d", lambda: nn.BatchNorm3d(4), lambda b: (randn(b, 4, 3, 2, 5),)),
    ("Conv3d-BatchNorm3d", lambda: nn.Sequential(nn.Conv3d(3, 4, 3, padding=1),
                                                 nn.BatchNorm3d(4), nn.ReLU()),
     lambda b: (randn(b, 3, 4, 5, 6),)),
    ("RMSNorm", lambda: nn.RMSNorm(6), lambda b: (randn(b, 3, 6),)),
    ("RMSNorm-2d-eps", lambda: nn.RMSNorm((3, 4), eps=1e-3), lambda b: (randn(b, 3, 4),)),
    ("RMSNorm-noaffine", lambda: nn.RMSNorm([5], elementwise_affine=False),
     lambda b: (randn(b, 5),)),
    ("LocalResponseNorm", lambda: nn.LocalResponseNorm(3, 1e-2, 0.75, 2.0),
     lambda b: (randn(b, 6, 4, 5, scale=3),)),
    ("LocalResponseNorm-3d", lambda: nn.LocalResponseNorm(4), lambda b: (randn(b, 6, 5),)),
    ("MaxPool3d", lambda: nn.MaxPool3d(3, 2, 1), lambda b: (randn(b, 3, 5, 6, 7),)),
    ("MaxPool3d-dilated-ceil-unbatched", lambda: nn.MaxPool3d((2, 3, 2), (1, 2, 2), (1, 1, 0),
                                                              (2, 1, 1), ceil_mode=True),
     lambda b: (randn(3, 5, 6, 6 + b),)),
    ("AvgPool3d", lambda: nn.AvgPool3d(3, 2, 1, count_include_pad=False),
     lambda b: (randn(b, 3, 5, 6, 7),)),
    ("AvgPool3d-ceil-divisor", lambda: nn.AvgPool3d((2, 3, 3), 2, 1, True, True, 6),
     lambda b: (randn(b, 3, 5, 6, 7),)),
    ("AvgPool2d-ceil-divisor", lambda: nn.AvgPool2d(3, 2, 1, True, True, 4),
     lambda b: (randn(b, 3, 6, 7),)),
    ("AdaptiveAvgPool3d", lambda: nn.AdaptiveAvgPool3d((2, None, 3)),
     lambda b: (randn(b, 3, 5, 6, 7),)),
    ("AdaptiveAvgPool3d-global-unbatched", lambda: nn.AdaptiveAvgPool3d(1),
     lambda b: (randn(3, 5, 6, 6 + b),)),
    ("AdaptiveMaxPool3d", lambda: nn.AdaptiveMaxPool3d((4, 2, 3)),
     lambda b: (randn(b, 3, 5, 6, 7),)),
    ("LPPool1d", lambda: nn.LPPool1d(2, 3), lambda b: (randn(b, 3, 9),)),
    ("LPPool2d-ceil", lambda: nn.LPPool2d(1.5, (3, 2), 2, ceil_mode=True),
     lambda b: (abs(randn(b, 3, 7, 6)),)),
    ("LPPool2d-inf-unbatched", lambda: nn.LPPool2d(float("inf"), 2),
     lambda b: (randn(3, 4, 4 + 2 * b),)),
    ("LPPool3d", lambda: nn.LPPool3d(3, 2), lambda b: (abs(randn(b, 3, 4, 5, 6)),)),
    ("Unfold", lambda: nn.Unfold((3, 2), (1, 2), 1, (2, 1)), lambda b: (randn(b, 3, 7, 8),)),
    ("Unfold-unbatched", lambda: nn.Unfold(2), lambda b: (randn(3, 4, 4 + b),)),
    ("Fold", lambda: nn.Fold((7, 8), (3, 2), (1, 2), 1, (2, 1)),
     lambda b: (randn(b, 18, 32),)),
    ("Fold-unbatched", lambda: nn.Fold(5, 2, stride=1), lambda b: (randn(12, 16),)),
    ("AdaptiveMaxPool1d", lambda: nn.AdaptiveMaxPool1d(4), lambda b: (randn(b, 3, 9),)),
    ("AdaptiveMaxPool2d", lambda: nn.AdaptiveMaxPool2d((3, None)),
     lambda b: (randn(b, 3, 7, 5),)),
    ("AdaptiveMaxPool2d-unbatched", lambda: nn.AdaptiveMaxPool2d(2),
     lambda b: (randn(3, 5, 4 + b),)),
    ("MaxPool1d-indices", lambda: nn.MaxPool1d(3, 2, 1, return_indices=True),
     lambda b: (randn(b, 3, 11),)),
    ("MaxPool2d-indices-unbatched", lambda: nn.MaxPool2d(3, 2, 1, 2, True, True),
     lambda b: (randn(3, 7, 6 + b),)),
    ("MaxPool3d-indices", lambda: nn.MaxPool3d((2, 3, 2), 2, return_indices=True),
     lambda b: (randn(b, 3, 5, 6, 7),)),
    ("AdaptiveMaxPool1d-indices", lambda: nn.AdaptiveMaxPool1d(4, True),
     lambda b: (randn(b, 3, 9),)),
    ("AdaptiveMaxPool2d-indices", lambda: nn.AdaptiveMaxPool2d((3, None), True),
     lambda b: (randn(b, 3, 7, 5),)),
    ("AdaptiveMaxPool3d-indices", lambda: nn.AdaptiveMaxPool3d((2, 3, 4), True),
     lambda b: (randn(b, 3, 5, 6, 7),)),
    ("MaxUnpool1d", lambda: PoolUnpool(1), lambda b: (randn(b, 3, 10),)),
    ("MaxUnpool2d", lambda: PoolUnpool(2), lambda b: (randn(b, 3, 7, 8),)),
    ("MaxUnpool2d-unbatched-default-size", lambda: nn.MaxUnpool2d(2),
     lambda b: (randn(3, 2, 2 + b), np.tile(np.arange(4 + 2 * b) * 2, 3).reshape(3, 2, 2 + b))),
    ("MaxUnpool3d", lambda: PoolUnpool(3), lambda b: (randn(b, 2, 5, 6, 7),)),
    ("RNN", lambda: nn.RNN(5, 7, 2, bidirectional=True), lambda b: (randn(4, b, 5),)),
    ("RNN-relu-state", lambda: nn.RNN(5, 7, nonlinearity="relu", batch_first=True, bias=False),
     lambda b: (randn(b, 4, 5), randn(1, b, 7, seed=2))),
    ("RNN-unbatched", lambda: nn.RNN(5, 7), lambda b: (randn(3 + b, 5),)),
    ("LSTMCell", lambda: nn.LSTMCell(5, 7), lambda b: (randn(b, 5),)),
    ("LSTMCell-state", lambda: nn.LSTMCell(5, 7, bias=False),
     lambda b: (randn(b, 5), (randn(b, 7, seed=2), randn(b, 7, seed=3)))),
    ("LSTMCell-unbatched", lambda: nn.LSTMCell(5, 7),
     lambda b: (randn(5, seed=b), (randn(7, seed=2), randn(7, seed=3)))),
    ("GRUCell", lambda: nn.GRUCell(5, 7), lambda b: (randn(b, 5), randn(b, 7, seed=2))),
    ("GRUCell-unbatched", lambda: nn.GRUCell(5, 7, bias=False), lambda b: (randn(5, seed=b),)),
    ("RNNCell", lambda: nn.RNNCell(5, 7), lambda b: (randn(b, 5),)),
    ("RNNCell-relu", lambda: nn.RNNCell(5, 7, nonlinearity="relu"),
     lambda b: (randn(b, 5), randn(b, 7, seed=2))),
    ("LSTMCell-decoder", Decoder, lambda b: (randn(b, 5), 3 + b)),
    ("ChannelShuffle", lambda: nn.ChannelShuffle(3), lambda b: (randn(b, 6, 2, 3),)),
    ("CosineSimilarity", lambda: nn.CosineSimilarity(), lambda b: (randn(b, 6, 3),
                                                                   randn(b, 6, 3, seed=2))),
    ("CosineSimilarity-broadcast", lambda: nn.CosineSimilarity(-1, 1e-4),
     lambda b: (randn(b, 4, 5), randn(1, 5, seed=2))),
    ("PairwiseDistance", lambda: nn.PairwiseDistance(), lambda b: (randn(b, 6),
                                                                   randn(b, 6, seed=2))),
    ("PairwiseDistance-p1-keepdim", lambda: nn.PairwiseDistance(1.0, 1e-3, True),
     lambda b: (randn(b, 3, 6), randn(b, 3, 6, seed=2))),
    ("FeatureAlphaDropout", lambda: nn.FeatureAlphaDropout(0.3), lambda b: (randn(b, 3, 4),)),
    ("EmbeddingBag-2d", lambda: nn.EmbeddingBag(10, 4, padding_idx=3),
     lambda b: (np.arange(4 * b).reshape(b, 4) % 10,)),
    ("EmbeddingBag-offsets-max", lambda: nn.EmbeddingBag(10, 4, mode="max"),
     lambda b: (np.arange(5 + b) % 10, np.array([0, 2, 2][:b + 1]))),
    ("EmbeddingBag-weighted-sum", lambda: nn.EmbeddingBag(10, 4, mode="sum",
                                                           include_last_offset=True),
     lambda b: (np.arange(6), np.array([0, 6] if b == 1 else [0, 1, 1, 6]), randn(6, seed=2))),
    ("TransformerDecoderLayer", lambda: nn.TransformerDecoderLayer(8, 2, 16, 0.0),
     lambda b: (randn(4, b, 8), randn(5, b, 8, seed=2))),
    ("TransformerDecoderLayer-prenorm-gelu-bf",
     lambda: nn.TransformerDecoderLayer(8, 2, 16, 0.0, "gelu", batch_first=True,
                                        norm_first=True),
     lambda b: (randn(b, 4, 8), randn(b, 3, 8, seed=2))),
    ("TransformerDecoder-causal", lambda: nn.TransformerDecoder(
        nn.TransformerDecoderLayer(8, 2, 16, 0.0, batch_first=True), 2, nn.LayerNorm(8)),
     lambda b: (randn(b, 4, 8), randn(b, 5, 8, seed=2),
                np.triu(np.full((4, 4), -np.inf, np.float32), 1))),
    ("Transformer", lambda: nn.Transformer(8, 2, 2, 1, 16, 0.0),
     lambda b: (randn(5, b, 8), randn(4, b, 8, seed=2))),
    ("Transformer-bf-prenorm-masks",
     lambda: nn.Transformer(8, 2, 1, 2, 16, 0.0, "gelu", batch_first=True, norm_first=True),
     lambda b: (randn(b, 5, 8), randn(b, 4, 8, seed=2), np.zeros((5, 5), np.float32),
                np.triu(np.full((4, 4), -np.inf, np.float32), 1))),
]
CASES = [pytest.param(*c, id=c[0]) for c in CASES]


@pytest.mark.parametrize("name,make,inputs", CASES)
def test_saved_torch_layer_matches_torch(name, make, inputs, tmp_path):
    tm = randomize(make(), seed=3)
    path = tmp_path / "layer.ember"
    scripted = ember.script(tm)
    scripted.save(path)
    loaded = mobile.load(path)
    for b in (1, 3):
        args = inputs(b)
        out = loaded(*args)
        record(f"saved({name})", max_error(out, run_torch(tm, args)))
        _assert_identical(out, scripted(*args))


def _assert_identical(a, b):
    """In-process and loaded runs of one program give the same bits."""
    if isinstance(a, tuple):
        assert isinstance(b, tuple) and len(a) == len(b)
        for x, y in zip(a, b):
            _assert_identical(x, y)
        return
    assert a.dtype == b.dtype and a.shape == b.shape
    np.testing.assert_array_equal(a, b)


