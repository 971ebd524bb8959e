"""Enum classes (`class Color(Enum): RED = 1`), as TorchScript supports them and as Python
runs them.

An Enum class is a class with two fields, `name` and `value`; each member is one constant
object of the IR module (`const @Color.RED`), so members are singletons: `is`, `==` (no
`__eq__`: identity, as Python's Enum) and `!=` compare them by identity, and they keep
their identity through lists, dicts and the artifact. The class used as a value
(`for c in Color`, `list(Color)`, `len(Color)`) is the list of its members in definition
order (aliases, members whose value repeats an earlier one, are that member and are not
listed). `Color(v)` finds the member by value (ValueError otherwise), `Color["RED"]` by
name (KeyError). str / repr / hash are Python's (`Color.RED`, `<Color.RED: 1>`,
hash of the name), compiled from a small class text made for the enum.

Member values are literal int, float, str, bool or complex constants, all of one type
(TorchScript's rule: `value` has one static type), or `auto()` (ints counting on from the
last int value, 1 first). Methods, static methods and properties may be defined;
`__init__` and `__new__` may not (a member's value is its literal).
"""

from __future__ import annotations

from ember.errors import NameResolutionError, Source, UnsupportedError
from ember.frontend import ast as A
from ember.frontend.meta import MClass, MTypeName
from ember.ir import SymbolRef
from ember.ir import types as T

UNSUPPORTED_BASES = ("IntEnum", "StrEnum", "Flag", "IntFlag", "ReprEnum")
"""enum's other bases: their members are also ints / strs, which ember's typed members
cannot be."""

_VALUE_TYPES = {bool: ("bool", T.BOOL), int: ("int", T.I64), float: ("float", T.F64),
                str: ("str", T.STR), complex: ("complex", T.C128)}


class EnumInfo:
    """The members of an Enum class: name -> IR object symbol (an alias -> its member's),
    the canonical members in order, and their values."""

    def __init__(self, value_type: T.Type, type_name: str):
        self.value_type = value_type
        self.type_name = type_name
        self.symbols: dict[str, str] = {}
        self.order: list[str] = []
        self.values: dict[str, object] = {}


def base_kind(info, base):
    """"enum" when class statement `info` derives from enum.Enum, the unsupported base's
    name for IntEnum & co., else None."""
    name = None
    if isinstance(base, A.Name):
        meta = info.scope.lookup(base.id)
        if isinstance(meta, MTypeName):
            name = meta.name
    elif isinstance(base, A.Attribute) and isinstance(base.value, A.Name):
        from ember.frontend.meta import MModule
        meta = info.scope.lookup(base.value.id)
        if isinstance(meta, MModule) and meta.name == "enum":
            name = base.attr
    if name == "Enum":
        return "enum"
    return name if name in UNSUPPORTED_BASES else None


def declare_enum(c, info, decl) -> bool:
    """Fill `decl` (fields name, value) and the members of Enum class `info`; compile its
    methods' table (the user's and the made ones). False after reporting an error."""
    members, methods = [], []
    for stmt in info.node.body:
        if isinstance(stmt, A.FunctionDef):
            methods.append(stmt)
        elif isinstance(stmt, A.Assign) and len(stmt.targets) == 1 and \
                isinstance(stmt.targets[0], A.Name):
            members.append((stmt.targets[0].id, stmt.value, stmt))
        elif not (isinstance(stmt, A.Pass) or (isinstance(stmt, A.Expr) and
                                                isinstance(stmt.value, A.Constant))):
            c.report(UnsupportedError("an Enum class body may hold members (RED = 1), methods "
                                      "and a docstring only", stmt.span))
            return False
    if not members:
        c.report(UnsupportedError(f"the Enum class {info.node.name} has no members",
                                  info.node.span))
        return False
    values = _member_values(c, members)
    if values is None:
        return False
    types = {type(v) for _, v, _ in values}
    if len(types) != 1:
        shown = ", ".join(sorted(t.__name__ for t in types))
        c.report(UnsupportedError(f"the members of the Enum class {info.node.name} have values "
                                  f"of different types ({shown}); ember, as TorchScript, "
                                  "needs one type for '.value'", values[0][2].span))
        return False
    type_name, vt = _VALUE_TYPES[types.pop()]
    einfo = EnumInfo(vt, type_name)
    decl.fields.extend([("name", T.STR), ("value", vt)])
    for name, value, stmt in values:
        if name in einfo.symbols:
            c.report(UnsupportedError(f"the Enum member '{name}' is defined twice", stmt.span))
            return False
        alias = next((m for m in einfo.order if _same(einfo.values[m], value)), None)
        if alias is not None:
            einfo.symbols[name] = einfo.symbols[alias]
            continue
        sym = c.unique_symbol(f"{decl.name}.{name}")
        c.module.add_object(sym, decl.name, [name, value])
        einfo.symbols[name] = sym
        einfo.order.append(name)
        einfo.values[name] = value
    info.enum = einfo
    if info.pyclass is not None:  # ember.script: members returned to Python are its own
        c.module.__dict__.setdefault("enum_pyclasses", {})[decl.name] = info.pyclass
    for stmt in methods:
        if stmt.name in ("__init__", "__new__"):
            c.report(UnsupportedError(f"an Enum class may not define {stmt.name} (a member's "
                                      "value is its literal)", stmt.name_span or stmt.span))
            return False
    from ember.frontend.classes import _method_decorators_ok
    for stmt in methods:
        if not _method_decorators_ok(c, stmt):
            return False
        _add_method(info, stmt, info.source, info.scope)
    tree, source = _made_methods(c, info, decl, einfo)
    for stmt in tree.body[0].body:
        key = "_ember_by_value" if stmt.name == info.node.name else stmt.name
        if key not in info.methods:
            _add_method(info, stmt, source, _SelfScope(info), key)
    return True


