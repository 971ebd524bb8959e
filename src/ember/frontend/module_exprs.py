"""Module values in expressions: calling a submodule, containers, missing attributes.

Containers (Sequential, ModuleList, ModuleDict) are resolved at compile time,
as in TorchScript: `for m in self.layers` is unrolled, `self.layers[0]` and
`self.heads["a"]` need constant indices, `len(self.layers)` is a constant.
Each item may have a different module type.
"""

from __future__ import annotations

from ember.errors import NameResolutionError
from ember.frontend import ast as A
from ember.frontend.typing_ import ErrorType
from ember.ir import types as T


def module_info(em, t):
    """The ClassInfo of a module type, or None."""
    if not isinstance(t, T.ClassType):
        return None
    info = em.c.class_by_decl.get(t.name)
    return info if info is not None and info.kind == "module" else None


def container_info(em, t):
    info = module_info(em, t)
    return info if info is not None and info.container else None


def call_object(em, recv, node):
    """`obj(args)`: a module's forward, or a user class's __call__."""
    from ember.frontend.classes import call_class_method
    info = em.c.class_by_decl.get(recv.type.name)
    if info is not None and "forward" in info.methods and info.kind == "module":
        return call_class_method(em, recv, "forward", node)
    if info is not None and "__call__" in info.methods:
        return call_class_method(em, recv, "__call__", node)
    what = getattr(info, "label", recv.type.name) if info is not None else recv.type.name
    return em.error(f"'{em.expr_text(node.func)}' ({what}) is not callable: it defines no "
                    "forward() or __call__()", node.func.span)


def missing_module_attribute(em, info, node):
    attr = node.attr
    if attr in info.opaque:
        return em.unsupported(
            f"attribute '{attr}' of {info.label} is {info.opaque[attr]}, which compiled code "
            "cannot hold (module attributes may be tensors, submodules, int, float, bool, str, "
            "None, and lists / tuples / dicts of them)", node.span)
    return em.error(f"{info.label} has no attribute '{attr}' that ember can compile "
                    "(only tensors, submodules, plain attributes, constants and methods "
                    "written in the module's class are visible)", node.span, NameResolutionError)


def items(em, v, node):
    """[(key, value)] of a container value, in order (obj.get of each item)."""
    info = container_info(em, v.type)
    loc = em.loc(node)
    out = []
    for key, fname in info.items:
        ft = info.decl.field_type(fname)
        out.append((key, em.b.create("obj.get", [v], [ft], {"field": fname}, loc=loc).result))
    return out


def container_len(em, v, node):
    return em.b.const(len(container_info(em, v.type).items), T.I64, em.loc(node))


def container_getitem(em, v, index_node, node):
    """`self.layers[k]` / `self.heads["k"]` with a constant index or key."""
    info = container_info(em, v.type)
    key = _static_key(em, index_node)
    entries = items(em, v, node)
    if info.container == "list":
        if type(key) is not int:
            return em.unsupported(f"indexing {info.label} needs a constant int index (it is "
                                  "resolved at compile time)", index_node.span)
        if not -len(entries) <= key < len(entries):
            return em.error(f"index {key} is out of range for {info.label} of length "
                            f"{len(entries)}", index_node.span)
        return entries[key][1]
    if type(key) is not str:
        return em.unsupported(f"indexing {info.label} needs a constant string key",
                              index_node.span)
    for k, value in entries:
        if k == key:
            return value
    return em.error(f"{info.label} has no key {key!r}", index_node.span, NameResolutionError)


def _static_key(em, node):
    if isinstance(node, A.Constant) and type(node.value) in (int, str):
        return node.value
    n = em.static_int(node)
    if type(n) is int:
        return n
    if isinstance(node, A.Name):
        from ember.frontend.meta import MConst
        m = em.global_meta(node.id)
        if isinstance(m, MConst) and type(m.value) is str:
            return m.value
    return None


def static_sequence(em, node):
    """The unrolled items of a loop over module containers: `self.layers`, `self`,
    enumerate(...), zip(...), `.items()` / `.keys()` / `.values()`; None when node is
    not such a loop (nothing is emitted then)."""
    if isinstance(node, A.Call) and not node.keywords:
        fname = node.func.id if isinstance(node.func, A.Name) else None
        if fname in ("enumerate", "zip") and node.args and \
                all(_is_container_expr(em, a) for a in node.args[:1 if fname == "enumerate"
                                                                  else None]):
            return _builtin_sequence(em, fname, node)
        if isinstance(node.func, A.Attribute) and node.func.attr in ("items", "keys", "values") \
                and not node.args and _is_container_expr(em, node.func.value):
            v = em.value(node.func.value)
            pairs = items(em, v, node)
            loc = em.loc(node)
            if node.func.attr == "keys":
                return [_key_value(em, k, loc) for k, _ in pairs]
            if node.func.attr == "values":
                return [x for _, x in pairs]
            return [em.make_tuple([_key_value(em, k, loc), x]) for k, x in pairs]
    if _is_container_expr(em, node):
        v = em.value(node)
        if isinstance(v.type, ErrorType):
            return []
        info = container_info(em, v.type)
        pairs = items(em, v, node)
        if info.container == "dict":
            return [_key_value(em, k, em.loc(node)) for k, _ in pairs]
        return [x for _, x in pairs]
    return None


def _builtin_sequence(em, fname, node):
    from ember.frontend.meta import MBuiltin
    if not isinstance(em.global_meta(fname), MBuiltin):
        return None
    loc = em.loc(node)
    if fname == "enumerate":
        seq = static_sequence(em, node.args[0])
        start = em.static_int(node.args[1]) if len(node.args) > 1 else 0
        if type(start) is not int:
            return None
        return [em.make_tuple([em.b.const(start + i, T.I64, loc), x]) for i, x in enumerate(seq)]
    parts = [static_sequence(em, a) for a in node.args]
    if any(p is None for p in parts):
        return None
    n = min(len(p) for p in parts)
    return [em.make_tuple([p[i] for p in parts]) for i in range(n)]


def _key_value(em, key, loc):
    return em.b.const(key, T.STR if isinstance(key, str) else T.I64, loc)


def _is_container_expr(em, node) -> bool:
    """Whether node is `self`, `self.a.b` or a local bound to a container module (checked
    from the types of variables and fields, without emitting anything)."""
    t = _static_type(em, node)
    return container_info(em, t) is not None


def _static_type(em, node):
    if isinstance(node, A.Name):
        var = em.env.get(node.id)
        if var is not None and var.defined and var.value is not None:
            return var.value.type
        return None
    if isinstance(node, A.Attribute):
        base = _static_type(em, node.value)
        info = module_info(em, base)
        return info.decl.field_type(node.attr) if info is not None else None
    if isinstance(node, A.Subscript):
        base = _static_type(em, node.value)
        info = container_info(em, base)
        key = _static_key(em, node.slice) if info is not None else None
        if key is None:
            return None
        for k, fname in info.items:
            if k == key or (type(key) is int and info.items.index((k, fname)) ==
                            key % max(len(info.items), 1)):
                return info.decl.field_type(fname)
    return None
