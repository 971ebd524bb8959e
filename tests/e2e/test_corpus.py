"""The differential corpus test: CPython, ember in process, and save -> ember.mobile.load
must agree on every case (values and types, or exception type and message); the IR of
every program must print -> parse -> print identically; every invalid program must fail
to compile with the expected error class, at the expected line."""

from __future__ import annotations

import pytest

import ember
from ember import errors, mobile
from ember.ir import parse_module, print_module

from .corpus import INVALID, PROGRAMS, invalid_header, load_module, outcome, same_outcome

_SCRIPTED: dict = {}


def _cases():
    for path in PROGRAMS:
        mod = load_module(path)
        for i, (entry, args) in enumerate(getattr(mod, "CASES", [])):
            yield pytest.param(path, entry, args, id=f"{path.stem}[{i}]")


def _compiled(path, entry, tmp_path_factory):
    key = (path, entry)
    if key not in _SCRIPTED:
        fn = getattr(load_module(path), entry)
        sf = ember.script(fn)
        out = tmp_path_factory.mktemp("art") / f"{path.stem}_{entry}.ember"
        sf.save(out)
        _SCRIPTED[key] = (sf, mobile.load(out))
    return _SCRIPTED[key]


@pytest.mark.parametrize("path, entry, args", list(_cases()))
def test_program(path, entry, args, tmp_path_factory):
    fn = getattr(load_module(path), entry)
    want = outcome(fn, args)
    sf, loaded = _compiled(path, entry, tmp_path_factory)
    got = outcome(sf, args)
    assert same_outcome(want, got), f"in process: {got!r}, CPython: {want!r}"
    got_loaded = outcome(loaded, args)
    assert same_outcome(want, got_loaded), f"loaded: {got_loaded!r}, CPython: {want!r}"


@pytest.mark.parametrize("path", PROGRAMS, ids=[p.stem for p in PROGRAMS])
def test_program_as_compilation_unit(path):
    """The program's text, given to ember.CompilationUnit as TorchScript's string frontend
    takes it, gives CPython's outcome on every case."""
    mod = load_module(path)
    cu = ember.CompilationUnit(path.read_text(), filename=path.name)
    for entry, args in getattr(mod, "CASES", []):
        want, got = outcome(getattr(mod, entry), args), outcome(getattr(cu, entry), args)
        assert same_outcome(want, got), f"{entry}{args!r}: {got!r}, CPython: {want!r}"


@pytest.mark.parametrize("path", PROGRAMS, ids=[p.stem for p in PROGRAMS])
def test_ir_roundtrip(path, tmp_path_factory):
    mod = load_module(path)
    entries = {e for e, _ in getattr(mod, "CASES", [])}
    for entry in entries:
        sf, _ = _compiled(path, entry, tmp_path_factory)
        text = sf.graph
        again = print_module(parse_module(text))
        assert again == text


@pytest.mark.parametrize("path", INVALID, ids=[p.stem for p in INVALID])
def test_invalid(path):
    head = invalid_header(path)
    cls = getattr(errors, head["error"])
    with pytest.raises(errors.CompileError) as ei:
        ember.CompilationUnit(path.read_text(), filename=str(path))
    e = ei.value
    assert isinstance(e, cls), f"raised {type(e).__name__}: {e}"
    assert e.line == int(head["line"]), str(e)
    assert head["match"].lower() in str(e).lower(), str(e)
