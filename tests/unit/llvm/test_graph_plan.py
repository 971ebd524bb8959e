"""Whole-function native plans (ember/llvm/graph.py): a planned call gives the VM path's
bits, fresh outputs, and a function the plan cannot vouch for keeps the VM path."""

from __future__ import annotations

import threading

import numpy as np
import pytest

import ember

pytest.importorskip("llvmlite")
torch = pytest.importorskip("torch")

from ember.llvm import graph  # noqa: E402

nn = torch.nn
F = torch.nn.functional


def _entry(s):
    fn = s._fn
    return fn if isinstance(fn, graph.PlannedEntry) else None


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.a, self.b = nn.Linear(20, 32), nn.Linear(32, 5)

    def forward(self, x):
        return self.b(F.relu(self.a(x)))


class CNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.c1 = nn.Conv2d(3, 8, 3, padding=1)
        self.dw = nn.Conv2d(8, 8, 3, padding=1, groups=8)
        self.fc = nn.Linear(8 * 4 * 4, 6)

    def forward(self, x):
        x = F.relu(self.c1(x))
        x = F.max_pool2d(F.hardswish(self.dw(x)), 2)
        return self.fc(torch.flatten(x, 1))


class Numpy(nn.Module):
    """A broadcasting add runs the numpy kernel: a plan cannot vouch for its result."""

    def __init__(self):
        super().__init__()
        self.a, self.b = nn.Linear(8, 8), nn.Linear(8, 3)
        self.shift = nn.Parameter(torch.ones(8))

    def forward(self, x):
        return self.b(self.a(x) + self.shift)


class Softmax(nn.Module):
    def __init__(self):
        super().__init__()
        self.a = nn.Linear(8, 8)

    def forward(self, x):
        return torch.softmax(self.a(x), -1)


class LogSoftmax(nn.Module):
    def __init__(self):
        super().__init__()
        self.a = nn.Linear(8, 8)

    def forward(self, x):
        return torch.log_softmax(self.a(x), -1)


class Item(nn.Module):
    def __init__(self):
        super().__init__()
        self.a = nn.Linear(4, 4)

    def forward(self, x):
        y = self.a(x)
        if float(y.sum()) > 0.0:
            return F.relu(y)
        return y


class LSTMHead(nn.Module):
    def __init__(self):
        super().__init__()
        self.lstm = nn.LSTM(6, 8, batch_first=True)
        self.fc = nn.Linear(8, 3)

    def forward(self, x):
        out, _ = self.lstm(x)
        return self.fc(out[:, -1])


class SEBlock(nn.Module):
    """MobileNetV3's squeeze-excite: freeze makes y * gate then the projection one
    mul_conv2d, whose per-sample scaled weights are computed natively."""

    def __init__(self):
        super().__init__()
        self.expand = nn.Conv2d(4, 8, 1)
        self.reduce, self.grow = nn.Conv2d(8, 2, 1), nn.Conv2d(2, 8, 1)
        self.project = nn.Conv2d(8, 4, 1)

    def forward(self, x):
        y = F.hardswish(self.expand(x))
        s = F.hardsigmoid(self.grow(F.relu(self.reduce(F.adaptive_avg_pool2d(y, 1)))))
        return x + self.project(y * s)


def _models():
    torch.manual_seed(3)
    enc = nn.TransformerEncoderLayer(16, 2, 32, dropout=0.0, batch_first=True)
    return [(MLP(), (1, 20)), (MLP(), (6, 20)), (CNN(), (4, 3, 8, 8)), (enc, (1, 5, 16)),
            (LSTMHead(), (1, 12, 6)), (LSTMHead(), (4, 12, 6)), (Softmax(), (4, 8)),
            (SEBlock(), (1, 4, 6, 6)), (SEBlock(), (3, 4, 6, 6))]


@pytest.mark.parametrize("k", range(9))
def test_planned_calls_give_the_vm_paths_bits(k):
    model, shape = _models()[k]
    s = ember.script(model.eval(), backend="llvm")
    entry = _entry(s)
    assert entry is not None
    rng = np.random.default_rng(k)
    xs = [rng.standard_normal(shape).astype(np.float32) for _ in range(4)]
    outs = [s(x) for x in xs]  # the first records, the others replay
    assert isinstance(entry.plans[shape], graph.Plan)
    for x, y in zip(xs, outs):
        want = entry.vm(x)
        assert np.array_equal(y, want)
        with torch.no_grad():
            ref = model(torch.from_numpy(x)).numpy()
        assert np.allclose(y, ref, atol=1e-4)
    assert len({id(y) for y in outs}) == len(outs)  # fresh outputs: none overwritten


