"""Writing artifacts (the read side and the format constants live in ember.mobile).

Writes are atomic: the zip goes to a temporary file in the target directory and is
renamed over the target; on any error the target is untouched. durable=True also
fsyncs the file before the rename and the directory after it, so the new artifact
survives a power loss (torch.jit.save and numpy.save do not; it costs the time to
write the whole file to disk). Shared tensors (byte-identical arrays of the same dtype and shape,
e.g. tied weights) are stored once.
"""

from __future__ import annotations

import io
import json
import os
import struct
import tempfile
import zipfile
import zlib

import numpy as np

from ember import __version__
from ember.mobile.manifest import (
    ALIGN, DTYPES, INFLATION_ALLOWANCE, MAX_INFLATION, encode_const, encode_value,
)
from ember.mobile.opcodes import FORMAT_NAME, FORMAT_VERSION, READS


def write_artifact(program, path, default_entry: str | None = None, rename=None,
                   durable: bool = False) -> None:
    """Write `program` to `path` atomically (a temporary file renamed over it), streaming
    each tensor from its own buffer; durable=True also fsyncs the file and its directory."""
    path = os.fspath(path)
    directory = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=".ember-", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(fd, "wb") as fh:
            write_to(program, fh, default_entry, rename)
            if durable:
                fh.flush()
                os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    if durable:
        _fsync_directory(directory)


def _fsync_directory(directory: str) -> None:
    """Make the rename itself durable (where a directory can be opened: not on Windows)."""
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def artifact_bytes(program, default_entry: str | None = None, rename=None) -> bytes:
    """The artifact file's bytes for `program` (format: ember/mobile/artifact.py)."""
    buf = io.BytesIO()
    write_to(program, buf, default_entry, rename)
    return buf.getvalue()


def write_to(program, fh, default_entry: str | None = None, rename=None) -> None:
    """Write the artifact to the seekable binary file `fh`, positioned at its start: first
    tensors.bin, its data 64-byte aligned in the file and written in one pass from the
    tensors' buffers (zipfile computes its CRC-32, its checksum, as it goes), then the
    manifest."""
    arrays, records, size = _tensor_plan(program.tensors)
    with zipfile.ZipFile(fh, "w") as zf:
        _write_tensors(zf, fh, arrays, size)
        manifest = _manifest(program, default_entry, records, rename)
        # ASCII JSON: \u escapes carry any str, lone surrogates included.
        text = json.dumps(manifest, separators=(",", ":")).encode("ascii")
        _write_manifest(zf, text)


def _manifest(program, default_entry, records, rename) -> dict:
    return {
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
        "sources": _sources(program.sources, rename),
        "objects": [{"class": ci, "fields": [encode_value(v) for v in values]}
                    for ci, values in program.objects],
        "checksums": {},  # tensors.bin's is the zip's CRC-32 (format 9)
        "metadata": dict(program.metadata),
        "mutable_tensors": program.mutable_tensors,
    }


def _sources(sources, rename) -> list:
    """The sources, their names mapped by `rename` (the compiler passes
    interpreter/portable.py's, which drops the builder's absolute paths; a loaded program's
    names are kept as they are)."""
    names = [name for name, _ in sources]
    names = rename(names) if rename is not None else names
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


_STAMP = (1980, 1, 1, 0, 0, 0)
"""Fixed timestamps: equal programs give equal bytes."""
_PAD_ID = 0xD935
"""The zip extra field that pads a local header so the data after it is aligned (the id
Android's zipalign uses); readers skip extra fields they do not know."""


def _write_tensors(zf, fh, arrays, size) -> None:
    """tensors.bin, stored, its data starting at a multiple of ALIGN in the file; zipfile
    computes the CRC-32 as the bytes go by (the entry's checksum since format 9: no second
    pass over the weights, no sha256)."""
    info = zipfile.ZipInfo("tensors.bin", date_time=_STAMP)
    info.compress_type = zipfile.ZIP_STORED
    info.file_size = size
    zip64 = size * 1.05 > zipfile.ZIP64_LIMIT  # zipfile's own rule for the header
    header = fh.tell() + 30 + len(info.filename) + (20 if zip64 else 0) + 4
    pad = (-header) % ALIGN
    info.extra = struct.pack("<HH", _PAD_ID, pad) + bytes(pad)
    with zf.open(info, "w", force_zip64=zip64) as out:
        if fh.tell() % ALIGN:
            raise RuntimeError("tensors.bin is not aligned in the artifact")
        for piece in _pieces(arrays):
            out.write(piece)


