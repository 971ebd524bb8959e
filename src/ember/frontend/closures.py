"""Nested functions and lambdas: closure conversion.

A nested def or lambda becomes a module-level function whose first
parameters are the enclosing variables it uses. A direct call (`g(x)` of a
def or of a lambda bound to a name) passes the variables' values at the call,
which is Python's late binding. A function used as a value (stored, passed,
returned) captures them *by value* where the value is made; that equals
Python only if they do not change while the value may still be called, so a
captured variable assigned again after that point (or in a loop or
comprehension around it) is a compile error saying so. A `key=` function of
sorted/min/max/sort is called before the statement goes on, so it is exempt.
Lambda parameter types come from where the lambda is used: a call, or a
parameter that expects a function type.
"""

from __future__ import annotations

from ember.errors import UnsupportedError
from ember.frontend import ast as A
from ember.frontend.compiler import FuncInfo
from ember.frontend.env import (
    assigned_names,
    box_name,
    children,
    nonlocal_names,
    target_names,
    walk,
)
from ember.frontend.meta import MFunction, MLambda, MNested
from ember.frontend.typing_ import ErrorType, show
from ember.ir import SymbolRef
from ember.ir import types as T


def free_names(node, params) -> list[str]:
    """Names a nested function reads that it does not bind itself, in first-use order; a
    variable it declares `nonlocal` is captured as its box (box_name)."""
    body = node.body if isinstance(node, A.FunctionDef) else [node.body]
    shared = nonlocal_names(body, deep=False) if isinstance(node, A.FunctionDef) else set()
    own = set(params) | set(assigned_names(body) if isinstance(node, A.FunctionDef) else [])
    own -= shared
    out: dict[str, None] = {box_name(n): None for n in sorted(shared)}
    for stmt in body:
        for n in walk(stmt):
            if isinstance(n, A.Name) and n.id not in own and n.id not in shared:
                out.setdefault(n.id, None)
    return list(out)


def captures_of(em, node, params, def_span, depth=None):
    """(name, type, value) of the enclosing locals the nested function uses, read here."""
    out = []
    for name in free_names(node, params):
        var = _outer_var(em, name, depth)
        nested = em.local_metas.get(name)
        if var is None and isinstance(nested, MNested):
            value = function_value(em, nested, node)
            out.append((name, value.type, value))
            continue
        if var is None and isinstance(nested, MLambda):
            em.c.report(UnsupportedError(
                f"the nested function uses the lambda '{name}', whose parameter types are "
                f"only known where it is called; write it as a def, or annotate it "
                f"({name}: Callable[[...], ...] = lambda ...)", def_span))
            continue
        if var is None and name in em.boxed and em.env.get(box_name(name)) is not None:
            value = _read_outer(em, name, def_span, depth)  # read from its box, here
            out.append((name, value.type, value))
            continue
        if var is None and name.startswith("$box."):
            plain = name[len("$box."):]
            if plain in em.boxed:
                em.c.report(UnsupportedError(
                    f"the nested function shares '{plain}' (nonlocal), which is not assigned "
                    f"yet where the function is defined; assign '{plain}' before the def",
                    def_span))
            else:
                from ember.errors import NameResolutionError
                em.c.report(NameResolutionError(
                    f"no binding for nonlocal '{plain}' found (it must be a local variable "
                    f"of '{em.node.name}')", def_span))
            continue
        if var is None:
            if name in em.local_names and name not in em.local_metas:
                em.c.report(UnsupportedError(
                    f"the nested function uses '{name}', a local variable of "
                    f"'{em.node.name}' that is not assigned yet where the function is "
                    f"defined; assign '{name}' before the def", def_span))
            continue
        value = _read_outer(em, name, def_span, depth)
        out.append((name, var.type, em.coerce(value, var.type, None)))
    return out


def _outer_var(em, name, depth):
    """The Var of `name` in the scope a nested function defined at comprehension depth
    `depth` sees: comprehensions entered since then hide their own variables."""
    if depth is not None:
        for state in em.comprehensions[depth:]:
            if name in state.hidden:
                return state.hidden[name]
            if name in state.names:
                return None
    return em.env.get(name)


def _read_outer(em, name, span, depth):
    var = _outer_var(em, name, depth)
    current = em.env.get(name)
    if var is current:
        return em.read_var(name, span)
    if var is None:
        return None
    em.env.vars[name] = var
    try:
        return em.read_var(name, span)
    finally:
        if current is None:
            del em.env.vars[name]
        else:
            em.env.vars[name] = current


