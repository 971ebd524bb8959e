"""Artifact mutators: each takes (rng, artifact bytes) and returns (mutant bytes, a
description). Raw mutators here edit bytes as they are (most fail a CRC or a
checksum); entry mutators (entry_mutators.py) unzip, edit and re-zip with fresh
checksums, so their edits reach the deeper checks.
"""

from __future__ import annotations

import hashlib
import io
import json
import struct
import zipfile

BOUNDARY = (0, 1, -1, 2, 7, 63, 64, 255, 256, 1 << 15, (1 << 16) - 1, 1 << 16, 1 << 20,
            (1 << 31) - 1, -(1 << 31), 1 << 31, 1 << 32, 1 << 40, 1 << 63, -(1 << 63),
            10 ** 30)
"""Integers that sit on limits: indices, counts, register numbers, sizes."""
WORD_BOUNDARY = tuple(v for v in BOUNDARY if -(1 << 31) <= v < (1 << 31))
WRONG_TYPES = (None, True, False, 0, -1, 1.5, "x", "", [], {}, [1], {"a": 1}, "0" * 300)


# ----------------------------------------------------------------------------- zip entries


class Entries(dict):
    """An artifact's entries by name. `inline`: the artifact is format 5 or later, whose
    manifest holds code, lines and consts; unpack shows them as the code.bin, lines.bin
    and consts.json entries of formats 1-4 (int32 words, JSON) so that every mutator
    edits both formats alike, and pack folds them back into the manifest."""

    inline = False


_INLINE = {"code.bin": "code", "lines.bin": "lines", "consts.json": "consts"}


def unpack(data: bytes):
    """(manifest, Entries) of a valid artifact (entry order kept)."""
    z = zipfile.ZipFile(io.BytesIO(data))
    files = Entries((n, z.read(n)) for n in z.namelist())
    manifest = json.loads(files.pop("manifest.json"))
    if "code" in manifest:
        files.inline = True
        for name, key in _INLINE.items():
            value = manifest.pop(key)
            files[name] = json.dumps(value).encode() if name == "consts.json" else \
                struct.pack(f"<{len(value)}i", *value)
    return manifest, files


def pack(manifest, files, checksums: bool = True, raw_manifest: bytes | None = None) -> bytes:
    """Zip entries back (a format 5 manifest deflated, the rest stored); `checksums`
    recomputes the manifest's sha256 table."""
    files = dict(files) if not getattr(files, "inline", False) else \
        _fold(manifest, files)
    if checksums and isinstance(manifest, dict):
        manifest["checksums"] = {n: hashlib.sha256(b).hexdigest() for n, b in files.items()}
    text = raw_manifest if raw_manifest is not None else json.dumps(manifest).encode()
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        z.writestr("manifest.json", text, compress_type=zipfile.ZIP_DEFLATED
                   if getattr(files, "inline", False) else zipfile.ZIP_STORED)
        for n, b in files.items():
            z.writestr(n, b)
    return out.getvalue()


def _fold(manifest, files) -> dict:
    """The real entries of an inline artifact; the code, lines and consts shown as entries
    go back into the manifest (an entry they cannot become stays one)."""
    out = Entries(files)
    out.inline = True
    for name, key in _INLINE.items():
        raw = out.get(name)
        try:
            value = json.loads(raw) if name == "consts.json" else \
                list(struct.unpack(f"<{len(raw) // 4}i", raw))
        except (TypeError, ValueError, RecursionError, struct.error):
            continue
        if isinstance(manifest, dict):
            manifest[key] = value
        del out[name]
    return out


def int_value(rng, old=None) -> int:
    """A boundary value, a small one, or old plus or minus a little."""
    r = rng.random()
    if r < 0.5:
        return rng.choice(BOUNDARY)
    if r < 0.8 or not isinstance(old, int) or isinstance(old, bool):
        return rng.randint(-3, 300)
    return old + rng.choice((-2, -1, 1, 2))


# ----------------------------------------------------------------------------- raw bytes


def bit_flips(rng, data):
    b = bytearray(data)
    n = rng.randint(1, 8)
    for _ in range(n):
        pos = rng.randrange(len(b))
        b[pos] ^= 1 << rng.randrange(8)
    return bytes(b), f"{n} bit flips"


def truncate(rng, data):
    cut = rng.randrange(len(data))
    return data[:cut], f"truncated to {cut} bytes"


def splice(rng, data):
    a = rng.randrange(len(data))
    b = min(len(data), a + rng.randint(1, 64))
    if rng.random() < 0.5:
        return data[:a] + data[b:], f"deleted bytes {a}:{b}"
    return data[:b] + data[a:b] + data[b:], f"duplicated bytes {a}:{b}"


def zip_header_field(rng, data):
    """A size, offset, count or length field of a local, central or end record."""
    layouts = {b"PK\x03\x04": (18, 22, 26, 28), b"PK\x01\x02": (20, 24, 28, 30, 32, 42),
               b"PK\x05\x06": (8, 10, 12, 16, 20)}
    sig = rng.choice(list(layouts))
    hits = [i for i in range(len(data)) if data.startswith(sig, i)]
    if not hits:
        return data, "no zip record to edit"
    pos = rng.choice(hits) + rng.choice(layouts[sig])
    width = 2 if (sig == b"PK\x05\x06" and pos - hits[0] in (8, 10, 20)) else 4
    value = rng.choice((0, 1, 0xFFFF, 0xFFFFFFFF, 0x7FFFFFFF, rng.randrange(1 << 16)))
    value &= (1 << (8 * width)) - 1
    b = bytearray(data)
    b[pos:pos + width] = value.to_bytes(width, "little")
    return bytes(b), f"zip field at {pos} set to {value}"


# ----------------------------------------------------------------------------- entries


RAW = (bit_flips, truncate, splice, zip_header_field)
"""The raw mutators (ENTRY and MUTATORS, every mutator by weight, are in entry_mutators)."""
