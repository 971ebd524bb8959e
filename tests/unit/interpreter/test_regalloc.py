"""Register allocation: values share registers where that saves moves, never where a
later read would see the wrong value."""

from __future__ import annotations

import ember

HEADER = "from typing import List\n\n"


def _code(cu, name="f") -> str:
    return getattr(cu, name).code


def test_branch_result_computed_in_the_result_register():
    src = """
def f(xs: List[int]) -> int:
    acc = 0
    for x in xs:
        if x < 2:
            acc = acc + x
    return acc
"""
    cu = ember.CompilationUnit(HEADER + src)
    assert "MOVE" not in _code(cu).split("LOOP")[1]
    assert cu.f([1, 5, 1, 0]) == 2


def test_branch_result_keeps_its_own_register_while_the_old_value_is_read():
    src = """
def f(xs: List[int], n: int) -> List[int]:
    acc = 1
    for i in range(n):
        if i % 2 == 0:
            v = acc + i
            xs.append(acc)
            acc = v
    xs.append(acc)
    return xs
"""
    cu = ember.CompilationUnit(HEADER + src)
    assert cu.f([], 6) == [1, 1, 3, 7]
    assert "MOVE" in _code(cu).split("FOR")[1]


def test_unread_branch_result_keeps_its_register_over_the_branch():
    """Found by the pass-order fuzzer: an `if` result nothing reads (v0 below) must still
    own its register until the branch ends, or a value coalesced into it (the slot's
    var.get, written at the branch's end) clobbers a live one (the narrowed p)."""
    from ember import mobile
    from ember.frontend import compile_source
    from ember.interpreter.pipeline import compile_to_program

    src = """
from typing import Optional


def f(p: Optional[int]) -> Optional[int]:
    v0: str = ''
    if p is not None:
        try:
            v0 = 'x'
        except ValueError:
            pass
    return p
"""
    module = compile_source(src, "slot.py")
    loaded = mobile.build(compile_to_program(module, optimize=False))
    assert loaded.entry("f")(-10) == -10
    assert loaded.entry("f")(None) is None
