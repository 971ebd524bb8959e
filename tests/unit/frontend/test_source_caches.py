"""What the frontend reads from Python sources once per class or function (class scans,
function ASTs) is read again for a class or function defined anew, and not shared between
its users."""

from __future__ import annotations

import importlib.util
import sys
import textwrap

import numpy as np
import pytest

import ember
from ember.frontend.module_source import class_source


@pytest.fixture
def load(tmp_path, monkeypatch):
    """Import source as a new module object from the same file each time (an edited file)."""
    def make(src: str):
        path = tmp_path / "ember_edited_module.py"
        path.write_text(textwrap.dedent(src))
        spec = importlib.util.spec_from_file_location("ember_edited_module", path)
        mod = importlib.util.module_from_spec(spec)
        monkeypatch.setitem(sys.modules, "ember_edited_module", mod)
        spec.loader.exec_module(mod)
        return mod
    return make


_NET = """
    import ember.nn as nn


    def helper(x):
        return x {op} 2.0


    class Net(nn.Module):
        K = {k}

        def __init__(self):
            super().__init__()
            self.count = 0

        def forward(self, x):
            {bump}
            return helper(x) * self.K + self.count
"""


def test_a_redefined_class_and_function_compile_their_new_source(load):
    x = np.arange(3, dtype=np.float32)
    old = load(_NET.format(op="+", k=2, bump="pass"))
    np.testing.assert_array_equal(ember.script(old.Net())(x), (x + 2) * 2)
    new = load(_NET.format(op="*", k=30, bump="self.count += 1"))
    sm = ember.script(new.Net())
    np.testing.assert_array_equal(sm(x), x * 2 * 30 + 1)
    np.testing.assert_array_equal(sm(x), x * 2 * 30 + 2)  # count is state: assigned now


def test_class_scans_are_read_once_and_not_shared(load):
    mod = load(_NET.format(op="+", k=2, bump="self.count += 1"))
    ks = class_source(mod.Net)
    assert ks.assigned_attributes() == {"count"}
    ks.constants()["K"] = 5  # a caller's change does not reach the next caller
    assert ks.constants() == {"K": 2}
    assert ks.annotations({"count"}) == []


def test_a_function_given_new_code_compiles_the_new_code(load):
    mod = load("""
        def f(x: int) -> int:
            return x + 1


        def g(x: int) -> int:
            return x * 10
    """)
    assert ember.script(mod.f)(2) == 3
    mod.f.__code__ = mod.g.__code__
    assert ember.script(mod.f)(2) == 20
