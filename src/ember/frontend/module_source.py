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
from ember.frontend.compiler import FuncInfo
from ember.frontend.overloads import is_overload_decorator
from ember.frontend.parser import parse_expression, parse_module
from ember.frontend.source import source_of

_CACHE: dict = {}


def class_source(cls) -> "ClassSource":
    """The ClassSource of cls, read once per process (UnsupportedError without source)."""
    hit = _CACHE.get(cls)
    if hit is None:
        hit = _CACHE[cls] = ClassSource(cls)
    return hit


class ClassSource:
    """One class's source: CPython's tree of it, and ember ASTs of its methods on demand."""

    def __init__(self, cls):
        self.source: Source = source_of(cls)
        try:
            tree = pyast.parse(self.source.text)
        except SyntaxError as e:  # ember's parser reports it properly when a method is read
            raise UnsupportedError(f"cannot parse the source of {cls.__qualname__}: {e.msg}",
                                   None) from None
        self.tree = next(n for n in tree.body if isinstance(n, pyast.ClassDef))
        self.defs = {n.name: n for n in self.tree.body if isinstance(n, pyast.FunctionDef)}
        self.overloads: dict[str, list] = {}
        """Method name -> its `@torch.jit._overload_method` declarations, in order."""
        for n in self.tree.body:
            if isinstance(n, pyast.FunctionDef) and any(
                    is_overload_decorator(_dotted(d)) for d in n.decorator_list):
                self.overloads.setdefault(n.name, []).append(n)
        self._parsed: dict = {}
        self._scans: dict = {}
        """What the scans below found: they depend only on the source."""

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
        span = self.span(self.tree)
        head = Span(self.source, span.line, span.col, span.line, span.col + 5)
        return A.ClassDef(head, self.tree.name, [], [], [])

    # -- methods -------------------------------------------------------------------------------
    def method(self, name: str) -> tuple[A.FunctionDef, Source]:
        """The ember AST and Source of method `name`, parsed on first use."""
        return self._parse(self.defs[name])

    def overload(self, name: str, i: int) -> A.FunctionDef:
        """The ember AST of the i-th overload declaration of method `name`."""
        return self._parse(self.overloads[name][i])[0]

    def _parse(self, d) -> tuple[A.FunctionDef, Source]:
        hit = self._parsed.get(d.lineno)
        if hit is None:
            first = min([d.lineno] + [x.lineno for x in d.decorator_list])
            lines = self.source.text.splitlines(keepends=True)[first - 1:d.end_lineno]
            indent = d.col_offset
            text = "".join(line[indent:] if line[:indent].isspace() else line.lstrip()
                           for line in lines)
            sub = Source(self.source.filename, text, self.line(first),
                         self.source.col_offset + indent)
            node = next(n for n in parse_module(sub).body if isinstance(n, A.FunctionDef))
            hit = self._parsed[d.lineno] = (node, sub)
        return hit

    def decorators(self, name: str) -> list[str]:
        """Dotted names of method `name`'s decorators (`torch.jit.export`)."""
        return [_dotted(d.func if isinstance(d, pyast.Call) else d)
                for d in self.defs[name].decorator_list]

    # -- scans ---------------------------------------------------------------------------------
    def assigned_attributes(self) -> frozenset:
        """`self.x` targets assigned (=, +=, x: T =) in methods other than __init__."""
        return self._scan("assigned", self._assigned_attributes)

    def _assigned_attributes(self) -> frozenset:
        out = set()
        for name, d in self.defs.items():
            if name == "__init__" or not d.args.args:
                continue
            me = d.args.args[0].arg
            for n in pyast.walk(d):
                for t in _targets(n):
                    if isinstance(t, pyast.Attribute) and isinstance(t.value, pyast.Name) \
                            and t.value.id == me:
                        out.add(t.attr)
        return frozenset(out)

    def annotations(self, wanted) -> list[tuple[str, object]]:
        """(attribute, annotation) for the attributes in `wanted` annotated by `x: T` in the
        class body or `self.x: T = ...` in __init__: a builtin type name as a str ("int"),
        anything else as an ember AST."""
        return [(name, ann) for name, ann in self._scan("annotations", self._annotations)
                if name in wanted]

    def _annotations(self) -> tuple:
        found = [(s.target.id, s.annotation) for s in self.tree.body
                 if isinstance(s, pyast.AnnAssign) and isinstance(s.target, pyast.Name)]
        init = self.defs.get("__init__")
        if init is not None and init.args.args:
            me = init.args.args[0].arg
            found += [(n.target.attr, n.annotation) for n in pyast.walk(init)
                      if isinstance(n, pyast.AnnAssign) and isinstance(n.target, pyast.Attribute)
                      and isinstance(n.target.value, pyast.Name) and n.target.value.id == me]
        out = []
        lines = self.source.text.splitlines()
        for name, ann in found:
            if isinstance(ann, pyast.Name) and ann.id in ("int", "float", "bool", "str"):
                out.append((name, ann.id))
                continue
            if ann.lineno != ann.end_lineno:
                continue
            text = lines[ann.lineno - 1][ann.col_offset:ann.end_col_offset]
            try:
                out.append((name, parse_expression(text, self.source, self.line(ann.lineno),
                                                   ann.col_offset + 1)))
            except Exception:  # noqa: BLE001 - an annotation ember cannot read: use the value
                continue
        return tuple(out)

    def constants(self) -> dict:
        """Literal constants of the class body: `K = 3`, `K: Final[int] = 3`."""
        return dict(self._scan("constants", self._constants))

    def _constants(self) -> dict:
        out = {}
        for s in self.tree.body:
            if isinstance(s, pyast.Assign) and len(s.targets) == 1 and \
                    isinstance(s.targets[0], pyast.Name):
                name, value = s.targets[0].id, s.value
            elif isinstance(s, pyast.AnnAssign) and isinstance(s.target, pyast.Name) and \
                    s.value is not None and "Final" in (pyast.unparse(s.annotation) or ""):
                name, value = s.target.id, s.value
            else:
                continue
            try:
                v = pyast.literal_eval(value)
            except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
                continue
            if _is_literal(v):
                out[name] = v
        return out

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


def _targets(n):
    if isinstance(n, pyast.Assign):
        return n.targets
    if isinstance(n, (pyast.AugAssign, pyast.AnnAssign)):
        return [n.target]
    return []


def _dotted(node) -> str:
    parts = []
    while isinstance(node, pyast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, pyast.Name):
        return ""
    parts.append(node.id)
    return ".".join(reversed(parts))


def _is_literal(v) -> bool:
    if v is None or isinstance(v, (bool, int, float, str)):
        return not isinstance(v, int) or -(1 << 63) <= v < (1 << 63)
    return isinstance(v, tuple) and all(_is_literal(x) for x in v)


class MethodInfo(FuncInfo):
    """A module method whose ember AST is parsed when the compiler first needs it."""

    def __init__(self, name, klass: ClassSource, method: str, scope, pyfn, owner):
        self._klass, self._method = klass, method
        super().__init__(name, None, None, scope, pyfn, owner)

    @property
    def node(self) -> A.FunctionDef:
        return self._klass.method(self._method)[0]

    @node.setter
    def node(self, value) -> None:
        pass  # FuncInfo.__init__ assigns it; the AST comes from the class source

    @property
    def source(self) -> Source:
        return self._klass.method(self._method)[1]

    @source.setter
    def source(self, value) -> None:
        pass
