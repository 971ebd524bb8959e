"""Architectures beyond the zoo (a ResNet bottleneck stack, a MobileNet inverted residual, a
text transformer with padding masks and norm_first layers, bidirectional GRU/LSTM stacks,
resampling and attention-style tensor code, a dict-returning API with Optional inputs and
an exported method), scripted and traced by torch, .pt and .ptl: ember's import matches
torch within 1e-4."""

import io
import math
import warnings
from typing import Dict, List, NamedTuple, Optional, Tuple

import numpy as np
import pytest

torch = pytest.importorskip("torch")
nn = torch.nn
F = torch.nn.functional

import ember  # noqa: E402

class Bottleneck(nn.Module):
    expansion = 4
    def __init__(self, inp, planes, stride=1, downsample=None):
        super().__init__()
        self.conv1 = nn.Conv2d(inp, planes, 1, bias=False); self.bn1 = nn.BatchNorm2d(planes)
        self.conv2 = nn.Conv2d(planes, planes, 3, stride, 1, bias=False); self.bn2 = nn.BatchNorm2d(planes)
        self.conv3 = nn.Conv2d(planes, planes * 4, 1, bias=False); self.bn3 = nn.BatchNorm2d(planes * 4)
        self.relu = nn.ReLU(inplace=True); self.downsample = downsample
    def forward(self, x):
        identity = x
        out = self.relu(self.bn1(self.conv1(x)))
        out = self.relu(self.bn2(self.conv2(out)))
        out = self.bn3(self.conv3(out))
        if self.downsample is not None:
            identity = self.downsample(x)
        out += identity
        return self.relu(out)

class ResNetish(nn.Module):
    def __init__(self):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, 16, 7, 2, 3, bias=False), nn.BatchNorm2d(16), nn.ReLU(inplace=True), nn.MaxPool2d(3, 2, 1))
        self.layer1 = nn.Sequential(Bottleneck(16, 8, 1, nn.Sequential(nn.Conv2d(16, 32, 1, bias=False), nn.BatchNorm2d(32))), Bottleneck(32, 8))
        self.layer2 = nn.Sequential(Bottleneck(32, 16, 2, nn.Sequential(nn.Conv2d(32, 64, 1, stride=2, bias=False), nn.BatchNorm2d(64))))
        self.avgpool = nn.AdaptiveAvgPool2d((1, 1)); self.fc = nn.Linear(64, 10)
    def forward(self, x):
        x = self.layer2(self.layer1(self.stem(x)))
        return self.fc(torch.flatten(self.avgpool(x), 1))

class InvertedResidual(nn.Module):
    def __init__(self, inp, oup, stride, expand):
        super().__init__()
        hid = inp * expand
        self.use_res = stride == 1 and inp == oup
        self.conv = nn.Sequential(nn.Conv2d(inp, hid, 1, bias=False), nn.BatchNorm2d(hid), nn.ReLU6(inplace=True),
            nn.Conv2d(hid, hid, 3, stride, 1, groups=hid, bias=False), nn.BatchNorm2d(hid), nn.ReLU6(inplace=True),
            nn.Conv2d(hid, oup, 1, bias=False), nn.BatchNorm2d(oup))
    def forward(self, x):
        if self.use_res:
            return x + self.conv(x)
        return self.conv(x)

class MobileNetish(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(3, 8, 3, 2, 1), nn.BatchNorm2d(8), nn.Hardswish(), InvertedResidual(8, 8, 1, 4), InvertedResidual(8, 16, 2, 4))
        self.classifier = nn.Sequential(nn.Dropout(0.2), nn.Linear(16, 5))
    def forward(self, x):
        x = self.features(x)
        x = nn.functional.adaptive_avg_pool2d(x, 1).reshape(x.shape[0], -1)
        return self.classifier(x)

class PosEnc(nn.Module):
    def __init__(self, d, n=64):
        super().__init__()
        pe = torch.zeros(n, d); pos = torch.arange(0, n).unsqueeze(1).float()
        div = torch.exp(torch.arange(0, d, 2).float() * (-math.log(10000.0) / d))
        pe[:, 0::2] = torch.sin(pos * div); pe[:, 1::2] = torch.cos(pos * div)
        self.register_buffer("pe", pe.unsqueeze(0))
    def forward(self, x):
        return x + self.pe[:, :x.size(1)]

