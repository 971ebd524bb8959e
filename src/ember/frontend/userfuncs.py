"""Calls to compiled Python functions: argument binding, conversion, recursion."""

from __future__ import annotations

from ember.errors import TypeCheckError
from ember.frontend import ast as A
from ember.frontend.typing_ import ERROR, ErrorType, show
from ember.frontend.vartuple import instance_type, variadic_item
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


def instance(em, info, table, key, **attrs):
    """table[key]: the specialization of info (its FuncInfo copy with `attrs` set: an
    Any-parameter or *args instance), made and given its symbol on first use."""
    spec = table.get(key)
    if spec is None:
        from ember.frontend.compiler import FuncInfo
        spec = FuncInfo(info.name, info.node, info.source, info.scope, info.pyfn, info.owner)
        spec.static, spec.nested = info.static, info.nested
        for name, value in attrs.items():
            setattr(spec, name, value)
        table[key] = spec
        ensure_symbol(em.c, spec)
    return spec


def call_user_function(em, info, node, leading, values=None, by_dtype=True):
    """Emit a call of `info` with `leading` values (self, captures) before the call's args
    (the AST arguments of `node`, or the already evaluated positional `values`).
    `by_dtype`: a function calling `.item()` on unannotated parameters is compiled for the
    dtypes of the tensors given (signature.item_params)."""
    if info.overloads and values is None:
        from ember.frontend.overloads import call_overloaded
        return call_overloaded(em, info, node, leading)
    c = em.c
    from ember.frontend.generators import is_generator_def, refuse_generator_value
    if is_generator_def(info.node):
        return refuse_generator_value(em, info, node)
    from ember.frontend.kwargs import expand_call, needs_expansion
    if values is None and needs_expansion(node):
        call, hidden, spread = expand_call(em, node)
        try:
            if call is None:
                from ember.frontend.function import Poison
                return Poison()
            if spread is not None:  # f(*list) / f(**dict_variable)
                from ember.frontend.spread import spread_call
                return spread_call(em, info, call, spread[0], spread[1], leading)
            return call_user_function(em, info, call, leading)
        finally:
            for name in hidden:
                em.env.pop(name)
    from ember.frontend.compiler import has_varargs
    if has_varargs(info.node) and info.vararg_count is None:
        return call_varargs(em, info, node, leading, values)
    if info.any_types is None and not info.overloads:
        from ember.frontend.signature import any_params
        names_any = any_params(em, info)
        if names_any:
            return call_any(em, info, node, leading, values, names_any)
    if by_dtype and info.any_types is None and not info.overloads and info.owner is None:
        from ember.frontend.signature import item_params
        names_item = item_params(info.node)
        if names_item:
            return call_by_dtype(em, info, node, leading, values, names_item)
    ensure_symbol(c, info)
    names, types, defaults, declared = signature_of(c, info)
    fname = info.node.name
    from ember.frontend.kwargs import param_kinds
    kinds = param_kinds(info, len(leading))
    if values is None:
        args = bind_arguments(em, fname, names, types, defaults, leading, node, declared,
                              kinds)
    else:
        args = _bind_values(em, fname, names, types, defaults, leading, values, node, kinds)
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


def call_any(em, info, node, leading, values, names_any):
    """A call of a function with Any parameters: compiled once per combination of the
    argument types given for them (each instance sees its arguments' static types, so
    isinstance refines them at compile time)."""
    fname = info.node.name
    params = [a.arg for a in info.node.args if a.kind == "normal"]
    if info.owner is not None and not info.static:
        params = params[1:]
    if values is None:
        if any(isinstance(a, A.Starred) for a in node.args):
            return em.unsupported("f(*xs) calls are not supported", node.span)
        if len(node.args) > len(params):
            return em.error(f"{fname}() takes {len(params)} argument(s) but "
                            f"{len(node.args)} were given", node.span)
        pairs = list(zip(params, node.args))
        for k in node.keywords:
            if k.arg not in params or any(p == k.arg for p, _ in pairs):
                return em.error(f"{fname}() got an unexpected or repeated keyword argument "
                                f"'{k.arg}'", k.span)
            pairs.append((k.arg, k.value))
        got = {p: (em.value(a), a) for p, a in pairs if not isinstance(a, A.Lambda)}
        from ember.frontend.lambda_args import type_lambdas
        type_lambdas(em, info, [(p, a) for p, a in pairs if isinstance(a, A.Lambda)], got)
        got = {p: got[p] for p, _ in pairs}
    else:
        got = {p: (v, node) for p, v in zip(params, values)}
    defaults = {a.arg: a.default for a in info.node.args if a.default is not None}
    types = {}
    anns = {a.arg: a.annotation for a in info.node.args}
    for p in names_any:
        if p in got:
            types[p] = got[p][0].type
        elif p in defaults:
            types[p] = em.value(defaults[p]).type
        if p in types and variadic_item(anns[p]) is not None:
            span = got[p][1].span if p in got else node.span
            types[p] = instance_type(em, anns[p], types[p], span,
                                     f"argument '{p}' of {fname}()")
    if any(isinstance(t, ErrorType) for t in types.values()):
        from ember.frontend.function import Poison
        return Poison()
    key = tuple(sorted((p, str(t)) for p, t in types.items()))
    spec = instance(em, info, info.any_instances, key, any_types=types)
    if values is not None:
        return call_user_function(em, spec, node, leading, values)
    names, ptypes, pdefaults, _ = signature_of(em.c, spec)
    out = []
    for i, p in enumerate(params):
        if p not in got:
            break
        out.append(got[p][0])
    if len(out) != len(got):
        return em.unsupported(f"keyword arguments that skip a parameter of {fname}(), which "
                              "has Any parameters, are not supported", node.span)
    return call_user_function(em, spec, node, leading, out)


