"""The tensor-mode oracle and campaign: CPython runs the generated function on torch
tensors, ember (in process and from the saved artifact) on numpy arrays. Results must
be arrays of the same shape and dtype whose values agree to rtol 1e-4 (and an absolute
1e-5 of the result's magnitude): float32 kernels of torch and numpy round differently, and
cancellation (x ** 3 % 2, a product of large values summing to near zero) turns that into
relative differences far above float32's epsilon in the output.

Skipped (available() is False) when torch is not installed.
"""

from __future__ import annotations

import importlib.util
import time
from collections import Counter
from dataclasses import dataclass, field

import numpy as np

from ember.fuzz import oracle
from ember.fuzz.tensorgen import generate_tensor

RTOL, ATOL = 1e-4, 1e-5
SEED_STRIDE = 1_000_003


def available() -> bool:
    return importlib.util.find_spec("torch") is not None


def torch_executor(source: str, filename: str):
    """CPython with torch: numpy arguments become tensors, tensor results arrays."""
    import torch

    ref = oracle.cpython_executor(source, filename)

    def entry(name):
        fn = ref(name)

        def run(*args):
            out = fn(*[torch.from_numpy(a.copy()) if isinstance(a, np.ndarray) else a
                       for a in args])
            return out.detach().numpy() if isinstance(out, torch.Tensor) else out
        return run
    return entry


def unfused_executor(source: str, filename: str):
    """ember without the fuse pass: the oracle for fused groups, which must match it bit
    for bit (fused_executor)."""
    from ember import mobile
    from ember.api.core import compile_source
    from ember.interpreter.pipeline import compile_to_program, run_passes
    from ember.passes.manager import default_pipeline

    module = compile_source(source, filename)
    run_passes(module, default_pipeline().replace(",fuse", ""))
    loaded = mobile.build(compile_to_program(module, optimize=False))
    return lambda entry: getattr(loaded, entry)


def fused_executor(source: str, filename: str):
    """ember (fused groups on) called twice per case, the second result kept: the first
    call of a signature runs a group's kernels unfused, the second its planned sequence
    (with buffers even for the fuzzer's small tensors)."""
    import ember
    from ember.mobile import fused

    cu = ember.CompilationUnit(source, filename=filename)  # its own groups and plans

    def entry(name):
        fn = getattr(cu, name)

        def run(*args):
            old = fused.small_size(0)
            try:
                fn(*[a.copy() if isinstance(a, np.ndarray) else a for a in args])
                return fn(*args)
            finally:
                fused.small_size(old)
        return run
    return entry


EXECUTORS = {"torch": torch_executor, "ember": oracle.ember_executor,
             "loaded": oracle.loaded_executor, "unfused": unfused_executor,
             "planned": fused_executor}
BIT_EXACT = ("unfused", "planned")
"""Executors whose results must be identical bit for bit."""


def same_tensor_outcome(a, b) -> bool:
    """Arrays: same class, shape and dtype, values within RTOL; errors: same class only
    (torch and numpy word their messages differently)."""
    if a[0] != b[0]:
        return False
    if a[0] == "raise":
        return a[1] == b[1]
    x, y = a[1], b[1]
    if not (isinstance(x, np.ndarray) and isinstance(y, np.ndarray)):
        return type(x) is type(y) and oracle.same(x, y)
    if x.shape != y.shape or x.dtype != y.dtype:
        return False
    if x.dtype == bool or x.dtype.kind in "iu":
        return np.array_equal(x, y)
    finite = np.abs(x[np.isfinite(x)])
    scale = max(1.0, float(finite.max())) if finite.size else 1.0
    return np.allclose(x, y, rtol=RTOL, atol=ATOL * scale, equal_nan=True)


def check_tensor(prog) -> oracle.Verdict:
    verdict = oracle.check(prog.source, prog.cases, EXECUTORS, filename="tensor.py",
                           compare=same_tensor_outcome)
    if verdict.failed:
        return verdict
    a, b = (verdict.outcomes[n] for n in BIT_EXACT)
    for i, (x, y) in enumerate(zip(a, b)):
        if not _bit_identical(x, y):
            return oracle.Verdict("mismatch", f"case {i}: fused groups differ from the "
                                  "unfused ops", ("mismatch", "planned", "fused"),
                                  verdict.outcomes)
    return verdict


def _bit_identical(a, b) -> bool:
    if a[0] != b[0] or a[0] == "raise":
        return a[0] == b[0] and a[1] == b[1]
    x, y = a[1], b[1]
    if isinstance(x, np.ndarray):
        return isinstance(y, np.ndarray) and x.dtype == y.dtype and x.shape == y.shape and \
            np.ascontiguousarray(x).tobytes() == np.ascontiguousarray(y).tobytes()
    return oracle.same(x, y)


def describe(verdict) -> str:
    """A mismatch's detail with dtypes and shapes spelled out."""
    parts = [verdict.detail]
    for name, outs in verdict.outcomes.items():
        for o in outs:
            if o[0] == "ok" and hasattr(o[1], "dtype"):
                parts.append(f"{name}: {type(o[1]).__name__} {o[1].dtype} "
                             f"{getattr(o[1], 'shape', ())}")
    return "; ".join(parts)


@dataclass
class TensorStats:
    generated: int = 0
    agreed: int = 0
    statuses: Counter = field(default_factory=Counter)
    failures: list = field(default_factory=list)
    """(seed, status, detail, source) of each failing program."""


def run_tensors(seed: int, count: int | None = None, seconds: float | None = None,
                progress=None) -> TensorStats:
    stats = TensorStats()
    if not available():
        return stats
    start = time.monotonic()
    while (count is None or stats.generated < count) and \
            (seconds is None or time.monotonic() - start < seconds):
        # every other program may reduce to 0-d tensors (scalars in torch, 0-d arrays here)
        prog = generate_tensor(seed * SEED_STRIDE + stats.generated,
                               zero_dim=stats.generated % 2 == 1)
        verdict = check_tensor(prog)
        stats.generated += 1
        stats.statuses[verdict.status] += 1
        if verdict.failed:
            stats.failures.append((prog.seed, verdict.status, describe(verdict), prog.source))
        else:
            stats.agreed += 1
        if progress and stats.generated % 50 == 0:
            progress(stats, time.monotonic() - start)
    return stats
