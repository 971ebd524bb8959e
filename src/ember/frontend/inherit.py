"""Class inheritance: `class B(A)`, method overriding and `super()`, with static dispatch.

A subclass is its own class: it has the fields of its bases (annotated or assigned in an
inherited `__init__`) and its own, and every method its bases define that it does not
override, compiled again for `self` of the subclass type. A call `obj.m()` is resolved
from obj's static type, which is the object's class: a B is never converted to an A
(passing a B where an A is declared is a compile error), so static dispatch always finds
the method CPython's dynamic lookup finds. `super().m(...)` in a method defined in class
C calls the m that C's bases define (the next one up the chain), compiled for the class
of `self`. `isinstance(b, A)` is True for a B.
"""

from __future__ import annotations

from ember.errors import NameResolutionError, UnsupportedError
from ember.frontend import ast as A
from ember.frontend.meta import MClass
from ember.ir import types as T


def base_class(c, info):
    """The ClassInfo of a class's one user-class base, or None (no base, or not a user
    class). More than one base is refused."""
    bases = info.node.bases
    if len(bases) != 1 or not isinstance(bases[0], A.Name):
        if len(bases) > 1:
            c.report(UnsupportedError("multiple inheritance is not supported (one base class)",
                                      bases[1].span))
        return None
    meta = info.scope.lookup(bases[0].id)
    if isinstance(meta, MClass) and not meta.info.reflected and meta.info is not info and \
            meta.info.node is not None and not _is_namedtuple_info(meta.info):
        return meta.info
    return None


def _is_namedtuple_info(info) -> bool:
    return info.kind == "namedtuple"


def inherit(c, info, decl) -> bool:
    """Give the subclass `info` its base's fields, constants and (not overridden) methods;
    False after an error."""
    from ember.frontend.compiler import FuncInfo
    base = info.base
    base_decl = c.declare_class(base)
    if getattr(base, "enum", None) is not None:
        c.report(UnsupportedError(f"class '{info.name}' cannot derive from the Enum class "
                                  f"'{base.node.name}' (Enum classes cannot be extended)",
                                  info.node.bases[0].span))
        return False
    if base_decl is None or base.kind != "class":
        c.report(UnsupportedError(f"class '{info.name}' can only inherit from a plain class "
                                  f"(not a NamedTuple or an exception class)",
                                  info.node.bases[0].span))
        return False
    inherited = [(name, t) for name, t in base_decl.fields
                 if all(name != f for f, _ in decl.fields)]
    decl.fields[:0] = inherited
    for k, v in base.constants.items():
        info.constants.setdefault(k, v)
    for k, v in base.defaults.items():
        info.defaults.setdefault(k, v)
    for name, m in base.methods.items():
        if name in info.methods:
            continue
        copy = FuncInfo(f"{info.name}.{name}", m.node, m.source, m.scope, owner=info)
        copy.static, copy.property = m.static, m.property
        copy.cls_param = getattr(m, "cls_param", None)
        copy.overloads = m.overloads
        copy.defined_in = getattr(m, "defined_in", base)
        info.methods[name] = copy
    return True


def is_subclass(info, ancestor) -> bool:
    while info is not None:
        if info is ancestor:
            return True
        info = getattr(info, "base", None)
    return False


def common_base_type(em, a, b):
    """The type of a display holding objects of classes a and b (or unions of classes):
    their nearest common user base class, as an annotation naming it means (the base or
    any subclass); None when they have none."""
    from ember.frontend.polymorph import class_annotation
    infos = []
    for t in T.members(a) + T.members(b):
        info = em.c.class_by_decl.get(t.name) if isinstance(t, T.ClassType) else None
        if info is None:
            return None
        infos.append(info)
    cand = infos[0]
    while cand is not None and not all(is_subclass(i, cand) for i in infos):
        cand = getattr(cand, "base", None)
    if cand is None or cand.kind != "class":
        return None
    decl = em.c.declare_class(cand)
    return None if decl is None else class_annotation(em, cand, decl)


def subclass_types(em, ancestor, subject) -> list:
    """The class types among `subject`'s members whose class derives from `ancestor`."""
    out = []
    for t in T.members(subject):
        if isinstance(t, T.ClassType):
            info = em.c.class_by_decl.get(t.name)
            if info is not None and info is not ancestor and is_subclass(info, ancestor):
                out.append(t)
    return out


def is_super_call(node) -> bool:
    f = node.func
    return isinstance(f, A.Attribute) and isinstance(f.value, A.Call) and \
        isinstance(f.value.func, A.Name) and f.value.func.id == "super"


def super_call(em, node):
    """`super().name(args)` in a method: the method `name` of the defining class's base,
    compiled for the class of self."""
    from ember.frontend.compiler import FuncInfo
    from ember.frontend.userfuncs import call_user_function
    sup = node.func.value
    owner = em.info.owner
    if sup.args or sup.keywords:
        return em.unsupported("super() with arguments is not supported; write super()",
                              sup.span)
    if owner is None or em.info.static or not em.node.args:
        return em.error("super() is only valid in a method (it needs self)", sup.span)
    defining = getattr(em.info, "defined_in", None) or owner
    base = getattr(defining, "base", None)
    name = node.func.attr
    if base is None and name == "__init__" and not node.args and not node.keywords:
        return em.b.const(None, T.NONE, em.loc(node))  # object.__init__(self)
    if base is None or name not in base.methods:
        where = base.name if base is not None else "object"
        return em.error(f"'super' object has no attribute '{name}' (class '{where}' has no "
                        f"method '{name}')", node.func.span, NameResolutionError)
    found = base.methods[name]
    cache = owner.__dict__.setdefault("super_methods", {})
    key = (id(found.node), name)
    spec = cache.get(key)
    if spec is None:
        spec = FuncInfo(f"{owner.name}.{name}", found.node, found.source, found.scope,
                        owner=owner)
        spec.static, spec.property = found.static, found.property
        spec.defined_in = getattr(found, "defined_in", None) or base
        cache[key] = spec
    self_name = em.node.args[0].arg
    me = em.read_var(self_name, sup.span)
    if me is None:
        return em.error("super() needs the method's first parameter (self)", sup.span)
    call = A.Call(node.span, A.Name(node.func.span, name), node.args, node.keywords)
    return call_user_function(em, spec, call, [] if spec.static else [me])


__all__ = ["base_class", "inherit", "is_subclass", "subclass_types", "is_super_call",
           "super_call"]
