"""Reverse-mode differentiation of IR functions: each function gets an adjoint function.

For a function `f(p0, p1, …) -> R` the transformation adds

    func @f$vjp(p0, p1, …, seed: adj(R)) -> tuple<R, adj(p0), adj(p1), …>

which runs f's body (the forward sweep), then walks its ops backwards (the reverse
sweep), turning the adjoint of each op's result into adjoints of its operands with the
operator's derivative rule (`ember.ops.registry.VJP`). A float's adjoint is a float, a
tensor's a tensor, a tuple's a tuple of its elements' adjoints; int, bool, str and None
values carry none (their adjoint type is `none`).

Structured control flow:

* `if`: the reverse sweep emits an `if` on the same condition; each branch recomputes its
  region's forward ops and runs their reverse sweep, yielding the adjoints of the outer
  values the region read.
* loops (`for`, `while`): the forward loop appends its induction variable and carried
  values to one tape (a list) per value at the start of every iteration; the reverse is a
  loop over the tape from the last iteration down, recomputing the body from the recorded
  values and reversing it, carrying the adjoints of the carried values and of the outer
  values the body reads.
* `return` inside branches: the function is first rewritten so that it ends in its only
  `return` (the code after an `if` whose branch returns moves into the other branch, and
  branches that return yield instead).
* `call @g`: the reverse calls `@g$vjp`, made on demand (a recursive g's adjoint calls
  itself).

Adjoints of tensors cross region boundaries typed plain `tensor`. Errors (an op with no
rule on a differentiable path, in-place updates, unsupported control flow) are
CompileErrors at the op's line naming it.
"""

from __future__ import annotations

import linecache

from ember.autodiff.emit import _LIST_MUTATORS, Emitter
from ember.autodiff.inplace import functionalize
from ember.autodiff.lists import (ListAdjoints, appends_outside, check_stale_reads, unwiden,
                                  defined_inside, holds_tensor_list, is_diff_list,
                                  is_tensor_list)
from ember.errors import CompileError, Source, Span, UnsupportedError
from ember.ir import types as T
from ember.ir.builder import IRBuilder
from ember.ir.core import Block, BlockArg, Loc, OpResult, Region, SymbolRef, Value
from ember.ir.ops import FuncOp, IfOp, KernelOp, create_op
from ember.ops import registry as R

SUFFIX = "$vjp"


# ----------------------------------------------------------------------------- types


def adj_type(t: T.Type) -> T.Type:
    """The type of a value's adjoint (`none` for values that carry no gradient)."""
    if t == T.F64:
        return T.F64
    if isinstance(t, T.TensorType):
        if t.dtype is not None and t.dtype not in ("f16", "f32", "f64"):
            return T.NONE
        return T.TENSOR
    if isinstance(t, T.TupleType):
        elems = tuple(adj_type(e) for e in t.elems)
        return T.TupleType(elems) if any(e != T.NONE for e in elems) else T.NONE
    return T.NONE


def _is_parameter(v) -> bool:
    """v (through widen / narrow) is a parameter of its function, not a loop's value."""
    v = unwiden(v)
    if not isinstance(v, BlockArg):
        return False
    region = v.block.parent
    return region is not None and isinstance(region.parent, FuncOp)


def differentiable(t: T.Type) -> bool:
    return adj_type(t) != T.NONE


def is_complex(t: T.Type) -> bool:
    """t is a complex number or a complex tensor (no gradients through those)."""
    return t == T.C128 or isinstance(t, T.TensorType) and t.dtype in ("c64", "c128")


def carries(t: T.Type) -> bool:
    """t is differentiable or holds differentiable values (a list of floats)."""
    if differentiable(t):
        return True
    if isinstance(t, (T.ListType, T.OptionalType)):
        return carries(t.elem)
    if isinstance(t, T.DictType):
        return carries(t.value)
    return False


def error(message: str, loc: Loc, module, cls=CompileError):
    """A CompileError pointing at `loc`'s line."""
    span = None
    if loc is not None and not loc.is_unknown:
        text = module.sources.get(loc.file) if module is not None else None
        if text is None:
            text = "".join(linecache.getlines(loc.file))
        if text:
            col = max(loc.col, 1)
            span = Span(Source(loc.file, text), loc.line, col, loc.line, col + 1)
    return cls(message, span)


