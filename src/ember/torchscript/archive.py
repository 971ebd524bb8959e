"""Reading a TorchScript archive (`torch.jit.save`, `_save_for_lite_interpreter`) into inert
parts: the module object tree of data.pkl, the tensor constants of constants.pkl, and the
code files' text. Tensors become numpy arrays over checked storages; nothing is executed.

Imports only ember.errors, numpy and the standard library (never `pickle`).
"""

from __future__ import annotations

import numpy as np

from ember.errors import ArtifactError
from ember.torchscript.unpickle import Obj, Storage, TensorRef, unpickle
from ember.torchscript.zipread import ArchiveZip, need

MAX_PICKLE_BYTES = 256 << 20
MAX_CODE_BYTES = 16 << 20
"""Per code file, and for all of them together; real generated files are kilobytes (a
transformer's code is ~100 KB)."""
MAX_EXPANDED = 1 << 24
"""Elements a view may have beyond its storage's (stride-0 expansions are copied when the
model is compiled: a tiny file must not ask for gigabytes)."""
VERSIONS = range(1, 11)
"""File format versions torch writes (measured: torch 2.13 writes 3 for torch.jit.save of
plain models and up to 10)."""


class Archive:
    """What an archive holds, as data.

    root: the Obj of the top module (data.pkl); constants: the tuple of constants.pkl;
    code: {module qualname ("__torch__.torch.nn.modules.conv"): (entry name, text)};
    version: the file format version; lite: a bytecode.pkl is present (a .ptl);
    tensor_count: how many distinct tensors the pickles built."""

    def __init__(self):
        self.root = None
        self.constants: tuple = ()
        self.code: dict[str, tuple[str, str]] = {}
        self.version = 0
        self.lite = False
        self.label = "archive"
        self.tensor_count = 0


def read_archive_file(path) -> Archive:
    try:
        with open(path, "rb") as fh:
            data = fh.read()
    except OSError as e:
        raise ArtifactError(f"cannot read {str(path)!r}: {e.strerror or e}") from None
    return read_archive(data, label=str(path))


def read_archive(data: bytes, label: str = "archive") -> Archive:
    """Check a TorchScript archive's bytes and return its parts; ArtifactError on any
    problem."""
    try:
        return _read(bytes(data), label)
    except ArtifactError:
        raise
    except (RecursionError, MemoryError, OverflowError, ValueError, TypeError,
            IndexError, KeyError, UnicodeError) as e:
        raise ArtifactError(f"corrupt archive {label}: {type(e).__name__}: {e}") from None


def _read(data: bytes, label: str) -> Archive:
    z = ArchiveZip(data, label)
    a = Archive()
    a.label = label
    a.version = _version(z)
    order = z.read("byteorder", 16).decode("ascii", "replace").strip() \
        if z.has("byteorder") else "little"
    need(order in ("little", "big"), f"byteorder entry says {order[:20]!r}")
    need(z.has("data.pkl"), f"{label} has no data.pkl: not a TorchScript archive")
    need(any(n.startswith("code/") for n in z.names()),
         f"{label} has no code/ folder: a state_dict or tensor file is not a TorchScript "
         "module (save it with torch.jit.save)")
    tensors = _Tensors(z, order)
    root = unpickle(z.read("data.pkl", MAX_PICKLE_BYTES), "data.pkl")
    a.root = tensors.convert(root, "data")
    need(isinstance(a.root, Obj), "data.pkl does not hold a module object")
    if z.has("constants.pkl"):
        consts = unpickle(z.read("constants.pkl", MAX_PICKLE_BYTES), "constants.pkl")
        need(isinstance(consts, tuple), "constants.pkl does not hold a tuple")
        a.constants = tensors.convert(consts, "constants")
    a.lite = z.has("bytecode.pkl")
    a.code = _code(z)
    a.tensor_count = len(tensors.arrays)
    return a


def _version(z: ArchiveZip) -> int:
    name = ".data/version" if z.has(".data/version") else "version"
    need(z.has(name), "archive has no version entry")
    text = z.read(name, 64).decode("ascii", "replace").strip()
    need(text.isdigit() and len(text) < 4, f"version entry {text[:20]!r} is not a number")
    v = int(text)
    need(v in VERSIONS, f"archive file format version {v} is not one torch writes "
                        f"({VERSIONS.start}-{VERSIONS.stop - 1})")
    return v


