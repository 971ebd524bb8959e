"""Grad mode's campaign: generate differentiable programs (gradgen), check them
(grad_oracle), count outcomes, write a reproducer for every failure.

Program k of a campaign with seed s is generate_grad(s * SEED_STRIDE + k); one in
LLVM_EVERY programs runs on the LLVM backend too; one in GRADGRAD_EVERY programs with a
float parameter also checks the gradient of its gradient with respect to that parameter
(d/dx_all of df/ds) against finite differences."""

from __future__ import annotations

import os
import re
import shutil
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field

import numpy as np

from ember.fuzz import grad_oracle as go
from ember.fuzz.gradgen import generate_grad
from ember.fuzz.watchdog import Timeout, watchdog

SEED_STRIDE = 1_000_003
GRADGRAD_EVERY = 4
LLVM_EVERY = 4
"""One program in LLVM_EVERY also runs its gradient with backend="llvm" (compiling a
gradient natively costs more than the rest of the checks)."""
TIMEOUT = 60.0


@dataclass
class GradStats:
    generated: int = 0
    agreed: int = 0
    statuses: Counter = field(default_factory=Counter)
    reasons: Counter = field(default_factory=Counter)
    """(status, kind, message without names and lines) of rejections and failures."""
    failures: list = field(default_factory=list)
    """(seed, status, kind, detail, reproducer path or None)."""
    nonsmooth: int = 0
    gradgrad: int = 0
    tensor_programs: int = 0
    llvm_native: int = 0


def run_grad(seed: int, count: int | None = None, seconds: float | None = None,
             out_dir: str | None = None, llvm: bool = True, use_torch: bool | None = None,
             start: int = 0, progress=None) -> GradStats:
    """Generate and check programs until `count` are done or `seconds` have passed."""
    use_torch = go.torch_available() if use_torch is None else use_torch
    stats = GradStats()
    t0 = time.monotonic()
    k = start
    while (count is None or k < start + count) and \
            (seconds is None or time.monotonic() - t0 < seconds):
        prog = generate_grad(seed * SEED_STRIDE + k, tensors=None if use_torch else False)
        gradgrad = k % GRADGRAD_EVERY == GRADGRAD_EVERY - 1
        native = llvm and k % LLVM_EVERY == 0
        k += 1
        out = check_program(prog, llvm=native, use_torch=use_torch, gradgrad=gradgrad)
        _count(stats, prog, out, out_dir)
        if progress and k % 50 == 0:
            progress(stats, time.monotonic() - t0)
    return stats


def _count(stats, prog, out, out_dir) -> None:
    stats.generated += 1
    stats.statuses[out.status] += 1
    stats.nonsmooth += out.nonsmooth
    stats.gradgrad += out.gradgrad
    stats.tensor_programs += prog.tensors
    stats.llvm_native += out.llvm_native
    if out.status == "agree":
        stats.agreed += 1
        return
    stats.reasons[(out.status, out.kind, _generic(out.detail))] += 1
    path = write_reproducer(out_dir, prog, out) if out.status != "rejected" else None
    stats.failures.append((prog.seed, out.status, out.kind, out.detail, path))


def _generic(detail: str) -> str:
    """A message without generated names, numbers and source lines (to group repeats)."""
    first = detail.splitlines()[0] if detail else ""
    first = re.sub(r"\b[a-z]+\d+\b", "N", first)
    return re.sub(r"-?\d+(\.\d+)?(e-?\d+)?", "#", first)[:160]


