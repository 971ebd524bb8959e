"""@dataclass classes (as TorchScript supports them, and as Python's dataclasses make them).

The class's annotated body names (`x: int`, `y: float = 0.5`, `zs: List[int] =
field(default_factory=list)`) are its fields, in order. ember makes the methods Python's
dataclass would: `__init__(self, x, y=0.5, zs=None)` assigning each field (a
default_factory's field is made by its factory when the argument is left out) and calling
`__post_init__` if the class has one (with the `InitVar[T]` pseudo-fields, parameters of
`__init__` only, as its arguments); `__repr__` (`P(x=1, y=0.5)`), `__eq__` (the fields
as a tuple), with order=True `__lt__`/`__le__`/`__gt__`/`__ge__`, and with eq and frozen
`__hash__` (of the fields' tuple: frozen dataclasses are dict keys and set members). A method the class
defines itself is kept. frozen=True makes assigning a field outside `__init__` a compile
error (CPython raises FrozenInstanceError when it runs).
"""

from __future__ import annotations

from ember.errors import Source, UnsupportedError
from ember.frontend import ast as A
from ember.frontend.meta import MClass, MTypeName

_OPTIONS = {"init": True, "repr": True, "eq": True, "order": False, "frozen": False}
_HIDDEN_OPTIONAL = "__ember_Optional__"


def dataclass_options(info):
    """The @dataclass options of class statement `info` ({} for a plain class)."""
    from ember.frontend.compiler import decorator_name
    for d in getattr(info.node, "decorators", ()):
        if decorator_name(d).rsplit(".", 1)[-1] != "dataclass":
            continue
        opts = dict(_OPTIONS)
        for k in (d.keywords if isinstance(d, A.Call) else ()):
            if k.arg not in opts or not isinstance(k.value, A.Constant):
                raise UnsupportedError(f"@dataclass({k.arg}=...) is not supported (options: "
                                       "init, repr, eq, order, frozen, as constants)", k.span)
            opts[k.arg] = bool(k.value.value)
        return opts
    return {}


def _field_call(node):
    """The keywords of `field(...)` / `dataclasses.field(...)`, or None."""
    if not isinstance(node, A.Call):
        return None
    f = node.func
    name = f.id if isinstance(f, A.Name) else (f.attr if isinstance(f, A.Attribute) else "")
    return {k.arg: k.value for k in node.keywords} if name == "field" else None


def _fields(c, info):
    """[(name, annotation node, default node or None, factory node or None, stmt)]: a
    dataclass base's fields first (a field redefined keeps its place), then its own."""
    out = []
    base = getattr(info, "base", None)
    if base is not None and base.node is not None and dataclass_options(base):
        out = _fields(c, base)
    for field_ in _own_fields(info):
        at = next((i for i, f in enumerate(out) if f[0] == field_[0]), None)
        if at is None:
            out.append(field_)
        else:
            out[at] = field_
    seen_default = False
    for name, _, default, factory, stmt in out:
        if default is None and factory is None and seen_default:
            raise UnsupportedError(f"non-default argument '{name}' follows default argument "
                                   "(as in Python's dataclasses)", stmt.span)
        seen_default = seen_default or default is not None or factory is not None
    return out


def _own_fields(info):
    out = []
    for stmt in info.node.body:
        if not (isinstance(stmt, A.AnnAssign) and isinstance(stmt.target, A.Name)):
            continue
        ann = stmt.annotation
        head = ann.value if isinstance(ann, A.Subscript) else ann
        if getattr(head, "id", None) == "ClassVar" or getattr(head, "attr", None) == "ClassVar":
            continue
        from ember.frontend.classes import init_var_type
        if init_var_type(ann) is not None:  # `p: InitVar[int] = 2`: __init__ passes it on
            out.append((stmt.target.id, ann, stmt.value, None, stmt))
            continue
        default, factory = stmt.value, None
        kw = _field_call(stmt.value)
        if kw is not None:
            default, factory = kw.get("default"), kw.get("default_factory")
            extra = set(kw) - {"default", "default_factory"}
            if extra:
                raise UnsupportedError(f"field({sorted(extra)[0]}=...) is not supported "
                                       "(default and default_factory are)", stmt.value.span)
        out.append((stmt.target.id, ann, default, factory, stmt))
    return out


