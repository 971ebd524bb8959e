"""Artifacts name their sources without the builder's absolute paths (portable.py)."""

from __future__ import annotations

import json
import os
import sys
import zipfile

import ember
from ember.interpreter.portable import portable_names


def test_names_relative_to_the_nearest_import_directory(tmp_path, monkeypatch):
    pkg = tmp_path / "proj" / "pkg"
    pkg.mkdir(parents=True)
    monkeypatch.setattr(sys, "path", [str(tmp_path), str(tmp_path / "proj")])
    monkeypatch.chdir(tmp_path.parent)
    names = [str(pkg / "model.py"), str(tmp_path / "top.py"), "<string>", "given.py"]
    assert portable_names(names) == ["pkg/model.py", "top.py", "<string>", "given.py"]


def test_outside_every_import_directory_a_file_keeps_its_base_name(tmp_path, monkeypatch):
    monkeypatch.setattr(sys, "path", [])
    monkeypatch.chdir(tmp_path)
    other = os.path.join(os.sep, "elsewhere", "a", "m.py")
    assert portable_names([other]) == ["m.py"]
    clash = [os.path.join(os.sep, "x", "a", "m.py"), os.path.join(os.sep, "y", "b", "m.py"),
             os.path.join(os.sep, "x", "a", "m.py")]
    assert portable_names(clash) == ["a/m.py", "b/m.py", "a/m.py"]


def test_an_artifact_holds_no_absolute_path(tmp_path):
    path = tmp_path / "art.ember"
    cu = ember.CompilationUnit("def f(x: int) -> int:\n    assert x > 0, 'no'\n    return x\n",
                               filename=str(tmp_path / "unit.py"))
    cu.f.save(path)
    with zipfile.ZipFile(path) as zf:
        manifest = zf.read("manifest.json").decode()
    assert str(tmp_path) not in manifest and os.getcwd() not in manifest
    assert [s["filename"] for s in json.loads(manifest)["sources"]] == ["unit.py"]
    loaded = ember.mobile.load(path)
    try:
        loaded(0)
    except AssertionError as e:
        assert 'File "unit.py", line 2, in f' in "\n".join(e.__notes__)
    else:
        raise AssertionError("expected the script's AssertionError")
