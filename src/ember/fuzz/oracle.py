"""The differential oracle: run a program's cases under CPython, under
`ember.CompilationUnit` in process, from a saved artifact and (when llvmlite is
installed) under `ember.CompilationUnit(..., backend="llvm")`, and compare.

An outcome is ("ok", value, args after the call, printed text) or ("raise", type
name, message, args after the call, printed text). Two outcomes agree when values have the same types all the way
down (bool is not int, tuple is not list), floats are equal bit for bit up to NaN, and
raised exceptions have the same type and message.

Executors are plain callables so that tests can substitute a deliberately wrong one.
"""

from __future__ import annotations

import contextlib
import copy
import io
import math
import os
import re
import tempfile
import traceback
import warnings
from dataclasses import dataclass, field

from ember.fuzz.watchdog import Timeout, watchdog

_QUOTED = re.compile(r"'[^']*'")
TIMEOUT = 20.0
"""Seconds one program may take in all three executors together."""


@dataclass
class Verdict:
    """What happened to one program."""

    status: str
    """agree | rejected | internal | mismatch | timeout | invalid (the reference failed)"""
    detail: str = ""
    """For failures: what differed, or the error's class and message."""
    signature: tuple = ()
    """What the shrinker must preserve (kind of failure and the exception classes)."""
    outcomes: dict = field(default_factory=dict)
    """Executor name -> list of outcomes (one per case)."""
    backends: dict = field(default_factory=dict)
    """Executor name -> {entry: (backend, fallback reason)} for executors whose functions
    say where they run (the llvm executor: "llvm", or "vm" and why)."""

    @property
    def failed(self) -> bool:
        return self.status not in ("agree",)


def outcome(fn, args) -> tuple:
    a = copy.deepcopy(args)
    out = io.StringIO()
    try:
        with contextlib.redirect_stdout(out):
            v = fn(*a)
    except Timeout:
        raise
    except Exception as e:  # noqa: BLE001 - the exception is the result being compared
        return ("raise", type(e).__name__, str(e), a, out.getvalue())
    return ("ok", v, a, out.getvalue())


def same(a, b) -> bool:
    """Equal values of equal types, recursively; NaN equals NaN; -0.0 differs from 0.0;
    arrays by dtype, shape and values.
    Objects of script classes and NamedTuples compare by class name, fields and values
    (CPython's class and the runtime's are different class objects)."""
    if _is_record(a) or _is_record(b):
        fa, fb = _fields(a), _fields(b)
        return fa is not None and fa == fb and type(a).__name__ == type(b).__name__ and \
            all(same(getattr(a, f), getattr(b, f)) for f in fa)
    if type(a) is not type(b):
        return False
    if type(a).__name__ == "ndarray":  # a tensor (an argument, or a result): dtype, shape
        import numpy as np
        return a.dtype == b.dtype and a.shape == b.shape and \
            bool(np.array_equal(a, b, equal_nan=a.dtype.kind in "fc"))
    if isinstance(a, float):
        if math.isnan(a) or math.isnan(b):
            return math.isnan(a) and math.isnan(b)
        return a == b and math.copysign(1, a) == math.copysign(1, b)
    if isinstance(a, complex):
        return same(a.real, b.real) and same(a.imag, b.imag)
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict):
        return list(a) == list(b) and all(same(a[k], b[k]) for k in a)
    return a == b


def _is_record(x) -> bool:
    return hasattr(x, "_fields") or hasattr(type(x), "_field_names") or (
        hasattr(x, "__dict__") and not isinstance(x, (type, BaseException)))


def _fields(x):
    if hasattr(x, "_fields"):
        return tuple(x._fields)
    if hasattr(type(x), "_field_names"):
        return tuple(type(x)._field_names)
    return tuple(vars(x)) if hasattr(x, "__dict__") else None


def same_outcome(a, b) -> bool:
    if a[0] != b[0]:
        return False
    if a[-1] != b[-1]:
        return False
    if a[0] == "raise":
        return a[1:3] == b[1:3] and same(a[3], b[3])
    return same(a[1], b[1]) and same(a[2], b[2])


# ----------------------------------------------------------------------------- executors


