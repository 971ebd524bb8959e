"""Linear, Bilinear, Conv1d, Conv2d and Conv3d against torch with the same weights."""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")

from ember import nn

from .torch_ref import check_layer, randn, randomize

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")  # torch: even 'same' kernels


@pytest.mark.parametrize("bias", [True, False])
@pytest.mark.parametrize("lead", [(), (3,)])
def test_linear(bias, lead):
    tm = randomize(torch.nn.Linear(6, 4, bias=bias))
    check_layer(tm, nn.Linear(6, 4, bias=bias),
                [(randn(b, *lead, 6),) for b in (1, 5)])


def test_linear_unbatched_vector():
    tm = randomize(torch.nn.Linear(6, 4))
    check_layer(tm, nn.Linear(6, 4), [(randn(6),)])


@pytest.mark.parametrize("bias", [True, False])
def test_bilinear(bias):
    tm = randomize(torch.nn.Bilinear(3, 5, 4, bias=bias))
    check_layer(tm, nn.Bilinear(3, 5, 4, bias=bias),
                [(randn(b, 3, seed=b), randn(b, 5, seed=b + 9)) for b in (1, 6)])
    check_layer(tm, nn.Bilinear(3, 5, 4, bias=bias), [(randn(2, 7, 3), randn(2, 7, 5))])


CONV1D = [
    {"kernel_size": 3},
    {"kernel_size": 3, "stride": 2, "padding": 1},
    {"kernel_size": 3, "padding": "same", "dilation": 2},
    {"kernel_size": 4, "padding": "same"},
    {"kernel_size": 2, "padding": "valid", "bias": False},
    {"kernel_size": 3, "groups": 2, "padding": 2},
    {"kernel_size": 3, "groups": 4, "out_channels": 8},
    {"kernel_size": 5, "stride": 3, "dilation": 2, "padding": (3,)},
]


@pytest.mark.parametrize("cfg", CONV1D, ids=str)
def test_conv1d(cfg):
    cfg = dict(cfg)
    out = cfg.pop("out_channels", 6)
    tm = randomize(torch.nn.Conv1d(4, out, **cfg))
    layer = nn.Conv1d(4, out, **cfg)
    check_layer(tm, layer, [(randn(b, 4, 11),) for b in (1, 3)])
    check_layer(tm, layer, [(randn(4, 11),)])


CONV2D = [
    {"kernel_size": 3},
    {"kernel_size": 3, "stride": 2, "padding": 1},
    {"kernel_size": (3, 2), "stride": (2, 1), "padding": (1, 0)},
    {"kernel_size": 3, "padding": "same", "dilation": (2, 1)},
    {"kernel_size": 4, "padding": "same"},
    {"kernel_size": 3, "padding": "valid", "bias": False},
    {"kernel_size": 3, "groups": 2, "padding": 1},
    {"kernel_size": 3, "groups": 4, "out_channels": 4, "padding": 1},
    {"kernel_size": 3, "groups": 4, "out_channels": 8, "stride": 2},
    {"kernel_size": 1},
]


@pytest.mark.parametrize("cfg", CONV2D, ids=str)
def test_conv2d(cfg):
    cfg = dict(cfg)
    out = cfg.pop("out_channels", 6)
    tm = randomize(torch.nn.Conv2d(4, out, **cfg))
    layer = nn.Conv2d(4, out, **cfg)
    check_layer(tm, layer, [(randn(b, 4, 9, 8),) for b in (1, 3)])
    check_layer(tm, layer, [(randn(4, 9, 8),)])


CONV3D = [
    {"kernel_size": 3},
    {"kernel_size": 3, "stride": 2, "padding": 1},
    {"kernel_size": (3, 1, 2), "stride": (2, 1, 1), "padding": (1, 0, 1)},
    {"kernel_size": 3, "padding": "same", "dilation": (2, 1, 1)},
    {"kernel_size": 2, "padding": "same"},
    {"kernel_size": 3, "padding": "valid", "bias": False},
    {"kernel_size": 3, "groups": 4, "out_channels": 8, "padding": 1},
    {"kernel_size": 1, "stride": 2},
]


@pytest.mark.parametrize("cfg", CONV3D, ids=str)
def test_conv3d(cfg):
    cfg = dict(cfg)
    out = cfg.pop("out_channels", 6)
    tm = randomize(torch.nn.Conv3d(4, out, **cfg))
    layer = nn.Conv3d(4, out, **cfg)
    check_layer(tm, layer, [(randn(b, 4, 5, 6, 7),) for b in (1, 3)])
    check_layer(tm, layer, [(randn(4, 5, 6, 7),)])


@pytest.mark.parametrize("mode", ["reflect", "replicate", "circular"])
@pytest.mark.parametrize("cfg", [{"kernel_size": 3, "padding": 1},
                                 {"kernel_size": (3, 2, 3), "padding": (1, 1, 2), "stride": 2},
                                 {"kernel_size": 2, "padding": "same"}], ids=str)
