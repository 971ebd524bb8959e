"""Helpers for the runtime tests: bytecode listings in, loaded modules out."""

from __future__ import annotations

import pytest

from ember import mobile
from ember.errors import ArtifactError
from ember.interpreter.assembler import assemble


def build(text: str, **kw):
    """The LoadedModule of an assembler listing."""
    return mobile.build(assemble(text, **kw))


def fn(text: str, **kw):
    """The first function of a listing, as a loaded entry (no `.entry` line needed)."""
    program = assemble(text, **kw)
    program.entries = program.entries or {program.functions[0].name: 0}
    return mobile.build(program).entry(next(iter(program.entries)))


def rejects(text: str, match: str, **kw) -> str:
    """Assert the listing fails verification with a message matching `match`."""
    program = assemble(text, **kw)
    with pytest.raises(ArtifactError, match=match) as ei:
        mobile.build(program)
    return str(ei.value)
