"""Reading artifact files: a zip of stored entries, checked completely before use.

Layout (FORMAT_VERSION 1):
    manifest.json   format name and version, reader range, producer, byte order and dtype
                    sizes, entry points with signatures, operators, classes, functions
                    (code/line ranges, register counts, signatures), tensor records,
                    sources, sha256 checksum of every other entry
    code.bin        every function's instructions, little-endian int32
    lines.bin       every function's line table, little-endian int32 (pc, source, line)
    consts.json     per function, its tagged constants
    tensors.bin     raw little-endian tensor data, 64-byte aligned
    source/N        source texts (for tracebacks)

Every failure is an ArtifactError naming what is wrong. Nothing is executed,
and nothing larger than the file's own (capped) sizes is allocated.
"""

from __future__ import annotations

import hashlib
import io
import json
import math
import zipfile

import numpy as np

from ember.errors import ArtifactError
from ember.mobile.opcodes import FORMAT_NAME, FORMAT_VERSION, MAX_REGISTERS, READS
from ember.mobile.program import ClassInfo, Function, Program

MAX_MANIFEST = 64 << 20
MAX_CONSTS = 256 << 20
MAX_ENTRIES = 10_000
MAX_FUNCTIONS = 100_000
MAX_CODE_WORDS = 1 << 26
MAX_TENSORS = 1 << 20
MAX_RANK = 16
ALIGN = 64
DTYPES = {"bool": 1, "uint8": 1, "int8": 1, "int16": 2, "int32": 4, "int64": 8,
          "float16": 2, "float32": 4, "float64": 8}
REQUIRED = ("manifest.json", "code.bin", "lines.bin", "consts.json", "tensors.bin")


def load_program(path) -> Program:
    """Read and check an artifact file into a Program (not yet verified or translated)."""
    try:
        with open(path, "rb") as fh:
            data = fh.read()
    except OSError as e:
        raise ArtifactError(f"cannot read artifact {path!r}: {e.strerror or e}") from None
    return read_program(data)


def read_program(data: bytes) -> Program:
    try:
        return _Reader(data).read()
    except ArtifactError:
        raise
    except (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError, OSError, ValueError, KeyError,
            IndexError, TypeError, OverflowError, RecursionError, MemoryError,
            NotImplementedError, UnicodeDecodeError, AttributeError) as e:
        raise ArtifactError(f"corrupt artifact: {type(e).__name__}: {e}") from None


def _need(cond, message):
    if not cond:
        raise ArtifactError(message)


def _typed(value, kind, what):
    if kind is int:
        ok = type(value) is int
    else:
        ok = isinstance(value, kind) and not (kind is int and isinstance(value, bool))
    _need(ok, f"manifest field {what} must be {getattr(kind, '__name__', kind)}")
    return value


