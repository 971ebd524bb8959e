"""Pass-order fuzzing: random pipelines of the registered passes over the corpus
programs and generated programs.

Each pipeline runs under the PassManager with the IR verifier after every pass (a pass
that breaks the IR is reported by name as a VerifyError), then the module is lowered
without the default pipeline, built by ember.mobile and run on the program's cases,
which must agree with CPython. With llvm, the same pipeline's module is also compiled by
the LLVM backend (native where it can, the VM elsewhere), a third executor.
"""

from __future__ import annotations

import dataclasses
import random
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from ember.fuzz import oracle
from ember.fuzz.generator import generate, literal

MAX_PIPELINE = 8


def random_pipeline(rng: random.Random) -> str:
    """A pipeline string of 1..MAX_PIPELINE registered passes, some with random options."""
    from ember.passes.registry import PASSES, pass_class

    items = []
    for _ in range(rng.randint(1, MAX_PIPELINE)):
        name = rng.choice(sorted(PASSES))
        opts = [f"{f.name.replace('_', '-')}={rng.randint(0, 2 * f.default)}"
                for f in dataclasses.fields(pass_class(name))
                if f.type in (int, "int") and rng.random() < 0.3]
        items.append(f"{name}{{{','.join(opts)}}}" if opts else name)
    return ",".join(items)


def pipeline_executor(pipeline: str):
    """An oracle executor: compile, run `pipeline` verifying after each pass, lower, build."""

    def executor(source: str, filename: str):
        from ember import mobile
        from ember.frontend import compile_source
        from ember.interpreter.pipeline import compile_to_program
        from ember.passes.manager import PassManager

        module = compile_source(source, filename)
        PassManager(pipeline, verify_each=True).run(module)
        loaded = mobile.build(compile_to_program(module, optimize=False))
        return lambda entry: loaded.entry(entry)

    return executor


def llvm_pipeline_executor(pipeline: str):
    """An oracle executor: compile, run `pipeline`, then compile the module with the LLVM
    backend (ember.llvm.NativeModule), each entry native or on the VM as ember.script does."""

    def executor(source: str, filename: str):
        from ember import mobile
        from ember.frontend import compile_source
        from ember.interpreter.pipeline import compile_to_program
        from ember.llvm import NativeModule
        from ember.passes.manager import PassManager

        module = compile_source(source, filename)
        PassManager(pipeline, verify_each=True).run(module)
        loaded = mobile.build(compile_to_program(module, optimize=False))
        native = NativeModule(module, list(module.entries))

        def entry(name):
            vm = loaded.entry(name)
            fn = native.function(name, vm, module.sources)
            return _Where(fn or vm, "llvm" if fn else "vm", native.reasons.get(name))
        return entry

    return executor


class _Where:
    """A callable that says where it runs, as ScriptFunction does (backend, fallback_reason)."""

    def __init__(self, fn, backend: str, reason):
        self.fn, self.backend = fn, backend
        self.fallback_reason = None if backend == "llvm" else reason

    def __call__(self, *args):
        return self.fn(*args)


def corpus_programs(root) -> list:
    """(name, source, cases) of every corpus program under `root` with CASES (those that
    name torch only where it is installed)."""
    out = []
    for path in sorted(Path(root).glob("*.py")):
        source = path.read_text()
        if oracle.names_missing_torch(source):
            continue
        ns: dict = oracle.string_frontend_values(source)
        exec(compile(source, str(path), "exec"), ns)  # noqa: S102 - the project's corpus
        if ns.get("CASES"):
            out.append((path.stem, source, list(ns["CASES"])))
    return out


@dataclass
class PassStats:
    runs: int = 0
    agreed: int = 0
    statuses: Counter = field(default_factory=Counter)
    failures: list = field(default_factory=list)
    """(program name, pipeline, status, detail, reproducer text) of each failing run."""
    llvm_runs: int = 0
    native_runs: int = 0
    """Runs the LLVM executor compiled / of them, runs whose every called entry was native."""


def run_passorder(seed: int, programs=(), count: int | None = None,
                  seconds: float | None = None, generated: float = 0.5,
                  progress=None, llvm: bool | None = None) -> PassStats:
    """Run random pipelines over `programs` ((name, source, cases) triples) and, with
    probability `generated`, over freshly generated programs (half of them of the native
    profile when llvm). llvm: compare the LLVM backend too (None: if llvmlite is installed)."""
    llvm = oracle.llvm_available() if llvm is None else llvm
    rng = random.Random(seed)
    stats = PassStats()
    start = time.monotonic()
    while (count is None or stats.runs < count) and \
            (seconds is None or time.monotonic() - start < seconds):
        name, source, cases = _pick(rng, list(programs), generated, llvm)
        pipeline = random_pipeline(rng)
        executors = {"cpython": oracle.cpython_executor,
                     "pipeline": pipeline_executor(pipeline)}
        if llvm:
            executors["llvm"] = llvm_pipeline_executor(pipeline)
        verdict = oracle.check(source, cases, executors, filename=f"{name}.py")
        stats.runs += 1
        stats.statuses[verdict.status] += 1
        where = verdict.backends.get("llvm")
        if where:
            stats.llvm_runs += 1
            stats.native_runs += all(b == "llvm" for b, _ in where.values())
        if verdict.failed:
            stats.failures.append((name, pipeline, verdict.status, verdict.detail,
                                   reproducer(source, cases, pipeline)))
        else:
            stats.agreed += 1
        if progress and stats.runs % 50 == 0:
            progress(stats, time.monotonic() - start)
    return stats


def reproducer(source: str, cases, pipeline: str) -> str:
    """A failing run as a corpus-format file: the pipeline, the program, its CASES."""
    text = f"# pipeline: {pipeline}\n{source.rstrip()}\n"
    if "CASES" in source:
        return text
    rows = ",\n         ".join(f"({e!r}, {literal(tuple(a))})" for e, a in cases)
    return f"{text}\n\nCASES = [{rows}]\n"


def _pick(rng, programs, generated, llvm=False):
    if not programs or rng.random() < generated:
        s = rng.randrange(1 << 30)
        profile = "native" if llvm and s % 2 else "full"
        prog = generate(s, profile=profile)
        return f"gen{s}" if profile == "full" else f"native{s}", prog.source, prog.cases
    return rng.choice(programs)
