"""Lambdas given to a parameter the callee calls (`apply(lambda v: v * k, x)` with
`def apply(fn, x: int): return fn(x)`): the callee is compiled per call for the values
given to such parameters (userfuncs.call_any), and a lambda's parameter types are those
of the arguments the callee's first call of it passes, read from the callee's source."""

from __future__ import annotations

from ember.frontend import ast as A
from ember.ir import types as T


def type_lambdas(em, info, lambdas, got) -> None:
    """Give each lambda argument (parameter, node) its value in `got`, typed by how the
    callee calls it; one whose argument types depend on another lambda's result waits
    for it (`compose(lambda a: ..., lambda b: ..., x)` calling f(g(x)))."""
    while lambdas:
        waiting = []
        for p, a in lambdas:
            want = lambda_param_types(em, info, p, got)
            if want is None:
                waiting.append((p, a))
            else:
                got[p] = (em.value(a, want), a)
        if len(waiting) == len(lambdas):
            for p, a in waiting:
                got[p] = (em.value(a), a)  # refused: its parameter types are unknown
            return
        lambdas = waiting


def lambda_param_types(em, info, pname, got):
    """The function type a lambda given for parameter `pname` of `info` (a parameter the
    body calls) is called with: the static types of the first call's arguments, when
    each is a parameter (annotated, or given here), a `for` variable over one, or a
    constant. None when they cannot be told (the lambda is then refused as before)."""
    from ember.frontend.env import walk
    body = A.Module(info.node.span, list(info.node.body))
    call = next((n for n in walk(body) if isinstance(n, A.Call) and
                 isinstance(n.func, A.Name) and n.func.id == pname), None)
    if call is None or call.keywords:
        return None
    loops = {n.target.id: n.iter for n in walk(body)
             if isinstance(n, (A.For, A.Comprehension)) and isinstance(n.target, A.Name)}
    for n in walk(body):  # a local first bound to a parameter or a constant: its type
        if isinstance(n, A.Assign) and len(n.targets) == 1 and \
                isinstance(n.targets[0], A.Name) and n.targets[0].id not in loops:
            loops[n.targets[0].id] = ("=", n.value)
    types = [_arg_type(em, info, a, got, loops) for a in call.args]
    if any(t is None for t in types):
        return None
    return T.FunctionType(tuple(types), T.NONE)


def _arg_type(em, info, a, got, loops, depth=0):
    if isinstance(a, A.Constant) and type(a.value) in (int, float, str, bool):
        return {int: T.I64, float: T.F64, str: T.STR, bool: T.BOOL}[type(a.value)]
    if isinstance(a, A.Call) and isinstance(a.func, A.Name) and a.func.id in got and \
            isinstance(got[a.func.id][0].type, T.FunctionType):
        return got[a.func.id][0].type.ret
    if not isinstance(a, A.Name) or depth > 3:
        return None
    if a.id in got:
        return got[a.id][0].type
    ann = next((p.annotation for p in info.node.args if p.arg == a.id), None)
    if ann is not None:
        return em.ann.resolve(ann)
    it = loops.get(a.id)
    if isinstance(it, tuple):  # x = value
        return _arg_type(em, info, it[1], got, loops, depth + 1)
    if isinstance(it, A.Call) and isinstance(it.func, A.Name) and it.func.id == "range":
        return T.I64
    seq = _arg_type(em, info, it, got, loops, depth + 1) if it is not None else None
    if isinstance(seq, T.ListType):
        return seq.elem
    return T.STR if seq == T.STR else None