class TupleAdj:
    """A tuple's adjoint kept element-wise until it must be one value."""

    __slots__ = ("items",)

    def __init__(self, items):
        self.items = list(items)


# ----------------------------------------------------------------------------- adjoints


class Adjoints:
    """Value -> its accumulated adjoint (a Value, or TupleAdj for tuples)."""

    def __init__(self, e: Emitter, active=None):
        self.e = e
        self.map: dict = {}
        self.active = active
        """The values that depend on a differentiated argument (None: all do); others get
        no adjoint."""

    def needed(self, v) -> bool:
        """A constant needs none (a rule then skips the adjoint of `x * 2.0`'s 2.0)."""
        return differentiable(v.type) and (self.active is None or v in self.active) and \
            not (isinstance(v, OpResult) and v.op.name == "const")

    def get(self, v):
        return self.map.get(v)

    def add(self, v, g) -> None:
        if g is None or not self.needed(v):
            return
        old = self.map.get(v)
        self.map[v] = g if old is None else self._sum(v.type, old, g)

    def _sum(self, t, a, b):
        if isinstance(t, T.TupleType):
            a, b = self.split(t, a), self.split(t, b)
            return TupleAdj(x if y is None else y if x is None else self._sum(et, x, y)
                            for et, x, y in zip(t.elems, a, b))
        return self.e.add(a, b)

    def split(self, t: T.TupleType, g) -> list:
        """A tuple adjoint as a list of element adjoints (None for none)."""
        if isinstance(g, TupleAdj):
            return list(g.items)
        return [self.e.tuple_get(g, i) if differentiable(et) else None
                for i, et in enumerate(t.elems)]

    def value(self, primal, g=None):
        """The adjoint of `primal` as one IR value of type adj_type(primal.type): zero when
        there is none."""
        g = self.map.get(primal) if g is None else g
        return self.materialize(primal, primal.type, g)

    def unread(self, primal):
        """The adjoint of a parameter the caller did not ask for (and drops): a tensor's
        is a broadcast zero (tensor.zeros_unread), nothing is computed for it."""
        if isinstance(primal.type, T.TensorType):
            return coerce(self.e, self.e.op("tensor.zeros_unread", primal), adj_type(primal.type))
        return self.value(primal, None)

    def materialize(self, primal, t, g):
        e = self.e
        at = adj_type(t)
        if at == T.NONE:
            return e.const(None)
        if isinstance(t, T.TupleType):
            items = self.split(t, g) if g is not None else [None] * len(t.elems)
            parts = []
            for i, (et, gi) in enumerate(zip(t.elems, items)):
                sub = e.tuple_get(primal, i) if gi is None and differentiable(et) else None
                parts.append(self.materialize(sub, et, gi))
            return e.tuple_new(parts)
        if g is None:
            if t == T.F64:
                return e.const(0.0)
            g = e.op("tensor.zeros_like", primal)
        return coerce(e, g, at)


def coerce(e: Emitter, v, t: T.Type):
    """v as type t (a widen where t is less specific)."""
    if v.type == t:
        return v
    if T.is_subtype(v.type, t):
        return e.b.create("widen", [v], [t]).result
    raise TypeError(f"adjoint of type {v.type} where {t} is expected")


# ----------------------------------------------------------------------------- records


class Step:
    """One forward op as run in the adjoint function: the original op, its clone, the
    value mapping in force (original -> clone values) and, for loops, the tapes."""

    __slots__ = ("orig", "clone", "mapping", "tapes")

    def __init__(self, orig, clone, mapping, tapes=None):
        self.orig, self.clone, self.mapping, self.tapes = orig, clone, mapping, tapes


# ----------------------------------------------------------------------------- transformation