def _add_method(info, stmt, source, scope, key=None) -> None:
    from ember.frontend.classes import add_method
    add_method(None, info, stmt, source, scope, key)


def _same(a, b) -> bool:
    return type(a) is type(b) and a == b


def _member_values(c, members):
    """[(name, value, stmt)]: each member's literal (auto() counted), or None on error."""
    from ember.frontend.compiler import _NO, _literal
    out, last = [], 0
    for name, node, stmt in members:
        if _is_auto(node):
            value = last + 1
        elif isinstance(node, A.Name) and any(n == node.id for n, _, _ in out):
            value = next(v for n, v, _ in out if n == node.id)  # B = A: an alias of A
        else:
            value = _literal(node)
            if value is _NO or type(value) not in _VALUE_TYPES:
                c.report(UnsupportedError(f"the value of the Enum member '{name}' must be an int, "
                                          "float, str, bool or complex literal, or auto()",
                                          node.span))
                return None
        if type(value) is int:
            last = value
        out.append((name, value, stmt))
    return out


def _is_auto(node) -> bool:
    if not (isinstance(node, A.Call) and not node.args and not node.keywords):
        return False
    f = node.func
    return (isinstance(f, A.Name) and f.id == "auto") or \
        (isinstance(f, A.Attribute) and f.attr == "auto")


# ----------------------------------------------------------------------------- made methods

_MADE = '''class {cls}:
    def __str__(self) -> str:
        return "{cls}." + self.name

    def __repr__(self) -> str:
        return "<{cls}." + self.name + ": " + repr(self.value) + ">"

    def __hash__(self) -> int:
        return hash(self.name)

    @staticmethod
    def {cls}(value: {vt}):
        for m in __self__:
            if m.value == value:
                return m
        raise ValueError(repr(value) + " is not a valid {cls}")

    @staticmethod
    def _ember_by_name(s: str):
        ms = __members__
        names = __names__
        for i in range(len(names)):
            if names[i] == s:
                return ms[i]
        raise KeyError(s)
'''


def _made_methods(c, info, decl, einfo):
    from ember.frontend.parser import parse_module
    filename = f"<enum {decl.name}>"
    text = _MADE.format(cls=info.node.name, vt=einfo.type_name)
    c.module.sources[filename] = text
    source = Source(filename, text)
    return parse_module(source), source


class _SelfScope:
    """The scope of the made methods: `__self__` is the class's canonical members,
    `__members__` every name (aliases too); other names as Python's builtins."""

    def __init__(self, info):
        self.info = info
        self.compiler = getattr(info.scope, "compiler", None)

    def lookup(self, name):
        if name == "__self__":
            return MClass(self.info)
        if name == "__members__":
            return _Members(self.info)
        if name == "__names__":
            return _Names(self.info)
        from ember.frontend.meta import builtin_meta
        return builtin_meta(name)


class _Members(MClass):
    """The member of every name of an Enum class, aliases included (`Color["ALIAS"]`)."""


class _Names(MClass):
    """Every member name of an Enum class, aliases included, as a list of str."""


# ----------------------------------------------------------------------------- use


def is_enum(info) -> bool:
    return getattr(info, "enum", None) is not None


def enum_type(em, t) -> bool:
    """True if t is the type of an Enum class's members."""
    if not isinstance(t, T.ClassType):
        return False
    return is_enum(em.c.class_by_decl.get(t.name))


