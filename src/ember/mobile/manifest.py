"""The artifact manifest's schema, its limits, and the tagged constant encoding.

Every field is type-checked with a message naming it ("manifest field
functions[3].nregs must be an int"); unknown keys are ignored, so a newer
writer may add fields without a version bump. The writer
(interpreter/artifact_writer.py) imports the limits and encoders from here.
"""

from __future__ import annotations

import math

from ember.errors import ArtifactError
from ember.mobile.opcodes import FORMAT_NAME, MAX_REGISTERS, READS
from ember.mobile.program import SPECIAL_METHODS

MAX_MANIFEST_BYTES = 64 << 20
MAX_CONSTS_BYTES = 256 << 20
MAX_ZIP_ENTRIES = 4096
MAX_FUNCTIONS = 100_000
MAX_CODE_WORDS = 1 << 21
MAX_CONSTS_PER_FUNCTION = 1 << 20
MAX_OPERATORS = 1 << 16
MAX_CLASSES = 1 << 16
MAX_FIELDS = 1 << 12
MAX_TENSORS = 1 << 20
MAX_TENSOR_BYTES = 1 << 40
MAX_RANK = 16
MAX_OBJECTS = 1 << 20
MAX_VALUE_DEPTH = 32
"""Nesting limit of lists / tuples / dicts in object field values."""
MAX_SOURCES = MAX_ZIP_ENTRIES - 8
INLINE_VERSION = 5
ZIP_CRC_VERSION = 9
"""From this format on, tensors.bin may have no sha256 in "checksums": its zip CRC-32
stands for it (see opcodes.FORMAT_VERSION)."""
"""From this format version on, code, lines, consts and source texts are manifest fields
and the manifest may be deflated (older artifacts hold them in entries of their own)."""
MAX_INFLATION = 8
INFLATION_ALLOWANCE = 1 << 20
"""A deflated manifest.json may declare at most MAX_INFLATION times its compressed size
plus INFLATION_ALLOWANCE bytes: what it decompresses to (and the parse of that) stays
proportional to the file. The writer stores a manifest that would inflate more."""
INT32_MIN, INT32_MAX = -(1 << 31), (1 << 31) - 1
ALIGN = 64
"""Alignment of every tensor's offset in tensors.bin."""
DTYPES = {"bool": 1, "uint8": 1, "int8": 1, "int16": 2, "int32": 4, "int64": 8,
          "float16": 2, "float32": 4, "float64": 8, "complex64": 8, "complex128": 16}
"""Tensor dtypes an artifact may hold (numpy names) and their item sizes."""
CLASS_KINDS = ("class", "namedtuple", "module", "exception")
INT64_MIN, INT64_MAX = -(1 << 63), (1 << 63) - 1


def need(cond, message: str) -> None:
    """Raise ArtifactError(message) unless cond."""
    if not cond:
        raise ArtifactError(message)


def _is(v, kind) -> bool:
    if kind is int:
        return type(v) is int
    if kind == "str list":
        return type(v) is list and all(type(x) is str for x in v)
    return isinstance(v, kind)


_NAMES = {int: "an int", bool: "a bool", str: "a string", list: "a list", dict: "an object",
          "str list": "a list of strings"}


def field(obj: dict, key: str, kind, where: str, default=None, optional=False):
    """obj[key], checked to be of `kind` (int, str, list, dict or "str list")."""
    if key not in obj and optional:
        return default
    v = obj.get(key)
    need(_is(v, kind), f"manifest field {where}{key} must be {_NAMES[kind]}")
    return v


def check_header(m: dict) -> int:
    """Format name, version range, byte order and dtype sizes; returns the version."""
    need(m.get("format") == FORMAT_NAME, "not an ember artifact (wrong format name)")
    v = m.get("version")
    need(type(v) is int, "manifest field version must be an int")
    lo, hi = READS
    if v > hi:
        raise ArtifactError(f"artifact format version {v} is newer than this runtime reads "
                            f"({lo}-{hi}); upgrade ember")
    if v < lo:
        raise ArtifactError(f"artifact format version {v} is older than this runtime reads "
                            f"({lo}-{hi}); re-save it with a newer ember")
    reads = m.get("reads")
    need(type(reads) is list and len(reads) == 2 and all(type(x) is int for x in reads),
         "manifest field reads must be a list of two ints")
    field(m, "producer", str, "")
    need(m.get("byteorder") == "little", "artifact byte order must be little-endian")
    sizes = field(m, "dtype_sizes", dict, "")
    need(all(DTYPES.get(k) == n for k, n in sizes.items()),
         "artifact was written with different numpy dtype sizes")
    return v


