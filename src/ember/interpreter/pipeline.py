"""From IR to a runnable bytecode Program: optimize, verify, lower."""

from __future__ import annotations

from ember.ir import verify_module


def run_passes(module, pipeline: str | None = None) -> None:
    """Run the default pass pipeline (or `pipeline`) on module in place."""
    from ember.passes.manager import PassManager, default_pipeline

    PassManager(pipeline or default_pipeline(), verify_each=False).run(module)


def compile_to_program(module, optimize: bool = True):
    """Optimize (optionally), verify and lower `module` to an ember.mobile Program holding
    only what its entry points reach (interpreter/prune.py)."""
    from ember.interpreter.lower import lower_module
    from ember.interpreter.prune import prune_program

    if optimize:
        run_passes(module)
    verify_module(module)
    return prune_program(lower_module(module))
