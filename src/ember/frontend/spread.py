"""`f(*xs)` of a list and `f(**d)` of a dict variable, typed by the callee's signature.

A list's length and a dict's keys are only known at run time, but the callee's parameters
are known at compile time: `f(*xs)` becomes one call per length the callee admits (an
if-chain on len(xs), each branch passing xs[0], ..., xs[L-1]), and `f(**d)` passes, for
each parameter no other argument gives, `d[p]` (or its default when p is not in d). What
CPython checks when it binds the call is checked at run time and raises its TypeError:
too many or too few items, a missing required keyword, an unexpected key, a key naming a
parameter already given. Every argument is evaluated once, left to right, first.
"""

from __future__ import annotations

from ember.frontend import ast as A
from ember.errors import TypeCheckError
from ember.frontend.choose import choose
from ember.frontend.typing_ import ErrorType, show
from ember.ir import types as T


def spreads_at_run_time(v, node) -> bool:
    """Whether the value of `*v` / `**v` needs this module (a list, or a dict not written
    as a display)."""
    return isinstance(v.type, T.ListType) or (isinstance(v.type, T.DictType) and
                                               not isinstance(node, A.Dict))


def spread_call(em, info, call, list_arg, dict_arg, leading, expected=None):
    """The call `call` (its other arguments already held in hidden names) with the list
    held in `list_arg` (a Name, spread after call.args) and/or the dict held in
    `dict_arg` (a Name) bound to `info`'s parameters."""
    from ember.frontend.kwargs import has_kwargs
    from ember.frontend.compiler import has_varargs
    node = call
    if has_varargs(info.node) and not has_kwargs(info.node) and dict_arg is None and \
            list_arg is not None:
        return _spread_into_varargs(em, info, call, list_arg, leading)
    if has_kwargs(info.node) and not has_varargs(info.node) and list_arg is None and \
            dict_arg is not None:
        return _spread_into_kwargs(em, info, call, dict_arg, leading)
    if has_varargs(info.node) or has_kwargs(info.node):
        return em.unsupported("f(*xs) of a list or f(**d) of a dict into a function with "
                              "*args or **kwargs is not supported", node.span)
    params, defaults = _positional(info, len(leading))
    kinds, ptypes = _kinds_and_types(em, info, len(leading))
    fname = info.node.name
    given = len(call.args)
    named = {k.arg for k in call.keywords}
    if list_arg is None:
        return _with_dict(em, info, call, dict_arg, leading, params, defaults, expected)
    if dict_arg is not None:
        return em.unsupported("f(*xs, **d) of a list and a dict variable in one call is not "
                              "supported; spread one of them", node.span)
    free = []
    for p in params[given:]:
        if p in named or kinds[p] != "normal":
            break
        free.append(p)
    lo = sum(1 for p in free if p not in defaults)
    hi = len(free)
    elem = em.read_var(list_arg.id, node.span).type.elem
    typed = 0
    while typed < hi and _fits(elem, ptypes[free[typed]]):
        typed += 1
    if typed < lo:
        p = free[typed]
        return em.error(f"argument '{p}' of {fname}() has type {show(ptypes[p])}, but the "
                        f"items of the list spread into it are {show(elem)}", node.span,
                        TypeCheckError)
    n = _held_len(em, list_arg, "list.len", node)
    _check_length(em, n, lo, hi, given, params, defaults, fname, node)
    _check_collisions(em, n, hi, given, params, [k.arg for k in call.keywords], fname, node)
    for L in range(typed + 1, hi + 1):  # an item this parameter's type cannot take
        p = free[L - 1]
        _raise_if(em, A.Compare(node.span, n, [">="], [A.Constant(node.span, L)]),
                  A.Constant(node.span, f"{fname}() argument '{p}' must be "
                                        f"{show(ptypes[p])}, not {show(elem)}"), node.span)
    hi = typed
    lengths = list(range(lo, hi + 1))
    loc = em.loc(node)
    tests = [em.b.kernel("int.eq", [em.read_var(n.id, node.span),
                                    em.b.const(L, T.I64, loc)], T.BOOL, loc)
             for L in lengths[:-1]]

    def branch(L):
        items = [A.Subscript(node.span, list_arg, A.Constant(node.span, i)) for i in range(L)]
        c = A.Call(node.span, call.func, call.args + items, call.keywords)
        from ember.frontend.userfuncs import call_user_function
        return call_user_function(em, info, c, leading)
    return choose(em, tests, [lambda L=L: branch(L) for L in lengths], node, expected)


