"""Artifacts: round trip, and every kind of corruption fails at load with ArtifactError."""

import hashlib
import io
import json
import os
import zipfile

import numpy as np
import pytest

from ember import mobile
from ember.errors import ArtifactError
from ember.interpreter.artifact_writer import artifact_bytes, write_artifact
from ember.mobile import artifact_writer as writer
from ember.mobile.artifact import read_program
from ember.fuzz.mutators import pack, unpack
from ember.mobile.opcodes import FORMAT_VERSION, Op


def test_roundtrip_runs_every_entry(artifact, unit):
    m = mobile.load(artifact)
    assert m(20) == 6765
    assert m.total([1.0, 2.5]) == 7.0
    assert m.total([1.0], scale=3.0) == 3.0
    assert sorted(m.entries) == ["div", "fib", "pick", "total"]


def test_entries_and_default(artifact):
    m = mobile.load(artifact)
    assert m.entry("div")(7, 2) == 3
    with pytest.raises(AttributeError):
        m.entry("nope")


def test_tensors_roundtrip(tensor_artifact):
    m = mobile.load(tensor_artifact)
    np.testing.assert_array_equal(m(), np.arange(6, dtype=np.float32).reshape(2, 3))
    prog = mobile.load_program(tensor_artifact)
    assert [n for n, _ in prog.tensors] == ["w0", "w1"]


def test_shared_tensors_stored_once():
    import ember.ir as I
    from ember.interpreter.pipeline import compile_to_program
    m = I.parse_module("export func @f() -> tensor<f32, [64, 64]> {\n"
                       "  %a = const @a : tensor<f32, [64, 64]>\n"
                       "  %b = const @b : tensor<f32, [64, 64]>\n"
                       "  %n = tensor.add %a, %b : tensor<f32, [64, 64]>\n  return %n\n}\n")
    w = np.random.default_rng(0).standard_normal((64, 64)).astype(np.float32)
    m.add_tensor("a", w)
    m.add_tensor("b", w.copy())  # tied weights: same bytes
    m.add_tensor("unused", w * 2)  # referenced by no function: not stored
    data = artifact_bytes(compile_to_program(m, optimize=False))
    assert len(data) < w.nbytes * 1.2
    prog = read_program(data)
    np.testing.assert_array_equal(prog.tensors[0][1], prog.tensors[1][1])


def test_write_is_atomic(tmp_path, unit, monkeypatch):
    path = tmp_path / "x.ember"
    path.write_bytes(b"old")

    def boom(*a, **k):
        raise OSError("disk full")
    monkeypatch.setattr(writer, "_write_manifest", boom)  # fails after tensors.bin
    with pytest.raises(OSError):
        write_artifact(unit.fib.program, path)
    assert path.read_bytes() == b"old"
    assert [p.name for p in tmp_path.iterdir()] == ["x.ember"]


def test_durable_write_fsyncs_the_file_then_the_directory(tmp_path, unit, monkeypatch):
    path = tmp_path / "x.ember"
    path.write_bytes(b"old")
    synced = []
    real_fsync, real_replace = os.fsync, os.replace

    def fsync(fd):
        synced.append(os.path.realpath(f"/proc/self/fd/{fd}"))
        real_fsync(fd)

    def replace(a, b):
        synced.append("rename")
        real_replace(a, b)
    monkeypatch.setattr(os, "fsync", fsync)
    monkeypatch.setattr(os, "replace", replace)
    write_artifact(unit.fib.program, path)
    assert synced == ["rename"]  # not durable by default: as torch.jit.save, numpy.save
    synced.clear()
    write_artifact(unit.fib.program, path, durable=True)
    assert len(synced) == 3 and synced[1] == "rename"
    assert ".ember-" in synced[0] and synced[2] == os.path.realpath(tmp_path)
    assert mobile.load(path)(10) == 55


def test_a_failing_fsync_leaves_the_target(tmp_path, unit, monkeypatch):
    path = tmp_path / "x.ember"
    path.write_bytes(b"old")

    def boom(*a, **k):
        raise OSError("disk full")
    monkeypatch.setattr(os, "fsync", boom)
    with pytest.raises(OSError):
        write_artifact(unit.fib.program, path, durable=True)
    assert path.read_bytes() == b"old"
    assert [p.name for p in tmp_path.iterdir()] == ["x.ember"]


