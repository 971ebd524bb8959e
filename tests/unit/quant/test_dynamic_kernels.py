"""The dynamic int8 kernels (ops/tensor_quant_dynamic.py) against torch's fbgemm ones on
random cases chosen to reach every branch: activations of one sign (zero point 0 or 127),
tiny ranges (the scale floor), products past float32's exact length (the K-block split),
per-channel scales, shapes of any rank. The count of differing outputs must be 0."""

import numpy as np
import pytest

from ember.ops import tensor_quant_dynamic as tqd
from ember.ops.tensor_activation import relu
from ember.ops.tensor_common import seal

torch = pytest.importorskip("torch")


def _torch_linear(x, wq, scales, bias):
    torch.backends.quantized.engine = "fbgemm"
    w = torch.from_numpy(wq.astype(np.float32))
    if np.ndim(scales) == 0:
        q = torch.quantize_per_tensor(w * float(scales), float(scales), 0, torch.qint8)
    else:
        s = torch.from_numpy(np.asarray(scales, np.float64))
        q = torch.quantize_per_channel(w * s[:, None].float(), s, torch.zeros(len(s),
                                       dtype=torch.long), 0, torch.qint8)
    assert np.array_equal(q.int_repr().numpy(), wq)
    m = torch.ao.nn.quantized.dynamic.Linear(wq.shape[1], wq.shape[0], dtype=torch.qint8)
    m.set_weight_bias(q, None if bias is None else torch.from_numpy(bias))
    return m(torch.from_numpy(x)).numpy()


def _case(rng, k, n, lead, kind, per_channel):
    x = rng.standard_normal(lead + (k,)).astype(np.float32)
    if kind == "positive":
        x = np.abs(x) + np.float32(0.25)
    elif kind == "negative":
        x = -np.abs(x) - np.float32(0.25)
    elif kind == "tiny":
        x = (x * 1e-6).astype(np.float32)
    wf = rng.standard_normal((n, k)).astype(np.float32)
    if per_channel:
        s = (np.abs(wf).max(1) / np.float32(127.5)).astype(np.float32)
        wq = np.clip(np.rint(wf / s[:, None]), -128, 127).astype(np.int8)
    else:
        s = np.float32(np.abs(wf).max() / np.float32(127.5))
        wq = np.clip(np.rint(wf / s), -128, 127).astype(np.int8)
    bias = rng.standard_normal(n).astype(np.float32) if rng.random() < 0.8 else None
    return x, wq, s, bias


CASES = [(k, n, lead, kind, pc) for k, n, lead in [(7, 5, (1,)), (784, 256, (3,)),
                                                  (2100, 9, (4,)), (64, 33, (2, 3, 1)),
                                                  (48, 256, (300,))]
         for kind in ("mixed", "positive", "negative", "tiny") for pc in (False, True)]


@pytest.mark.parametrize("k,n,lead,kind,pc", CASES)
def test_dynamic_linear_is_torchs(k, n, lead, kind, pc):
    rng = np.random.default_rng(k * 7 + n + len(kind) + pc)
    x, wq, s, bias = _case(rng, k, n, lead, kind, pc)
    ref = _torch_linear(x, wq, s, bias)
    scale = float(s) if not pc else s
    sealed = (seal(wq), seal(np.asarray(s, np.float32).reshape(-1)),
              None if bias is None else seal(bias))
    for w, sc, b in ((wq, scale, bias), sealed):
        y = tqd.linear_dynamic(x, w, sc, b)
        assert y.dtype == np.float32 and y.shape == ref.shape
        assert int(np.count_nonzero(y != ref)) == 0
    rows = x.reshape(-1, k)  # 2-d, frozen operands: the fast path (tqd._Fast)
    assert np.array_equal(tqd.linear_dynamic(rows, *sealed), ref.reshape(-1, n))
    want = relu(ref.reshape(-1, n).copy(), True)  # the folded relu: tensor.relu's bits
    got = tqd._linear_dynamic_relu_op(rows, *sealed, True)
    assert np.array_equal(got.view(np.int32), want.view(np.int32))


def test_general_path_agrees_on_finite_rows():
    """The general path (NaN, infinities, empty) computes what the fast one does on rows
    where both apply."""
    rng = np.random.default_rng(3)
    x, wq, s, bias = _case(rng, 300, 40, (6,), "mixed", True)
    dw = tqd.dyn_weight(wq, s)
    fast = tqd.linear_dynamic(x, wq, s, bias)
    assert np.array_equal(tqd._linear_general(x, dw, bias, True), fast)
    assert tqd.linear_dynamic(x[:0], wq, s, bias).shape == (0, 40)


