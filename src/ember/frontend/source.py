"""Getting the source of Python functions and classes, dedented, with file positions."""

from __future__ import annotations

import inspect
import textwrap

from ember.errors import Source, UnsupportedError


def source_of(obj) -> Source:
    """The Source of a function or class: file, first line, dedented text, column offset."""
    try:
        lines, first_line = inspect.getsourcelines(obj)
        filename = inspect.getsourcefile(obj) or inspect.getfile(obj)
    except (OSError, TypeError) as e:
        name = getattr(obj, "__qualname__", repr(obj))
        raise UnsupportedError(
            f"cannot read the source of {name} ({e}); ember compiles from source: define it "
            "in a .py file, or pass the source text to ember.CompilationUnit") from None
    text = "".join(lines)
    dedented = textwrap.dedent(text)
    col_offset = _common_indent(text)
    return Source(filename, dedented, max(first_line, 1), col_offset)


def _common_indent(text: str) -> int:
    widths = [len(line) - len(line.lstrip()) for line in text.splitlines() if line.strip()]
    return min(widths) if widths else 0
