"""The differential corpus under the LLVM backend: every case gives CPython's outcome
(values and types, or exception type and message) with `backend="llvm"`, whether the
entry runs natively or falls back to the VM; and the native share of the corpus's
scalar-and-list entries stays at or above its floor."""

from __future__ import annotations

import re

import pytest

import ember
from ember.ir import types as T

from .corpus import PROGRAMS, load_module, outcome, same_outcome

pytest.importorskip("llvmlite")

_SCRIPTED: dict = {}


def _cases():
    for path in PROGRAMS:
        mod = load_module(path)
        for i, (entry, args) in enumerate(getattr(mod, "CASES", [])):
            yield pytest.param(path, entry, args, id=f"{path.stem}[{i}]")


def _native(path, entry):
    key = (path, entry)
    if key not in _SCRIPTED:
        _SCRIPTED[key] = ember.script(getattr(load_module(path), entry), backend="llvm")
    return _SCRIPTED[key]


@pytest.mark.parametrize("path, entry, args", list(_cases()))
def test_program_llvm(path, entry, args):
    fn = getattr(load_module(path), entry)
    want = outcome(fn, args)
    sf = _native(path, entry)
    got = outcome(sf, args)
    assert same_outcome(want, got), f"llvm ({sf.backend}): {got!r}, CPython: {want!r}"
    assert (sf.backend == "llvm") == (sf.fallback_reason is None)


_TENSORS = re.compile(r"\btensor\b")


def _plain(t) -> bool:
    if t in (T.I64, T.F64, T.BOOL, T.NONE):
        return True
    if isinstance(t, (T.ListType, T.OptionalType)):
        return _plain(t.elem)
    if isinstance(t, T.TupleType):
        return all(_plain(e) for e in t.elems)
    return False


NATIVE_FLOOR = 0.90
"""The share of scalar/list-signature corpus entries that must run natively (issue 12's
target): every entry counts, including those whose constructs have no native layout
(strings, dicts with str keys, function values that escape) — the closing notes list
them. Measured 305 of 331 (92 %) when sets and iterator values went native."""


def test_native_share():
    total = native = 0
    for path in PROGRAMS:
        mod = load_module(path)
        for entry in {e for e, _ in getattr(mod, "CASES", [])}:
            try:
                sf = _native(path, entry)
            except ember.errors.EmberError:
                continue
            ft = sf.module.funcs[sf.entry].attrs["type"]
            if all(_plain(t) for t in ft.params) and _plain(ft.ret) and \
                    not _TENSORS.search(sf.graph):  # (tensors made inside: not scalar code)
                total += 1
                native += sf.backend == "llvm"
    assert total and native / total >= NATIVE_FLOOR, f"{native}/{total} native"
