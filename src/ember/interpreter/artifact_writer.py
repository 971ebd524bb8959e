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

import numpy as np

from ember import __version__
from ember.mobile.manifest import ALIGN, DTYPES, encode_const, encode_value
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
    """The artifact file's bytes for `program`."""
    entries = {}
    code, lines, consts, funcs = [], [], [], []
    for f in program.functions:
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
    blob, records = _tensor_blob(program.tensors)
    for name, i in program.entries.items():
        f = program.functions[i]
        entries[name] = {"function": i, "params": f.params, "param_types": f.param_types,
                         "ret_type": f.ret_type}
    files = {
        "code.bin": np.asarray(code, dtype="<i4").tobytes(),
        "lines.bin": np.asarray(lines, dtype="<i4").tobytes(),
        # ASCII JSON: \u escapes carry any str, lone surrogates included.
        "consts.json": json.dumps(consts).encode("ascii"),
        "tensors.bin": blob,
    }
    sources = []
    for i, (filename, text) in enumerate(program.sources):
        files[f"source/{i}"] = text.encode("utf-8", "surrogatepass")
        sources.append({"filename": filename, "entry": f"source/{i}"})
    manifest = {
        "format": FORMAT_NAME, "version": FORMAT_VERSION, "reads": list(READS),
        "producer": f"ember {__version__}", "byteorder": "little", "dtype_sizes": DTYPES,
        "entries": entries,
        "default_entry": default_entry or program.default_entry or next(iter(entries), None),
        "operators": list(program.operators),
        "classes": [{"name": c.name, "kind": c.kind, "fields": list(c.fields),
                     "field_types": list(c.field_types), "methods": dict(c.methods)}
                    for c in program.classes],
        "functions": funcs, "tensors": records, "sources": sources,
        "objects": [{"class": ci, "fields": [encode_value(v) for v in values]}
                    for ci, values in program.objects],
        "checksums": {n: hashlib.sha256(b).hexdigest() for n, b in files.items()},
        "metadata": dict(program.metadata),
    }
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", compression=zipfile.ZIP_STORED) as zf:
        zf.writestr("manifest.json", json.dumps(manifest, separators=(",", ":")).encode("ascii"))
        for name, b in files.items():
            zf.writestr(name, b)
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
