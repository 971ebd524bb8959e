"""A subclass object where its base class is declared, with Python's dynamic dispatch.

An annotation naming a user class `A` that has subclasses (in the CompilationUnit's
source, or among the Python class's `__subclasses__()` defined in its module for
`ember.script`) means "an A or any of its subclasses": the union of their class types. A `B` passed, assigned or
returned where an `A` is declared widens into that union (the value keeps its class, as in
Python), and `a.m(...)`, `a.field`, `a.field = v` on a union of classes test the value's
class and use that class's member: the method a subclass overrides is the one called, as
CPython's attribute lookup finds it. Inside A's own methods `self` stays exactly `A`
(each subclass has its own copy of the inherited methods, see inherit.py). While A's fields
are being found (its `__init__` compiled), `A` means A alone: a
subclass cannot copy fields its base does not have yet.
"""

from __future__ import annotations

from ember.frontend import ast as A
from ember.frontend.meta import MBoundMethod, MClass
from ember.ir import Region
from ember.ir import types as T


def class_annotation(em, info, decl) -> T.Type:
    """The type an annotation naming class `info` stands for: the class, or the union of
    it and its subclasses."""
    own = T.ClassType(decl.name)
    if info.kind != "class" or getattr(info, "finding_fields", False):
        return own  # while its fields are being found, a class cannot be inherited yet
    types = [own]
    for sub in subclass_infos(em.c, info):
        d = em.c.declare_class(sub)
        if d is not None and d.kind == "class":
            types.append(T.ClassType(d.name))
    return T.make_union(types) if len(types) > 1 else own


def is_interface(info) -> bool:
    """A class decorated `@torch.jit.interface`: a set of method signatures."""
    from ember.frontend.compiler import decorator_name
    return info.node is not None and any(
        decorator_name(d).split(".")[-1] == "interface"
        for d in getattr(info.node, "decorators", ()))


def interface_annotation(em, info, node) -> T.Type:
    """An interface names the union of the classes that define all its methods (the
    classes of the CompilationUnit, or of the interface's Python module)."""
    wanted = {m.name for m in info.node.body if isinstance(m, A.FunctionDef)}
    types = []
    for sub in _candidates(em.c, info):
        if wanted <= _method_names(sub):
            d = em.c.declare_class(sub)
            if d is not None and d.kind == "class":
                types.append(T.ClassType(d.name))
    if not types:
        return em.error(f"no class implements the interface '{info.node.name}' (every one "
                        f"of its methods: {', '.join(sorted(wanted))})", node.span)
    return T.make_union(types)


def _candidates(c, info) -> list:
    if info.pyclass is not None:
        out = []
        for obj in list(getattr(info.scope, "globals", {}).values()):
            if isinstance(obj, type) and obj is not info.pyclass:
                meta = c.class_meta(obj) if _py_methods(obj) else None
                if isinstance(meta, MClass) and not is_interface(meta.info):
                    out.append(meta.info)
        return out
    table = getattr(info.scope, "table", {})
    return [m.info for m in table.values() if isinstance(m, MClass) and
            m.info is not info and m.info.node is not None and not is_interface(m.info)]


def _py_methods(cls) -> bool:
    return cls.__module__ not in ("builtins", "typing") and any(
        callable(v) for v in vars(cls).values())


def _method_names(info) -> set:
    if info.node is None:
        return set()
    names = {m.name for m in info.node.body if isinstance(m, A.FunctionDef)}
    base = info.node.bases[0] if len(info.node.bases) == 1 else None
    if isinstance(base, A.Name):
        meta = info.scope.lookup(base.id)
        if isinstance(meta, MClass) and meta.info is not info:
            names |= _method_names(meta.info)
    return names


def subclass_infos(c, info) -> list:
    """The ClassInfos of the classes deriving (directly or not) from `info`."""
    cache = info.__dict__.get("subclass_cache")
    if cache is not None:
        return cache
    info.subclass_cache = out = []  # a cycle through a class being declared sees []
    for sub in _direct_subclasses(c, info):
        if sub is not info and sub not in out:
            out.append(sub)
            out.extend(s for s in subclass_infos(c, sub) if s not in out)
    return out


