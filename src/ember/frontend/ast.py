"""ember's AST: Python's own node names and fields, plus a `span` on every node.

Operators are strings: BinOp "+", "-", "*", "/", "//", "%", "**", "@", "<<",
">>", "&", "|", "^"; UnaryOp "-", "+", "~", "not"; BoolOp "and"/"or"; Compare
"==", "!=", "<", "<=", ">", ">=", "in", "not in", "is", "is not".
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields

from ember.errors import Span


@dataclass(eq=False, slots=True)
class Node:
    span: Span


# -- module level -----------------------------------------------------------------------------


@dataclass(eq=False, slots=True)
class Module(Node):
    body: list


@dataclass(eq=False, slots=True)
class Arg(Node):
    """A parameter. kind: "normal", "star" (*args), "starstar" (**kwargs), "kwonly"."""

    arg: str
    annotation: Node | None = None
    default: Node | None = None
    kind: str = "normal"


@dataclass(eq=False, slots=True)
class FunctionDef(Node):
    name: str
    args: list
    body: list
    decorators: list = field(default_factory=list)
    returns: Node | None = None
    is_async: bool = False
    name_span: Span | None = None


@dataclass(eq=False, slots=True)
class ClassDef(Node):
    name: str
    bases: list
    keywords: list
    body: list
    decorators: list = field(default_factory=list)


# -- statements ------------------------------------------------------------------------------


@dataclass(eq=False, slots=True)
class Return(Node):
    value: Node | None


@dataclass(eq=False, slots=True)
class Assign(Node):
    targets: list
    value: Node


@dataclass(eq=False, slots=True)
class AugAssign(Node):
    target: Node
    op: str
    value: Node


@dataclass(eq=False, slots=True)
class AnnAssign(Node):
    target: Node
    annotation: Node
    value: Node | None


@dataclass(eq=False, slots=True)
class For(Node):
    target: Node
    iter: Node
    body: list
    orelse: list
    kw_span: Span | None = None


@dataclass(eq=False, slots=True)
class While(Node):
    test: Node
    body: list
    orelse: list
    kw_span: Span | None = None


@dataclass(eq=False, slots=True)
class If(Node):
    test: Node
    body: list
    orelse: list
    kw_span: Span | None = None


@dataclass(eq=False, slots=True)
class With(Node):
    items: list  # list of (context_expr, optional_vars)
    body: list


@dataclass(eq=False, slots=True)
class Raise(Node):
    exc: Node | None
    cause: Node | None


@dataclass(eq=False, slots=True)
class ExceptHandler(Node):
    type: Node | None
    name: str | None
    body: list


@dataclass(eq=False, slots=True)
class Try(Node):
    body: list
    handlers: list
    orelse: list
    finalbody: list


@dataclass(eq=False, slots=True)
class Assert(Node):
    test: Node
    msg: Node | None


@dataclass(eq=False, slots=True)
class Delete(Node):
    targets: list


@dataclass(eq=False, slots=True)
class Pass(Node):
    pass


@dataclass(eq=False, slots=True)
class Break(Node):
    pass


@dataclass(eq=False, slots=True)
class Continue(Node):
    pass


@dataclass(eq=False, slots=True)
class Expr(Node):
    value: Node


@dataclass(eq=False, slots=True)
class Import(Node):
    names: list  # list of (dotted name, asname)


@dataclass(eq=False, slots=True)
class ImportFrom(Node):
    module: str | None
    names: list  # list of (name, asname); [("*", None)] for a star import
    level: int = 0


@dataclass(eq=False, slots=True)
class Global(Node):
    names: list


@dataclass(eq=False, slots=True)
class Nonlocal(Node):
    names: list


# -- expressions -------------------------------------------------------------------------------


@dataclass(eq=False, slots=True)
class BoolOp(Node):
    op: str
    values: list


@dataclass(eq=False, slots=True)
class BinOp(Node):
    left: Node
    op: str
    right: Node


@dataclass(eq=False, slots=True)
class UnaryOp(Node):
    op: str
    operand: Node


@dataclass(eq=False, slots=True)
class Lambda(Node):
    args: list
    body: Node


@dataclass(eq=False, slots=True)
class IfExp(Node):
    test: Node
    body: Node
    orelse: Node


@dataclass(eq=False, slots=True)
class Dict(Node):
    keys: list  # None for a ** splat
    values: list


@dataclass(eq=False, slots=True)
class Set(Node):
    elts: list


@dataclass(eq=False, slots=True)
class Comprehension(Node):
    target: Node
    iter: Node
    ifs: list
    is_async: bool = False


@dataclass(eq=False, slots=True)
class ListComp(Node):
    elt: Node
    generators: list


@dataclass(eq=False, slots=True)
class SetComp(Node):
    elt: Node
    generators: list


@dataclass(eq=False, slots=True)
class GeneratorExp(Node):
    elt: Node
    generators: list


@dataclass(eq=False, slots=True)
class DictComp(Node):
    key: Node
    value: Node
    generators: list


@dataclass(eq=False, slots=True)
class Await(Node):
    value: Node


@dataclass(eq=False, slots=True)
class Yield(Node):
    value: Node | None
    is_from: bool = False


@dataclass(eq=False, slots=True)
class Compare(Node):
    left: Node
    ops: list
    comparators: list
    op_spans: list = field(default_factory=list)


@dataclass(eq=False, slots=True)
class Keyword(Node):
    arg: str | None  # None for **kwargs
    value: Node


@dataclass(eq=False, slots=True)
class Call(Node):
    func: Node
    args: list
    keywords: list


@dataclass(eq=False, slots=True)
class FormattedValue(Node):
    value: Node
    conversion: str | None  # "r", "s", "a" or None
    format_spec: Node | None  # a JoinedStr


@dataclass(eq=False, slots=True)
class JoinedStr(Node):
    values: list  # Constant(str) and FormattedValue nodes


@dataclass(eq=False, slots=True)
class Constant(Node):
    value: object  # int, float, complex, str, bytes, bool, None, Ellipsis


@dataclass(eq=False, slots=True)
class Attribute(Node):
    value: Node
    attr: str


@dataclass(eq=False, slots=True)
class Subscript(Node):
    value: Node
    slice: Node


@dataclass(eq=False, slots=True)
class Slice(Node):
    lower: Node | None
    upper: Node | None
    step: Node | None


@dataclass(eq=False, slots=True)
class Starred(Node):
    value: Node


@dataclass(eq=False, slots=True)
class Name(Node):
    id: str


@dataclass(eq=False, slots=True)
class List(Node):
    elts: list


@dataclass(eq=False, slots=True)
class Tuple(Node):
    elts: list


@dataclass(eq=False, slots=True)
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
