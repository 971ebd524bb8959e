"""Generators — `yield` functions and generator expressions — compiled by inlining them
into the loop that consumes them.

`for t in g(a):  BODY` where g is a generator function becomes g's body, its parameters
bound to the arguments and its local variables renamed apart, with every `yield v`
replaced by `t = v; BODY`. The consumer's statements run exactly when CPython would run
them (between one resumption of the generator and the next), so side effects,
exceptions and early exits (break, return) interleave as in CPython: no element is
computed before it is asked for. A comprehension, list(), sum(), sorted(), dict(),
str.join, any() and all() over a generator are all such loops (any/all stop at the
deciding element). The control flow:

  - a `break` of BODY sets a hidden flag and leaves the innermost loop; after every loop
    of the generator that can yield, `if flag: break` carries the exit outward, and the
    generator's whole body runs inside a one-pass loop that the last break leaves;
  - a `continue` of BODY leaves a one-pass loop wrapped around BODY (so the generator
    resumes after its yield); a generator's `return` sets the flag and leaves like a break;
  - the consumer's `else:` runs unless BODY broke out.

What cannot be inlined is refused at compile time: a generator object kept in a
variable or passed around (ember has no suspended frames), a yield inside try or with
(the consumer's exceptions would reach the generator's handlers), recursive generators,
`x = yield v` (send), and generators defined in another module. A generator def nested
in a function is inlined the same way; its free names read the enclosing function's
variables where its body runs, as CPython's closure cells are read when it resumes.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass

from ember.frontend import ast as A
from ember.frontend.env import children, local_names, target_names
from ember.frontend.meta import MBuiltin, MFunction, MNested
from ember.ir import types as T

_counter = [0]


def _fresh() -> int:
    _counter[0] += 1
    return _counter[0]


# ----------------------------------------------------------------------------- detection


def _own_nodes(stmts):
    """Every node of stmts, not looking into nested defs, lambdas or classes."""
    stack = list(stmts)
    while stack:
        n = stack.pop()
        yield n
        if isinstance(n, (A.FunctionDef, A.Lambda, A.ClassDef)):
            continue
        stack.extend(children(n))


def is_generator_def(node) -> bool:
    """Whether a def is a generator function (a yield in its own body)."""
    if not isinstance(node, A.FunctionDef):
        return False
    hit = _IS_GEN.get(id(node))
    if hit is None or hit[0] is not node:
        hit = _IS_GEN[id(node)] = (node, any(isinstance(n, A.Yield)
                                             for n in _own_nodes(node.body)))
    return hit[1]


_IS_GEN: dict = {}


def generator_call(em, node):
    """The FuncInfo of the generator function node calls (a call `g(...)` of a
    module-level generator function), else None."""
    if not (isinstance(node, A.Call) and isinstance(node.func, A.Name)):
        return None
    local = getattr(em, "local_metas", {}).get(node.func.id)
    if isinstance(local, MNested) and local.generator:
        return local.info
    meta = em.global_meta(node.func.id)
    if isinstance(meta, MFunction) and meta.info.owner is None and \
            is_generator_def(meta.info.node):
        return meta.info
    return None


def generator_method_call(em, node):
    """The FuncInfo of the generator method `name.m(...)` calls, name a local variable
    holding an object (`self.items()`, `tree.walk()`), else None."""
    if not (isinstance(node, A.Call) and isinstance(node.func, A.Attribute) and
            isinstance(node.func.value, A.Name)):
        return None
    var = em.env.get(node.func.value.id)
    t = getattr(var, "type", None)
    if not isinstance(t, T.ClassType):
        return None
    info = em.c.class_by_decl.get(t.name)
    method = info.methods.get(node.func.attr) if info is not None else None
    if method is not None and not method.static and is_generator_def(method.node):
        return method
    return None


def dunder_iter_call(em, node):
    """`obj` (a local variable) whose class's __iter__ is a generator: the call
    `obj.__iter__()` a for loop makes, else None."""
    if not isinstance(node, A.Name):
        return None
    call = A.Call(node.span, A.Attribute(node.span, A.Name(node.span, node.id), "__iter__"),
                  [], [])
    return call if generator_method_call(em, call) is not None else None


def is_lazy_source(em, node) -> bool:
    """A generator expression or a call of a generator function or method."""
    return isinstance(node, A.GeneratorExp) or generator_call(em, node) is not None or \
        generator_method_call(em, node) is not None


def _enumerate_of_generator(em, node):
    if isinstance(node, A.Call) and isinstance(node.func, A.Name) and \
            node.func.id == "enumerate" and isinstance(em.global_meta("enumerate"), MBuiltin) \
            and node.args and (is_lazy_source(em, node.args[0]) or
                               dunder_iter_call(em, node.args[0]) is not None):
        return node
    return None


def zip_of_generator(em, node):
    """A zip(...) call with a generator argument, else None."""
    if isinstance(node, A.Call) and isinstance(node.func, A.Name) and node.func.id == "zip" \
            and isinstance(em.global_meta("zip"), MBuiltin) and \
            any(generator_call(em, a) is not None for a in node.args):
        return node
    return None


@dataclass(eq=False, slots=True)
class GenYield(A.Node):
    """Synthetic statement: the loop target takes a yielded value (of the generator's
    declared element type, when annotated)."""

    target: A.Node
    value: A.Node
    elem: A.Node | None
    gen: str


def s_GenYield(em, s):
    want = em.ann.resolve(s.elem) if s.elem is not None else None
    v = em.value(s.value, want)
    if want is not None:
        v = em.coerce(v, want, s.value.span, what=f"the value yielded by {s.gen}")
    em.assign(s.target, v, s.target.span)


# ----------------------------------------------------------------------------- renaming


def _rename(node, names: dict):
    """Rename, in place, every occurrence (binding or use) of the names in `names` below
    node, nested scopes included: a consistent renaming keeps the meaning."""
    stack = [node] if not isinstance(node, list) else list(node)
    while stack:
        n = stack.pop()
        if isinstance(n, A.Name) and n.id in names:
            n.id = names[n.id]
        elif isinstance(n, A.Arg) and n.arg in names:
            n.arg = names[n.arg]
        elif isinstance(n, A.FunctionDef) and n.name in names:
            n.name = names[n.name]
        elif isinstance(n, A.ExceptHandler) and n.name in names:
            n.name = names[n.name]
        stack.extend(children(n))


# ----------------------------------------------------------------------------- the rewrite


class _Inline:
    """One inlining of a generator into one consuming loop."""

    def __init__(self, em, s):
        self.em = em
        self.s = s
        self.k = _fresh()
        self.stop = f"$gstop{self.k}"
        self.brk = f"$gbrk{self.k}"
        self.body_breaks = _has_own_jump(s.body, A.Break)
        self.body_continues = _has_own_jump(s.body, A.Continue)
        self.elem_type = None  # the annotation node of the yielded values, if any
        self.gen_name = "the generator expression"
        self.yields = 0

    def name(self, id_):
        return A.Name(self.s.span, id_)

    def set_flag(self, flag, value: bool):
        return A.Assign(self.s.span, [self.name(flag)], A.Constant(self.s.span, value))

    # -- the consumer's body at one yield ------------------------------------------------------
    def consumer_body(self, value_node, span):
        """`t = value; BODY` (BODY's own break/continue rewritten), then the exit check."""
        tmp = f"$gv{self.k}_{self.yields}"
        self.yields += 1
        out = [GenYield(span, A.Name(span, tmp), value_node, self.elem_type, self.gen_name),
               A.Assign(span, [copy.deepcopy(self.s.target)], A.Name(span, tmp))]
        body = copy.deepcopy(self.s.body)
        body = self.rewrite_jumps(body)
        if self.body_continues:
            body = [A.For(span, A.Name(span, f"$gonce{self.k}"), _range1(span), body, [])]
        out.extend(body)
        if self.body_breaks:
            out.append(A.If(span, self.name(self.stop), [A.Break(span)], []))
        return out

    def rewrite_jumps(self, stmts):
        """BODY's own break -> set the flags and break; continue -> break (of the one-pass
        loop around BODY)."""
        out = []
        for st in stmts:
            if isinstance(st, A.Break):
                out.append(self.set_flag(self.stop, True))
                if self.s.orelse:
                    out.append(self.set_flag(self.brk, True))
                out.append(A.Break(st.span))
                continue
            if isinstance(st, A.Continue):
                out.append(A.Break(st.span))
                continue
            for f in ("body", "orelse", "finalbody"):
                if isinstance(st, (A.For, A.While)) and f == "body":
                    continue
                if getattr(st, f, None):
                    setattr(st, f, self.rewrite_jumps(getattr(st, f)))
            for h in getattr(st, "handlers", None) or []:
                h.body = self.rewrite_jumps(h.body)
            out.append(st)
        return out

    # -- the generator's body ------------------------------------------------------------------
    def generator_body(self, stmts):
        """stmts with each `yield` replaced by the consumer's body, each `return` by a flagged
        exit, and an exit check after each loop that can yield."""
        out = []
        for st in stmts:
            if isinstance(st, A.Expr) and isinstance(st.value, A.Yield):
                out.extend(self.yield_stmt(st.value))
                continue
            if isinstance(st, A.Return):
                if st.value is not None:
                    out.append(A.Expr(st.span, st.value))
                out.append(self.set_flag(self.stop, True))
                out.append(A.Break(st.span))
                continue
            if isinstance(st, (A.Try, A.With)) and _contains_yield([st]):
                self.em.unsupported("'yield' inside try or with is not supported (ember "
                                    "inlines the generator into its loop: the loop body's "
                                    "exceptions would reach these handlers)",
                                    _first_yield([st]).span)
                continue
            if isinstance(st, (A.If, A.For, A.While, A.Try)):
                st.body = self.generator_body(st.body)
                st.orelse = self.generator_body(st.orelse)
                if isinstance(st, A.Try):
                    st.finalbody = self.generator_body(st.finalbody)
                    for h in st.handlers:
                        h.body = self.generator_body(h.body)
            out.append(st)
            if isinstance(st, (A.For, A.While)):
                out.append(A.If(st.span, self.name(self.stop), [A.Break(st.span)], []))
        return out

    def yield_stmt(self, y):
        if y.is_from:
            k = _fresh()
            t = A.Name(y.span, f"$gfrom{k}")
            inner = self.consumer_body(A.Name(y.span, t.id), y.span)
            return [A.For(y.span, t, y.value, inner, []),
                    A.If(y.span, self.name(self.stop), [A.Break(y.span)], [])]
        value = y.value if y.value is not None else A.Constant(y.span, None)
        return self.consumer_body(value, y.span)

    def wrap(self, prelude, body):
        """The statements replacing the consuming loop."""
        sp = self.s.span
        out = list(prelude)
        out.append(self.set_flag(self.stop, False))
        if self.s.orelse:
            out.append(self.set_flag(self.brk, False))
        out.append(A.For(sp, A.Name(sp, f"$gpass{self.k}"), _range1(sp), body, []))
        if self.s.orelse:
            out.append(A.If(sp, A.UnaryOp(sp, "not", self.name(self.brk)),
                            list(self.s.orelse), []))
        return out


def _range1(span):
    return A.Call(span, A.Name(span, "range"), [A.Constant(span, 1)], [])


def _has_own_jump(stmts, kind) -> bool:
    for st in stmts:
        if isinstance(st, kind):
            return True
        if isinstance(st, (A.FunctionDef, A.ClassDef)):
            continue
        parts = [] if isinstance(st, (A.For, A.While)) else [getattr(st, "body", None) or []]
        parts += [getattr(st, "orelse", None) or [], getattr(st, "finalbody", None) or []]
        parts += [h.body for h in getattr(st, "handlers", None) or []]
        if isinstance(st, A.If):
            parts = [st.body, st.orelse]
        if any(_has_own_jump(p, kind) for p in parts):
            return True
    return False


def _contains_yield(stmts) -> bool:
    return _first_yield(stmts) is not None


def _first_yield(stmts):
    for n in _own_nodes(stmts):
        if isinstance(n, A.Yield):
            return n
    return None


# ----------------------------------------------------------------------------- sources


def _genexp_source(gen: A.GeneratorExp):
    """A generator expression as the body of a generator: nested fors and ifs around a
    `yield elt`. Its own variables are renamed apart (the first iterable is evaluated
    in the enclosing scope, so it keeps its names)."""
    k = _fresh()
    gen = copy.deepcopy(gen)
    names = {n: f"{n}$c{k}" for g in gen.generators for n in target_names(g.target)}
    first_iter = gen.generators[0].iter
    for i, g in enumerate(gen.generators):
        _rename(g.target, names)
        for c in g.ifs:
            _rename(c, names)
        if i > 0:
            _rename(g.iter, names)
    _rename(gen.elt, names)
    body = [A.Expr(gen.elt.span, A.Yield(gen.elt.span, gen.elt))]
    for i, g in reversed(list(enumerate(gen.generators))):
        for cond in reversed(g.ifs):
            body = [A.If(cond.span, cond, body, [])]
        body = [A.For(g.span, g.target, first_iter if i == 0 else g.iter, body, [])]
    return [], body


def _call_source(em, info, call, receiver=None):
    """A generator function's call: its parameters bound to the arguments (in the call's
    order, each converted to its annotation), its body renamed apart. None after an
    error (reported)."""
    fdef = info.node
    err = _refusal(em, info, fdef, call)
    if err:
        em.unsupported(err[0], err[1])
        return None
    k = _fresh()
    names = {n: f"{n}$g{k}" for n in local_names(fdef)}
    fdef = copy.deepcopy(fdef)
    _rename(fdef.body, names)
    from ember.frontend.env import binding_counts
    em.binding_counts.update(binding_counts(fdef.body))
    em.local_names |= set(names.values())
    params = [a for a in fdef.args]
    prelude = []
    if len(call.args) + (receiver is not None) > len(params):
        em.error(f"{fdef.name}() takes {len(params)} positional argument(s) but "
                 f"{len(call.args)} were given", call.span)
        return None
    args = list(call.args)
    if receiver is not None:  # a method: self is the object the call names
        args.insert(0, A.Name(receiver.span, receiver.id))
    pairs = list(zip(params, args))
    by_name = {p.arg: p for p in params}
    for kw in call.keywords:
        p = by_name.get(kw.arg)
        if p is None or kw.arg is None:
            em.error(f"{fdef.name}() got an unexpected keyword argument '{kw.arg}'", kw.span)
            return None
        if any(q is p for q, _ in pairs):
            em.error(f"{fdef.name}() got multiple values for argument '{kw.arg}'", kw.span)
            return None
        pairs.append((p, kw.value))
    for p in params:
        if not any(q is p for q, _ in pairs):
            if p.default is None:
                em.error(f"{fdef.name}() missing required argument '{p.arg}'", call.span)
                return None
            pairs.append((p, p.default))
    for p, value in pairs:
        target = A.Name(value.span, names[p.arg])
        if p.annotation is not None:
            prelude.append(A.AnnAssign(value.span, target, p.annotation, value))
        else:
            prelude.append(A.Assign(value.span, [target], value))
    return prelude, fdef.body


def _refusal(em, info, fdef, call):
    """Why this generator cannot be inlined here: (message, span), or None."""
    if not getattr(info, "nested", False) and (
            getattr(info.scope, "globals", info.scope) is not
            getattr(em.scope, "globals", em.scope) or getattr(info.scope, "cells", None)):
        return (f"generator '{fdef.name}' is defined in another module or as a closure; "
                "ember inlines generators into the loop that iterates them, so it must be a "
                "top-level def of the same module", call.span)
    if any(a.kind != "normal" for a in fdef.args):
        return (f"generator '{fdef.name}' has *args, **kwargs or keyword-only parameters, "
                "which generators do not support", call.span)
    if any(isinstance(a, A.Starred) for a in call.args) or \
            any(k.arg is None for k in call.keywords):
        return ("f(*xs) / f(**d) calls of a generator are not supported", call.span)
    rec = _recursive_call(em, fdef)
    if rec is not None:
        return (f"recursive generator '{fdef.name}' is not supported (ember inlines "
                "generators into their loops)", rec.span)
    for n in _own_nodes(fdef.body):
        if isinstance(n, (A.Global, A.Nonlocal)):
            return ("global/nonlocal in a generator is not supported", n.span)
        if isinstance(n, A.Yield) and not _is_statement_yield(fdef.body, n):
            return ("'yield' used as a value (send()) is not supported; write 'yield' as a "
                    "statement", n.span)
    clash = _free_names(fdef) & em.local_names
    if clash and not getattr(info, "nested", False):  # a nested one reads them: its cells
        name = sorted(clash)[0]
        return (f"generator '{fdef.name}' reads the global '{name}', which the loop's "
                "function shadows with a local variable; rename one of them", call.span)
    return None


def _generator_calls(em, fdef):
    """(call node, FuncInfo) of the generator calls in a def's own body."""
    locals_ = local_names(fdef)
    for n in _own_nodes(fdef.body):
        if isinstance(n, A.Call) and isinstance(n.func, A.Name) and n.func.id not in locals_:
            meta = em.scope.lookup(n.func.id)
            if isinstance(meta, MFunction) and is_generator_def(meta.info.node):
                yield n, meta.info


def _recursive_call(em, fdef):
    """The call in the generator's body through which it reaches itself, or None."""
    for call, info in _generator_calls(em, fdef):
        seen, stack = set(), [info.node]
        while stack:
            node = stack.pop()
            if node is fdef:
                return call
            if id(node) in seen:
                continue
            seen.add(id(node))
            stack.extend(i.node for _, i in _generator_calls(em, node))
    return None


def _is_statement_yield(stmts, y) -> bool:
    for n in _own_nodes(stmts):
        if isinstance(n, A.Expr) and n.value is y:
            return True
    return False


def _free_names(fdef) -> set[str]:
    locals_ = local_names(fdef)
    out = set()
    stack = list(fdef.body) + [a.default for a in fdef.args if a.default is not None]
    while stack:
        n = stack.pop()
        if isinstance(n, A.Name) and n.id not in locals_:
            out.add(n.id)
        stack.extend(children(n))
    return out


def _elem_annotation(em, fdef):
    """T of a generator's `-> Iterator[T]` / `Iterable[T]` / `Generator[T, ...]`, or None."""
    ret = fdef.returns
    if ret is None:
        return None
    if isinstance(ret, A.Subscript):
        head = em.ann._name_of(ret.value)
        if head in ("Iterator", "Iterable", "Generator"):
            args = ret.slice.elts if isinstance(ret.slice, A.Tuple) else [ret.slice]
            return args[0]
    em.error("a generator's return annotation must be Iterator[T], Iterable[T] or "
             "Generator[T, None, None]", ret.span)
    return None


# ----------------------------------------------------------------------------- entry points


def inline_for(em, s) -> bool:
    """Compile `for t in <generator>` by inlining; False when s.iter is not a generator."""
    it = s.iter
    via_iter = dunder_iter_call(em, it)
    if via_iter is not None:
        it = via_iter
    enum = _enumerate_of_generator(em, it)
    if enum is not None:
        return _inline_enumerate(em, s, enum)
    if zip_of_generator(em, it) is not None:
        em.unsupported("zip() over a generator is not supported (iterate the generator "
                       "in a for loop, or make a list of it first)", it.span)
        return True
    info = generator_call(em, it)
    receiver = None
    if info is None:
        info = generator_method_call(em, it)
        receiver = it.func.value if info is not None else None
    if info is None and not isinstance(it, A.GeneratorExp):
        return False
    job = _Inline(em, s)
    if info is not None:
        job.gen_name = f"'{info.node.name}'"
        if info.node.returns is not None:
            job.elem_type = _elem_annotation(em, info.node)
        src = _call_source(em, info, it, receiver)
        if src is None:
            return True
    else:
        src = _genexp_source(it)
    prelude, body = src
    for st in job.wrap(prelude, job.generator_body(body)):
        if em.terminated:
            break
        em.stmt(st)
    return True


def _inline_enumerate(em, s, call):
    """`for t in enumerate(gen, start)`: a counter beside the inlined generator."""
    if len(call.args) > 2 or call.keywords:
        em.error("enumerate() takes an iterable and an optional start", call.span)
        return True
    sp = call.span
    k = _fresh()
    count, item = A.Name(sp, f"$gnum{k}"), A.Name(sp, f"$gitem{k}")
    start = call.args[1] if len(call.args) == 2 else A.Constant(sp, 0)
    em.stmt(A.Assign(sp, [A.Name(sp, count.id)], start))
    body = [A.Assign(sp, [s.target], A.Tuple(sp, [A.Name(sp, count.id), A.Name(sp, item.id)])),
            A.AugAssign(sp, A.Name(sp, count.id), "+", A.Constant(sp, 1))] + list(s.body)
    loop = A.For(s.span, item, call.args[0], body, list(s.orelse), getattr(s, "kw_span", None))
    em.stmt(loop)
    return True


def check_generator_def(c, info) -> None:
    """A CompilationUnit's generator def (not an entry point: it is compiled where it is
    iterated): its return annotation, if any, must be an iterator type."""
    ret = info.node.returns
    if ret is None:
        return
    head = ret.value if isinstance(ret, A.Subscript) else ret
    name = head.id if isinstance(head, A.Name) else getattr(head, "attr", None)
    if name not in ("Iterator", "Iterable", "Generator"):
        from ember.errors import TypeCheckError
        c.report(TypeCheckError(
            f"'{info.node.name}' is a generator function (it has 'yield'): its return "
            "annotation must be Iterator[T], Iterable[T] or Generator[T, None, None]",
            ret.span))


def nested_generator(em, s) -> None:
    """`def gen(...): ... yield ...` inside a function: bound to its name, and inlined
    like a module-level generator wherever it is iterated. Its free names are the
    enclosing function's variables, read where the inlined body reads them — when the
    generator runs, as CPython's closure cells are."""
    from ember.frontend.compiler import FuncInfo
    if s.decorators:
        return em.unsupported("decorators on nested functions are not supported",
                              s.decorators[0].span)
    if em.binding_counts.get(s.name, 0) > 1 or em.env.get(s.name) is not None:
        return em.unsupported(f"nested generator '{s.name}' is bound more than once; "
                              "ember inlines a generator where it is iterated, so its name "
                              "must name one def", s.name_span or s.span)
    info = FuncInfo(f"{em.info.name}.{s.name}", s, em.source, em.scope, owner=None)
    info.nested = True
    meta = MNested(info, [], len(em.comprehensions))
    meta.generator = True
    em.local_metas[s.name] = meta


def refuse_generator_value(em, info, node):
    """A generator function called where its value would be kept."""
    return em.unsupported(
        f"'{info.node.name}' is a generator function: iterate its call where it is made (a "
        "for loop, a comprehension, list(), sum(), any(), ...); ember does not keep "
        "generator objects", node.span)


__all__ = ["inline_for", "is_generator_def", "generator_call", "is_lazy_source",
           "refuse_generator_value", "check_generator_def", "yield_refused", "lambda_yield",
           "GenYield", "s_GenYield"]


def lambda_yield(lam):
    """The first yield of a lambda's own body, or None."""
    for n in _own_nodes([lam.body]):
        if isinstance(n, A.Yield):
            return n
    return None


def yield_refused(em, y):
    """The error for a yield that reaches the emitter (it was not inlined)."""
    from ember.frontend.env import walk
    root = getattr(em, "node", None)
    for n in walk(root) if root is not None else ():
        if isinstance(n, A.Lambda) and any(m is y for m in walk(n.body)):
            return em.unsupported("'yield' in a lambda is not supported (a generator "
                                  "lambda); write a generator def", y.span)
    name = getattr(root, "name", "?")
    return em.unsupported(
        f"generator function '{name}' cannot be compiled on its own (as an entry point or "
        "a value): ember compiles a generator inlined into the for loop, comprehension or "
        "list()/sum()/any()/... call that iterates it", y.span)