def _direct_subclasses(c, info) -> list:
    if info.pyclass is not None:
        out = []
        for cls in type.__subclasses__(info.pyclass):
            if cls.__module__ != info.pyclass.__module__:
                continue  # only the base's own module's subclasses (the program's)
            meta = c.class_meta(cls)
            if isinstance(meta, MClass):
                out.append(meta.info)
        return out
    table = getattr(info.scope, "table", None)
    if table is None:
        return []
    out = []
    for meta in table.values():
        if isinstance(meta, MClass) and meta.info.node is not None and \
                _names_base(meta.info, info):
            out.append(meta.info)
    return out


def declare_base_first(c, info) -> None:
    """Declare the user class `info` names as its base before `info` itself: declaring
    the base may declare its subclasses (their union is its annotations' type), and a
    subclass must find its base's fields complete."""
    bases = info.node.bases if info.node is not None else []
    if len(bases) == 1 and isinstance(bases[0], A.Name) and not info.reflected:
        meta = info.scope.lookup(bases[0].id)
        if isinstance(meta, MClass) and meta.info is not info and meta.info.node is not None:
            c.declare_class(meta.info)


def _names_base(sub, info) -> bool:
    bases = sub.node.bases
    if len(bases) != 1 or not isinstance(bases[0], A.Name):
        return False
    meta = sub.scope.lookup(bases[0].id)
    return isinstance(meta, MClass) and meta.info is info


def is_class_union(t) -> bool:
    return isinstance(t, T.UnionType) and all(isinstance(m, T.ClassType) for m in t.members)


def dispatch(em, obj, node, each, expected=None):
    """each(value narrowed to one member class) for the member class obj holds at run
    time: an if-chain on the value's class; the results joined into one value."""
    from ember.frontend.choose import choose
    members = list(T.members(obj.type))
    loc = em.loc(node)
    tests = [em.b.create("isinstance", [obj], [T.BOOL], {"type": t}, loc=loc).result
             for t in members[:-1]]

    def branch(t):
        return each(em.b.create("narrow", [obj], [t], loc=loc).result)
    return choose(em, tests, [lambda t=t: branch(t) for t in members], node, expected,
                  what="the classes this value may have")


def union_attribute(em, obj, node):
    """obj.attr of a union of classes: the member's field or property, or a bound method
    (called through `union_call`)."""
    from ember.frontend.classes import _class_info, instance_attribute
    infos = [_class_info(em, t.name) for t in obj.type.members]
    if all(i is not None and node.attr in i.methods and not i.methods[node.attr].property
           for i in infos):
        return MBoundMethod(obj, node.attr, node.span)
    return dispatch(em, obj, node, lambda v: instance_attribute(em, v, node))


def union_call(em, recv, name, node, expected):
    """recv.name(args) of a union of classes: the method of the value's class."""
    from ember.frontend.classes import call_class_method
    return dispatch(em, recv, node, lambda v: call_class_method(em, v, name, node), expected)


def union_attribute_set(em, obj, node, value) -> None:
    from ember.frontend.classes import instance_attribute_set
    loc = em.loc(node)
    for t in obj.type.members:
        ok = em.b.create("isinstance", [obj], [T.BOOL], {"type": t}, loc=loc).result
        r = Region()
        with em.at(r.block):
            instance_attribute_set(em, em.b.create("narrow", [obj], [t], loc=loc).result,
                                   node, value)
            em.b.yield_([], loc)
        e = Region()
        with em.at(e.block):
            em.b.yield_([], loc)
        em.b.create("if", [ok], [], regions=[r, e], loc=loc)


__all__ = ["is_interface", "interface_annotation", "class_annotation", "subclass_infos", "is_class_union", "dispatch",
           "union_attribute", "union_call", "union_attribute_set"]
