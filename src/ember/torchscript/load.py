"""`ember.load_torchscript(path)` and `ember.trace(model, example_inputs)`.

    sm = ember.load_torchscript("model.pt")   # a .pt (torch.jit.save) or .ptl; no torch
    sm(x)                                     # forward; other methods are attributes
    sm.save("model.ember")                    # an artifact ember.mobile runs with numpy

The archive is read without torch or pickle (archive.py), its code compiled by ember's
frontend (importer.py), frozen like `ember.script(module)` (batch norms fold into
convolutions) and lowered once.
"""

from __future__ import annotations

import io
import warnings

from ember.api.core import no_gc


class TraceWarning(UserWarning):
    """torch.jit.trace baked a data-dependent branch or shape into the trace (TorchScript's
    TracerWarning, re-issued naming the model's line)."""


@no_gc
def load_torchscript(path, optimize: bool = True):
    """A ScriptModule for a TorchScript archive (a path, or the archive's bytes)."""
    from ember.torchscript.archive import read_archive, read_archive_file

    if isinstance(path, (bytes, bytearray, memoryview)):
        archive = read_archive(bytes(path), label="<archive bytes>")
    else:
        archive = read_archive_file(path)
    return load_archive(archive, optimize)


def load_archive(archive, optimize: bool = True):
    from ember.api.core import _Compiled
    from ember.api.modules import ScriptModule
    from ember.torchscript.importer import compile_archive

    module, names, inventory = compile_archive(archive)
    settled = False
    if optimize:
        from ember.passes.freeze import freeze_module
        settled = freeze_module(module)
    sm = ScriptModule(_Compiled(module, optimize, settled), names, frozen=optimize)
    inventory.operators = list(sm.program.operators) if hasattr(sm.program, "operators") \
        else []
    sm.inventory = inventory
    return sm


def trace(model, example_inputs, optimize: bool = True):
    """torch.jit.trace(model, example_inputs), imported in memory (the same importer as a
    saved archive: traced-and-saved and traced-in-memory agree). torch's TracerWarnings
    (a branch or shape baked in from the example) are re-issued as TraceWarning naming the
    model's line."""
    import torch

    if not isinstance(example_inputs, tuple):
        example_inputs = (example_inputs,)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        traced = torch.jit.trace(model, example_inputs, check_trace=False)
    for w in caught:
        if issubclass(w.category, torch.jit.TracerWarning):
            warnings.warn(TraceWarning(f"{w.filename}:{w.lineno}: {w.message}"),
                          stacklevel=2)
    buf = io.BytesIO()
    torch.jit.save(traced, buf)
    return load_torchscript(buf.getvalue(), optimize)
