"""The pass manager: run a pipeline, verify between passes, print and time them."""

from __future__ import annotations

import sys
import time

from ember.errors import VerifyError
from ember.ir import print_module, verify_module
from ember.passes.registry import Pass, parse_pipeline
from ember.passes.util import forget_unchanged, kept_snapshot, reset_analyses

DEFAULT_PIPELINE = ("canonicalize,fold-constants,cse,dce,inline,"
                    "canonicalize,fold-constants,cse,dce,version-loops,ranges,fuse")


def default_pipeline() -> str:
    """The compiler's default optimization pipeline."""
    return DEFAULT_PIPELINE


class PassManager:
    """Runs passes in order.

    verify_each: run the IR verifier after every pass (a pass that breaks the IR
    is reported with its name); print_after: pass names after which to print
    the IR; time_passes: collect (name, seconds) and print a table.
    """

    def __init__(self, pipeline, verify_each: bool = True, print_after=(),
                 print_after_all: bool = False, time_passes: bool = False, out=None,
                 print_locs: bool = True):
        self.passes: list[Pass] = parse_pipeline(pipeline) if isinstance(pipeline, str) \
            else list(pipeline)
        self.verify_each = verify_each
        self.print_after = set(print_after)
        self.print_after_all = print_after_all
        self.time_passes = time_passes
        self.out = out or sys.stderr
        self.print_locs = print_locs
        self.timings: list[tuple[str, float]] = []

    def run(self, module) -> bool:
        """Run the passes. An analysis a pass keeps (util.keep_analysis) serves the next
        pass only: a pass that leaves nothing kept must not find its predecessor's, so an
        analysis can never outlive a change a pass forgot to report."""
        changed = False
        reset_analyses(module)
        try:
            for p in self.passes:
                before = kept_snapshot(module)
                t0 = time.perf_counter()
                this = bool(p.run(module))
                self.timings.append((p.name, time.perf_counter() - t0))
                if this:
                    reset_analyses(module)
                else:
                    forget_unchanged(module, before)
                changed |= this
                if self.verify_each:
                    self._verify(p, module)
                if self.print_after_all or p.name in self.print_after:
                    self.out.write(f"// -----// IR after {p.name} //----- //\n")
                    self.out.write(print_module(module, self.print_locs))
        finally:
            reset_analyses(module, drop=True)
        if self.time_passes:
            self.out.write(self.timing_report())
        return changed

    def _verify(self, p, module) -> None:
        try:
            verify_module(module)
        except VerifyError as e:
            raise VerifyError(f"pass '{p.name}' produced invalid IR: {e.message}",
                              e.span) from None

    def timing_report(self) -> str:
        total = sum(t for _, t in self.timings) or 1e-12
        lines = ["===--- pass execution timing ---===",
                 f"  total: {total * 1e3:.3f} ms"]
        for name, t in self.timings:
            lines.append(f"  {t * 1e3:9.3f} ms ({100 * t / total:5.1f}%)  {name}")
        return "\n".join(lines) + "\n"
