"""Small TorchScript modules, scripted and traced by torch at test time, saved as .pt and
.ptl, imported by ember and compared with torch's own outputs."""

import io
import warnings
from typing import Dict, List, NamedTuple, Optional, Tuple

import numpy as np
import pytest

torch = pytest.importorskip("torch")
nn = torch.nn

import ember  # noqa: E402
from ember.errors import CompileError  # noqa: E402


class Flow(nn.Module):
    def forward(self, x: torch.Tensor, n: int) -> torch.Tensor:
        i = 0
        while i < n:
            if i % 3 == 2:
                x = x * 0.5
            elif i > 4:
                break
            else:
                x = x + float(i)
            i += 1
        for j in range(n):
            if j == 1:
                continue
            x = x - 0.25
        return x


class Containers(nn.Module):
    def __init__(self):
        super().__init__()
        self.sizes: List[int] = [3, 1, 2]
        self.table: Dict[str, float] = {"a": 1.5, "b": -2.0}

    def forward(self, x: torch.Tensor) -> Tuple[torch.Tensor, List[int], Dict[str, int]]:
        total = 0
        for s in self.sizes:
            total += s
        d: Dict[str, int] = {}
        for k, v in self.table.items():
            d[k] = int(v * 2)
        out = sorted(self.sizes)
        out.append(len(d))
        return x * self.table["a"] + total, out, d


class OptionalAttrs(nn.Module):
    def __init__(self, with_bias: bool):
        super().__init__()
        self.bias: Optional[torch.Tensor] = torch.arange(3.0) if with_bias else None
        self.scale: Optional[float] = 2.0 if with_bias else None

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        b = self.bias
        if b is not None:
            x = x + b
        s = self.scale
        if s is not None:
            x = x * s
        return x


class Pair(NamedTuple):
    first: torch.Tensor
    count: int


@torch.jit.script
class Scaler:
    def __init__(self, k: float):
        self.k = k

    def apply(self, x: torch.Tensor) -> torch.Tensor:
        return x * self.k


class WithClasses(nn.Module):
    def forward(self, x: torch.Tensor) -> Pair:
        s = Scaler(3.0)
        return Pair(s.apply(x), x.dim())


class Views(nn.Module):
    def __init__(self):
        super().__init__()
        base = torch.arange(12.0)
        self.register_buffer("base", base)
        self.register_buffer("window", base[2:8].view(2, 3))
        self.register_buffer("column", base.view(3, 4)[:, 1])

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x + self.window + self.column.sum()


class State(nn.Module):
    def __init__(self):
        super().__init__()
        self.k = 2
        self.name = "state"

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x * self.k + len(self.name)

    @torch.jit.export
    def __getstate__(self) -> Tuple[int, str, bool]:
        return self.k, self.name, self.training

    @torch.jit.export
    def __setstate__(self, state: Tuple[int, str, bool]) -> None:
        self.k = state[0]
        self.name = state[1]
        self.training = state[2]


class Raises(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if x.dim() != 2:
            raise ValueError("want 2-d input")
        return x.relu()


class Counter(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("calls", torch.zeros(1))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        self.calls.add_(1.0)
        return x * self.calls


class Seq(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2))
        self.heads = nn.ModuleList([nn.Linear(2, 2), nn.Linear(2, 1)])

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = self.body(x)
        for h in self.heads:
            y = torch.tanh(h(y)) if y.shape[-1] == 2 else y
        return y

    @torch.jit.export
    def twice(self, x: torch.Tensor) -> torch.Tensor:
        return self.forward(x) * 2


def _save(scripted, lite: bool) -> bytes:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if lite:
            return bytes(scripted._save_to_buffer_for_lite_interpreter())
        buf = io.BytesIO()
        torch.jit.save(scripted, buf)
        return buf.getvalue()


def _np(v):
    if isinstance(v, torch.Tensor):
        return v.detach().numpy()
    if isinstance(v, list):
        return [_np(x) for x in v]
    if isinstance(v, tuple):
        return tuple(_np(x) for x in v)
    if isinstance(v, dict):
        return {k: _np(x) for k, x in v.items()}
    return v


def _same(got, want):
    if isinstance(want, np.ndarray):
        assert isinstance(got, np.ndarray) and got.shape == want.shape
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)
    elif isinstance(want, (list, tuple)):
        assert len(got) == len(want)
        for g, w in zip(got, want):
            _same(g, w)
    elif isinstance(want, dict):
        assert got.keys() == want.keys()
        for k in want:
            _same(got[k], want[k])
    else:
        assert type(got) is type(want) and got == want


torch.manual_seed(0)
CASES = {
    "flow": (Flow, lambda: (torch.randn(2, 3), 7)),
    "containers": (Containers, lambda: (torch.randn(2, 3),)),
    "optional_set": (lambda: OptionalAttrs(True), lambda: (torch.randn(2, 3),)),
    "optional_none": (lambda: OptionalAttrs(False), lambda: (torch.randn(2, 3),)),
    "classes": (WithClasses, lambda: (torch.randn(2, 3),)),
    "views": (Views, lambda: (torch.randn(2, 3),)),
    "setstate": (State, lambda: (torch.randn(2, 3),)),
    "seq": (Seq, lambda: (torch.randn(5, 3),)),
}
LITE_REFUSED = {"classes"}  # torch cannot save script classes for the lite interpreter


