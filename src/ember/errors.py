"""Every error ember raises on user input.

Compile-time errors carry a `Span` into the user's source and render as

    error: cannot add 'Tensor' and 'str'
      --> model.py:4:12
       |
     4 |     return y + "a"
       |            ^^^^^^^
    note: while type-checking 'forward'

Run-time errors raised by script code are *not* ember errors: they surface as
the same Python builtin exception the code would raise under CPython, with the
script traceback attached as a note (see `ember.mobile`).

This module imports only the standard library: the lite runtime uses it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

MAX_ERRORS = 20
"""The type checker stops collecting after this many errors."""


@dataclass(frozen=True, eq=False)
class Source:
    """A piece of source text and where it came from."""

    filename: str
    """Path shown in messages ("<string>" for CompilationUnit sources)."""
    text: str = field(repr=False)
    """The text itself, already dedented if it came from an indented def."""
    first_line: int = 1
    """Line number in `filename` of the first line of `text` (1-based)."""
    col_offset: int = 0
    """Columns removed by dedenting; added back when rendering columns."""

    def line(self, lineno: int) -> str:
        """The text of file line `lineno` (absolute, 1-based), or ''."""
        lines = self.text.splitlines()
        i = lineno - self.first_line
        if 0 <= i < len(lines):
            return lines[i]
        return ""


@dataclass(frozen=True, eq=False)
class Span:
    """A range of source: start and end as (line, col), both 1-based, end exclusive.

    Lines are absolute file lines (the Source's first_line already applied);
    columns count characters of the stored (dedented) text.
    """

    source: Source
    line: int
    col: int
    end_line: int
    end_col: int

    @property
    def filename(self) -> str:
        return self.source.filename

    def to(self, other: "Span") -> "Span":
        """The span from the start of self to the end of other."""
        return Span(self.source, self.line, self.col, other.end_line, other.end_col)

    def render(self) -> str:
        """The ` --> file:line:col` header, the source line and carets."""
        col = self.col + self.source.col_offset
        out = [f"  --> {self.filename}:{self.line}:{col}"]
        text = self.source.line(self.line)
        if text:
            indent = " " * self.source.col_offset
            gutter = str(self.line)
            pad = " " * len(gutter)
            end = self.end_col if self.end_line == self.line else len(text) + 1
            width = max(1, min(end, len(text) + 1) - self.col)
            out.append(f" {pad} |")
            out.append(f" {gutter} | {indent}{text}")
            out.append(f" {pad} | {indent}{' ' * (self.col - 1)}{'^' * width}")
        return "\n".join(out)


@dataclass
class Diagnostic:
    """One error message with its span and notes."""

    message: str
    span: Span | None = None
    notes: list[str] = field(default_factory=list)

    def render(self) -> str:
        parts = [f"error: {self.message}"]
        if self.span is not None:
            parts.append(self.span.render())
        parts.extend(f"note: {n}" for n in self.notes)
        return "\n".join(parts)


class EmberError(Exception):
    """Base class of every error ember raises itself."""


class CompileError(EmberError):
    """An error in the user's program found before it runs.

    Attributes: `filename`, `line` (1-based), `col` (1-based), `message`, `span`
    of the first error, and `diagnostics`, every error found (at most
    MAX_ERRORS), first error first.
    """

    kind = "compile error"

    def __init__(self, message: str, span: Span | None = None, notes=(), diagnostics=None):
        if diagnostics is None:
            diagnostics = [Diagnostic(message, span, list(notes))]
        self.diagnostics = list(diagnostics)
        first = self.diagnostics[0]
        self.message = first.message
        self.span = first.span
        self.filename = first.span.filename if first.span else None
        self.line = first.span.line if first.span else None
        self.col = (first.span.col + first.span.source.col_offset) if first.span else None
        super().__init__(self._render())

    def _render(self) -> str:
        text = "\n\n".join(d.render() for d in self.diagnostics)
        if len(self.diagnostics) > 1:
            text += f"\n\n{len(self.diagnostics)} errors"
        return text

    def add_note(self, note: str) -> None:  # type: ignore[override]
        """Append a `note:` line to the first diagnostic (the Numba `During:` chain)."""
        self.diagnostics[0].notes.append(note)
        self.args = (self._render(),)

    def __str__(self) -> str:
        return self.args[0] if self.args else ""


class ParseError(CompileError):
    """The source is not valid syntax for ember's language."""

    kind = "syntax error"


class TypeCheckError(CompileError):
    """A type error: mismatched operands, wrong arity, bad return type, …"""

    kind = "type error"


class ShapeError(TypeCheckError):
    """A tensor shape mismatch proven at compile time."""

    kind = "shape error"


class NameResolutionError(CompileError):
    """A name that does not resolve to a local, global, builtin or operator."""

    kind = "name error"


class UnsupportedError(CompileError):
    """Valid Python that ember does not compile (yet); the message says what to do."""

    kind = "unsupported"


class IRParseError(CompileError):
    """Textual IR that the IR parser cannot read."""

    kind = "IR syntax error"


class VerifyError(CompileError):
    """IR that breaks an invariant (dominance, types, terminators)."""

    kind = "IR verification error"


class LoweringError(CompileError):
    """IR that cannot be lowered to bytecode (a limit was exceeded)."""

    kind = "lowering error"


class ArtifactError(EmberError):
    """An artifact file that is corrupt, truncated, too new or otherwise unloadable.

    Raised at load time, before any instruction runs.
    """


class CallError(TypeError):
    """Wrong number or types of arguments at a script function's call boundary.

    A subclass of the builtin TypeError, so `except TypeError` catches it.
    """


def collect(errors: list[Diagnostic], cls=CompileError) -> None:
    """Raise `cls` with every diagnostic in `errors` (at most MAX_ERRORS), if any."""
    if errors:
        raise cls(errors[0].message, diagnostics=errors[:MAX_ERRORS])
