"""Hostile artifacts: each fails at load with a precise ArtifactError, quickly, without
allocating more than the file's size."""

import io
import json
import math
import struct
import tracemalloc
import warnings
import zipfile

import numpy as np
import pytest

from ember import mobile
from ember.errors import ArtifactError
from ember.interpreter.artifact_writer import artifact_bytes
from ember.interpreter.assembler import assemble

from .test_artifact import _rewrite


def _load_fails(data: bytes, match: str, peak_limit: int | None = None):
    tracemalloc.start()
    try:
        with pytest.raises(ArtifactError, match=match):
            mobile.loads(data)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    if peak_limit is not None:
        assert peak < peak_limit, f"peak {peak} bytes for a {len(data)}-byte artifact"


def _central_directory(data: bytes):
    """(offset of the end record, cd offset, cd size, entry count) of a comment-less zip."""
    eocd = len(data) - 22
    assert data[eocd:eocd + 4] == b"PK\x05\x06"
    n, size, offset = struct.unpack("<HII", data[eocd + 10:eocd + 20])
    return eocd, offset, size, n


def _duplicate_record(data: bytes, name: bytes, copies: int, rename) -> bytes:
    """Append `copies` central-directory records that point at entry `name`'s data."""
    eocd, offset, size, n = _central_directory(data)
    cd = data[offset:offset + size]
    pos = cd.find(b"PK\x01\x02")
    while pos >= 0:
        nlen, xlen, clen = struct.unpack("<HHH", cd[pos + 28:pos + 34])
        if cd[pos + 46:pos + 46 + nlen] == name:
            record = cd[pos:pos + 46 + nlen + xlen + clen]
            break
        pos = cd.find(b"PK\x01\x02", pos + 46 + nlen + xlen + clen)
    extra = b"".join(record[:46] + rename(i) + record[46 + len(name):] for i in range(copies))
    new_cd = cd + extra
    end = data[eocd:eocd + 8] + struct.pack("<HHII", n + copies, n + copies, len(new_cd),
                                           offset) + data[eocd + 20:]
    return data[:offset] + new_cd + end


def _big_entry_artifact() -> bytes:
    """An artifact with one 64 KiB entry (a tensor), to multiply in a zip bomb."""
    import ember.ir as I
    from ember.interpreter.pipeline import compile_to_program
    m = I.parse_module("export func @w() -> tensor<f32, [128, 128]> {\n"
                       "  %a = const @w : tensor<f32, [128, 128]>\n  return %a\n}\n")
    m.add_tensor("w", np.ones((128, 128), np.float32))
    return artifact_bytes(compile_to_program(m, optimize=False))


def test_overlapping_entries_zip_bomb():
    data = _big_entry_artifact()
    zin = zipfile.ZipFile(io.BytesIO(data))
    big = max(zin.infolist(), key=lambda i: i.file_size)
    name = big.filename.encode()
    bomb = _duplicate_record(data, name, 3000, lambda i: f"{i:0{len(name)}d}".encode())
    declared = 3000 * big.file_size
    assert declared > 40 * len(bomb)
    _load_fails(bomb, "entries declare .* bytes in a .*-byte file", peak_limit=20 * len(bomb))


def test_unexpected_entry(artifact):
    data = _rewrite(artifact.read_bytes(), lambda m, f: f.update({"payload.py": b"x = 1"}))
    _load_fails(data, "unexpected entries in the artifact: 'payload.py'")


def test_source_entry_must_be_declared(artifact):
    def edit(m, f):
        m["sources"].append({"filename": "x.py", "entry": "source/9"})
    _load_fails(_rewrite(artifact.read_bytes(), edit), "sources\\[1\\].text must be a string")


def test_duplicate_entry_names(artifact):
    zin = zipfile.ZipFile(io.BytesIO(artifact.read_bytes()))
    out = io.BytesIO()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with zipfile.ZipFile(out, "w") as z:
            for n in zin.namelist():
                z.writestr(n, zin.read(n))
            z.writestr("tensors.bin", zin.read("tensors.bin"))
    _load_fails(out.getvalue(), "duplicate entry 'tensors.bin'")