class TextTransformer(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(50, 32, padding_idx=0); self.pos = PosEnc(32)
        layer = nn.TransformerEncoderLayer(32, 4, 64, dropout=0.1, batch_first=True, norm_first=True, activation="gelu")
        self.enc = nn.TransformerEncoder(layer, 2, enable_nested_tensor=False)
        self.head = nn.Linear(32, 3)
    def forward(self, tokens):
        mask = tokens == 0
        h = self.enc(self.pos(self.emb(tokens) * math.sqrt(32)), src_key_padding_mask=mask)
        h = h.masked_fill(mask.unsqueeze(-1), 0.0)
        return self.head(h.sum(1) / (~mask).sum(1, keepdim=True).clamp(min=1))

class BiGRU(nn.Module):
    def __init__(self):
        super().__init__()
        self.gru = nn.GRU(8, 16, num_layers=2, batch_first=True, bidirectional=True)
        self.lstm = nn.LSTM(32, 8, batch_first=True, bidirectional=True)
        self.out = nn.Linear(16, 4)
    def forward(self, x):
        h, _ = self.gru(x)
        h2, (hn, cn) = self.lstm(h)
        return F.softmax(self.out(h2[:, -1, :]), dim=-1), hn.permute(1, 0, 2).contiguous().view(x.size(0), -1)

class Misc(nn.Module):
    def __init__(self):
        super().__init__()
        self.up = nn.Upsample(scale_factor=2, mode="nearest"); self.ps = nn.PixelShuffle(2)
        self.conv = nn.Conv2d(4, 16, 3, padding=1); self.ln = nn.LayerNorm(8)
    def forward(self, x):
        y = self.ps(self.conv(self.up(x)))
        a, b = torch.chunk(y, 2, dim=1)
        z = torch.cat([a * torch.sigmoid(b), torch.where(a > 0, a, b * 0.1)], 1)
        z = F.gelu(z, approximate="tanh")
        m = z.mean(dim=(2, 3), keepdim=True)
        s = torch.matmul(z.flatten(2), z.flatten(2).transpose(1, 2)) / z.shape[-1]
        return self.ln(z[..., :8]) + m, s.softmax(-1), torch.ones_like(s).sum()

class Api(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4)
        self.names: List[str] = ["a", "b"]
    def forward(self, x: torch.Tensor, mask: Optional[torch.Tensor] = None, k: int = 2) -> Dict[str, torch.Tensor]:
        y = self.lin(x)
        if mask is not None:
            y = y.masked_fill(mask, -1e9)
        vals, idx = torch.topk(y, k, dim=-1)
        out: Dict[str, torch.Tensor] = {}
        for i, n in enumerate(self.names):
            out[n] = vals[:, i]
        out["idx"] = idx.to(torch.float32)
        out["norm"] = F.normalize(y, dim=-1)
        out["arg"] = torch.argmax(y, dim=1).float()
        out["long"] = torch.zeros(2, dtype=torch.long).float() + x.size(0)
        out["item"] = torch.tensor([float(y.sum().item()) > 0.0]).float()
        s = 0.0
        for a, b in zip([1.0, 2.0], [3.0, 4.0]):
            s += a * b
        out["s"] = torch.full([1], s)
        return out

    @torch.jit.export
    def many(self, xs: List[torch.Tensor]) -> torch.Tensor:
        acc = torch.zeros(1)
        for t in xs:
            acc = acc + t.sum()
        return acc

class Einsum(nn.Module):
    def forward(self, a, b):
        c = torch.einsum("bij,bjk->bik", a, b)
        d = torch.bmm(a, b)
        return c - d, torch.sort(c.flatten(1), dim=1)[0], torch.clamp(c, -1.0, 1.0).abs().max()

class InPlace(nn.Module):
    def forward(self, x):
        y = x * 2
        F.hardsigmoid(y, inplace=True)
        y.square_()  # an in-place operator ember has only out of place: copied back
        z = y.clone()
        z.sigmoid_()
        idx = torch.tensor([2, 0])
        w = x[:, idx]
        m = x > 0
        v = x[m]
        x2 = x.clone()
        x2[:, idx] = 0.0
        x2[m] += 1.0
        return y, z, w, v, x2


class Cfg(NamedTuple):
    scale: float
    shift: int


@torch.jit.script
class Acc:
    def __init__(self, k: float):
        self.k = k
        self.hist: List[int] = [1, 2]

    def apply(self, x: torch.Tensor) -> torch.Tensor:
        return x * self.k + len(self.hist)


class Holder(nn.Module):
    """Attributes holding a TorchScript class object, a NamedTuple, lists of tuples and a
    dict of lists."""

    def __init__(self):
        super().__init__()
        self.cfg = Cfg(2.0, 1)
        self.acc = Acc(3.0)
        self.pairs: List[Tuple[int, float]] = [(1, 0.5), (2, 1.5)]
        self.maps: Dict[int, List[float]] = {1: [0.5], 2: [1.0, 2.0]}

    def forward(self, x):
        y = self.acc.apply(x) * self.cfg[0] + self.cfg[1]
        for a, b in self.pairs:
            y = y + a * b
        for k, v in self.maps.items():
            y = y + k * len(v)
        return y


MODELS = {
    "attributes": (Holder, lambda: (torch.randn(3),)),
    "inplace_and_indexing": (InPlace, lambda: (torch.randn(3, 4),)),
    "resnetish": (ResNetish, lambda: (torch.randn(2, 3, 32, 32),)),
    "mobilenetish": (MobileNetish, lambda: (torch.randn(2, 3, 32, 32),)),
    "text_transformer": (TextTransformer,
                         lambda: (torch.tensor([[3, 4, 5, 0, 0], [7, 8, 9, 10, 2]]),)),
    "bigru": (BiGRU, lambda: (torch.randn(2, 5, 8),)),
    "misc": (Misc, lambda: (torch.randn(2, 4, 4, 4),)),
    "api": (Api, lambda: (torch.randn(3, 4), torch.tensor([[True, False, False, False]] * 3))),
    "einsum": (Einsum, lambda: (torch.randn(2, 3, 4), torch.randn(2, 4, 5))),
}
TRACE_REFUSED = {"api"}  # torch.jit.trace refuses dict outputs


def _flat(x):
    if isinstance(x, dict):
        return [y for k in sorted(x) for y in _flat(x[k])]
    if isinstance(x, (tuple, list)):
        return [y for z in x for y in _flat(z)]
    return [x.detach().numpy() if isinstance(x, torch.Tensor) else np.asarray(x)]


def _archive(m, lite):
    if lite:
        return bytes(m._save_to_buffer_for_lite_interpreter())
    buf = io.BytesIO()
    torch.jit.save(m, buf)
    return buf.getvalue()


@pytest.mark.parametrize("lite", [False, True], ids=["pt", "ptl"])
@pytest.mark.parametrize("how", ["scripted", "traced"])
@pytest.mark.parametrize("name", list(MODELS))
def test_architecture_matches_torch(name, how, lite):
    if how == "traced" and name in TRACE_REFUSED:
        pytest.skip("torch.jit.trace refuses this model")
    make, inputs = MODELS[name]
    torch.manual_seed(0)
    m = make().eval()
    args = inputs()
    with torch.no_grad():
        want = _flat(m(*args))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        s = torch.jit.script(m) if how == "scripted" else \
            torch.jit.trace(m, args, check_trace=False)
        data = _archive(s, lite)
    sm = ember.load_torchscript(data)
    got = _flat(sm(*[a.numpy() for a in args]))
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert g.shape == w.shape
        np.testing.assert_allclose(g, w, rtol=1e-4, atol=1e-4)


def test_optional_inputs_defaults_and_exported_methods():
    m = Api().eval()
    sm = ember.load_torchscript(_archive(torch.jit.script(m), False))
    x = torch.randn(3, 4)
    np.testing.assert_allclose(sm(x.numpy())["a"], m(x)["a"].detach().numpy(), rtol=1e-5)
    xs = [torch.randn(2), torch.randn(3)]
    np.testing.assert_allclose(sm.many([t.numpy() for t in xs]), m.many(xs).numpy(),
                               rtol=1e-5)
