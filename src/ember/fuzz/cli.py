"""`ember fuzz`: run the fuzzers for a time budget, print progress and a summary.

    ember fuzz --seconds 60 --seed 1                   everything, time split between them
    ember fuzz --mode programs --programs 10000        stop after 10,000 programs
    ember fuzz --mode artifacts --mutations 10000      stop after 10,000 mutants
    ember fuzz --mode torchscript --mutations 10000    mutants of TorchScript archives (needs
                                                       torch to make the seed archives)
    ember fuzz --mode grad --programs 10000            ember.value_and_grad of generated
                                                       differentiable programs against finite
                                                       differences and torch.autograd
    ember fuzz --no-llvm ...                           leave the LLVM backend out

The program and pass-order fuzzers compare the LLVM backend too when llvmlite is
installed (--no-llvm: not); their generated programs are then half of the native
profile (--profile: full, native or mixed), and the summary gives the native share.

Reproducers (shrunk programs, mutant artifacts) go to --out (default: a directory
named after the seed under the system's temporary directory). The exit status is 1
if anything failed.
"""

from __future__ import annotations

import os
import random
import sys
import tempfile
import time
from dataclasses import dataclass

MODES = ("programs", "tensors", "passes", "artifacts", "threads")
"""The modes --mode all runs; "torchscript" (archives made with torch) and "grad"
(differentiable programs) run when asked."""
SHARE = {"programs": 0.45, "tensors": 0.1, "passes": 0.15, "artifacts": 0.25, "threads": 0.05,
         "torchscript": 1.0, "grad": 1.0}
"""Fractions of --seconds each fuzzer gets in --mode all."""


def run(seconds: float = 10.0, seed: int | None = None, programs: int | None = None,
        mode: str = "all", mutations: int | None = None, out: str | None = None,
        corpus: str | None = None, stream=None, llvm: bool | None = None,
        profile: str | None = None, start: int = 0) -> int:
    """Run the fuzzers; returns the exit status (0: no failures).

    llvm: compare the LLVM backend too (None: when llvmlite is installed; True without
    llvmlite says so and goes on without it). profile: the program generator's profile
    (default: mixed with llvm, full without)."""
    from ember.fuzz.oracle import llvm_available

    stream = stream or sys.stdout
    seed = random.randrange(1 << 31) if seed is None else seed
    out = out or os.path.join(tempfile.gettempdir(), f"ember-fuzz-{seed}")
    modes = MODES if mode == "all" else (mode,)
    say = _printer(stream)
    if llvm is not False and not llvm_available():
        if llvm:
            say("llvm: skipped (llvmlite is not installed)")
        llvm = False
    llvm = llvm is not False
    opts = Options(llvm, profile or ("mixed" if llvm else "full"), start)
    engines = "cpython, vm, artifact" + (", llvm" if llvm else "")
    say(f"ember fuzz: seed {seed}, {seconds:g} s, modes {', '.join(modes)}, out {out}, "
        f"engines {engines}")
    failures = 0
    for m in modes:
        budget = seconds * (SHARE[m] / sum(SHARE[x] for x in modes))
        failures += _RUNNERS[m](seed, budget, programs, mutations, out, corpus, say, opts)
    say(f"total: {failures} failure(s)")
    return 1 if failures else 0


@dataclass
class Options:
    llvm: bool
    """The program and pass-order fuzzers compare the LLVM backend too."""
    profile: str
    """The program generator's profile (programs.PROFILES)."""
    start: int = 0
    """The number of the first generated program (to resume after a crash)."""


def _printer(stream):
    def say(text: str) -> None:
        stream.write(text + "\n")
        stream.flush()
    return say


def _programs(seed, seconds, count, mutations, out, corpus, say, opts) -> int:
    from ember.fuzz.programs import run_programs

    t0 = time.monotonic()
    stats = run_programs(seed, count=count, seconds=None if count else seconds,
                         out_dir=os.path.join(out, "programs"), llvm=opts.llvm,
                         profile=opts.profile, start=opts.start,
                         progress=lambda s, t: say(_progress(s, t)))
    say(f"programs: {stats.generated} generated, {stats.compiled} compiled, "
        f"{stats.agreed} agreed in {time.monotonic() - t0:.1f} s")
    _outcomes(say, stats.statuses)
    if stats.llvm_programs:
        say(f"  llvm: {stats.native_share()}")
        for why, n in stats.fallbacks.most_common(8):
            say(f"  {n:6d} x on the VM: {why[:150]}")
    for (status, sig), n in stats.reasons.most_common():
        say(f"  {n:6d} x {status}: {' '.join(map(str, sig[1:]))[:150]}")
    for f in stats.failures:
        if f.path:
            say(f"  reproducer: {f.path}")
    return sum(stats.reasons.values())


def _progress(stats, t) -> str:
    line = f"  programs: {stats.generated} generated, {stats.agreed} agreed ({t:.0f} s)"
    if stats.llvm_programs:
        line += f"; llvm: {stats.native_share()}"
    return line


