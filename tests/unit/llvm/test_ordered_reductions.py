"""Float reductions are vectorized in their own order (jit._ordered_reductions): the sums
are CPython's bit for bit, and the LLVM option is set only around ember's O3 runs."""

import random

import llvmlite.binding as llvm
import pytest

import ember
from ember.llvm import jit

SRC = '''
from typing import List
def dot(a: List[float], b: List[float]) -> float:
    s = 0.0
    for i in range(len(a)):
        s += a[i] * b[i]
    return s
def weighted(n: int) -> float:
    s = 0.0
    for j in range(n):
        s += 1.0 / ((j * (j + 1)) // 2 + j + 1) * (j % 7 - 3.5)
    return s
'''

REDUCTION_IR = '''
define double @sum(ptr %a, i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [0, %entry], [%i1, %loop]
  %s = phi double [0.0, %entry], [%s1, %loop]
  %p = getelementptr double, ptr %a, i64 %i
  %x = load double, ptr %p
  %y = fdiv double 1.0, %x
  %s1 = fadd double %s, %y
  %i1 = add i64 %i, 1
  %c = icmp slt i64 %i1, %n
  br i1 %c, label %loop, label %done
done:
  ret double %s1
}
'''


def _cpython(src, name):
    ns = {}
    exec(compile(src, "<ref>", "exec"), ns)
    return ns[name]


def test_reductions_are_cpythons_bit_for_bit():
    cu = ember.CompilationUnit(SRC, backend="llvm")
    dot, weighted = _cpython(SRC, "dot"), _cpython(SRC, "weighted")
    rng = random.Random(5)
    for n in (0, 1, 3, 4, 7, 8, 9, 31, 64, 257, 1000):
        a = [rng.uniform(-1e3, 1e3) * 10 ** rng.randint(-8, 8) for _ in range(n)]
        b = [rng.uniform(-1.0, 1.0) for _ in range(n)]
        assert cu.dot(a, b).hex() == dot(a, b).hex()
        assert cu.weighted(n).hex() == weighted(n).hex()


def _optimized(ordered: bool) -> str:
    st = jit._init()
    mod = llvm.parse_assembly(REDUCTION_IR)
    pb = llvm.create_pass_builder(st["tm"], llvm.create_pipeline_tuning_options(speed_level=3))
    mpm = pb.getModulePassManager()
    if ordered:
        with jit._ordered_reductions():
            mpm.run(mod, pb)
    else:
        mpm.run(mod, pb)
    return str(mod)


@pytest.mark.skipif("x86" not in llvm.get_process_triple(), reason="x86's cost model")
def test_the_option_holds_only_inside_embers_own_runs():
    assert "vector.reduce.fadd" in _optimized(True)
    assert "vector.reduce.fadd" not in _optimized(False)  # (reset after: numba's default)