# ----------------------------------------------------------------------------- corruption


def test_truncated_files_fail_cleanly(artifact):
    data = artifact.read_bytes()
    for cut in list(range(0, len(data), max(1, len(data) // 97))) + [len(data) - 1]:
        with pytest.raises(ArtifactError):
            mobile.loads(data[:cut])


def test_bit_flips_fail_or_run(artifact):
    data = bytearray(artifact.read_bytes())
    rng = np.random.default_rng(1)
    for pos in rng.integers(0, len(data), 300):
        bad = bytearray(data)
        bad[pos] ^= 1 << int(rng.integers(0, 8))
        try:
            m = mobile.loads(bytes(bad))
        except ArtifactError:
            continue
        assert m(10) == 55  # a flip in a byte nobody checks (e.g. zip padding) changes nothing


def _rewrite(data: bytes, edit) -> bytes:
    """Apply edit(manifest, files) to an artifact and re-zip with fresh checksums; the code,
    lines and consts a format 5 manifest holds show as code.bin, lines.bin and consts.json
    entries (ember.fuzz.mutators.unpack)."""
    manifest, files = unpack(data)
    edit(manifest, files)
    return pack(manifest, files)


def _code_words(files):
    return list(np.frombuffer(files["code.bin"], dtype="<i4"))


def _set_code(files, words):
    files["code.bin"] = np.asarray(words, dtype="<i4").tobytes()


@pytest.mark.parametrize("edit, match", [
    (lambda m, f: m.update(version=FORMAT_VERSION + 1), "newer than this runtime reads"),
    (lambda m, f: m.update(version=0), "older than this runtime reads"),
    (lambda m, f: m.update(format="something"), "wrong format name"),
    (lambda m, f: m.update(operators=m["operators"] + ["nosuch.op", "other.op"]),
     "nosuch.op, other.op"),
    (lambda m, f: m["functions"][0].update(nregs=1 << 30), "register count"),
    (lambda m, f: m["functions"][0].update(code=[0, 10 ** 9]), "code range"),
    (lambda m, f: m.update(functions="x"), "functions"),
    (lambda m, f: m.update(byteorder="big"), "little-endian"),
    (lambda m, f: m["entries"]["fib"].update(function=99), "names no function"),
    (lambda m, f: m.update(default_entry="ghost"), "default_entry"),
    (lambda m, f: f.update({"consts.json": b"\xff\xfe"}), "unexpected entries.*consts.json"),
    (lambda m, f: f.update({"consts.json": b"[" * 100000 + b"]" * 100000}), "unexpected"),
    (lambda m, f: f.pop("lines.bin"), "manifest field lines must be a list"),
    (lambda m, f: (f.pop("code.bin"), m.update(code=[1 << 31])), "int32 words"),
    (lambda m, f: (f.pop("code.bin"), m.update(code=[0, 1.5])), "int32 words"),
    (lambda m, f: m["sources"][0].pop("text"), "sources\\[0\\].text must be a string"),
    (lambda m, f: m["functions"][0].update(sites="x"), "sites"),
    (lambda m, f: m["functions"][0].update(sites=[["g", 3, 1]]), "inlined call site 1"),
    (lambda m, f: m["functions"][0].update(sites=[["g", 3, 0]], site_pcs=[[0, 2]]),
     "site table"),
    (lambda m, f: m["functions"][0].update(site_pcs=[[1, 0]]), "site table"),
])
def test_manifest_edits(artifact, edit, match):
    with pytest.raises(ArtifactError, match=match):
        mobile.loads(_rewrite(artifact.read_bytes(), edit))


def test_missing_operators_are_all_listed(artifact):
    def edit(m, f):
        m["operators"] = ["int.lt", "zzz.first", "int.sub", "zzz.second"] + m["operators"][4:]
    with pytest.raises(ArtifactError) as ei:
        mobile.loads(_rewrite(artifact.read_bytes(), edit))
    assert "zzz.first" in str(ei.value) and "zzz.second" in str(ei.value)


def test_checksum_mismatch(tensor_artifact):
    # A weight byte changed in place (a bit flip on disk): tensors.bin's zip CRC-32, its
    # checksum since format 9, no longer matches.
    data = tensor_artifact.read_bytes()
    w = np.arange(6, dtype=np.float32).tobytes()
    at = data.index(w)
    flipped = data[:at + 5] + bytes([data[at + 5] ^ 1]) + data[at + 6:]
    with pytest.raises(ArtifactError, match=r"checksum mismatch in 'tensors.bin' \(CRC-32\)"):
        mobile.loads(flipped)
    assert mobile.loads(flipped, verify=False).w()[0, 1] != 1.0
    manifest = json.loads(zipfile.ZipFile(io.BytesIO(data)).read("manifest.json"))
    assert manifest["version"] == FORMAT_VERSION and "tensors.bin" not in manifest["checksums"]


def test_compressed_entries_rejected(artifact):
    zin = zipfile.ZipFile(io.BytesIO(artifact.read_bytes()))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED) as z:
        for n in zin.namelist():
            z.writestr(n, zin.read(n))
    with pytest.raises(ArtifactError, match="compressed"):
        mobile.loads(out.getvalue())


def test_zip_bomb_declared_size(artifact):
    data = bytearray(artifact.read_bytes())
    # Patch the central directory's declared uncompressed size of the first entry.
    cd = data.rfind(b"PK\x01\x02")
    first_cd = data.find(b"PK\x01\x02")
    data[first_cd + 24:first_cd + 28] = (2 ** 31).to_bytes(4, "little")
    with pytest.raises(ArtifactError):
        mobile.loads(bytes(data))
    assert cd >= first_cd


@pytest.mark.parametrize("mutate, match", [
    (lambda w: w.__setitem__(1, 10 ** 6), "out of range"),      # a register index
    (lambda w: w.__setitem__(0, 99), "unknown opcode"),
    (lambda w: w.__setitem__(len(w) - 2, int(Op.END)), "bad bytecode"),  # break the nesting
])
def test_bytecode_edits(artifact, mutate, match):
    def edit(m, f):
        words = _code_words(f)
        start, end = m["functions"][0]["code"]
        body = words[start:end]
        mutate(body)
        words[start:end] = body
        _set_code(f, words)
    with pytest.raises(ArtifactError, match=match):
        mobile.loads(_rewrite(artifact.read_bytes(), edit))


def test_jump_target_must_match(artifact):
    def edit(m, f):
        words = _code_words(f)
        start, end = m["functions"][0]["code"]
        for i in range(start, end):
            if words[i] == int(Op.IF):
                words[i + 2] += 1
                break
        _set_code(f, words)
    with pytest.raises(ArtifactError, match="IF jumps"):
        mobile.loads(_rewrite(artifact.read_bytes(), edit))


@pytest.mark.parametrize("record, match", [
    ({"shape": [10 ** 6, 10 ** 6], "nbytes": 4 * 10 ** 12}, "outside tensors.bin"),
    ({"offset": -64}, "offset"),
    ({"offset": 3}, "aligned"),
    ({"dtype": "object"}, "may not hold"),
    ({"shape": [2, 2]}, "does not take"),
])
def test_tensor_records(tensor_artifact, record, match):
    def edit(m, f):
        m["tensors"][0].update(record)
    with pytest.raises(ArtifactError, match=match):
        mobile.loads(_rewrite(tensor_artifact.read_bytes(), edit))


def test_overlapping_tensors(tensor_artifact):
    def edit(m, f):
        m["tensors"][1].update(offset=0, dtype="float32", shape=[2], nbytes=8)
    with pytest.raises(ArtifactError, match="overlaps"):
        mobile.loads(_rewrite(tensor_artifact.read_bytes(), edit))


def test_not_a_zip():
    with pytest.raises(ArtifactError, match="not an ember artifact"):
        mobile.loads(b"hello world, definitely not a zip file")


def test_missing_file(tmp_path):
    with pytest.raises(ArtifactError, match="cannot read"):
        mobile.load(tmp_path / "nope.ember")
