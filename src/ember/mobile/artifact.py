"""Reading artifact files: a zip of stored entries, checked completely before use.

Layout (format version 6, which is 5 plus complex constants and tensors; the writer is
interpreter/artifact_writer.py):
    manifest.json   deflated: format name and version, the writer's reader range,
                    producer, byte order and the sizes of the dtypes it holds, entry points
                    with signatures, operators, classes, functions (code and line ranges,
                    register counts, signatures, defaults), "code" (every function's
                    instruction words as int32 values), "lines" ((pc, source, line) triples
                    where the location changes), "consts" (per function, its tagged
                    constants: manifest.decode_const), tensor records {name, dtype, shape,
                    offset, nbytes}, objects, sources {filename, text} (for tracebacks),
                    the sha256 checksum of tensors.bin (format 9 on: none, the zip
                    entry's CRC-32 stands for it), metadata
    tensors.bin     stored: raw little-endian tensor data, each tensor 64-byte aligned, no
                    overlaps, no holes beyond alignment padding (identical tensors shared);
                    the writer puts it first, its data 64-byte aligned in the file

Large files are mapped (MAP_MIN_BYTES) and tensors are read-only views of the mapping;
bytes, small files and file objects are read once and tensors view those bytes. The
checksum of tensors.bin (its sha256 up to format 8, its zip CRC-32 from 9) is checked per
`verify` (see read_program); every structural check always runs, including that
tensors.bin's data lies inside the file.

Versions 1-4 keep code, lines and consts in stored entries of their own (code.bin and
lines.bin: little-endian int32 words; consts.json) and each source in source/N, with a
checksum per entry; they load as before.

Every failure is an ArtifactError naming what is wrong. Nothing is executed,
nothing much larger than the file itself is allocated (the declared sizes of the
stored entries and the compressed size of the manifest must fit in the file, and
the manifest inflates at most manifest.MAX_INFLATION-fold), and every loop is
bounded by the file size.
"""

from __future__ import annotations

import hashlib
import io
import json
import math
import os
import struct
import zipfile
import zlib

import numpy as np

from ember.errors import ArtifactError
from ember.mobile import manifest as M
from ember.mobile.manifest import ALIGN, DTYPES, decode_const, encode_const, need
from ember.mobile.program import ClassInfo, Function, Program
from ember.ops.tensor_common import FrozenMap

REQUIRED = ("manifest.json", "tensors.bin")
"""The entries of an artifact (format 5 on)."""
REQUIRED_OLD = REQUIRED + ("code.bin", "lines.bin", "consts.json")
"""Entries every artifact of formats 1-4 has; the only others allowed are its source/N."""
_LOCAL = struct.Struct("<4s4xH16xHH")
"""A zip local file header's signature, method, name length and extra length."""


MAP_MIN_BYTES = 1 << 20
"""Files at least this large are mapped (mmap) rather than read: their tensors are views
of the mapping. Smaller ones are read into memory, which costs less than a mapping."""
VERIFY_MAX_BYTES = 16 << 20
"""verify=None checks tensors.bin's checksum when it is at most this large (a few
milliseconds); larger ones are checked with verify=True only."""


def load_program(source, verify: bool | None = None) -> Program:
    """Read and check an artifact (a path, or a binary file object read once) into a
    Program (not yet verified or translated). A file of MAP_MIN_BYTES or more is mapped
    read-only and its tensors are views of the mapping."""
    if hasattr(source, "read"):
        try:
            data = source.read()
        except UnicodeDecodeError:
            raise ArtifactError("artifact file objects must be opened in binary mode") \
                from None
        except OSError as e:
            raise ArtifactError(f"cannot read artifact: {e.strerror or e}") from None
        if not isinstance(data, (bytes, bytearray, memoryview)):
            raise ArtifactError("artifact file objects must be opened in binary mode")
        return read_program(data, verify)
    try:
        with open(source, "rb") as fh:
            data = _map_or_read(fh)
    except OSError as e:
        raise ArtifactError(f"cannot read artifact {str(source)!r}: {e.strerror or e}") \
            from None
    return read_program(data, verify)


def _map_or_read(fh):
    """The file's bytes: a read-only mapping for large files, bytes for small ones."""
    size = os.fstat(fh.fileno()).st_size
    if size >= MAP_MIN_BYTES:
        try:
            return FrozenMap(fh.fileno(), 0)
        except (OSError, ValueError):  # e.g. a file system that cannot map: read it
            pass
    return fh.read()