def test_each_shape_gets_its_own_plan_and_strided_inputs_take_the_vm_path():
    s = ember.script(MLP().eval(), backend="llvm")
    entry = _entry(s)
    x = np.random.default_rng(0).standard_normal((20, 3)).astype(np.float32)
    a = np.ascontiguousarray(x.T)
    b = np.ascontiguousarray(np.concatenate([a, a]))
    assert np.array_equal(s(a), entry.vm(a)) and np.array_equal(s(a), entry.vm(a))
    assert np.array_equal(s(b), entry.vm(b)) and np.array_equal(s(b), entry.vm(b))
    assert set(entry.plans) == {(3, 20), (6, 20)}
    assert np.array_equal(s(x.T), entry.vm(a))  # strided: the VM path, same values
    assert set(entry.plans) == {(3, 20), (6, 20)}
    with pytest.raises(RuntimeError, match="same dtype"):  # float64: the VM path's error
        s(a.astype(np.float64))


def test_numpy_work_between_kernels_keeps_the_vm_path():
    s = ember.script(Numpy().eval(), backend="llvm")
    entry = _entry(s)
    x = np.random.default_rng(1).standard_normal((4, 8)).astype(np.float32)
    y1 = s(x)
    y2 = s(x + 1)
    assert entry.plans[(4, 8)].startswith("a call reads an array no noted call wrote")
    assert np.array_equal(y2, entry.vm(x + 1)) and np.array_equal(y1, entry.vm(x))


