"""ember's int8 kernels against torch's (fbgemm) results stored in golden.npz
(made by make_golden.py): the number of codes or outputs that differ must be 0."""

import os

import numpy as np
import pytest

from ember.ops import tensor_quant as tq
from ember.ops import tensor_quant_dynamic as tqd
from ember.ops.tensor_common import seal

_Z = np.load(os.path.join(os.path.dirname(__file__), "golden.npz"))


def case(name):
    prefix = name + "."
    return {k[len(prefix):]: _Z[k] for k in _Z.files if k.startswith(prefix)}


def cases(prefix):
    return sorted({k.split(".")[0] for k in _Z.files if k.split(".")[0].startswith(prefix)
                   and k.split(".")[0][len(prefix):].isdigit()})


def differ(a, b):
    assert a.shape == b.shape and a.dtype == b.dtype, (a.shape, b.shape, a.dtype, b.dtype)
    return int(np.count_nonzero(a != b))


@pytest.mark.parametrize("name", cases("quant"))
def test_quantize_per_tensor(name):
    c = case(name)
    q = tq.quantize_per_tensor(c["x"], float(c["scale"]), int(c["zp"]), "quint8")
    assert differ(q, c["q"]) == 0
    assert differ(tq.dequantize(q, float(c["scale"]), int(c["zp"])), c["deq"]) == 0


def test_weight_scales_and_codes_per_channel():
    c = case("perchan")
    s = tq.symmetric_scale(np.abs(c["w"]).reshape(6, -1).max(1))
    assert differ(s, c["scale"]) == 0
    assert differ(tq.quantize_per_channel(c["w"], s, np.zeros(6, np.int64), 0, "qint8"),
                  c["q"]) == 0


@pytest.mark.parametrize("name", cases("dynlin"))
def test_dynamic_linear(name):
    c = case(name)
    y = tqd.linear_dynamic(c["x"], c["wq"], float(c["wscale"]), c["bias"])
    assert differ(y, c["y"]) == 0
    # frozen operands (an artifact's): the fast path of 2-d inputs
    frozen = [seal(np.asarray(a, dt)) for a, dt in ((c["wq"], np.int8),
                                                    (np.reshape(c["wscale"], 1), np.float32),
                                                    (c["bias"], np.float32))]
    rows = np.ascontiguousarray(np.reshape(c["x"], (-1, c["x"].shape[-1])), np.float32)
    y = tqd.linear_dynamic(rows, *frozen)
    assert differ(y.reshape(np.shape(c["y"])), c["y"]) == 0


@pytest.mark.parametrize("name", cases("conv"))
def test_static_conv2d(name):
    c = case(name)
    y = tq.conv2d_static(c["q"], float(c["s_in"]), int(c["zp_in"]), c["wq"], c["wscale"],
                         c["bias"], float(c["s_out"]), int(c["zp_out"]), int(c["stride"]),
                         int(c["pad"]), int(c["dil"]), int(c["groups"]), bool(c["relu"]))
    assert differ(y, c["y"]) == 0


@pytest.mark.parametrize("name", cases("qlinear"))
def test_static_linear(name):
    c = case(name)
    y = tq.linear_static(c["q"], float(c["s_in"]), int(c["zp_in"]), c["wq"], c["wscale"],
                         c["bias"], float(c["s_out"]), int(c["zp_out"]), bool(c["relu"]))
    assert differ(y, c["y"]) == 0


@pytest.mark.parametrize("op", ["add", "add_relu", "mul", "mul_relu"])
def test_elementwise(op):
    c = case("ew")
    fn = tq.add_static if op.startswith("add") else tq.mul_static
    y = fn(c["a"], float(c["sa"]), int(c["za"]), c["b"], float(c["sb"]), int(c["zb"]),
           float(c["so"]), int(c["zo"]), op.endswith("relu"))
    assert differ(y, case("ew_" + op)["y"]) == 0


def test_cat():
    c = case("ew")
    y = tq.cat_static([c["a"], c["b"]], [float(c["sa"]), float(c["sb"])],
                      [int(c["za"]), int(c["zb"])], 1, float(c["so"]) * 0 + 0.05, 66)
    assert differ(y, case("ew_cat")["y"]) == 0


@pytest.mark.parametrize("kind", ["lstm", "gru"])
def test_dynamic_rnn(kind):
    """The int8 products are exact; the gates' sigmoid/tanh are numpy's, which differ from
    torch's SLEEF functions by an ulp or so (docs/quantization.md)."""
    c = case(kind)
    params = []
    for layer in range(2):
        for d in range(2):
            suf = f"_l{layer}" + ("_reverse" if d else "")
            for kk in ("ih", "hh"):
                params += [c[f"w_{kk}{suf}"], c[f"s_{kk}{suf}"], c[f"b_{kk}{suf}"]]
    y = tqd._qrecurrent(kind)(c["x"], [], params, 2, True, True)[0]
    assert y.shape == c["y"].shape
    assert np.abs(y - c["y"]).max() <= 1e-6


def test_products_are_exact_past_the_float32_bound():
    """K well past EXACT_K32 with the largest codes: float32 alone would round."""
    rng = np.random.default_rng(0)
    k = 5000
    a = rng.choice([-255.0, 255.0], size=(3, k)).astype(np.float32)
    b = rng.choice([-128.0, 127.0], size=(k, 4)).astype(np.float32)
    exact = a.astype(np.int64) @ b.astype(np.int64)
    assert differ(tq.int_matmul(a, b).astype(np.int64), exact) == 0


def test_choose_qparams_matches_fbgemm_rules():
    assert tq.choose_qparams(0.0, 0.0, 0, 127) == (float(np.float32(0.1)), 0)  # scale 0 -> 0.1
    s, z = tq.choose_qparams(-1.0, 1.0, 0, 127)
    assert s == float(np.float32(2 / 127)) and z == 64
    s, z = tq.choose_qparams(1e-7, 2e-7, 0, 127)  # range widened to 0, tiny scale floored
    assert s == float(np.float32(6.1e-5)) and z == 0


def test_bad_qparams_raise():
    x = np.zeros(3, np.float32)
    with pytest.raises(RuntimeError, match="positive"):
        tq.quantize_per_tensor(x, 0.0, 0, "quint8")
    with pytest.raises(RuntimeError, match="out of range"):
        tq.quantize_per_tensor(x, 0.1, 300, "quint8")
    with pytest.raises(RuntimeError, match="quantized dtype"):
        tq.quantize_per_tensor(x, 0.1, 0, "qint4")
