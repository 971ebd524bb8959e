"""Writing artifacts from the compiler: the writer itself is `ember.mobile.artifact_writer`
(numpy only, so that a loaded artifact can save itself); the compiler's artifacts name
their sources without the builder's absolute paths (`portable.py`)."""

from __future__ import annotations

from ember.interpreter.portable import portable_names
from ember.mobile import artifact_writer as _writer
from ember.mobile.artifact_writer import _tensor_plan, compact_lines  # noqa: F401

__all__ = ["artifact_bytes", "write_artifact", "write_to", "compact_lines"]


def artifact_bytes(program, default_entry: str | None = None) -> bytes:
    """The artifact file's bytes for `program` (format: ember/mobile/artifact.py)."""
    return _writer.artifact_bytes(program, default_entry, portable_names)


def write_artifact(program, path, default_entry: str | None = None,
                   durable: bool = False) -> None:
    """Write `program` to `path` atomically, streaming each tensor from its own buffer
    (durable=True: fsynced before it is renamed into place)."""
    _writer.write_artifact(program, path, default_entry, portable_names, durable)


def write_to(program, fh, default_entry: str | None = None) -> None:
    """Write the artifact to the seekable binary file `fh` (see the mobile writer)."""
    _writer.write_to(program, fh, default_entry, portable_names)
