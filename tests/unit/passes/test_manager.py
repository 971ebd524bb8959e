"""The pass manager: pipelines, verification between passes, printing, timing."""

import io
from dataclasses import dataclass

import pytest

import ember.ir as I
from ember.errors import VerifyError
from ember.passes.manager import PassManager, default_pipeline
from ember.passes.registry import Pass, PipelineError, parse_pipeline

IR = """
export func @f(%x: i64) -> i64 {
  %a = const 2 : i64
  %b = const 3 : i64
  %c = int.add %a, %b : i64
  %d = int.mul %x, %c : i64
  return %d
}
"""


def test_parse_pipeline_with_options():
    passes = parse_pipeline("canonicalize{max-rounds=3}, fold-constants,dce")
    assert [p.name for p in passes] == ["canonicalize", "fold-constants", "dce"]
    assert passes[0].max_rounds == 3


@pytest.mark.parametrize("text, match", [
    ("nosuch", "unknown pass"), ("dce{x=1}", "no option"), ("canonicalize{max-rounds=a}",
                                                           "bad value"), ("dce,,", "bad pipeline"),
])
def test_bad_pipelines(text, match):
    with pytest.raises(PipelineError, match=match):
        parse_pipeline(text)


@dataclass
class BreakIR(Pass):
    """Deliberately breaks the IR: erases the function's return."""

    name = "break-ir"

    def run(self, module):
        f = module.funcs["f"]
        f.body.ops[-1].erase()
        return True


def test_verify_each_names_the_broken_pass():
    m = I.parse_module(IR)
    pm = PassManager([BreakIR()], verify_each=True)
    with pytest.raises(VerifyError, match="pass 'break-ir' produced invalid IR"):
        pm.run(m)


def test_print_after_and_timing():
    m = I.parse_module(IR)
    out = io.StringIO()
    pm = PassManager("fold-constants,dce", print_after=["dce"], time_passes=True, out=out)
    assert pm.run(m)
    text = out.getvalue()
    assert "IR after dce" in text and "const 5 : i64" in text
    assert "pass execution timing" in text and "fold-constants" in text


def test_default_pipeline_runs_clean():
    m = I.parse_module(IR)
    PassManager(default_pipeline(), verify_each=True).run(m)
    assert "int.add" not in I.print_module(m)


LOOP_IR = """
export func @f(%n: i64) -> i64 {
  %c0 = const 0 : i64
  %c1 = const 1 : i64
  %s = for %c0, %n, %c1, %c0 : i64 {
  ^(%i: i64, %acc: i64):
    %t = int.mul %i, %c1 : i64
    %u = int.add %acc, %t : i64
    yield %u
  }
  return %s
}
"""


def test_kept_range_analysis_gives_what_a_fresh_one_gives():
    from ember.passes.util import ANALYSES
    kept, fresh = I.parse_module(LOOP_IR), I.parse_module(LOOP_IR)
    PassManager("version-loops,ranges").run(kept)
    PassManager("version-loops").run(fresh)
    PassManager("ranges").run(fresh)
    assert I.print_module(kept) == I.print_module(fresh)
    assert all(ANALYSES not in f.meta for f in kept.funcs.values())


@dataclass
class TouchIR(Pass):
    """Changes the module (adds an unused constant) and says so."""
    name = "touch"

    def run(self, module) -> bool:
        from ember.ir.ops import ConstOp
        first = module.funcs["f"].body.ops[0]
        first.parent.insert_before(
            first, ConstOp((), [I.types.I64], {"value": 7}, (), I.Loc.unknown()))
        return True


def _keep_and_look(seen):
    """A pass keeping a fresh range analysis of f, and one recording what it finds kept."""
    from ember.passes.range_analysis import RangeAnalysis
    from ember.passes.util import keep_analysis, kept_analysis

    @dataclass
    class Keep(Pass):
        name = "keep"

        def run(self, module) -> bool:
            keep_analysis(module.funcs["f"], "ranges", RangeAnalysis())
            return False

    @dataclass
    class Look(Pass):
        name = "look"

        def run(self, module) -> bool:
            seen.append(kept_analysis(module.funcs["f"], "ranges"))
            return False

    return Keep, Look


def test_a_changing_pass_drops_kept_analyses():
    seen = []
    keep, look = _keep_and_look(seen)
    PassManager([keep(), look(), TouchIR(), look()], verify_each=False).run(
        I.parse_module(LOOP_IR))
    assert seen[0] is not None and seen[1] is None


def test_a_kept_analysis_reaches_only_the_next_pass():
    """Even when the pass in between claims it changed nothing (a pass that lies must
    not leave ranges a stale analysis that could drop an overflow check)."""
    seen = []
    keep, look = _keep_and_look(seen)
    PassManager([keep(), look(), look(), keep(), look()], verify_each=False).run(
        I.parse_module(LOOP_IR))
    assert seen[0] is not None and seen[1] is None and seen[2] is not None