def write_reproducer(out_dir, prog, out) -> str | None:
    if not out_dir:
        return None
    os.makedirs(out_dir, exist_ok=True)
    path = os.path.join(out_dir, f"{out.status}_{out.kind or 'x'}_{prog.seed}.py")
    detail = "\n".join("# " + ln for ln in out.detail.splitlines()[:40])
    np.set_printoptions(precision=17, threshold=100000)
    text = (f"# grad fuzz {out.status} ({out.kind}), seed {prog.seed}\n{detail}\n"
            f"# check again: python -m ember.fuzz.grad_campaign {prog.seed}\n"
            f"{prog.source}\n\nfrom numpy import array  # noqa: E402\n"
            f"CASES = {prog.cases!r}\n")
    np.set_printoptions()
    with open(path + ".tmp", "w") as fh:
        fh.write(text)
    os.replace(path + ".tmp", path)
    return path


# ----------------------------------------------------------------------------- checking


def check_program(prog, llvm: bool = True, use_torch: bool = True, gradgrad: bool = False,
                  timeout: float = TIMEOUT) -> go.Outcome:
    """Compile f's value_and_grad and check every case; never raises."""
    from ember.errors import EmberError

    name = f"ember_gradprog_{prog.seed}"
    mod = path = None
    try:
        with watchdog(timeout):
            mod, path = go.load_python(prog.source, name) if use_torch or not prog.tensors \
                else (None, None)
            return _check(prog, mod, llvm, use_torch, gradgrad)
    except Timeout:
        return go.Outcome("timeout", "timeout", f"no result within {timeout} s")
    except go.Mismatch as m:
        return go.Outcome("mismatch", m.kind, str(m))
    except GradGradRejected as e:
        return go.Outcome("rejected", "gradgrad", str(e))
    except Invalid as e:
        return go.Outcome("invalid", "reference", str(e)[:300])
    except EmberError as e:
        return go.Outcome("rejected", type(e).__name__, _first_line(e))
    except Exception as e:  # noqa: BLE001 - anything escaping ember is a bug
        return go.Outcome("internal", type(e).__name__, _where(e))
    finally:
        if path:
            shutil.rmtree(os.path.dirname(path), ignore_errors=True)


def _first_line(e) -> str:
    lines = str(e).splitlines()
    return lines[0].removeprefix("error: ") if lines else type(e).__name__


def _where(e) -> str:
    import traceback

    frames = traceback.extract_tb(e.__traceback__)
    last = frames[-1] if frames else None
    loc = f" at {os.path.basename(last.filename)}:{last.lineno} in {last.name}" if last else ""
    return f"{type(e).__name__}: {str(e)[:300]}{loc}"


def _functions(prog, mod, llvm):
    """{name: value_and_grad function} (vm, loaded, llvm) and the reference forward."""
    import ember

    argnums = tuple(range(len(prog.params)))
    if mod is not None:
        fn = mod.f
    else:  # tensor programs without torch: the script function is the forward
        fn = ember.CompilationUnit(prog.source, "gradprog.py", optimize=False).f
    fns = {"vm": ember.value_and_grad(fn, argnums)}
    fns["loaded"] = _loaded(fns["vm"])
    if llvm:
        fns["llvm"] = ember.value_and_grad(fn, argnums, backend="llvm")
    return fns, fn


def _loaded(sf):
    from ember import mobile

    directory = tempfile.mkdtemp(prefix="ember-grad-")
    try:
        path = os.path.join(directory, "g.ember")
        sf.save(path)
        return mobile.load(path)
    finally:
        shutil.rmtree(directory, ignore_errors=True)


def _check(prog, mod, llvm, use_torch, gradgrad) -> go.Outcome:
    fns, fn = _functions(prog, mod, llvm)
    out = go.Outcome("agree", llvm_native=llvm and fns["llvm"].backend == "llvm")
    rng = np.random.default_rng(prog.seed % (1 << 32))
    fwd = _torch_forward(fn) if prog.tensors and mod is not None else fn
    for case in prog.cases:
        out.nonsmooth += _check_case(prog, fns, fwd, mod, case, rng, use_torch)
    if gradgrad:
        out.gradgrad = _check_gradgrad(prog, fn, rng, out)
    return out


