"""ember's AST: Python's own node names and fields, plus a `span` on every node.

Operators are strings: BinOp "+", "-", "*", "/", "//", "%", "**", "@", "<<",
">>", "&", "|", "^"; UnaryOp "-", "+", "~", "not"; BoolOp "and"/"or"; Compare
"==", "!=", "<", "<=", ">", ">=", "in", "not in", "is", "is not".
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from reprlib import recursive_repr

from ember.errors import Span


def _node(cls):
    """@dataclass(eq=False, slots=True), cheaper to apply (every process that compiles
    makes these ~50 classes): no generated __repr__ (Node's one __repr__ writes the text
    dataclass would), and a class without a docstring gets a plain one rather than the
    signature text dataclass would compute through inspect."""
    if cls.__doc__ is None:
        cls.__doc__ = f"The {cls.__name__} node."
    return dataclass(eq=False, slots=True, repr=False)(cls)


@_node
class Node:
    span: Span

    @recursive_repr()
    def __repr__(self) -> str:
        """What dataclass's generated __repr__ gives: `Name(span=..., id='x')`."""
        cls = type(self)
        names = _REPR_FIELDS.get(cls)
        if names is None:
            names = _REPR_FIELDS[cls] = tuple(f.name for f in fields(cls) if f.repr)
        return cls.__qualname__ + "(" + ", ".join(
            f"{name}={getattr(self, name)!r}" for name in names) + ")"


_REPR_FIELDS: dict = {}


# -- module level -----------------------------------------------------------------------------


@_node
class Module(Node):
    body: list


@_node
class Arg(Node):
    """A parameter. kind: "normal", "star" (*args), "starstar" (**kwargs), "kwonly"."""

    arg: str
    annotation: Node | None = None
    default: Node | None = None
    kind: str = "normal"


@_node
class FunctionDef(Node):
    name: str
    args: list
    body: list
    decorators: list = field(default_factory=list)
    returns: Node | None = None
    is_async: bool = False
    name_span: Span | None = None


@_node
class ClassDef(Node):
    name: str
    bases: list
    keywords: list
    body: list
    decorators: list = field(default_factory=list)


# -- statements ------------------------------------------------------------------------------


@_node
class Return(Node):
    value: Node | None


@_node
class Assign(Node):
    targets: list
    value: Node


@_node
class AugAssign(Node):
    target: Node
    op: str
    value: Node


@_node
class AnnAssign(Node):
    target: Node
    annotation: Node
    value: Node | None


@_node
class For(Node):
    target: Node
    iter: Node
    body: list
    orelse: list
    kw_span: Span | None = None


@_node
class While(Node):
    test: Node
    body: list
    orelse: list
    kw_span: Span | None = None


@_node
class Match(Node):
    """`match subject:` and its cases (MatchCase nodes, kept as `body` so that code walking
    statement bodies sees the cases' statements); each pattern is kept as the expression
    it is written as (patterns.py reads it as a pattern)."""
    subject: Node
    body: list
    kw_span: Span | None = None


@_node
class MatchCase(Node):
    pattern: Node
    name: str | None  # `case p as name` (the whole pattern)
    guard: Node | None
    body: list


@_node
class If(Node):
    test: Node
    body: list
    orelse: list
    kw_span: Span | None = None


@_node
class With(Node):
    items: list  # list of (context_expr, optional_vars)
    body: list


@_node
class Raise(Node):
    exc: Node | None
    cause: Node | None


@_node
class ExceptHandler(Node):
    type: Node | None
    name: str | None
    body: list


@_node
class Try(Node):
    body: list
    handlers: list
    orelse: list
    finalbody: list


@_node
class Assert(Node):
    test: Node
    msg: Node | None


@_node
class Delete(Node):
    targets: list


@_node
class Pass(Node):
    pass


@_node
class Break(Node):
    pass


@_node
class Continue(Node):
    pass


@_node
class Expr(Node):
    value: Node


@_node
class Import(Node):
    names: list  # list of (dotted name, asname)


@_node
class ImportFrom(Node):
    module: str | None
    names: list  # list of (name, asname); [("*", None)] for a star import
    level: int = 0


@_node
class Global(Node):
    names: list


@_node
class Nonlocal(Node):
    names: list


# -- expressions -------------------------------------------------------------------------------


@_node
class BoolOp(Node):
    op: str
    values: list


@_node
class BinOp(Node):
    left: Node
    op: str
    right: Node


@_node
class UnaryOp(Node):
    op: str
    operand: Node


@_node
class Lambda(Node):
    args: list
    body: Node


@_node
class IfExp(Node):
    test: Node
    body: Node
    orelse: Node


@_node
class Dict(Node):
    keys: list  # None for a ** splat
    values: list


@_node
class Set(Node):
    elts: list


@_node
class Comprehension(Node):
    target: Node
    iter: Node
    ifs: list
    is_async: bool = False


@_node
class ListComp(Node):
    elt: Node
    generators: list


@_node
class SetComp(Node):
    elt: Node
    generators: list


@_node
class GeneratorExp(Node):
    elt: Node
    generators: list


@_node
class DictComp(Node):
    key: Node
    value: Node
    generators: list


@_node
class Await(Node):
    value: Node


@_node
class Yield(Node):
    value: Node | None
    is_from: bool = False


@_node
class Compare(Node):
    left: Node
    ops: list
    comparators: list
    op_spans: list = field(default_factory=list)


@_node
class Keyword(Node):
    arg: str | None  # None for **kwargs
    value: Node


@_node
class Call(Node):
    func: Node
    args: list
    keywords: list


@_node
class FormattedValue(Node):
    value: Node
    conversion: str | None  # "r", "s", "a" or None
    format_spec: Node | None  # a JoinedStr


@_node
class JoinedStr(Node):
    values: list  # Constant(str) and FormattedValue nodes


@_node
class Constant(Node):
    value: object  # int, float, complex, str, bytes, bool, None, Ellipsis


@_node
class Attribute(Node):
    value: Node
    attr: str


@_node
class Subscript(Node):
    value: Node
    slice: Node


@_node
class Slice(Node):
    lower: Node | None
    upper: Node | None
    step: Node | None


@_node
class Starred(Node):
    value: Node


@_node
class Name(Node):
    id: str


@_node
class List(Node):
    elts: list


@_node
class Tuple(Node):
    elts: list


@_node
class NamedExpr(Node):
    target: Node
    value: Node


def children(node: Node):
    """The direct child nodes of node, in field order."""
    for name in _child_fields(type(node)):
        v = getattr(node, name)
        if isinstance(v, Node):
            yield v
        elif isinstance(v, list):
            for x in v:
                if isinstance(x, Node):
                    yield x
                elif isinstance(x, tuple):
                    yield from (y for y in x if isinstance(y, Node))


def _child_fields(cls) -> tuple:
    """The names of cls's fields that may hold nodes (all but the spans), in order."""
    names = _CHILD_FIELDS.get(cls)
    if names is None:
        names = _CHILD_FIELDS[cls] = tuple(
            f.name for f in fields(cls)
            if f.name not in ("span", "kw_span", "name_span", "op_spans"))
    return names


_CHILD_FIELDS: dict = {}


def walk(node: Node):
    """node and every node below it, pre-order."""
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        stack.extend(reversed(list(children(n))))