class Differentiator:
    """Adds adjoint functions to one IR module."""

    def __init__(self, module):
        self.m = module
        self.made: dict[str, str] = {}
        self.zero_args: dict[str, set] = {}
        """A call adjoint's name -> the parameters whose adjoint is zero by construction
        (none yet while a recursive function's adjoint is being made)."""
        self.lists = ListAdjoints(module, error)

    # -- functions ------------------------------------------------------------------------
    def vjp(self, fname: str, wrt=None, call: bool = False) -> FuncOp:
        """The adjoint function of `fname` (made once); with `wrt` (parameter indices) only
        those parameters' adjoints are computed (the others are returned as zeros). The
        adjoint a call's reverse calls (`call`) returns a parameter's adjoint that nothing
        contributes to (x in `y.view(x.shape)`) as tensor.zeros_unread, which the caller
        drops (`self.zero_args`)."""
        key = (fname, "call") if call else fname if wrt is None else (fname, tuple(wrt))
        name = self.made.get(key)
        if name is not None:
            return self.m.funcs[name]
        f = self.m.funcs[fname]
        src = normalize(f, self.m)
        params, ret = list(f.type.params), f.type.ret
        ftype = T.FunctionType(tuple(params + [adj_type(ret)]),
                               T.TupleType(tuple([ret] + [adj_type(p) for p in params])))
        name = _fresh(self.m, fname + SUFFIX)
        names = [a.name for a in f.args] + ["seed"]
        g = FuncOp(name, ftype, f.loc, names)
        g.attrs["qualname"] = f.attrs.get("qualname", fname) + SUFFIX
        self.made[key] = name
        self.m.add_func(g)
        b = IRBuilder(g.body, f.loc)
        e = Emitter(b)
        mapping = {a: ga for a, ga in zip(src.args, g.args)}
        body = src.body
        ret_op = body.ops[-1]
        steps = self.forward(body.ops[:-1], mapping, b)
        forward_ops = set(g.walk())
        result = mapping.get(ret_op.operands[0], ret_op.operands[0])
        active = None if wrt is None else _activity([g.args[i] for i in wrt], steps)
        adj = Adjoints(e, active)
        with b.at_loc(ret_op.loc):
            seed = g.args[-1]
            if isinstance(ret, T.TensorType):  # a seed that broadcasts (the 0-d one of grad)
                seed = e.op("tensor.seed_like", seed, result)
            adj.add(result, seed)
        self.reverse(steps, adj, b)
        if call:
            self.zero_args[name] = {i for i, a in enumerate(g.args[:-1])
                                    if differentiable(a.type) and adj.get(a) is None}
        with b.at_loc(ret_op.loc):
            outs = [result] + [adj.unread(a) if wrt is not None and i not in wrt or
                               call and i in self.zero_args[name] else adj.value(a)
                               for i, a in enumerate(g.args[:-1])]
            b.insert(create_op("return", [e.tuple_new(outs)], [], {}, [], ret_op.loc))
        _recompute_batch_norm_outputs(g, forward_ops)
        _drop_unread(g, forward_ops)
        return g

    # -- forward sweep ------------------------------------------------------------------------
    def forward(self, ops, mapping: dict, b: IRBuilder, inside=None) -> list[Step]:
        """Clone `ops` at b's insertion point (loops record tapes); one Step per op. When
        recomputing a region (`inside`: the values it defines), appends to lists made
        outside it are not run again (their Step has no clone)."""
        steps = []
        for op in ops:
            self._check_forward(op)
            if inside is not None and op.name == "list.append" and \
                    op.operands[0] not in inside:
                steps.append(Step(op, None, mapping))
                continue
            if op.name in ("for", "while"):
                steps.append(self._forward_loop(op, mapping, b))
                continue
            clone = op.clone(dict(mapping))
            for old, new in zip(op.results, clone.results):
                mapping[old] = new
            b.insert(clone)
            steps.append(Step(op, clone, mapping))
        return steps

    def _check_forward(self, op) -> None:
        name = op.name
        if name in ("break", "continue", "return", "raise", "try", "unreachable") or \
                name.startswith("var."):
            kind = {"try": "try statements", "raise": "raise inside differentiated code"
                    }.get(name, f"'{name}' here")
            raise error(f"grad: differentiating through {kind} is not supported", op.loc,
                        self.m, UnsupportedError)
        if name in ("for", "while") and op.else_region is not None:
            raise error("grad: differentiating a loop with an else clause is not supported",
                        op.loc, self.m, UnsupportedError)
        for sub in op.walk():
            if sub is not op and sub.name in ("break", "continue", "return"):
                raise error(f"grad: '{sub.name}' inside a differentiated loop or branch is "
                            "not supported", sub.loc, self.m, UnsupportedError)

    def _forward_loop(self, op, mapping, b) -> Step:
        e = Emitter(b)
        body = op.body.block
        with b.at_loc(op.loc):
            tapes = [e.b.create("list.new", [], [T.ListType(a.type)]).result
                     for a in body.args]
        clone = op.clone(dict(mapping))
        b.insert(clone)
        cb = clone.body.block
        inner = IRBuilder(cb, op.loc)
        inner.before = cb.ops[0] if cb.ops else None
        for tape, arg in zip(tapes, cb.args):
            inner.kernel("list.append", [tape, arg], T.NONE)
        for old, new in zip(op.results, clone.results):
            mapping[old] = new
        return Step(op, clone, mapping, tapes)

    # -- reverse sweep ----------------------------------------------------------------------
    def reverse(self, steps, adj: Adjoints, b: IRBuilder) -> None:
        lists = self.lists
        lists.note_block(steps, b)
        for st in reversed(steps):
            op = st.orig
            if op.name == "list.append":
                lst, x = (st.mapping.get(v, v) for v in op.operands)
                with b.at_loc(op.loc):
                    lists.reverse_append(lst, x, adj, b, op.loc)
                continue
            outs = [lists.get(r) if lists.tracked(r) else adj.get(r) for r in st.clone.results]
            if all(g is None for g in outs) and not (op.regions and appends_outside(op)):
                continue
            with b.at_loc(op.loc):
                self._reverse_op(st, outs, adj, b)

    def _reverse_op(self, st, outs, adj, b) -> None:
        op, c = st.orig, st.clone
        e = Emitter(b)
        name = op.name
        if name == "const":
            return
        if name == "if":
            return self._reverse_if(st, outs, adj, b)
        if name in ("for", "while"):
            return self._reverse_loop(st, outs, adj, b)
        if name == "tuple.new":
            t = c.result.type
            for v, g in zip(c.operands, adj.split(t, outs[0])):
                adj.add(v, g)
            return
        if name == "tuple.get":
            t = c.operands[0].type
            items = [None] * len(t.elems)
            items[op.attrs["index"]] = outs[0]
            adj.add(c.operands[0], TupleAdj(items))
            return
        if name in ("widen", "narrow"):
            if differentiable(c.operands[0].type):
                g = outs[0]
                adj.add(c.operands[0], g)
            return
        if name == "list.new":
            return self.lists.reverse_new(c, adj, b)
        if name == "list.getitem" and is_diff_list(c.operands[0].type):
            return self.lists.reverse_getitem(c, adj.value(c.result, outs[0]), b, op.loc)
        if name == "call":
            return self._reverse_call(st, outs, adj, b)
        if isinstance(op, KernelOp):
            return self._reverse_kernel(st, outs, adj, e)
        if not any(carries(v.type) for v in c.operands):
            return
        raise error(f"grad: cannot differentiate through '{name}'", op.loc, self.m)

    def _reverse_kernel(self, st, outs, adj, e) -> None:
        op, c = st.orig, st.clone
        name = op.name
        if name in R.NONDIFF:
            return
        rule = R.VJP.get(name)
        diff_in = [differentiable(v.type) for v in c.operands]
        if rule is None:
            if any(is_complex(v.type) for v in c.operands):
                # A complex value carries no adjoint: returning here would drop the gradient
                # of whatever made it (abs(complex(x, 1)) would have gradient 0).
                raise error(f"grad: operator '{name}' has no derivative rule (gradients do "
                            "not flow through complex numbers)", op.loc, self.m,
                            UnsupportedError)
            if not any(carries(v.type) for v in c.operands):
                return
            raise error(f"grad: operator '{name}' has no derivative rule", op.loc, self.m)
        g = outs[0] if is_tensor_list(c.result.type) else adj.value(c.result, outs[0])
        e.needs = [adj.needed(v) or is_tensor_list(v.type) for v in c.operands]
        try:
            grads = rule(e, list(c.operands), c.result, g)
        except NotImplementedError as ex:
            raise error(f"grad: {name}: {ex}", op.loc, self.m, UnsupportedError) from None
        for v, gv, d in zip(c.operands, grads, diff_in):
            if isinstance(gv, list):  # a list literal's elements (cat, stack)
                for item, gi in zip(Emitter(b_of(e)).list_items(v) or [], gv):
                    if gi is not None and differentiable(item.type):
                        adj.add(item, gi)
            elif isinstance(gv, Value) and is_tensor_list(v.type):  # a list's adjoint
                if not self.lists.tracked(v):
                    if _is_parameter(v):
                        continue  # lists are not differentiable parameters: nothing to give
                    raise error(f"grad: {name}: cannot differentiate into a list of tensors "
                                "made here (a parameter, a slice, a list held in a tuple)",
                                op.loc, self.m)
                gl = self.lists.ensure(v, op.loc)
                e.b.kernel("grad.list_add_all", [gl, gv], T.NONE)
            elif d and gv is not None:
                adj.add(v, gv)
        if e.replaced is not None:  # the rule made the forward keep what it reads
            e.replaced.erase()
            e.replaced = None

    def _reverse_call(self, st, outs, adj, b) -> None:
        c = st.clone
        for v in c.operands:
            if holds_tensor_list(v.type):
                raise error(f"grad: a list of tensors or floats passed to '{c.callee}' "
                            "carries no gradient (pass the values, or a tuple of them)",
                            st.orig.loc, self.m)
        if not any(differentiable(v.type) for v in c.operands):
            return
        e = Emitter(b)
        g = self.vjp(c.callee, call=True)
        zero = self.zero_args.get(g.sym_name, ())
        seed = adj.value(c.result, outs[0])
        args = list(c.operands) + [seed]
        r = b.create("call", args, [g.type.ret], {"callee": SymbolRef(g.sym_name)}).result
        for i, v in enumerate(c.operands):
            if differentiable(v.type) and i not in zero:
                adj.add(v, e.tuple_get(r, i + 1))

    # -- if ------------------------------------------------------------------------------------
    def _free_values(self, op, mapping) -> list:
        """Outer values (as mapped into the adjoint function) that op's regions read and
        that carry gradients, in first-use order."""
        inside = set()
        seen, out = set(), []
        for sub in op.walk():
            for r in sub.regions:
                inside.update(r.block.args)
            inside.update(sub.results)
        for sub in op.walk():
            if sub is op:
                continue
            for v in sub.operands:
                if v in inside or v in seen:
                    continue
                seen.add(v)
                if differentiable(v.type):
                    out.append(v)
        return [mapping.get(v, v) for v in out]

    def _region_reverse(self, region, mapping, seeds, free, b_outer, prelude=None):
        """A new block that recomputes `region`'s ops, seeds the adjoints of its yielded
        values, runs the reverse sweep and yields free values' adjoints (and any extra
        values `prelude` returns first). Returns (block, builder, the prelude's values, the
        region's Adjoints, which give the free values' adjoints)."""
        blk = Block()
        b = IRBuilder(blk, b_outer.loc)
        local = dict(mapping)
        extra = prelude(b, local) if prelude else []
        body = region.block
        steps = self.forward(body.ops[:-1], local, b, _inside(region))
        term = body.ops[-1]
        adj = Adjoints(Emitter(b))
        if isinstance(seeds, tuple):  # (values already adjoints, list for free values)
            seed_free, seeds = seeds
            for v, g in zip(free, seed_free):
                adj.add(v, g)
        for v, g in zip(term.operands, seeds):
            if g is not None:
                adj.add(local.get(v, v), g)
        self.reverse(steps, adj, b)
        vals = extra(adj) if callable(extra) else list(extra)
        return blk, b, vals, adj

    def _reverse_if(self, st, outs, adj, b) -> None:
        op, c = st.orig, st.clone
        free = self._free_values(op, st.mapping)
        if not free and not appends_outside(op):
            return
        check_stale_reads(op, self.m, error)
        seeds = [adj.value(r, g) if g is not None else None for r, g in zip(c.results, outs)]
        blocks = []
        for region in op.regions:
            blocks.append(self._region_reverse(region, st.mapping, seeds, free, b))
        # a free value no branch gives an adjoint to (read for its shape) gets none here,
        # rather than zeros from every branch added to its adjoint
        free = [v for v in free if any(a.get(v) is not None for *_, a in blocks)]
        types = [adj_type(v.type) for v in free]
        for blk, rb, vals, a in blocks:
            with rb.at_loc(op.loc):
                vals = vals + [a.value(v) for v in free]
                vals = [coerce(Emitter(rb), v, t) for v, t in zip(vals, types)]
                rb.yield_(vals)
        new = IfOp([c.operands[0]], types, None, [Region(blk) for blk, *_ in blocks],
                   op.loc)
        b.insert(new)
        for v, r in zip(free, new.results):
            adj.add(v, r)

    # -- loops -----------------------------------------------------------------------------------
    def _reverse_loop(self, st, outs, adj, b) -> None:
        op, c = st.orig, st.clone
        check_stale_reads(op, self.m, error)
        e = Emitter(b)
        body = op.body.block
        skip = 1 if op.name == "for" else 0  # the induction variable
        carried = body.args[skip:]
        free = self._free_values(op, st.mapping)
        ctypes = [adj_type(a.type) for a in carried]
        ftypes = [adj_type(v.type) for v in free]
        inits = [adj.value(r, g) for r, g in zip(c.results, outs)]
        inits = [coerce(e, v, t) if t != T.NONE else v for v, t in zip(inits, ctypes)]
        finits = [coerce(e, adj.value(v, None), t) for v, t in zip(free, ftypes)]
        n = e.op("list.len", st.tapes[0])
        zero, one = e.const(0), e.const(1)
        rev = create_op("for", [zero, n, one] + inits + finits, ctypes + ftypes, {},
                        [Region(Block([T.I64] + ctypes + ftypes))], op.loc)
        b.insert(rev)
        blk = rev.regions[0].block
        j, a_carried, a_free = blk.args[0], blk.args[1:1 + len(ctypes)], \
            blk.args[1 + len(ctypes):]
        tapes = st.tapes
        recorded = []

        def prelude(rb, local):
            re = Emitter(rb)
            last = re.op("int.sub", re.op("int.sub", n, j), one)
            vals = [re.op("list.getitem", t, last) for t in tapes]
            for a, v in zip(body.args, vals):
                local[a] = v
            recorded.extend(vals[skip:])
            return lambda adj2: [adj2.value(v) if d != T.NONE else re.const(None)
                                 for v, d in zip(recorded, ctypes)]

        seeds = [g if t != T.NONE else None for g, t in zip(a_carried, ctypes)]
        inner, rb, vals, steps = self._region_reverse_into(
            op.body, st.mapping, (list(a_free), seeds), free, rb_block=blk, loc=b.loc,
            prelude=prelude)
        with rb.at_loc(op.loc):
            vals = [coerce(Emitter(rb), v, t) if t != T.NONE else v
                    for v, t in zip(vals, ctypes + ftypes)]
            rb.yield_(vals)
        for v, r in zip(free, rev.results[len(ctypes):]):
            adj.map[v] = r  # the loop started from v's adjoint and added to it
        for r, init, t in zip(rev.results[:len(ctypes)], c.operands[c.carried_start:], ctypes):
            if t != T.NONE:
                adj.add(init, r)

    def _region_reverse_into(self, region, mapping, seeds, free, rb_block, loc, prelude):
        b = IRBuilder(rb_block, loc)
        local = dict(mapping)
        extra = prelude(b, local)
        body = region.block
        steps = self.forward(body.ops[:-1], local, b, _inside(region))
        term = body.ops[-1]
        adj = Adjoints(Emitter(b))
        seed_free, seed_vals = seeds
        for v, g in zip(free, seed_free):
            adj.add(v, g)
        for v, g in zip(term.operands, seed_vals):
            if g is not None:
                adj.add(local.get(v, v), g)
        self.reverse(steps, adj, b)
        vals = extra(adj) + [adj.value(v) for v in free]
        return rb_block, b, vals, steps


