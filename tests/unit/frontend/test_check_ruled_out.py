"""Code TorchScript rules out is not compiled: the body of a `@torch.jit.unused` function
(compiled as a raise), and the statements after an `if` decided at compile time whose live
branch exits. `Tensor.requires_grad` is False (there is no autograd)."""

from __future__ import annotations

import numpy as np
import pytest

import ember
from ember import errors, nn

UNUSED = '''
import torch
from typing import List

@torch.jit.unused
def checkpointed(xs: List[int]) -> int:
    def closure(*inputs):
        return inputs
    return torch.utils.checkpoint.checkpoint(closure, *xs)

def f(n: int) -> int:
    if n < 0:
        return checkpointed([n])
    return n * 2
'''


def test_an_unused_function_compiles_to_a_raise():
    unit = ember.CompilationUnit(UNUSED)
    assert unit.f(4) == 8
    with pytest.raises(RuntimeError, match="'checkpointed' is decorated with "
                                           "@torch.jit.unused, so it was not compiled"):
        unit.f(-1)


def test_an_unused_function_keeps_its_signature():
    with pytest.raises(errors.TypeCheckError, match="argument 'xs' of checkpointed"):
        ember.CompilationUnit(UNUSED.replace("checkpointed([n])", "checkpointed(n)"))


RULED_OUT = '''
def f(x: int) -> int:
    if isinstance(x, int):
        return x + 1
    return x.upper()

def g(x: int) -> int:
    return x + 1
    return x.upper()
'''


def test_statements_after_a_statically_decided_exit_are_not_compiled():
    unit = ember.CompilationUnit(RULED_OUT.split("def g")[0])
    assert unit.f(1) == 2
    with pytest.raises(errors.CompileError) as ei:
        ember.CompilationUnit(RULED_OUT)  # after a plain return: type-checked
    assert ei.value.line == 9


def test_requires_grad_is_false():
    unit = ember.CompilationUnit("def f(x):\n    return x.requires_grad\n")
    assert unit.f(np.ones(2, np.float32)) is False



class _DeadCall(nn.Module):
    __constants__ = ["mode"]

    def __init__(self, mode: str):
        super().__init__()
        self.mode = mode

    def forward(self, x: int) -> int:
        if self.mode != "zeros":  # a module constant: only one branch can run
            return self._broken(x)
        return x + 1

    def _broken(self, x: int) -> int:
        return x.upper()


def test_a_dead_branch_of_returns_is_not_compiled():
    """A branch a module constant rules out, holding only returns and expressions, binds
    nothing, so it is not type-checked (as in TorchScript): the method it calls is not
    compiled either."""
    assert ember.script(_DeadCall("zeros"))(2) == 3
    with pytest.raises(errors.NameResolutionError, match="no method 'upper'"):
        ember.script(_DeadCall("reflect"))


STRING_DECIDED = '''
def f(n: int) -> int:
    reason, m = "fast path disabled", n
    if not reason:
        m = m * 1000
    if len(reason) > 0:
        return m + 1
    return m - 1
'''


def test_a_test_of_a_constant_string_is_decided_at_compile_time():
    """`a, b = "const", x` keeps `a` a constant, and `if not a:` / `len(a) > 0` on it compile
    only the live branch (how TorchScript archives spell their fast-path checks)."""
    unit = ember.CompilationUnit(STRING_DECIDED, optimize=False)
    assert unit.f(4) == 5
    text = str(unit.f.graph)
    assert " if " not in text and "1000" not in text