def test_encrypted_flag(artifact):
    data = bytearray(artifact.read_bytes())
    _, offset, _, _ = _central_directory(bytes(data))
    data[offset + 8] |= 1  # general purpose flags of the first central record
    _load_fails(bytes(data), "encrypted")


def test_truncation_near_the_central_directory(artifact):
    data = artifact.read_bytes()
    for cut in range(len(data) - 300, len(data)):
        with pytest.raises(ArtifactError):
            mobile.loads(data[:cut])


@pytest.mark.parametrize("data, match", [
    (b"", "not a zip"),
    (b"PK\x03\x04" + b"\0" * 40, "corrupt artifact"),
    (b"PK\x05\x06" + b"\0" * 18, "not a zip"),
])
def test_degenerate_files(data, match):
    _load_fails(data, match)


@pytest.mark.parametrize("raw, match", [
    (b"[1, 2]", "manifest.json must be a JSON object"),
    (b"{" * 50000 + b"}" * 50000, "nested too deeply|not valid JSON"),
    (b'{"format": 1' + b"1" * 5000 + b"}", "bad value|not valid JSON"),
    ("{\"format\": \"ember-artifact\", \"version\": 1, \"x\": \"\udcff\"}".encode(
        "utf-8", "surrogatepass"), "not UTF-8"),
])
def test_bad_manifest_json(artifact, raw, match):
    zin = zipfile.ZipFile(io.BytesIO(artifact.read_bytes()))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        for n in zin.namelist():
            z.writestr(n, raw if n == "manifest.json" else zin.read(n))
    _load_fails(out.getvalue(), match)


@pytest.mark.parametrize("edit, match", [
    (lambda m, f: m.update(reads="1-1"), "reads must be a list of two ints"),
    (lambda m, f: m.update(producer=3), "producer must be a string"),
    (lambda m, f: m.update(dtype_sizes={"float32": 8}), "different numpy dtype sizes"),
    (lambda m, f: m.update(operators=[1]), "operators must be a list of strings"),
    (lambda m, f: m.update(classes=[{"name": "C", "fields": ["a"], "field_types": []}]),
     "class record 0 has bad fields"),
    (lambda m, f: m["functions"][0].update(params=["a", "b"]), "2 params but 1 param types"),
    (lambda m, f: m["functions"][0].update(lines=[0, 2]), "bad lines range"),
    (lambda m, f: m["functions"][0].update(nregs=True), "nregs must be an int"),
    (lambda m, f: m["functions"][0].update(defaults=[["i", 1], ["i", 2]]), "too many defaults"),
    (lambda m, f: m["entries"]["fib"].update(ret_type="str"), "ret_type differ"),
    (lambda m, f: m.update(tensors=[{"name": "t"}]), "tensors\\[0\\].dtype must be a string"),
    (lambda m, f: f.update({"code.bin": f["code.bin"] + b"\0"}), "unexpected entries"),
    (lambda m, f: f.update({"lines.bin": f["lines.bin"] + b"\0" * 4}), "triples"),
    (lambda m, f: f.update({"consts.json": b"[]"}), "one constant list per function"),
    (lambda m, f: f.update({"consts.json": json.dumps([[["i", 2 ** 63]]] + [[]] * 3)
                            .encode()}), "int constant outside int64"),
    (lambda m, f: f.update({"consts.json": json.dumps([[["x", 1]]] + [[]] * 3).encode()}),
     "bad constant"),
    (lambda m, f: f.update({"consts.json": json.dumps([[["f", "0x1.zp+1"]]] + [[]] * 3)
                            .encode()}), "bad float constant"),
])
def test_schema_violations(artifact, edit, match):
    _load_fails(_rewrite(artifact.read_bytes(), edit), match)