_READS_INPUT = {"tensor.hardswish_backward": 1}
"""Backward kernels -> the operand that is their forward op's input."""


def _recompute_batch_norm_outputs(g, forward: set) -> None:
    """A backward kernel of the reverse sweep reading a training batch norm's result (a
    hardswish after a batch norm) reads it recomputed from the batch norm's input and the
    statistics its forward kept (tensor.batch_norm_from_saved, the same bits) instead: the
    batch norm's input is kept for its own backward anyway, so the result no longer lives
    from the forward to the reverse sweep (two of the MBV3 block's six kept activations)."""
    for op in list(g.walk()):
        i = _READS_INPUT.get(op.name)
        if i is None or op in forward:
            continue
        y = op.operands[i]
        get = getattr(y, "op", None)
        if get is None or get.name != "tuple.get" or get.attrs.get("index") != 0:
            continue
        bn = get.operands[0].op if hasattr(get.operands[0], "op") else None
        if bn is None or bn.name != "tensor.batch_norm_train":
            continue
        saved = [u.op.result for u in bn.result.uses if u.op.name == "tuple.get" and
                 u.op.attrs.get("index") == len(bn.result.type.elems) - 1]
        if not saved:
            continue
        x, _, _, w, b = bn.operands[:5]
        again = KernelOp("tensor.batch_norm_from_saved", [x, saved[0], w, b], [y.type], None,
                         op.loc)
        op.parent.insert_before(op, again)
        op.set_operand(i, again.result)


