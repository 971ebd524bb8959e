"""Weights are copied at most once on their way into ember: scripting a torch module makes
each tensor a frozen (read-only, immutable) array — a view of a copy-on-write clone of
torch's memory (no copy; torch copies if it writes later), else one copy straight from
torch's memory — which the program, the runtime and the save path then share; later
changes to the torch module do not reach the script module."""

from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch")

import ember  # noqa: E402
from ember.nn.from_torch import convert_layer  # noqa: E402
from ember.ops.tensor_common import frozen  # noqa: E402


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(8, 4)
        self.scale = torch.nn.Parameter(torch.rand(4))
        self.register_buffer("shift", torch.rand(4))

    def forward(self, x):
        return self.fc(x) * self.scale + self.shift


class Counter(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("count", torch.zeros(3))

    def forward(self, x):
        self.count.add_(x)
        return self.count.clone()


def _torch_memory(m):
    return [p.detach().numpy() for p in list(m.parameters()) + list(m.buffers())]


def test_scripted_tensors_are_frozen_and_do_not_share_torch_memory():
    torch.manual_seed(0)
    m = Net().eval()
    s = ember.script(m)
    tensors = [a for _, a in s.program.tensors]
    assert tensors and all(frozen(a) for a in tensors)
    assert not any(np.shares_memory(a, t) for a in tensors for t in _torch_memory(m))
    x = torch.rand(2, 8)
    before = s(x.numpy())
    with torch.no_grad():
        m.fc.weight.add_(1), m.scale.mul_(2), m.shift.add_(1)
    np.testing.assert_array_equal(s(x.numpy()), before)


def test_in_place_updates_of_a_mutable_program_stay_in_ember():
    m = Counter()
    s = ember.script(m)
    x = np.ones(3, np.float32)
    s(x)
    np.testing.assert_array_equal(s(x), [2, 2, 2])
    assert m.count.sum().item() == 0


def test_convert_layer_frozen_and_writable():
    lin = torch.nn.Linear(3, 2)
    w = convert_layer(lin)
    assert w.weight.flags.writeable and not np.shares_memory(w.weight, _torch_memory(lin)[0])
    f = convert_layer(lin, frozen=True)
    assert frozen(f.weight) and frozen(f.bias)
    np.testing.assert_array_equal(f.weight, lin.weight.detach().numpy())
    assert not np.shares_memory(f.weight, _torch_memory(lin)[0])


# ----------------------------------------------------------------------------- shared memory

_cow = pytest.mark.skipif(not hasattr(torch, "_lazy_clone"),
                          reason="this torch has no copy-on-write clones: weights are copied")


def _big():
    torch.manual_seed(1)
    return torch.nn.Sequential(torch.nn.Linear(256, 256), torch.nn.ReLU(),
                               torch.nn.Linear(256, 16)).eval()


@_cow
def test_scripting_shares_torch_memory_copy_on_write():
    m = _big()
    before = {p.const_data_ptr() for p in m.parameters()}
    s = ember.script(m)
    tensors = [a for _, a in s.program.tensors]
    assert all(frozen(a) for a in tensors)
    assert {a.ctypes.data for a in tensors} == before  # no copy at script time
    x = torch.rand(3, 256)
    with torch.no_grad():
        m(x)  # torch reading its weights copies nothing either
    assert {p.const_data_ptr() for p in m.parameters()} == before


def _mutations():
    def no_grad_inplace(m):
        with torch.no_grad():
            m[0].weight.mul_(2)

    def through_data(m):
        m[0].weight.data.add_(1)

    def through_numpy(m):
        m[0].bias.detach().numpy()[:] = 5

    def load_state(m):
        m.load_state_dict({k: torch.zeros_like(v) for k, v in m.state_dict().items()})

    def optimizer_step(m):
        opt = torch.optim.Adam(m.parameters(), lr=0.5)
        m(torch.rand(2, 256)).sum().backward()
        opt.step()
    return [no_grad_inplace, through_data, through_numpy, load_state, optimizer_step]


@_cow
@pytest.mark.parametrize("mutate", _mutations(), ids=lambda f: f.__name__)
def test_changing_the_torch_module_later_leaves_the_script_module(mutate):
    m = _big()
    s = ember.script(m)
    x = np.random.default_rng(0).standard_normal((2, 256)).astype(np.float32)
    want = s(x)
    with torch.no_grad():
        np.testing.assert_allclose(m(torch.from_numpy(x)).numpy(), want, rtol=1e-5, atol=1e-6)
    mutate(m)  # torch copies the buffers it writes; ember keeps the originals
    np.testing.assert_array_equal(s(x), want)
    with torch.no_grad():
        assert not np.allclose(m(torch.from_numpy(x)).numpy(), want)


def test_memory_torch_does_not_own_is_copied():
    m = torch.nn.Linear(4, 3)
    w = np.ones((3, 4), np.float32)
    with torch.no_grad():
        m.weight = torch.nn.Parameter(torch.from_numpy(w))  # numpy owns this memory
    s = ember.script(m)
    arrays = [a for _, a in s.program.tensors]
    assert all(frozen(a) for a in arrays)
    assert not any(np.shares_memory(a, w) for a in arrays)
    w[:] = 2  # written behind torch's back: the copy does not see it
    bias = m.bias.detach().numpy()
    np.testing.assert_allclose(s(np.ones((1, 4), np.float32)), 4 + bias[None], rtol=1e-6)


def test_tensors_torch_cannot_share_are_copied_once():
    from ember.nn.torch_memory import frozen_array

    with torch.inference_mode():
        inference = torch.ones(4, 4)
    cases = [inference, torch.arange(12.).reshape(3, 4).t(),  # not contiguous
             torch.ones(3, dtype=torch.float64)]
    for t in cases:
        a = frozen_array(t, np.float32)
        assert frozen(a) and a.dtype == np.float32
        np.testing.assert_array_equal(a, t.numpy().astype(np.float32))
