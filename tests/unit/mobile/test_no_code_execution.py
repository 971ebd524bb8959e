"""An artifact cannot make the loader run code: text in it is never executed."""

import os

import pytest

from ember import mobile
from ember.errors import ArtifactError

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
