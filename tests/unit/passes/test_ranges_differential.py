"""Differential tests: dropping overflow checks (version-loops, ranges) changes nothing.

Random integer programs (int_programs.py) run compiled with the default pipeline, and
with the same pipeline minus the passes that drop checks (every int op checked). Both
must agree exactly: the same value, or the same exception type and message — so an int64
overflow still raises at the same op, with the same operands in its message. Where the
fully checked run returns, CPython must return the same value.
"""

from __future__ import annotations

import pytest

import ember
from ember import mobile
from ember.frontend import compile_source
from ember.interpreter.lower import lower_module
from ember.passes.manager import PassManager, default_pipeline

from .int_programs import ARGS, CRITICAL, EdgeGenerator, Generator, near

SEEDS = range(60)


CHECKED_PIPELINE = ",".join(p for p in default_pipeline().split(",")
                            if p not in ("version-loops", "ranges"))


def _compile(source: str, pipeline: str):
    module = compile_source(source, "<generated>")
    PassManager(pipeline).run(module)
    return mobile.build(lower_module(module)).entry("f")


def _outcome(fn, args):
    try:
        return ("ok", fn(*args))
    except Exception as e:  # noqa: BLE001 - the exception is the result being compared
        return ("raise", type(e).__name__, str(e))


def _arg_triples(seed: int):
    import random

    r = random.Random(seed)
    return [(r.choice(ARGS), r.choice(ARGS), r.choice(ARGS)) for _ in range(40)]


@pytest.mark.parametrize("seed", SEEDS)
def test_optimized_matches_unoptimized(seed):
    source = Generator(seed).program()
    fast = _compile(source, default_pipeline())
    slow = _compile(source, CHECKED_PIPELINE)
    namespace: dict = {}
    exec(compile(source, "<generated>", "exec"), namespace)  # noqa: S102 - test oracle
    for args in _arg_triples(seed):
        want = _outcome(slow, args)
        got = _outcome(fast, args)
        assert got == want, f"{args}: optimized {got}, unoptimized {want}\n{source}"
        if want[0] == "ok":
            assert want == _outcome(namespace["f"], args), f"{args}: CPython differs\n{source}"


EDGE_ARGS = near(CRITICAL + [1 << 16, 1 << 21, 1 << 26], 3)


@pytest.mark.parametrize("seed", range(300))
def test_edges_match_unoptimized(seed):
    import random

    source = EdgeGenerator(seed).program()
    fast = _compile(source, default_pipeline())
    slow = _compile(source, CHECKED_PIPELINE)
    r = random.Random(seed)
    for _ in range(30):
        args = (r.choice(EDGE_ARGS), r.choice(EDGE_ARGS), r.choice(EDGE_ARGS))
        want = _outcome(slow, args)
        assert _outcome(fast, args) == want, f"{args}: unoptimized {want}\n{source}"


def test_generated_programs_use_the_passes():
    """The corpus exercises what it tests: proven ops and versioned loops appear."""
    nowrap = versioned = 0
    for seed in SEEDS:
        text = ember.CompilationUnit(Generator(seed).program()).f.graph
        nowrap += "_nowrap" in text
        versioned += "const 2147483648" in text or "const 1073741824" in text
    assert nowrap > len(SEEDS) // 2
    assert versioned > 3
