"""The `ember` command line: compile, run and inspect, and how each reports a failure."""

from __future__ import annotations

import numpy as np
import pytest

from ember.cli import main

SRC = '''
from typing import List


def total(xs: List[int], scale: float = 2.0) -> float:
    s = 0
    for x in xs:
        s += x
    return s * scale


def div(a: int, b: int) -> int:
    return a // b
'''


@pytest.fixture
def art(tmp_path):
    src = tmp_path / "prog.py"
    src.write_text(SRC)
    out = {}
    for name in ("total", "div"):
        out[name] = str(tmp_path / f"{name}.ember")
        assert main(["compile", f"{src}:{name}", "-o", out[name]]) == 0
    return out


def test_compile_run_and_defaults(art, capsys):
    capsys.readouterr()
    assert main(["run", art["total"], "[1, 2, 3]"]) == 0
    assert main(["run", art["total"], "[1, 2, 3]", "0.5"]) == 0
    assert capsys.readouterr().out.split() == ["12.0", "3.0"]


def test_run_reads_npy_arguments(tmp_path, capsys):
    src = tmp_path / "t.py"
    src.write_text("import torch\n\ndef double(x: torch.Tensor) -> torch.Tensor:\n"
                   "    return x * 2\n")
    art = str(tmp_path / "t.ember")
    assert main(["compile", f"{src}:double", "-o", art]) == 0
    npy = tmp_path / "x.npy"
    np.save(npy, np.arange(3, dtype=np.float32))
    capsys.readouterr()
    assert main(["run", art, str(npy)]) == 0
    out = capsys.readouterr().out
    assert "shape=(3,)" in out and "float32" in out and "[0. 2. 4.]" in out


def test_script_exception_prints_type_message_and_script_traceback(art, capsys):
    capsys.readouterr()
    assert main(["run", art["div"], "1", "0"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("ZeroDivisionError: integer division or modulo by zero")
    assert "ember script traceback" in err and "return a // b" in err
    assert 'File "prog.py", line 13, in div' in err
    assert "cli.py" not in err  # no frames of the command line itself


@pytest.mark.parametrize("args, words", [
    (["1"], "missing required argument 'b'"),
    (['"x"', "1"], "argument 'a' must be int, got str"),
    (["--entry", "nope"], "no entry point 'nope'"),
])
def test_bad_call_is_one_line_and_exit_1(art, capsys, args, words):
    capsys.readouterr()
    assert main(["run", art["div"], *args]) == 1
    err = capsys.readouterr().err
    assert words in err and "Traceback" not in err


def test_inspect_and_missing_files(art, tmp_path, capsys):
    capsys.readouterr()
    assert main(["inspect", art["total"]]) == 0
    out = capsys.readouterr().out
    assert "total(xs: list<i64>, scale: f64) -> f64" in out and "KCALL" in out
    shown = out.split("\n", 1)[1]  # (the first line names the file inspected)
    assert str(tmp_path) not in shown and "source 0: prog.py" in shown  # no builder's path
    assert main(["run", str(tmp_path / "none.ember")]) == 1
    assert "cannot read artifact" in capsys.readouterr().err
    assert main(["compile", str(tmp_path / "none.py:f"), "-o", "x.ember"]) == 1
    assert "no such file" in capsys.readouterr().err