def _drop_unread(g, keep: set) -> None:
    """Erase the ops of adjoint function g's reverse sweep (those not in `keep`, its forward
    sweep) that nothing reads. DCE keeps unused tensor ops (they are not pure: a tensor is a
    fresh mutable object) and ops that may raise, so these would run for nothing and keep
    what they read (an activation) alive until the reverse sweep got to them: a rule's
    adjoint for an operand no one needs, a region's forward op recomputed for its reverse
    (it already ran on the same values in the forward sweep, without raising). Ops that
    write into a tensor, draw random numbers or have other effects stay."""
    from ember.interpreter.mutation import writes_tensor
    from ember.ir.core import ALLOC, PURE
    changed = True
    while changed:
        changed = False
        for op in reversed(list(g.walk())):
            if op is g or op in keep or op.parent is None or op.regions or \
                    not op.results or any(r.uses for r in op.results):
                continue
            if PURE in op.traits or ALLOC in op.traits or \
                    isinstance(op, KernelOp) and op.name.startswith("tensor.") and \
                    not writes_tensor(op) and op.name not in _RANDOM:
                op.erase()
                changed = True


_RANDOM = frozenset({
    "tensor.rand", "tensor.randn", "tensor.randint", "tensor.rand_seq", "tensor.randn_seq",
    "tensor.randint_seq", "tensor.randperm", "tensor.rand_like", "tensor.randn_like",
    "tensor.bernoulli", "tensor.dropout", "tensor.dropout_channels", "tensor.alpha_dropout",
    "tensor.dropout_fn"})
