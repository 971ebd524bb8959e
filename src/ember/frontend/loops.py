"""Loops: while, for (over ranges, lists, strings, dicts, tuples, enumerate, zip,
reversed), break/continue/else, and comprehensions.

Variables assigned in a loop body that exist before the loop are carried
(block arguments + yields); variables first assigned in the body are local
to an iteration. `for x in xs` over a list is a `while` loop with a hidden
index that re-reads len(xs) each step, like CPython's list iterator.
"""

from __future__ import annotations

from dataclasses import dataclass

from ember.frontend import ast as A
from ember.frontend.env import Var, ir_names, names_read, slot_value
from ember.frontend.meta import MBuiltin
from ember.frontend.typing_ import ErrorType, show
from ember.ir import Block, Region, Value
from ember.ir import types as T


@dataclass
class LoopCtx:
    op_names: list
    types: list
    kind: str = "loop"
    seen: dict | None = None
    """kind "probe": name -> type of each variable at a break/continue."""
    what: str = ""
    """kind "unrolled": what is unrolled, for messages."""


class _Seq:
    """An iterable evaluated once: whether index i is in range, and its i-th item."""

    def __init__(self, kind, value, elem, loc):
        self.kind, self.value, self.elem, self.loc = kind, value, elem, loc

    def length(self, em):
        name = {"list": "list.len", "str": "str.len"}[self.kind]
        return em.b.kernel(name, [self.value], T.I64, self.loc)

    def cond(self, em, i):
        return em.b.kernel("int.lt", [i, self.length(em)], T.BOOL, self.loc)

    def item(self, em, i):
        name = {"list": "list.getitem", "str": "str.getitem"}[self.kind]
        return em.b.kernel(name, [self.value, i], self.elem, self.loc)


class _TensorSeq(_Seq):
    """A tensor's slices along dim 0 (views, as torch's iteration gives), as many as it
    has when the loop starts; a 0-d tensor raises TypeError, as in torch."""

    def __init__(self, em, x, loc):
        t = x.type
        elem = T.TensorType(t.dtype, None if t.shape is None else tuple(t.shape[1:]))
        super().__init__("tensor", x, elem, loc)
        self.n = em.b.kernel("tensor.iter_len", [x], T.I64, loc)

    def length(self, em):
        return self.n

    def item(self, em, i):
        zero = em.b.const(0, T.I64, self.loc)
        return em.b.kernel("tensor.select", [self.value, zero, i], self.elem, self.loc)


class _DictSeq(_Seq):
    """A dict's keys, values or items, listed when the loop starts. Each step first checks
    that the dict still has as many entries, as CPython's dict iterators do."""

    def __init__(self, em, d, what, loc):
        kt, vt = d.type.key, d.type.value
        elem = {"keys": kt, "values": vt, "items": T.TupleType((kt, vt))}[what]
        super().__init__("list", em.b.kernel(f"dict.{what}", [d], T.ListType(elem), loc),
                         elem, loc)
        self.dict = d
        self.n = em.b.kernel("dict.len", [d], T.I64, loc)

    def cond(self, em, i):
        return em.b.kernel("dict.iter_ok", [self.dict, self.n, i], T.BOOL, self.loc)


class _Range:
    """range(start, stop, step) inside zip/enumerate: its length is computed once, item i
    is start + i * step (exact: it lies in the range)."""

    def __init__(self, em, bounds, loc):
        self.bounds, self.loc = bounds, loc
        self.n = em.b.kernel("builtins.range_len", bounds, T.I64, loc)

    def length(self, em):
        return self.n

    def cond(self, em, i):
        return em.b.kernel("int.lt", [i, self.n], T.BOOL, self.loc)

    def item(self, em, i):
        start, _, step = self.bounds
        return em.b.kernel("builtins.range_item", [start, step, i], T.I64, self.loc)


