"""Writing artifacts (the read side and the format constants live in ember.mobile).

Writes are atomic: the zip goes to a temporary file in the target directory,
is flushed to disk and renamed over the target; on any error the target is
untouched. Shared tensors (byte-identical arrays of the same dtype and shape,
e.g. tied weights) are stored once.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import tempfile
import zipfile
import zlib

import numpy as np

from ember import __version__
from ember.mobile.manifest import (
    ALIGN, DTYPES, INFLATION_ALLOWANCE, MAX_INFLATION, encode_const, encode_value,
)
from ember.interpreter.portable import portable_names
from ember.mobile.opcodes import FORMAT_NAME, FORMAT_VERSION, READS


def write_artifact(program, path, default_entry: str | None = None) -> None:
    """Write `program` to `path` atomically."""
    data = artifact_bytes(program, default_entry)
    path = os.fspath(path)
    directory = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=".ember-", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def artifact_bytes(program, default_entry: str | None = None) -> bytes:
    """The artifact file's bytes for `program` (format: ember/mobile/artifact.py)."""
    blob, records = _tensor_blob(program.tensors)
    manifest = {
        "format": FORMAT_NAME, "version": FORMAT_VERSION, "reads": list(READS),
        "producer": f"ember {__version__}", "byteorder": "little",
        "dtype_sizes": {d: DTYPES[d] for d in sorted({r["dtype"] for r in records})},
        "entries": _entries(program),
        "default_entry": default_entry or program.default_entry or
        next(iter(program.entries), None),
        "operators": list(program.operators),
        "classes": [{"name": c.name, "kind": c.kind, "fields": list(c.fields),
                     "field_types": list(c.field_types), "methods": dict(c.methods)}
                    for c in program.classes],
        **_code(program.functions), "tensors": records,
        "sources": _sources(program.sources),
        "objects": [{"class": ci, "fields": [encode_value(v) for v in values]}
                    for ci, values in program.objects],
        "checksums": {"tensors.bin": hashlib.sha256(blob).hexdigest()},
        "metadata": dict(program.metadata),
        "mutable_tensors": program.mutable_tensors,
    }
    # ASCII JSON: \u escapes carry any str, lone surrogates included.
    text = json.dumps(manifest, separators=(",", ":")).encode("ascii")
    return _zip(text, blob)


def _sources(sources) -> list:
    """The sources, named without this machine's absolute paths (portable.py)."""
    names = portable_names([name for name, _ in sources])
    return [{"filename": name, "text": text} for name, (_, text) in zip(names, sources)]


def _entries(program) -> dict:
    out = {}
    for name, i in program.entries.items():
        f = program.functions[i]
        out[name] = {"function": i, "params": f.params, "param_types": f.param_types,
                     "ret_type": f.ret_type}
    return out


def _code(functions) -> dict:
    """The manifest's function records and the code, line and constant tables they index."""
    code, lines, consts, funcs = [], [], [], []
    for f in functions:
        c0, l0 = len(code), len(lines)
        code.extend(f.code)
        for t in compact_lines(f.lines):
            lines.extend(t)
        consts.append([encode_const(c) for c in f.consts])
        funcs.append({"name": f.name, "params": list(f.params),
                      "param_types": list(f.param_types), "ret_type": f.ret_type,
                      "nregs": f.nregs, "code": [c0, len(code)], "lines": [l0, len(lines)],
                      "defaults": [encode_const(d) for d in f.defaults],
                      "qualname": f.qualname, "sites": [list(s) for s in f.sites],
                      "site_pcs": [list(p) for p in f.site_pcs]})
    return {"functions": funcs, "code": [int(w) for w in code],
            "lines": [int(w) for w in lines], "consts": consts}


def _zip(manifest: bytes, blob: bytes) -> bytes:
    """The zip: manifest.json deflated (stored if it would inflate more than the reader
    allows), tensors.bin stored. Fixed timestamps: equal programs give equal bytes."""
    packed = zlib.compressobj(9, zlib.DEFLATED, -15)
    size = len(packed.compress(manifest) + packed.flush())
    deflate = len(manifest) <= MAX_INFLATION * size + INFLATION_ALLOWANCE
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        for name, data, method in (
                ("manifest.json", manifest,
                 zipfile.ZIP_DEFLATED if deflate else zipfile.ZIP_STORED),
                ("tensors.bin", blob, zipfile.ZIP_STORED)):
            info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = method
            zf.writestr(info, data, compresslevel=9)
    return buf.getvalue()


def compact_lines(lines):
    """The line table with only the entries where (source, line) changes."""
    out, last = [], None
    for pc, src, line in lines:
        if (src, line) != last:
            out.append((pc, src, line))
            last = (src, line)
    return out


def _tensor_blob(tensors):
    """Concatenated aligned tensor bytes and their records; shared tensors stored once."""
    out = bytearray()
    records = []
    by_content = {}
    for name, arr in tensors:
        arr = np.asarray(arr)
        if not arr.flags.c_contiguous:  # (ascontiguousarray alone makes 0-d arrays 1-d)
            arr = np.ascontiguousarray(arr).reshape(arr.shape)
        if arr.dtype.name not in DTYPES:
            raise ValueError(f"tensor {name!r} has dtype {arr.dtype}; artifacts hold "
                             f"{', '.join(DTYPES)}")
        le = arr.astype(arr.dtype.newbyteorder("<"), copy=False)
        raw = le.tobytes()
        key = (arr.dtype.name, arr.shape, hashlib.sha256(raw).digest())
        span = by_content.get(key)
        if span is None:
            pad = (-len(out)) % ALIGN
            out.extend(b"\0" * pad)
            span = (len(out), len(raw))
            out.extend(raw)
            by_content[key] = span
        records.append({"name": name, "dtype": arr.dtype.name, "shape": list(arr.shape),
                        "offset": span[0], "nbytes": span[1]})
    return bytes(out), records
