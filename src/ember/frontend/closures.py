"""Nested functions and lambdas: closure conversion.

A nested def or lambda becomes a module-level function whose first
parameters are the enclosing variables it uses (captured *by value* when the
def runs). That equals Python's by-reference capture as long as the variable
does not change afterwards, so a captured variable that is reassigned after
the def (or inside a loop around it) is a compile error saying so. Lambda
parameter types come from where the lambda is used: a call, or a parameter
that expects a function type.
"""

from __future__ import annotations

from ember.errors import UnsupportedError
from ember.frontend import ast as A
from ember.frontend.compiler import FuncInfo
from ember.frontend.env import assigned_names, walk
from ember.frontend.meta import MFunction, MLambda, MNested
from ember.frontend.typing_ import ErrorType, show
from ember.ir import SymbolRef
from ember.ir import types as T


def free_names(node, params) -> list[str]:
    """Names a nested function reads that it does not bind itself, in first-use order."""
    body = node.body if isinstance(node, A.FunctionDef) else [node.body]
    own = set(params) | set(assigned_names(body) if isinstance(node, A.FunctionDef) else [])
    out: dict[str, None] = {}
    for stmt in body:
        for n in walk(stmt):
            if isinstance(n, A.Name) and n.id not in own:
                out.setdefault(n.id, None)
    return list(out)


def captures_of(em, node, params, def_span):
    """(name, type, value) of the enclosing locals the nested function uses."""
    out = []
    for name in free_names(node, params):
        var = em.env.get(name)
        nested = em.local_metas.get(name)
        if var is None and isinstance(nested, MNested):
            value = function_value(em, nested, node)
            out.append((name, value.type, value))
            continue
        if var is None:
            if name in em.local_names and name not in em.local_metas:
                em.c.report(UnsupportedError(
                    f"the nested function uses '{name}', a local variable of "
                    f"'{em.node.name}' that is not assigned yet where the function is "
                    f"defined; ember captures variables by value when the def runs, so "
                    f"assign '{name}' before the def", def_span))
            continue
        if reassigned_later(em.node, name, node):
            em.c.report(UnsupportedError(
                f"the nested function captures '{name}', which is assigned again after it is "
                "defined (or in a loop around it); ember captures variables by value, so "
                f"pass '{name}' as a parameter (or a default argument) instead", def_span))
            continue
        value = em.read_var(name, def_span)
        out.append((name, var.type, em.coerce(value, var.type, None)))
    return out


def reassigned_later(fn_node, name, target) -> bool:
    """True if `name` is assigned after `target` in fn_node, or in a loop enclosing it."""
    state = {"seen": False, "hit": False}

    def visit(stmts, loops):
        for s in stmts:
            if s is target or _contains(s, target):
                if s is target:
                    state["seen"] = True
                    if any(name in assigned_names(loop.body + loop.orelse) for loop in loops):
                        state["hit"] = True
                    continue
                inner = loops + [s] if isinstance(s, (A.For, A.While)) else loops
                for field in ("body", "orelse", "finalbody"):
                    visit(getattr(s, field, None) or [], inner)
                for h in getattr(s, "handlers", None) or []:
                    visit(h.body, inner)
                continue
            if state["seen"] and name in assigned_names([s]):
                state["hit"] = True
    visit(fn_node.body, [])
    return state["hit"]


def _contains(stmt, target) -> bool:
    if isinstance(target, A.Lambda):
        return any(n is target for n in walk(stmt))
    return any(n is target for n in walk(stmt)) and stmt is not target


def define_nested(em, s: A.FunctionDef):
    """`def inner(...)` inside a function: compile it now and bind the name to a closure."""
    if s.decorators:
        em.unsupported("decorators on nested functions are not supported", s.decorators[0].span)
    params = [a.arg for a in s.args]
    recursive = s.name in free_names(s, params)
    if recursive and s.returns is None:
        em.unsupported(f"nested function '{s.name}' calls itself: annotate its return type "
                       f"(def {s.name}(...) -> T:)", s.name_span or s.span)
        em.local_metas[s.name] = MNested(None, [])
        return
    caps = captures_of(em, s, params + ([s.name] if recursive else []), s.span)
    info = FuncInfo(f"{em.info.name}.{s.name}", s, em.source, em.scope, owner=None)
    info.nested = True
    meta = MNested(info, [(n, t) for n, t, _ in caps])
    # Inside itself the name is the same nested function: its captures are its own
    # leading parameters, read by name at each recursive call.
    _compile(em, info, caps, None, {s.name: meta} if recursive else None)
    if em.binding_counts.get(s.name, 0) > 1 or em.env.get(s.name) is not None:
        # Bound more than once (a def in each branch, or reassigned): a function value.
        em.write_var(s.name, _closure(em, info, caps, s), s.name_span or s.span)
        return
    em.local_metas[s.name] = meta


def call_nested(em, meta: MNested, node):
    """A direct call of a nested def: captures are passed first, defaults work."""
    from ember.frontend.userfuncs import call_user_function
    if meta.info is None:  # a nested def that failed to compile (already reported)
        from ember.frontend.function import Poison
        return Poison()
    return call_user_function(em, meta.info, node, _capture_values(em, meta, node))


def _capture_values(em, meta, node):
    out = []
    for name, t in meta.captures:
        v = em.read_var(name, node.span)
        if v is None:
            nested = em.local_metas.get(name)
            v = function_value(em, nested, node)
        out.append(em.coerce(v, t, None))
    return out