def _grad(seed, seconds, count, mutations, out, corpus, say, opts) -> int:
    from ember.fuzz.grad_campaign import SEED_STRIDE, run_grad
    from ember.fuzz.grad_oracle import torch_available

    t0 = time.monotonic()
    refs = "finite differences" + (", torch.autograd" if torch_available() else
                                   " (torch.autograd: skipped, torch is not installed)")
    say(f"grad: against {refs}; programs {seed} * {SEED_STRIDE} + k from k = {opts.start}")
    stats = run_grad(seed, count=count, seconds=None if count else seconds,
                     out_dir=os.path.join(out, "grad"), llvm=opts.llvm, start=opts.start,
                     progress=lambda s, t: say(f"  grad: {s.generated} generated, {s.agreed} "
                                               f"agreed ({t:.0f} s)"))
    say(f"grad: {stats.generated} generated ({stats.tensor_programs} with tensors), "
        f"{stats.agreed} agreed in {time.monotonic() - t0:.1f} s; grad of grad checked on "
        f"{stats.gradgrad}; {stats.nonsmooth} finite-difference checks skipped at kinks")
    _outcomes(say, stats.statuses)
    for (status, kind, why), n in stats.reasons.most_common():
        say(f"  {n:6d} x {status} ({kind}): {why}")
    failed = [f for f in stats.failures if f[1] != "rejected"]
    for seed_, status, kind, detail, path in failed[:20]:
        say(f"  {status} ({kind}), program {seed_}: {detail[:200]}\n  reproducer: {path}")
    return len(failed)


def _tensors(seed, seconds, count, mutations, out, corpus, say, opts) -> int:
    from ember.fuzz.tensor_oracle import available, run_tensors

    if not available():
        say("tensors: skipped (torch is not installed)")
        return 0
    t0 = time.monotonic()
    stats = run_tensors(seed, seconds=seconds)
    say(f"tensors: {stats.generated} generated, {stats.agreed} agreed in "
        f"{time.monotonic() - t0:.1f} s")
    _outcomes(say, stats.statuses)
    for i, (s, status, detail, source) in enumerate(stats.failures):
        path = _write(out, "tensors", f"{status}_{s}.py", f"# {detail[:2000]}\n{source}")
        if i < 10:
            say(f"  {status} (seed {s}): {detail[:200]}\n  reproducer: {path}")
    return len(stats.failures)


def _passes(seed, seconds, count, mutations, out, corpus, say, opts) -> int:
    from ember.fuzz.passorder import corpus_programs, run_passorder

    root = corpus or os.path.join("tests", "corpus", "programs")
    progs = corpus_programs(root) if os.path.isdir(root) else []
    t0 = time.monotonic()
    stats = run_passorder(seed, progs, seconds=seconds, llvm=opts.llvm)
    say(f"passes: {stats.runs} pipelines over {len(progs)} corpus programs and generated "
        f"ones, {stats.agreed} agreed in {time.monotonic() - t0:.1f} s")
    _outcomes(say, stats.statuses)
    if stats.llvm_runs:
        say(f"  llvm: {stats.native_runs} of {stats.llvm_runs} runs entirely native")
    for i, (name, pipeline, status, detail, text) in enumerate(stats.failures):
        path = _write(out, "passes", f"{status}_{name}_{i}.py", text)
        if i < 20:
            say(f"  {status}: {name} with {pipeline}: {detail[:200]}\n  reproducer: {path}")
    return len(stats.failures)


def _artifacts(seed, seconds, count, mutations, out, corpus, say, opts) -> int:
    from ember.fuzz.artifact_seeds import seeds
    from ember.fuzz.artifacts import run_artifacts

    t0 = time.monotonic()
    stats = run_artifacts(seed, seeds(), count=mutations,
                          seconds=None if mutations else seconds,
                          out_dir=os.path.join(out, "artifacts"),
                          progress=lambda s, t: say(f"  artifacts: {s.mutants} mutants, "
                                                    f"{len(s.bugs)} bugs ({t:.0f} s)"))
    say(f"artifacts: {stats.mutants} mutations tried in {time.monotonic() - t0:.1f} s")
    _outcomes(say, stats.classes)
    for name, desc, cls, detail, path in stats.bugs[:20]:
        say(f"  {cls}: {name}, {desc}: {detail[:200]}\n  mutant: {path}")
    return len(stats.bugs)


def _torchscript(seed, seconds, count, mutations, out, corpus, say, opts) -> int:
    from ember.fuzz.torchscript_archives import run_archives, seeds

    t0 = time.monotonic()
    stats = run_archives(seed, seeds(), count=mutations,
                         seconds=None if mutations else seconds,
                         out_dir=os.path.join(out, "torchscript"),
                         progress=lambda s, t: say(f"  torchscript: {s.mutants} mutants, "
                                                   f"{len(s.bugs)} bugs ({t:.0f} s)"))
    say(f"torchscript: {stats.mutants} mutations tried in {time.monotonic() - t0:.1f} s")
    _outcomes(say, stats.classes)
    for name, desc, cls, detail, path in stats.bugs[:20]:
        say(f"  {cls}: {name}, {desc}: {detail[:200]}\n  mutant: {path}")
    return len(stats.bugs)


def _threads(seed, seconds, count, mutations, out, corpus, say, opts) -> int:
    from ember.fuzz.threads import run_threads

    t0 = time.monotonic()
    stats = run_threads(seed)
    say(f"threads: {stats.programs} programs, {stats.calls} calls from 8 threads, "
        f"{len(stats.mismatches)} mismatches in {time.monotonic() - t0:.1f} s")
    for m in stats.mismatches[:10]:
        say(f"  {m!r:.300}")
    return len(stats.mismatches)


def _outcomes(say, counter) -> None:
    say("  outcomes: " + ", ".join(f"{k} {n}" for k, n in sorted(counter.items())))


def _write(out, sub, name, text) -> str:
    directory = os.path.join(out, sub)
    os.makedirs(directory, exist_ok=True)
    path = os.path.join(directory, name)
    with open(path, "w") as fh:
        fh.write(text)
    return path


_RUNNERS = {"programs": _programs, "tensors": _tensors, "passes": _passes,
            "artifacts": _artifacts, "threads": _threads, "torchscript": _torchscript,
            "grad": _grad}
