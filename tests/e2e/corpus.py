"""The program corpus: loading programs, running them, comparing results exactly.

A valid program is a .py file with module-level functions and
    CASES = [("entry", (arg, ...)), ...]
An invalid program starts with
    # error: TypeCheckError
    # line: 7
    # match: cannot add
and names the function to compile with ENTRY = "name".
"""

from __future__ import annotations

import copy
import importlib.util
import math
import re
import sys
from pathlib import Path

from ember.fuzz.oracle import names_missing_torch

CORPUS = Path(__file__).resolve().parent.parent / "corpus"
# a program that names torch runs under CPython only where torch is installed: without it
# such programs are left out, as the tests that need torch skip
PROGRAMS = [p for p in sorted((CORPUS / "programs").glob("*.py"))
            if not names_missing_torch(p.read_text())]
INVALID = sorted((CORPUS / "invalid").glob("*.py"))


def load_module(path: Path):
    """The program as a CPython module. Programs may be written as for TorchScript's
    string frontend, without imports: the names it resolves (string_frontend_names) are
    the module's globals before it runs (torch only if the program names it)."""
    name = f"corpus_{path.stem}"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    vars(mod).update(prelude(path.read_text()))
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod


def prelude(text: str) -> dict:
    """CPython's values of the names a CompilationUnit resolves without imports."""
    from ember.fuzz.oracle import string_frontend_values

    return string_frontend_values(text)


def outcome(fn, args):
    """("ok", value) or ("raise", exception type name, message)."""
    try:
        return ("ok", fn(*copy.deepcopy(args)))
    except Exception as e:  # noqa: BLE001 - the exception is the result being compared
        return ("raise", type(e).__name__, str(e))


def same(a, b) -> bool:
    """Equal values of equal types, recursively; NaN equals NaN; -0.0 differs from 0.0."""
    if type(a) is complex and type(b) is complex:
        return same(a.real, b.real) and same(a.imag, b.imag)
    if isinstance(a, float) and isinstance(b, float):
        if math.isnan(a) and math.isnan(b):
            return True
        return type(a) is type(b) and a == b and math.copysign(1, a) == math.copysign(1, b)
    if _is_record(a) or _is_record(b):
        return _record_fields(a) == _record_fields(b) and \
            type(a).__name__ == type(b).__name__ and \
            all(same(x, y) for x, y in zip(_record_values(a), _record_values(b)))
    if type(a) is not type(b):
        return False
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict):
        return list(a) == list(b) and all(same(a[k], b[k]) for k in a)
    return a == b


def _is_record(x) -> bool:
    return hasattr(x, "_fields") or hasattr(type(x), "_field_names") or (
        hasattr(x, "__dict__") and not isinstance(x, (type, BaseException)))


def _record_fields(x):
    if hasattr(x, "_fields"):
        return tuple(x._fields)
    if hasattr(type(x), "_field_names"):
        return tuple(type(x)._field_names)
    return tuple(vars(x))


def _record_values(x):
    return [getattr(x, f) for f in _record_fields(x)]


def same_outcome(a, b) -> bool:
    if a[0] != b[0]:
        return False
    if a[0] == "raise":
        return a[1:] == b[1:]
    return same(a[1], b[1])


def invalid_header(path: Path) -> dict:
    text = path.read_text()
    head = {}
    for key in ("error", "line", "match"):
        m = re.search(rf"^# {key}: (.*)$", text, re.M)
        head[key] = m.group(1).strip() if m else None
    m = re.search(r'^ENTRY = "(\w+)"', text, re.M)
    head["entry"] = m.group(1) if m else None
    return head