"""Tensor operators that advance the random generator (a recomputation of one is left
as it is)."""


def _inside(region) -> set:
    """The values region defines (its block's arguments and its ops' results)."""
    out = set(region.block.args)
    for op in region.block.ops:
        out.update(defined_inside(op))
        out.update(op.results)
    return out


def _activity(seeds, steps) -> set:
    """The values (of the adjoint function's forward sweep) that depend on `seeds`: an op's
    results do when any operand, or any value its regions read, does."""
    active = set(seeds)
    for st in steps:
        op = st.clone
        reads = [v for sub in op.walk() for v in sub.operands]
        if any(v in active for v in reads):
            active.update(op.results)
            for sub in op.walk():  # a list that takes an active value becomes active
                if sub.name in _LIST_MUTATORS and any(v in active for v in sub.operands[1:]):
                    _activate(active, sub.operands[0])
    return active


def _activate(active: set, v) -> None:
    """v and the views of it through widen and narrow (one list object) are active."""
    if v in active:
        return
    active.add(v)
    owner = getattr(v, "op", None)
    if owner is not None and owner.name in ("widen", "narrow"):
        _activate(active, owner.operands[0])
    for use in v.uses:
        if use.op.name in ("widen", "narrow"):
            _activate(active, use.op.results[0])