def member(em, info, name, node):
    """`Color.RED`: the member's constant object (None if `name` is no member)."""
    sym = info.enum.symbols.get(name)
    if sym is None:
        return None
    return em.b.const(SymbolRef(sym), T.ClassType(info.decl.name), em.loc(node))


def members_list(em, meta, node):
    """The class as a value: the list of its members (every name for _Members)."""
    info = meta.info
    if em.c.declare_class(info) is None:
        from ember.frontend.function import Poison
        return Poison()
    names = list(info.enum.symbols) if isinstance(meta, (_Members, _Names)) \
        else info.enum.order
    ct = T.ClassType(info.decl.name)
    loc = em.loc(node)
    if isinstance(meta, _Names):
        items = [em.b.const(n, T.STR, loc) for n in names]
        return em.b.create("list.new", items, [T.ListType(T.STR)], loc=loc).result
    items = [member(em, info, n, node) for n in names]
    return em.b.create("list.new", items, [T.ListType(ct)], loc=loc).result


def members_dict(em, info, node):
    """`Color.__members__`: a dict of every member name (aliases too) to its member."""
    ct = T.ClassType(info.decl.name)
    loc = em.loc(node)
    d = em.b.create("dict.new", [], [T.DictType(T.STR, ct)], loc=loc).result
    for name in info.enum.symbols:
        em.subscript_set(d, em.b.const(name, T.STR, loc), member(em, info, name, node), node)
    return d


def lookup_call(em, info, node):
    """`Color(v)`: the member whose value is v (ValueError if none)."""
    if node.keywords or len(node.args) != 1:
        return em.error(f"{info.node.name}() takes exactly one argument (a member's value)",
                        node.span)
    from ember.frontend.userfuncs import call_user_function
    return call_user_function(em, info.methods["_ember_by_value"], node, [])


def lookup_name(em, info, key, node):
    """`Color["RED"]`: the member named key (KeyError if none)."""
    if key.type != T.STR:
        from ember.frontend.typing_ import show
        return em.error(f"an Enum class is indexed by a member name (str), not "
                        f"{show(key.type)}", node.span)
    from ember.frontend.userfuncs import call_user_function
    return call_user_function(em, info.methods["_ember_by_name"], node, [], values=[key])


class MemberDefault:
    """An Enum member as a parameter's default (`c: Color = Color.RED`): calls inside the
    script pass the member; the entry's own defaults (what Python may omit) stop before it."""

    def __init__(self, symbol: str, type_: T.Type, shown: str):
        self.symbol, self.type, self.shown = symbol, type_, shown

    def __repr__(self):
        return self.shown


def member_default(em, node):
    """The MemberDefault for a default written `Color.RED` (or `enum.Color.RED`), or None."""
    if not (isinstance(node, A.Attribute) and isinstance(node.value, A.Name)):
        return None
    meta = em.scope.lookup(node.value.id)
    if not isinstance(meta, MClass) or em.c.declare_class(meta.info) is None or \
            not is_enum(meta.info) or node.attr not in meta.info.enum.symbols:
        return None
    return MemberDefault(meta.info.enum.symbols[node.attr], T.ClassType(meta.info.decl.name),
                         f"{meta.info.node.name}.{node.attr}")


def python_results(module, entry: str):
    """For an entry of a module compiled from Python classes (ember.script): a function
    turning the Enum members in its results into the Python Enum's members, or None when
    its return type holds no such class."""
    classes = getattr(module, "enum_pyclasses", None)
    func = module.funcs.get(entry)
    if not classes or func is None:
        return None
    names = {n for n in classes if f"!{n}" in str(func.type.ret)}
    if not names:
        return None
    wanted = {n: classes[n] for n in names}

    def convert(v):
        py = wanted.get(type(v).__name__)
        if py is not None and hasattr(v, "f0"):
            return py[v.f0]
        if type(v) is list:
            return [convert(x) for x in v]
        if type(v) is tuple:
            return tuple(convert(x) for x in v)
        if type(v) is dict:
            return {convert(k): convert(x) for k, x in v.items()}
        return v
    return convert


def refuse_set(em, info, attr, node):
    em.error(f"cannot assign '{attr}' of an Enum member of '{info.node.name}' (Enum members are "
             "constants)", node.span, NameResolutionError)


__all__ = ["base_kind", "declare_enum", "is_enum", "member", "members_list", "lookup_call",
           "lookup_name", "refuse_set", "python_results", "member_default", "MemberDefault",
           "EnumInfo"]
