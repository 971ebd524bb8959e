"""The artifact container (format 5): a deflated manifest holding code, lines, constants
and sources, stored tensor data, a bounded inflation; format 4 artifacts still load; the
fixed cost of a small model stays within 5% of its weights."""

import hashlib
import io
import json
import zipfile

import numpy as np
import pytest

import ember
from ember import mobile
from ember.errors import ArtifactError
from ember.interpreter.artifact_writer import artifact_bytes
from ember.interpreter.assembler import assemble
from ember.mobile.manifest import INFLATION_ALLOWANCE, MAX_INFLATION

from .test_artifact_attacks import _load_fails


def _as_format4(data: bytes, deflate_manifest: bool = False, drop=()) -> bytes:
    """A format 5 artifact rewritten as format 4 wrote it: code.bin, lines.bin,
    consts.json and source/N entries of their own, everything stored."""
    zin = zipfile.ZipFile(io.BytesIO(data))
    m = json.loads(zin.read("manifest.json"))
    files = {"code.bin": np.asarray(m.pop("code"), "<i4").tobytes(),
             "lines.bin": np.asarray(m.pop("lines"), "<i4").tobytes(),
             "consts.json": json.dumps(m.pop("consts")).encode(),
             "tensors.bin": zin.read("tensors.bin")}
    for i, s in enumerate(m["sources"]):
        files[f"source/{i}"] = s.pop("text").encode()
        s["entry"] = f"source/{i}"
    for name in drop:
        files.pop(name)
    m.update(version=4, reads=[1, 4],
             checksums={n: hashlib.sha256(b).hexdigest() for n, b in files.items()})
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        z.writestr("manifest.json", json.dumps(m), compress_type=zipfile.ZIP_DEFLATED
                   if deflate_manifest else zipfile.ZIP_STORED)
        for n, b in files.items():
            z.writestr(n, b)
    return out.getvalue()


def test_two_entries_tensors_stored_then_manifest_deflated(tensor_artifact):
    """tensors.bin comes first (written in one pass, hashed as it goes), its data 64-byte
    aligned in the file; the manifest, which records the hash, follows."""
    infos = zipfile.ZipFile(tensor_artifact).infolist()
    assert [(i.filename, i.compress_type) for i in infos] == [
        ("tensors.bin", zipfile.ZIP_STORED), ("manifest.json", zipfile.ZIP_DEFLATED)]
    data = tensor_artifact.read_bytes()
    name_len, extra_len = np.frombuffer(data[26:30], "<u2")
    start = 30 + int(name_len) + int(extra_len)
    assert start % 64 == 0 and data[30:30 + name_len] == b"tensors.bin"
    assert data[start:start + 24] == np.arange(6, dtype="<f4").tobytes()


def test_equal_programs_give_equal_bytes(unit):
    assert artifact_bytes(unit.fib.program) == artifact_bytes(unit.fib.program)


def test_format4_artifacts_still_load(artifact, tensor_artifact):
    m = mobile.loads(_as_format4(artifact.read_bytes()))
    assert m(20) == 6765 and m.total([1.0], scale=3.0) == 3.0
    with pytest.raises(ZeroDivisionError) as ei:
        m.div(1, 0)
    assert 'File "prog.py", line 19, in div' in ei.value.__notes__[0]
    t = mobile.loads(_as_format4(tensor_artifact.read_bytes()))
    np.testing.assert_array_equal(t(), np.arange(6, dtype=np.float32).reshape(2, 3))


@pytest.mark.parametrize("kwargs, match", [
    ({"deflate_manifest": True}, "format 4 artifacts store manifest.json uncompressed"),
    ({"drop": ["code.bin"]}, "missing code.bin"),
    ({"drop": ["source/0"]}, "missing source/0"),
])
def test_format4_rules_still_hold(artifact, kwargs, match):
    _load_fails(_as_format4(artifact.read_bytes(), **kwargs), match)


def test_manifest_inflation_is_bounded(artifact):
    """A small file cannot make the reader inflate and parse a huge manifest."""
    zin = zipfile.ZipFile(io.BytesIO(artifact.read_bytes()))
    m = json.loads(zin.read("manifest.json"))
    text = json.dumps(m).encode() + b" " * (8 << 20)  # valid JSON, 1000:1 compressible
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        z.writestr("manifest.json", text, compress_type=zipfile.ZIP_DEFLATED)
        z.writestr("tensors.bin", zin.read("tensors.bin"))
    data = out.getvalue()
    assert len(text) > MAX_INFLATION * len(data) + INFLATION_ALLOWANCE
    _load_fails(data, "manifest.json declares", peak_limit=4 * len(data) + (1 << 20))


def test_highly_compressible_manifest_is_stored_and_loads():
    source = "\n" * 3_000_000 + "def f(): return 1\n"
    p = assemble("function f() -> i64\n  .entry f\n  .line 3000001\n  LOADK r0 1\n  RETURN r0",
                 sources=[("big.py", source)])
    data = artifact_bytes(p)
    info = zipfile.ZipFile(io.BytesIO(data)).getinfo("manifest.json")
    assert info.compress_type == zipfile.ZIP_STORED
    assert mobile.loads(data)() == 1


def test_deflate_errors_are_artifact_errors(tensor_artifact):
    data = bytearray(tensor_artifact.read_bytes())
    info = zipfile.ZipFile(io.BytesIO(bytes(data))).getinfo("manifest.json")
    start = info.header_offset + 30 + len("manifest.json")  # its deflate stream
    data[start:start + 8] = b"\xff" * 8
    with pytest.raises(ArtifactError):
        mobile.loads(bytes(data))


def test_small_model_artifact_is_within_5_percent_of_its_weights():
    """Fixed cost (manifest, code, sources, zip records) of a 70 KB model: under 5%."""
    nn = ember.nn
    s = ember.script(nn.Sequential(nn.Linear(128, 128), nn.ReLU(), nn.Linear(128, 10)))
    weights = sum(a.nbytes for _, a in s.program.tensors)
    data = artifact_bytes(s.program)
    assert len(data) <= 1.05 * weights
    x = np.ones((2, 128), np.float32)
    np.testing.assert_allclose(mobile.loads(data)(x), s(x), rtol=1e-5, atol=1e-6)
