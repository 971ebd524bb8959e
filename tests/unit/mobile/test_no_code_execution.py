"""An artifact cannot make the loader run code: text in it is never executed."""

import json
import os
import re

import pytest

from ember import mobile
from ember.errors import ArtifactError
from ember.interpreter.artifact_writer import write_artifact
from ember.interpreter.assembler import assemble

from .test_artifact import _rewrite

PAYLOAD = "__import__('os').system('touch {marker}')"


@pytest.fixture()
def marker(tmp_path):
    path = tmp_path / "pwned"
    yield path
    assert not path.exists(), "artifact data was executed"


def _attack(artifact, marker, edit):
    payload = PAYLOAD.format(marker=marker)
    data = _rewrite(artifact.read_bytes(), lambda m, f: edit(m, f, payload))
    try:
        m = mobile.loads(data)
        for name in m.entries:
            try:
                m.entry(name)(3)
            except Exception:  # noqa: BLE001 - wrong args are fine, execution is not
                pass
    except ArtifactError:
        pass


def test_constants(artifact, marker):
    def edit(m, f, payload):
        import json
        consts = json.loads(f["consts.json"])
        consts[0] = [["s", payload] for _ in consts[0]]
        f["consts.json"] = json.dumps(consts).encode()
    _attack(artifact, marker, edit)


def test_names_and_filenames(artifact, marker):
    def edit(m, f, payload):
        m["functions"][0]["name"] = payload
        m["functions"][0]["params"] = [payload]
        for s in m["sources"]:
            s["filename"] = payload
        m["producer"] = payload
    _attack(artifact, marker, edit)


def test_operator_names(artifact, marker):
    def edit(m, f, payload):
        m["operators"][0] = payload
    _attack(artifact, marker, edit)


def test_class_fields_and_types(artifact, marker):
    def edit(m, f, payload):
        m["classes"] = [{"name": payload, "kind": "class", "fields": ["__class__", payload],
                         "field_types": [payload, "i64"]}]
        m["functions"][0]["param_types"] = [payload]
    _attack(artifact, marker, edit)


def test_runtime_has_no_eval_exec_pickle():
    import ember.mobile as pkg
    root = os.path.dirname(pkg.__file__)
    for name in os.listdir(root):
        if name.endswith(".py"):
            text = open(os.path.join(root, name)).read()
            for bad in ("eval(", "exec(", "pickle", "__import__"):
                assert bad not in text, f"{bad} in ember/mobile/{name}"


def test_payload_in_type_and_exception_constants(artifact, marker):
    def edit(m, f, payload):
        import json
        consts = json.loads(f["consts.json"])
        consts[0] = [["y", payload], ["s", payload]] + consts[0]
        f["consts.json"] = json.dumps(consts).encode()
        m["functions"][0]["param_types"] = [f"optional<{payload}>"]
        m["functions"][0]["ret_type"] = payload
    _attack(artifact, marker, edit)


def test_payload_in_entry_metadata_and_tensor_names(tensor_artifact, marker):
    def edit(m, f, payload):
        m["entries"] = {payload: m["entries"][next(iter(m["entries"]))]}
        m["default_entry"] = payload
        m["metadata"] = {payload: payload}
        m["tensors"][0]["name"] = payload
    _attack(tensor_artifact, marker, edit)


_GENERATED = re.compile(r"^(r\d+|_t|_exc\d*|_else\d+|_fn\d+|_k\d+|_cls\d+|_c\d+_\d+|"
                        r"_isinst\d+|_narrow\d+|_range|_len|_float|_partial|_ovf|_unreachable|"
                        r"append|get|f\d+)$")


def test_payload_everywhere_is_inert_and_never_becomes_a_name(tmp_path, marker):
    payload = PAYLOAD.format(marker=marker)
    text = f"""
class C(x: i64) class

function f(a: i64) -> i64
  .entry run
  LOADK  r1 {json.dumps(payload)}
  NEWOBJ r2 !C (r0)
  GETF   r3 r2 0
  TRY    ->end
  KCALL  r4 str.len (r1)
  KCALL  r3 int.add (r3, r4)
  EXCEPT r5 [ValueError] ->end
  RAISE  r5
end:
  END
  RETURN r3
"""
    program = assemble(text, sources=[(payload, payload + "\n")])
    program.classes[0].name = payload
    program.classes[0].fields = [payload]
    f = program.functions[0]
    f.name, f.qualname, f.params, f.lines = payload, payload, [payload], [(0, 0, 1)]
    program.entries = {payload: 0}
    program.metadata = {payload: payload}
    path = tmp_path / "p.ember"
    write_artifact(program, path)
    m = mobile.load(path)
    assert m(1) == 1 + len(payload)
    for fn in m._fns:
        code = fn.__code__
        names = code.co_names + code.co_varnames + tuple(
            n for c in code.co_consts if hasattr(c, "co_names") for n in c.co_names)
        assert all(_GENERATED.match(n) for n in names), names