def b_of(e: Emitter):
    return e.b


def _fresh(module, name: str) -> str:
    if name not in module.funcs:
        return name
    i = 2
    while f"{name}.{i}" in module.funcs:
        i += 1
    return f"{name}.{i}"


# ----------------------------------------------------------------------------- single exit


def normalize(f: FuncOp, module) -> FuncOp:
    """A copy of f whose body ends in its only `return` (see the module doc)."""
    mapping: dict = {}
    g = FuncOp(f.sym_name, f.type, f.loc, [a.name for a in f.args])
    for a, ga in zip(f.args, g.args):
        mapping[a] = ga
    for op in f.body.ops:
        g.body.append(op.clone(mapping))
    functionalize(g, differentiable, lambda msg, loc, cls: error(msg, loc, module, cls))
    _single_exit(g.body, module, f.type.ret)
    return g


def _exits(block) -> bool:
    t = block.ops[-1] if block.ops else None
    return t is not None and t.name in ("return", "unreachable", "raise")


def _single_exit(block, module, ret_type) -> None:
    for i, op in enumerate(block.ops):
        if op.name != "if" or not any(_returns(r.block) for r in op.regions):
            continue
        rest = block.ops[i + 1:]
        yielding = [r for r in op.regions if not _exits(r.block)]
        if yielding:
            r = yielding[0]
            term = r.block.ops[-1]
            for res, v in zip(op.results, term.operands):
                res.replace_all_uses_with(v)
            term.erase()
            for x in rest:
                r.block.append(x.detach())
        else:
            for x in reversed(rest):
                x.detach()
                x._drop_all()
        for r in op.regions:
            _single_exit(r.block, module, ret_type)
            last = r.block.ops[-1]
            if last.name != "return":
                raise error("grad: this branch must end in a return", last.loc, module,
                            UnsupportedError)
            v = last.operands[0]
            last.erase()
            r.block.append(create_op("yield", [v], [], {}, [], last.loc))
        new = IfOp([op.operands[0]], [ret_type], None, [Region(r.block) for r in op.regions],
                   op.loc)
        op.regions = []
        op.drop_operands()
        block.insert_before(op, new)
        op.detach()
        block.append(create_op("return", [new.result], [], {}, [], op.loc))
        return