def test_static_refusals_name_their_reason():
    s = ember.script(Item().eval(), backend="llvm")
    assert _entry(s) is None
    assert graph.refusal(s.module, "forward").endswith("has no native twin")
    s = ember.script(LogSoftmax().eval(), backend="llvm")
    assert graph.refusal(s.module, "forward") == "tensor.log_softmax has no native twin"

    def two(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
        return torch.relu(x + y)
    f = ember.script(two, backend="llvm")
    assert _entry(f) is None
    assert graph.refusal(f.module, f.entry).startswith("not one tensor in")


class Stateful(nn.Module):
    def __init__(self):
        super().__init__()
        self.a = nn.Linear(4, 4)
        self.scale = 1.0

    def forward(self, x):
        return F.relu(self.a(x) * self.scale)

    @torch.jit.export
    def set_scale(self, s: float):
        self.scale = s


def test_state_another_method_changes_is_not_planned():
    m = Stateful().eval()
    s = ember.script(m, backend="llvm")
    assert graph.refusal(s.module, "forward") == \
        "it reads module state another method changes"
    x = np.linspace(-1, 1, 4, dtype=np.float32).reshape(1, 4)
    s(x)
    s(x)
    s.set_scale(-2.0)
    m.set_scale(-2.0)
    with torch.no_grad():
        assert np.allclose(s(x), m(torch.from_numpy(x)).numpy(), atol=1e-6)


def test_threads_at_once_give_identical_results():
    model, shape = _models()[2]
    s = ember.script(model.eval(), backend="llvm")
    rng = np.random.default_rng(9)
    xs = [rng.standard_normal(shape).astype(np.float32) for _ in range(8)]
    s(xs[0])
    want = [_entry(s).vm(x) for x in xs]
    got = [None] * 8

    def work(i):
        for _ in range(20):
            y = s(xs[i])
            if got[i] is None or np.array_equal(got[i], want[i]):
                got[i] = y
    threads = [threading.Thread(target=work, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(np.array_equal(g, w) for g, w in zip(got, want))


def test_pointer_checks_refuse_what_the_plan_cannot_replay():
    x = np.zeros(8, np.float32)
    r = np.zeros(4, np.float32)
    kept = np.zeros(4, np.float32)

    class Fn:
        argtypes = (graph.ctypes.c_void_p,)
    assert graph._pointer_problem([(Fn, (x.ctypes.data + 4,), (x,), (r,), (), ())], x, r) \
        == "a call points inside the input or the result"
    stray = np.zeros(4, np.float32)
    assert graph._pointer_problem([(Fn, (stray.ctypes.data,), (x,), (r,), (), ())], x, r) \
        == "a call passes a pointer to memory no noted array holds"
    assert graph._pointer_problem([(Fn, (kept.ctypes.data + 4,), (x,), (r,), (kept,), ())],
                                  x, r) is None


class InPlace(nn.Module):
    def __init__(self):
        super().__init__()
        self.a, self.b = nn.Linear(8, 8), nn.Linear(8, 8)

    def forward(self, x):
        return self.b(F.relu(self.a(x), inplace=True))


def test_in_place_activations_are_not_planned():
    m = InPlace().eval()
    s = ember.script(m, backend="llvm")
    assert graph.refusal(s.module, "forward") == "tensor.relu may run in place"
    x = np.random.default_rng(2).standard_normal((4, 8)).astype(np.float32)
    with torch.no_grad():
        assert np.allclose(s(x), m(torch.from_numpy(x)).numpy(), atol=1e-5)


class Scaled(nn.Module):
    """Large finite inputs whose first product overflows: the second dynamic int8 product
    declines inside the plan."""

    def __init__(self):
        super().__init__()
        self.a, self.b, self.c = nn.Linear(12, 16), nn.Linear(16, 16), nn.Linear(16, 4)
        with torch.no_grad():
            self.a.weight.mul_(1e3)

    def forward(self, x):
        return self.c(F.relu(self.b(self.a(x))))


def _int8(model, backend):
    torch.manual_seed(5)
    return ember.quantize(model.eval(), mode="dynamic", backend=backend)


def _same(a, b):
    return a.shape == b.shape and np.array_equal(a.view(np.int32), b.view(np.int32))


def _outcome(f, x):
    """f(x)'s bits, or the type of the exception it raised."""
    try:
        return f(x).view(np.int32).tobytes()
    except Exception as e:  # noqa: BLE001 - compared across engines
        return type(e)


def test_dynamic_int8_plans_decline_non_finite_values_to_the_vm_path(tmp_path):
    import ember.mobile

    m = Scaled().eval()
    s = _int8(m, "llvm")
    entry = _entry(s)
    assert entry is not None
    vm = _int8(m, "vm")
    vm.save(tmp_path / "m.ember")
    lite = ember.mobile.load(tmp_path / "m.ember")
    rng = np.random.default_rng(4)
    small = [rng.standard_normal((3, 12)).astype(np.float32) for _ in range(3)]
    big = rng.standard_normal((3, 12)).astype(np.float32) * np.float32(1e37)  # a(big): inf
    nan = small[0].copy()
    nan[1, 3] = np.nan
    inf = small[0].copy()
    inf[2, 0] = -np.inf
    s(small[0])
    assert isinstance(entry.plans[(3, 12)], graph.Plan)
    for x in small + [big, nan, inf, small[1]]:
        got = _outcome(s, x)
        assert got == _outcome(entry.vm, x) == _outcome(lite, x)
    plan = entry.plans[(3, 12)]
    assert plan.run(big) is None and plan.run(nan) is None  # declined: the VM path ran
    assert _same(plan.run(small[2]), entry.vm(small[2]))


def test_a_recording_a_kernel_declined_records_again():
    m = MLP().eval()
    s = _int8(m, "llvm")
    entry = _entry(s)
    x = np.random.default_rng(6).standard_normal((2, 20)).astype(np.float32)
    bad = x.copy()
    bad[0, 1] = np.nan  # (not the first value: torch raises for that one)
    for _ in range(graph.RETRIES - 1):
        assert _same(s(bad), entry.vm(bad))
        assert entry.plans.get((2, 20)) is None
    assert _same(s(x), entry.vm(x))
    assert isinstance(entry.plans[(2, 20)], graph.Plan)
    assert _same(s(bad), entry.vm(bad)) and _same(s(x), entry.vm(x))
    t = _int8(m, "llvm")
    for _ in range(graph.RETRIES):
        t(bad)
    assert _entry(t).plans[(2, 20)] == "a kernel declined the calls of every recording"
    assert _same(t(x), _entry(t).vm(x))