def _spread_into_varargs(em, info, call, list_arg, leading):
    """f(a, *xs) of a list into `def f(a, *args: T)`: the parameters before *args take the
    call's positional arguments and args a copy of the list (an instance of f whose args
    is a List[T])."""
    from ember.frontend.signature import LIST_VARARGS
    from ember.frontend.userfuncs import call_user_function, instance, signature_of
    node = call
    fname = info.node.name
    star = next(i for i, a in enumerate(info.node.args) if a.kind == "star")
    n_normal = star - (1 if info.owner is not None and not info.static else 0)
    if len(call.args) != n_normal or \
            any(a.kind == "kwonly" and a.default is None for a in info.node.args):
        return em.unsupported(f"f(*xs) of a list into {fname}(): give the parameters before "
                              "*args as positional arguments (the list fills *args)",
                              node.span)
    spec = instance(em, info, info.vararg_instances, LIST_VARARGS,
                    vararg_count=LIST_VARARGS)
    names, types, _, _ = signature_of(em.c, spec)
    if any(isinstance(t, ErrorType) for t in types):
        from ember.frontend.function import Poison
        return Poison()
    want = types[names.index(info.node.args[star].arg)]
    items = em.read_var(list_arg.id, node.span)
    if not _fits(items.type.elem, want.elem):
        return em.error(f"the items of the list spread into {fname}()'s *args are "
                        f"{show(items.type.elem)}, not {show(want.elem)}", node.span,
                        TypeCheckError)
    copy = em.b.kernel("list.copy", [items], T.as_list(items.type), em.loc(node))
    if items.type != want:
        copy = em.coerce(copy, want, node.span, convert=True)
    values = [em.value(a) for a in call.args] + [copy]
    if not call.keywords:
        return call_user_function(em, spec, node, leading, values)
    from ember.frontend.userfuncs import _call_with_keywords
    return _call_with_keywords(em, spec, node, leading, values, call.keywords)


def _spread_into_kwargs(em, info, call, dict_arg, leading):
    """f(a, k=v, **d) of a dict variable into `def f(a, ..., **kw: T)`: the named
    parameters take the call's arguments, or d's items of their names (then not in kw),
    or their defaults; kw is the rest of d with the call's other keywords, with CPython's
    TypeErrors for a name given twice or a required parameter given nowhere."""
    from ember.frontend.builtins_ import hidden_name
    from ember.frontend.userfuncs import ensure_symbol, signature_of
    from ember.ir.core import SymbolRef
    sp = call.span
    fname = info.node.name
    named = [a for a in info.node.args if a.kind in ("normal", "kwonly")]
    if info.owner is not None and not info.static:
        named = named[1:]
    if len(call.args) > sum(1 for a in named if a.kind == "normal"):
        return em.error(f"{fname}() takes {len(named)} positional argument(s) but "
                        f"{len(call.args)} were given", sp)
    given = {a.arg: v for a, v in zip(named, call.args)}
    extras = []
    for k in call.keywords:
        if k.arg in given:
            return em.error(f"{fname}() got multiple values for argument '{k.arg}'", k.span)
        if any(a.arg == k.arg for a in named):
            given[k.arg] = k.value
        else:
            extras.append(k)
    kw = hidden_name("kw")

    def name(n):
        return A.Name(sp, n)

    def raise_if(test, message):
        _raise_if(em, test, A.Constant(sp, message), sp)

    em.stmt(A.Assign(sp, [name(kw)], A.Call(sp, name("dict"), [dict_arg], [])))
    ensure_symbol(em.c, info)
    names, types, _, _ = signature_of(em.c, info)
    ptypes = dict(zip(names[len(leading):], types[len(leading):]))
    elem = em.read_var(dict_arg.id, sp).type.value
    held = {}
    for a in named:
        in_kw = A.Compare(sp, A.Constant(sp, a.arg), ["in"], [name(kw)])
        if a.arg in given:
            raise_if(in_kw, f"{fname}() got multiple values for argument '{a.arg}'")
            continue
        if not _fits(elem, ptypes.get(a.arg)):  # d's values cannot be this parameter's
            raise_if(in_kw, f"{fname}() argument '{a.arg}' must be "
                            f"{show(ptypes.get(a.arg))}, not {show(elem)}")
            if a.default is None:
                return em.error(f"{fname}() missing required argument '{a.arg}' (the items "
                                f"of the dict spread are {show(elem)})", sp, TypeCheckError)
            given[a.arg] = a.default
            continue
        h = held[a.arg] = hidden_name("p")
        if a.default is None:
            raise_if(A.UnaryOp(sp, "not", in_kw),
                     f"{fname}() missing 1 required "
                     f"{'keyword-only' if a.kind == 'kwonly' else 'positional'} argument: "
                     f"'{a.arg}'")
            em.stmt(A.Assign(sp, [name(h)], A.Call(sp, A.Attribute(sp, name(kw), "pop"),
                                                    [A.Constant(sp, a.arg)], [])))
        else:
            em.stmt(A.Assign(sp, [name(h)], A.Call(sp, A.Attribute(sp, name(kw), "pop"),
                                                    [A.Constant(sp, a.arg), a.default], [])))
    for k in extras:
        raise_if(A.Compare(sp, A.Constant(sp, k.arg), ["in"], [name(kw)]),
                 f"{fname}() got multiple values for keyword argument '{k.arg}'")
    if any(isinstance(t, ErrorType) for t in types):
        from ember.frontend.function import Poison
        return Poison()
    kw_type = types[-1]
    if extras:  # the call's own keywords first, then d's remaining items (call order)
        merged = hidden_name("kw")
        em.stmt(A.Assign(sp, [name(merged)], A.Dict(sp, [A.Constant(sp, k.arg) for k in extras],
                                                    [k.value for k in extras])))
        em.stmt(A.Expr(sp, A.Call(sp, A.Attribute(sp, name(merged), "update"), [name(kw)],
                                  [])))
        kw = merged
    args = list(leading)
    for a, t in zip(named, types[len(leading):]):
        node = given[a.arg] if a.arg in given else name(held[a.arg])
        args.append(em.coerce(em.value(node, t), t, node.span, convert=True,
                              what=f"argument '{a.arg}' of {fname}()"))
    kv = em.read_var(kw, sp)
    args.append(em.coerce(kv, kw_type, sp, convert=True,
                          what=f"the **kwargs of {fname}()"))
    func = em.c.ensure_compiled(info)
    if func is None:
        return em.unsupported(f"recursive {fname}() called with **d", sp)
    if any(isinstance(v.type, ErrorType) for v in args):
        from ember.frontend.function import Poison
        return Poison()
    return em.b.create("call", args, [func.type.ret], {"callee": SymbolRef(info.symbol)},
                       loc=em.loc(sp)).result