def test_missing_and_wrong_checksums(artifact):
    zin = zipfile.ZipFile(io.BytesIO(artifact.read_bytes()))
    manifest = json.loads(zin.read("manifest.json"))
    assert "tensors.bin" not in manifest["checksums"]  # format 9: the zip CRC-32 stands in
    for change, match in [(lambda m: m.update(version=8),  # before 9 a sha256 is required
                           "no checksum for entry 'tensors.bin'"),
                          (lambda m: m["checksums"].update({"tensors.bin": "0" * 64}),
                           "checksum mismatch in 'tensors.bin'")]:  # one given is checked
        m = json.loads(json.dumps(manifest))
        change(m)
        out = io.BytesIO()
        with zipfile.ZipFile(out, "w") as z:
            for n in zin.namelist():
                z.writestr(n, json.dumps(m) if n == "manifest.json" else zin.read(n))
        _load_fails(out.getvalue(), match)


def test_huge_tensor_claim_fails_before_allocating(tensor_artifact):
    def edit(m, f):
        m["tensors"][0].update(shape=[10 ** 6, 10 ** 6], nbytes=4 * 10 ** 12)
    data = _rewrite(tensor_artifact.read_bytes(), edit)
    _load_fails(data, "lies outside tensors.bin", peak_limit=8 * len(data) + (1 << 20))


@pytest.mark.parametrize("edit, match", [
    (lambda m, f: (m["tensors"][1].update(offset=128),
                   f.update({"tensors.bin": f["tensors.bin"] + b"\0" * 64})), "leaves a hole"),
    (lambda m, f: f.update({"tensors.bin": f["tensors.bin"] + b"\0" * 64}),
     "64 bytes no tensor uses"),
    (lambda m, f: m["tensors"][0].update(shape=[-2, -3]), "bad shape"),
    (lambda m, f: m["tensors"][0].update(shape=[1] * 17, nbytes=4), "bad shape"),
])
def test_tensor_layout_attacks(tensor_artifact, edit, match):
    _load_fails(_rewrite(tensor_artifact.read_bytes(), edit), match)


def test_constants_round_trip_exactly(tmp_path):
    values = [0.1, -0.0, 1e-310, 2.0 ** 1023 * 1.5, math.inf, -math.inf, "é\u0000\ud800x",
              -2 ** 63, 2 ** 63 - 1, True, None]
    loads = "".join(f"  LOADK r{i} {mobile.disassemble.__globals__['literal'](v)}\n"
                    for i, v in enumerate(values))
    regs = ", ".join(f"r{i}" for i in range(len(values)))
    text = (f"function k() -> tuple<>\n  .entry k\n{loads}"
            f"  LOADK r20 nan\n  TUPLE r21 ({regs}, r20)\n  RETURN r21")
    got = mobile.loads(artifact_bytes(assemble(text)))()
    assert [repr(v) for v in got[:-1]] == [repr(v) for v in values]
    assert math.isnan(got[-1])


def test_loaded_artifact_keeps_line_table(artifact):
    m = mobile.load(artifact)
    with pytest.raises(ZeroDivisionError) as ei:
        m.div(1, 0)
    assert 'File "prog.py", line 19, in div' in ei.value.__notes__[0]
    program = mobile.load_program(artifact)
    pcs = [pc for f in program.functions for pc, _, _ in f.lines]
    assert len(pcs) < sum(len(f.code) for f in program.functions) / 2  # compact


def test_shared_tensor_object_stored_once():
    w = np.ones((32, 32), dtype=np.float32)
    text = ("function f() -> tensor\n  .entry f\n  LOADK r0 tensor:0\n  LOADK r1 tensor:1\n"
            "  RETURN r1")
    data = artifact_bytes(assemble(text, tensors=[("a", w), ("b", w)]))
    prog = mobile.read_program(data)
    recs = prog.manifest["tensors"]
    assert recs[0]["offset"] == recs[1]["offset"] and len(data) < 1.5 * w.nbytes


def test_writer_rejects_unsupported_dtypes(tmp_path):
    text = "function f() -> tensor\n  .entry f\n  LOADK r0 tensor:0\n  RETURN r0"
    with pytest.raises(ValueError, match="uint16"):
        artifact_bytes(assemble(text, tensors=[("c", np.zeros(2, dtype=np.uint16))]))
