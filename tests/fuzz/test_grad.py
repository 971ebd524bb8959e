"""Grad mode in CI: a fixed-seed run of generated differentiable programs agrees with
finite differences and torch.autograd (rejections only where differentiating again is
refused), the programs are deterministic, and the oracle catches a wrong rule, a wrong
structure and an artifact that differs."""

from __future__ import annotations

import numpy as np
import pytest

from ember.fuzz import grad_campaign, grad_oracle
from ember.fuzz.gradgen import generate_grad
from ember.ops.registry import VJP

CI_SEED = 11
CI_PROGRAMS = 16


def _report(stats) -> str:
    return "\n".join(f"{s} {st} {k}: {d[:300]}" for s, st, k, d, _ in stats.failures[:5])


def test_fixed_seed_grad_campaign_agrees(tmp_path):
    stats = grad_campaign.run_grad(CI_SEED, count=CI_PROGRAMS, out_dir=str(tmp_path),
                                   llvm=False)
    assert stats.generated == CI_PROGRAMS
    wrong = [f for f in stats.failures if not (f[1] == "rejected" and f[2] == "gradgrad")]
    assert not wrong, _report(stats)
    assert stats.agreed >= CI_PROGRAMS * 3 // 4
    if grad_oracle.torch_available():  # (tensor programs need torch as their reference)
        assert stats.tensor_programs and stats.tensor_programs < CI_PROGRAMS  # both kinds


def test_scalar_programs_without_torch_use_finite_differences_only():
    stats = grad_campaign.run_grad(3, count=4, llvm=False, use_torch=False)
    assert stats.tensor_programs == 0
    assert stats.agreed + stats.statuses["rejected"] == 4, _report(stats)


def test_programs_are_deterministic():
    a, b = generate_grad(5), generate_grad(5)
    assert a.source == b.source and repr(a.cases) == repr(b.cases)
    assert "def f(" in a.source
    assert generate_grad(6, tensors=True).tensors and not generate_grad(6, tensors=False).tensors


def test_a_wrong_rule_is_a_mismatch(monkeypatch, tmp_path):
    import ember.ops.vjp_scalar  # noqa: F401 - the rules are registered

    right = VJP["math.sin"]

    def wrong(e, a, out, g):
        return [e.op("float.mul", right(e, a, out, g)[0], 1.001)]
    monkeypatch.setitem(VJP, "math.sin", wrong)
    stats = grad_campaign.run_grad(2, count=30, llvm=False, use_torch=False,
                                   out_dir=str(tmp_path))
    found = [f for f in stats.failures if f[1] == "mismatch" and f[2] == "fd"]
    assert found, _report(stats)
    text = open(found[0][4]).read()
    assert "math.sin" in text and "CASES = [" in text and "finite differences" in text


def test_structure_and_artifact_checks():
    args = (1.0, np.zeros((2, 3)), (np.zeros(2), 0.5))
    assert grad_oracle.same_structure((0.0, np.ones((2, 3)), (np.ones(2), 1.0)), args)
    assert not grad_oracle.same_structure((0.0, np.ones((3, 2)), (np.ones(2), 1.0)), args)
    assert not grad_oracle.same_structure((0.0, np.ones((2, 3)), [np.ones(2), 1.0]), args)
    assert not grad_oracle.same_structure((np.float64(0), np.ones((2, 3)), (np.ones(2), 1.0)),
                                          args)
    with pytest.raises(grad_oracle.Mismatch, match="loaded"):
        grad_oracle.compare_leaves("loaded", [np.array([1.0, 2.0])],
                                   [np.array([1.0, 2.0 + 1e-15])], 0, exact=True)


def test_finite_differences_skip_a_kink_and_catch_a_slope():
    rng = np.random.default_rng(0)
    assert grad_oracle.check_fd(lambda x: abs(x), (3e-6,), [1.0], rng) > 0  # skipped
    assert grad_oracle.check_fd(lambda x: x * x, (1.5,), [3.0], rng) == 0
    with pytest.raises(grad_oracle.Mismatch, match="fd"):
        grad_oracle.check_fd(lambda x: x * x, (1.5,), [3.01], rng)
