"""`ember fuzz` end to end: a short fixed-seed run of every mode prints its summary and
exits 0; a failing campaign exits 1."""

from __future__ import annotations

import io

import pytest

from ember import cli
from ember.fuzz import cli as fuzz_cli


def test_fuzz_command_runs_every_mode(tmp_path, capsys):
    status = cli.main(["fuzz", "--seconds", "4", "--seed", "1", "--programs", "8",
                       "--mutations", "60", "--out", str(tmp_path)])
    out = capsys.readouterr().out
    assert status == 0, out
    for line in ("programs: 8 generated, 8 compiled, 8 agreed", "artifacts: 60 mutations",
                 "passes:", "threads:", "total: 0 failure(s)"):
        assert line in out


def test_failures_set_the_exit_status(tmp_path, monkeypatch):
    from ember.fuzz import programs

    def failing(*a, **k):
        stats = programs.Stats(generated=1, compiled=1)
        stats.reasons[("mismatch", ("mismatch", "x"))] += 1
        return stats
    monkeypatch.setattr(programs, "run_programs", failing)
    out = io.StringIO()
    assert fuzz_cli.run(seconds=1, seed=2, mode="programs", out=str(tmp_path), stream=out) == 1
    assert "total: 1 failure(s)" in out.getvalue()


def test_fuzz_command_compares_the_llvm_backend(tmp_path, capsys):
    pytest.importorskip("llvmlite")
    status = cli.main(["fuzz", "--mode", "programs", "--programs", "6", "--seed", "4",
                       "--llvm", "--out", str(tmp_path)])
    out = capsys.readouterr().out
    assert status == 0, out
    assert "engines cpython, vm, artifact, llvm" in out
    assert "llvm: " in out and "ran natively (full " in out and "native " in out


def test_no_llvm_leaves_it_out(tmp_path, capsys):
    status = cli.main(["fuzz", "--mode", "programs", "--programs", "2", "--seed", "4",
                       "--no-llvm", "--out", str(tmp_path)])
    out = capsys.readouterr().out
    assert status == 0 and "engines cpython, vm, artifact\n" in out and "llvm:" not in out


def test_llvm_without_llvmlite_is_skipped_cleanly(tmp_path, monkeypatch):
    from ember.fuzz import oracle

    monkeypatch.setattr(oracle, "llvm_available", lambda: False)
    out = io.StringIO()
    assert fuzz_cli.run(seed=2, mode="programs", programs=2, out=str(tmp_path), stream=out,
                        llvm=True) == 0
    assert "llvm: skipped (llvmlite is not installed)" in out.getvalue()
    assert "engines cpython, vm, artifact\n" in out.getvalue()


def test_fuzz_command_grad_mode(tmp_path, capsys):
    status = cli.main(["fuzz", "--mode", "grad", "--programs", "4", "--seed", "3",
                       "--no-llvm", "--out", str(tmp_path)])
    out = capsys.readouterr().out
    assert status == 0, out
    assert "grad: 4 generated" in out and "total: 0 failure(s)" in out
