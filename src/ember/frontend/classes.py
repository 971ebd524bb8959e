"""User classes and NamedTuples: declaration, construction, fields and methods.

A class's fields come from annotations in its body (`x: int`) and from
`self.x = ...` in `__init__` (annotated or inferred from the value). Methods
compile to module functions `Class.method` whose first parameter is the
object. typing.NamedTuple classes are immutable records with the same
field machinery; they unpack and index like tuples.
"""

from __future__ import annotations

from ember.errors import NameResolutionError, TypeCheckError, UnsupportedError
from ember.frontend import ast as A
from ember.frontend.compiler import FuncInfo
from ember.frontend.meta import MBoundMethod, MTypeName
from ember.frontend.typing_ import ERROR, ErrorType, show
from ember.ir import ClassDecl, Loc
from ember.ir import types as T


def declare_class(c, info) -> None:
    """Create the ClassDecl (fields from annotations), then compile __init__ to find the rest."""
    from ember.frontend.function import FunctionEmitter

    node = info.node
    kind = _kind(c, info)
    if kind is None:
        return
    info.kind = kind
    name = c.unique_symbol(info.name.replace("<locals>.", ""))
    decl = ClassDecl(name, [], kind, Loc.of_span(node.span))
    info.decl = decl
    c.module.add_class(decl)
    c.class_by_decl[name] = info
    probe = FunctionEmitter(c, FuncInfo(info.name, _dummy_def(node), info.source, info.scope))
    for stmt in node.body:
        if isinstance(stmt, A.AnnAssign) and isinstance(stmt.target, A.Name):
            decl.fields.append((stmt.target.id, probe.ann.resolve(stmt.annotation)))
            if stmt.value is not None:
                info.defaults[stmt.target.id] = stmt.value
        elif isinstance(stmt, A.FunctionDef):
            info.methods[stmt.name] = FuncInfo(f"{info.name}.{stmt.name}", stmt, info.source,
                                               info.scope, owner=info)
            if stmt.decorators and not _allowed_decorators(stmt):
                c.report(UnsupportedError("method decorators are not supported (except "
                                          "@torch.jit.export)", stmt.decorators[0].span))
    if kind == "class" and "__init__" in info.methods:
        init = info.methods["__init__"]
        from ember.frontend.userfuncs import ensure_symbol
        ensure_symbol(c, init)
        c.ensure_compiled(init)


def _kind(c, info):
    node = info.node
    bases = node.bases
    if not bases:
        return "class"
    if len(bases) == 1:
        b = bases[0]
        name = b.id if isinstance(b, A.Name) else (b.attr if isinstance(b, A.Attribute) else None)
        meta = info.scope.lookup(b.id) if isinstance(b, A.Name) else None
        if name == "NamedTuple" or (isinstance(meta, MTypeName) and meta.name == "NamedTuple"):
            return "namedtuple"
        if name == "object":
            return "class"
        from ember.frontend.meta import MException
        if isinstance(meta, MException):
            c.report(UnsupportedError("user-defined exception classes are not supported yet; "
                                      "raise a builtin exception such as ValueError", b.span))
            return None
    c.report(UnsupportedError("class inheritance is not supported (only NamedTuple bases)",
                              bases[0].span))
    return None


def _allowed_decorators(fn: A.FunctionDef) -> bool:
    for d in fn.decorators:
        text = d.attr if isinstance(d, A.Attribute) else (d.id if isinstance(d, A.Name) else "")
        if text not in ("export", "ignore", "unused"):
            return False
    return True


def _dummy_def(node):
    return A.FunctionDef(node.span, node.name, [], [A.Pass(node.span)])


# ----------------------------------------------------------------------------- use


def construct(em, info, node):
    decl = em.c.declare_class(info)
    if decl is None:
        from ember.frontend.function import Poison
        return Poison()
    ct = T.ClassType(decl.name)
    loc = em.loc(node)
    if info.kind == "namedtuple":
        return _construct_namedtuple(em, info, decl, node)
    obj = em.b.create("obj.new", [], [ct], loc=loc).result
    init = info.methods.get("__init__")
    if init is None:
        if node.args or node.keywords:
            return em.error(f"{decl.name}() takes no arguments", node.span)
        return obj
    from ember.frontend.userfuncs import call_user_function
    call_user_function(em, init, node, [obj])
    return obj


def _construct_namedtuple(em, info, decl, node):
    from ember.frontend.userfuncs import bind_arguments
    names = [n for n, _ in decl.fields]
    types = [t for _, t in decl.fields]
    defaults = []
    first_default = next((i for i, n in enumerate(names) if n in info.defaults), len(names))
    for n in names[first_default:]:
        d = info.defaults.get(n)
        if not isinstance(d, A.Constant):
            return em.unsupported("NamedTuple defaults must be constants", node.span)
        defaults.append(d.value)
    args = bind_arguments(em, decl.name, names, types, defaults, [], node)
    if args is None:
        from ember.frontend.function import Poison
        return Poison()
    return em.b.create("obj.new", args, [T.ClassType(decl.name)], loc=em.loc(node)).result


def instance_attribute(em, obj, node):
    decl = em.c.module.classes.get(obj.type.name)
    info = _class_info(em, obj.type.name)
    t = decl.field_type(node.attr) if decl is not None else None
    if t is not None:
        return em.b.create("obj.get", [obj], [t], {"field": node.attr}, loc=em.loc(node)).result
    if info is not None and node.attr in info.methods:
        return MBoundMethod(obj, node.attr, node.span)
    return em.error(f"'{obj.type.name}' object has no attribute '{node.attr}'", node.span,
                    NameResolutionError)


def instance_attribute_set(em, obj, node, value):
    t = obj.type
    if isinstance(t, ErrorType) or isinstance(value.type, ErrorType):
        return
    if not isinstance(t, T.ClassType):
        em.error(f"cannot set attributes of {show(t)}", node.span)
        return
    decl = em.c.module.classes.get(t.name)
    info = _class_info(em, t.name)
    if decl.kind == "namedtuple":
        em.error(f"'{t.name}' is a NamedTuple: its fields cannot be assigned", node.span)
        return
    ft = decl.field_type(node.attr)
    if ft is None:
        in_init = info is not None and em.info is info.methods.get("__init__")
        if not in_init:
            em.error(f"'{t.name}' object has no attribute '{node.attr}' (fields are created "
                     "in __init__)", node.span, NameResolutionError)
            return
        ft = value.type
        if ft == T.NONE:
            em.error(f"field '{node.attr}' is first assigned None; annotate it "
                     f"(self.{node.attr}: Optional[int] = None)", node.span, TypeCheckError)
            return
        decl.fields.append((node.attr, ft))
    value = em.coerce(value, ft, node.span, what=f"field '{node.attr}'")
    em.b.create("obj.set", [obj, value], attrs={"field": node.attr}, loc=em.loc(node))


def call_class_method(em, recv, name, node):
    info = _class_info(em, recv.type.name)
    method = info.methods.get(name) if info is not None else None
    if method is None:
        return em.error(f"'{recv.type.name}' object has no method '{name}'", node.span,
                        NameResolutionError)
    from ember.frontend.userfuncs import call_user_function
    return call_user_function(em, method, node, [recv])


def class_attribute(em, meta, node):
    return em.unsupported(f"class attributes ({meta.info.name}.{node.attr}) are not supported; "
                          "use instance fields or module-level constants", node.span)


def _class_info(em, decl_name):
    return em.c.class_by_decl.get(decl_name)


__all__ = ["declare_class", "construct", "instance_attribute", "instance_attribute_set",
           "call_class_method", "class_attribute", "ERROR"]