def check_captures(em, captures, point):
    """Report the captured variables that may change while a function value made at
    `point` can still be called (the value holds the values they have at `point`)."""
    if em.transient_functions:
        return
    for name, _ in captures:
        nested = em.local_metas.get(name)
        if em.env.get(name) is None and isinstance(nested, MNested):
            if nested.info is not None:
                check_captures(em, nested.captures, point)
            continue
        if rebound_after(em.node, name, point):
            em.c.report(UnsupportedError(
                f"this function value captures '{name}', which is assigned again after this "
                "point (or in a loop or comprehension around it); ember captures variables "
                "by value where a function becomes a value, while Python reads them when "
                f"it is called: pass '{name}' as a parameter instead", point.span))


_STMTS = (A.FunctionDef, A.ClassDef, A.Return, A.Assign, A.AugAssign, A.AnnAssign, A.For,
          A.While, A.If, A.With, A.Raise, A.Try, A.Assert, A.Delete, A.Pass, A.Break,
          A.Continue, A.Expr, A.Import, A.ImportFrom, A.Global, A.Nonlocal)
_COMPS = (A.ListComp, A.SetComp, A.GeneratorExp, A.DictComp)


def rebound_after(fn_node, name, point) -> bool:
    """True if `name` may be assigned after `point` runs: later in fn_node, anywhere in a
    loop or comprehension around point, or by the statement holding point. Every later
    statement counts, taken or not (an `else` after its `if` does not); after a `return`
    only the enclosing `finally` blocks run."""
    chain = _chain(fn_node, point)
    if chain is None:
        return False
    k = max(i for i, n in enumerate(chain) if i > 0 and isinstance(n, _STMTS))
    stmt = chain[k]
    for node in chain[k + 1:]:
        if isinstance(node, _COMPS) and \
                any(name in target_names(g.target) for g in node.generators):
            return True
    exits = isinstance(stmt, A.Return)
    if stmt is not point and not exits and _binds([stmt], name):
        return True
    for i in range(k, 0, -1):
        child, parent = chain[i], chain[i - 1]
        if isinstance(parent, (A.For, A.While)) and not exits and _binds([parent], name):
            return True
        if _binds(_later(parent, child, exits), name):
            return True
    return False


def _later(parent, child, exits) -> list:
    """The statements of `parent` that may run after its direct child `child`."""
    if isinstance(parent, A.Try):
        parts = [parent.body, parent.handlers, parent.orelse, parent.finalbody]
        idx = next(i for i, items in enumerate(parts) if any(c is child for c in items))
        if exits or idx == 1:
            return parent.finalbody if idx < 3 else []
        after = parts[idx][[id(c) for c in parts[idx]].index(id(child)) + 1:]
        return after + [s for items in parts[idx + 1:] for s in items]
    for field in ("body", "orelse"):
        items = getattr(parent, field, None) or []
        ids = [id(c) for c in items]
        if id(child) in ids:
            return [] if exits else items[ids.index(id(child)) + 1:]
    return []


def _binds(nodes, name) -> bool:
    """Whether the statements (or except handlers) may assign `name`."""
    stmts = []
    for n in nodes:
        if isinstance(n, A.ExceptHandler):
            if n.name == name:
                return True
            stmts.extend(n.body)
        else:
            stmts.append(n)
    if name in assigned_names(stmts):
        return True
    return any(isinstance(n, A.NamedExpr) and isinstance(n.target, A.Name) and
               n.target.id == name for s in stmts for n in walk(s))


def _chain(root, target):
    """[root, ..., target]: the nodes from root down to target, or None if it is not below."""
    parents = {id(root): None}
    stack = [root]
    while stack:
        n = stack.pop()
        if n is target:
            out = [n]
            while parents[id(out[-1])] is not None:
                out.append(parents[id(out[-1])])
            return out[::-1]
        for c in children(n):
            parents[id(c)] = n
            stack.append(c)
    return None


def define_nested(em, s: A.FunctionDef):
    """`def inner(...)` inside a function: compile it now and bind the name to a closure."""
    if s.decorators:
        em.unsupported("decorators on nested functions are not supported", s.decorators[0].span)
    params = [a.arg for a in s.args]
    from ember.frontend.generators import is_generator_def, nested_generator
    if is_generator_def(s):
        return nested_generator(em, s)
    recursive = s.name in free_names(s, params)
    if recursive and s.returns is None:
        em.unsupported(f"nested function '{s.name}' calls itself: annotate its return type "
                       f"(def {s.name}(...) -> T:)", s.name_span or s.span)
        em.local_metas[s.name] = MNested(None, [])
        return
    once = em.binding_counts.get(s.name, 0) <= 1 and em.env.get(s.name) is None
    if once and not recursive and _assigned_later(em, s, params):
        # It reads a variable assigned after the def (Python's late binding): compiled at
        # its first call, where the variable has a value and a type.
        meta = MNested(None, [], len(em.comprehensions))
        meta.pending = (s, params)
        em.local_metas[s.name] = meta
        return
    _define_now(em, s, params, recursive)