def _pieces(arrays):
    """The byte pieces of tensors.bin in order: each tensor's bytes, zero padding between."""
    at = 0
    for offset, data in arrays:
        if offset > at:
            yield bytes(offset - at)
        yield data
        at = offset + data.nbytes


def _write_manifest(zf, text: bytes) -> None:
    """manifest.json, deflated (stored if it would inflate more than the reader allows)."""
    packed = zlib.compressobj(9, zlib.DEFLATED, -15)
    size = len(packed.compress(text) + packed.flush())
    deflate = len(text) <= MAX_INFLATION * size + INFLATION_ALLOWANCE
    info = zipfile.ZipInfo("manifest.json", date_time=_STAMP)
    info.compress_type = zipfile.ZIP_DEFLATED if deflate else zipfile.ZIP_STORED
    zf.writestr(info, text, compresslevel=9)


def compact_lines(lines):
    """The line table with only the entries where (source, line) changes."""
    out, last = [], None
    for pc, src, line in lines:
        if (src, line) != last:
            out.append((pc, src, line))
            last = (src, line)
    return out


def _tensor_plan(tensors):
    """(offset, byte view) per distinct tensor in offset order, the tensor records and the
    size of tensors.bin. Tensors with equal dtype, shape and bytes are stored once: a
    sample of each tensor's bytes sorts them into buckets, and only tensors in the same
    bucket are compared whole (nothing hashes every byte twice)."""
    buckets: dict = {}
    arrays, records, size = [], [], 0
    for name, arr in tensors:
        data = _little_endian(name, arr)
        key = (arr.dtype.name, data.shape, _sample(data))
        span = next((span for other, span in buckets.get(key, ()) if _same_bytes(other, data)),
                    None)
        if span is None:
            offset = -(-size // ALIGN) * ALIGN
            span = (offset, data.nbytes)
            arrays.append((offset, _bytes_view(data)))
            buckets.setdefault(key, []).append((data, span))
            size = offset + data.nbytes
        records.append({"name": name, "dtype": arr.dtype.name, "shape": list(data.shape),
                        "offset": span[0], "nbytes": span[1]})
    return arrays, records, size


def _little_endian(name, arr) -> np.ndarray:
    """arr as a C-contiguous little-endian array (a view when it already is one)."""
    arr = np.asarray(arr)
    if arr.dtype.name not in DTYPES:
        raise ValueError(f"tensor {name!r} has dtype {arr.dtype}; artifacts hold "
                         f"{', '.join(DTYPES)}")
    if not arr.flags.c_contiguous:  # (ascontiguousarray alone makes 0-d arrays 1-d)
        arr = np.ascontiguousarray(arr).reshape(arr.shape)
    return arr.astype(arr.dtype.newbyteorder("<"), copy=False)


def _bytes_view(a: np.ndarray) -> memoryview:
    return memoryview(a.reshape(-1).view(np.uint8))


_SAMPLE = 64


def _sample(a: np.ndarray) -> bytes:
    """A few bytes from the start, the middle and the end of a contiguous array."""
    b = _bytes_view(a)
    n = len(b)
    if n <= 3 * _SAMPLE:
        return b.tobytes()
    mid = n // 2
    return b[:_SAMPLE].tobytes() + b[mid:mid + _SAMPLE].tobytes() + b[-_SAMPLE:].tobytes()


_CHUNK = 1 << 22


def _same_bytes(a: np.ndarray, b: np.ndarray) -> bool:
    """a and b (same dtype and shape, contiguous) hold the same bytes; compared a chunk at a
    time, so unequal tensors usually differ in the first chunk."""
    if a.ctypes.data == b.ctypes.data:
        return True
    x, y = a.reshape(-1).view(np.uint8), b.reshape(-1).view(np.uint8)
    return all(np.array_equal(x[i:i + _CHUNK], y[i:i + _CHUNK])
               for i in range(0, x.size, _CHUNK))
