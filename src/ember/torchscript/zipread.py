"""A TorchScript archive's zip, read with bounds: every entry under one top folder, no path
that leaves it, no encrypted or oddly compressed entry, inflated sizes tied to the file size.

torch writes its archives with `PyTorchStreamWriter`: stored data entries (64-byte aligned),
deflated code, ZIP64 end records and data descriptors. zipfile reads those; this module adds
the checks an untrusted file needs. Every failure is an ArtifactError naming the problem.
"""

from __future__ import annotations

import io
import zipfile

from ember.errors import ArtifactError

MAX_ENTRIES = 100_000
"""More entries than any real model has (one per storage, two per code file)."""
MAX_INFLATION = 200
"""A deflated entry may declare at most this many bytes per compressed byte (text code
compresses about 5-10x; a zip bomb about 1000x)."""
INFLATION_ALLOWANCE = 1 << 20
MAX_TOTAL_FACTOR = 64
"""All entries together may declare at most this multiple of the file size (plus an
allowance): overlapping or lying entries cannot make the reader allocate more."""


def need(cond, message: str) -> None:
    if not cond:
        raise ArtifactError(message)


class ArchiveZip:
    """The entries of one archive by their name below the top folder ("data.pkl",
    "code/__torch__/m.py", "data/0")."""

    def __init__(self, data: bytes, label: str = "archive"):
        self.label = label
        need(len(data) >= 22, f"{label} is not a TorchScript archive (too short for a zip)")
        if data[4:8] == b"PTMF":
            raise ArtifactError(f"{label} is a flatbuffer lite-interpreter file (PTMF); "
                                "only zip archives (torch.jit.save, "
                                "_save_for_lite_interpreter) can be imported")
        need(data[:4] == b"PK\x03\x04",
             f"{label} is not a TorchScript archive (not a zip file)")
        self.size = len(data)
        try:
            self.zf = zipfile.ZipFile(io.BytesIO(data))
            infos = self.zf.infolist()
        except (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError, OSError, ValueError,
                IndexError, OverflowError, NotImplementedError, UnicodeError) as e:
            raise ArtifactError(f"{label} is not a readable zip: {e}") from None
        self.infos = self._check(infos)
        self._cache: dict[str, bytes] = {}

    def _check(self, infos) -> dict:
        need(infos, f"{self.label} holds no entries")
        need(len(infos) <= MAX_ENTRIES, f"{self.label} has too many entries ({len(infos)})")
        out, total, top = {}, 0, None
        for info in infos:
            name = info.filename
            shown = repr(name[:80])
            need("\\" not in name and "\x00" not in name and not name.startswith("/")
                 and ":" not in name.split("/")[0],
                 f"entry {shown} has a path that leaves the archive")
            parts = name.split("/")
            need(len(parts) >= 2 and all(p not in ("", ".", "..") for p in parts),
                 f"entry {shown} has a path that leaves the archive or is not under "
                 "the archive's top folder")
            if top is None:
                top = parts[0]
            need(parts[0] == top, f"entry {shown} is not under the archive's top folder "
                                  f"{top[:60]!r}")
            need(not info.flag_bits & 0x1, f"entry {shown} is encrypted")
            need(info.compress_type in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED),
                 f"entry {shown} uses compression method {info.compress_type} "
                 "(archives store or deflate)")
            need(info.file_size >= 0 and info.compress_size >= 0,
                 f"entry {shown} declares a negative size")
            if info.compress_type == zipfile.ZIP_STORED:
                need(info.file_size == info.compress_size,
                     f"entry {shown} is stored but declares {info.file_size} bytes for "
                     f"{info.compress_size}")
            else:
                need(info.file_size <= MAX_INFLATION * info.compress_size +
                     INFLATION_ALLOWANCE,
                     f"entry {shown} declares {info.file_size} bytes for "
                     f"{info.compress_size} compressed (a zip bomb?)")
            need(info.compress_size <= self.size,
                 f"entry {shown} declares {info.compress_size} bytes in a "
                 f"{self.size}-byte file")
            rel = "/".join(parts[1:])
            need(rel not in out, f"duplicate entry {shown}")
            out[rel] = info
            total += info.file_size
        need(total <= MAX_TOTAL_FACTOR * self.size + INFLATION_ALLOWANCE,
             f"entries declare {total} bytes in a {self.size}-byte file")
        self.top = top
        return out

    def names(self) -> list[str]:
        return list(self.infos)

    def has(self, name: str) -> bool:
        return name in self.infos

    def size_of(self, name: str) -> int:
        return self.infos[name].file_size

    def read(self, name: str, limit: int | None = None) -> bytes:
        """An entry's bytes, checked against its declared size and CRC."""
        hit = self._cache.get(name)
        if hit is not None:
            return hit
        info = self.infos.get(name)
        need(info is not None, f"{self.label} has no entry {name!r:.80}")
        need(limit is None or info.file_size <= limit,
             f"entry {name!r:.80} is too large ({info.file_size} bytes, limit {limit})")
        try:
            with self.zf.open(info) as fh:
                raw = fh.read(info.file_size + 1)
        except (zipfile.BadZipFile, EOFError, OSError, ValueError, IndexError, OverflowError,
                NotImplementedError, RuntimeError) as e:
            raise ArtifactError(f"entry {name!r:.80} is corrupt: {e}") from None
        except Exception as e:  # zlib.error and friends
            raise ArtifactError(f"entry {name!r:.80} is corrupt: {type(e).__name__}: "
                                f"{e}") from None
        need(len(raw) == info.file_size,
             f"entry {name!r:.80} holds {len(raw)} bytes but declares {info.file_size}")
        self._cache[name] = raw
        return raw
