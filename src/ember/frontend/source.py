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
        found = _class_lines(obj) if isinstance(obj, type) else None
        if found is None:
            name = getattr(obj, "__qualname__", repr(obj))
            raise UnsupportedError(
                f"cannot read the source of {name} ({e}); ember compiles from source: define "
                "it in a .py file, or pass the source text to ember.CompilationUnit") from None
        lines, first_line, filename = found
    text = "".join(lines)
    dedented = textwrap.dedent(text)
    col_offset = _common_indent(text)
    return Source(filename, dedented, max(first_line, 1), col_offset)


def _common_indent(text: str) -> int:
    widths = [len(line) - len(line.lstrip()) for line in text.splitlines() if line.strip()]
    return min(widths) if widths else 0


def _class_lines(cls):
    """(lines, first line, file) of a class whose module is not in sys.modules (loaded from a
    spec, as generated code often is): found through its methods' code objects."""
    import ast
    import linecache

    filename = next((f.__code__.co_filename for f in map(_function_of, vars(cls).values())
                     if f is not None), None)
    if filename is None:
        return None
    text = "".join(linecache.getlines(filename))
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return None
    node = tree
    for part in cls.__qualname__.replace("<locals>.", "").split("."):
        node = next((n for n in ast.walk(node) if isinstance(n, ast.ClassDef) and
                     n.name == part), None)
        if node is None:
            return None
    first = min([node.lineno] + [d.lineno for d in node.decorator_list])
    all_lines = text.splitlines(keepends=True)
    return all_lines[first - 1:node.end_lineno], first, filename


def _function_of(v):
    f = getattr(v, "__func__", v)
    return f if hasattr(f, "__code__") else None