def read_program(data, verify: bool | None = None) -> Program:
    """Check an artifact's bytes (or a FrozenMap of its file) and return its Program;
    ArtifactError on any problem. Tensors are views of `data` (of a copy for a mutable
    buffer). verify: check tensors.bin against its checksum (True: the manifest's sha256,
    or from format 9 the zip's CRC-32), skip that (False), or check it only when it is at
    most VERIFY_MAX_BYTES (None). Every structural check runs either way: the checksum
    catches changed weight values, not unsafe files."""
    if not isinstance(data, (bytes, FrozenMap)):
        data = bytes(data)
    try:
        return _Reader(data, verify).read()
    except ArtifactError:
        raise
    except (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError, OSError, ValueError, KeyError,
            IndexError, TypeError, OverflowError, RecursionError, MemoryError,
            NotImplementedError, UnicodeError, AttributeError, struct.error, zlib.error) as e:
        raise ArtifactError(f"corrupt artifact: {type(e).__name__}: {e}") from None


class _BufferFile(io.RawIOBase):
    """A read-only, seekable file over a buffer (a mapping) without copying it."""

    def __init__(self, buf):
        self.buf = memoryview(buf)
        self.pos = 0

    def readable(self):
        return True

    def seekable(self):
        return True

    def tell(self):
        return self.pos

    def seek(self, offset, whence=0):
        base = (0, self.pos, len(self.buf))[whence]
        if base + offset < 0:
            raise ValueError("negative seek position")
        self.pos = base + offset
        return self.pos

    def readinto(self, b):
        chunk = self.buf[self.pos:self.pos + len(b)]
        n = len(chunk)
        memoryview(b).cast("B")[:n] = chunk
        self.pos += n
        return n


