"""Scripting a module re-parses its class's source: Python's warnings about that source
(here an invalid escape in a docstring, which Python reported when it compiled the file)
are not raised again from ember's parse."""

from __future__ import annotations

import importlib.util
import sys
import warnings

import ember


def test_reparsing_a_class_does_not_warn_again(tmp_path, monkeypatch):
    path = tmp_path / "escapes_model.py"
    path.write_text(
        "import ember\n"
        "class Net(ember.nn.Module):\n"
        "    '''y = \\{x\\} + 1 (a LaTeX-style docstring, not a raw string)'''\n"
        "    def forward(self, x: int) -> int:\n"
        "        return x + 1\n")
    spec = importlib.util.spec_from_file_location("escapes_model", path)
    mod = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "escapes_model", mod)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # (Python's own warning, at import)
        spec.loader.exec_module(mod)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        sm = ember.script(mod.Net())
    assert sm(2) == 3