def _instantiate(em, info, caps, fixed_types, node):
    """Compile a nested function or lambda; returns its closure value built here."""
    _compile(em, info, caps, fixed_types)
    return _closure(em, info, caps, node)


def _compile(em, info, caps, fixed_types, metas=None):
    from ember.frontend.function import FunctionEmitter
    from ember.frontend.userfuncs import ensure_symbol

    ensure_symbol(em.c, info)
    info.state = "compiling"
    fe = FunctionEmitter(em.c, info, fixed_types, [(n, t) for n, t, _ in caps])
    fe.local_metas.update(metas or {})
    info.func = fe.run()
    info.state = "done"


def _closure(em, info, caps, node):
    ft = info.func.type
    if any(isinstance(t, ErrorType) for t in ft.params) or isinstance(ft.ret, ErrorType):
        from ember.frontend.function import Poison
        return Poison()
    fn_type = T.FunctionType(ft.params[len(caps):], ft.ret)
    return em.b.create("closure", [v for _, _, v in caps], [fn_type],
                       {"callee": SymbolRef(info.symbol)}, loc=em.loc(node)).result


# ----------------------------------------------------------------------------- lambdas


def make_lambda(em, node: A.Lambda, expected):
    for a in node.args:
        if a.kind != "normal" or a.default is not None:
            return em.unsupported("lambda parameters must be plain names", a.span)
    em.lambda_counter += 1
    name = f"lambda{em.lambda_counter}"
    meta = MLambda(node, None, name, em)
    if isinstance(expected, T.FunctionType) and len(expected.params) == len(node.args):
        return lambda_instance(em, meta, list(expected.params), node)
    if isinstance(expected, T.FunctionType):
        return em.error(f"this lambda takes {len(node.args)} argument(s), but a function of "
                        f"type {show(expected)} is expected here", node.span)
    if expected is not None and not isinstance(expected, ErrorType) and \
            not any(isinstance(m, T.FunctionType) for m in T.members(expected)):
        return em.error(f"a lambda is given where a value of type {show(expected)} is "
                        "expected", node.span)
    return meta


def lambda_instance(em, meta: MLambda, types, node):
    """The closure value of the lambda for these parameter types (compiled once per types)."""
    lam = meta.node
    params = [a.arg for a in lam.args]
    caps = captures_of(em, lam, params, lam.span)
    key = tuple(types)
    info = meta.instances.get(key)
    if info is None:
        fdef = A.FunctionDef(lam.span, meta.name, list(lam.args),
                             [A.Return(lam.body.span, lam.body)], [], None, name_span=lam.span)
        info = FuncInfo(f"{em.info.name}.{meta.name}", fdef, em.source, em.scope)
        info.nested = True
        meta.instances[key] = info
        _compile(em, info, caps, [t for _, t, _ in caps] + list(types))
    return _closure(em, info, caps, lam)


def call_lambda(em, meta: MLambda, node):
    if node.keywords:
        return em.unsupported("keyword arguments to a lambda are not supported", node.span)
    args = [em.value(a) for a in node.args]
    if len(args) != len(meta.node.args):
        return em.error(f"the lambda takes {len(meta.node.args)} argument(s) but "
                        f"{len(args)} were given", node.span)
    if any(isinstance(a.type, ErrorType) for a in args):
        return args[0]
    fn = lambda_instance(em, meta, [a.type for a in args], meta.node)
    return _call_value(em, fn, args, node)


def function_value(em, meta, node):
    """A function used as a value (passed, stored): a closure with no captures, or a lambda
    whose parameter types the context must give."""
    if isinstance(meta, MLambda):
        return em.error("cannot tell the parameter types of this lambda; call it, pass it "
                        "where a typed function is expected (e.g. sorted(xs, key=...)), or "
                        "annotate the variable (f: Callable[[int], int] = lambda x: ...)",
                        node.span)
    if isinstance(meta, MNested):
        caps = [(n, t, v) for (n, t), v in zip(meta.captures, _capture_values(em, meta, node))]
        return _closure(em, meta.info, caps, node)
    from ember.frontend.userfuncs import ensure_symbol, signature_of
    info = meta.info
    ensure_symbol(em.c, info)
    names, types, defaults, declared = signature_of(em.c, info)
    func = em.c.ensure_compiled(info)
    ret = func.type.ret if func is not None else declared
    if ret is None:
        return em.error(f"recursive function '{info.node.name}' needs a return annotation",
                        node.span)
    return em.b.create("closure", [], [T.FunctionType(tuple(types), ret)],
                       {"callee": SymbolRef(info.symbol)}, loc=em.loc(node)).result


def call_function_value(em, fn, node):
    if node.keywords:
        return em.unsupported("keyword arguments to a function value are not supported",
                              node.span)
    ft = fn.type
    if len(node.args) != len(ft.params):
        return em.error(f"the function takes {len(ft.params)} argument(s) but "
                        f"{len(node.args)} were given", node.span)
    args = [em.coerce(em.value(a, p), p, a.span, what="argument", convert=True)
            for a, p in zip(node.args, ft.params)]
    return _call_value(em, fn, args, node)


def _call_value(em, fn, args, node):
    if isinstance(fn.type, ErrorType):
        return fn
    ft = fn.type
    args = [em.coerce(a, p, node.span, convert=True) for a, p in zip(args, ft.params)]
    return em.b.create("call_indirect", [fn] + args, [ft.ret], loc=em.loc(node)).result


__all__ = ["define_nested", "make_lambda", "call_lambda", "function_value",
           "call_function_value", "MFunction", "show"]