def call_by_dtype(em, info, node, leading, values, names):
    """A call of a function whose body calls `.item()` on unannotated (Tensor) parameters:
    compiled once per combination of the dtypes of the tensors given for them, when the
    call knows them (so `t.item()` of an integer tensor is an int, as TorchScript's Scalar
    holds it); the function itself otherwise."""
    params = [a.arg for a in info.node.args if a.kind == "normal"]
    if values is None:
        if node.keywords or len(node.args) > len(params) or \
                any(isinstance(a, A.Starred) for a in node.args):
            return call_user_function(em, info, node, leading, by_dtype=False)
        names_, types_, _, _ = signature_of(em.c, info)
        want = dict(zip(names_, types_))
        values = [em.value(a, want.get(p)) for p, a in zip(params, node.args)]
    types = {p: T.TensorType(dtype=v.type.dtype) for p, v in zip(params, values)
             if p in names and isinstance(v.type, T.TensorType) and v.type.dtype is not None}
    if not types:
        return call_user_function(em, info, node, leading, values, by_dtype=False)
    key = ("dtype",) + tuple(sorted((p, str(t)) for p, t in types.items()))
    spec = instance(em, info, info.any_instances, key, any_types=types)
    return call_user_function(em, spec, node, leading, values)


def call_varargs(em, info, node, leading, values):
    """A call of `def f(a, *args: T)`: the extra positional arguments make the args tuple;
    f is compiled once per number of extra arguments (its args a Tuple[T, ...] of that
    length), as Python's args is a tuple of what the call gave."""
    fname = info.node.name
    star = next(i for i, a in enumerate(info.node.args) if a.kind == "star")
    keywords = []
    if values is None:
        keywords = node.keywords
        values = [em.value(a) for a in node.args]
    n_normal = star - (1 if info.owner is not None and not info.static else 0)
    k = max(0, len(values) - n_normal)
    spec = instance(em, info, info.vararg_instances, k, vararg_count=k)
    names, types, defaults, declared = signature_of(em.c, spec)
    if any(isinstance(t, ErrorType) for t in types):
        from ember.frontend.function import Poison
        return Poison()
    tuple_t = types[names.index(info.node.args[star].arg)]
    elem_t = tuple_t.elems
    spans = [a.span for a in node.args] if len(node.args) == len(values) else \
        [node.span] * len(values)
    extras = [em.coerce(v, t, sp, what=f"argument of {fname}()'s *args", convert=True)
              for v, t, sp in zip(values[n_normal:], elem_t, spans[n_normal:])]
    loc = em.loc(node)
    packed = em.b.create("tuple.new", extras, [tuple_t], loc=loc).result
    if len(values) < n_normal:  # the missing normal parameters take their defaults
        need = n_normal - len(values)
        # the defaults of the parameters before *args come first (keyword-only ones follow)
        nd = sum(1 for a in info.node.args[:star] if a.default is not None)
        if need > nd:
            first = names[len(leading) + len(values)]
            return em.error(f"{fname}() missing required argument '{first}'", node.span)
        values = values + [em.constant(d, node) for d in defaults[nd - need:nd]]
    spec_values = values[:n_normal] + [packed]
    if not keywords and not any(a.kind != "normal" for a in info.node.args[star + 1:]):
        return call_user_function(em, spec, node, leading, spec_values)
    return _call_with_keywords(em, spec, node, leading, spec_values, keywords)


