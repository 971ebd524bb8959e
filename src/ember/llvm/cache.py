"""The native object cache: `llvm-<key>.o` + `llvm-<key>.json` in ember's private folder.

The key is a digest of everything the object code depends on: the optimized IR text of
the module (every function, so an edited callee in another file changes its callers'
key), this package's code version, llvmlite's and LLVM's versions, the target triple,
the host CPU's name and features, and the interpreter's recursion limit. Entries are
object code and JSON (never a pickle), written atomically; a damaged entry is a miss.
Past MAX_BYTES of entries, a write deletes the oldest half. `ember cache [--clear]` shows
and clears them with the rest of the folder; `EMBER_CACHE=0` turns the cache off.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import tempfile

from ember.cachedir import folder

MAX_BYTES = 256 << 20


def key(*parts) -> str:
    h = hashlib.sha256()
    for part in parts + (sys.getrecursionlimit(), sys.version_info[:2]):
        data = str(part).encode("utf-8", "surrogatepass")
        h.update(len(data).to_bytes(8, "little"))
        h.update(data)
    return h.hexdigest()[:40]


def destination():
    """Where a store made now goes (the folder, or False: no cache): a store made later,
    as the optimized tier's (tiers.py), takes it along, so it lands where the compile's
    environment said (EMBER_CACHE, XDG_CACHE_HOME), whatever the environment is by then."""
    return folder()


def _paths(k: str, base=None):
    base = folder() if base is None else base
    if not base:
        return None
    stem = os.path.join(base, f"llvm-{k}")
    return stem + ".json", stem + ".o"


def load(k: str):
    """(metadata, object bytes) stored under k, or None."""
    paths = _paths(k)
    if paths is None:
        return None
    try:
        with open(paths[0], encoding="utf-8") as fh:
            meta = json.load(fh)
        with open(paths[1], "rb") as fh:
            obj = fh.read()
    except (OSError, ValueError, RecursionError):
        return None
    if not isinstance(meta, dict) or meta.get("size") != len(obj) or \
            meta.get("sha256") != hashlib.sha256(obj).hexdigest():
        return None
    return meta, obj


def store(k: str, meta: dict, obj: bytes, where=None) -> None:
    """Keep (meta, obj) under k (in `where`, a `destination()`, if given); a failure to
    write is not an error."""
    paths = _paths(k, where)
    if paths is None:
        return
    meta = dict(meta, size=len(obj), sha256=hashlib.sha256(obj).hexdigest())
    _prune(os.path.dirname(paths[0]))
    if _write(paths[1], obj):  # the object first: the JSON names its digest
        _write(paths[0], json.dumps(meta, separators=(",", ":")).encode())


def _write(path: str, data: bytes) -> bool:
    try:
        fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path), prefix=".tmp-llvm-")
    except OSError:
        return False
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.replace(tmp, path)
        return True
    except OSError:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        return False


def _prune(base: str) -> None:
    try:
        names = [n for n in os.listdir(base) if n.startswith("llvm-")]
        stats = [(os.stat(os.path.join(base, n)), n) for n in names]
    except OSError:
        return
    if sum(st.st_size for st, _ in stats) <= MAX_BYTES:
        return
    stats.sort(key=lambda x: x[0].st_mtime_ns)
    for _, n in stats[:len(stats) // 2]:
        try:
            os.unlink(os.path.join(base, n))
        except OSError:
            pass