def _returns(block) -> bool:
    return bool(block.ops) and block.ops[-1].name == "return"


# ----------------------------------------------------------------------------- entry points


def differentiate(module, fname: str) -> FuncOp:
    """Add `fname`'s adjoint function (and its callees') to module; return it."""
    return Differentiator(module).vjp(fname)


def value_and_grad_func(module, fname: str, argnums, name: str, with_value: bool = True):
    """Add `name(params…)` returning `(value, grads)` (or grads alone): one gradient per
    index of `argnums` (a tuple of them when argnums is a tuple), seeded with 1."""
    f = module.funcs[fname]
    params, ret = list(f.type.params), f.type.ret
    single = isinstance(argnums, int)
    nums = [argnums] if single else list(argnums)
    for i in nums:
        if not isinstance(i, int) or not -len(params) <= i < len(params):
            raise error(f"grad: argnums {argnums!r} out of range for {len(params)} "
                        "parameters", f.loc, module)
    nums = [i % len(params) for i in nums]
    for i in nums:
        if not differentiable(params[i]):
            raise error(f"grad: cannot differentiate with respect to parameter "
                        f"'{f.args[i].name}' of type {params[i]} (only floats, float tensors "
                        "and tuples of them carry gradients)", f.loc, module)
    if ret != T.F64 and not isinstance(ret, T.TensorType):
        raise error(f"grad: the function must return a float or a one-element tensor, not "
                    f"{ret}", _return_loc(f), module)
    vjp = differentiate(module, fname)
    gtypes = [adj_type(params[i]) for i in nums]
    gtype = gtypes[0] if single else T.TupleType(tuple(gtypes))
    rtype = T.TupleType((ret, gtype)) if with_value else gtype
    w = FuncOp(name, T.FunctionType(tuple(params), rtype), f.loc, [a.name for a in f.args])
    w.attrs["qualname"] = name
    b = IRBuilder(w.body, f.loc)
    e = Emitter(b)
    if ret == T.F64:
        seed = e.const(1.0)
    else:
        if ret.shape is not None and all(isinstance(d, int) for d in ret.shape) and \
                _numel(ret.shape) != 1:
            raise error(f"grad: the function must return a float or a one-element tensor, "
                        f"not {ret}", _return_loc(f), module)
        seed = coerce(e, e.op("tensor.from_float", 1.0), T.TENSOR)
    r = b.create("call", list(w.args) + [seed], [vjp.type.ret],
                 {"callee": SymbolRef(vjp.sym_name)}).result
    if ret != T.F64:
        b.kernel("grad.check_scalar", [e.op("tensor.numel", e.tuple_get(r, 0))], T.NONE)
    grads = [e.tuple_get(r, i + 1) for i in nums]
    out = grads[0] if single else e.tuple_new(grads)
    if with_value:
        out = e.tuple_new([e.tuple_get(r, 0), out])
    b.insert(create_op("return", [out], [], {}, [], f.loc))
    module.add_func(w)
    return w


def _numel(shape) -> int:
    n = 1
    for d in shape:
        n *= d if isinstance(d, int) else 0
    return n


def _return_loc(f):
    for op in f.walk():
        if op.name == "return":
            return op.loc
    return f.loc
