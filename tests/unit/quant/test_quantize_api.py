"""ember.quantize: dynamic int8 models bit-exact with torch.ao's quantize_dynamic,
weight-only models, reports, artifacts, and the modes that are refused."""

import os
import sys
import warnings

import numpy as np
import pytest

import ember
import ember.nn as enn
from ember.errors import UnsupportedError

torch = pytest.importorskip("torch")
warnings.filterwarnings("ignore", category=DeprecationWarning)
warnings.filterwarnings("ignore", category=UserWarning)
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "models"))
import bench_models  # noqa: E402


@pytest.fixture(autouse=True)
def fbgemm():
    old = torch.backends.quantized.engine
    torch.backends.quantized.engine = "fbgemm"
    yield
    torch.backends.quantized.engine = old


class GRUHead(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.gru = torch.nn.GRU(12, 20, num_layers=2, bidirectional=True)
        self.fc = torch.nn.Linear(40, 3)

    def forward(self, x):
        out, _ = self.gru(x)
        return self.fc(out[-1])


def torch_dynamic(model, per_channel):
    q = torch.ao.quantization
    qc = q.per_channel_dynamic_qconfig if per_channel else q.default_dynamic_qconfig
    spec = {torch.nn.Linear: qc, torch.nn.LSTM: qc, torch.nn.GRU: qc}
    return q.quantize_dynamic(model, spec, dtype=torch.qint8)


@pytest.mark.parametrize("per_channel", [False, True])
@pytest.mark.parametrize("name,shape", [("MLP", (784,)), ("LSTMHead", (32, 64)),
                                        ("GRUHead", (7, 12))])
def test_dynamic_is_bit_exact_with_torch(name, shape, per_channel, tmp_path):
    torch.manual_seed(0)
    model = (getattr(bench_models, name, None) or globals()[name])().eval()
    x = torch.randn(5, *shape) * 1.3
    ref = torch_dynamic(model, per_channel)(x).detach().numpy()
    q = ember.quantize(model, "dynamic", per_channel=per_channel)
    y = q(x.numpy())
    assert y.dtype == np.float32
    if name == "GRUHead":  # sigmoid/tanh are numpy's, an ulp from torch's
        assert np.abs(y - ref).max() < 1e-5
    else:
        assert np.count_nonzero(y != ref) == 0
    path = str(tmp_path / "m.ember")
    q.save(path)
    loaded = ember.mobile.load(path)
    assert np.array_equal(loaded(x.numpy()), y)


def test_the_default_is_torch_aos_default_for_each_mode():
    """quantize_dynamic's default qconfig is per tensor: the same model quantizes to torch's
    codes with no options (static and weight-only default to fbgemm's per channel)."""
    torch.manual_seed(0)
    model = bench_models.MLP().eval()
    x = torch.randn(5, 784) * 1.3
    ref = torch.ao.quantization.quantize_dynamic(model, {torch.nn.Linear},
                                                 dtype=torch.qint8)(x).detach().numpy()
    q = ember.quantize(model, "dynamic")
    assert np.array_equal(q(x.numpy()), ref)
    assert "per-tensor" in str(q.quantization_report)
    assert "per-channel" in str(ember.quantize(model, "dynamic", per_channel=True)
                                .quantization_report)


def test_artifact_holds_int8_weights_and_is_smaller(tmp_path):
    torch.manual_seed(0)
    model = bench_models.MLP().eval()
    f32, i8 = str(tmp_path / "f.ember"), str(tmp_path / "q.ember")
    ember.script(model).save(f32)
    q = ember.quantize(model, "dynamic")
    q.save(i8)
    dtypes = {t.data.dtype.name for t in q.module.tensors.values()}
    assert "int8" in dtypes and "float32" in dtypes
    big = [t for t in q.module.tensors.values() if t.data.size >= 2560]
    assert big and all(t.data.dtype == np.int8 for t in big)
    assert os.path.getsize(f32) / os.path.getsize(i8) >= 3.9


def test_ember_modules_and_script_modules_quantize_alike():
    enn.init.manual_seed(0)
    lin = enn.Sequential(enn.Linear(16, 32), enn.ReLU(), enn.Linear(32, 4))
    x = np.random.default_rng(0).standard_normal((3, 16)).astype(np.float32)
    a = ember.quantize(lin, "dynamic")(x)
    b = ember.quantize(ember.script(lin), "dynamic")(x)
    assert np.array_equal(a, b)
    assert np.abs(a - lin(x)).max() < 0.05


def test_weight_only_keeps_float_compute():
    torch.manual_seed(0)
    model = bench_models.SmallCNN().eval()
    x = torch.randn(2, 3, 32, 32)
    q = ember.quantize(model, "weight_only")
    rep = q.quantization_report
    assert sum(e.int8 for e in rep.entries) == 4  # three convs and the linear
    assert rep.fp32_bytes / rep.quantized_bytes > 3.9
    ref = model(x).detach().numpy()
    y = q(x.numpy())
    assert np.abs(y - ref).max() < 0.05 * np.abs(ref).max()


def test_report_names_the_source_lines(capsys):
    torch.manual_seed(0)
    q = ember.quantize(bench_models.SmallCNN().eval(), "dynamic", report=True)
    out = capsys.readouterr().out
    assert "int8   tensor.linear" in out and "bench_models.py:48" in out
    assert "float  tensor.conv2d" in out and "mode='static' only" in out
    assert "bench_models.py:43" in str(q.quantization_report)


def test_refused_modes():
    model = enn.Linear(3, 2)
    with pytest.raises(UnsupportedError, match="autodiff"):
        ember.quantize(model, "qat")
    with pytest.raises(UnsupportedError, match="calibration="):
        ember.quantize(model, "static")
    with pytest.raises(UnsupportedError, match="no batches"):
        ember.quantize(model, "static", calibration=[])
    with pytest.raises(UnsupportedError, match="unknown observer"):
        ember.quantize(model, "static", calibration=[np.zeros((1, 3), np.float32)],
                       observer="kl")
    with pytest.raises(UnsupportedError, match="unknown mode"):
        ember.quantize(model, "int4")
    with pytest.raises(UnsupportedError, match="calibration"):
        ember.quantize(model, "dynamic", calibration=[])
    with pytest.raises(UnsupportedError, match="not int"):
        ember.quantize(3, "dynamic")


@pytest.mark.parametrize("per_channel", [False, True])
def test_torch_ao_dynamic_linear_models_convert_through_script(per_channel, tmp_path):
    torch.manual_seed(0)
    model = bench_models.MLP().eval()
    tq = torch_dynamic(model, per_channel)
    x = torch.randn(6, 784)
    ref = tq(x).numpy()
    s = ember.script(tq)
    assert np.count_nonzero(s(x.numpy()) != ref) == 0
    path = str(tmp_path / "ao.ember")
    s.save(path)
    assert np.count_nonzero(ember.mobile.load(path)(x.numpy()) != ref) == 0


def _torch_static_cnn(model, calib):
    import copy
    q = torch.ao.quantization
    m = copy.deepcopy(model).eval()
    q.fuse_modules(m, [["conv1", "bn1", "relu1"], ["conv2", "bn2", "relu2"],
                       ["conv3", "bn3", "relu3"]], inplace=True)
    w = torch.nn.Sequential(q.QuantStub(), m, q.DeQuantStub()).eval()
    w.qconfig = q.get_default_qconfig("fbgemm")
    q.prepare(w, inplace=True)
    with torch.no_grad():
        for b in calib:
            w(torch.from_numpy(b))
    return q.convert(w)


def test_static_cnn_is_as_accurate_as_torch(tmp_path, capsys):
    torch.manual_seed(0)
    model = bench_models.SmallCNN().eval()
    gen = torch.Generator().manual_seed(7)
    calib = [torch.randn(8, 3, 32, 32, generator=gen).numpy() for _ in range(4)]
    q = ember.quantize(model, "static", calibration=calib, report=True)
    out = capsys.readouterr().out
    assert out.count("static int8 conv2d + relu") == 3 and "static int8 linear" in out
    x = torch.randn(16, 3, 32, 32, generator=gen)
    ref = model(x).detach().numpy()
    y = q(x.numpy())
    err = np.abs(y - ref).max()
    err_torch = np.abs(_torch_static_cnn(model, calib)(x).numpy() - ref).max()
    assert 0 < err <= 1.25 * err_torch
    path = str(tmp_path / "s.ember")
    q.save(path)
    assert np.array_equal(ember.mobile.load(path)(x.numpy()), y)
    graph = q.graph
    assert graph.count("tensor.quantized_conv2d") == 3
    # the input's only: the linear reads the pooled codes through flatten (torch.ao's
    # qparams: the conv's output's), no dequantize / quantize between them
    assert graph.count("tensor.quantize_per_tensor") == 1
    assert graph.count("tensor.dequantize_codes") == 1


@pytest.mark.parametrize("observer", ["minmax", "moving_average", "histogram"])
def test_static_linear_model_with_each_observer(observer):
    rng = np.random.default_rng(1)
    enn.init.manual_seed(3)
    net = enn.Sequential(enn.Linear(20, 30), enn.ReLU(), enn.Linear(30, 5))
    calib = [(rng.standard_normal((32, 20)).astype(np.float32),) for _ in range(10)]
    q = ember.quantize(net, "static", calibration=calib, observer=observer,
                       per_channel=False)
    x = np.clip(rng.standard_normal((6, 20)), -2, 2).astype(np.float32)  # inside calibration
    ref = net(x)
    assert np.abs(q(x) - ref).max() < 0.15 * np.abs(ref).max()  # moving averages clip more


def test_torch_ao_dynamic_lstm_and_gru_convert_through_script(tmp_path):
    torch.manual_seed(0)
    model = bench_models.LSTMHead().eval()
    tq = torch_dynamic(model, False)
    x = torch.randn(5, 32, 64)
    s = ember.script(tq)
    assert np.count_nonzero(s(x.numpy()) != tq(x).numpy()) == 0
    f32, i8 = str(tmp_path / "f.ember"), str(tmp_path / "q.ember")
    ember.script(model).save(f32)
    s.save(i8)
    assert os.path.getsize(f32) / os.path.getsize(i8) > 3.5  # no float weights kept
    tg = torch_dynamic(GRUHead().eval(), True)
    x = torch.randn(7, 3, 12)
    assert np.abs(ember.script(tg)(x.numpy()) - tg(x).numpy()).max() < 1e-5


def test_torch_ao_dynamic_transformer_layer_converts():
    """Sublayers torch.ao quantized inside a converted layer are converted on their own
    (the attention and norms stay float, so outputs agree to float rounding)."""
    torch.manual_seed(0)
    layer = torch.nn.TransformerEncoderLayer(d_model=32, nhead=4, dim_feedforward=64,
                                             dropout=0.0, batch_first=True).eval()
    tq = torch_dynamic(layer, False)
    s = ember.script(tq)
    assert "tensor.quantized_linear_dynamic" in s.graph
    x = torch.randn(2, 5, 32)
    old = torch.backends.mha.get_fastpath_enabled()
    torch.backends.mha.set_fastpath_enabled(False)  # torch's fast path cannot run it
    try:
        ref = tq(x).detach().numpy()
    finally:
        torch.backends.mha.set_fastpath_enabled(old)
    assert np.abs(s(x.numpy()) - ref).max() < 1e-5


def test_the_llvm_backend_computes_the_same_bits():
    pytest.importorskip("llvmlite")
    torch.manual_seed(0)
    model = bench_models.MLP().eval()
    x = torch.randn(4, 784).numpy()
    vm = ember.quantize(model, "dynamic")(x)
    assert np.array_equal(ember.quantize(model, "dynamic", backend="llvm")(x), vm)


class ReluTwice(torch.nn.Module):
    """fc1's relu folds; fc2's output is read besides its relu, so that one stays."""

    def __init__(self):
        super().__init__()
        self.fc1 = torch.nn.Linear(12, 16)
        self.fc2 = torch.nn.Linear(16, 8)

    def forward(self, x):
        h = torch.nn.functional.relu(self.fc1(x))
        y = self.fc2(h)
        return torch.relu(y) + y


@pytest.mark.parametrize("backend", ["vm", "llvm"])
def test_relu_folds_into_the_dynamic_linear(backend, tmp_path):
    torch.manual_seed(0)
    model = ReluTwice().eval()
    x = torch.randn(3, 12)
    ref = torch_dynamic(model, False)(x).numpy()
    q = ember.quantize(model, "dynamic", backend=backend)
    assert q.graph.count("tensor.quantized_linear_dynamic_relu") == 1
    assert q.graph.count("tensor.quantized_linear_dynamic ") == 1
    assert q.graph.count("tensor.relu") == 1
    assert np.count_nonzero(q(x.numpy()) != ref) == 0
    path = str(tmp_path / "r.ember")
    q.save(path)
    assert np.count_nonzero(ember.mobile.load(path)(x.numpy()) != ref) == 0
    s = ember.script(torch_dynamic(bench_models.MLP().eval(), False), backend=backend)
    assert s.graph.count("tensor.quantized_linear_dynamic_relu") == 2
    assert "tensor.relu" not in s.graph


class PoolNet(torch.nn.Module):
    def __init__(self, pool, extra=False):
        super().__init__()
        self.conv = torch.nn.Conv2d(3, 6, 3, padding=1)
        self.pool, self.extra = pool, extra
        self.fc = torch.nn.Linear(6 * 16, 4)

    def forward(self, x):
        y = torch.relu(self.conv(x))
        z = self.fc(torch.flatten(self.pool(y), 1))
        return z + y.mean() if self.extra else z


@pytest.mark.parametrize("backend", ["vm", "llvm"])
@pytest.mark.parametrize("pool,extra,on_codes", [
    (torch.nn.MaxPool2d(2), False, True), (torch.nn.MaxPool2d(3, 2, padding=1), False, True),
    (torch.nn.MaxPool2d(2), True, False)])
def test_max_pooling_runs_on_codes(backend, pool, extra, on_codes, monkeypatch, tmp_path):
    """max_pool2d(dequantize(q)) -> dequantize(max_pool2d(q)), and the linear reads the
    pooled codes through flatten: the same bits as pooling floats (the rewrites switched
    off), unless the float value has another reader."""
    from ember.passes import quantize_pool, quantize_static
    torch.manual_seed(0)
    model = PoolNet(pool, extra).eval()
    gen = torch.Generator().manual_seed(4)
    calib = [torch.randn(4, 3, 8, 8, generator=gen).numpy() for _ in range(3)]
    x = torch.randn(5, 3, 8, 8, generator=gen).numpy()
    q = ember.quantize(model, "static", calibration=calib, backend=backend)
    lines = [ln for ln in q.graph.splitlines() if "tensor.max_pool2d" in ln]
    deq = q.graph.count("tensor.dequantize_codes")
    assert len(lines) == 1 and deq == 1 + extra
    assert q.graph.count("tensor.quantize_per_tensor") == (1 if on_codes else 2)
    y = q(x)
    with monkeypatch.context() as m:
        m.setattr(quantize_pool, "pool_codes", lambda module: 0)
        m.setattr(quantize_static, "codes_through_views", lambda module: 0)
        floats = ember.quantize(model, "static", calibration=calib, backend=backend)
    assert np.array_equal(y.view(np.uint32), floats(x).view(np.uint32))
    path = str(tmp_path / "p.ember")
    q.save(path)
    assert np.array_equal(ember.mobile.load(path)(x), y)


def test_static_models_run_as_whole_function_native_plans():
    """Under backend="llvm" the static int8 kernels note their native calls, so a static
    model's forward becomes one planned native call (llvm/graph.py) per input shape: the
    VM path's bits, a fresh output each call."""
    pytest.importorskip("llvmlite")
    from ember.llvm import graph
    torch.manual_seed(0)
    model = PoolNet(torch.nn.MaxPool2d(2)).eval()
    gen = torch.Generator().manual_seed(4)
    calib = [torch.randn(4, 3, 8, 8, generator=gen).numpy() for _ in range(3)]
    q = ember.quantize(model, "static", calibration=calib, backend="llvm")
    vm = ember.quantize(model, "static", calibration=calib)
    entry = q._fn
    assert isinstance(entry, graph.PlannedEntry)
    for shape in ((1, 3, 8, 8), (5, 3, 8, 8)):
        xs = [torch.randn(*shape, generator=gen).numpy() for _ in range(3)]
        xs[2][0, 0, 0, 0] = np.nan  # quantizes to the highest code, in the plan too
        outs = [q(x) for x in xs]  # the first records, the others replay
        assert isinstance(entry.plans[shape], graph.Plan)
        for x, y in zip(xs, outs):
            assert np.array_equal(y.view(np.uint32), vm(x).view(np.uint32))
        assert outs[1] is not outs[2]


class Residual(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = torch.nn.Conv2d(8, 8, 3, padding=1)
        self.conv2 = torch.nn.Conv2d(8, 8, 3, padding=1)
        self.conv3 = torch.nn.Conv2d(8, 4, 1)

    def forward(self, x):
        y = self.conv1(x)
        return self.conv3(torch.relu(y + self.conv2(torch.relu(y))))


def test_static_residual_adds_run_on_codes():
    torch.manual_seed(0)
    model = Residual().eval()
    gen = torch.Generator().manual_seed(2)
    calib = [torch.randn(4, 8, 10, 10, generator=gen).numpy() for _ in range(4)]
    q = ember.quantize(model, "static", calibration=calib)
    assert "tensor.quantized_add" in q.graph
    # conv1's output is dequantized once, for the float relu before conv2; the add takes
    # both convolutions' codes; the other dequantize is the model's output
    assert q.graph.count("tensor.dequantize_codes") == 2
    x = torch.randn(3, 8, 10, 10, generator=gen)
    ref = model(x).detach().numpy()
    assert np.abs(q(x.numpy()) - ref).max() < 0.05 * np.abs(ref).max()


def test_scripted_modules_are_unfused_before_quantizing():
    """The default pipeline groups a conv with the add and relu after it (tensor.fused);
    quantizing a ScriptModule takes the groups apart first, so the result is the same as
    quantizing the module."""
    torch.manual_seed(0)
    model = Residual().eval()
    scripted = ember.script(model)
    gen = torch.Generator().manual_seed(2)
    calib = [torch.randn(4, 8, 10, 10, generator=gen).numpy() for _ in range(3)]
    a = ember.quantize(model, "static", calibration=calib)
    b = ember.quantize(scripted, "static", calibration=calib)
    x = torch.randn(2, 8, 10, 10, generator=gen).numpy()
    assert "tensor.quantized_add" in b.graph
    assert np.array_equal(a(x), b(x))
    assert np.array_equal(scripted(x), ember.script(model)(x))  # the input is left alone