def cpython_executor(source: str, filename: str):
    """Entry name -> the function CPython defines for the generated source."""
    import sys
    import types
    mod = types.ModuleType("fuzz_program")  # registered: @dataclass looks its module up
    ns: dict = mod.__dict__
    ns.update(string_frontend_values(source))
    with warnings.catch_warnings():  # e.g. `x is 0` in a shrinker's candidate
        warnings.simplefilter("ignore", SyntaxWarning)
        code = compile(source, filename, "exec")
    sys.modules["fuzz_program"] = mod
    exec(code, ns)  # noqa: S102 - generated text, not artifacts
    return lambda entry: ns[entry]


def names_missing_torch(source: str) -> bool:
    """True when the source names torch (torch, Tensor, F., nn.) and torch is not
    installed: CPython cannot run it, so it cannot be a reference here."""
    import importlib.util
    import re
    return importlib.util.find_spec("torch") is None and \
        re.search(r"\b(torch|Tensor)\b|\b(F|nn)\.", source) is not None


def string_frontend_values(source: str) -> dict:
    """CPython's values of the names a CompilationUnit resolves without imports (typing's
    constructs, Tensor, torch, math), for sources written that way (the corpus's); torch
    only when the source names it and torch is installed."""
    import math
    import re
    import typing

    from ember.frontend.compiler import string_frontend_names

    out: dict = {}
    for name in string_frontend_names():
        if name in ("torch", "Tensor"):
            if re.search(r"\b(torch|Tensor)\b", source):
                try:
                    import torch
                except ImportError:
                    continue
                out[name] = torch if name == "torch" else torch.Tensor
        elif name in ("F", "nn"):
            if re.search(rf"\b{name}\.", source):
                try:
                    import torch.nn as tnn
                except ImportError:
                    continue
                out[name] = tnn.functional if name == "F" else tnn
        elif name in ("math", "cmath", "warnings"):
            out[name] = __import__(name)
        elif name == "OrderedDict":
            import collections
            out[name] = collections.OrderedDict
        elif name == "Enum":
            import enum
            out[name] = enum.Enum
        elif name == "Future":
            if re.search(r"\bFuture\b", source):
                try:
                    import torch.jit
                except ImportError:
                    continue
                out[name] = torch.jit.Future
        elif hasattr(typing, name):
            out[name] = getattr(typing, name)
    return out


_LAST: list = [None, None]
"""(key, CompilationUnit) of the last compile: the loaded executor reuses it."""


def compile_unit(source: str, filename: str):
    """ember.CompilationUnit(source), reused when the same text is compiled twice in a row."""
    import ember

    key = (source, filename)
    if _LAST[0] != key:
        _LAST[:] = [None, None]
        _LAST[:] = [key, ember.CompilationUnit(source, filename=filename)]
    return _LAST[1]


def ember_executor(source: str, filename: str):
    """Entry name -> the ember.CompilationUnit function, compiled in process."""
    cu = compile_unit(source, filename)
    return lambda entry: getattr(cu, entry)


def loaded_executor(source: str, filename: str):
    """Entry name -> the entry of the artifact saved by ember and loaded by ember.mobile."""
    from ember import mobile

    cu = compile_unit(source, filename)
    fd, path = tempfile.mkstemp(suffix=".ember")
    os.close(fd)
    try:
        getattr(cu, cu.functions[0]).save(path)
        loaded = mobile.load(path)
    finally:
        os.unlink(path)
    return lambda entry: getattr(loaded, entry)


def llvm_executor(source: str, filename: str):
    """Entry name -> the function of ember.CompilationUnit(..., backend="llvm"): native
    code, or the VM for functions the native tier leaves there (fallback is tested too)."""
    import ember

    cu = ember.CompilationUnit(source, filename=filename, backend="llvm")
    return lambda entry: getattr(cu, entry)


def llvm_available() -> bool:
    """llvmlite is importable (the LLVM backend's only extra dependency)."""
    import importlib.util

    return importlib.util.find_spec("llvmlite") is not None


BASE_EXECUTORS = {"cpython": cpython_executor, "ember": ember_executor,
                  "loaded": loaded_executor}