class _Reader:
    def __init__(self, data: bytes):
        self.data = data

    def read(self) -> Program:
        _need(len(self.data) >= 22 and self.data[:2] == b"PK", "not an ember artifact (not a zip)")
        self.zf = zipfile.ZipFile(io.BytesIO(self.data))
        self.check_entries()
        m = self.manifest = self.read_manifest()
        self.check_header(m)
        self.check_checksums(m)
        code = np.frombuffer(self.entry("code.bin"), dtype="<i4")
        lines = np.frombuffer(self.entry("lines.bin"), dtype="<i4")
        consts = self.read_json("consts.json", MAX_CONSTS)
        _need(isinstance(consts, list), "consts.json must be a list")
        tensors = self.read_tensors(m)
        functions = self.read_functions(m, code, lines, consts, len(tensors))
        return Program(
            functions=functions, operators=self.str_list(m, "operators"),
            classes=self.read_classes(m), tensors=tensors, sources=self.read_sources(m),
            entries=self.read_entries(m, len(functions)),
            default_entry=m.get("default_entry"), producer=str(m.get("producer", "")),
            metadata=m.get("metadata", {}) if isinstance(m.get("metadata"), dict) else {})

    # -- zip level ---------------------------------------------------------------------------
    def check_entries(self):
        infos = self.zf.infolist()
        _need(len(infos) <= MAX_ENTRIES, "too many entries in the artifact")
        names = set()
        for info in infos:
            _need(info.compress_type == zipfile.ZIP_STORED,
                  f"entry {info.filename!r} is compressed; artifacts store entries uncompressed")
            _need(info.file_size == info.compress_size and info.file_size <= len(self.data),
                  f"entry {info.filename!r} declares an impossible size")
            _need(info.filename not in names, f"duplicate entry {info.filename!r}")
            names.add(info.filename)
        missing = [n for n in REQUIRED if n not in names]
        _need(not missing, f"artifact is missing {', '.join(missing)}")
        self.names = names

    def entry(self, name: str, limit: int | None = None) -> bytes:
        info = self.zf.getinfo(name)
        _need(limit is None or info.file_size <= limit, f"entry {name!r} is too large")
        return self.zf.read(info)  # checks the CRC

    def read_json(self, name, limit):
        raw = self.entry(name, limit)
        try:
            return json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError) as e:
            raise ArtifactError(f"{name} is not valid JSON: {e}") from None
        except RecursionError:
            raise ArtifactError(f"{name} is nested too deeply") from None

    def read_manifest(self) -> dict:
        m = self.read_json("manifest.json", MAX_MANIFEST)
        _need(isinstance(m, dict), "manifest.json must be an object")
        return m

    def check_header(self, m):
        _need(m.get("format") == FORMAT_NAME, "not an ember artifact (wrong format name)")
        v = m.get("version")
        _need(type(v) is int, "manifest has no integer format version")
        lo, hi = READS
        if v > hi:
            raise ArtifactError(f"artifact format version {v} is newer than this runtime reads "
                                f"({lo}-{hi}); upgrade ember on this device")
        if v < lo:
            raise ArtifactError(f"artifact format version {v} is older than this runtime reads "
                                f"({lo}-{hi}); re-save it with a newer ember")
        _need(m.get("byteorder") == "little", "artifact byte order must be little-endian")
        sizes = m.get("dtype_sizes")
        _need(isinstance(sizes, dict) and all(DTYPES.get(k) == v for k, v in sizes.items()),
              "artifact was written with different dtype sizes")

    def check_checksums(self, m):
        sums = m.get("checksums")
        _need(isinstance(sums, dict), "manifest has no checksums")
        for name in self.names - {"manifest.json"}:
            want = sums.get(name)
            _need(isinstance(want, str), f"no checksum for entry {name!r}")
            got = hashlib.sha256(self.entry(name)).hexdigest()
            _need(got == want, f"checksum mismatch in {name!r}: the artifact is corrupt")

    # -- tables ---------------------------------------------------------------------------------
    def str_list(self, m, key) -> list[str]:
        v = m.get(key, [])
        _need(isinstance(v, list) and all(isinstance(s, str) for s in v),
              f"manifest field {key} must be a list of strings")
        return v

    def read_classes(self, m) -> list[ClassInfo]:
        out = []
        for c in _typed(m.get("classes", []), list, "classes"):
            _need(isinstance(c, dict), "manifest class records must be objects")
            fields = c.get("fields", [])
            ftypes = c.get("field_types", [])
            _need(isinstance(c.get("name"), str) and isinstance(fields, list)
                  and isinstance(ftypes, list) and len(fields) == len(ftypes)
                  and all(isinstance(x, str) for x in fields + ftypes),
                  "manifest class record is malformed")
            kind = c.get("kind", "class")
            _need(kind in ("class", "namedtuple", "module", "exception"), "bad class kind")
            out.append(ClassInfo(c["name"], fields, ftypes, kind))
        return out

    def read_sources(self, m) -> list:
        out = []
        for s in _typed(m.get("sources", []), list, "sources"):
            _need(isinstance(s, dict) and isinstance(s.get("filename"), str)
                  and isinstance(s.get("entry"), str) and s["entry"] in self.names
                  and s["entry"].startswith("source/"), "manifest source record is malformed")
            out.append((s["filename"], self.entry(s["entry"]).decode("utf-8", "replace")))
        return out

    def read_entries(self, m, nfuncs) -> dict:
        e = _typed(m.get("entries", {}), dict, "entries")
        out = {}
        for name, rec in e.items():
            _need(isinstance(rec, dict) and type(rec.get("function")) is int
                  and 0 <= rec["function"] < nfuncs, f"entry {name!r} names no function")
            out[name] = rec["function"]
        d = m.get("default_entry")
        _need(d is None or d in out, "default_entry names no entry")
        return out

    def read_tensors(self, m) -> list:
        recs = _typed(m.get("tensors", []), list, "tensors")
        _need(len(recs) <= MAX_TENSORS, "too many tensors")
        size = self.zf.getinfo("tensors.bin").file_size
        blob = self.entry("tensors.bin")
        spans, out = [], []
        for r in recs:
            name, dtype, shape, off, nbytes = self.tensor_record(r, size)
            spans.append((off, nbytes, name))
            arr = np.frombuffer(blob, dtype=np.dtype(dtype).newbyteorder("<"),
                                count=nbytes // DTYPES[dtype], offset=off)
            out.append((name, arr.reshape(shape).astype(np.dtype(dtype), copy=False)))
        self.check_overlaps(spans)
        return out

    def tensor_record(self, r, size):
        _need(isinstance(r, dict), "tensor record must be an object")
        name, dtype, shape = r.get("name"), r.get("dtype"), r.get("shape")
        off, nbytes = r.get("offset"), r.get("nbytes")
        _need(isinstance(name, str) and dtype in DTYPES, f"tensor record {name!r} is malformed")
        _need(isinstance(shape, list) and len(shape) <= MAX_RANK
              and all(type(d) is int and 0 <= d < (1 << 40) for d in shape),
              f"tensor {name!r} has a bad shape")
        _need(type(off) is int and type(nbytes) is int and off >= 0 and nbytes >= 0,
              f"tensor {name!r} has a bad offset or size")
        _need(off % ALIGN == 0, f"tensor {name!r} is not {ALIGN}-byte aligned")
        _need(math.prod(shape) * DTYPES[dtype] == nbytes,
              f"tensor {name!r}: shape {shape} of {dtype} does not take {nbytes} bytes")
        _need(off + nbytes <= size, f"tensor {name!r} lies outside tensors.bin")
        return name, dtype, shape, off, nbytes

    def check_overlaps(self, spans):
        end = 0
        seen = set()
        for off, nbytes, name in sorted(spans):
            if (off, nbytes) in seen:
                continue  # a shared tensor: the same bytes under two names
            _need(off >= end, f"tensor {name!r} overlaps another tensor")
            seen.add((off, nbytes))
            end = off + nbytes

    def read_functions(self, m, code, lines, consts, ntensors) -> list[Function]:
        recs = _typed(m.get("functions", []), list, "functions")
        _need(len(recs) <= MAX_FUNCTIONS, "too many functions")
        _need(len(code) <= MAX_CODE_WORDS, "too much code")
        _need(len(consts) == len(recs), "consts.json does not match the function table")
        return [self.function(r, code, lines, consts[i], ntensors) for i, r in enumerate(recs)]

    def function(self, r, code, lines, consts, ntensors) -> Function:
        _need(isinstance(r, dict), "function record must be an object")
        name = r.get("name")
        _need(isinstance(name, str), "function record has no name")
        params, ptypes = r.get("params"), r.get("param_types")
        _need(isinstance(params, list) and isinstance(ptypes, list)
              and len(params) == len(ptypes)
              and all(isinstance(x, str) for x in params + ptypes)
              and isinstance(r.get("ret_type"), str), f"function {name!r} has a bad signature")
        nregs = r.get("nregs")
        _need(type(nregs) is int and len(params) <= nregs <= MAX_REGISTERS,
              f"function {name!r} has a bad register count")
        c0, c1 = self.span(r, "code", len(code), name)
        l0, l1 = self.span(r, "lines", len(lines), name)
        _need((l1 - l0) % 3 == 0, f"function {name!r} has a bad line table")
        table = lines[l0:l1].reshape(-1, 3).tolist()
        defaults = r.get("defaults", [])
        _need(isinstance(defaults, list) and len(defaults) <= len(params),
              f"function {name!r} has bad defaults")
        return Function(name=name, params=params, param_types=ptypes, ret_type=r["ret_type"],
                        nregs=nregs, code=code[c0:c1].tolist(),
                        consts=[decode_const(c, ntensors) for c in
                                _typed(consts, list, "consts")],
                        lines=[tuple(t) for t in table],
                        defaults=[decode_const(c, ntensors) for c in defaults])

    def span(self, r, key, limit, name):
        s = r.get(key)
        _need(isinstance(s, list) and len(s) == 2 and all(type(x) is int for x in s)
              and 0 <= s[0] <= s[1] <= limit, f"function {name!r} has a bad {key} range")
        return s


def decode_const(c, ntensors):
    """A tagged constant from consts.json: ["i", 1], ["f", "0x1.8p+1"], ["s", "a"], ..."""
    _need(isinstance(c, list) and c and isinstance(c[0], str), f"bad constant {c!r:.60}")
    tag = c[0]
    if tag == "n" and len(c) == 1:
        return None
    _need(len(c) == 2, f"bad constant {c!r:.60}")
    v = c[1]
    if tag == "i" and type(v) is int:
        return v
    if tag == "b" and type(v) is bool:
        return v
    if tag == "s" and isinstance(v, str):
        return v
    if tag == "f" and isinstance(v, str):
        try:
            return float.fromhex(v) if v not in ("nan", "inf", "-inf") else float(v)
        except ValueError:
            raise ArtifactError(f"bad float constant {v!r:.60}") from None
    if tag == "t" and type(v) is int and 0 <= v < ntensors:
        return ("tensor", v)
    if tag == "y" and isinstance(v, str):
        return ("type", v)
    raise ArtifactError(f"bad constant {c!r:.60}")


def encode_const(v):
    """The inverse of decode_const (used by the writer)."""
    if v is None:
        return ["n"]
    if isinstance(v, bool):
        return ["b", v]
    if isinstance(v, int):
        return ["i", v]
    if isinstance(v, float):
        return ["f", v.hex() if math.isfinite(v) else repr(v)]
    if isinstance(v, str):
        return ["s", v]
    if isinstance(v, tuple) and v[0] == "tensor":
        return ["t", v[1]]
    if isinstance(v, tuple) and v[0] == "type":
        return ["y", v[1]]
    raise TypeError(f"cannot encode constant {v!r}")


__all__ = ["load_program", "read_program", "encode_const", "decode_const", "FORMAT_VERSION",
           "DTYPES", "ALIGN"]