def test_nan_input_takes_the_highest_code():
    """A NaN (not first) is left out of the range and quantizes to 255, as fbgemm's."""
    rng = np.random.default_rng(4)
    x, wq, s, bias = _case(rng, 50, 8, (2,), "mixed", False)
    xn = x.copy()
    xn[0, 3] = np.nan
    y = tqd.linear_dynamic(xn, wq, float(s), bias)
    assert y.shape == (2, 8) and np.isfinite(y).all()
    assert np.array_equal(y, _torch_linear(xn, wq, s, bias))


def test_lstm_reordered_gates_match_torch():
    """Batch 1 and 3, one and two layers, bidirectional: within numpy's sigmoid/tanh ulps."""
    torch.manual_seed(0)
    for layers, bidir, n in ((1, False, 1), (2, True, 3)):
        lstm = torch.nn.LSTM(12, 16, num_layers=layers, bidirectional=bidir,
                             batch_first=True).eval()
        q = torch.ao.quantization.quantize_dynamic(torch.nn.Sequential(lstm),
                                                   {torch.nn.LSTM}, dtype=torch.qint8)[0]
        x = torch.randn(n, 9, 12)
        ref = q(x)[0].detach().numpy()
        wb = q._weight_bias()
        params = []
        for layer in range(layers):
            for d in range(2 if bidir else 1):
                suf = f"_l{layer}" + ("_reverse" if d else "")
                for kk in ("ih", "hh"):
                    w = wb["weight"][f"weight_{kk}{suf}"]
                    params += [w.int_repr().numpy(), np.float32(w.q_scale()),
                               wb["bias"][f"bias_{kk}{suf}"].detach().numpy()]
        y = tqd._qrecurrent("lstm")(x.numpy(), [], params, layers, bidir, True)[0]
        assert np.abs(y - ref).max() <= 1e-6


@pytest.mark.parametrize("reverse", [False, True])
def test_lstm_row_and_column_layouts_agree_exactly(reverse):
    rng = np.random.default_rng(9)
    hid, feat, steps, n = 8, 5, 6, 4
    p = []
    for k in (feat, hid):
        x, wq, s, b = _case(rng, k, 4 * hid, (1,), "mixed", reverse)
        p += [wq, s if reverse else float(s), rng.standard_normal(4 * hid).astype(np.float32)]
    layer = tqd.lstm_layer(p)
    x = rng.standard_normal((steps, n, feat)).astype(np.float32)
    h0 = rng.standard_normal((n, hid)).astype(np.float32)
    c0 = rng.standard_normal((n, hid)).astype(np.float32)
    outs = []
    for fn in (tqd._qlstm_rows, tqd._qlstm_columns):
        out = np.empty((steps, n, hid), np.float32)
        with np.errstate(over="ignore"):
            h, c = fn(x, layer, h0, c0, out, reverse)
        outs.append((out, np.array(h), np.array(c)))
    for a, b in zip(*outs):
        assert np.array_equal(a, b)


@pytest.mark.parametrize("n", [1, 3])
def test_lstm_fast_steps_compute_the_general_steps_bits(monkeypatch, n):
    """A finite state's step through fast_y64 (and the [i | f | o | g | c] row) gives the
    bits of the general step (act_codes, dyn_product), NaN and infinite inputs included."""
    rng = np.random.default_rng(10 + n)
    hid, feat, steps = 12, 7, 9
    p = []
    for k in (feat, hid):
        _, wq, s, _ = _case(rng, k, 4 * hid, (1,), "mixed", n == 3)
        p += [wq, s, rng.standard_normal(4 * hid).astype(np.float32)]
    layer = tqd.lstm_layer(p)
    x = rng.standard_normal((steps, n, feat)).astype(np.float32)
    xs = [x, x * np.float32(1e-30), x.copy(), x.copy()]
    xs[2][3, 0, 1] = np.nan
    xs[3][0, n - 1, 0] = np.inf
    h0 = rng.standard_normal((n, hid)).astype(np.float32)
    c0 = rng.standard_normal((n, hid)).astype(np.float32)
    fn = tqd._qlstm_rows if n == 1 else tqd._qlstm_columns

    def run(x):
        out = np.empty((steps, n, hid), np.float32)
        try:
            with np.errstate(all="ignore"):
                h, c = fn(x, layer, h0, c0, out, False)
        except RuntimeError as e:  # a state that became NaN: torch's error, both ways
            return str(e)
        return b"".join(a.tobytes() for a in (out, np.asarray(h), np.asarray(c)))
    fast = [run(x) for x in xs]
    assert tqd._step_fast(layer[2], layer[3]) is not None
    monkeypatch.setattr(tqd, "_step_fast", lambda dw, b: None)
    assert [run(x) for x in xs] == fast


