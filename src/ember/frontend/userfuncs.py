"""Calls to compiled Python functions: argument binding, conversion, recursion."""

from __future__ import annotations

from ember.errors import TypeCheckError
from ember.frontend import ast as A
from ember.frontend.typing_ import ERROR, ErrorType, show
from ember.ir import SymbolRef
from ember.ir import types as T


def signature_of(c, info):
    """(names, types, defaults, declared return) of a function, without compiling its body."""
    if info.signature is None:
        from ember.frontend.compiler import function_label
        from ember.frontend.function import FunctionEmitter
        c.compiling.append(function_label(info))
        try:
            info.signature = FunctionEmitter(c, info).signature()
        finally:
            c.compiling.pop()
    return info.signature


def ensure_symbol(c, info) -> str:
    if info.symbol is None:
        info.symbol = c.unique_symbol(info.name if info.owner is None
                                      else f"{info.owner.name}.{info.node.name}")
    return info.symbol


def call_user_function(em, info, node, leading, values=None):
    """Emit a call of `info` with `leading` values (self, captures) before the call's args
    (the AST arguments of `node`, or the already evaluated positional `values`)."""
    if info.overloads and values is None:
        from ember.frontend.overloads import call_overloaded
        return call_overloaded(em, info, node, leading)
    c = em.c
    ensure_symbol(c, info)
    names, types, defaults, declared = signature_of(c, info)
    fname = info.node.name
    if values is None:
        args = bind_arguments(em, fname, names, types, defaults, leading, node, declared)
    else:
        args = _bind_values(em, fname, names, types, defaults, leading, values, node)
    if args is None:
        from ember.frontend.function import Poison
        return Poison()
    func = c.ensure_compiled(info)
    if func is None:  # called while being compiled: recursion
        if declared is None:
            return em.error(f"recursive function '{fname}' needs a return type annotation",
                            node.span, TypeCheckError)
        ret = declared
    else:
        ret = func.type.ret
    if any(isinstance(a.type, ErrorType) for a in args) or isinstance(ret, ErrorType):
        from ember.frontend.function import Poison
        return Poison()
    return em.b.create("call", args, [ret], {"callee": SymbolRef(info.symbol)},
                       loc=em.loc(node)).result


def _bind_values(em, fname, names, types, defaults, leading, values, node):
    n = len(names) - len(leading)
    if not n - len(defaults) <= len(values) <= n:
        em.error(f"{fname}() takes {n} argument(s) but {len(values)} were given", node.span)
        return None
    out = list(leading)
    for i, (v, t) in enumerate(zip(values, types[len(leading):])):
        out.append(em.coerce(v, t, node.span, what=f"argument '{names[len(leading) + i]}' of "
                             f"{fname}()", convert=True))
    for k in range(len(leading) + len(values), len(names)):
        d = defaults[k - (len(names) - len(defaults))]
        out.append(em.coerce(em.constant(d, node), types[k], node.span, convert=True))
    return out


def _argument(em, node, ptype, transient):
    """An argument's value; a function written here (a lambda or a name) is transient
    (closures.check_captures) when the callee cannot keep it past the call."""
    direct = transient and isinstance(ptype, T.FunctionType) and \
        isinstance(node, (A.Lambda, A.Name))
    em.transient_functions += direct
    try:
        return em.value(node, ptype)
    finally:
        em.transient_functions -= direct


def _keeps_no_function(types, ret) -> bool:
    """Whether a callee with these parameter types and return type has nowhere to keep a
    function value passed to it: no parameter or result can hold one (an object might)."""
    if ret is None or _holds_function(ret):
        return False
    return not any(_holds_function(p) for t in types
                   for p in (t.params if isinstance(t, T.FunctionType) else (t,)))


def _holds_function(t) -> bool:
    if isinstance(t, (T.FunctionType, T.ClassType)):
        return True
    if isinstance(t, T.ListType):
        return _holds_function(t.elem)
    if isinstance(t, T.DictType):
        return _holds_function(t.key) or _holds_function(t.value)
    if isinstance(t, (T.TupleType, T.UnionType)):
        return any(_holds_function(m) for m in (t.elems if isinstance(t, T.TupleType)
                                                else t.members))
    if isinstance(t, T.OptionalType):
        return _holds_function(t.elem)
    return False


def bind_arguments(em, fname, names, types, defaults, leading, node, ret=None):
    """Match positional and keyword arguments to parameters; converted values or None.
    `ret`: the callee's declared return type, if any."""
    nlead = len(leading)
    params = names[nlead:]
    ptypes = types[nlead:]
    first_default = len(names) - len(defaults)
    if len(node.args) > len(params):
        em.error(f"{fname}() takes {len(params)} argument(s) but {len(node.args)} were given",
                 node.span)
        return None
    slots = [None] * len(params)
    transient = _keeps_no_function(types, ret)
    for i, a in enumerate(node.args):
        slots[i] = (_argument(em, a, ptypes[i], transient), a)
    for k in node.keywords:
        if k.arg not in params:
            em.error(f"{fname}() got an unexpected keyword argument '{k.arg}'", k.span)
            return None
        i = params.index(k.arg)
        if slots[i] is not None:
            em.error(f"{fname}() got multiple values for argument '{k.arg}'", k.span)
            return None
        slots[i] = (_argument(em, k.value, ptypes[i], transient), k.value)
    out = list(leading)
    for i, (slot, pname, ptype) in enumerate(zip(slots, params, ptypes)):
        if slot is None:
            d = i + nlead - first_default
            if d < 0:
                em.error(f"{fname}() missing required argument '{pname}'", node.span)
                return None
            out.append(em.coerce(em.constant(defaults[d], node), ptype, node.span,
                                 convert=True))
            continue
        v, anode = slot
        out.append(em.coerce(v, ptype, anode.span, what=f"argument '{pname}' of {fname}()",
                             convert=True))
    return out


__all__ = ["call_user_function", "bind_arguments", "signature_of", "ensure_symbol", "ERROR",
           "show", "T"]
