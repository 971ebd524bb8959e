"""The verifier checks a loop's else clause in the context around the loop: BREAK there
leaves the enclosing loop (accepted), and is still refused with no enclosing loop."""

import pytest

from ember import mobile
from ember.errors import ArtifactError
from ember.interpreter.assembler import assemble

_LISTING = """function f(a: i64) -> i64
  LOADK r1 0
  LOADK r2 1
  LOOP ->end
  TEST r2
{inner}
end:
  END
  RETURN r1"""
_INNER = "  FOR r3 r1 r0 r2 ->e\n  MOVE r1 r3\ne:\n  END\n  LOOPELSE ->x\n  BREAK\nx:\n  END"
"""for r3 in range(0, a): r1 = r3; else: break (the else always runs: the loop ends)."""


def _program(text):
    program = assemble(text)
    program.entries = {"f": 0}
    return program


def test_break_in_loop_else_leaves_the_enclosing_loop():
    f = mobile.build(_program(_LISTING.format(inner=_INNER))).entry("f")
    assert f(0) == 0 and f(3) == 2


def test_break_in_loop_else_outside_any_loop_is_refused():
    text = "function f(a: i64) -> i64\n  LOADK r1 0\n  LOADK r2 1\n" + _INNER + "\n  RETURN r1"
    with pytest.raises(ArtifactError, match="BREAK outside a loop body"):
        mobile.build(_program(text))