def test_large_products_in_chunks_compute_the_same(monkeypatch):
    """Products split into pass groups (tqd._CHUNK) give the unsplit values, rows and
    columns layouts alike."""
    rng = np.random.default_rng(11)
    x, wq, s, bias = _case(rng, 40, 24, (50,), "mixed", True)
    whole = tqd.linear_dynamic(x, wq, s, bias)
    p = []
    for k in (40, 6):
        _, w, sc, _ = _case(rng, k, 24, (1,), "mixed", True)
        p += [w, sc, rng.standard_normal(24).astype(np.float32)]
    seq = rng.standard_normal((7, 5, 40)).astype(np.float32)
    lstm = tqd._qrecurrent("lstm")
    before = lstm(seq, [], p, 1, False, False)
    monkeypatch.setattr(tqd, "_CHUNK", 50)
    assert np.array_equal(tqd.linear_dynamic(x, wq, s, bias), whole)
    after = lstm(seq, [], p, 1, False, False)
    for a, b in zip(before, after):
        assert np.array_equal(a, b)


def test_static_conv_in_sample_groups_computes_the_same(monkeypatch):
    from ember.ops import tensor_quant as tq
    rng = np.random.default_rng(12)
    q = rng.integers(0, 128, (5, 4, 9, 9)).astype(np.uint8)
    w = rng.integers(-128, 128, (6, 4, 3, 3)).astype(np.int8)
    ws = (rng.random(6) * 0.01 + 0.001).astype(np.float32)
    bias = rng.standard_normal(6).astype(np.float32)
    args = (0.02, 9, w, ws, bias, 0.05, 3, 1, 1, 1, 1, True)
    whole = tq.conv2d_static(q, *args)
    monkeypatch.setattr(tq, "_PIECE", 6 * 81 * 2)
    assert np.array_equal(tq.conv2d_static(q, *args), whole)


def test_quantize_in_pieces_computes_the_same(monkeypatch):
    from ember.ops import tensor_quant as tq
    x = np.random.default_rng(13).standard_normal((3, 5, 7)).astype(np.float32) * 4
    x[0, 0, 0], x[1, 2, 3], x[2, 4, 6] = np.nan, np.inf, -np.inf
    whole = tq.quantize_per_tensor(x, 0.03, 70, "quint8")
    monkeypatch.setattr(tq, "_PIECE", 16)
    assert np.array_equal(tq.quantize_per_tensor(x, 0.03, 70, "quint8"), whole)


@pytest.mark.parametrize("pad,dil,k", [((1, 1), (1, 1), (3, 3)), ((0, 2), (2, 1), (2, 3)),
                                       ((2, 0), (1, 2), (3, 1)), ((0, 0), (1, 1), (5, 5))])
def test_static_conv_wide_route_is_the_float_convolution_of_centred_codes(pad, dil, k):
    """conv2d_static's own wide route (the centred input written once into its padded
    buffer) gives the codes of float32 conv2d on the centred codes, requantized."""
    from ember.ops import tensor_quant as tq
    from ember.ops.tensor_conv import conv2d
    rng = np.random.default_rng(sum(pad) + 3 * sum(dil) + k[0])
    q = rng.integers(0, 256, (2, 5, 9, 8)).astype(np.uint8)
    w = seal(rng.integers(-128, 128, (6, 5) + k).astype(np.int8))
    ws = (rng.random(6) * 0.01 + 1e-4).astype(np.float32)
    b = rng.standard_normal(6).astype(np.float32)
    for zp, relu in ((0, False), (77, True), (255, False)):
        got = tq.conv2d_static(q, 0.02, zp, w, ws, b, 0.05, 9, 1, list(pad), list(dil), 1,
                               relu)
        xc = q.astype(np.float32) - np.float32(zp)
        acc = conv2d(xc, w.astype(np.float32), None, [1, 1], list(pad), list(dil), 1)
        assert np.array_equal(got, tq.requantize(acc, 0.02, ws, b, 0.05, 9, relu, axis=1))
