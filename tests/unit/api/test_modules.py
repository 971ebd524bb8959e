"""ember.script of ember.nn modules: eager, in process and save -> ember.mobile.load agree;
containers unroll; None submodules skip their branch; state persists; errors point at the
source; freezing folds attributes into constants."""

from __future__ import annotations

import numpy as np
import pytest

import ember
from ember import errors, mobile
from ember.ir import parse_module, print_module, verify_module

from . import modules_src as M


def _x(*shape, seed=1):
    return np.random.default_rng(seed).standard_normal(shape).astype(np.float32)


def _loaded(sm, tmp_path, name="m.ember"):
    path = tmp_path / name
    sm.save(path)
    return mobile.load(path)


@pytest.mark.parametrize("cls, shape", [(M.Stack, (2, 4)), (M.Heads, (5, 3)),
                                        (M.Tied, (2, 16))])
def test_eager_in_process_and_loaded_agree(cls, shape, tmp_path):
    m = cls()
    x = _x(*shape)
    want = m(x)
    sm = ember.script(m)
    got = sm(x)
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(_loaded(sm, tmp_path)(x), want, rtol=1e-5, atol=1e-5)


def test_ir_round_trips_and_containers_unroll():
    sm = ember.script(M.Stack(), optimize=False)
    text = print_module(sm.module)
    again = parse_module(text)
    verify_module(again)
    assert print_module(again) == text
    assert "module @ModuleList {_0: !Affine, _1: !Affine.2, _2: !Affine.3}" in text
    assert "object @self : !Stack" in text
    assert "dense<elided>" in sm.graph and "dense<\"" not in sm.graph
    # the None submodule's branch and the training branch are not compiled
    assert "skip" not in "".join(line for line in text.splitlines() if "call" in line)


def test_module_types_are_shared_by_equal_instances():
    text = ember.script(M.Heads(), optimize=False).graph
    assert text.count("module @Doubler ") == 1
    assert "module @Affine {" in text and "module @Affine.2 {" in text


def test_state_persists_across_calls(tmp_path):
    m = M.Counter()
    sm = ember.script(m)
    x = _x(3)
    np.testing.assert_allclose(sm(x), x + m.offset * 1.0, rtol=1e-6)
    np.testing.assert_allclose(sm(x), x + m.offset * 2.0, rtol=1e-6)
    assert sm.count() == 2
    loaded = _loaded(sm, tmp_path)
    assert loaded.count() == 0  # the artifact holds the state at script time
    loaded(x)
    assert loaded.count() == 1
    assert m.calls == 0  # the Python module is not touched


def test_exported_methods_and_defaults(tmp_path):
    sm = ember.script(M.Exported())
    assert sm.entries == ["forward", "describe", "twice"]
    assert sm.describe("k") == "k:3"
    assert sm.twice() == 14 and sm.twice(1) == 8
    loaded = _loaded(sm, tmp_path)
    assert loaded.describe("z") == "z:3" and loaded.twice() == 14
    np.testing.assert_array_equal(loaded(np.ones(2, np.float32)), np.full(2, 3, np.float32))


def test_tied_tensors_are_stored_once(tmp_path):
    sm = ember.script(M.Tied(), optimize=False)
    path = tmp_path / "tied.ember"
    sm.save(path)
    prog = mobile.load_program(path)
    assert len(prog.objects) == 3  # root, shared Affine, c
    raw = sum(a.nbytes for a in {id(a): a for _, a in prog.tensors}.values())
    assert path.stat().st_size < raw + 16 * 16 * 4 + 40_000  # weight shared, not doubled


def test_int_and_bool_tensors_and_tuples(tmp_path):
    m = M.Ints()
    sm = ember.script(m)
    for i in range(3):
        np.testing.assert_array_equal(sm(i), m(i))
    np.testing.assert_array_equal(_loaded(sm, tmp_path)(2), m(2))
    assert sm(1).dtype == np.int64


def test_frozen_module_has_no_attribute_reads(tmp_path):
    m = M.Stack()
    x = _x(2, 4)
    fz = ember.freeze(m)
    assert fz.frozen
    text = print_module(fz.module)
    assert "obj.get" not in text and "object @" not in text
    np.testing.assert_allclose(fz(x), m(x), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(_loaded(fz, tmp_path)(x), m(x), rtol=1e-5, atol=1e-5)
    again = ember.freeze(ember.script(m, optimize=False))
    np.testing.assert_allclose(again(x), m(x), rtol=1e-5, atol=1e-5)


def test_freezing_keeps_mutable_state():
    fz = ember.freeze(M.Counter())
    x = _x(3)
    fz(x)
    fz(x)
    assert fz.count() == 2
    assert 'obj.set' in print_module(fz.module)


def test_frozen_artifact_is_close_to_raw_weight_bytes(tmp_path):
    m = M.Tied()
    path = tmp_path / "f.ember"
    ember.freeze(m).save(path)
    raw = m.a.weight.nbytes + m.a.bias.nbytes + m.c.bias.nbytes
    assert path.stat().st_size <= 1.05 * raw + 16_000  # weights + manifest and code


@pytest.mark.parametrize("cls, err, line_of, match", [
    (M.BadAttr, errors.UnsupportedError, "x * self.thing", "object value"),
    (M.Missing, errors.NameResolutionError, "self.nothing_here", "no attribute"),
    (M.BreakInUnrolled, errors.UnsupportedError, "break", "unrolled"),
    (M.DynamicIndex, errors.UnsupportedError, "self.layers[i]", "constant int index"),
])
def test_errors_point_at_the_source(cls, err, line_of, match):
    import inspect
    with pytest.raises(err, match=match) as ei:
        ember.script(cls())
    lines, first = inspect.getsourcelines(cls)
    want = first + next(i for i, s in enumerate(lines) if line_of in s)
    assert ei.value.line == want, str(ei.value)
    assert ei.value.filename.endswith("modules_src.py")


def test_module_without_forward_is_refused():
    with pytest.raises(errors.UnsupportedError, match="no forward"):
        ember.script(M.NoForward())


def test_script_of_a_module_class_says_what_to_do():
    with pytest.raises(errors.UnsupportedError, match=r"ember.script\(Stack\(\)\)"):
        ember.script(M.Stack)


def test_class_body_constants_are_visible():
    m = M.ClassConstants()
    x = _x(3)
    np.testing.assert_array_equal(ember.script(m)(x), m(x))


def test_module_class_from_a_module_not_in_sys_modules(tmp_path):
    import importlib.util
    path = tmp_path / "generated_net.py"
    path.write_text("import ember.nn as nn\n\n\nclass Gen(nn.Module):\n"
                    "    def forward(self, x):\n        return x + x\n")
    spec = importlib.util.spec_from_file_location("generated_net", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)  # not registered in sys.modules, like generated code
    x = _x(2)
    np.testing.assert_array_equal(ember.script(mod.Gen())(x), x + x)
