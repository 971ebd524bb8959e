"""Constant objects (module instances): IR round trip, artifact round trip, shared mutable
state, and hostile object tables failing at load with ArtifactError."""

import numpy as np
import pytest

from ember import mobile
from ember.errors import ArtifactError, VerifyError
from ember.interpreter.artifact_writer import artifact_bytes
from ember.interpreter.pipeline import compile_to_program
from ember.ir import parse_module, print_module, verify_module

from .test_artifact import _rewrite

IR = '''class @Sub {w: tensor<f32, [2]>, n: i64}

class @Net {sub: !Sub, sizes: list<i64>, pair: tuple<i64, str>, d: dict<str, f64>, calls: i64}

tensor @sub.w : tensor<f32, [2]> = dense<"0000803f00000040">

tensor @unused : tensor<f32, [1]> = dense<"00000000">

object @self.sub : !Sub = {w = @sub.w, n = 3}

object @self : !Net = {sub = @self.sub, sizes = [1, 2], pair = [3, "a"], d = {"x": 1.5}, calls = 0}

export func @weight() -> tensor<f32, [2]> {
  %s = const @self : !Net
  %sub = obj.get %s {field = "sub"} : !Sub
  %w = obj.get %sub {field = "w"} : tensor<f32, [2]>
  return %w
}

export func @count() -> i64 {
  %s = const @self : !Net
  %c = obj.get %s {field = "calls"} : i64
  %one = const 1 : i64
  %c2 = int.add %c, %one : i64
  obj.set %s, %c2 {field = "calls"}
  return %c2
}

export func @pair() -> tuple<i64, str> {
  %s = const @self : !Net
  %p = obj.get %s {field = "pair"} : tuple<i64, str>
  return %p
}
'''


def _module():
    m = parse_module(IR)
    verify_module(m)
    return m


def _bytes():
    return artifact_bytes(compile_to_program(_module(), optimize=False))


def test_ir_round_trip_is_exact():
    assert print_module(parse_module(IR)) == IR


def test_objects_load_and_keep_state():
    m = mobile.loads(_bytes())
    np.testing.assert_array_equal(m.weight(), np.array([1.0, 2.0], np.float32))
    assert m.pair() == (3, "a")
    assert [m.count(), m.count(), m.count()] == [1, 2, 3]
    prog = mobile.read_program(_bytes())
    assert [n for n, _ in prog.tensors] == ["sub.w"]  # @unused is not stored


def test_verifier_checks_object_values():
    bad = IR.replace('calls = 0}', 'calls = "zero"}')
    with pytest.raises(VerifyError, match="field 'calls'"):
        verify_module(parse_module(bad))
    with pytest.raises(VerifyError, match="does not define"):
        verify_module(parse_module(IR.replace("const @self :", "const @other :")))


def _objects_edit(fn):
    def edit(manifest, files):
        fn(manifest["objects"])
    return edit


@pytest.mark.parametrize("edit, match", [
    (lambda objs: objs[0].update({"class": 99}), "names no class"),
    (lambda objs: objs[0]["fields"].pop(), "does not fit class"),
    (lambda objs: objs[1]["fields"].__setitem__(0, ["o", 1]), "no earlier object"),
    (lambda objs: objs[0]["fields"].__setitem__(1, ["s", "three"]), "field 'n'"),
    (lambda objs: objs[0]["fields"].__setitem__(0, ["t", 7]), "names no tensor"),
    (lambda objs: objs[1]["fields"].__setitem__(1, ["l"] * 2), "bad object field value"),
    (lambda objs: objs.append("x"), r"objects\[2\] must be an object"),
])
def test_hostile_object_tables_fail_at_load(edit, match):
    data = _rewrite(_bytes(), _objects_edit(edit))
    with pytest.raises(ArtifactError, match=match):
        mobile.loads(data)


def test_deeply_nested_object_value_fails_at_load():
    def deep(objs):
        v = ["i", 1]
        for _ in range(100):
            v = ["l", [v]]
        objs[1]["fields"][1] = v
    with pytest.raises(ArtifactError, match="nested too deeply"):
        mobile.loads(_rewrite(_bytes(), _objects_edit(deep)))


def test_object_constant_index_is_checked():
    def edit(manifest, files):
        import json
        consts = json.loads(files["consts.json"])
        for fn_consts in consts:
            for c in fn_consts:
                if c[0] == "o":
                    c[1] = 5
        files["consts.json"] = json.dumps(consts).encode()
    with pytest.raises(ArtifactError, match="bad constant"):
        mobile.loads(_rewrite(_bytes(), edit))
