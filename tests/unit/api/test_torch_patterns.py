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


@pytest.mark.parametrize("batch", [1, 2])
def test_densenet_overloaded_forward_agrees_with_torch(batch, tmp_path):
    from .torch_patterns_src import DenseNet
    torch.manual_seed(0)
    m = DenseNet().eval()
    x = torch.randn(batch, 4, 6, 5)
    with torch.no_grad():
        want = m(x).numpy()
    ember.script(m).save(tmp_path / "m.ember")
    got = mobile.load(tmp_path / "m.ember")(x.numpy())
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


def test_an_overloaded_forward_called_directly_has_the_implementations_signature():
    from .torch_patterns_src import DenseLayer
    torch.manual_seed(0)
    m = DenseLayer(3, 2).eval()
    x = torch.randn(1, 3, 4, 4)
    with torch.no_grad():
        want = m(x).numpy()
    np.testing.assert_allclose(ember.script(m)(x.numpy()), want, rtol=1e-5, atol=1e-5)


def test_unused_method_compiles_to_a_raise():
    from .torch_patterns_src import DenseLayer
    m = DenseLayer(3, 2, memory_efficient=True).eval()
    sm = ember.script(m, optimize=False)
    assert sm(np.ones((1, 3, 2, 2), np.float32)).shape == (1, 2, 2, 2)  # requires_grad: False

    class Holder(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.layer = m

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            return self.layer.call_checkpoint_bottleneck([x])

    with pytest.raises(RuntimeError, match="call_checkpoint_bottleneck' is decorated with "
                                           "@torch.jit.unused"):
        ember.script(Holder())(np.ones((1, 3, 2, 2), np.float32))


def test_namedtuple_output_with_warning_and_rebound_list_agrees_with_torch(tmp_path):
    from .torch_patterns_src import Mixed
    torch.manual_seed(0)
    m = Mixed().eval()
    x = torch.randn(2, 3, 5, 4)
    with torch.no_grad():
        want = m(x).numpy()  # eager returns the tensor, scripted code the namedtuple
    ember.script(m).save(tmp_path / "m.ember")
    got = mobile.load(tmp_path / "m.ember")(x.numpy())
    assert got._fields == ("logits", "aux") and got.aux is None
    np.testing.assert_allclose(got.logits, want, rtol=1e-5, atol=1e-5)


OVERLOADED_CLASS = '''
import torch
from typing import List

class Acc:
    def __init__(self, base: int):
        self.base = base

    @torch.jit._overload_method
    def add(self, x: int, scale: int = 1) -> int:
        pass

    @torch.jit._overload_method
    def add(self, x: List[int], scale: int = 1) -> int:
        pass

    def add(self, x, scale: int = 1):
        if isinstance(x, int):
            return self.base + x * scale
        return self.base + sum(x) * scale

def f(n: int) -> int:
    a = Acc(n)
    return a.add(1) * 1000 + a.add([1, 2], scale=3)

def bad(n: int) -> int:
    return Acc(n).add("x")
'''


def test_overloads_of_a_class_method_dispatch_on_argument_types():
    unit = ember.CompilationUnit(OVERLOADED_CLASS.replace("def bad", "def _unused_bad")
                                 .replace('Acc(n).add("x")', "0"))
    assert unit.f(5) == 6 * 1000 + 5 + 9
    assert ember.CompilationUnit(OVERLOADED_CLASS.replace("def bad", "def _b").replace(
        'Acc(n).add("x")', "Acc(n).add(scale=2, x=3) + Acc(n).add([4], 2)"))._b(1) == 7 + 9
    with pytest.raises(ember.errors.TypeCheckError) as ei:
        ember.CompilationUnit(OVERLOADED_CLASS)
    e = ei.value
    assert "no overload of add() takes (str)" in e.message and "(x: List[int], scale: int)" \
        in e.message and e.line == OVERLOADED_CLASS.count("\n", 0,
                                                          OVERLOADED_CLASS.index('"x"')) + 1


def test_an_overload_must_name_the_implementations_parameters():
    src = OVERLOADED_CLASS.replace("def add(self, x: int, scale", "def add(self, y: int, scale")
    with pytest.raises(ember.errors.UnsupportedError, match="must name the implementation's"):
        ember.CompilationUnit(src)
