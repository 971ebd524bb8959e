"""Weights are copied once on their way into ember: scripting a torch module copies each
tensor straight from torch's memory into a frozen (read-only, immutable) array, which the
program, the runtime and the save path then share; later changes to the torch module do
not reach the script module."""

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
