"""The loader checks an artifact's int8 weights, scales and zero points (ArtifactError)."""

import numpy as np
import pytest

import ember
import ember.nn as enn
from ember.errors import ArtifactError


def program_of(q, tmp_path):
    path = str(tmp_path / "q.ember")
    q.save(path)
    return ember.mobile.load_program(path)


def replace_tensor(program, name_part, fn):
    for i, (name, arr) in enumerate(program.tensors):
        if name_part in name:
            program.tensors[i] = (name, fn(arr.copy()))
            return name
    raise AssertionError(f"no tensor named like {name_part!r}")


def bad(value):
    def fn(a):
        a[0] = value
        return a
    return fn


@pytest.fixture
def mlp():
    return enn.Sequential(enn.Linear(8, 6), enn.ReLU(), enn.Linear(6, 3))


@pytest.mark.parametrize("mode", ["dynamic", "weight_only"])
@pytest.mark.parametrize("value,message", [(-1.0, "finite and positive"),
                                           (np.inf, "finite and positive"),
                                           (np.nan, "finite and positive")])
def test_bad_weight_scales_are_refused(mlp, tmp_path, mode, value, message):
    program = program_of(ember.quantize(mlp, mode), tmp_path)
    ember.mobile.build(program)  # the good one loads
    replace_tensor(program, "scale", bad(value))
    with pytest.raises(ArtifactError, match=message):
        ember.mobile.build(program)


def test_scale_counts_and_code_dtypes_are_checked(mlp, tmp_path):
    program = program_of(ember.quantize(mlp, "dynamic"), tmp_path)
    replace_tensor(program, "scale", lambda a: np.concatenate([a, a]))
    with pytest.raises(ArtifactError, match="weight scales for"):
        ember.mobile.build(program)
    program = program_of(ember.quantize(mlp, "dynamic"), tmp_path)
    replace_tensor(program, "int8", lambda a: a.astype(np.float32))
    with pytest.raises(ArtifactError, match="int8 weight codes expected"):
        ember.mobile.build(program)


def test_static_zero_points_and_scales_are_checked(mlp, tmp_path):
    rng = np.random.default_rng(0)
    calib = [rng.standard_normal((4, 8)).astype(np.float32) for _ in range(3)]
    q = ember.quantize(mlp, "static", calibration=calib)
    program = program_of(q, tmp_path)
    ember.mobile.build(program)
    for f in program.functions:
        for i, c in enumerate(f.consts):
            if isinstance(c, int) and not isinstance(c, bool) and 0 < c < 256:
                f.consts[i] = 300  # out of any code range
    with pytest.raises(ArtifactError, match="zero point"):
        ember.mobile.build(program)
