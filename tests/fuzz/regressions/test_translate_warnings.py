"""Found by the artifact fuzzer: a mutant whose CALLI (or TGET) operates on a register
holding a constant translated to `5()` and made CPython print a SyntaxWarning naming
the script file at load. Loading is silent now; the call raises TypeError."""

import warnings

import pytest

from ember import mobile
from ember.interpreter.assembler import assemble


@pytest.mark.parametrize("body, error", [
    ("  LOADK r1 5\n  CALLI r2 r1 ()\n  RETURN r2", "not callable"),
    ("  LOADK r1 2.5\n  TGET r2 r1 0\n  RETURN r2", "not subscriptable"),
])
def test_constant_misuse_loads_silently_and_fails_at_call(body, error):
    program = assemble(f"function f(a: i64) -> i64\n{body}")
    program.entries = {"f": 0}
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        f = mobile.build(program).entry("f")
    with pytest.raises(TypeError, match=error):
        f(1)
