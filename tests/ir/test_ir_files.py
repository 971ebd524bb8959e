"""Runs every tests/ir/**/*.ir file: its RUN lines pipe ember-opt into filecheck.

    // RUN: ember-opt %s -p fold-constants --no-locs | filecheck %s

ember-opt runs in process; filecheck (the Python port of LLVM FileCheck) runs as
the `filecheck` command. Every input also round-trips: print -> parse -> print.
"""

from __future__ import annotations

import io
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from ember.ir import parse_module, print_module
from ember.passes.opt import _split, _strip_comments, main as opt_main

HERE = Path(__file__).parent
FILES = sorted(HERE.glob("**/*.ir"))


def _filecheck_cmd():
    exe = shutil.which("filecheck")
    if exe:
        return [exe]
    return [sys.executable, "-m", "filecheck"]


def _run_lines(path: Path):
    return [line.split("RUN:", 1)[1].strip() for line in path.read_text().splitlines()
            if line.strip().startswith("// RUN:")]


@pytest.mark.parametrize("path", FILES, ids=[str(p.relative_to(HERE)) for p in FILES])
def test_ir_file(path):
    runs = _run_lines(path)
    assert runs, f"{path} has no RUN line"
    for run in runs:
        opt_part, _, check_part = run.partition("|")
        argv = [a.replace("%s", str(path)) for a in shlex.split(opt_part)][1:]
        out, err = io.StringIO(), io.StringIO()
        status = opt_main(argv, stdout=out, stderr=err)
        expect_fail = "--expect-error" in check_part
        if not expect_fail:
            assert status == 0, err.getvalue()
        checked = out.getvalue() if not expect_fail else err.getvalue()
        fc_args = [a.replace("%s", str(path)) for a in shlex.split(check_part)][1:]
        fc_args = [a for a in fc_args if a != "--expect-error"]
        proc = subprocess.run(_filecheck_cmd() + fc_args, input=checked, text=True,
                              capture_output=True)
        assert proc.returncode == 0, proc.stdout + proc.stderr + "\n--- output:\n" + checked


@pytest.mark.parametrize("path", FILES, ids=[str(p.relative_to(HERE)) for p in FILES])
def test_ir_file_roundtrips(path):
    for chunk in _split(path.read_text()):
        if not chunk.strip() or "--expect-error" in path.read_text():
            continue
        once = print_module(parse_module(_strip_comments(chunk)))
        assert print_module(parse_module(once)) == once