def _call_with_keywords(em, spec, node, leading, values, keywords):
    """A call of a *args function whose keyword arguments bind keyword-only parameters or
    **kwargs: its positional values (the args tuple last) held in hidden variables."""
    from ember.frontend.builtins_ import hidden_name
    from ember.frontend.env import Var
    held = []
    for v in values:
        name = hidden_name("arg")
        em.env.set(name, Var(v.type, v, True))
        held.append(name)
    try:
        call = A.Call(node.span, node.func, [A.Name(node.span, n) for n in held],
                      list(keywords))
        return call_user_function(em, spec, call, leading)
    finally:
        for name in held:
            em.env.pop(name)


def _bind_values(em, fname, names, types, defaults, leading, values, node, kinds=None):
    if kinds and "starstar" in kinds and len(kinds) == len(names) - len(leading):
        empty = em.b.create("dict.new", [], [types[-1]], loc=em.loc(node)).result
        out = _bind_values(em, fname, names[:-1], types[:-1], defaults[:-1], leading, values,
                           node)
        return None if out is None else out + [empty]
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
        if _required(d):
            em.error(f"{fname}() missing 1 required keyword-only argument: '{names[k]}'",
                     node.span)
            return None
        out.append(em.coerce(em.constant(d, node), types[k], node.span, convert=True))
    return out


def _required(default) -> bool:
    from ember.frontend.signature import REQUIRED
    return default is REQUIRED


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


def bind_arguments(em, fname, names, types, defaults, leading, node, ret=None, kinds=None):
    """Match positional and keyword arguments to parameters; converted values or None.
    `ret`: the callee's declared return type, if any. `kinds`: each parameter's kind
    (keyword-only ones take no positional argument; a **kwargs one takes the keywords no
    other parameter takes)."""
    nlead = len(leading)
    params = names[nlead:]
    ptypes = types[nlead:]
    first_default = len(names) - len(defaults)
    if not kinds or len(kinds) != len(params):
        kinds = ["normal"] * len(params)
    n_pos = sum(1 for k in kinds if k == "normal")
    if len(node.args) > n_pos:
        more = " positional" if n_pos < len(params) else ""
        em.error(f"{fname}() takes {n_pos}{more} argument(s) but {len(node.args)} were given",
                 node.span)
        return None
    slots = [None] * len(params)
    transient = _keeps_no_function(types, ret)
    for i, a in enumerate(node.args):
        slots[i] = (_argument(em, a, ptypes[i], transient), a)
    star = kinds.index("starstar") if "starstar" in kinds else None
    extra = []
    for k in node.keywords:
        if k.arg not in params or kinds[params.index(k.arg)] == "starstar":
            if star is not None:
                if any(e.arg == k.arg for e in extra):
                    em.error(f"{fname}() got multiple values for keyword argument "
                             f"'{k.arg}'", k.span)
                    return None
                extra.append(k)
                continue
            em.error(f"{fname}() got an unexpected keyword argument '{k.arg}'", k.span)
            return None
        i = params.index(k.arg)
        if slots[i] is not None:
            em.error(f"{fname}() got multiple values for argument '{k.arg}'", k.span)
            return None
        slots[i] = (_argument(em, k.value, ptypes[i], transient), k.value)
    if star is not None:
        from ember.frontend.kwargs import pack_kwargs
        slots[star] = (pack_kwargs(em, fname, extra, ptypes[star], node), node)
    out = list(leading)
    for i, (slot, pname, ptype) in enumerate(zip(slots, params, ptypes)):
        if slot is None:
            d = i + nlead - first_default
            if d < 0:
                em.error(f"{fname}() missing required argument '{pname}'", node.span)
                return None
            dv = defaults[d]
            if _required(dv):
                em.error(f"{fname}() missing 1 required keyword-only argument: '{pname}'",
                         node.span)
                return None
            dv = em.value(dv, ptype) if isinstance(dv, A.Node) else em.constant(dv, node)
            out.append(em.coerce(dv, ptype, node.span, convert=True))
            continue
        v, anode = slot
        out.append(em.coerce(v, ptype, anode.span, what=f"argument '{pname}' of {fname}()",
                             convert=True))
    return out


__all__ = ["call_user_function", "bind_arguments", "signature_of", "ensure_symbol", "ERROR",
           "show", "T"]
