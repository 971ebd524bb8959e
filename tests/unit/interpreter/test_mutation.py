"""Tensors a program writes in place stay writable (updates persist across calls, in
process and after save -> load, as in torch); a program that writes none gets read-only
weights, and computes the same bits in process and after save -> load."""

from __future__ import annotations

import numpy as np
import pytest

import ember
from ember import mobile
from ember.fuzz.mutators import pack, unpack
from ember.mobile.artifact import read_program

from .mutation_src import Counter, Mlp, Slots


def _loaded(sm, tmp_path):
    sm.save(tmp_path / "m.ember")
    return mobile.load(tmp_path / "m.ember")


def test_an_in_place_buffer_update_persists_in_process_and_after_load(tmp_path):
    sm = ember.script(Counter())
    x = np.ones(2, np.float32)
    assert sm.program.mutable_tensors
    assert [sm(x)[0] for _ in range(2)] == [1.0, 2.0]
    lm = _loaded(sm, tmp_path)  # saved with the state reached: count == 2
    assert [lm(x)[0] for _ in range(2)] == [3.0, 4.0]


def test_item_assignment_into_a_buffer_persists_after_load(tmp_path):
    lm = _loaded(ember.script(Slots()), tmp_path)
    lm(np.ones(2, np.float32), 0)
    np.testing.assert_array_equal(lm(np.full(2, 2.0, np.float32), 2), [3.0, 3.0])


@pytest.mark.parametrize("inplace", [False, True])
def test_results_are_bit_identical_in_process_and_after_load(inplace, tmp_path):
    m = Mlp(inplace).eval()
    sm = ember.script(m)
    # relu(inplace=True) writes into the linear layer's fresh result, never a weight.
    assert sm.program.mutable_tensors is False
    lm = _loaded(sm, tmp_path)
    x = np.random.default_rng(0).standard_normal((5, 16)).astype(np.float32)
    assert np.array_equal(sm(x), lm(x))
    np.testing.assert_allclose(lm(x), m(x), rtol=1e-5, atol=1e-6)
    writable = {a.flags.writeable for _, a in lm.program.tensors}
    assert writable == {False}


def test_an_artifact_without_the_flag_loads_with_writable_tensors(tmp_path):
    sm = ember.script(Mlp())
    sm.save(tmp_path / "m.ember")
    manifest, files = unpack((tmp_path / "m.ember").read_bytes())
    assert manifest.pop("mutable_tensors") is False
    program = read_program(pack(manifest, files))
    assert program.mutable_tensors is True
    lm = mobile.loads(pack(manifest, files))
    assert all(a.flags.writeable for _, a in lm.program.tensors)


def test_a_flag_that_is_not_a_bool_is_an_artifact_error(tmp_path):
    sm = ember.script(Mlp())
    sm.save(tmp_path / "m.ember")
    manifest, files = unpack((tmp_path / "m.ember").read_bytes())
    manifest["mutable_tensors"] = 1
    with pytest.raises(ember.errors.ArtifactError, match="mutable_tensors must be a bool"):
        read_program(pack(manifest, files))


def test_a_write_into_a_fresh_tensor_keeps_weights_read_only_and_a_view_does_not():
    src = '''
def fresh(x: Tensor, w: Tensor) -> Tensor:
    y = x * 2
    y += w
    return y
'''
    cu = ember.CompilationUnit(src)
    from ember.interpreter.mutation import mutates_tensors
    assert not mutates_tensors(cu.fresh.module)
    src_view = '''
def view(x: Tensor, w: Tensor) -> Tensor:
    y = x.view(-1)
    y += w
    return x
'''
    cu = ember.CompilationUnit(src_view)
    assert mutates_tensors(cu.view.module)
    x = np.ones((2, 2), np.float32)
    assert cu.view(x, np.ones(4, np.float32)).tolist() == [[2.0, 2.0], [2.0, 2.0]]