def _assigned_later(em, s, params) -> bool:
    return any(n in em.local_names and _outer_var(em, n, None) is None and
               n not in em.local_metas and n not in em.boxed and not n.startswith("$")
               for n in free_names(s, params))


def _realize(em, meta) -> None:
    """Compile a nested def whose compilation waited for its first use."""
    s, params = meta.pending
    meta.pending = None
    saved = em.local_metas.get(s.name)
    _define_now(em, s, params, False)
    done = em.local_metas.get(s.name)
    if isinstance(done, MNested) and done is not saved:
        meta.info, meta.captures, meta.depth = done.info, done.captures, done.depth
    em.local_metas[s.name] = meta


def _define_now(em, s, params, recursive):
    em.transient_functions += 1  # captured nested defs: values only for typing here
    try:
        caps = captures_of(em, s, params + ([s.name] if recursive else []), s.span)
    finally:
        em.transient_functions -= 1
    info = FuncInfo(f"{em.info.name}.{s.name}", s, em.source, em.scope, owner=None)
    info.nested = True
    meta = MNested(info, [(n, t) for n, t, _ in caps], len(em.comprehensions))
    # Inside itself the name is the same nested function: its captures are its own
    # leading parameters, read by name at each recursive call.
    _compile(em, info, caps, None, {s.name: meta} if recursive else None)
    if em.binding_counts.get(s.name, 0) > 1 or em.env.get(s.name) is not None:
        # Bound more than once (a def in each branch, or reassigned): a function value.
        check_captures(em, meta.captures, s)
        em.write_var(s.name, _closure(em, info, caps, s), s.name_span or s.span)
        return
    em.local_metas[s.name] = meta


def call_nested(em, meta: MNested, node):
    """A direct call of a nested def: captures are passed first, defaults work."""
    from ember.frontend.userfuncs import call_user_function
    if meta.generator:
        from ember.frontend.generators import refuse_generator_value
        return refuse_generator_value(em, meta.info, node)
    if getattr(meta, "pending", None):
        _realize(em, meta)
    if meta.info is None:  # a nested def that failed to compile (already reported)
        from ember.frontend.function import Poison
        return Poison()
    return call_user_function(em, meta.info, node, _capture_values(em, meta, node))


def _capture_values(em, meta, node):
    """The captured variables' values at node, as the scope of the def sees them."""
    out = []
    for name, t in meta.captures:
        v = _read_outer(em, name, node.span, meta.depth)
        if v is None:
            nested = em.local_metas.get(name)
            if nested is None:
                v = em.error(f"the nested function uses '{name}', which is not assigned "
                             "here", node.span)
            else:
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
        if a.kind != "normal":
            return em.unsupported("lambda parameters must be plain names (*args, **kwargs "
                                  "and keyword-only parameters of a lambda are not "
                                  "supported)", a.span)
    defaults = [(a.arg, em.value(a.default)) for a in node.args if a.default is not None]
    if defaults:  # evaluated here, once, as Python does: the lambda keeps their values
        node = A.Lambda(node.span, [a for a in node.args if a.default is None], node.body)
    em.lambda_counter += 1
    name = f"lambda{em.lambda_counter}"
    meta = MLambda(node, None, name, em)
    meta.defaults = [(n, v.type, v) for n, v in defaults]
    meta.depth = len(em.comprehensions)
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


def lambda_instance(em, meta: MLambda, types, point, called=False):
    """The closure value of the lambda for these parameter types (compiled once per types),
    made at `point`; `called`: it is called right away, not kept as a value."""
    lam = meta.node
    params = [a.arg for a in lam.args]
    fixed = getattr(meta, "defaults", [])  # parameters with defaults: values made earlier
    caps = fixed + captures_of(em, lam, params + [n for n, _, _ in fixed], lam.span,
                               meta.depth)
    if not called:
        check_captures(em, [(n, t) for n, t, _ in caps], point)
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
    if len(args) > len(meta.node.args) and getattr(meta, "defaults", None):
        return em.unsupported("passing a value for a lambda parameter that has a default "
                              "is not supported (the default is always used)", node.span)
    if len(args) != len(meta.node.args):
        return em.error(f"the lambda takes {len(meta.node.args)} argument(s) but "
                        f"{len(args)} were given", node.span)
    if any(isinstance(a.type, ErrorType) for a in args):
        return args[0]
    fn = lambda_instance(em, meta, [a.type for a in args], node, called=True)
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
        if getattr(meta, "pending", None):
            _realize(em, meta)
        if meta.info is None:
            from ember.frontend.function import Poison
            return Poison()
        check_captures(em, meta.captures, node)
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
