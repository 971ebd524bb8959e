"""@staticmethod and @classmethod on script classes and on modules (ember.nn and torch.nn):
reached through the class name, through `self`, and (classmethods) through the class a
subclass's copy is compiled for; the same results in process and after save -> load."""

from __future__ import annotations

import numpy as np
import pytest

import ember
from ember import errors, mobile, nn


class Scaler(nn.Module):
    K = 3

    def __init__(self):
        super().__init__()
        self.k = 2

    @staticmethod
    def double(x: int) -> int:
        return x * 2

    @classmethod
    def plus_k(cls, x: int) -> int:
        return x + cls.K

    def forward(self, x):
        return x * self.double(self.k) + Scaler.double(1) + self.plus_k(1) + Scaler.plus_k(0)


def test_module_static_and_class_methods(tmp_path):
    m = Scaler()
    x = np.ones(3, dtype=np.float32)
    want = x * 4 + 2 + 4 + 3
    sm = ember.script(m)
    np.testing.assert_array_equal(sm(x), want)
    sm.save(tmp_path / "m.ember")
    np.testing.assert_array_equal(mobile.load(tmp_path / "m.ember")(x), want)


def test_torch_module_static_and_class_methods():
    torch = pytest.importorskip("torch")

    class TorchScaler(torch.nn.Module):
        K = 5

        @staticmethod
        def half(x: float) -> float:
            return x / 2

        @classmethod
        def k(cls) -> int:
            return cls.K

        def forward(self, x):
            return x * self.half(4.0) + TorchScaler.k()

    m = TorchScaler()
    x = np.arange(3, dtype=np.float32)
    np.testing.assert_array_equal(ember.script(m)(x), m(torch.from_numpy(x)).numpy())


SOURCE = '''
class Shape:
    SIDES = 0

    def __init__(self, n: int):
        self.n = n

    @classmethod
    def make(cls, n: int):
        return cls(n * 10)

    @classmethod
    def sides(cls) -> int:
        return cls.SIDES

    @staticmethod
    def unit() -> int:
        return 1


class Square(Shape):
    SIDES = 4


def f(n: int) -> Tuple[int, int, int, int, int, bool]:
    s = Square.make(n)
    return (s.n, Shape.sides(), Square.sides(), s.sides(), Square.unit() + Shape.make(1).n,
            isinstance(Square.make(1), Square))
'''


def test_classmethod_of_a_subclass_gets_the_subclass():
    cu = ember.CompilationUnit(SOURCE)
    assert cu.f(2) == (20, 0, 4, 4, 11, True)


@pytest.mark.parametrize("src, line, match", [
    ("class A:\n    @classmethod\n    def m() -> int:\n        return 1\n\n"
     "def f() -> int:\n    return A.m()\n", 3, "needs a first parameter for the class"),
    ("class A:\n    @classmethod\n    def m(cls) -> int:\n        return cls.X\n\n"
     "def f() -> int:\n    return A.m()\n", 4, "no constant or static method 'X'"),
])
def test_classmethod_misuse(src, line, match):
    with pytest.raises(errors.CompileError) as ei:
        ember.CompilationUnit(src)
    assert ei.value.line == line and match in str(ei.value)
