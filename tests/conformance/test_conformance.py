"""TorchScript conformance: every case (a checkScript-style program, written for
TorchScript's CompilationUnit) agrees with CPython under ember in process and after save
-> ember.mobile.load. The gaps still open are listed with their reason (strict xfail: a
gap that closes fails until it is removed from the list)."""

from __future__ import annotations

import importlib
import pathlib

import pytest

from .runner import check_case

pytest.importorskip("torch")  # CPython's side of the tensor cases runs torch

HERE = pathlib.Path(__file__).parent
MODULES = sorted(p.stem for p in HERE.glob("cases_*.py"))

GAPS = {
    ("cases_misc", 21): "a dtype returned to Python is its numpy name",
    ("cases_misc", 22): "a dtype returned to Python is its numpy name",
}


def _cases():
    for name in MODULES:
        mod = importlib.import_module(f"tests.conformance.{name}")
        for i, (src, args) in enumerate(mod.CASES):
            marks = [pytest.mark.xfail(reason=GAPS[(name, i)], strict=True)] \
                if (name, i) in GAPS else []
            yield pytest.param(src, args, id=f"{name}[{i}]", marks=marks)


@pytest.mark.parametrize("source, args", list(_cases()))
def test_case(source, args):
    why = check_case(source, args)
    assert why is None, why
