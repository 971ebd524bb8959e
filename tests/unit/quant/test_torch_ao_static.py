"""torch.ao static models (eager mode, fbgemm) convert through ember.script and give
torch's quantized outputs exactly."""

import os
import sys
import warnings

import numpy as np
import pytest

import ember
from ember.errors import UnsupportedError

torch = pytest.importorskip("torch")
warnings.filterwarnings("ignore", category=DeprecationWarning)
warnings.filterwarnings("ignore", category=UserWarning)
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "models"))
import bench_models  # noqa: E402

nn = torch.nn
tq = torch.ao.quantization


@pytest.fixture(autouse=True)
def fbgemm():
    old = torch.backends.quantized.engine
    torch.backends.quantized.engine = "fbgemm"
    yield
    torch.backends.quantized.engine = old


class Branchy(nn.Module):
    """conv+relu, depthwise conv, FloatFunctional add / mul / cat, linear+relu, linear."""

    def __init__(self):
        super().__init__()
        self.quant = tq.QuantStub()
        self.conv = nn.Conv2d(3, 8, 3, padding=1)
        self.relu = nn.ReLU()
        self.dw = nn.Conv2d(8, 8, 3, padding=1, groups=8)
        self.add = nn.quantized.FloatFunctional()
        self.mul = nn.quantized.FloatFunctional()
        self.cat = nn.quantized.FloatFunctional()
        self.pool = nn.MaxPool2d(2)
        self.fc1 = nn.Linear(16 * 4 * 4, 32)
        self.relu2 = nn.ReLU()
        self.fc2 = nn.Linear(32, 5)
        self.dequant = tq.DeQuantStub()

    def forward(self, x):
        x = self.quant(x)
        a = self.relu(self.conv(x))
        b = self.dw(a)
        s = self.add.add(a, b)
        m = self.mul.mul(a, b)
        c = self.pool(self.cat.cat([s, m], 1))
        y = self.relu2(self.fc1(torch.flatten(c, 1)))
        return self.dequant(self.fc2(y))


def ptq(model, fuse, calib):
    model.eval()
    if fuse:
        tq.fuse_modules(model, fuse, inplace=True)
    model.qconfig = tq.get_default_qconfig("fbgemm")
    tq.prepare(model, inplace=True)
    with torch.no_grad():
        for b in calib:
            model(b)
    return tq.convert(model)


class Stubbed(nn.Module):
    def __init__(self, model):
        super().__init__()
        self.quant, self.model, self.dequant = tq.QuantStub(), model, tq.DeQuantStub()

    def forward(self, x):
        return self.dequant(self.model(self.quant(x)))


def check(qmodel, x, tmp_path):
    ref = qmodel(x).numpy()
    s = ember.script(qmodel)
    y = s(x.numpy())
    assert np.count_nonzero(y != ref) == 0
    path = str(tmp_path / "ao.ember")
    s.save(path)
    assert np.count_nonzero(ember.mobile.load(path)(x.numpy()) != ref) == 0
    return s


def test_branchy_model_is_bit_exact(tmp_path):
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(1)
    calib = [torch.randn(4, 3, 8, 8, generator=gen) for _ in range(3)]
    q = ptq(Branchy(), [["conv", "relu"], ["fc1", "relu2"]], calib)
    s = check(q, torch.randn(4, 3, 8, 8, generator=gen), tmp_path)
    g = s.graph
    for op in ("quantized_conv2d", "quantized_add", "quantized_mul", "quantized_cat",
               "quantized_linear", "dequantize_codes"):
        assert f"tensor.{op}" in g, op
    assert "tensor.ao_" not in g


def test_bench_cnn_is_bit_exact(tmp_path):
    torch.manual_seed(0)
    model = bench_models.SmallCNN().eval()
    tq.fuse_modules(model, [["conv1", "bn1", "relu1"], ["conv2", "bn2", "relu2"],
                            ["conv3", "bn3", "relu3"]], inplace=True)
    gen = torch.Generator().manual_seed(2)
    calib = [torch.randn(8, 3, 32, 32, generator=gen) for _ in range(3)]
    q = ptq(Stubbed(model), None, calib)
    check(q, torch.randn(16, 3, 32, 32, generator=gen), tmp_path)


class NoStub(nn.Module):
    def __init__(self, quant_at_start):
        super().__init__()
        self.quant = tq.QuantStub()
        self.fc = nn.Linear(4, 3)
        self.dequant = tq.DeQuantStub()
        self.quant_at_start = quant_at_start

    def forward(self, x):
        if self.quant_at_start:
            return torch.sigmoid(self.fc(self.quant(x)))  # no DeQuantStub before sigmoid
        return self.dequant(self.fc(x))  # no QuantStub


@pytest.mark.parametrize("quant_at_start,message", [
    (False, "QuantStub missing"), (True, "no int8 kernel")])
def test_a_missing_stub_is_named_with_its_line(quant_at_start, message):
    q = ptq(NoStub(quant_at_start), None, [torch.randn(2, 4)])
    with pytest.raises(UnsupportedError, match=message) as e:
        ember.script(q)
    assert "test_torch_ao_static.py:" in str(e.value)


def test_unfrozen_scripting_is_refused():
    with pytest.raises(UnsupportedError, match="optimize=True"):
        ember.script(ptq(Stubbed(nn.Linear(3, 2)), None, [torch.randn(2, 3)]),
                     optimize=False)