def check_tables(m: dict, version: int) -> None:
    """Types and caps of the operator, class, entry, source and checksum tables."""
    ops = field(m, "operators", "str list", "")
    need(len(ops) <= MAX_OPERATORS, f"too many operators ({len(ops)})")
    classes = field(m, "classes", list, "")
    need(len(classes) <= MAX_CLASSES, f"too many classes ({len(classes)})")
    for i, c in enumerate(classes):
        where = f"classes[{i}]."
        need(type(c) is dict, f"manifest field {where[:-1]} must be an object")
        field(c, "name", str, where)
        fields = field(c, "fields", "str list", where)
        types = field(c, "field_types", "str list", where)
        need(len(fields) == len(types) <= MAX_FIELDS, f"class record {i} has bad fields")
        need(c.get("kind", "class") in CLASS_KINDS, f"class record {i} has a bad kind")
        methods = field(c, "methods", dict, where, default={}, optional=True)
        need(all(k in SPECIAL_METHODS and type(v) is int for k, v in methods.items()),
             f"class record {i} has bad methods")
    for name, rec in field(m, "entries", dict, "").items():
        need(type(rec) is dict, f"manifest field entries[{name!r:.40}] must be an object")
        field(rec, "function", int, f"entries[{name!r:.40}].")
    d = m.get("default_entry")
    need(d is None or type(d) is str, "manifest field default_entry must be a string")
    sources = field(m, "sources", list, "")
    need(len(sources) <= MAX_SOURCES, "too many sources")
    for i, s in enumerate(sources):
        need(type(s) is dict, f"manifest field sources[{i}] must be an object")
        field(s, "filename", str, f"sources[{i}].")
        if version >= INLINE_VERSION:
            field(s, "text", str, f"sources[{i}].")
            continue
        entry = field(s, "entry", str, f"sources[{i}].")
        need(entry.startswith("source/"), f"source record {i} names entry {entry!r:.60}")
    sums = field(m, "checksums", dict, "")
    need(all(type(v) is str for v in sums.values()), "manifest checksums must be strings")
    field(m, "metadata", dict, "", default={}, optional=True)


def words(m: dict, key: str, limit: int) -> list:
    """m[key], a list of at most `limit` int32 words (format 5's code and lines)."""
    v = field(m, key, list, "")
    need(len(v) <= limit, f"too many words in manifest field {key} ({len(v)})")
    need(all(type(x) is int and INT32_MIN <= x <= INT32_MAX for x in v),
         f"manifest field {key} must hold int32 words")
    return v


def check_function_record(r, i: int) -> None:
    """One function record's field types and caps (ranges are checked by the reader)."""
    where = f"functions[{i}]."
    need(type(r) is dict, f"manifest field functions[{i}] must be an object")
    field(r, "name", str, where)
    params = field(r, "params", "str list", where)
    ptypes = field(r, "param_types", "str list", where)
    need(len(params) == len(ptypes), f"function record {i} has {len(params)} params but "
                                     f"{len(ptypes)} param types")
    field(r, "ret_type", str, where)
    nregs = field(r, "nregs", int, where)
    need(len(params) <= nregs <= MAX_REGISTERS, f"function record {i} has a bad register "
                                                f"count {nregs}")
    for key in ("code", "lines"):
        span = field(r, key, list, where)
        need(len(span) == 2 and all(type(x) is int for x in span),
             f"manifest field {where}{key} must be [start, end]")
    field(r, "qualname", str, where, optional=True)
    defaults = field(r, "defaults", list, where, default=[], optional=True)
    need(len(defaults) <= len(params), f"function record {i} has too many defaults")
    sites = field(r, "sites", list, where, default=[], optional=True)
    need(all(type(s) is list and len(s) in (3, 4) and type(s[0]) is str and
             all(type(x) is int for x in s[1:]) for s in sites),
         f"function record {i} has bad sites")
    site_pcs = field(r, "site_pcs", list, where, default=[], optional=True)
    need(all(type(p) is list and len(p) == 2 and all(type(x) is int for x in p)
             for p in site_pcs), f"function record {i} has bad site_pcs")


# ----------------------------------------------------------------------------- constants


def decode_const(c, ntensors: int, nobjects: int = 0):
    """A tagged constant of the consts table: ["n"], ["b", true], ["i", 1], ["f", "0x1.8p+1"],
    ["c", [real, imag]] (format 6; each part as "f" writes it), ["s", "a"], ["t", tensor index], ["o", object index], ["y", type text]."""
    need(type(c) is list and c and type(c[0]) is str, f"bad constant {c!r:.60}")
    tag = c[0]
    if tag == "n" and len(c) == 1:
        return None
    if tag == "r" and len(c) == 1:
        return REQUIRED
    need(len(c) == 2, f"bad constant {c!r:.60}")
    v = c[1]
    if tag == "i" and type(v) is int:
        need(INT64_MIN <= v <= INT64_MAX, "int constant outside int64")
        return v
    if tag == "b" and type(v) is bool:
        return v
    if tag == "s" and type(v) is str:
        return v
    if tag == "f" and type(v) is str and len(v) <= 64:
        return _float(v)
    if tag == "c" and type(v) is list and len(v) == 2 and \
            all(type(x) is str and len(x) <= 64 for x in v):
        return complex(*(_float(x) for x in v))
    if tag == "t" and type(v) is int and 0 <= v < ntensors:
        return ("tensor", v)
    if tag == "o" and type(v) is int and 0 <= v < nobjects:
        return ("object", v)
    if tag == "y" and type(v) is str:
        return ("type", v)
    if tag == "g":
        return _decode_group(v)
    raise ArtifactError(f"bad constant {c!r:.60}")