def test_conv3d_padding_modes(mode, cfg):
    tm = randomize(torch.nn.Conv3d(3, 4, padding_mode=mode, **cfg))
    layer = nn.Conv3d(3, 4, padding_mode=mode, **cfg)
    check_layer(tm, layer, [(randn(b, 3, 4, 5, 6),) for b in (1, 3)], name="Conv3d")
    check_layer(tm, layer, [(randn(3, 4, 5, 6),)], name="Conv3d")


CONV_T3D = [
    {"kernel_size": 2, "stride": 2},
    {"kernel_size": 3, "stride": 2, "padding": 1, "output_padding": 1},
    {"kernel_size": (3, 2, 3), "stride": (1, 2, 2), "padding": (1, 0, 1), "dilation": (2, 1, 1)},
    {"kernel_size": 3, "groups": 2, "bias": False},
]


@pytest.mark.parametrize("cfg", CONV_T3D, ids=str)
def test_conv_transpose3d(cfg):
    tm = randomize(torch.nn.ConvTranspose3d(4, 6, **cfg))
    layer = nn.ConvTranspose3d(4, 6, **cfg)
    check_layer(tm, layer, [(randn(b, 4, 3, 4, 5),) for b in (1, 3)])
    check_layer(tm, layer, [(randn(4, 3, 4, 5),)])


def test_conv_transpose3d_output_size():
    tm = randomize(torch.nn.ConvTranspose3d(4, 3, 3, stride=2, padding=1))
    check_layer(tm, nn.ConvTranspose3d(4, 3, 3, stride=2, padding=1),
                [(randn(b, 4, 3, 4, 5),) for b in (1, 3)], kwargs={"output_size": [6, 8, 10]})


PADDED = [
    {"kernel_size": 3, "padding": 1},
    {"kernel_size": 3, "padding": 2, "stride": 2},
    {"kernel_size": (3, 2), "padding": (2, 1)},
    {"kernel_size": 4, "padding": "same", "dilation": (1, 2)},
    {"kernel_size": 3, "padding": "valid"},
]


@pytest.mark.parametrize("mode", ["reflect", "replicate", "circular"])
@pytest.mark.parametrize("cfg", PADDED, ids=str)
def test_conv_padding_modes(mode, cfg):
    tm = randomize(torch.nn.Conv2d(4, 6, padding_mode=mode, **cfg))
    layer = nn.Conv2d(4, 6, padding_mode=mode, **cfg)
    check_layer(tm, layer, [(randn(b, 4, 7, 6),) for b in (1, 3)], name="Conv2d")
    check_layer(tm, layer, [(randn(4, 7, 6),)], name="Conv2d")
    cfg1 = {k: (v[0] if isinstance(v, tuple) else v) for k, v in cfg.items()}
    tm = randomize(torch.nn.Conv1d(4, 6, padding_mode=mode, **cfg1))
    check_layer(tm, nn.Conv1d(4, 6, padding_mode=mode, **cfg1),
                [(randn(b, 4, 9),) for b in (1, 3)], name="Conv1d")


def test_reflect_padding_larger_than_the_input_is_an_error():
    with pytest.raises(RuntimeError, match="too large"):
        nn.Conv1d(2, 2, 3, padding=3, padding_mode="reflect")(randn(1, 2, 3))


def test_conv_hyper_parameters_are_torch_tuples():
    c = nn.Conv2d(3, 8, 3, stride=2, padding=1)
    t = torch.nn.Conv2d(3, 8, 3, stride=2, padding=1)
    for attr in ("kernel_size", "stride", "padding", "dilation", "groups", "in_channels",
                 "out_channels", "padding_mode"):
        assert getattr(c, attr) == getattr(t, attr), attr
    assert c.weight.shape == tuple(t.weight.shape) and c.weight.dtype.name == "float32"


def test_conv_argument_errors_match_torch():
    with pytest.raises(ValueError, match="divisible by groups"):
        nn.Conv2d(4, 6, 3, groups=3)
    with pytest.raises(ValueError, match="strided"):
        nn.Conv1d(4, 6, 3, stride=2, padding="same")
    with pytest.raises(ValueError, match="Invalid padding string"):
        nn.Conv2d(4, 6, 3, padding="full")
    with pytest.raises(ValueError, match="padding_mode must be one of"):
        nn.Conv2d(4, 6, 3, padding_mode="mirror")


def test_default_init_is_deterministic_and_within_torch_bounds():
    nn.init.manual_seed(3)
    a = nn.Conv2d(4, 6, 3)
    nn.init.manual_seed(3)
    b = nn.Conv2d(4, 6, 3)
    assert (a.weight == b.weight).all() and (a.bias == b.bias).all()
    bound = 1 / (4 * 9) ** 0.5
    assert abs(a.weight).max() <= bound and abs(a.weight).max() > bound / 2
    assert nn.Linear(3, 2, dtype=nn.functional.float64).weight.dtype.name == "float64"
