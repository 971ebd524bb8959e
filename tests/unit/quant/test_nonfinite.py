"""Inputs holding NaN or infinities through the int8 kernels (ops/quant_nonfinite.py):
torch's fbgemm results, reproduced on every engine (docs/quantization.md)."""

import numpy as np
import pytest

import ember
from ember import mobile
from ember.ops import quant_nonfinite as nf
from ember.ops import tensor_quant as tq
from ember.ops import tensor_quant_dynamic as tqd

NAN, INF = float("nan"), float("inf")


def test_find_min_max_forgets_a_lane_before_its_nan():
    """vminps returns its second operand for a NaN: index 9 (lane 1) restarts lane 1, so
    the -5 at index 1 is not the minimum; a NaN in the tail is skipped; a first NaN wins."""
    x = np.linspace(1, 2, 24).astype(np.float32)
    x[1] = -5.0
    assert nf.fbgemm_min_max(x)[0] == -5.0
    x[9] = NAN
    assert nf.fbgemm_min_max(x) == (1.0, 2.0)
    x[17] = NAN  # the lane ends on a NaN: left out of the fold
    assert nf.fbgemm_min_max(x) == (1.0, 2.0)
    tail = np.array([3.0] * 8 + [NAN, -1.0], np.float32)
    assert nf.fbgemm_min_max(tail) == (-1.0, 3.0)
    first = np.array([NAN, 1.0, 2.0], np.float32)
    lo, hi = nf.fbgemm_min_max(first)
    assert lo != lo and hi != hi


def test_codes_of_values_that_are_not_finite():
    x = np.array([[NAN, INF, -INF, 1.0]], np.float32)
    assert nf.fbgemm_codes(x, np.float32(10.0), 3).tolist() == [[255, 255, 0, 13]]
    # an infinite scale: inv 0, and x * 0 + zp for a finite x, NaN for an infinity
    assert nf.fbgemm_codes(x, np.float32(0.0), -2 ** 31).tolist() == [[255, 255, 255, 0]]


def test_infinite_range_zero_point_is_the_integer_indefinite():
    assert tq.choose_qparams(0.0, INF, 0, 127) == (INF, -2 ** 31)
    assert tq.choose_qparams(-INF, 1.0, 0, 127) == (INF, 127)


def test_saturating_pairs_only_past_code_127():
    q = np.array([[255, 255], [127, 127]], np.int64)
    w = np.array([[127], [127]], np.int64)
    assert nf._pair_saturated(q, w).tolist() == [[32767], [32258]]


def test_a_first_nan_raises_torchs_error():
    w = np.ones((3, 4), np.int8)
    x = np.array([[NAN, 1, 2, 3]], np.float32)
    with pytest.raises(RuntimeError, match="min should be less than or equal to max"):
        tqd.linear_dynamic(x, w, np.float32(0.1), None)


def test_quantize_per_tensor_nan_gives_the_highest_code():
    x = np.array([NAN, INF, -INF, 0.25] * 5, np.float32)
    assert tq.quantize_per_tensor(x, 0.1, 10, "quint8")[:4].tolist() == [255, 255, 0, 12]
    assert tq.quantize_per_tensor(x, 0.1, 10, "qint8")[:4].tolist() == [127, 127, -128, 12]


# ----------------------------------------------------------------------------- against torch

torch = pytest.importorskip("torch")


def _vnni():
    """fbgemm runs its non-saturating VNNI kernels on this CPU."""
    return "vnni" in open("/proc/cpuinfo").read() if __import__("os").path.exists(
        "/proc/cpuinfo") else False


def _saturates(x, w_codes, reduce_range=True):
    """Whether ember's product of x saturates a pair (only then do VNNI CPUs differ)."""
    mn, mx = nf.fbgemm_min_max(x)
    s_x, zp = tq.choose_qparams(mn, mx, 0, 127 if reduce_range else 255)
    q = nf.fbgemm_codes(x.reshape(-1, x.shape[-1]), tq._f32(1.0 / s_x), zp)
    w = np.asarray(w_codes, np.int64).T
    return not np.array_equal(nf._pair_saturated(q, w), q @ w)