def _positional(info, nlead):
    """(parameter names a call binds, {name: default node}) after self."""
    args = [a for a in info.node.args if a.kind in ("normal", "kwonly")]
    if info.owner is not None and not info.static:
        args = args[1:]
    return [a.arg for a in args], {a.arg: a.default for a in args if a.default is not None}


def _kinds_and_types(em, info, nlead):
    """{parameter: kind} and {parameter: type} of the callee."""
    from ember.frontend.userfuncs import signature_of
    names, types, _, _ = signature_of(em.c, info)
    kinds = {a.arg: a.kind for a in info.node.args}
    return kinds, dict(zip(names[nlead:], types[nlead:]))


def _fits(got, want) -> bool:
    """Whether a value of type `got` may be passed where `want` is declared."""
    from ember.frontend.function import _NUMERIC_CONV
    if want is None or isinstance(want, ErrorType) or isinstance(got, ErrorType):
        return True
    return T.is_subtype(got, want) or (got, want) in _NUMERIC_CONV or \
        any((got, m) in _NUMERIC_CONV for m in T.members(want))


def _held_len(em, name_node, kernel, node):
    from ember.frontend.builtins_ import hidden_name
    from ember.frontend.env import Var
    v = em.read_var(name_node.id, node.span)
    n = em.b.kernel(kernel, [v], T.I64, em.loc(node))
    name = hidden_name("len")
    em.env.set(name, Var(T.I64, n, True))
    return A.Name(node.span, name)


def _check_length(em, n, lo, hi, given, params, defaults, fname, node):
    """Raise CPython's TypeError when the list's length cannot bind the call."""
    sp = node.span
    total = len(params)
    req = sum(1 for p in params if p not in defaults)
    takes = f"{total}" if req == total else f"from {req} to {total}"
    plural = "argument" if total == 1 and req == total else "arguments"
    too_many = A.JoinedStr(sp, [
        A.Constant(sp, f"{fname}() takes {takes} positional {plural} but "),
        A.FormattedValue(sp, A.BinOp(sp, A.Constant(sp, given), "+", n), None, None),
        A.Constant(sp, " were given")])
    _raise_if(em, A.Compare(sp, n, [">"], [A.Constant(sp, total - given)]), too_many, sp)
    for L in range(lo):
        missing = [p for p in params[given + L:given + lo]]
        _raise_if(em, A.Compare(sp, n, ["=="], [A.Constant(sp, L)]),
                  A.Constant(sp, _missing_message(fname, missing)), sp)