@pytest.mark.parametrize("lite", [False, True], ids=["pt", "ptl"])
@pytest.mark.parametrize("name", list(CASES))
def test_scripted_small_modules_match_torch(name, lite):
    if lite and name in LITE_REFUSED:
        pytest.skip("torch refuses to save it as .ptl")
    make, inputs = CASES[name]
    m = make().eval()
    s = torch.jit.script(m)
    args = inputs()
    want = _np(torch.jit.load(io.BytesIO(_save(s, False)))(*args))
    sm = ember.load_torchscript(_save(s, lite))
    got = sm(*_np(args))
    _same(_np(tuple(got) if name == "classes" else got), want if name != "classes"
          else tuple(want))


def test_every_method_is_an_entry_forward_first():
    sm = ember.load_torchscript(_save(torch.jit.script(Seq().eval()), False))
    assert sm.entries[0] == "forward" and "twice" in sm.entries
    x = torch.randn(4, 3)
    want = torch.jit.script(Seq().eval())
    assert sm.twice(x.numpy()).shape == (4, 1)
    del want


def test_script_errors_keep_their_builtin_type():
    sm = ember.load_torchscript(_save(torch.jit.script(Raises()), False))
    with pytest.raises(ValueError, match="want 2-d input"):
        sm(np.zeros(3, np.float32))
    np.testing.assert_array_equal(sm(-np.ones((2, 2), np.float32)), np.zeros((2, 2)))


def test_buffers_updated_in_place_persist_across_calls():
    s = torch.jit.script(Counter())
    sm = ember.load_torchscript(_save(s, False))
    x = np.ones(2, np.float32)
    assert sm(x).tolist() == [1.0, 1.0]
    assert sm(x).tolist() == [2.0, 2.0]


def test_traced_constants_and_artifact_round_trip(tmp_path):
    class WithConst(nn.Module):
        def forward(self, x):
            return x * torch.tensor([1.0, 2.0, 3.0]) + x.shape[0]
    t = torch.jit.trace(WithConst(), (torch.randn(2, 3),), check_trace=False)
    for lite in (False, True):
        sm = ember.load_torchscript(_save(t, lite))
        x = torch.randn(4, 3)
        want = t(x).numpy()
        np.testing.assert_allclose(sm(x.numpy()), want, rtol=1e-6)
        path = tmp_path / f"m{lite}.ember"
        sm.save(path)
        np.testing.assert_allclose(ember.mobile.load(path)(x.numpy()), want, rtol=1e-6)


def test_views_share_storage_in_the_import():
    from ember.torchscript import read_archive
    a = read_archive(_save(torch.jit.script(Views()), False))
    st = a.root.state
    assert np.shares_memory(st["base"], st["window"])


def test_trace_api_imports_in_memory():
    m = nn.Sequential(nn.Linear(3, 4), nn.GELU(), nn.LayerNorm(4)).eval()
    x = torch.randn(3, 3)
    sm = ember.trace(m, x)
    np.testing.assert_allclose(sm(x.numpy()), m(x).detach().numpy(), rtol=1e-5, atol=1e-6)


def test_trace_warns_naming_the_line():
    class Branchy(nn.Module):
        def forward(self, x):
            if x.sum() > 0:
                return x + 1
            return x - 1
    with pytest.warns(ember.torchscript.load.TraceWarning, match=r"test_import.py:\d+"):
        ember.trace(Branchy(), torch.ones(2))


def test_unsupported_operator_is_a_compile_error_naming_it_and_its_line():
    class Odd(nn.Module):
        def forward(self, x):
            return torch.special.erfcx(x)
    t = torch.jit.trace(Odd(), (torch.randn(3),), check_trace=False)
    with pytest.raises(CompileError, match="aten::special_erfcx") as e:
        ember.load_torchscript(_save(t, False))
    d = e.value.diagnostics[0]
    assert d.span.filename.endswith(".py") and d.span.line >= 1
    assert "special_erfcx" in d.span.source.line(d.span.line)


class ComplexBuffer(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("z", torch.tensor([1 + 2j, 3 - 1j], dtype=torch.complex64))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return (self.z * x).real


def test_complex_storages_import():
    s = torch.jit.script(ComplexBuffer())
    sm = ember.load_torchscript(_save(s, False))
    x = torch.tensor([2.0, -3.0])
    np.testing.assert_allclose(sm(x.numpy()), s(x).numpy())


def test_quantized_archive_is_refused_by_name():
    from ember.errors import ArtifactError
    m = torch.ao.quantization.quantize_dynamic(nn.Sequential(nn.Linear(4, 4)), {nn.Linear},
                                               dtype=torch.qint8)
    with pytest.raises(ArtifactError, match="_rebuild_qtensor"):
        ember.load_torchscript(_save(torch.jit.script(m), False))
