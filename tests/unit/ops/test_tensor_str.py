"""Tensors are written as torch writes them (str, repr, format, % and print, also inside
containers): compared with torch's own text for the modes its printer has."""

from __future__ import annotations

import numpy as np
import pytest

from ember.ops.tensor_str import percent_format, py_format, py_repr, py_str, tensor_str

torch = pytest.importorskip("torch")


def _cases():
    g = torch.Generator().manual_seed(0)
    return [
        torch.tensor([1, 2]), torch.tensor([1.5, 2.0]), torch.tensor(3), torch.tensor(3.5),
        torch.tensor([1.0, 2.0]), torch.tensor([1.0, 2.0], dtype=torch.float64),
        torch.tensor([True, False]), torch.tensor([1, 2], dtype=torch.int32), torch.zeros(2, 3),
        torch.arange(24).reshape(2, 3, 4), torch.randn(3, 4, generator=g),
        torch.tensor([1e-5, 1.0]), torch.tensor([1e9, 1.0]),
        torch.tensor([float("nan"), float("inf"), -float("inf"), 1.0]),
        torch.tensor([float("nan"), 2.5]), torch.tensor([]), torch.zeros(2, 0),
        torch.zeros(0, dtype=torch.int64), torch.arange(2000), torch.randn(50, 50, generator=g),
        torch.arange(30.0) * 1000, torch.tensor([1 + 2j, -3.5 - 1j]),
        torch.tensor([0.1, -0.2], dtype=torch.float16), torch.randn(4, 30, generator=g),
        torch.tensor(-0.0), torch.tensor([[1e-10]]), torch.arange(100000.0).reshape(100, 1000),
        torch.tensor([2**40, 3]), torch.tensor(True), torch.tensor([1, 2], dtype=torch.uint8),
        torch.randn(2, 2, dtype=torch.complex128, generator=g), torch.tensor([0.0, -0.0]),
    ]


@pytest.mark.parametrize("t", _cases(), ids=lambda t: f"{t.dtype}-{tuple(t.shape)}")
def test_tensor_text_is_torchs(t):
    assert tensor_str(t.numpy()) == str(t) == repr(t)


def test_values_holding_tensors():
    t, x = torch.tensor([1.5, 2.0]), np.array([1.5, 2.0], np.float32)
    assert py_str([x, (x,), {"k": x}]) == str([t, (t,), {"k": t}])
    assert py_repr((x, 1, "a")) == repr((t, 1, "a"))
    assert py_format(x, "") == format(t, "") and py_format(x.sum(), ".2f") == "3.50"
    assert percent_format("%s|%r|%d", (x, x, np.array(3))) == "%s|%r|%d" % (t, t, 3)
    with pytest.raises(TypeError, match="unsupported format string passed to Tensor"):
        py_format(x, ">10")
    assert py_str([1, "a"]) == "[1, 'a']" and py_str(2.5) == "2.5"