class _Reader:
    def __init__(self, data, verify: bool | None = None):
        self.data = data
        self.verify = verify
        self.files: dict[str, bytes] = {}

    def read(self) -> Program:
        need(len(self.data) >= 22 and self.data[:4] == b"PK\x03\x04",
             "not an ember artifact (not a zip file)")
        self.zf = zipfile.ZipFile(io.BytesIO(self.data) if type(self.data) is bytes
                                  else _BufferFile(self.data))
        self.check_zip()
        m = self.read_json("manifest.json", M.MAX_MANIFEST_BYTES)
        need(type(m) is dict, "manifest.json must be a JSON object")
        version = M.check_header(m)
        self.inline = version >= M.INLINE_VERSION
        need(self.inline or self.zf.getinfo("manifest.json").compress_type ==
             zipfile.ZIP_STORED, f"format {version} artifacts store manifest.json uncompressed")
        M.check_tables(m, version)
        self.check_entry_names(m)
        self.blob = self.tensor_blob()
        self.check_checksums(m, version)
        tensors = self.read_tensors(m)
        objects = self.read_objects(m, len(tensors))
        functions = self.read_functions(m, len(tensors), len(objects))
        entries = self.read_entries(m, functions)
        return Program(
            functions=functions, operators=list(m["operators"]), classes=self.classes(m),
            tensors=tensors, objects=objects, sources=self.sources(m), entries=entries,
            default_entry=m.get("default_entry"), producer=m["producer"],
            metadata=m.get("metadata", {}), manifest=m,
            mutable_tensors=M.field(m, "mutable_tensors", bool, "", default=True,
                                    optional=True),
            mapping=self.mapping())

    def mapping(self):
        """(the file mapping, the file size the tensors need) if tensors view a mapping."""
        if type(self.data) is not FrozenMap or self.blob.obj is not self.data:
            return None
        return self.data, len(self.data)

    # -- zip level ---------------------------------------------------------------------------
    def check_zip(self):
        infos = self.zf.infolist()
        need(len(infos) <= M.MAX_ZIP_ENTRIES, f"too many entries in the artifact ({len(infos)})")
        names, total = set(), 0
        for info in infos:
            name = info.filename
            need(not info.flag_bits & 0x1, f"entry {name!r:.60} is encrypted")
            if name == "manifest.json" and info.compress_type == zipfile.ZIP_DEFLATED:
                need(info.file_size <= M.MAX_INFLATION * info.compress_size +
                     M.INFLATION_ALLOWANCE, f"manifest.json declares {info.file_size} bytes "
                                            f"for {info.compress_size} compressed")
            else:
                self.check_stored(info)
            need(name not in names, f"duplicate entry {name!r:.60}")
            names.add(name)
            total += info.compress_size
        # Entries cannot be larger than the file together: this rules out zip bombs built
        # from overlapping entries and bounds every allocation below by the file size.
        need(total <= len(self.data), f"entries declare {total} bytes in a "
                                      f"{len(self.data)}-byte file")
        missing = [n for n in REQUIRED if n not in names]
        need(not missing, f"artifact is missing {', '.join(missing)}")
        self.names = names

    @staticmethod
    def check_stored(info):
        name = info.filename
        need(info.compress_type == zipfile.ZIP_STORED,
             f"entry {name!r:.60} is compressed; artifacts store entries other than "
             f"manifest.json uncompressed")
        need(info.file_size == info.compress_size,
             f"entry {name!r:.60} declares {info.file_size} bytes but stores "
             f"{info.compress_size}")

    def entry(self, name: str, limit: int | None = None) -> bytes:
        """An entry's bytes (read once; zipfile checks the CRC)."""
        if name not in self.files:
            info = self.zf.getinfo(name)
            need(limit is None or info.file_size <= limit,
                 f"entry {name} is too large ({info.file_size} bytes, limit {limit})")
            self.files[name] = self.zf.read(info)
        return self.files[name]

    def read_json(self, name: str, limit: int):
        raw = self.entry(name, limit)
        try:
            return json.loads(raw.decode("utf-8"))
        except UnicodeDecodeError as e:
            raise ArtifactError(f"{name} is not UTF-8: {e.reason} at byte {e.start}") from None
        except json.JSONDecodeError as e:
            raise ArtifactError(f"{name} is not valid JSON: {e}") from None
        except RecursionError:
            raise ArtifactError(f"{name} is nested too deeply") from None
        except ValueError as e:  # e.g. an integer literal with too many digits
            raise ArtifactError(f"{name} holds a bad value: {e}") from None

    def check_entry_names(self, m):
        allowed = set(REQUIRED) if self.inline else \
            set(REQUIRED_OLD) | {s["entry"] for s in m["sources"]}
        unexpected = sorted(self.names - allowed)
        need(not unexpected, f"unexpected entries in the artifact: "
                             f"{', '.join(repr(n[:60]) for n in unexpected[:10])}")
        missing = sorted(allowed - self.names)
        need(not missing, f"artifact is missing {', '.join(missing[:10])}")

    def check_checksums(self, m, version: int):
        """Each stored entry's sha256 in the manifest; from format 9 tensors.bin may have
        none, and its zip CRC-32 is checked instead (both only per `verify`)."""
        sums = m["checksums"]
        for name in sorted(self.names - {"manifest.json"}):
            want = sums.get(name)
            if name == "tensors.bin" and want is None and version >= M.ZIP_CRC_VERSION:
                if self.verify_tensors():
                    crc = self.zf.getinfo(name).CRC
                    need(zlib.crc32(self.blob) == crc, "checksum mismatch in 'tensors.bin' "
                                                       "(CRC-32): the artifact is corrupt")
                continue
            need(type(want) is str, f"manifest has no checksum for entry {name!r:.60}")
            if name == "tensors.bin":
                if not self.verify_tensors():
                    continue
                got = hashlib.sha256(self.blob).hexdigest()
            else:
                got = hashlib.sha256(self.entry(name)).hexdigest()
            need(got == want, f"checksum mismatch in {name!r:.60}: the artifact is corrupt")

    def verify_tensors(self) -> bool:
        if self.verify is None:
            return len(self.blob) <= VERIFY_MAX_BYTES
        return bool(self.verify)

    def tensor_blob(self):
        """tensors.bin's bytes as a view of the artifact's data (a copy only when the entry
        is not 16-byte aligned in memory, as in files other zip writers made): the entry's
        local header must be sound and its data must lie inside the file."""
        info = self.zf.getinfo("tensors.bin")
        h, size = info.header_offset, info.file_size
        need(0 <= h and h + 30 <= len(self.data), "tensors.bin's header lies outside the file")
        sig, method, n, e = _LOCAL.unpack_from(self.data, h)
        need(sig == b"PK\x03\x04" and method == zipfile.ZIP_STORED,
             "tensors.bin has a bad local header")
        need(self.data[h + 30:h + 30 + n] == b"tensors.bin",
             "tensors.bin's local header names another entry")
        start = h + 30 + n + e
        need(start + size <= len(self.data),
             f"tensors.bin ({size} bytes at {start}) lies past the end of the "
             f"{len(self.data)}-byte file: the artifact is truncated")
        view = memoryview(self.data)[start:start + size]
        if np.frombuffer(view, np.uint8).ctypes.data % 16:
            view = memoryview(bytes(view))
        return view

    # -- tables ---------------------------------------------------------------------------------
    def classes(self, m) -> list[ClassInfo]:
        return [ClassInfo(c["name"], c["fields"], c["field_types"], c.get("kind", "class"),
                          dict(c.get("methods", {})))
                for c in m["classes"]]

    def sources(self, m) -> list[tuple[str, str]]:
        """(filename, text) per source; text that is not UTF-8 reads with U+FFFD."""
        return [(s["filename"], self.source_bytes(s).decode("utf-8", "replace"))
                for s in m["sources"]]

    def source_bytes(self, s) -> bytes:
        if self.inline:
            return s["text"].encode("utf-8", "surrogatepass")
        return self.entry(s["entry"])

    def read_entries(self, m, functions) -> dict[str, int]:
        out = {}
        for name, rec in m["entries"].items():
            i = rec["function"]
            need(0 <= i < len(functions), f"entry {name!r:.60} names no function")
            f = functions[i]
            for key in ("params", "param_types", "ret_type"):
                need(rec.get(key, getattr(f, key)) == getattr(f, key),
                     f"entry {name!r:.60}: {key} differ from its function's")
            out[name] = i
        d = m.get("default_entry")
        need(d is None or d in out, f"default_entry {d!r:.60} is not an entry")
        return out

    # -- tensors -------------------------------------------------------------------------------
    def read_tensors(self, m) -> list:
        recs = M.field(m, "tensors", list, "")
        need(len(recs) <= M.MAX_TENSORS, f"too many tensors ({len(recs)})")
        blob = self.blob
        parsed = [self.tensor_record(i, r, len(blob)) for i, r in enumerate(recs)]
        self.check_layout(parsed, len(blob))
        out = []
        for name, dtype, shape, off, nbytes in parsed:
            dt = np.dtype(dtype).newbyteorder("<")
            arr = np.frombuffer(blob, dtype=dt, count=nbytes // dt.itemsize, offset=off)
            out.append((name, arr.reshape(shape).astype(np.dtype(dtype), copy=False)))
        return out

    def tensor_record(self, i, r, size):
        need(type(r) is dict, f"tensor record {i} must be an object")
        where = f"tensors[{i}]."
        name = M.field(r, "name", str, where)
        dtype = M.field(r, "dtype", str, where)
        need(dtype in DTYPES, f"tensor {name!r:.60} has dtype {dtype!r:.30}, which artifacts "
                              f"may not hold ({', '.join(DTYPES)})")
        shape = M.field(r, "shape", list, where)
        need(len(shape) <= M.MAX_RANK and all(type(d) is int and d >= 0 for d in shape),
             f"tensor {name!r:.60} has a bad shape")
        off, nbytes = M.field(r, "offset", int, where), M.field(r, "nbytes", int, where)
        need(off >= 0 and nbytes >= 0, f"tensor {name!r:.60} has a negative offset or size")
        need(off % ALIGN == 0, f"tensor {name!r:.60} is not {ALIGN}-byte aligned")
        need(math.prod(shape) * DTYPES[dtype] == nbytes,
             f"tensor {name!r:.60}: shape {shape} of {dtype} does not take {nbytes} bytes")
        need(nbytes <= M.MAX_TENSOR_BYTES and off + nbytes <= size,
             f"tensor {name!r:.60} ({nbytes} bytes at {off}) lies outside tensors.bin "
             f"({size} bytes)")
        return name, dtype, shape, off, nbytes

    def check_layout(self, parsed, size):
        """Tensors are packed in offset order with only alignment padding between them;
        records with the same (offset, size) are one shared tensor."""
        end, last = 0, None
        for off, nbytes, name in sorted({(p[3], p[4], p[0]) for p in parsed}):
            if (off, nbytes) == last:
                continue
            need(off >= end, f"tensor {name!r:.60} overlaps another tensor")
            need(off == -(-end // ALIGN) * ALIGN,
                 f"tensor {name!r:.60} at {off} leaves a hole after the previous tensor")
            last, end = (off, nbytes), off + nbytes
        need(end == size, f"tensors.bin has {size - end} bytes no tensor uses")

    # -- objects -------------------------------------------------------------------------------
    def read_objects(self, m, ntensors) -> list:
        """(class index, field values) per object; each refers only to earlier objects."""
        recs = M.field(m, "objects", list, "", default=[], optional=True)
        need(len(recs) <= M.MAX_OBJECTS, f"too many objects ({len(recs)})")
        nclasses = len(m["classes"])
        out = []
        for i, r in enumerate(recs):
            need(type(r) is dict, f"manifest field objects[{i}] must be an object")
            ci = M.field(r, "class", int, f"objects[{i}].")
            need(0 <= ci < nclasses, f"object {i} names no class")
            fields = M.field(r, "fields", list, f"objects[{i}].")
            out.append((ci, [M.decode_value(v, ntensors, i) for v in fields]))
        return out

    # -- functions -----------------------------------------------------------------------------
    def read_functions(self, m, ntensors, nobjects=0) -> list[Function]:
        recs = M.field(m, "functions", list, "")
        need(len(recs) <= M.MAX_FUNCTIONS, f"too many functions ({len(recs)})")
        code, lines, consts = self.code_tables(m)
        need(len(code) <= M.MAX_CODE_WORDS, f"too much code ({len(code)} words)")
        need(len(lines) % 3 == 0, "the line table does not hold (pc, source, line) triples")
        need(type(consts) is list and len(consts) == len(recs),
             "consts must hold one constant list per function")
        out = []
        for i, r in enumerate(recs):
            M.check_function_record(r, i)
            out.append(self.function(i, r, code, lines, consts[i], ntensors, nobjects))
        return out

    def code_tables(self, m):
        """(code words, line table words, constant lists): manifest fields from format 5
        on, entries of their own before."""
        if not self.inline:
            return (self.words("code.bin"), self.words("lines.bin"),
                    self.read_json("consts.json", M.MAX_CONSTS_BYTES))
        code = M.words(m, "code", M.MAX_CODE_WORDS)
        lines = M.words(m, "lines", 3 * M.MAX_CODE_WORDS)
        return (np.asarray(code, dtype="<i4"), np.asarray(lines, dtype="<i4"),
                M.field(m, "consts", list, ""))

    def words(self, name: str) -> np.ndarray:
        raw = self.entry(name)
        need(len(raw) % 4 == 0, f"{name} is not a whole number of int32 words")
        return np.frombuffer(raw, dtype="<i4")

    def function(self, i, r, code, lines, consts, ntensors, nobjects) -> Function:
        c0, c1 = self.span(i, r, "code", len(code), 1)
        l0, l1 = self.span(i, r, "lines", len(lines), 3)
        need(type(consts) is list and len(consts) <= M.MAX_CONSTS_PER_FUNCTION,
             f"constants of function record {i} must be a list (at most "
             f"{M.MAX_CONSTS_PER_FUNCTION})")
        table = [tuple(t) for t in lines[l0:l1].reshape(-1, 3).tolist()]
        return Function(name=r["name"], params=r["params"], param_types=r["param_types"],
                        ret_type=r["ret_type"], nregs=r["nregs"], code=code[c0:c1].tolist(),
                        consts=[decode_const(c, ntensors, nobjects) for c in consts],
                        lines=table,
                        defaults=[decode_const(c, ntensors) for c in r.get("defaults", [])],
                        qualname=r.get("qualname", ""),
                        sites=[tuple(s) for s in r.get("sites", [])],
                        site_pcs=[tuple(p) for p in r.get("site_pcs", [])])

    def span(self, i, r, key, limit, unit):
        a, b = r[key]
        need(0 <= a <= b <= limit and (b - a) % unit == 0,
             f"function record {i} has a bad {key} range [{a}, {b}] (limit {limit})")
        return a, b


__all__ = ["load_program", "read_program", "encode_const", "decode_const", "ALIGN", "DTYPES",
           "REQUIRED", "REQUIRED_OLD"]