class _Scope:
    """The made methods' scope: the class's own, with the class's name and the hidden
    Optional the factory fields' parameters use."""

    def __init__(self, info):
        self.info = info
        self.inner = info.scope
        self.compiler = getattr(info.scope, "compiler", None)

    def lookup(self, name):
        if name == self.info.node.name:
            return MClass(self.info)
        if name == _HIDDEN_OPTIONAL:
            return MTypeName("Optional")
        return self.inner.lookup(name)


def add_dataclass_methods(c, info, opts) -> None:
    """Record the made methods of dataclass `info` (those the class does not define)."""
    from ember.frontend.classes import add_method
    fields = _fields(c, info)
    info.defaults = {}  # __init__ assigns every field
    info.frozen = opts["frozen"]
    scope = _Scope(info)
    if opts["init"] and "__init__" not in info.methods:
        add_method(c, info, _init(info, fields), info.source, scope)
    from ember.frontend.classes import init_var_type
    text = _text(info.node.name, [f[0] for f in fields if init_var_type(f[1]) is None], opts,
                 info.methods)
    if text:
        from ember.frontend.parser import parse_module
        filename = f"<dataclass {info.node.name}>"
        c.module.sources[filename] = text
        source = Source(filename, text)
        for stmt in parse_module(source).body[0].body:
            add_method(c, info, stmt, source, scope)


def _init(info, fields):
    sp = info.node.span
    from ember.frontend.classes import init_var_type
    args = [A.Arg(sp, "self")]
    body = []
    init_vars = []
    for name, ann, default, factory, stmt in fields:
        s = stmt.span
        target = A.Attribute(s, A.Name(s, "self"), name)
        if init_var_type(ann) is not None:  # a parameter given on to __post_init__
            args.append(A.Arg(s, name, init_var_type(ann), default))
            init_vars.append(A.Name(s, name))
        elif factory is not None:
            args.append(A.Arg(s, name, A.Subscript(s, A.Name(s, _HIDDEN_OPTIONAL), ann),
                              A.Constant(s, None)))
            value = A.IfExp(s, A.Compare(s, A.Name(s, name), ["is"], [A.Constant(s, None)]),
                            A.Call(s, factory, [], []), A.Name(s, name))
            body.append(A.AnnAssign(s, target, ann, value))
        else:
            args.append(A.Arg(s, name, ann, default))
            body.append(A.AnnAssign(s, target, ann, A.Name(s, name)))
    if "__post_init__" in info.methods:
        call = A.Call(sp, A.Attribute(sp, A.Name(sp, "self"), "__post_init__"), init_vars,
                      [])
        body.append(A.Expr(sp, call))
    if not body:
        body.append(A.Pass(sp))
    return A.FunctionDef(sp, "__init__", args, body, [], A.Constant(sp, None),
                         name_span=info.node.span)


def _text(cls, names, opts, defined) -> str:
    lines = []
    mine = ", ".join(f"self.{n}" for n in names)
    theirs = ", ".join(f"other.{n}" for n in names)
    tup = (lambda s: f"({s},)") if len(names) == 1 else (lambda s: f"({s})")
    if opts["repr"] and "__repr__" not in defined:
        parts = ' + ", " + '.join(f'"{n}=" + repr(self.{n})' for n in names) or '""'
        lines += ["    def __repr__(self) -> str:",
                  f'        return "{cls}(" + {parts} + ")"']
    if opts["eq"] and "__eq__" not in defined:
        lines += [f'    def __eq__(self, other: "{cls}") -> bool:',
                  f"        return {tup(mine)} == {tup(theirs)}" if names else
                  "        return True"]
    if opts["eq"] and opts["frozen"] and "__hash__" not in defined:  # Python's rule
        lines += ["    def __hash__(self) -> int:",
                  f"        return hash({tup(mine)})" if names else "        return hash(())"]
    if opts["order"]:
        for op, name in (("<", "__lt__"), ("<=", "__le__"), (">", "__gt__"), (">=", "__ge__")):
            if name in defined:
                raise UnsupportedError(f"@dataclass(order=True) of a class that defines {name} "
                                       "(CPython raises TypeError)", None)
            lines += [f'    def {name}(self, other: "{cls}") -> bool:',
                      f"        return {tup(mine)} {op} {tup(theirs)}"]
    return f"class {cls}:\n" + "\n\n".join(
        "\n".join(lines[i:i + 2]) for i in range(0, len(lines), 2)) + "\n" if lines else ""


__all__ = ["dataclass_options", "add_dataclass_methods"]