def _float(v: str) -> float:
    try:
        return float(v) if v in ("nan", "inf", "-inf") else float.fromhex(v)
    except ValueError:
        raise ArtifactError(f"bad float constant {v!r:.60}") from None


def _encode_float(v: float) -> str:
    return v.hex() if math.isfinite(v) else repr(v)


class _Required:
    """The default of a keyword-only parameter that has none but follows one that has
    (`def f(a, b=1, *, c)`): a call must give it. Written ["r"] in an artifact, `required`
    in IR text and `.default required` in bytecode listings."""

    def __repr__(self):
        return "required"

    def __reduce__(self):
        return "REQUIRED"


REQUIRED = _Required()


def encode_const(v):
    """The inverse of decode_const (used by the writer); floats are exact via float.hex."""
    if v is None:
        return ["n"]
    if v is REQUIRED:
        return ["r"]
    if type(v) is bool:
        return ["b", v]
    if type(v) is int:
        return ["i", v]
    if type(v) is float:
        return ["f", _encode_float(v)]
    if type(v) is complex:
        return ["c", [_encode_float(v.real), _encode_float(v.imag)]]
    if type(v) is str:
        return ["s", v]
    if type(v) is tuple and len(v) == 2 and v[0] == "tensor":
        return ["t", v[1]]
    if type(v) is tuple and len(v) == 2 and v[0] == "type":
        return ["y", v[1]]
    if type(v) is tuple and len(v) == 2 and v[0] == "object":
        return ["o", v[1]]
    if type(v) is tuple and len(v) == 5 and v[0] == "fused":
        _, n_in, consts, steps, outputs = v
        return ["g", {"inputs": n_in, "consts": [encode_const(c) for c in consts],
                      "steps": [[name, list(refs)] for name, refs in steps],
                      "outputs": list(outputs)}]
    raise TypeError(f"cannot encode constant {v!r:.60}")


def _decode_group(v):
    """A fused group constant (format 6): {"inputs": n, "consts": [tagged scalars],
    "steps": [[operator, [refs]], ...], "outputs": [refs]}, checked by
    mobile/fused.check_spec."""
    from ember.mobile.fused import check_spec

    need(type(v) is dict, "bad fused group constant")
    consts, steps = field(v, "consts", list, "g."), field(v, "steps", list, "g.")
    outputs = field(v, "outputs", list, "g.")
    need(all(type(s) is list and len(s) == 2 and type(s[1]) is list for s in steps),
         "bad fused group step")
    spec = ("fused", field(v, "inputs", int, "g."),
            tuple(decode_const(c, 0) for c in consts),
            tuple((s[0], tuple(s[1])) for s in steps), tuple(outputs))
    check_spec(spec)
    return spec


# ----------------------------------------------------------------------------- object values


def encode_value(v):
    """An object field value: a scalar constant, a Ref (["t", i] / ["o", i]), or
    ["l", [...]] list, ["u", [...]] tuple, ["d", [[k, v], ...]] dict."""
    from ember.mobile.program import Ref

    if isinstance(v, Ref):
        return ["t" if v.kind == "tensor" else "o", v.index]
    if type(v) is list:
        return ["l", [encode_value(x) for x in v]]
    if type(v) is tuple:
        return ["u", [encode_value(x) for x in v]]
    if type(v) is dict:
        return ["d", [[encode_value(k), encode_value(x)] for k, x in v.items()]]
    return encode_const(v)


def decode_value(c, ntensors: int, nobjects: int, depth: int = 0):
    """The inverse of encode_value; object references must point below `nobjects`."""
    from ember.mobile.program import Ref

    need(depth <= MAX_VALUE_DEPTH, "an object field value is nested too deeply")
    need(type(c) is list and len(c) == 2 and type(c[0]) is str or c == ["n"],
         f"bad object field value {c!r:.60}")
    tag = c[0]
    if tag in ("l", "u", "d"):
        need(type(c[1]) is list, f"bad object field value {c!r:.60}")
    if tag == "l":
        return [decode_value(x, ntensors, nobjects, depth + 1) for x in c[1]]
    if tag == "u":
        return tuple(decode_value(x, ntensors, nobjects, depth + 1) for x in c[1])
    if tag == "d":
        out = {}
        for pair in c[1]:
            need(type(pair) is list and len(pair) == 2, "bad dict item in an object value")
            k = decode_value(pair[0], ntensors, nobjects, depth + 1)
            need(type(k) in (int, str, bool, float, complex), "a dict key must be a scalar")
            out[k] = decode_value(pair[1], ntensors, nobjects, depth + 1)
        return out
    if tag == "t":
        need(type(c[1]) is int and 0 <= c[1] < ntensors, "object value names no tensor")
        return Ref("tensor", c[1])
    if tag == "o":
        need(type(c[1]) is int and 0 <= c[1] < nobjects,
             "object value names no earlier object")
        return Ref("object", c[1])
    v = decode_const(c, 0)
    need(type(v) is not tuple, f"bad object field value {c!r:.60}")
    return v