def _torch_forward(fn):
    """The CPython function on float64 torch tensors (numpy arguments converted)."""
    import torch

    def run(*args):
        it = iter([torch.tensor(a, dtype=torch.float64) if isinstance(a, np.ndarray) else a
                   for a in go.leaves(args)])
        with torch.no_grad():
            return fn(*go.rebuild(args, it))
    return run


class GradGradRejected(Exception):
    """The gradient compiled and agreed; differentiating it again was refused."""


class Invalid(Exception):
    """The reference itself raised: the generated program is not valid there."""


def _check_case(prog, fns, fwd, mod, case, rng, use_torch) -> int:
    try:
        ref_value = go._scalar(fwd(*case))
    except Exception as e:  # noqa: BLE001 - torch's verdict on the program
        raise Invalid(f"the reference raised {type(e).__name__}: {e}") from e
    results = {}
    for name, f in fns.items():
        value, grads = f(*case)
        if not isinstance(grads, tuple) or not go.same_structure(grads, case):
            raise go.Mismatch("structure", f"{name}: gradients {grads!r:.300} for arguments "
                              f"{case!r:.300}")
        results[name] = (value, go.leaves(grads))
    value, grads = results["vm"]
    if not np.all(np.isfinite(_flat(grads))) or not np.isfinite(go._scalar(value)):
        return 1  # overflowed: nothing to compare
    if not go.close(go._scalar(value), ref_value, 1e-9):
        raise go.Mismatch("value", f"ember {go._scalar(value)!r}, reference {ref_value!r}")
    go.compare_leaves("loaded", results["loaded"][1], grads, 0, exact=True)
    if "llvm" in results:
        go.compare_leaves("llvm", results["llvm"][1], grads, go.RTOL_LLVM)
    if use_torch and prog.tensors and mod is not None:
        _check_torch(mod.f, case, grads)
    return go.check_fd(fwd, case, grads, rng)


def _flat(grads):
    return np.concatenate([np.asarray(g, dtype=np.float64).reshape(-1) for g in grads]) \
        if grads else np.zeros(0)


def _check_torch(fn, case, grads) -> None:
    _, tg = go.torch_grads(fn, case)
    pairs = [(g, t) for g, t in zip(grads, tg) if t is not None]
    go.compare_leaves("torch", [g for g, _ in pairs], [t for _, t in pairs], go.RTOL_TORCH)


def _check_gradgrad(prog, fn, rng, out) -> bool:
    """d/d(all) of df/ds for the first float parameter s, against finite differences of
    df/ds; False when f has no float parameter."""
    import ember
    from ember.errors import EmberError

    floats = [i for i, p in enumerate(prog.params) if p.kind == "float"]
    if not floats:
        return False
    d1 = ember.grad(fn, floats[0])
    try:
        d2 = ember.value_and_grad(d1, tuple(range(len(prog.params))))
    except EmberError as e:
        raise GradGradRejected(_first_line(e)) from e
    for case in prog.cases:
        value, grads = d2(*case)
        if not go.same_structure(grads, case):
            raise go.Mismatch("gradgrad-structure", f"{grads!r:.300}")
        g = go.leaves(grads)
        if not np.all(np.isfinite(_flat(g))):
            continue
        if not go.close(value, d1(*case), 1e-12):
            raise go.Mismatch("gradgrad-value", f"{value!r} against {d1(*case)!r}")
        out.nonsmooth += go.check_fd(d1, case, g, rng, what="gradgrad")
    return True


def main(argv=None) -> int:
    """python -m ember.fuzz.grad_campaign SEED...: check the programs of these seeds."""
    import sys

    args = sys.argv[1:] if argv is None else argv
    bad = 0
    for s in args:
        prog = generate_grad(int(s))
        out = check_program(prog, gradgrad=True)
        print(f"{s}: {out.status} {out.kind} {out.detail[:2000]}")
        bad += out.status not in ("agree", "rejected")
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