class ResBlock(nn.Module):
    """A ResNet basic block, global average pooling and a classifier (as torchvision's
    quantizable ResNet): add_relu of the skip, adaptive_avg_pool2d on quantized tensors."""

    def __init__(self, pool_first=False):
        super().__init__()
        self.quant = tq.QuantStub()
        self.conv1 = nn.Conv2d(8, 8, 3, padding=1)
        self.relu = nn.ReLU()
        self.conv2 = nn.Conv2d(8, 8, 3, padding=1)
        self.skip = nn.quantized.FloatFunctional()
        self.avg = nn.AdaptiveAvgPool2d((1, 1))
        self.avg2 = nn.AdaptiveAvgPool2d((3, 2))
        self.cat = nn.quantized.FloatFunctional()
        self.fc = nn.Linear(8 + 8 * 6, 4)
        self.dequant = tq.DeQuantStub()
        self.pool_first = pool_first

    def forward(self, x):
        x = self.quant(x)
        if self.pool_first:  # a contiguous (NCHW) quantized tensor
            x = self.avg2(x)
        y = self.skip.add_relu(self.relu(self.conv1(x)), self.conv2(x))
        a = torch.flatten(self.avg(y), 1)
        b = torch.flatten(self.avg2(y), 1)
        return self.dequant(self.fc(self.cat.cat([a, b], 1)))


def test_resnet_block_with_average_pooling_is_bit_exact(tmp_path):
    for pool_first in (False, True):
        torch.manual_seed(0)
        model = ResBlock(pool_first)
        gen = torch.Generator().manual_seed(3)
        size = 7 if pool_first else 9
        calib = [torch.randn(4, 8, size, size, generator=gen) for _ in range(3)]
        q = ptq(model, [["conv1", "relu"]], calib)
        s = check(q, torch.randn(4, 8, size, size, generator=gen), tmp_path)
        assert "tensor.quantized_adaptive_avg_pool2d" in s.graph


def test_float_models_with_stubs_script_and_quantize():
    """Before torch.ao converts it, a model with QuantStub / DeQuantStub / FloatFunctional
    is a float model: ember scripts it as one, and ember.quantize quantizes it."""
    torch.manual_seed(0)
    model = Branchy().eval()
    x = torch.randn(4, 3, 8, 8)
    ref = model(x).detach().numpy()
    s = ember.script(model)
    assert np.abs(s(x.numpy()) - ref).max() < 1e-5
    gen = torch.Generator().manual_seed(1)
    calib = [torch.randn(4, 3, 8, 8, generator=gen).numpy() for _ in range(3)]
    q = ember.quantize(model, "static", calibration=calib)
    assert "tensor.quantized_conv2d" in q.graph
    assert np.abs(q(x.numpy()) - ref).max() < 0.1 * np.abs(ref).max()


def test_quant_wrapper_models_are_bit_exact(tmp_path):
    torch.manual_seed(0)
    inner = nn.Sequential(nn.Conv2d(3, 6, 3), nn.ReLU(), nn.Flatten(), nn.Linear(6 * 6 * 6, 5))
    gen = torch.Generator().manual_seed(4)
    calib = [torch.randn(2, 3, 8, 8, generator=gen) for _ in range(3)]
    q = ptq(tq.QuantWrapper(inner), None, calib)
    check(q, torch.randn(3, 3, 8, 8, generator=gen), tmp_path)


class MobileHead(nn.Module):
    """Hardswish (its own qparams), an unfused ReLU6 and dropout on quantized tensors."""

    def __init__(self):
        super().__init__()
        self.quant = tq.QuantStub()
        self.conv1 = nn.Conv2d(3, 16, 3, padding=1)
        self.hs = nn.Hardswish()
        self.conv2 = nn.Conv2d(16, 16, 3, padding=1, groups=16)
        self.relu6 = nn.ReLU6()
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.drop = nn.Dropout(0.2)
        self.fc = nn.Linear(16, 3)
        self.dequant = tq.DeQuantStub()

    def forward(self, x):
        x = self.relu6(self.conv2(self.hs(self.conv1(self.quant(x)))))
        return self.dequant(self.fc(self.drop(torch.flatten(self.pool(x), 1))))


def test_hardswish_relu6_and_dropout_are_bit_exact(tmp_path):
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(5)
    calib = [torch.randn(4, 3, 8, 8, generator=gen) * 3 for _ in range(3)]
    q = ptq(MobileHead(), None, calib)
    s = check(q, torch.randn(4, 3, 8, 8, generator=gen) * 3, tmp_path)
    assert "tensor.quantized_hardswish" in s.graph and "tensor.quantized_relu6" in s.graph


class Seq1d(nn.Module):
    def __init__(self):
        super().__init__()
        self.quant = tq.QuantStub()
        self.conv1 = nn.Conv1d(4, 8, 5, stride=2, padding=2)
        self.relu = nn.ReLU()
        self.conv2 = nn.Conv1d(8, 8, 3, padding=2, dilation=2, groups=4)
        self.fc = nn.Linear(8 * 16, 3)
        self.dequant = tq.DeQuantStub()

    def forward(self, x):
        y = self.conv2(self.relu(self.conv1(self.quant(x))))
        return self.dequant(self.fc(torch.flatten(y, 1)))


def test_conv1d_models_are_bit_exact(tmp_path):
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(6)
    calib = [torch.randn(4, 4, 32, generator=gen) for _ in range(3)]
    q = ptq(Seq1d(), [["conv1", "relu"]], calib)
    check(q, torch.randn(5, 4, 32, generator=gen), tmp_path)