"""CPython, the VM in process, the saved artifact under ember.mobile."""
EXECUTORS = dict(BASE_EXECUTORS, **({"llvm": llvm_executor} if llvm_available() else {}))
"""The default oracle: the base executors and, when llvmlite is installed, the LLVM
backend as a fourth."""


def executors(llvm: bool | None = None) -> dict:
    """The oracle's executors: with the LLVM backend if `llvm` (None: if available)."""
    if llvm is None:
        llvm = llvm_available()
    return dict(BASE_EXECUTORS, llvm=llvm_executor) if llvm else dict(BASE_EXECUTORS)


# ----------------------------------------------------------------------------- checking


def check(source: str, cases, executors=None, filename: str = "fuzz.py",
          timeout: float = TIMEOUT, compare=None) -> Verdict:
    """Run `cases` through every executor and compare them with the first (CPython);
    `compare(a, b)` decides whether two outcomes agree (same_outcome by default)."""
    executors = executors or EXECUTORS
    try:
        with watchdog(timeout):
            return _check(source, cases, executors, filename, compare or same_outcome)
    except Timeout:
        return Verdict("timeout", f"no result within {timeout} s", ("timeout",))


def _check(source, cases, executors, filename, compare) -> Verdict:
    from ember.errors import CompileError

    names = list(executors)
    results, backends = {}, {}
    for ex in names:
        try:
            fns = executors[ex](source, filename)
            entries = [fns(entry) for entry, _ in cases]
        except CompileError as e:
            msg = _first_line(e)
            return Verdict("rejected", f"{type(e).__name__}: {msg}",
                           ("rejected", ex, type(e).__name__, _QUOTED.sub("'_'", msg)), results,
                           backends)
        except Exception as e:  # noqa: BLE001 - anything else escaping the compiler is a bug
            status = "invalid" if ex == names[0] else "internal"
            return Verdict(status, f"{ex}: {_where(e)}",
                           (status, ex, type(e).__name__, _frame(e)), results, backends)
        where = {entry: (fn.backend, getattr(fn, "fallback_reason", None))
                 for fn, (entry, _) in zip(entries, cases) if hasattr(fn, "backend")}
        if where:
            backends[ex] = where
        results[ex] = [outcome(fn, args) for fn, (_, args) in zip(entries, cases)]
    verdict = _compare(names, results, cases, compare)
    verdict.backends = backends
    return verdict


def _compare(names, results, cases, compare) -> Verdict:
    ref = results[names[0]]
    for ex in names[1:]:
        for i, (want, got) in enumerate(zip(ref, results[ex])):
            if not compare(want, got):
                detail = (f"case {i} {cases[i][0]}{_short(cases[i][1])}: {names[0]} "
                          f"{_show(want)}, {ex} {_show(got)}")
                sig = ("mismatch", ex, want[0], want[1] if want[0] == "raise" else "",
                       got[0], got[1] if got[0] == "raise" else "")
                return Verdict("mismatch", detail, sig, results)
    return Verdict("agree", outcomes=results)


def _show(o) -> str:
    printed = f", printed {_short(o[-1], 100)}" if o[-1] else ""
    if o[0] == "raise":
        return f"raised {o[1]}({o[2]!r}){printed}"
    return f"returned {_short(o[1])} (args after: {_short(o[2])}){printed}"


def _short(v, n: int = 300) -> str:
    text = repr(v)
    return text if len(text) <= n else text[:n] + "..."


def _first_line(e) -> str:
    text = str(e).splitlines()
    first = text[0] if text else ""
    return first.removeprefix("error: ")


def _frame(e) -> str:
    """file:function of the innermost frame of e's traceback."""
    frames = traceback.extract_tb(e.__traceback__)
    return f"{os.path.basename(frames[-1].filename)}:{frames[-1].name}" if frames else ""


def _where(e) -> str:
    frames = traceback.extract_tb(e.__traceback__)
    last = frames[-1] if frames else None
    loc = f" at {os.path.basename(last.filename)}:{last.lineno} in {last.name}" if last else ""
    return f"{type(e).__name__}: {str(e)[:200]}{loc}"