def _check_collisions(em, n, hi, given, params, keywords, fname, node):
    """Items reaching a parameter a keyword gives: CPython's "multiple values" error."""
    sp = node.span
    for L in range(hi + 1, len(params) - given + 1):
        filled = params[given:given + L]
        first = next(k for k in keywords if k in filled)
        _raise_if(em, A.Compare(sp, n, ["=="], [A.Constant(sp, L)]),
                  A.Constant(sp, f"{fname}() got multiple values for argument '{first}'"), sp)


def _missing_message(fname, missing) -> str:
    names = [f"'{p}'" for p in missing]
    text = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
    s = "" if len(missing) == 1 else "s"
    return f"{fname}() missing {len(missing)} required positional argument{s}: {text}"


def _raise_if(em, test, message, sp):
    exc = A.Call(sp, A.Name(sp, "TypeError"), [message], [])
    em.stmt(A.If(sp, test, [A.Raise(sp, exc, None)], []))


def _with_dict(em, info, call, d, leading, params, defaults, expected):
    """call(**d): each parameter the call does not give is d[p] (or its default)."""
    from ember.frontend.userfuncs import call_user_function
    sp = call.span
    fname = info.node.name
    taken = params[:len(call.args)] + [k.arg for k in call.keywords]
    rest = [p for p in params if p not in taken]
    _check_keys(em, d, fname, rest, taken, sp)
    keywords = list(call.keywords)
    vtype = em.read_var(d.id, sp).type.value
    kinds, ptypes = _kinds_and_types(em, info, len(leading))
    for p in rest:
        key = A.Constant(sp, p)
        item = A.Subscript(sp, d, key)
        if not _fits(vtype, ptypes.get(p)):
            if p not in defaults:
                return em.error(f"argument '{p}' of {fname}() has type {show(ptypes[p])}, "
                                f"but the values of the dict spread into it are "
                                f"{show(vtype)}", sp, TypeCheckError)
            _raise_if(em, A.Compare(sp, key, ["in"], [d]),
                      A.Constant(sp, f"{fname}() argument '{p}' must be {show(ptypes[p])}, "
                                     f"not {show(vtype)}"), sp)
            continue
        if p in defaults:
            if not _constant(defaults[p]):
                return em.unsupported(f"f(**d) into {fname}(), whose parameter '{p}' has a "
                                      "default that is not a constant", sp)
            item = A.IfExp(sp, A.Compare(sp, key, ["in"], [d]), item, defaults[p])
        else:
            _raise_if(em, A.Compare(sp, key, ["not in"], [d]),
                      A.Constant(sp, _missing_message(fname, [p])), sp)
        keywords.append(A.Keyword(sp, p, item))
    return call_user_function(em, info, A.Call(sp, call.func, call.args, keywords), leading)


def _check_keys(em, d, fname, rest, taken, sp):
    """for k in d: an unexpected key, or one naming a parameter already given, raises."""
    from ember.frontend.builtins_ import hidden_name
    k = A.Name(sp, hidden_name("key"))
    unexpected = A.JoinedStr(sp, [A.Constant(sp, f"{fname}() got an unexpected keyword "
                                                 "argument '"),
                                  A.FormattedValue(sp, k, None, None), A.Constant(sp, "'")])
    twice = A.JoinedStr(sp, [A.Constant(sp, f"{fname}() got multiple values for argument '"),
                             A.FormattedValue(sp, k, None, None), A.Constant(sp, "'")])
    body = []
    if taken:
        body.append(A.If(sp, A.Compare(sp, k, ["in"], [_names(sp, taken)]),
                         [A.Raise(sp, A.Call(sp, A.Name(sp, "TypeError"), [twice], []), None)],
                         []))
    body.append(A.If(sp, A.Compare(sp, k, ["not in"], [_names(sp, rest)]),
                     [A.Raise(sp, A.Call(sp, A.Name(sp, "TypeError"), [unexpected], []),
                              None)], []))
    em.stmt(A.For(sp, k, d, body, []))
    em.env.pop(k.id) if em.env.get(k.id) is not None else None


def _names(sp, names):
    return A.List(sp, [A.Constant(sp, p) for p in names])


def _constant(node) -> bool:
    if isinstance(node, A.UnaryOp) and node.op in ("-", "+"):
        node = node.operand
    return isinstance(node, A.Constant)


__all__ = ["spreads_at_run_time", "spread_call"]
