"""ember's private on-disk cache: what a process would otherwise recompute from files that
did not change (parser tables, parsed sources, where classes sit in their files).

Everything lives in one folder, `$XDG_CACHE_HOME/ember` (else `~/.cache/ember`), created
mode 0700 and used only while it belongs to this user and no one else can write to it:
never the shared temporary directory, where another user could plant an entry. Entries
are JSON (never a pickle), named by a digest of everything their content depends on, and
written atomically (a temporary file renamed into place). A missing, unreadable or
malformed entry is a miss: the caller recomputes it and stores it again.
`EMBER_CACHE=0` in the environment turns the cache off.
"""

from __future__ import annotations

import collections
import hashlib
import json
import os
import tempfile
import threading

from ember.cachedir import _FOLDER, _private_folder, folder  # noqa: E402,F401


def digest(*parts) -> str:
    """A file-name-safe digest of parts (strings or bytes)."""
    h = hashlib.sha256()
    for part in parts:
        data = part if isinstance(part, bytes) else str(part).encode("utf-8", "surrogatepass")
        h.update(len(data).to_bytes(8, "little"))
        h.update(data)
    return h.hexdigest()[:32]


def entry_path(kind: str, key: str):
    """Where the entry key (a digest) of kind is kept; False without a cache folder."""
    base = folder()
    return os.path.join(base, f"{kind}-{key}.json") if base else False


def load(kind: str, key: str):
    """The JSON value stored for (kind, key), or None."""
    path = entry_path(kind, key)
    if not path:
        return None
    try:
        with open(path, encoding="utf-8") as fh:
            return json.load(fh)
    except (OSError, ValueError, RecursionError):
        return None


def store(kind: str, key: str, value) -> None:
    """Store a JSON-ready value for (kind, key); a failure to write is not an error.

    The value is serialized here and written by a background thread (a file costs ~0.3 ms
    to create, and a first compile writes dozens) that the interpreter waits for at exit;
    `flush()` waits for it too."""
    path = entry_path(kind, key)
    text = _json_text(value) if path else None
    if text is None:
        return
    with _QUEUE_LOCK:
        _QUEUE.append((path, text))
        if not _WRITER:
            writer = threading.Thread(target=_drain, name="ember-disk-cache")
            _WRITER.append(writer)
            writer.start()


_QUEUE: collections.deque = collections.deque()
"""(path, JSON text) entries waiting to be written."""
_WRITER: list = []
"""The writer thread, while one runs."""
_QUEUE_LOCK = threading.Lock()


def _drain() -> None:
    if not _PRUNED:
        _PRUNED.append(_prune())
    while True:
        with _QUEUE_LOCK:
            if not _QUEUE:
                _WRITER.clear()
                return
            path, text = _QUEUE.popleft()
        _write_text(path, text)


def flush() -> None:
    """Wait until every entry stored so far is written."""
    with _QUEUE_LOCK:
        writer = _WRITER[0] if _WRITER else None
    if writer is not None and writer is not threading.current_thread():
        writer.join()


def _after_fork() -> None:
    """A forked child has no writer thread: it starts afresh (entries queued in the parent
    are the parent's to write)."""
    global _QUEUE_LOCK
    _QUEUE_LOCK = threading.Lock()
    _QUEUE.clear()
    _WRITER.clear()


if hasattr(os, "register_at_fork"):  # POSIX only
    os.register_at_fork(after_in_child=_after_fork)


MAX_ENTRIES = 10_000
"""A process's first write finds more entries than this (those of sources since edited, of
parsers since changed): it deletes the older half."""
_PRUNED: list = []


def _prune() -> int:
    paths = [p for p in entries() if os.path.basename(p).startswith(("ast-", "class"))]
    if len(paths) <= MAX_ENTRIES:
        return 0
    paths.sort(key=_age)
    for path in paths[:len(paths) // 2]:
        try:
            os.unlink(path)
        except OSError:
            pass
    return len(paths) // 2


def _age(path: str) -> int:
    try:
        return os.stat(path).st_mtime_ns
    except OSError:
        return 0


def write_json(path: str, value) -> None:
    """Write value to path atomically (a temporary file in the same folder, renamed)."""
    text = _json_text(value)
    if text is not None:
        _write_text(path, text)


def _json_text(value):
    """value as compact JSON text, or None if it has no JSON form."""
    try:
        return json.dumps(value, separators=(",", ":"))
    except (ValueError, TypeError, RecursionError):
        return None


def _write_text(path: str, text: str) -> None:
    try:
        fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path), prefix=".tmp-", suffix=".json")
    except OSError:
        return
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        os.replace(tmp, path)
    except OSError:
        try:
            os.unlink(tmp)
        except OSError:
            pass


_PREFIXES = ("ast-", "class-", "classes-", "fast-tables-", "lark-tables-", ".tmp-",
             ".tables-", "llvm-")
"""The names of the files ember writes in the folder (and their temporaries)."""


def entries() -> list:
    """The paths of ember's files in the cache folder (none without one), once every entry
    stored so far is written."""
    flush()
    base = folder()
    if not base:
        return []
    try:
        names = sorted(os.listdir(base))
    except OSError:
        return []
    return [os.path.join(base, n) for n in names if n.startswith(_PREFIXES)]


def clear() -> int:
    """Delete ember's files from the cache folder; how many were deleted."""
    done = 0
    for path in entries():
        try:
            os.unlink(path)
            done += 1
        except OSError:
            pass
    return done

