"""torch -> ember.nn conversion: the table, copied weights and hyper-parameters, refusals."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from ember import nn
from ember.errors import UnsupportedError
from ember.nn.from_torch import PADDING_LAYERS, TORCH_LAYERS, _ao_table, convert_layer

from .torch_ref import randomize

LAYERS = [
    "Linear", "Bilinear", "Conv1d", "Conv2d", "Conv3d", "ConvTranspose1d", "ConvTranspose2d",
    "ConvTranspose3d",
    "BatchNorm1d", "BatchNorm2d", "BatchNorm3d", "LayerNorm",
    "GroupNorm", "Embedding", "Dropout", "ReLU", "ReLU6", "LeakyReLU", "ELU", "GELU", "SiLU",
    "Sigmoid", "Tanh", "Hardswish", "Hardsigmoid", "Hardtanh", "Softplus", "Softmax",
    "LogSoftmax", "MaxPool1d", "MaxPool2d", "MaxPool3d", "AvgPool1d", "AvgPool2d", "AvgPool3d",
    "AdaptiveAvgPool1d", "AdaptiveAvgPool2d", "AdaptiveAvgPool3d", "Flatten", "Unflatten",
    "Identity", "LSTM", "GRU",
    "MultiheadAttention", "TransformerEncoderLayer", "TransformerEncoder", "Upsample",
    "UpsamplingNearest2d", "UpsamplingBilinear2d", "PixelShuffle", "PixelUnshuffle",
    *PADDING_LAYERS, "PReLU", "SELU", "CELU", "Mish", "Threshold", "LogSigmoid", "Softsign",
    "Tanhshrink", "Hardshrink", "Softshrink", "GLU", "Softmin", "Softmax2d", "InstanceNorm1d",
    "InstanceNorm2d", "InstanceNorm3d", "RMSNorm", "LocalResponseNorm", "AdaptiveMaxPool1d",
    "AdaptiveMaxPool2d", "AdaptiveMaxPool3d", "LPPool1d", "LPPool2d", "LPPool3d",
    "MaxUnpool1d", "MaxUnpool2d", "MaxUnpool3d",
    "Fold", "Unfold",
    "RNN", "LSTMCell", "GRUCell", "RNNCell", "ChannelShuffle", "CosineSimilarity",
    "PairwiseDistance", "EmbeddingBag", "TransformerDecoderLayer", "TransformerDecoder",
    "Transformer",
]


def test_table_covers_every_ember_layer():
    for name in LAYERS:
        assert getattr(torch.nn, name) in TORCH_LAYERS, name
        assert hasattr(nn, name)
    extra = {torch.nn.modules.linear.NonDynamicallyQuantizableLinear, torch.nn.Dropout1d,
             torch.nn.Dropout2d, torch.nn.Dropout3d, torch.nn.AlphaDropout, torch.nn.RReLU,
             torch.nn.FeatureAlphaDropout, torch.ao.nn.quantized.dynamic.Linear,
             *_ao_table()}
    assert set(TORCH_LAYERS) == {getattr(torch.nn, n) for n in LAYERS} | extra


@pytest.mark.parametrize("name,rank", [("Dropout1d", 3), ("Dropout2d", 4), ("Dropout3d", 5),
                                       ("AlphaDropout", 2)])
def test_dropout_variants_are_identities_at_inference(name, rank):
    tm = getattr(torch.nn, name)(0.4).eval()
    layer = convert_layer(tm)
    assert isinstance(layer, nn.Dropout) and layer.p == 0.4
    x = np.random.default_rng(0).standard_normal((2, 3, 4, 5, 6)[:rank]).astype(np.float32)
    np.testing.assert_array_equal(layer(x), tm(torch.from_numpy(x)).numpy())


def test_importing_from_torch_does_not_import_torch():
    code = ("import sys; import ember.nn.from_torch, ember.nn; "
            "sys.exit(1 if 'torch' in sys.modules else 0)")
    assert subprocess.run([sys.executable, "-c", code], check=False).returncode == 0


def test_weights_and_buffers_are_copied_with_their_dtypes():
    tm = randomize(torch.nn.BatchNorm2d(3))
    layer = convert_layer(tm)
    assert isinstance(layer, nn.BatchNorm2d)
    for k, v in tm.state_dict().items():
        assert layer.state_dict()[k].dtype == v.numpy().dtype
        np.testing.assert_array_equal(layer.state_dict()[k], v.numpy())
    tm.weight.data.fill_(5.0)  # a copy, not a view of torch's storage
    assert (layer.weight != 5.0).all()
    double = convert_layer(torch.nn.Linear(3, 2).double())
    assert double.weight.dtype == np.float64 and double.bias.dtype == np.float64


def test_hyper_parameters_are_copied():
    conv = convert_layer(torch.nn.Conv2d(4, 8, (3, 2), stride=(2, 1), padding="valid",
                                         dilation=2, groups=2, bias=False,
                                         padding_mode="circular"))
    assert (conv.kernel_size, conv.stride, conv.padding, conv.dilation, conv.groups,
            conv.padding_mode) == ((3, 2), (2, 1), "valid", (2, 2), 2, "circular")
    assert conv.bias is None
    lstm = convert_layer(torch.nn.LSTM(3, 4, 2, batch_first=True, bidirectional=True))
    assert (lstm.num_layers, lstm.batch_first, lstm.bidirectional) == (2, True, True)
    assert convert_layer(torch.nn.LeakyReLU(0.3)).negative_slope == 0.3
    assert convert_layer(torch.nn.GELU("tanh")).approximate == "tanh"
    enc = convert_layer(torch.nn.TransformerEncoderLayer(8, 2, 16, 0.0, "gelu",
                                                         norm_first=True, batch_first=True))
    assert (enc.activation, enc.norm_first, enc.self_attn.batch_first) == ("gelu", True, True)
    assert enc.linear1.out_features == 16
    assert not enc.training


def test_encoder_with_torch_functional_activation():
    tm = torch.nn.TransformerEncoderLayer(8, 2, 16, activation=torch.nn.functional.gelu)
    assert convert_layer(tm).activation == "gelu"
    tm = torch.nn.TransformerEncoderLayer(8, 2, 16, activation=torch.nn.ReLU())
    assert convert_layer(tm).activation == "relu"


@pytest.mark.parametrize("make,option", [
    (lambda: torch.nn.LSTM(3, 4, proj_size=2), "proj_size=2"),
    (lambda: torch.nn.MultiheadAttention(8, 2, kdim=4, vdim=4), "kdim"),
    (lambda: torch.nn.MultiheadAttention(8, 2, add_bias_kv=True), "add_bias_kv"),
    (lambda: torch.nn.MultiheadAttention(8, 2, add_zero_attn=True), "add_zero_attn"),
    (lambda: torch.nn.Embedding(5, 3, max_norm=1.0), "max_norm"),
    (lambda: torch.nn.TransformerEncoderLayer(8, 2, activation=torch.tanh), "activation"),
], ids=lambda v: v if isinstance(v, str) else "")
def test_unhonourable_options_are_refused_by_name(make, option):
    with pytest.raises(UnsupportedError, match=option.replace("(", "\\(")):
        convert_layer(make())


def test_layers_without_an_equivalent_say_what_to_do():
    with pytest.raises(UnsupportedError) as ei:
        convert_layer(torch.nn.FractionalMaxPool2d(2, output_size=2))
    msg = str(ei.value)
    assert "torch.nn.FractionalMaxPool2d" in msg and "no equivalent" in msg
    assert "custom nn.Module" in msg


@pytest.mark.parametrize("container", [torch.nn.Sequential(torch.nn.ReLU()),
                                       torch.nn.ModuleList([torch.nn.ReLU()]),
                                       torch.nn.ModuleDict({"a": torch.nn.ReLU()})],
                         ids=lambda m: type(m).__name__)
def test_containers_are_left_to_the_compiler(container):
    with pytest.raises(UnsupportedError, match="container: ember.script walks containers"):
        convert_layer(container)


def test_user_modules_and_subclasses_are_left_to_the_compiler():
    class Mine(torch.nn.Module):
        def forward(self, x):
            return x

    class MyLinear(torch.nn.Linear):
        def forward(self, x):
            return super().forward(x) * 2

    for m in (Mine(), MyLinear(2, 2)):
        with pytest.raises(UnsupportedError, match="user-defined module"):
            convert_layer(m)
    with pytest.raises(UnsupportedError, match="expects a torch.nn.Module"):
        convert_layer(3)


@pytest.mark.parametrize("make,shape", [
    (lambda: torch.nn.Conv2d(3, 4, 3, padding=1), (2, 3, 5, 5)),
    (lambda: torch.nn.LSTM(3, 4, bidirectional=True), (5, 2, 3)),
    (lambda: torch.nn.TransformerEncoderLayer(8, 2, 16), (5, 2, 8)),
], ids=["conv", "lstm", "encoder-layer"])
def test_float64_layers_stay_float64(make, shape):
    tm = randomize(make().double())
    layer = convert_layer(tm)
    x = np.random.default_rng(0).standard_normal(shape)
    with torch.no_grad():
        want = tm(torch.from_numpy(x))
    got = layer(x)
    want, got = (want[0], got[0]) if isinstance(want, tuple) else (want, got)
    assert got.dtype == np.float64
    np.testing.assert_allclose(got, want.numpy(), rtol=1e-10, atol=1e-12)


def test_converting_leaves_the_init_sequence_alone():
    """A converted layer's weights come from torch: converting draws nothing from ember's
    seeded init sequence, so layers made afterwards are the same as without it."""
    nn.init.manual_seed(5)
    expected = nn.Linear(6, 4).weight.copy()
    nn.init.manual_seed(5)
    tl = torch.nn.Linear(6, 4)
    layer = convert_layer(tl)
    conv = convert_layer(torch.nn.Conv2d(2, 3, 3))
    assert (nn.Linear(6, 4).weight == expected).all()
    assert np.array_equal(layer.weight, tl.weight.detach().numpy())
    assert conv.weight.shape == (3, 2, 3, 3) and np.isfinite(conv.weight).all()


def test_no_draws_nests_and_restores_drawing():
    with nn.init.no_draws():
        with nn.init.no_draws():
            pass
        assert nn.Linear(2, 2).weight.shape == (2, 2)
    nn.init.manual_seed(1)
    a = nn.Linear(3, 3).weight
    nn.init.manual_seed(1)
    assert (nn.Linear(3, 3).weight == a).all() and abs(a).max() > 0


def test_a_transformer_with_custom_stacks_is_refused_by_name():
    tm = torch.nn.Transformer(8, 2, 1, 1, 16, custom_encoder=torch.nn.Identity())
    with pytest.raises(UnsupportedError, match="custom Identity"):
        convert_layer(tm)
