"""The artifact format carries fused groups (version 7); older runtimes and bad groups
are refused with ArtifactError."""

import io
import json
import zipfile

import pytest

from ember import mobile
from ember.errors import ArtifactError
from ember.interpreter.artifact_writer import artifact_bytes
from ember.mobile import manifest as MF
from tests.unit.fusion.util import programs

SRC = ("import torch\n\n"
       "def f(x: torch.Tensor) -> torch.Tensor:\n"
       "    return torch.tanh(x * 2.0 + 1.0)\n")


def _manifest(data: bytes) -> dict:
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        return json.loads(z.read("manifest.json"))


def _rewrite(data: bytes, change) -> bytes:
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        entries = {n: z.read(n) for n in z.namelist()}
    m = json.loads(entries["manifest.json"])
    change(m)
    entries["manifest.json"] = json.dumps(m).encode()
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        for n, b in entries.items():
            z.writestr(n, b)
    return buf.getvalue()


def _fused_artifact(tmp_path):
    _, fused = programs(SRC)
    return artifact_bytes(fused, "f")


def test_version_7_holds_a_group(tmp_path):
    m = _manifest(_fused_artifact(tmp_path))
    assert m["version"] >= 7
    groups = [c for cs in m["consts"] for c in cs if c[0] == "g"]
    assert [s[0] for s in groups[0][1]["steps"]] == [
        "tensor.mul_scalar", "tensor.add_scalar", "tensor.tanh"]


def test_an_older_runtime_refuses_it_naming_both_versions(tmp_path, monkeypatch):
    path = tmp_path / "f.ember"
    path.write_bytes(_fused_artifact(tmp_path))
    monkeypatch.setattr(MF, "READS", (1, 6))
    with pytest.raises(ArtifactError, match=r"version \d+ is newer than this runtime reads "
                                            r"\(1-6\)"):
        mobile.load(path)


@pytest.mark.parametrize("change, message", [
    (lambda g: g["steps"].__setitem__(0, ["tensor.relu_", [0, 1]]), "cannot be fused"),
    (lambda g: g["steps"][0][1].__setitem__(0, 99), "refers ahead"),
    (lambda g: g["steps"][0][1].pop(), "operands"),
    (lambda g: g.__setitem__("outputs", [0]), "outputs must be steps"),
    (lambda g: g.__setitem__("outputs", []), "outputs must be steps"),
    (lambda g: g.__setitem__("inputs", 2), "FUSED passes 1 inputs to a group of 2"),
    (lambda g: g["consts"].append(["t", 0]), "bad"),
])
def test_a_bad_group_is_refused(tmp_path, change, message):
    def edit(m):
        for cs in m["consts"]:
            for c in cs:
                if c[0] == "g":
                    change(c[1])
    path = tmp_path / "bad.ember"
    path.write_bytes(_rewrite(_fused_artifact(tmp_path), edit))
    with pytest.raises(ArtifactError, match=message):
        mobile.load(path)


def test_inspect_lists_the_groups(tmp_path):
    path = tmp_path / "f.ember"
    path.write_bytes(_fused_artifact(tmp_path))
    text = mobile.describe(path)
    assert "fused groups (1):\n  f line 4: mul_scalar, add_scalar, tanh (1 inputs, 1 output)" \
        in text
    assert "FUSED" in text
