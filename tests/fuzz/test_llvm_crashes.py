"""Programs whose native code corrupted memory, found by the fuzzers. Each runs in a child
process (a native crash must not take the test run down) under backend="llvm" and must
give CPython's outcome. Open bugs are xfail(strict=True): fixing one turns it into a
failure here until the mark is removed."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

pytest.importorskip("llvmlite")

RUN = textwrap.dedent('''
    import ast
    import sys
    import ember
    from ember.fuzz import oracle
    source, entry, args = sys.stdin.read(), sys.argv[1], ast.literal_eval(sys.argv[2])
    ns = {}
    exec(compile(source, "crash.py", "exec"), ns)
    cu = ember.CompilationUnit(source, "crash.py", backend="llvm")
    fn = getattr(cu, entry)
    for _ in range(3):
        got = oracle.outcome(fn, args)
    want = oracle.outcome(ns[entry], args)
    print(fn.backend, oracle.same_outcome(want, got), got[:3])
''')

FINALLY_REASSIGNS_LIST = '''
from typing import List


def f0(p0: int) -> List[int]:
    v0: List[int] = [p0, 11]
    try:
        if p0 > 0:
            raise ValueError("x")
    finally:
        v0 = v0[:1]
    return v0
'''
"""A list variable reassigned from its own value in a finally block while an exception
propagates (pass-order fuzzer, program native678453483): glibc aborted with
"malloc(): unaligned tcache chunk detected". The finally region's values were released at
its yield and again by the propagation that followed it (fixed in llvm/codegen.op_yield)."""


def _run(source: str, entry: str, args: tuple) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", RUN, entry, repr(args)], input=source,
                          capture_output=True, text=True, timeout=300)


def test_finally_reassigning_a_list_while_raising():
    p = _run(FINALLY_REASSIGNS_LIST, "f0", (2,))
    assert p.returncode == 0, p.stderr[-500:]
    assert p.stdout.split()[:2] == ["llvm", "True"], p.stdout


def test_the_same_program_without_the_exception_runs_clean():
    p = _run(FINALLY_REASSIGNS_LIST, "f0", (-2,))
    assert p.returncode == 0, p.stderr[-500:]
    assert p.stdout.split()[:2] == ["llvm", "True"], p.stdout
