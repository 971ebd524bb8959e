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
    pytest.importorskip("torch")  # the source file imports it
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


SRC_MIXED = SRC + '''

def shout(s: str) -> str:
    return s + "!"


def both(xs: List[int], s: str) -> int:
    return div(len(xs), 1) + len(shout(s))
'''


@pytest.fixture
def mixed_src(tmp_path):
    pytest.importorskip("llvmlite")
    src = tmp_path / "prog.py"
    src.write_text(SRC_MIXED)
    return str(src)


def test_run_a_source_natively_or_on_the_vm(mixed_src, capsys):
    capsys.readouterr()
    for backend in ("llvm", "vm"):
        assert main(["run", "--backend", backend, f"{mixed_src}:total", "[1, 2, 3]"]) == 0
        assert main(["run", "--backend", backend, f"{mixed_src}:div", "7", "-2"]) == 0
        assert main(["run", "--backend", backend, f"{mixed_src}:div", "1", "0"]) == 1
        out, err = capsys.readouterr()
        assert out.split() == ["12.0", "-4"], backend
        assert err.startswith("ZeroDivisionError: integer division or modulo by zero")
        assert 'prog.py", line 13, in div' in err and "cli.py" not in err


def test_inspect_a_source_lists_where_each_function_runs(mixed_src, capsys):
    capsys.readouterr()
    assert main(["inspect", f"{mixed_src}:div"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].endswith("(backend llvm): entry div runs on llvm")
    assert out[1].split() == ["div", "llvm"]
    assert main(["inspect", f"{mixed_src}:both"]) == 0
    rows = {line.split()[0]: line.split(None, 2)[1:]
            for line in capsys.readouterr().out.splitlines()[1:]}
    assert rows["both"][0] == "vm" and "prog.py:" in rows["both"][1]
    assert main(["inspect", "--backend", "vm", f"{mixed_src}:div"]) == 0
    assert "entry div runs on vm" in capsys.readouterr().out


def test_compile_with_llvm_lists_functions_and_saves_the_vm_artifact(mixed_src, tmp_path,
                                                                     capsys):
    out = str(tmp_path / "total.ember")
    capsys.readouterr()
    assert main(["compile", f"{mixed_src}:total", "-o", out, "--backend", "llvm"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith(f"wrote {out}") and lines[1].split() == ["total", "llvm"]
    assert main(["run", out, "[4]"]) == 0
    assert capsys.readouterr().out.split() == ["8.0"]


def test_backend_llvm_is_for_sources(art, capsys):
    capsys.readouterr()
    assert main(["run", "--backend", "llvm", art["div"], "1", "2"]) == 1
    assert "ember run --backend llvm FILE.py:NAME" in capsys.readouterr().err
    assert main(["inspect", "--backend", "llvm", art["div"]]) == 1
    assert "--backend is for FILE.py:NAME" in capsys.readouterr().err
