"""Patterns of real torch model code (torchvision's): Sequential and ModuleList
subclasses, `torch.jit.is_scripting()` guards around code that cannot compile, a tuple
given to torch.cat, stochastic depth's training branch (bernoulli_), ceil_mode pooling.
Scripted, saved and loaded, the model agrees with torch eager."""

from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch")

import ember  # noqa: E402
from ember import mobile  # noqa: E402

from .torch_patterns_src import Net  # noqa: E402


@pytest.mark.parametrize("batch", [1, 3])
def test_torchvision_style_model_agrees_with_torch(batch, tmp_path):
    torch.manual_seed(0)
    m = Net().eval()
    x = torch.randn(batch, 3, 13, 11)
    with torch.no_grad():
        want = m(x).numpy()
    sm = ember.script(m)
    sm.save(tmp_path / "m.ember")
    got = mobile.load(tmp_path / "m.ember")(x.numpy())
    assert got.shape == want.shape
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


def test_is_scripting_is_true_and_is_tracing_false_when_compiled():
    def f(x: int) -> int:
        if torch.jit.is_scripting():
            return x + 1
        return x - 1

    def g(x: int) -> bool:
        return torch.jit.is_tracing()

    assert ember.script(f)(1) == 2
    assert ember.script(g)(1) is False


def test_torch_assert_raises_assertion_error_with_its_message(tmp_path):
    def f(x: int) -> int:
        torch._assert(x > 0, f"x must be positive, got {x}")
        return x * 2

    sm = ember.script(f)
    assert sm(3) == 6
    with pytest.raises(AssertionError, match="x must be positive, got -1"):
        sm(-1)


@pytest.mark.parametrize("a, b", [(None, None), (2, None), (None, -3), (1, 4), (-2, None)])
def test_optional_int_slice_bounds_are_open_when_none(a, b):
    from .torch_patterns_src import open_bounds
    x = np.arange(10, dtype=np.float32)
    got = ember.script(open_bounds)(x, a, b)
    np.testing.assert_array_equal(got, open_bounds(torch.from_numpy(x), a, b).numpy())


def test_swin_window_mask_from_a_tuple_with_none_bounds():
    from .torch_patterns_src import window_mask
    np.testing.assert_array_equal(ember.script(window_mask)(6), window_mask(6).numpy())