class _Reversed:
    """reversed(list or str) inside zip/enumerate: item i is seq[n - 1 - i], n the length
    when it starts; it stops early if the list got shorter (Python's reverse iterator)."""

    def __init__(self, em, seq, loc):
        self.seq, self.loc = seq, loc
        self.last = em.b.kernel("int.sub", [seq.length(em), em.b.const(1, T.I64, loc)],
                                T.I64, loc)

    def index(self, em, i):
        return em.b.kernel("int.sub", [self.last, i], T.I64, self.loc)

    def cond(self, em, i):
        j = self.index(em, i)
        ok = em.b.kernel("int.ge", [j, em.b.const(0, T.I64, self.loc)], T.BOOL, self.loc)
        return em.b.kernel("bool.and", [ok, self.seq.cond(em, j)], T.BOOL, self.loc)

    def item(self, em, i):
        return self.seq.item(em, self.index(em, i))


class _Zip:
    """zip(a, b, ...): in range while every part is; items are tuples."""

    def __init__(self, parts, loc):
        self.parts, self.loc = parts, loc

    def cond(self, em, i):
        c = self.parts[0].cond(em, i)
        for p in self.parts[1:]:
            c = em.b.kernel("bool.and", [c, p.cond(em, i)], T.BOOL, self.loc)
        return c

    def item(self, em, i):
        return em.make_tuple([p.item(em, i) for p in self.parts])


class _Enumerate:
    """enumerate(seq, start): items are (start + i, seq[i])."""

    def __init__(self, seq, start, loc):
        self.seq, self.start, self.loc = seq, start, loc

    def cond(self, em, i):
        return self.seq.cond(em, i)

    def item(self, em, i):
        k = i if self.start is None else em.b.kernel("int.add", [i, self.start], T.I64,
                                                     self.loc)
        return em.make_tuple([k, self.seq.item(em, i)])


def _finally_assigned_with_jumps(stmts) -> list[str]:
    """Names assigned in the finally clause of a try (in stmts, at any depth) whose body or
    handlers contain a break or continue."""
    from ember.frontend.env import assigned_names
    out: list[str] = []
    stack = list(stmts)
    while stack:
        s = stack.pop()
        if isinstance(s, (A.FunctionDef, A.ClassDef)):
            continue
        if isinstance(s, A.Try) and s.finalbody and _has_jump(
                s.body + s.orelse + [x for h in s.handlers for x in h.body]):
            out.extend(n for n in assigned_names(s.finalbody) if n not in out)
        for field in ("body", "orelse", "finalbody"):
            stack.extend(getattr(s, field, None) or [])
        for h in getattr(s, "handlers", None) or []:
            stack.extend(h.body)
    return out


def _has_jump(stmts) -> bool:
    stack = list(stmts)
    while stack:
        s = stack.pop()
        if isinstance(s, (A.Break, A.Continue)):
            return True
        if isinstance(s, (A.FunctionDef, A.ClassDef)):
            continue
        for field in ("body", "orelse", "finalbody"):
            stack.extend(getattr(s, field, None) or [])
        for h in getattr(s, "handlers", None) or []:
            stack.extend(h.body)
    return False


def _has_walrus(test) -> bool:
    """A `:=` in a loop test that binds a variable of the function (not of a lambda)."""
    stack = [test]
    while stack:
        n = stack.pop()
        if isinstance(n, A.NamedExpr):
            return True
        if not isinstance(n, A.Lambda):
            stack.extend(A.children(n))
    return False


def _runs_forever(test, body) -> bool:
    """`while True:` with no `break` of its own: the code after it is unreachable."""
    if not (isinstance(test, A.Constant) and test.value is True):
        return False
    stack = list(body)
    while stack:
        s = stack.pop()
        if isinstance(s, A.Break):
            return False
        if isinstance(s, (A.For, A.While, A.FunctionDef, A.ClassDef)):
            continue
        for field in ("body", "orelse", "finalbody"):
            stack.extend(getattr(s, field, None) or [])
        for h in getattr(s, "handlers", None) or []:
            stack.extend(h.body)
    return True


