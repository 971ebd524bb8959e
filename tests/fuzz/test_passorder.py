"""Pass-order fuzzing in CI: random pipelines over the corpus and generated programs
keep the IR valid after every pass and the results equal to CPython's."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from tests.fuzz.child import in_child

from ember.fuzz import oracle
from ember.fuzz.passorder import corpus_programs, pipeline_executor, random_pipeline, run_passorder

CORPUS = Path(__file__).resolve().parent.parent / "corpus" / "programs"
CI_SEED = 11
CI_RUNS = 250
CI_LLVM_RUNS = 80


def test_fixed_seed_pipelines_agree():
    progs = corpus_programs(CORPUS)
    assert len(progs) > 100
    stats = run_passorder(CI_SEED, progs, count=CI_RUNS, generated=0.3, llvm=False)
    assert stats.runs == CI_RUNS
    assert stats.agreed == CI_RUNS, stats.failures[:3]


def test_pipelines_are_random_valid_and_deterministic():
    a = [random_pipeline(random.Random(5)) for _ in range(3)]
    assert a[0] == a[1] == a[2]
    names = {p.split("{")[0] for _ in range(50)
             for p in random_pipeline(random.Random(_)).split(",")}
    from ember.passes.registry import PASSES
    assert names == set(PASSES)  # every registered pass is drawn


def test_a_pass_that_breaks_the_ir_is_reported(monkeypatch):
    from ember.passes import dce

    def broken(module):  # drop every function's return: invalid IR
        for f in module.funcs.values():
            f.body.ops[-1].detach()
        return True
    monkeypatch.setattr(dce, "dce", broken)
    source = "def f(x: int) -> int:\n    return x + 1\n"
    verdict = oracle.check(source, [("f", (1,))], {"cpython": oracle.cpython_executor,
                                                   "pipeline": pipeline_executor("cse,dce")})
    assert verdict.status == "rejected"
    assert "pass 'dce' produced invalid IR" in verdict.detail


def test_a_failing_run_keeps_a_corpus_format_reproducer(monkeypatch):
    from ember.fuzz import passorder
    from ember.fuzz.generator import generate

    real = oracle.check

    def failing(source, cases, executors, filename):
        verdict = real(source, cases, executors, filename=filename)
        return type(verdict)("mismatch", verdict.detail, ("mismatch",))
    monkeypatch.setattr(passorder.oracle, "check", failing)
    stats = run_passorder(3, (), count=1, llvm=False)
    (name, pipeline, status, detail, text) = stats.failures[0]
    assert text.startswith(f"# pipeline: {pipeline}\n")
    ns: dict = {}
    exec(compile(text, name, "exec"), ns)  # noqa: S102 - a generated program
    assert oracle.same(ns["CASES"], list(generate(int(name[3:])).cases))  # NaN == NaN


def test_pipelines_agree_under_the_llvm_backend():
    """The LLVM backend compiles each pipeline's module: native code (or the VM where it
    falls back) agrees with CPython, and native-profile programs mostly run natively."""
    pytest.importorskip("llvmlite")
    stats = in_child(f"""
from ember.fuzz.passorder import corpus_programs, run_passorder
s = run_passorder({CI_SEED + 2}, corpus_programs({str(CORPUS)!r}), count={CI_LLVM_RUNS},
                  generated=0.6, llvm=True)
result = dict(runs=s.runs, agreed=s.agreed, llvm_runs=s.llvm_runs, native_runs=s.native_runs,
              failures=[f[:4] for f in s.failures[:3]])
""")
    assert stats["agreed"] == CI_LLVM_RUNS, stats["failures"]
    assert stats["llvm_runs"] == CI_LLVM_RUNS and stats["native_runs"] > 0


def test_the_oracle_compares_arrays_by_dtype_shape_and_values():
    import numpy as np
    a = np.array([1.0, np.nan], dtype=np.float32)
    assert oracle.same((a, [a]), (a.copy(), [a.copy()]))
    assert not oracle.same(a, a.astype(np.float64))
    assert not oracle.same(np.zeros(2), np.zeros((1, 2)))
    assert not oracle.same(np.array([1, 2]), np.array([1, 3]))