def _code(z: ArchiveZip) -> dict:
    out, total = {}, 0
    for name in z.names():
        if not (name.startswith("code/") and name.endswith(".py")):
            continue
        total += z.size_of(name)
        need(total <= MAX_CODE_BYTES, f"the archive's code is larger than {MAX_CODE_BYTES} "
                                      "bytes")
        parts = name[len("code/"):-len(".py")].split("/")
        need(parts[0] == "__torch__" and all(p.isidentifier() for p in parts),
             f"code entry {name[:80]!r} is not a __torch__ module path")
        raw = z.read(name, MAX_CODE_BYTES)
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as e:
            raise ArtifactError(f"code entry {name[:80]!r} is not UTF-8 (byte "
                                f"{e.start})") from None
        out[".".join(parts)] = (f"{z.top}/{name}", text)
    need(out, "archive has no code files")
    return out


class _Tensors:
    """Storages read once per key; tensors are views of them (aliasing kept)."""

    def __init__(self, z: ArchiveZip, order: str):
        self.z = z
        self.order = order
        self.storages: dict = {}
        self.arrays: dict = {}
        self.memo: dict = {}

    def convert(self, v, folder: str):
        """v with every TensorRef replaced by its array (shared values stay shared)."""
        key = id(v)
        if key in self.memo:
            return self.memo[key][1]
        if isinstance(v, TensorRef):
            out = self.tensor(v, folder)
        elif isinstance(v, list):
            out = []
            self.memo[key] = (v, out)
            out.extend(self.convert(x, folder) for x in v)
            return out
        elif isinstance(v, tuple):
            out = tuple(self.convert(x, folder) for x in v)
        elif isinstance(v, dict):
            out = {}
            self.memo[key] = (v, out)
            for k, x in v.items():
                out[k] = self.convert(x, folder)
            return out
        elif isinstance(v, Obj):
            out = Obj(v.qualname)
            self.memo[key] = (v, out)
            out.state, out.has_state = self.convert(v.state, folder), v.has_state
            return out
        elif isinstance(v, Storage):
            raise ArtifactError("a storage appears outside a tensor")
        else:
            return v
        self.memo[key] = (v, out)
        return out

    def storage(self, s: Storage, folder: str) -> np.ndarray:
        name = f"{folder}/{s.key}"
        hit = self.storages.get(name)
        if hit is not None:
            need(hit.dtype == np.dtype(s.dtype) and hit.size == s.numel,
                 f"storage {name} is used as two different types or sizes")
            return hit
        need(self.z.has(name), f"tensor storage {name} is missing from the archive")
        itemsize = np.dtype(s.dtype).itemsize
        want = s.numel * itemsize
        have = self.z.size_of(name)
        need(have == want, f"storage {name} holds {have} bytes but {s.numel} {s.dtype} "
                           f"elements need {want}")
        raw = self.z.read(name)
        dt = np.dtype(s.dtype).newbyteorder("<" if self.order == "little" else ">")
        arr = np.frombuffer(raw, dtype=dt).astype(np.dtype(s.dtype), copy=True)
        self.storages[name] = arr
        return arr

    def tensor(self, t: TensorRef, folder: str) -> np.ndarray:
        base = self.storage(t.storage, folder)
        n = base.size
        numel = 1
        for d in t.size:
            numel *= d
        need(numel <= max(n, MAX_EXPANDED), f"tensor view of {numel} elements over a "
                                             f"{n}-element storage (a stride-0 expansion "
                                             f"larger than {MAX_EXPANDED} elements)")
        if numel == 0:
            need(t.offset <= n, f"tensor offset {t.offset} is outside its storage of {n}")
        else:
            last = t.offset + sum((d - 1) * s for d, s in zip(t.size, t.stride))
            need(last < n, f"tensor view (offset {t.offset}, size {list(t.size)[:8]}, "
                           f"stride {list(t.stride)[:8]}) reaches element {last} of a "
                           f"{n}-element storage")
        item = base.itemsize
        view = np.lib.stride_tricks.as_strided(
            base[t.offset:] if numel else base[:0], shape=t.size,
            strides=tuple(s * item for s in t.stride)) if numel else \
            np.zeros(t.size, dtype=base.dtype)
        self.arrays[id(t)] = view
        return view