class LoopMixin:
    # -- while ------------------------------------------------------------------------------------
    def s_While(self, s):
        if _has_walrus(s.test):
            s = self.walrus_while(s)
        self.emit_while(s.test, lambda: self.emit_body(s.body), s.body, s.orelse, s)

    def walrus_while(self, s):
        """`while (k := e) > 0: body` as `while True: if not ((k := e) > 0): [else]; break`
        then body: the names the test binds are the body's (and after the loop the last
        value tested), as in Python. An else clause runs where the test fails."""
        if any(isinstance(n, (A.Break, A.Continue)) for st in s.orelse for n in A.walk(st)):
            self.unsupported("a walrus (:=) in a while test with an else clause that breaks "
                             "or continues an outer loop is not supported", s.test.span)
        sp = s.test.span
        stop = A.If(sp, A.UnaryOp(sp, "not", s.test), list(s.orelse) + [A.Break(sp)], [])
        return A.While(s.span, A.Constant(sp, True), [stop] + list(s.body), [],
                       getattr(s, "kw_span", None))

    def emit_while(self, test, body_fn, body_stmts, orelse, node, extra=()):
        """A while op; `test` is an AST test or a callable returning a Cond."""
        self.forget_narrowed()
        loc = self.loc(node.kw_span if getattr(node, "kw_span", None) else node)
        self.type_none_vars(self.assigned(body_stmts), self.probe_loop_body(body_fn))
        self.slots_for_escaping(body_stmts + list(orelse or []),
                                self.probe_loop_body(body_fn), node)
        slotted = self.slots_for_finally(body_stmts, node)
        # The else clause's assignments are carried too: it yields the loop's results.
        assigned = self.assigned(body_stmts) + self.assigned(orelse or [])
        names, types, inits = self.carried(assigned + list(extra), node)
        regions = [Region(Block(types, ir_names(names))) for _ in range(3 if orelse else 2)]
        before = self.env
        self.env = self.bind_carried(before, names, regions[0].block.args)
        with self.at(regions[0].block):
            cond = test() if callable(test) else self.condition(test)
            self.b.create("condition", [cond.value], loc=loc)
        self.env = self.bind_carried(before, names, regions[1].block.args)
        with self.at(regions[1].block):
            self.apply_facts(cond.true)
            self.run_loop_body(body_fn, regions[1].block, names, types, loc)
        if orelse:
            self.emit_loop_else(before, names, types, regions[2], orelse, loc)
        op = self.b.create("while", inits, types, regions=regions, loc=loc,
                           names=ir_names(names))
        self.after_loop(before, names, op.results, body_stmts)
        self.unslot(slotted)
        if _runs_forever(test, body_stmts) and not orelse:
            self.b.create("unreachable", [], loc=loc)
            self.terminated = True

    def probe_loop_body(self, body_fn):
        def emit():
            ctx = LoopCtx([], [], "probe", {})
            self.loops.append(ctx)
            body_fn()
            return ctx.seen
        return emit

    def type_none_vars(self, assigned, emit) -> None:
        """`best = None` before a loop that assigns `best = x`: the variable is
        Optional[type of x] (found by a muted probe emission of the body), not None."""
        if self.probing:
            return
        names = [n for n in assigned if (v := self.env.get(n)) is not None and v.defined and
                 v.type == T.NONE and not v.declared and v.slot is None]
        if not names:
            return
        from ember.frontend.function import erase_tensor_info
        found = self.probe(emit, names)
        for name in names:
            t = found.get(name)
            if t is None or t == T.NONE or isinstance(t, ErrorType):
                continue
            var = self.env.mut(name)
            var.type = erase_tensor_info(T.make_union([t, T.NONE]))

    def slots_for_escaping(self, stmts, emit, node) -> None:
        """Python keeps the variables a loop binds after it: those first assigned in the loop
        and read after it live in a function-wide slot with a bool slot saying whether they
        were assigned (a read checks it: UnboundLocalError when the loop never ran)."""
        forced = self.read_after_loop  # hidden names the caller reads after the loop
        if self.probing or not (self.following or forced):
            return
        later = set(forced)
        for rest in self.following:
            for st in rest:
                later |= names_read(st)
        own = {n for st in self.comprehensions for n in st.names}  # never kept (Python 3)
        names = [n for n in self.assigned(stmts) if n in later and n not in own and
                 (not n.startswith("$") or n in forced)
                 and n not in self.boxed
                 and ((v := self.env.get(n)) is None or
                      (not v.defined and v.slot is None and v.type is None))]
        if not names:
            return
        from ember.frontend.function import erase_tensor_info
        from ember.ir.ops import ConstOp, VarNewOp
        found = self.probe(emit, names)
        entry = self.info.func.body
        for name in names:
            t = found.get(name)
            if t is None or isinstance(t, ErrorType):
                continue
            t = erase_tensor_info(t)
            loc = self.loc(node)
            false = ConstOp((), [T.BOOL], {"value": False}, (), loc, [None])
            flag = VarNewOp([false.result], [T.VarType(T.BOOL)], None, (), loc, [None])
            slot = VarNewOp([], [T.VarType(t)], None, (), loc, ir_names([name]))
            for i, op in enumerate((false, flag, slot)):
                entry.insert(i, op)
            var = Var(t, None, False, slot=slot.result, span=node.span, bound=flag.result)
            self.env.set(name, var)
            self.escaped[name] = var

    def slots_for_finally(self, body, node):
        """A break/continue inside `try: ... finally: x += 1` must carry x as the finally
        leaves it, not as it was at the jump: such variables live in a slot (var.new before
        the loop) instead of being carried values."""
        names = _finally_assigned_with_jumps(body)
        defined = [n for n in names if (v := self.env.get(n)) is not None and v.defined]
        return self.promote_to_slots(defined, node) if defined else []

    def carried(self, assigned, node):
        """(names, types, init values) of the variables a loop carries."""
        names, types, inits = [], [], []
        for name in assigned:
            var = self.env.get(name)
            if var is None or not var.defined or var.slot is not None or var.value is None:
                continue
            if name in names:
                continue
            names.append(name)
            types.append(var.type)
            inits.append(self.coerce(var.value, var.type, None))
        return names, types, inits

    def bind_carried(self, before, names, args):
        env = before.copy()
        for name, arg in zip(names, args):
            var = env.mut(name)
            var.value, var.defined = arg, True
        return env

    def run_loop_body(self, body_fn, block, names, types, loc):
        self.loops.append(LoopCtx(names, types))
        body_fn()
        self.loops.pop()
        self.materialize_slots(block)
        if not self.terminated:
            self.b.yield_(self.carried_values(names, types), loc)

    def carried_values(self, names, types):
        out = []
        for name, t in zip(names, types):
            var = self.env.get(name)
            if var.slot is not None:
                v = self.b.create("var.get", [slot_value(var.slot)], [var.type]).result
            else:
                v = var.value
            if v is None:  # unassigned after an error on its path
                from ember.frontend.function import Poison
                v = Poison()
            out.append(self.coerce(v, t, None) if v.type != t else v)
        return out

    def emit_loop_else(self, before, names, types, region, orelse, loc):
        self.env = self.bind_carried(before, names, region.block.args)
        with self.at(region.block):
            self.emit_body(orelse)
            self.materialize_slots(region.block)
            if not self.terminated:
                self.b.yield_(self.carried_values(names, types), loc)

    def after_loop(self, before, names, results, body_stmts):
        """Carried variables take the loop's results; variables first assigned in the body
        stay local to it (reading one after the loop is a 'may be undefined' error)."""
        self.env = before
        for name, r in zip(names, results):
            var = self.env.mut(name)
            var.value, var.defined = r, True
        for name in self.assigned(body_stmts):
            if self.env.get(name) is None and not name.startswith("$"):
                self.env.set(name, Var(None, None, False, why=(
                    "it is first assigned inside the loop above, and ember keeps such "
                    "variables local to the loop: assign it before the loop to use it "
                    "after")))

    def s_Break(self, s):
        self.loop_exit("break", s)

    def s_Continue(self, s):
        self.loop_exit("continue", s)

    def loop_exit(self, kind, s):
        if not self.loops:
            self.error(f"'{kind}' outside a loop", s.span)
            return
        ctx = self.loops[-1]
        if ctx.kind == "probe":
            for name, var in self.env.vars.items():
                if var.defined and var.value is not None and \
                        (not name.startswith("$") or name in self.read_after_loop):
                    t = var.value.type
                    ctx.seen[name] = (T.join(ctx.seen[name], t) or t) if name in ctx.seen \
                        else t
        if ctx.kind == "unrolled":
            self.unsupported(f"'{kind}' inside {ctx.what} is not supported", s.span)
            return
        self.b.create(kind, self.carried_values(ctx.op_names, ctx.types), loc=self.loc(s))
        self.terminated = True

    # -- for --------------------------------------------------------------------------------------
    def s_For(self, s):
        it = s.iter
        from ember.frontend.generators import inline_for
        if inline_for(self, s):
            return
        from ember.frontend.module_exprs import static_sequence
        seq = static_sequence(self, it)
        if seq is not None:
            return self.for_unrolled(s, seq, "a loop over modules (unrolled at compile time)")
        if isinstance(it, A.Call) and isinstance(it.func, A.Name):
            fname = it.func.id
            meta = self.global_meta(fname)
            if isinstance(meta, MBuiltin):
                if fname == "range":
                    return self.for_range(s, it)
                if fname == "enumerate":
                    return self.for_enumerate(s, it)
                if fname == "zip":
                    return self.for_zip(s, it)
                if fname == "reversed":
                    return self.for_reversed(s, it)
        view = self.dict_view(it)
        if view is not None:
            return self.for_sequences(s, view)
        v = self.value(it)
        self.for_value(s, v, it)

    def for_value(self, s, v, it):
        t = v.type
        if isinstance(t, ErrorType):
            return
        if isinstance(t, T.ListType):
            return self.for_sequences(s, _Seq("list", v, t.elem, self.loc(it)))
        if t == T.STR:
            return self.for_sequences(s, _Seq("str", v, T.STR, self.loc(it)))
        if isinstance(t, T.DictType):
            return self.for_sequences(s, _DictSeq(self, v, "keys", self.loc(it)))
        if isinstance(t, T.SetType):
            from ember.frontend.sets import SetSeq
            return self.for_sequences(s, SetSeq(self, v, self.loc(it)))
        if isinstance(t, T.IterType):
            from ember.frontend.iterators import IterSeq
            return self.for_sequences(s, IterSeq(self, v, self.loc(it)))
        if isinstance(t, T.TupleType):
            return self.for_tuple(s, v, it)
        from ember.frontend.module_exprs import container_info, items
        if container_info(self, t) is not None:
            return self.for_unrolled(s, [x for _, x in items(self, v, it)],
                                     "a loop over modules (unrolled at compile time)")
        if isinstance(t, T.TensorType):
            return self.for_sequences(s, _TensorSeq(self, v, self.loc(it)))
        if isinstance(t, T.ClassType) and self.class_defines(t, "__iter__"):
            return self.for_protocol(s, v, it)
        self.error(f"cannot iterate over {show(t)}", it.span)

    def for_protocol(self, s, v, it):
        """`for x in obj` of a class with __iter__ (returning an object with __next__), as
        Python runs it: it = obj.__iter__(), then x = it.__next__() until it raises
        StopIteration (the else clause runs then, not after a break)."""
        from ember.frontend.builtins_ import hidden_name
        from ember.frontend.env import Var
        sp = it.span
        obj, iterator, item, done = (hidden_name(k) for k in ("obj", "it", "item", "done"))
        self.env.set(obj, Var(v.type, v, True))

        def name(n):
            return A.Name(sp, n)

        def assign(n, value):
            return A.Assign(sp, [name(n)], value)

        get_next = A.Try(sp, [assign(item, A.Call(sp, A.Attribute(sp, name(iterator),
                                                                    "__next__"), [], []))],
                         [A.ExceptHandler(sp, name("StopIteration"), None,
                                          [assign(done, A.Constant(sp, True)),
                                           A.Break(sp)])], [], [])
        loop = A.While(sp, A.Constant(sp, True),
                       [get_next, A.Assign(sp, [s.target], name(item))] + list(s.body), [],
                       kw_span=getattr(s, "kw_span", None))
        self.stmt(assign(iterator, A.Call(sp, A.Attribute(sp, name(obj), "__iter__"), [], [])))
        self.stmt(assign(done, A.Constant(sp, False)))
        self.stmt(loop)
        if s.orelse:
            self.stmt(A.If(sp, name(done), list(s.orelse), []))

    def range_args(self, call):
        if call.keywords or not 1 <= len(call.args) <= 3:
            self.error("range() takes 1 to 3 positional arguments", call.span)
            return None
        vals = [self.to_int(self.value(a), a) for a in call.args]
        loc = self.loc(call)
        if len(vals) == 1:
            vals = [self.b.const(0, T.I64, loc), vals[0]]
        if len(vals) == 2:
            vals.append(self.b.const(1, T.I64, loc))
        return vals

    def for_range(self, s, call):
        bounds = self.range_args(call)
        if bounds is None:
            return
        self.emit_for(s, bounds, lambda iv: self.assign(s.target, iv, s.target.span))

    def emit_for(self, s, bounds, bind_target, extra=()):
        self.forget_narrowed()
        loc = self.loc(s.kw_span if getattr(s, "kw_span", None) else s)
        def probe_body():
            bind_target(Block([T.I64], ["i"]).args[0])
            self.emit_body(s.body)

        self.type_none_vars(self.assigned([s]), self.probe_loop_body(probe_body))
        self.slots_for_escaping([s], self.probe_loop_body(probe_body), s)
        slotted = self.slots_for_finally(s.body, s)
        names, types, inits = self.carried(self.assigned([s]) + list(extra), s)
        body = Block([T.I64] + types, ["i"] + ir_names(names))
        regions = [Region(body)]
        if s.orelse:
            regions.append(Region(Block(types, ir_names(names))))
        before = self.env
        self.env = self.bind_carried(before, names, body.args[1:])
        with self.at(body):
            def run():
                bind_target(body.args[0])
                self.emit_body(s.body)
            self.run_loop_body(run, body, names, types, loc)
        if s.orelse:
            self.emit_loop_else(before, names, types, regions[1], s.orelse, loc)
        op = self.b.create("for", bounds + inits, types, regions=regions, loc=loc,
                           names=ir_names(names))
        self.after_loop(before, names, op.results, [s])
        self.unslot(slotted)

    def for_sequences(self, s, seq):
        """`for target in seq`: a while loop over a hidden index (Python's iterator rules)."""
        loc = self.loc(s.kw_span if getattr(s, "kw_span", None) else s)
        idx_name = f"$i{id(s)}"
        self.env.set(idx_name, Var(T.I64, self.b.const(0, T.I64, loc), True))

        def test():
            from ember.frontend.refine import Cond
            return Cond(seq.cond(self, self.env.get(idx_name).value))

        def body():
            i = self.env.get(idx_name).value
            item = seq.item(self, i)
            one = self.b.const(1, T.I64, loc)
            self.env.mut(idx_name).value = self.b.kernel("int.add", [i, one], T.I64, loc)
            self.assign(s.target, item, s.target.span)
            self.emit_body(s.body)

        self.emit_while(test, body, [s], s.orelse, s, extra=[idx_name])
        self.env.pop(idx_name)

    def make_tuple(self, items):
        return self.b.create("tuple.new", items, [T.TupleType(tuple(v.type for v in items))]
                             ).result

    def dict_view(self, node):
        """`d.keys()`, `d.values()`, `d.items()` of a dict as a loop sequence, else None
        (nothing emitted)."""
        if not (isinstance(node, A.Call) and isinstance(node.func, A.Attribute) and
                node.func.attr in ("keys", "values", "items") and not node.args and
                not node.keywords):
            return None
        base = node.func.value
        if isinstance(base, A.Name) and isinstance(getattr(self.env.get(base.id), "type", None),
                                                   T.DictType):
            d = self.value(base)
            if isinstance(d.type, T.DictType):
                return _DictSeq(self, d, node.func.attr, self.loc(node))
        return None

    def lazy_zip(self, parts, node):
        """A for loop over zip(a, it, ...) with an iterator after the first argument: the
        zip is CPython's lazy one (which stops at the first exhausted argument without
        advancing those after it), iterated as an iterator value."""
        from ember.frontend.iterators import IterSeq

        vals = [p.it if p.kind == "iter" else p.value for p in parts]
        elem = T.TupleType(tuple(p.elem for p in parts))
        z = self.b.kernel(f"iter.zip{len(vals)}", vals, T.IterType(elem), self.loc(node))
        return IterSeq(self, z, self.loc(node))

    def sequence_of(self, node):
        view = self.dict_view(node)
        if view is not None:
            return view
        if isinstance(node, A.Call) and isinstance(node.func, A.Name) and \
                isinstance(self.global_meta(node.func.id), MBuiltin):
            if node.func.id == "range":
                bounds = self.range_args(node)
                return None if bounds is None else _Range(self, bounds, self.loc(node))
            if node.func.id == "reversed":
                return self.reversed_sequence(node)
            if node.func.id == "zip":
                if node.keywords:
                    self.unsupported("zip() keyword arguments (strict=...) are not supported",
                                     node.span)
                    return None
                parts = [self.sequence_of(a) for a in node.args]
                if any(getattr(p, "kind", None) == "iter" for p in parts[1:]) and \
                        1 <= len(parts) <= 4 and not node.keywords and \
                        all(getattr(p, "kind", None) in ("iter", "list", "str") for p in parts):
                    return self.lazy_zip(parts, node)  # CPython's zip, step by step
                if any(getattr(p, "kind", None) == "iter" for p in parts[1:]):
                    self.unsupported("zip() in a for loop with an iterator after its first "
                                     "argument is not supported (CPython would not advance "
                                     "it past a shorter argument before it): assign the "
                                     "zip(...) to a variable and loop over that",
                                     node.span)
                    return None
                if not parts or None in parts:
                    if not parts:
                        self.error("zip() needs at least one iterable", node.span)
                    return None
                return _Zip(parts, self.loc(node))
            if node.func.id == "enumerate":
                kw = {k.arg: k.value for k in node.keywords}
                if not node.args or len(node.args) + len(kw) > 2 or set(kw) - {"start"}:
                    self.error("enumerate() takes an iterable and an optional start", node.span)
                    return None
                inner = self.sequence_of(node.args[0])
                start_node = node.args[1] if len(node.args) == 2 else kw.get("start")
                start = self.to_int(self.value(start_node), start_node) \
                    if start_node is not None else None
                return None if inner is None else _Enumerate(inner, start, self.loc(node))
        v = self.value(node)
        t = v.type
        loc = self.loc(node)
        if isinstance(t, T.ListType):
            return _Seq("list", v, t.elem, loc)
        if t == T.STR:
            return _Seq("str", v, T.STR, loc)
        if isinstance(t, T.DictType):
            return _DictSeq(self, v, "keys", loc)
        if isinstance(t, T.SetType):
            from ember.frontend.sets import SetSeq
            return SetSeq(self, v, loc)
        if isinstance(t, T.IterType):
            from ember.frontend.iterators import IterSeq
            return IterSeq(self, v, loc)
        if isinstance(t, T.TensorType):
            return _TensorSeq(self, v, loc)
        if isinstance(t, T.TupleType) and t.elems and all(e == t.elems[0] for e in t.elems):
            lst = self.b.create("list.new", [self.b.create("tuple.get", [v], [e], {"index": k},
                                                           loc=loc).result
                                             for k, e in enumerate(t.elems)],
                                [T.ListType(t.elems[0])], loc=loc).result
            return _Seq("list", lst, t.elems[0], loc)
        if not isinstance(t, ErrorType):
            self.error(f"cannot iterate over {show(t)} here", node.span)
        return None

    def reversed_sequence(self, call):
        if len(call.args) != 1 or call.keywords:
            self.error("reversed() takes one argument", call.span)
            return None
        arg = call.args[0]
        loc = self.loc(call)
        if isinstance(arg, A.Call) and isinstance(arg.func, A.Name) and arg.func.id == "range" \
                and isinstance(self.global_meta("range"), MBuiltin):
            bounds = self.range_args(arg)
            if bounds is None:
                return None
            rev = self.b.kernel("builtins.range_reversed", bounds, T.TupleType((T.I64,) * 3),
                                loc)
            return _Range(self, [self.b.create("tuple.get", [rev], [T.I64], {"index": k},
                                               loc=loc).result for k in range(3)], loc)
        seq = self.sequence_of(arg)
        if seq is None:
            return None
        if getattr(seq, "kind", None) == "iter" or type(seq).__name__ == "SetSeq":
            self.error(f"'{'set' if seq.kind != 'iter' else 'iterator'}' object is not "
                       "reversible", arg.span)
            return None
        if not isinstance(seq, (_Seq, _Range)):
            self.unsupported("reversed() of zip()/enumerate() is not supported (Python "
                             "cannot reverse them either)", arg.span)
            return None
        return _Reversed(self, seq, loc)

    def for_enumerate(self, s, call):
        seq = self.sequence_of(call)
        if seq is not None:
            self.for_sequences(s, seq)

    for_zip = for_enumerate

    def for_reversed(self, s, call):
        if len(call.args) != 1:
            self.error("reversed() takes one argument", call.span)
            return
        arg = call.args[0]
        if isinstance(arg, A.Call) and isinstance(arg.func, A.Name) and arg.func.id == "range" \
                and isinstance(self.global_meta("range"), MBuiltin):
            return self.for_reversed_range(s, arg)
        seq = self.sequence_of(arg)
        if seq is None:
            return
        if getattr(seq, "kind", None) == "iter" or type(seq).__name__ == "SetSeq":
            self.error(f"'{'set' if seq.kind != 'iter' else 'iterator'}' object is not "
                       "reversible", arg.span)
            return
        if not isinstance(seq, _Seq):
            self.unsupported("reversed() of zip()/enumerate() is not supported", arg.span)
            return
        loc = self.loc(call)
        n = seq.length(self)
        one = self.b.const(1, T.I64, loc)
        last = self.b.kernel("int.sub", [n, one], T.I64, loc)
        minus1 = self.b.const(-1, T.I64, loc)
        self.emit_for(s, [last, minus1, minus1],
                      lambda iv: self.assign(s.target, seq.item(self, iv), s.target.span))

    def for_reversed_range(self, s, call):
        bounds = self.range_args(call)
        if bounds is None:
            return
        loc = self.loc(call)
        rev = self.b.kernel("builtins.range_reversed", bounds, T.TupleType((T.I64,) * 3), loc)
        parts = [self.b.create("tuple.get", [rev], [T.I64], {"index": k}, loc=loc).result
                 for k in range(3)]
        self.emit_for(s, parts, lambda iv: self.assign(s.target, iv, s.target.span))

    def for_tuple(self, s, v, it):
        t = v.type
        if t.elems and all(e == t.elems[0] for e in t.elems):
            loc = self.loc(it)
            lst = self.b.create("list.new", [self.b.create("tuple.get", [v], [e], {"index": k},
                                                           loc=loc).result
                                             for k, e in enumerate(t.elems)],
                                [T.ListType(t.elems[0])], loc=loc).result
            return self.for_sequences(s, _Seq("list", lst, t.elems[0], loc))
        loc = self.loc(it)
        values = [self.b.create("tuple.get", [v], [e], {"index": k}, loc=loc).result
                  for k, e in enumerate(t.elems)]
        self.for_unrolled(s, values, "a loop over a tuple of mixed types")

    def for_unrolled(self, s, values, what):
        """The body once per value (each may have its own type): tuples of mixed types and
        module containers. The target is rebound each time; break/continue are refused."""
        if s.orelse:
            return self.unsupported(f"for/else in {what} is not supported", s.span)
        self.loops.append(LoopCtx([], [], "unrolled", what=what))
        for item in values:
            if self.terminated:
                break
            self.rebind(s.target)
            self.assign(s.target, item, s.target.span)
            self.emit_body(s.body)
        self.loops.pop()

    def rebind(self, target):
        """Forget the loop target's variables (undeclared ones) so each unrolled iteration
        may bind them to a value of another type."""
        names = [target.id] if isinstance(target, A.Name) else \
            [e.id for e in getattr(target, "elts", []) if isinstance(e, A.Name)]
        for name in names:
            var = self.env.get(name)
            if var is not None and not var.declared and var.slot is None:
                self.env.pop(name)

    # -- comprehensions ---------------------------------------------------------------------------
    def e_ListComp(self, node, expected):
        return self.comprehension(node, expected, "list")

    def e_DictComp(self, node, expected):
        return self.comprehension(node, expected, "dict")

    def e_GeneratorExp(self, node, expected):
        return self.comprehension(node, expected, "list")

    def comprehension(self, node, expected, kind):
        """Build the result by a loop; comprehension variables stay local to it."""
        from ember.frontend.comprehensions import emit_comprehension
        return emit_comprehension(self, node, expected, kind)


__all__ = ["LoopMixin", "LoopCtx", "Value"]
