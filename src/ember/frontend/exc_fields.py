"""User exception classes with an `__init__` and fields:

    class HTTPError(Exception):
        def __init__(self, code: int, msg: str):
            super().__init__(f"{code}: {msg}")
            self.code = code

An exception is Python's exception object (its args, str and repr are CPython's), so such
a class's `__init__` may only pass arguments to its base's `__init__` and set fields:
`super().__init__(...)` (at most once; without it the exception's args are the arguments
it was made with, as in CPython), `self.f = expr` and `self.f: T = expr`, a docstring or
`pass`. Making one runs that body inline where the exception is made (its parameters
bound to the arguments, a base's own `__init__` run for the super call), then stores the
fields on the exception. A field's type is its annotation (in `__init__` or in the class
body), else the annotation of the parameter it is set from, else a constant's type, else
the type of the value the first exception made in the compilation gives it.

`e.f` on an exception reads the field: its type is the one every exception class with a
field `f` gives it (classes that disagree make it a compile error), and an exception
without the field raises CPython's AttributeError at run time.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field

from ember.errors import UnsupportedError
from ember.frontend import ast as A
from ember.ir import types as T

_counter = [0]


@dataclass
class ExcInit:
    """The `__init__` of a user exception class and its fields (name -> annotation node,
    or an IR type for a constant's)."""

    node: A.FunctionDef | None
    fields: dict = field(default_factory=dict)
    base: object = None
    """The base class's MException (its own __init__ runs for a super call)."""


def class_spec(info, base) -> ExcInit | None:
    """The ExcInit of exception class `info` (None for a class with only a docstring or
    `pass`, whose base has none either); UnsupportedError for any other body."""
    own, decls = None, {}
    for stmt in info.node.body:
        if isinstance(stmt, A.Pass) or _docstring(stmt):
            continue
        if isinstance(stmt, A.AnnAssign) and isinstance(stmt.target, A.Name) and \
                stmt.value is None:
            decls[stmt.target.id] = stmt.annotation
            continue
        if isinstance(stmt, A.FunctionDef) and stmt.name == "__init__" and \
                not stmt.decorators and own is None:
            own = stmt
            continue
        raise UnsupportedError(
            f"the exception class {info.node.name} may only hold a docstring, field "
            "annotations and an __init__ that calls super().__init__(...) and sets "
            "fields (its instances are Python's exceptions)", getattr(stmt, "span",
                                                                       info.node.span))
    inherited = getattr(base, "init", None)
    if own is None and not decls:
        return inherited
    spec = ExcInit(own, dict(inherited.fields) if inherited is not None else {}, base)
    if own is None:
        spec.node = inherited.node if inherited is not None else None
        spec.base = inherited.base if inherited is not None else None
    spec.fields.update(decls)
    if own is not None:
        _check_init(info, own, spec.fields)
    return spec


def _docstring(stmt) -> bool:
    return isinstance(stmt, A.Expr) and isinstance(stmt.value, A.Constant) and \
        isinstance(stmt.value.value, str)


def _check_init(info, init, fields) -> None:
    args = init.args
    if not args or any(a.kind != "normal" for a in args):
        raise UnsupportedError(f"{info.node.name}.__init__ takes self and plain parameters "
                               "only", init.span)
    params = {a.arg: a for a in args[1:]}
    supers = 0
    for stmt in init.body:
        if isinstance(stmt, A.Pass) or _docstring(stmt):
            continue
        if _super_call(stmt) is not None:
            supers += 1
            if supers == 1:
                continue
        target = _self_field(stmt)
        if target is not None and target != "args" and not target.startswith("__"):
            ann = stmt.annotation if isinstance(stmt, A.AnnAssign) else None
            fields.setdefault(target, ann or _implied_type(stmt.value, params, target,
                                                          info.node.name))
            continue
        raise UnsupportedError(
            f"{info.node.name}.__init__ may only call super().__init__(...) once and set "
            "fields (self.name = value)", getattr(stmt, "span", init.span))


def _super_call(stmt):
    """The call node of `super().__init__(...)`, else None."""
    c = stmt.value if isinstance(stmt, A.Expr) else None
    if isinstance(c, A.Call) and not c.keywords and isinstance(c.func, A.Attribute) and \
            c.func.attr == "__init__" and isinstance(c.func.value, A.Call) and \
            isinstance(c.func.value.func, A.Name) and c.func.value.func.id == "super" and \
            not c.func.value.args:
        return c
    return None


def _self_field(stmt):
    if isinstance(stmt, A.Assign) and len(stmt.targets) == 1:
        t = stmt.targets[0]
    elif isinstance(stmt, A.AnnAssign) and stmt.value is not None:
        t = stmt.target
    else:
        return None
    if isinstance(t, A.Attribute) and isinstance(t.value, A.Name) and t.value.id == "self":
        return t.attr
    return None


def _implied_type(value, params, name, cls):
    if isinstance(value, A.Name) and value.id in params and \
            params[value.id].annotation is not None:
        return params[value.id].annotation
    if isinstance(value, A.Constant) and type(value.value) in (int, float, str, bool):
        return {int: T.I64, float: T.F64, str: T.STR, bool: T.BOOL}[type(value.value)]
    return Inferred(cls, name)


@dataclass(frozen=True)
class Inferred:
    """A field typed by the value the first exception made in the compilation gives it."""

    cls: str
    name: str


def field_type(em, spec) -> T.Type | None:
    if isinstance(spec, Inferred):
        return em.c.__dict__.get("exc_field_types", {}).get(spec)
    return spec if isinstance(spec, T.Type) else em.ann.resolve(spec)


# ----------------------------------------------------------------------------- making one


def construct(em, meta, call):
    """The exception `Cls(args)` of a class with an __init__ (meta.init)."""
    if any(isinstance(a, A.Starred) for a in call.args) or \
            any(k.arg is None for k in call.keywords):
        return em.unsupported("f(*xs) / f(**d) calls of an exception class are not "
                              "supported", call.span)
    pos = [em.value(a) for a in call.args]
    kws = {k.arg: em.value(k.value) for k in call.keywords}
    exc_args, fields = _run_init(em, meta.init, pos, kws, call, meta.shown)
    if exc_args is None:  # no super().__init__: the args are what it was made with
        exc_args = pos
    e = _make(em, meta.name, exc_args, call)
    loc = em.loc(call)
    for name, v in fields:
        e = em.b.kernel("exc.set_field", [e, em.b.const(name, T.STR, loc), v], T.EXC, loc)
    em.c.__dict__.setdefault("exc_inits", {})[meta.name] = meta.init
    return e


def _make(em, kind, args, call):
    loc = em.loc(call)
    if len(args) > 1:
        tup = em.b.create("tuple.new", args, [T.TupleType(tuple(v.type for v in args))],
                          loc=loc).result
        return em.new_exception(kind, tup, call, several=True)
    return em.new_exception(kind, args[0] if args else None, call)


def _run_init(em, spec, pos, kws, call, cls):
    """Run spec's __init__ on the argument values: (the super call's argument values, or
    None without one; [(field, value)] in order)."""
    init = spec.node
    params = init.args[1:]
    if len(pos) > len(params):
        em.error(f"{cls}() takes {len(params)} argument(s) but {len(pos)} were given",
                 call.span)
        return pos, []
    _counter[0] += 1
    names = {p.arg: f"{p.arg}$exc{_counter[0]}" for p in params}
    bound = dict(zip([p.arg for p in params], pos))
    for k, v in kws.items():
        if k not in names or k in bound:
            em.error(f"{cls}() got an unexpected or repeated keyword argument '{k}'",
                     call.span)
            return pos, []
        bound[k] = v
    for p in params:
        if p.arg not in bound:
            if p.default is None:
                em.error(f"{cls}() missing required argument '{p.arg}'", call.span)
                return pos, []
            bound[p.arg] = em.value(p.default)
        ann = em.ann.resolve(p.annotation) if p.annotation is not None else None
        v = em.coerce(bound[p.arg], ann, call.span, convert=True) if ann else bound[p.arg]
        em.write_var(names[p.arg], v, call.span)
    exc_args, fields = None, []
    for stmt in init.body:
        c = _super_call(stmt)
        if c is not None:
            vals = [em.value(_renamed(a, names)) for a in c.args]
            base_init = getattr(spec.base, "init", None)
            if base_init is not None and base_init.node is not None:
                exc_args, more = _run_init(em, base_init, vals, {}, call, cls)
                exc_args = vals if exc_args is None else exc_args
                fields += more
            else:
                exc_args = vals
            continue
        name = _self_field(stmt)
        if name is not None:
            v = em.value(_renamed(stmt.value, names))
            want = field_type(em, spec.fields[name])
            if want is None:  # the first one made gives the field its type
                want = em.c.__dict__.setdefault("exc_field_types", {}).setdefault(
                    spec.fields[name], v.type)
            fields.append((name, em.coerce(v, want, stmt.value.span, convert=True)))
    return exc_args, fields


def _renamed(node, names):
    from ember.frontend.generators import _rename
    node = copy.deepcopy(node)
    _rename([node], names)
    return node


# ----------------------------------------------------------------------------- reading


def read_field(em, obj, node):
    """`e.f` of an exception value (None if no exception class has a field f)."""
    types, unknown = set(), None
    for spec in _known_specs(em):
        if node.attr in spec.fields:
            t = field_type(em, spec.fields[node.attr])
            if t is None:
                unknown = spec.fields[node.attr]
            else:
                types.add(t)
    if unknown is not None and not types:
        return em.error(f"the type of field '{node.attr}' of exception class {unknown.cls} "
                        "is not known here (no such exception is made before this line "
                        f"is compiled): annotate it (self.{node.attr}: T = ...)", node.span)
    if not types:
        return None
    if len(types) > 1:
        return em.error(f"exception classes give field '{node.attr}' different types "
                        f"({', '.join(sorted(str(t) for t in types))}); read it where one "
                        "class is caught, with one type", node.span)
    loc = em.loc(node)
    return em.b.kernel("exc.get_field", [obj, em.b.const(node.attr, T.STR, loc)],
                       types.pop(), loc)


def _known_specs(em):
    """The ExcInits of the exception classes of the unit (and those made so far)."""
    out = list(em.c.__dict__.get("exc_inits", {}).values())
    table = getattr(em.scope, "table", None) or \
        getattr(getattr(em.scope, "globals", None), "table", None) or {}
    from ember.frontend.meta import MClass, _exception_or
    for meta in list(table.values()):
        if isinstance(meta, MClass):
            try:
                m = _exception_or(meta)
            except UnsupportedError:
                continue
            init = getattr(m, "init", None)
            if init is not None:
                out.append(init)
    return out
