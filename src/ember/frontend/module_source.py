"""Reading module classes quickly: what the compiler needs from a class body is found with
CPython's `ast` (C speed); ember's own parser reads only the methods that are compiled and
the attribute annotations.

Scripting a model touches every layer class's source (Conv2d, BatchNorm2d, …), but
compiles a few methods of each: parsing whole classes with the LALR parser was most of a
model's script time.
"""

from __future__ import annotations

import ast as pyast

from ember.errors import Source, Span, UnsupportedError
from ember.frontend import ast as A
from ember.frontend import class_summary
from ember.frontend.compiler import FuncInfo
from ember.frontend.overloads import is_overload_decorator
from ember.frontend.parser import parse_expression, parse_module
from ember.frontend.source import parse_quietly, source_of

_CACHE: dict = {}


def class_source(cls) -> "ClassSource":
    """The ClassSource of cls, read once per process (UnsupportedError without source)."""
    hit = _CACHE.get(cls)
    if hit is None:
        hit = _CACHE[cls] = ClassSource(cls)
    return hit


class ClassSource:
    """One class's source, what the compiler reads from its body (class_summary.py: kept on
    disk, else found with CPython's tree of it), and ember ASTs of its methods on demand."""

    def __init__(self, cls):
        self.source: Source = source_of(cls)
        self._tree = None
        self._name = cls.__qualname__
        summary = class_summary.load(self.source.text)
        if summary is None:
            summary = class_summary.summarize(self.tree, self.source.text,
                                              is_overload_decorator)
            class_summary.store(self.source.text, summary)
        self.summary = summary
        self.defs: dict = summary["defs"]
        """Method name -> [line, first line, end line, column, decorators] (the last def of
        each name)."""
        self.overloads: dict[str, list] = summary["overloads"]
        """Method name -> its `@torch.jit._overload_method` declarations, in order."""
        self._parsed: dict = {}
        self._scans: dict = {}
        """What the scans below found: they depend only on the source."""

    @property
    def tree(self) -> pyast.ClassDef:
        """CPython's tree of the class (parsed when first needed)."""
        if self._tree is None:
            try:
                tree = parse_quietly(self.source.text)
            except SyntaxError as e:  # ember's parser reports it properly on a method
                raise UnsupportedError(f"cannot parse the source of {self._name}: {e.msg}",
                                       None) from None
            self._tree = next(n for n in tree.body if isinstance(n, pyast.ClassDef))
        return self._tree

    def _scan(self, name: str, fn):
        hit = self._scans.get(name)
        if hit is None:
            hit = self._scans[name] = fn()
        return hit

    # -- positions -----------------------------------------------------------------------------
    def line(self, rel: int) -> int:
        """The file line of line `rel` (1-based) of the class's text."""
        return self.source.first_line + rel - 1

    def span(self, node) -> Span:
        return Span(self.source, self.line(node.lineno), node.col_offset + 1,
                    self.line(node.end_lineno or node.lineno), (node.end_col_offset or 0) + 1)

    def class_def(self) -> A.ClassDef:
        """An ember ClassDef carrying the class line's span (its body is not needed)."""
        line, col = self.line(self.summary["head"][0]), self.summary["head"][1] + 1
        head = Span(self.source, line, col, line, col + 5)
        return A.ClassDef(head, self._name.rsplit(".", 1)[-1], [], [], [])

    # -- methods -------------------------------------------------------------------------------
    def method(self, name: str) -> tuple[A.FunctionDef, Source]:
        """The ember AST and Source of method `name`, parsed on first use."""
        return self._parse(self.defs[name])

    def overload(self, name: str, i: int) -> A.FunctionDef:
        """The ember AST of the i-th overload declaration of method `name`."""
        return self._parse(self.overloads[name][i])[0]

    def _parse(self, d) -> tuple[A.FunctionDef, Source]:
        line, first, end, indent, _ = d
        hit = self._parsed.get(line)
        if hit is None:
            lines = self.source.text.splitlines(keepends=True)[first - 1:end]
            text = "".join(text[indent:] if text[:indent].isspace() else text.lstrip()
                           for text in lines)
            sub = Source(self.source.filename, text, self.line(first),
                         self.source.col_offset + indent)
            node = next(n for n in parse_module(sub).body if isinstance(n, A.FunctionDef))
            hit = self._parsed[line] = (node, sub)
        return hit

    def decorators(self, name: str) -> list[str]:
        """Dotted names of method `name`'s decorators (`torch.jit.export`)."""
        return list(self.defs[name][4])

    # -- scans ---------------------------------------------------------------------------------
    def assigned_attributes(self) -> frozenset:
        """`self.x` targets assigned (=, +=, x: T =) in methods other than __init__."""
        return self._scan("assigned", lambda: frozenset(self.summary["assigned"]))

    def annotations(self, wanted) -> list[tuple[str, object]]:
        """(attribute, annotation) for the attributes in `wanted` annotated by `x: T` in the
        class body or `self.x: T = ...` in __init__: a builtin type name as a str ("int"),
        anything else as an ember AST."""
        return [(name, ann) for name, ann in self._scan("annotations", self._annotations)
                if name in wanted]

    def _annotations(self) -> tuple:
        out = []
        for name, builtin, text, line, col in self.summary["annotations"]:
            if builtin is not None:
                out.append((name, builtin))
                continue
            try:
                out.append((name, parse_expression(text, self.source, self.line(line),
                                                   col + 1)))
            except Exception:  # noqa: BLE001 - an annotation ember cannot read: use the value
                continue
        return tuple(out)

    def constants(self) -> dict:
        """Literal constants of the class body: `K = 3`, `K: Final[int] = 3`."""
        return dict(self._scan("constants", lambda: class_summary.constants(self.summary)))

    def assignment_span(self, attr: str) -> Span | None:
        """The span of `self.attr = ...` (or of a container's add_module / append)."""
        for n in pyast.walk(self.tree):
            if isinstance(n, pyast.Assign) and any(
                    isinstance(t, pyast.Attribute) and t.attr == attr for t in n.targets):
                return self.span(n)
        for n in pyast.walk(self.tree):
            if isinstance(n, pyast.Call) and isinstance(n.func, pyast.Attribute) and \
                    n.func.attr in ("add_module", "append") and n.args:
                return self.span(n)
        return None


class MethodInfo(FuncInfo):
    """A module method whose ember AST is parsed when the compiler first needs it."""

    def __init__(self, name, klass: ClassSource, method: str, scope, pyfn, owner):
        self._klass, self._method = klass, method
        super().__init__(name, None, None, scope, pyfn, owner)

    @property
    def node(self) -> A.FunctionDef:
        node = self._klass.method(self._method)[0]
        if getattr(self, "cls_param", None) and node.args and node.args[0].arg == self.cls_param:
            import dataclasses  # a @classmethod: its cls parameter is bound at compile time
            node = dataclasses.replace(node, args=node.args[1:])
        return node

    @node.setter
    def node(self, value) -> None:
        pass  # FuncInfo.__init__ assigns it; the AST comes from the class source

    @property
    def source(self) -> Source:
        return self._klass.method(self._method)[1]

    @source.setter
    def source(self, value) -> None:
        pass
