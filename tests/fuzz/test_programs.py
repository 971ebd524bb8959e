"""The differential program fuzzer in CI: a fixed-seed campaign must agree everywhere,
the generator must be deterministic, and the oracle must catch a discrepancy."""

from __future__ import annotations

import ast

import pytest

from tests.fuzz.child import in_child

from ember.fuzz import oracle
from ember.fuzz.generator import generate
from ember.fuzz.programs import run_programs, shrink_program

CI_SEED = 20240601
CI_PROGRAMS = 300
CI_LLVM = 80


def test_fixed_seed_campaign_agrees(tmp_path):
    stats = run_programs(CI_SEED, count=CI_PROGRAMS, out_dir=str(tmp_path), llvm=False)
    assert stats.generated == CI_PROGRAMS
    report = "\n".join(f"{f.status}: {f.detail}\n{f.reproducer}" for f in stats.failures[:3])
    assert stats.agreed == CI_PROGRAMS, report
    assert stats.compiled == CI_PROGRAMS


def test_mixed_campaign_agrees_with_llvm(tmp_path):
    """Programs of both profiles under CPython, the VM, the artifact and the LLVM backend
    (native code, or the VM where it falls back): all agree, and a good share of the
    native profile's entries runs natively."""
    pytest.importorskip("llvmlite")
    stats = in_child(f"""
from ember.fuzz.programs import run_programs
s = run_programs({CI_SEED}, count={CI_LLVM}, out_dir={str(tmp_path)!r}, llvm=True,
                 profile="mixed")
result = dict(agreed=s.agreed, llvm_programs=s.llvm_programs, profiles=dict(s.profiles),
              native_entries=s.native_entries, llvm_entries=s.llvm_entries,
              native_programs=dict(s.native_programs), share=s.native_share(),
              fallbacks=s.fallbacks.most_common(5),
              failures=[f"{{f.status}}: {{f.detail}}\\n{{f.reproducer}}" for f in s.failures[:3]])
""")
    assert stats["agreed"] == CI_LLVM, "\n".join(stats["failures"])
    assert stats["llvm_programs"] == CI_LLVM
    assert stats["profiles"] == {"native": CI_LLVM // 2, "full": CI_LLVM // 2}
    assert stats["native_entries"] > stats["llvm_entries"] // 5, stats["fallbacks"]
    assert stats["native_programs"].get("native", 0) > 0 and "programs" in stats["share"]


def test_native_profile_leaves_out_str_and_dict():
    for seed in range(40):
        prog = generate(seed, profile="native")
        tree = ast.parse(prog.source)
        assert not any(isinstance(n, (ast.Dict, ast.DictComp, ast.JoinedStr))
                       for n in ast.walk(tree)), prog.source
        for fn in (n for n in tree.body if isinstance(n, ast.FunctionDef)):
            annotations = [a.annotation for a in fn.args.args] + [fn.returns]
            assert not any("str" in ast.unparse(a) or "Dict" in ast.unparse(a)
                           for a in annotations), prog.source
    assert generate(3, profile="native").source == generate(3, profile="native").source
    assert generate(3, profile="native").source != generate(3).source


def test_mixed_campaign_alternates_profiles():
    stats = run_programs(1, count=4, llvm=False, profile="mixed")
    assert stats.profiles == {"full": 2, "native": 2} and stats.llvm_programs == 0


def test_generator_is_deterministic():
    for seed in (0, 1, 77):
        a, b = generate(seed), generate(seed)
        assert a.source == b.source and repr(a.cases) == repr(b.cases)
    assert generate(0).source != generate(1).source


def test_programs_cover_the_language():
    """Across a few dozen programs the generator uses every construct it promises."""
    seen = set()
    for seed in range(60):
        for node in ast.walk(generate(seed).tree):
            seen.add(type(node).__name__)
    for construct in ("For", "While", "Try", "ExceptHandler", "Break", "Continue", "Lambda",
                      "ListComp", "DictComp", "JoinedStr", "FormattedValue", "IfExp",
                      "Raise", "Assert", "AugAssign", "Delete", "Compare", "BoolOp"):
        assert construct in seen, construct


def test_a_wrong_llvm_result_is_a_mismatch_of_the_llvm_executor(monkeypatch):
    """The llvm executor is part of the default oracle and is blamed by name."""
    pytest.importorskip("llvmlite")

    def lying_llvm(source, filename):
        real = oracle.llvm_executor(source, filename)
        return lambda name: (lambda *a: real(name)(*a) + 1)
    monkeypatch.setitem(oracle.EXECUTORS, "llvm", lying_llvm)
    verdict = oracle.check(SOURCE, [("total", ([1, 5, 7], 3))])
    assert verdict.status == "mismatch" and verdict.signature[1] == "llvm"
    assert "llvm returned 24" in verdict.detail


def test_the_llvm_executor_says_where_entries_run():
    pytest.importorskip("llvmlite")
    source = SOURCE + "\n\ndef name(s: str) -> str:\n    return s + '!'\n"
    verdict = oracle.check(source, [("total", ([1, 5], 3)), ("name", ("a",))])
    assert verdict.status == "agree"
    where = verdict.backends["llvm"]
    assert where["total"] == ("llvm", None)
    assert where["name"][0] == "vm" and "str" in where["name"][1]


def _lying_executor(source, filename):
    """ember in process, except that every int result is off by one."""
    real = oracle.ember_executor(source, filename)

    def entry(name):
        fn = real(name)

        def run(*args):
            v = fn(*args)
            return v + 1 if type(v) is int else v
        return run
    return entry


SOURCE = '''
from typing import List


def total(xs: List[int], k: int) -> int:
    s = 0
    for x in xs:
        if x > k:
            s += x * 2
        else:
            s -= 1
    return s
'''


def test_oracle_reports_a_deliberately_wrong_result():
    cases = [("total", ([1, 5, 7], 3))]
    assert oracle.check(SOURCE, cases).status == "agree"
    executors = {"cpython": oracle.cpython_executor, "liar": _lying_executor}
    verdict = oracle.check(SOURCE, cases, executors)
    assert verdict.status == "mismatch"
    assert "cpython returned 23" in verdict.detail and "liar returned 24" in verdict.detail


def test_campaign_fails_and_shrinks_when_an_executor_lies(tmp_path):
    executors = {"cpython": oracle.cpython_executor, "liar": _lying_executor}

    def check(source, cases):
        return oracle.check(source, cases, executors)

    def int_program(seed):  # programs whose last function returns an int
        k = seed
        while True:
            prog = generate(k)
            if prog.source.split("def ")[-1].split("->")[-1].startswith(" int:"):
                return prog
            k += 1000

    stats = run_programs(5, count=3, out_dir=str(tmp_path), check=check,
                         generate_fn=int_program, max_shrinks=1)
    assert stats.agreed < 3 and stats.failures
    first = stats.failures[0]
    assert first.status == "mismatch" and first.path is not None
    original = int_program(first.seed)
    assert len(first.reproducer) < len(original.source)


def test_shrinker_keeps_the_failure_and_reduces_statements():
    prog = generate(11)
    sig = ("fake",)

    def check(source, cases):  # "fails" while the program still has an augmented assignment
        has = any(isinstance(n, ast.AugAssign) for n in ast.walk(ast.parse(source)))
        return oracle.Verdict("mismatch" if has else "agree", signature=sig if has else ())

    if check(prog.source, prog.cases).status != "mismatch":
        prog = generate(12)
    small = shrink_program(prog, sig, check)
    assert check(small.source, small.cases).status == "mismatch"
    assert small.source.count("\n") < prog.source.count("\n")
    assert len(small.cases) == 1
