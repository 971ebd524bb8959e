"""Grad mode's oracle: ember.value_and_grad of a generated program (gradgen) against
central finite differences in float64 and, when torch is installed, torch.autograd; on
the VM, from the saved artifact under ember.mobile, and with backend="llvm".

Finite differences are directional: for random directions u (every differentiable leaf
at once, and each float leaf alone), (f(x + hu) - f(x - hu)) / 2h must match <grad, u>.
Two step sizes that disagree mean a kink, a branch or a loop exit near x: that check is
skipped ("nonsmooth"), not failed. torch.autograd is compared element by element
(float64 within RTOL_TORCH). The artifact must give the VM's results bit for bit; the
LLVM backend within RTOL_LLVM.
"""

from __future__ import annotations

import importlib.util
import os
import sys
import tempfile
from dataclasses import dataclass, field

import numpy as np

RTOL_FD = 1e-5
RTOL_TORCH = 1e-7
RTOL_LLVM = 1e-9
STEPS = (1e-5, 2e-6)


class Mismatch(Exception):
    """A check failed: `kind` names which (value, torch, fd, loaded, llvm, structure...)."""

    def __init__(self, kind: str, detail: str):
        super().__init__(f"{kind}: {detail}")
        self.kind = kind


@dataclass
class Outcome:
    status: str
    """agree | rejected | internal | mismatch | invalid | timeout"""
    kind: str = ""
    detail: str = ""
    nonsmooth: int = 0
    gradgrad: bool = False
    llvm_native: bool = False
    checks: dict = field(default_factory=dict)


def torch_available() -> bool:
    return importlib.util.find_spec("torch") is not None


# ----------------------------------------------------------------------------- leaves


def leaves(x) -> list:
    """The differentiable leaves of an argument tuple, depth first (floats and arrays)."""
    if isinstance(x, (tuple, list)):
        return [y for v in x for y in leaves(v)]
    return [x]


def rebuild(x, it):
    """x's structure with leaves taken from iterator `it`."""
    if isinstance(x, tuple):
        return tuple(rebuild(v, it) for v in x)
    if isinstance(x, list):
        return [rebuild(v, it) for v in x]
    return next(it)


def same_structure(grad, arg) -> bool:
    """A float for a float, an array of the same shape for an array, recursively."""
    if isinstance(arg, (tuple, list)):
        return type(grad) is type(arg) and len(grad) == len(arg) and \
            all(same_structure(g, a) for g, a in zip(grad, arg))
    if isinstance(arg, float):
        return type(grad) is float  # a Python float, not a numpy scalar
    return isinstance(grad, np.ndarray) and grad.shape == arg.shape


def shift(args, direction, h):
    vals = [np.asarray(a, dtype=np.float64) + h * np.asarray(d)
            for a, d in zip(leaves(args), direction)]
    out = [float(v) if isinstance(a, float) else v for a, v in zip(leaves(args), vals)]
    return rebuild(args, iter(out))


def dot(grads, direction) -> tuple:
    """(<g, u>, sum |g_i u_i|) over the leaves."""
    terms = [np.asarray(g, dtype=np.float64) * np.asarray(d) for g, d in zip(grads, direction)]
    return (float(sum(t.sum() for t in terms)), float(sum(np.abs(t).sum() for t in terms)))


def directions(args, rng) -> list:
    """Random directions over all leaves, then one per float leaf."""
    ls = leaves(args)
    dirs = [[rng.standard_normal(np.shape(a)) if np.ndim(a) else float(rng.standard_normal())
             for a in ls] for _ in range(2)]
    for i, a in enumerate(ls):
        if isinstance(a, float):
            dirs.append([1.0 if j == i else np.zeros(np.shape(b)) if np.ndim(b) else 0.0
                         for j, b in enumerate(ls)])
    return dirs


def check_fd(forward, args, grads, rng, what: str = "fd") -> int:
    """Directional finite differences against `grads` (the leaves); returns the number
    of directions skipped as nonsmooth. Raises Mismatch."""
    skipped = 0
    f0 = _scalar(forward(*args))
    for u in directions(args, rng):
        est = []
        for h in STEPS:
            hi, lo = _scalar(forward(*shift(args, u, h))), _scalar(forward(*shift(args, u, -h)))
            est.append((hi - lo) / (2 * h))
        if not all(np.isfinite(est)):
            skipped += 1
            continue
        gu, mag = dot(grads, u)
        scale = max(abs(est[1]), mag) + 1e-9 * max(1.0, abs(f0))
        if abs(est[0] - est[1]) > 10 * RTOL_FD * scale + 1e-8 * max(1.0, abs(f0)):
            skipped += 1
            continue
        if abs(gu - est[1]) > RTOL_FD * scale + 1e-8 * max(1.0, abs(f0)):
            raise Mismatch(what, f"<grad, u> = {gu!r}, finite differences {est[1]!r} "
                                 f"(step {STEPS[0]}: {est[0]!r})")
    return skipped


def _scalar(v) -> float:
    if hasattr(v, "detach"):
        v = v.detach().numpy()
    return float(np.asarray(v, dtype=np.float64).reshape(()))


def close(a, b, rtol) -> bool:
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    if a.shape != b.shape:
        return False
    fin = np.abs(b[np.isfinite(b)])
    scale = max(1.0, float(fin.max())) if fin.size else 1.0
    return bool(np.allclose(a, b, rtol=rtol, atol=rtol * 1e-2 * scale, equal_nan=True))


def compare_leaves(kind, got, want, rtol, exact=False) -> None:
    for i, (g, w) in enumerate(zip(got, want)):
        ok = (np.array_equal(np.asarray(g), np.asarray(w), equal_nan=True) if exact
              else close(g, w, rtol))
        if not ok:
            raise Mismatch(kind, f"leaf {i}: {_short(g)} against {_short(w)}")


def _short(v) -> str:
    text = np.array2string(np.asarray(v), precision=10, threshold=12)
    return text if len(text) < 400 else text[:400] + "..."


# ----------------------------------------------------------------------------- torch


def torch_grads(fn, args):
    """(value, gradients of the tensor leaves: None for float leaves) by torch.autograd."""
    import torch

    ts = [torch.tensor(a, dtype=torch.float64, requires_grad=True) if isinstance(a, np.ndarray)
          else a for a in leaves(args)]
    out = fn(*rebuild(args, iter(ts)))
    wrt = [t for t in ts if isinstance(t, torch.Tensor)]
    gs = torch.autograd.grad(out, wrt, allow_unused=True) if wrt and out.requires_grad \
        else [None] * len(wrt)
    it = iter(gs)
    res = []
    for t in ts:
        if isinstance(t, torch.Tensor):
            g = next(it)
            res.append(np.zeros(t.shape) if g is None else g.numpy())
        else:
            res.append(None)
    return float(out.detach()), res


# ----------------------------------------------------------------------------- loading


def load_python(source: str, name: str):
    """The generated source as a Python module (ember.grad reads functions' source)."""
    directory = tempfile.mkdtemp(prefix="ember-grad-")
    path = os.path.join(directory, f"{name}.py")
    with open(path, "w") as fh:
        fh.write(source)
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    try:
        spec.loader.exec_module(mod)
    finally:
        sys.modules.pop(name, None)
    return mod, path
