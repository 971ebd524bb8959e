"""ember.script of a Python function with Any or Tuple[T, ...] parameters is compiled per
argument types, as a CompilationUnit's entry is; @torch.jit._overload declarations of the
functions it calls are found through torch's registry."""

import numpy as np
import pytest

import ember
from ember import mobile

torch = pytest.importorskip("torch")

from . import script_any_src as src  # noqa: E402


def test_any_parameter_is_compiled_for_each_argument_type():
    f = ember.script(src.describe)
    assert f(3) == "int 3"
    assert f("ab", 2) == "str abab"
    assert f([1.5]) == "other [1.5]"
    assert f(None) == "other None"
    assert ember.script(src.lengths)([np.zeros(2), np.ones(1)]) == 2


def test_variadic_tuple_parameter_uses_the_given_length_or_the_default():
    f = ember.script(src.total)
    assert f((1, 2, 3)) == 6
    assert f() == -1


def test_an_instance_is_saved_and_loaded(tmp_path):
    inst = ember.script(src.describe).instance(7)
    inst.save(tmp_path / "d.ember")
    assert getattr(mobile.load(tmp_path / "d.ember"), inst.entry)(8) == "int 8"


def test_overloads_declared_in_the_module_dispatch_on_argument_types():
    assert ember.script(src.picks)() == src.picks() == (1.5, 2)
