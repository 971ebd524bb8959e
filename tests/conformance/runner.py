"""TorchScript-conformance probe: small programs in the style of PyTorch's checkScript
cases (a CompilationUnit source string, no imports), each run under CPython and under
ember (in process, and saved then loaded by ember.mobile), compared value for value.

A case file defines CASES = [(source, [args, ...]), ...]; the entry is the source's last
top-level def. Tensors in CPython's results (torch) are compared with ember's (numpy) by
dtype, shape and values."""

from __future__ import annotations

import contextlib
import copy
import io
import os
import re
import sys
import tempfile
import types

import numpy as np

from ember.fuzz.oracle import same, string_frontend_values

MESSAGES = bool(os.environ.get("CONFORMANCE_MESSAGES"))
_DEF = re.compile(r"^def (\w+)\(", re.M)


def entry_of(source: str) -> str:
    return _DEF.findall(source)[-1]


def to_numpy(x):
    """CPython's value with torch tensors as numpy arrays (ember's tensors)."""
    try:
        import torch
    except ImportError:  # pragma: no cover
        torch = None
    if torch is not None and isinstance(x, torch.Tensor):
        return x.detach().resolve_conj().resolve_neg().numpy()
    if torch is not None and isinstance(x, torch.Size):
        return list(x)  # TorchScript's sizes are List[int]
    if isinstance(x, list):
        return [to_numpy(v) for v in x]
    if isinstance(x, tuple) and not hasattr(x, "_fields"):
        return tuple(to_numpy(v) for v in x)
    if isinstance(x, dict):
        return {to_numpy(k): to_numpy(v) for k, v in x.items()}
    if type(x).__module__ == "conformance" and hasattr(x, "__dict__"):
        y = copy.copy(x)  # an object of the case's own classes: its tensors too
        y.__dict__.update({k: to_numpy(v) for k, v in vars(x).items()})
        return y
    return x


def same_value(a, b) -> bool:
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        if not (isinstance(a, np.ndarray) and isinstance(b, np.ndarray) and
                a.dtype == b.dtype and a.shape == b.shape):
            return False
        if a.dtype.kind in "fc":  # torch's assertEqual tolerances for float32
            return bool(np.allclose(a, b, rtol=1.3e-6, atol=1e-5, equal_nan=True))
        return bool(np.array_equal(a, b))
    if type(a) is tuple and type(b) is list and a and all(isinstance(x, np.ndarray) for x in a):
        a = list(a)  # torch's tuples of tensors (x.chunk) are TorchScript's List[Tensor]
    if isinstance(a, (list, tuple)) and type(a) is type(b) and not hasattr(a, "_fields"):
        return len(a) == len(b) and all(same_value(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return list(a) == list(b) and all(same_value(a[k], b[k]) for k in a)
    return same(a, b)


def run(fn, args, torch_in: bool):
    a = copy.deepcopy(args)
    if not torch_in:
        a = to_numpy(a)
    out = io.StringIO()
    try:
        with contextlib.redirect_stdout(out):
            v = fn(*a)
    except Exception as e:  # noqa: BLE001 - the exception is the result being compared
        return ("raise", type(e).__name__, str(e), out.getvalue())
    return ("ok", to_numpy(v), out.getvalue())


def agree(want, got) -> bool:
    if want[0] != got[0] or want[-1] != got[-1]:
        return False
    if want[0] == "raise":
        if want[1] == got[1] and want[2] != got[2] and MESSAGES:
            print(f"    message: {got[2]!r} vs CPython {want[2]!r}")
        return want[1] == got[1]
    return same_value(want[1], got[1])


def cpython_fn(source: str):
    mod = types.ModuleType("conformance")  # a registered module: @dataclass looks it up
    mod.__dict__.update(string_frontend_values(source))
    sys.modules["conformance"] = mod
    exec(compile(source, "<case>", "exec"), mod.__dict__)  # noqa: S102 - the test's own text
    return mod.__dict__[entry_of(source)]


def ember_fns(source: str):
    """(in-process function, loaded function)."""
    import ember

    cu = ember.CompilationUnit(source)
    fn = getattr(cu, entry_of(source))
    if hasattr(fn, "instance"):  # Any parameters: compiled (and saved) per argument types
        return fn, lambda *args: saved_and_loaded(fn.instance(*args))(*args)
    return fn, saved_and_loaded(fn)


def saved_and_loaded(fn):
    from ember import mobile

    fd, path = tempfile.mkstemp(suffix=".ember")
    os.close(fd)
    try:
        fn.save(path)
        return getattr(mobile.load(path), fn.entry)
    finally:
        os.unlink(path)


def check_case(source: str, arglist) -> str | None:
    """None when ember agrees with CPython on every args tuple, else what differed."""
    try:
        py = cpython_fn(source)
    except Exception as e:  # noqa: BLE001 - a case CPython cannot run is the case's bug
        return f"invalid case: CPython: {type(e).__name__}: {e}"
    try:
        fn, loaded = ember_fns(source)
    except Exception as e:  # noqa: BLE001 - a rejection is the probe's finding
        return f"compile: {type(e).__name__}: {str(e).splitlines()[0][:300]}"
    for args in arglist:
        want = run(py, args, True)
        for name, f in (("ember", fn), ("loaded", loaded)):
            got = run(f, args, False)
            if not agree(want, got):
                return f"{name}{args!r}: got {got!r}, CPython {want!r}"[:600]
    return None