def _quantized_linear(k, n, per_channel, seed):
    torch.manual_seed(seed)
    torch.backends.quantized.engine = "fbgemm"
    qc = (torch.ao.quantization.per_channel_dynamic_qconfig if per_channel else
          torch.ao.quantization.default_dynamic_qconfig)
    return torch.ao.quantization.quantize_dynamic(
        torch.nn.Sequential(torch.nn.Linear(k, n)), {torch.nn.Linear: qc}, dtype=torch.qint8)


def _poisoned(rng, shape):
    x = (rng.standard_normal(shape) * rng.choice([0.01, 1.0, 100.0])).astype(np.float32)
    for _ in range(int(rng.integers(1, 4))):
        x.flat[int(rng.integers(0, x.size))] = rng.choice([NAN, INF, -INF])
    return x


def test_dynamic_linear_matches_torch_on_random_poisoned_inputs():
    rng = np.random.default_rng(21)
    compared = raised = 0
    for trial in range(300):
        k, n, m = (int(v) for v in rng.integers(1, 40, 3))
        pc = bool(trial % 2)
        qm = _quantized_linear(k, n, pc, trial)
        wq = qm[0].weight()
        w = wq.int_repr().numpy()
        ws = (wq.q_per_channel_scales().numpy().astype(np.float32) if pc else
              np.float32(wq.q_scale()))
        b = qm[0].bias().detach().numpy()
        x = _poisoned(rng, (m % 5 + 1, k))
        try:
            want = qm(torch.from_numpy(x)).numpy()
        except RuntimeError:
            with pytest.raises(RuntimeError, match="min should be less"):
                tqd.linear_dynamic(x, w, ws, b)
            raised += 1
            continue
        if _vnni() and _saturates(x, w):
            continue
        got = tqd.linear_dynamic(x, w, ws, b)
        assert np.array_equal(got, want, equal_nan=True), (trial, x, want, got)
        compared += 1
    assert compared > 200 and raised > 5


def _engines(qm, tmp_path):
    yield ember.script(qm)
    yield ember.script(qm, backend="llvm")
    path = tmp_path / "m.ember"
    ember.script(qm).save(str(path))
    yield mobile.load(str(path))


@pytest.mark.parametrize("kind", ["lstm", "gru", "linear_relu"])
def test_poisoned_models_agree_with_torch_on_every_engine(kind, tmp_path):
    """torch.ao's dynamic LSTM / GRU / linear + relu on inputs holding NaN or infinities:
    the engines agree bit for bit and give torch's NaN / infinity pattern and its numbers
    (the RNNs' cell math within numpy's sigmoid / tanh ulps), or torch's RuntimeError."""
    torch.manual_seed(5)
    if kind == "linear_relu":
        model = torch.nn.Sequential(torch.nn.Linear(12, 9), torch.nn.ReLU())
        types = {torch.nn.Linear}
    else:
        cls = torch.nn.LSTM if kind == "lstm" else torch.nn.GRU
        model = torch.nn.Sequential(cls(12, 9, batch_first=True))
        types = {cls}
    qm = torch.ao.quantization.quantize_dynamic(model.eval(), types, dtype=torch.qint8)

    class Head(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.m = qm

        def forward(self, x):
            y = self.m(x)
            return y[0] if isinstance(y, tuple) else y
    head = Head().eval()
    rng = np.random.default_rng(6)
    xs = [_poisoned(rng, (2, 5, 12)) for _ in range(8)]
    xs[0][0, 0, 0] = NAN  # torch raises
    engines = list(_engines(head, tmp_path))
    for x in xs:
        try:
            want = head(torch.from_numpy(x)).detach().numpy()
        except RuntimeError:
            for eng in engines:
                with pytest.raises(RuntimeError):
                    eng(x)
            continue
        outs = [eng(x) for eng in engines]
        for got in outs[1:]:  # the engines agree bit for bit
            assert np.array_equal(got.view(np.uint32), outs[0].view(np.uint32))
        if _vnni():  # torch's kernels do not saturate here: its numbers differ
            continue
        for got in outs:
            assert np.array_equal(np.isnan(got), np.isnan(want))
            assert np.array_equal(np.isinf(got), np.isinf(want))
            ok = np.isfinite(want)
            tol = 0 if kind == "linear_relu" else 1e-5
            assert np.allclose(got[ok], want[ok], rtol=tol, atol=tol)
