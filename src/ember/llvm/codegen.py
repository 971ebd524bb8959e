"""IR → LLVM IR: structured control flow, calls, ownership and error exits.

Each native function is `{i8 err, R} f(ptr ctx, params…)`: err is 0 on success, 1 when
an exception is propagating (its site and operands are in the context block, sites.py).
Structured ops lower the way clang lowers C: values carried by loops and yielded by `if`
live in entry-block slots that LLVM's mem2reg turns into phis.

Ownership (lists are reference counted, rt.py): every op result that holds list
references owns one count, released when its block ends; parameters and loop-carried
block arguments are borrowed (the caller, or the loop's carried slot, owns them).
A value that leaves its block — yielded, carried, broken out with, returned — is retained
first; every exit (end of block, break, continue, return, error) releases what the scopes
it leaves own, innermost first.

Kernel ops are compiled by the one table in ops_table.py; anything else here or there
raises NotNative, and the function (and its callers) run on the VM.
"""

from __future__ import annotations

from dataclasses import dataclass

from llvmlite import ir

from ember.ir import types as T
from ember.ir.core import Loc
from ember.llvm.layout import (
    I1, I8, I32, I64, PTR, NotNative, is_native_type, is_refcounted, lltype,
)
from ember.llvm.sites import MAX_FRAMES, NPAYLOAD, STACK, STACK_BUDGET, TIERUP, Site

CTX = ir.LiteralStructType([I32, I32, I64, ir.ArrayType(I64, NPAYLOAD),
                            ir.ArrayType(I32, MAX_FRAMES), I32, I64])
"""site, nframes, class code (module.exc_code; 0 = not known statically), payload, frames,
status (a direct entry's error flag: module.ModuleGen.direct_shim), base (the stack
address at the entry shim: module.mark_stack_base)."""


@dataclass(frozen=True)
class Static:
    """A compile-time value with no native form (a str constant, an exception made from
    constants); only the ops that consume it at compile time accept it."""

    kind: str
    value: object


def ret_type(func) -> ir.Type:
    return ir.LiteralStructType([I8, lltype(func.attrs["type"].ret)])


def fn_type(func, recursive: bool = False) -> ir.FunctionType:
    """`{i8 err, R} (ptr ctx, [i64 depth,] params…)`: functions on a call cycle also take
    their recursion depth (in a register, checked against the interpreter's limit)."""
    ft = func.attrs["type"]
    depth = [I64] if recursive else []
    return ir.FunctionType(ret_type(func), [PTR] + depth + [lltype(t) for t in ft.params])


class _Unwind:
    """Where an exception goes inside a try body (kind "try": the dispatch block) or inside
    the handlers of a try with finally (kind "finally": run it, then propagate)."""

    def __init__(self, kind, depth, block):
        self.kind, self.depth, self.block = kind, depth, block
        self.codes: set = set()


class _Loop:
    def __init__(self, op, slots, results, latch, exit_bb, depth):
        self.op, self.slots, self.results = op, slots, results
        self.latch, self.exit, self.depth = latch, exit_bb, depth


class FunctionGen:
    """Emits one function's body into its (already declared) LLVM function."""

    def __init__(self, mg, func, recursive: bool, fn=None, redirect=None):
        self.mg, self.func, self.rt = mg, func, mg.rt
        self.fn = fn if fn is not None else mg.llfns[func.sym_name]
        self.redirect = redirect or {}
        """Callee name -> the LLVM function its calls go to instead of mg.llfns' (a
        recursive function and its twin call each other: module.py)."""
        self.ctx = self.fn.args[0]
        self.recursive = recursive
        self.depth = self.fn.args[1] if recursive else None
        entry = self.fn.append_basic_block("entry")
        self.alloca_b = ir.IRBuilder(entry)
        self.b = ir.IRBuilder(self.fn.append_basic_block("body"))
        self.vals: dict = {}
        self.scopes: list[list] = []
        self.loops: list[_Loop] = []
        self.on_yield: list = []
        self.unwind: list[_Unwind] = []
        self.finallies: list = []
        """(finally region, len(unwind), len(loops)) of each try whose body or handlers
        are being emitted: a return, break or continue that leaves one runs it first."""
        self._exits: dict = {}
        self._keep: list = []

    # -- driver -------------------------------------------------------------------------------
    def run(self) -> None:
        block = self.func.regions[0].block
        if self.recursive:
            self._enter()
        self.emit_block(block, list(self.fn.args[2 if self.recursive else 1:]))
        self.alloca_b.branch(self.b.function.basic_blocks[1])

    def _enter(self):
        limit = I64(self.mg.recursion_limit)
        self.fail_if(self.b.icmp_signed(">", self.depth, limit),
                     self.site("recursion", self.func.loc), [])
        self.guard_stack(self.func.loc)
        self.poll_tierup(self.func.loc)

    def guard_stack(self, loc) -> None:
        """Leave the call for the VM when it has used STACK_BUDGET bytes of C stack below
        its entry (a deopt: the VM's frames are CPython's, on the heap), looked at every
        16th level of recursion (a frame is far below STACK_BUDGET / 16). A context with no
        base (0) never trips it."""
        b = self.b
        here = b.ptrtoint(self.alloca_b.alloca(I8), I64)
        with b.if_then(b.icmp_unsigned("==", b.and_(self.depth, I64(15)), I64(0)),
                       likely=False):
            base = b.load(b.gep(self.ctx, [I32(0), I32(6)], inbounds=True,
                                source_etype=CTX), typ=I64)
            self.fail_if(b.icmp_signed(">", b.sub(base, here), I64(STACK_BUDGET)),
                         self.site("deopt", loc, text=STACK), [])

    def poll_tierup(self, loc) -> None:
        """Leave the call when the optimized code is ready (the quick tier's flag: module.
        ModuleGen.tierup_flag): a deopt whose site says TIERUP, which the boundary runs
        again on the optimized code — sound as every deopt is (nothing Python sees has
        changed before a native call returns)."""
        flag = self.b.load(self.mg.tierup_flag(), typ=I8)
        self.fail_if(self.b.icmp_unsigned("!=", flag, I8(0)),
                     self.site("deopt", loc, text=TIERUP), [])

    # -- values ----------------------------------------------------------------------------
    def get(self, v):
        try:
            return self.vals[v]
        except KeyError:
            raise NotNative(f"value {v} is not native") from None

    def native(self, v):
        x = self.get(v)
        if isinstance(x, Static):
            raise NotNative(f"a {x.kind} value where a native value is needed")
        return x

    def define(self, result, llval, owned: bool = True) -> None:
        self.vals[result] = llval
        if owned and not isinstance(llval, Static) and is_refcounted(result.type):
            self.scopes[-1].append(("val", llval, result.type))

    def slot(self, t: T.Type):
        return self.alloca_b.alloca(lltype(t))

    def load(self, slot, t: T.Type):
        return self.b.load(slot, typ=lltype(t))

    # -- blocks ----------------------------------------------------------------------------------
    def emit_block(self, block, args, borrowed: bool = True) -> None:
        self.scopes.append([])
        for a, v in zip(block.args, args):
            self.define(a, v, owned=not borrowed)
        for op in block.ops:
            self.emit(op)
        self.scopes.pop()

    def emit_region(self, region, args, on_yield) -> None:
        self.on_yield.append(on_yield)
        self.emit_block(region.block, args)
        self.on_yield.pop()

    def emit(self, op) -> None:
        from ember.llvm.ops_table import emit_kernel

        self.loc = op.loc
        handler = STRUCTURAL.get(op.name)
        if handler is not None:
            handler(self, op)
        else:
            emit_kernel(self, op)

    # -- exits ----------------------------------------------------------------------------------
    def retain(self, v, t) -> None:
        if not isinstance(v, Static):
            self.rt.retain(self.b, v, t)

    def release_scopes(self, down_to: int) -> None:
        for scope in reversed(self.scopes[down_to:]):
            for kind, v, t in reversed(scope):
                if kind == "slot":
                    v = self.load(v, t)
                self.rt.release(self.b, v, t)

    def transfer(self, values) -> list:
        """The native forms of values leaving their block, retained for the receiver."""
        out = []
        for v in values:
            x = self.native(v)
            self.retain(x, v.type)
            out.append(x)
        return out

    def ret(self, value) -> None:
        rt = ret_type(self.func)
        agg = self.b.insert_value(ir.Constant(rt, None), I8(0), 0)
        self.b.ret(self.b.insert_value(agg, value, 1))

    def error_exit(self) -> None:
        """Propagate the exception recorded in ctx: to the innermost try or finally of this
        function, or out of it. Exits that release the same values share one block (each
        failing operation only records its site and branches), which keeps code small."""
        u = self.unwind[-1] if self.unwind else None
        depth = u.depth if u is not None else 0
        live = [v for scope in self.scopes[depth:] for _, v, _ in scope]
        key = (id(u), tuple(id(v) for v in live))
        block = self._exits.get(key)
        if block is None:
            self._keep.append((u, live))  # ids in keys must not be reused while emitting
            block = self._exits[key] = self.fn.append_basic_block("unwind")
            here, self.b = self.b, ir.IRBuilder(block)
            self.release_scopes(depth)
            if u is not None:
                self.b.branch(u.block)
            else:
                rt = ret_type(self.func)
                self.b.ret(ir.Constant(rt, [I8(1), ir.Constant(rt.elements[1], None)]))
            self.b = here
        self.b.branch(block)

    def site(self, kind: str, loc: Loc, **kw) -> int:
        return self.mg.add_site(Site(kind, loc.file, loc.line, self.func.sym_name,
                                     inlined=tuple(tuple(x) for x in (loc.inlined or ())),
                                     func_file=self.func.loc.file, **kw))

    def fail_if(self, cond, site: int, payload) -> None:
        """If cond: record site and payload in the context and propagate the error."""
        b = self.b
        with b.if_then(cond, likely=False):
            self.record(site, payload)
            self.error_exit()

    def record(self, site: int, payload) -> None:
        b = self.b
        code = self.mg.exc_code(self.mg.sites[site])
        if code == 0:
            self.mg.unknown_class.add(self.func.sym_name)
        for u in self.unwind:
            u.codes.add(code)
        b.store(I32(site), b.gep(self.ctx, [I32(0), I32(0)], inbounds=True, source_etype=CTX))
        b.store(I64(code), b.gep(self.ctx, [I32(0), I32(2)], inbounds=True, source_etype=CTX))
        for i, w in enumerate(payload[:NPAYLOAD]):
            p = b.gep(self.ctx, [I32(0), I32(3), I32(i)], inbounds=True, source_etype=CTX)
            b.store(as_word(b, w), p)

    def deopt_if(self, cond, reason: str, loc) -> None:
        """If cond: leave native code for the VM — the boundary runs the whole call again
        there. Sound because a native call changes nothing Python sees before it returns
        (argument lists get their contents back only after a normal return), and no
        handler catches it. For cases whose exact semantics native code does not have
        (a NaN, whose identity CPython's containers consult)."""
        self.fail_if(cond, self.site("deopt", loc, text=reason), [])

    def push_frame(self, site: int) -> None:
        b = self.b
        pn = b.gep(self.ctx, [I32(0), I32(1)], inbounds=True, source_etype=CTX)
        n = b.load(pn, typ=I32)
        with b.if_then(b.icmp_signed("<", n, I32(MAX_FRAMES))):
            b.store(I32(site), b.gep(self.ctx, [I32(0), I32(4), n], inbounds=True,
                                     source_etype=CTX))
        b.store(b.add(n, I32(1)), pn)

    # -- structural ops --------------------------------------------------------------------------
    def op_const(self, op) -> None:
        v, t = op.attrs["value"], op.result.type
        if t == T.I64:
            self.define(op.result, I64(v))
        elif t == T.F64:
            self.define(op.result, ir.Constant(ir.DoubleType(), v))
        elif t == T.BOOL:
            self.define(op.result, I8(int(v)))
        elif t == T.NONE:
            self.define(op.result, I8(0))
        elif t == T.STR:
            self.define(op.result, Static("str", v))
        else:
            raise NotNative(f"a constant of type {t}")

    def _run_finallies(self, loop_depth: int) -> None:
        """Run, innermost first, the finally regions a jump out to loop depth leaves
        (an exception inside one propagates from where that try stands)."""
        saved_f, saved_u = self.finallies, self.unwind
        for k in reversed(range(len(saved_f))):
            region, n_unwind, n_loops = saved_f[k]
            if n_loops < loop_depth:
                break
            self.finallies, self.unwind = saved_f[:k], saved_u[:n_unwind]
            cont = self.fn.append_basic_block("finally.cont")
            self.emit_region(region, [], lambda vals: self.b.branch(cont))
            self.b.position_at_end(cont)
        self.finallies, self.unwind = saved_f, saved_u

    def op_return(self, op) -> None:
        (v,) = self.transfer(op.operands)
        self._run_finallies(0)
        self.release_scopes(0)
        self.ret(v)

    def op_yield(self, op) -> None:
        vals = self.transfer(op.operands)
        self.release_scopes(len(self.scopes) - 1)
        self.scopes[-1].clear()  # released: a handler that propagates must not again
        self.on_yield[-1](vals)

    op_condition = op_yield

    def op_unreachable(self, op) -> None:
        self.b.unreachable()

    def op_raise(self, op) -> None:
        e = self.get(op.operands[0])
        if isinstance(e, Static) and e.kind == "caught" and e.value is not None:
            self._reraise(e.value)
            self.push_frame(self.site("call", op.loc))  # the traceback shows the raise too
            self.error_exit()
            return
        if not (isinstance(e, Static) and e.kind == "exc"):
            raise NotNative("raise of an exception value not built from constants")
        from ember.llvm.ops_dstr import leaves, message_site

        msg = e.value[1]
        exc = (e.value[0], message_site(msg)) + tuple(e.value[2:])
        self.record(self.site("exc", op.loc, exc=exc), leaves(msg))
        self.error_exit()

    def op_if(self, op) -> None:
        b = self.b
        slots = [self.slot(r.type) for r in op.results]
        cond = b.icmp_unsigned("!=", self.native(op.operands[0]), I8(0))
        then_bb = b.append_basic_block("then")
        else_bb = b.append_basic_block("else")
        merge = b.append_basic_block("endif")
        b.cbranch(cond, then_bb, else_bb)

        def on_yield(vals):
            for s, v in zip(slots, vals):
                self.b.store(v, s)
            self.b.branch(merge)
        for region, bb in zip(op.regions, (then_bb, else_bb)):
            b.position_at_end(bb)
            self.emit_region(region, [], on_yield)
        b.position_at_end(merge)
        for r, s in zip(op.results, slots):
            self.define(r, self.load(s, r.type))

    def _carried_scope(self, op, inits):
        """Slots holding the loop's carried values (owned by a scope of their own)."""
        slots = [self.slot(v.type) for v in op.results]
        for s, v in zip(slots, self.transfer(inits)):
            self.b.store(v, s)
        self.scopes.append([("slot", s, r.type) for s, r in zip(slots, op.results)])
        return slots

    def _carried(self, loop) -> list:
        return [self.load(s, r.type) for s, r in zip(loop.slots, loop.op.results)]

    def _set_carried(self, loop, vals) -> None:
        """Replace the carried values (vals already retained): release the old ones."""
        for s, r in zip(loop.slots, loop.op.results):
            self.rt.release(self.b, self.load(s, r.type), r.type)
        for s, v in zip(loop.slots, vals):
            self.b.store(v, s)

    def _finish(self, loop, vals) -> None:
        """Leave the loop with vals as its results (vals retained; carried released)."""
        self._set_carried_results(loop, vals)
        self.b.branch(loop.exit)

    def _set_carried_results(self, loop, vals) -> None:
        for s, r in zip(loop.slots, loop.op.results):
            self.rt.release(self.b, self.load(s, r.type), r.type)
        for s, v in zip(loop.results, vals):
            self.b.store(v, s)

    def _normal_exit(self, loop) -> None:
        """The loop ran out: the else region, or the carried values become the results."""
        op = loop.op
        if op.else_region is None:
            for s, v in zip(loop.results, self._carried(loop)):
                self.b.store(v, s)
            self.b.branch(loop.exit)
            return
        self.emit_region(op.else_region, self._carried(loop),
                         lambda vals: self._finish(loop, vals))

    def _end_loop(self, loop) -> None:
        self.scopes.pop()
        self.b.position_at_end(loop.exit)
        for r, s in zip(loop.op.results, loop.results):
            self.define(r, self.load(s, r.type))

    def op_for(self, op) -> None:
        b = self.b
        lo, hi, step = (self.native(v) for v in op.operands[:3])
        step_const = _const_int(op.operands[2])
        if step_const is None:
            self.fail_if(b.icmp_signed("==", step, I64(0)), self.site("range", op.loc), [])
        elif step_const == 0:
            self.record(self.site("range", op.loc), [])
            self.error_exit()
            b.position_at_end(b.append_basic_block("dead"))
        iv = self.slot(T.I64)
        b.store(lo, iv)
        slots = self._carried_scope(op, op.operands[3:])
        results = [self.slot(r.type) for r in op.results]
        head, body = b.append_basic_block("for.head"), b.append_basic_block("for.body")
        latch, done = b.append_basic_block("for.latch"), b.append_basic_block("for.done")
        exit_bb = b.append_basic_block("for.exit")
        loop = _Loop(op, slots, results, latch, exit_bb, len(self.scopes))
        self.loops.append(loop)
        b.branch(head)
        b.position_at_end(head)
        i = b.load(iv, typ=I64)
        b.cbranch(self._in_range(i, hi, step, step_const), body, done)
        b.position_at_end(body)
        self.poll_tierup(op.loc)

        def on_yield(vals):
            self._set_carried(loop, vals)
            self.b.branch(latch)
        self.emit_region(op.body, [i] + self._carried(loop), on_yield)
        b.position_at_end(latch)
        nxt = b.sadd_with_overflow(b.load(iv, typ=I64), step)
        b.store(b.extract_value(nxt, 0), iv)
        b.cbranch(b.extract_value(nxt, 1), done, head)
        b.position_at_end(done)
        self.loops.pop()
        self._normal_exit(loop)
        self._end_loop(loop)

    def _in_range(self, i, hi, step, step_const):
        b = self.b
        up = b.icmp_signed("<", i, hi)
        if step_const is not None:
            return up if step_const > 0 else b.icmp_signed(">", i, hi)
        return b.select(b.icmp_signed(">", step, I64(0)), up, b.icmp_signed(">", i, hi))

    def op_while(self, op) -> None:
        b = self.b
        slots = self._carried_scope(op, op.operands)
        results = [self.slot(r.type) for r in op.results]
        head, body = b.append_basic_block("while.head"), b.append_basic_block("while.body")
        done, exit_bb = b.append_basic_block("while.done"), b.append_basic_block("while.exit")
        loop = _Loop(op, slots, results, head, exit_bb, len(self.scopes))
        self.loops.append(loop)
        b.branch(head)
        b.position_at_end(head)

        self.emit_branching(op.cond, self._carried(loop), body, done)
        b.position_at_end(body)
        self.poll_tierup(op.loc)

        def on_yield(vals):
            self._set_carried(loop, vals)
            self.b.branch(head)
        self.emit_region(op.body, self._carried(loop), on_yield)
        b.position_at_end(done)
        self.loops.pop()
        self._normal_exit(loop)
        self._end_loop(loop)

    def emit_branching(self, region, args, t_bb, f_bb, release_to=None) -> None:
        """Emit a region that ends by yielding one bool, and branch to t_bb or f_bb on it.
        When that bool is the result of an `if` (how `and` and `or` are built), each arm of
        the if branches itself (recursively): a `while a and b` loop keeps one exit per
        test, so LLVM sees the counted one and can unroll the loop by it."""
        if release_to is None:
            release_to = len(self.scopes)
        block = region.block
        tail = _bool_if_tail(block)
        if tail is None:
            def on_yield(vals):
                self.release_scopes(release_to)  # the enclosing blocks' values
                self._branch_on(vals[0], t_bb, f_bb)
            self.emit_region(region, args, on_yield)
            return
        self.scopes.append([])
        for a, v in zip(block.args, args):
            self.define(a, v, owned=False)
        for o in block.ops[:-2]:
            self.emit(o)
        b = self.b
        cond = b.icmp_unsigned("!=", self.native(tail.operands[0]), I8(0))
        then_bb, else_bb = b.append_basic_block("then"), b.append_basic_block("else")
        b.cbranch(cond, then_bb, else_bb)
        for arm, bb in zip(tail.regions, (then_bb, else_bb)):
            self.b.position_at_end(bb)
            self.emit_branching(arm, [], t_bb, f_bb, release_to)
        self.scopes.pop()

    def _branch_on(self, v, t_bb, f_bb) -> None:
        if isinstance(v, ir.Constant) and isinstance(v.constant, int):
            self.b.branch(t_bb if v.constant else f_bb)
        else:
            self.b.cbranch(self.b.icmp_unsigned("!=", v, I8(0)), t_bb, f_bb)

    def op_break(self, op) -> None:
        loop = self.loops[-1]
        vals = self.transfer(op.operands)
        self._run_finallies(len(self.loops))
        self.release_scopes(loop.depth)
        self._finish(loop, vals)

    def op_continue(self, op) -> None:
        loop = self.loops[-1]
        vals = self.transfer(op.operands)
        self._run_finallies(len(self.loops))
        self.release_scopes(loop.depth)
        self._set_carried(loop, vals)
        self.b.branch(loop.latch)

    def op_call(self, op) -> None:
        args = [self.native(v) for v in op.operands]
        self.define(op.result, self._direct_call(op.attrs["callee"].name, args, op.loc))

    def _direct_call(self, name: str, args: list, loc):
        callee = self.redirect.get(name) or self.mg.llfns.get(name)
        if callee is None:
            raise NotNative(f"a call of @{name}, which is not native")
        args = [self.ctx] + args
        if name in self.mg.recursive:
            args.insert(1, self.b.add(self.depth, I64(1)) if self.recursive else I64(1))
        r = self.b.call(callee, args)
        err = self.b.icmp_unsigned("!=", self.b.extract_value(r, 0), I8(0))
        with self.b.if_then(err, likely=False):
            self.push_frame(self.site("call", loc))
            for u in self.unwind:
                u.codes.add(0)  # the callee may raise anything
            self.error_exit()
        return self.b.extract_value(r, 1)

    def op_closure(self, op) -> None:
        """A closure used only as the callee of call_indirect ops of this function: its
        calls become direct calls with the captures first (it never exists at run time;
        any other use — stored, returned, carried by a loop — keeps the function on the VM)."""
        caps = [self.native(v) for v in op.operands]
        self.define(op.result, Static("closure", (op.attrs["callee"].name, tuple(caps))))

    def op_call_indirect(self, op) -> None:
        f = self.get(op.operands[0])
        if not (isinstance(f, Static) and f.kind == "closure"):
            raise NotNative("a call of a function value")
        name, caps = f.value
        args = list(caps) + [self.native(v) for v in op.operands[1:]]
        self.define(op.result, self._direct_call(name, args, op.loc))

    def op_tuple_new(self, op) -> None:
        t = op.result.type
        agg = ir.Constant(lltype(t), None)
        for i, v in enumerate(self.transfer(op.operands)):
            agg = self.b.insert_value(agg, v, i)
        self.define(op.result, agg)

    def op_tuple_get(self, op) -> None:
        v = self.b.extract_value(self.native(op.operands[0]), op.attrs["index"])
        self.retain(v, op.result.type)
        self.define(op.result, v)

    def op_list_new(self, op) -> None:
        from ember.llvm.ops_table import store_elem

        elem = op.result.type.elem
        lst = self.rt.new_list(self.b, I64(len(op.operands)), elem)
        for i, v in enumerate(self.transfer(op.operands)):
            store_elem(self, lst, I64(i), v, elem)
        self.define(op.result, lst)

    def op_widen(self, op) -> None:
        src, dst = op.operands[0].type, op.result.type
        x = self.get(op.operands[0])
        if isinstance(x, Static):
            self.define(op.result, x)
            return
        if not isinstance(dst, T.OptionalType):
            raise NotNative(f"widen to {dst}")
        if src == T.NONE and not is_native_type(dst):  # e.g. an exception's absent message
            self.define(op.result, Static("none", None))
            return
        agg = ir.Constant(lltype(dst), None)
        if src == T.NONE:
            self.define(op.result, agg)
            return
        if src != dst.elem:
            raise NotNative(f"widen of {src} to {dst}")
        self.retain(x, src)
        agg = self.b.insert_value(self.b.insert_value(agg, I8(1), 0), x, 1)
        self.define(op.result, agg)

    def op_narrow(self, op) -> None:
        src, dst = op.operands[0].type, op.result.type
        if isinstance(src, T.OptionalType) and dst == T.NONE:  # (refined: `is None` held)
            present = self.b.extract_value(self.native(op.operands[0]), 0)
            self.deopt_if(self.b.icmp_unsigned("!=", present, I8(0)),
                          "narrow of a present value to None", op.loc)
            self.define(op.result, I8(0))
            return
        if not isinstance(src, T.OptionalType) or dst != src.elem:
            raise NotNative(f"narrow of {src} to {dst}")
        x = self.native(op.operands[0])
        absent = self.b.icmp_unsigned("==", self.b.extract_value(x, 0), I8(0))
        self.fail_if(absent, self.site("narrow", op.loc, text=str(dst)), [])
        v = self.b.extract_value(x, 1)
        self.retain(v, dst)
        self.define(op.result, v)

    # -- objects of user classes and NamedTuples ------------------------------------------------
    def _decl(self, t):
        decl = self.mg.module.classes.get(getattr(t, "name", None))
        if decl is None or decl.kind not in ("class", "namedtuple"):
            raise NotNative(f"an object of {t}" + (f" (a {decl.kind})" if decl else ""))
        return decl

    def _field_ptr(self, obj, decl, name: str):
        from ember.llvm.layout import object_struct

        i = decl.field_index(name)
        if i is None:
            raise NotNative(f"field {name} of {decl.name}")
        return self.b.gep(obj, [I32(0), I32(i + 1)], inbounds=True,
                          source_etype=object_struct(decl)), decl.fields[i][1]

    def op_obj_new(self, op) -> None:
        from ember.llvm.layout import object_struct

        decl = self._decl(op.result.type)
        st = object_struct(decl)
        size = self.b.ptrtoint(self.b.gep(ir.Constant(PTR, None), [I32(1)], source_etype=st),
                               I64)
        obj = self.b.call(self.rt.malloc, [size])
        self.b.store(ir.Constant(st, None), obj)  # fields set later start as null / zero
        self.b.store(I64(1), obj)
        for (name, _), v in zip(decl.fields, self.transfer(op.operands)):
            self.b.store(v, self._field_ptr(obj, decl, name)[0])
        self.define(op.result, obj)

    def op_obj_get(self, op) -> None:
        decl = self._decl(op.operands[0].type)
        p, t = self._field_ptr(self.native(op.operands[0]), decl, op.attrs["field"])
        v = self.b.load(p, typ=lltype(t))
        self.retain(v, t)
        self.define(op.result, v)

    def op_obj_set(self, op) -> None:
        decl = self._decl(op.operands[0].type)
        p, t = self._field_ptr(self.native(op.operands[0]), decl, op.attrs["field"])
        (v,) = self.transfer(op.operands[1:])
        self.rt.release(self.b, self.b.load(p, typ=lltype(t)), t)
        self.b.store(v, p)

    # -- try / except / else / finally and the var slots they use ----------------------------------
    def op_var_new(self, op) -> None:
        t = op.result.type.elem
        s = self.slot(t)
        self.b.store(ir.Constant(lltype(t), None), s)
        if op.operands and op.operands[0].type != T.NONE:
            self.b.store(self._into_var(op.operands[0], t), s)
        self.vals[op.result] = Static("var", (s, t))
        if is_refcounted(t):
            self.scopes[-1].append(("slot", s, t))

    def _var(self, v):
        x = self.get(v)
        if not (isinstance(x, Static) and x.kind == "var"):
            raise NotNative("a var slot that is not this function's")
        return x.value

    def op_var_get(self, op) -> None:
        s, t = self._var(op.operands[0])
        x = self.load(s, t)
        self.retain(x, t)
        self.define(op.result, x)

    def op_var_set(self, op) -> None:
        s, t = self._var(op.operands[0])
        v = self._into_var(op.operands[1], t)
        self.rt.release(self.b, self.load(s, t), t)
        self.b.store(v, s)

    def _into_var(self, operand, t):
        """operand's value as a var of type t holds it: owned, and widened when t is the
        Optional of its type (a var keeps the declared Optional; the value may be plain)."""
        src = operand.type
        if src == t:
            (v,) = self.transfer([operand])
            return v
        if isinstance(t, T.OptionalType) and src == T.NONE:
            return ir.Constant(lltype(t), None)
        if isinstance(t, T.OptionalType) and src == t.elem:
            (v,) = self.transfer([operand])
            agg = ir.Constant(lltype(t), None)
            return self.b.insert_value(self.b.insert_value(agg, I8(1), 0), v, 1)
        raise NotNative(f"a var of {t} set to a {src}")

    def op_try(self, op) -> None:
        b = self.b
        fin = op.finally_region
        if fin is not None:
            self.finallies.append((fin, len(self.unwind), len(self.loops)))
        results = [self.slot(r.type) for r in op.results]
        depth = len(self.scopes)
        dispatch, after, merge = (b.append_basic_block(n) for n in
                                  ("try.dispatch", "try.after", "try.merge"))

        def store_results(vals):
            for s, v in zip(results, vals):
                self.b.store(v, s)
            self.b.branch(merge)
        guard = _Unwind("try", depth, dispatch)
        self.unwind.append(guard)
        self.emit_region(op.body, [], store_results if op.else_region is None else
                         (lambda vals: self.b.branch(after)))
        self.unwind.pop()
        reraise = b.append_basic_block("try.reraise") if fin is not None else None
        if fin is not None:
            self.unwind.append(_Unwind("finally", depth, reraise))
        b.position_at_end(dispatch)
        self._dispatch(op, guard.codes, store_results)
        b.position_at_end(after)
        if op.else_region is not None:
            self.emit_region(op.else_region, [], store_results)
        else:
            b.branch(merge)
        if fin is not None:
            self.unwind.pop()
            self.finallies.pop()
            b.position_at_end(reraise)
            self._skip_finally_on_deopt()
            pending = self._save_exception()  # calls in the region may raise and catch

            def propagate(vals):
                self._restore_exception(pending)
                self.error_exit()
            self.emit_region(fin, [], propagate)
        b.position_at_end(merge)
        if fin is not None:
            cont = b.append_basic_block("try.cont")
            self.emit_region(fin, [], lambda vals: self.b.branch(cont))
            b.position_at_end(cont)
        for r, s in zip(op.results, results):
            self.define(r, self.load(s, r.type))

    def _skip_finally_on_deopt(self) -> None:
        """A deopt passes a finally region by: the VM runs the whole call again anyway,
        and a `return` (or break, continue) in the region must not end the deopt."""
        from ember.llvm.module import DEOPT_CODE

        code = self.b.load(self._ctx_field((2,)), typ=I64)
        with self.b.if_then(self.b.icmp_signed("==", code, I64(DEOPT_CODE)), likely=False):
            self.error_exit()

    def _dispatch(self, op, codes: set, store_results) -> None:
        """Branch on the exception's class code to the first handler that matches it."""
        from ember.ops.scalar_builtins import exception_matches
        b = self.b
        regions = op.handler_regions()
        targets = {}
        if 0 in codes:  # a callee raised: its class code is any a site can record
            codes = set(codes) | set(range(1, self.mg.n_exc_codes() + 1))
        for code in sorted(c for c in codes if c <= self.mg.n_exc_codes()):  # (not deopt)
            cls = self.mg.exc_class(code)
            for k, names in enumerate(op.handlers):
                if _catches(names, cls, exception_matches):
                    targets[code] = k
                    break
            else:
                if code == 0 and any(not n or "Exception" in n or "BaseException" in n
                                     for n in op.handlers):
                    continue
                if code == 0:  # only if no native function raises an unknown class:
                    self.mg.needs_class[self.func.sym_name] = op.loc  # (module.py checks)
        code_v = b.trunc(b.load(b.gep(self.ctx, [I32(0), I32(2)], inbounds=True,
                                      source_etype=CTX), typ=I64), I32)
        unmatched = b.append_basic_block("try.unmatched")
        blocks = [b.append_basic_block(f"try.except{k}") for k in range(len(regions))]
        sw = b.switch(code_v, unmatched)
        for code, k in targets.items():
            sw.add_case(I32(code), blocks[k])
        b.position_at_end(unmatched)
        self.error_exit()
        for region, bb in zip(regions, blocks):
            b.position_at_end(bb)
            saved = self._save_exception()
            nf = b.gep(self.ctx, [I32(0), I32(1)], inbounds=True, source_etype=CTX)
            b.store(I32(0), nf)
            self.emit_region(region, [Static("caught", saved)], store_results)

    _EXC_FIELDS = [((0,), I32), ((1,), I32), ((2,), I64)] + \
        [((3, k), I64) for k in range(NPAYLOAD)]
    """The context's fields that describe the exception being handled: site, frame count,
    class code, payload (a handler saves them; `raise` of the caught exception restores)."""

    def _ctx_field(self, path):
        return self.b.gep(self.ctx, [I32(0)] + [I32(k) for k in path], inbounds=True,
                          source_etype=CTX)

    def _save_exception(self) -> list:
        saved = []
        for path, t in self._EXC_FIELDS:
            slot = self.alloca_b.alloca(t)
            self.b.store(self.b.load(self._ctx_field(path), typ=t), slot)
            saved.append((path, t, slot))
        return saved

    def _restore_exception(self, saved) -> None:
        for path, t, slot in saved:
            self.b.store(self.b.load(slot, typ=t), self._ctx_field(path))

    def _reraise(self, saved) -> None:
        self._restore_exception(saved)
        for u in self.unwind:
            u.codes.add(0)  # the class it was caught as: any a handler may catch

    def op_dict_new(self, op) -> None:
        from ember.llvm.ops_dict import dict_new

        dict_new(self, op)

    def op_isinstance(self, op) -> None:
        src, want = op.operands[0].type, op.attrs["type"]
        if isinstance(src, T.OptionalType) and want in (T.NONE, src.elem):
            x = self.native(op.operands[0])
            present = self.b.extract_value(x, 0)
            self.define(op.result, present if want == src.elem else
                        self.b.xor(present, I8(1)))
            return
        if src == want or T.is_subtype(src, want):
            self.define(op.result, I8(1))
            return
        raise NotNative(f"isinstance of {src} against {want}")


def _catches(names, cls, matches) -> bool:
    """Handler `names` catches an exception of class name cls (None: unknown class, caught
    only by a handler of every Exception)."""
    if cls is None:
        return not names or "Exception" in names or "BaseException" in names
    from ember.llvm.module import exc_class_by_name
    return matches(exc_class_by_name(cls)(), names)


def _const_int(v):
    from ember.ir.ops import ConstOp
    owner = getattr(v, "op", None)
    if isinstance(owner, ConstOp) and isinstance(owner.attrs.get("value"), int):
        return owner.attrs["value"]
    return None


def as_word(b, w):
    """A payload word (i64) holding w's bits."""
    if w.type == I64:
        return w
    if isinstance(w.type, ir.DoubleType):
        return b.bitcast(w, I64)
    if w.type in (I8, I1):
        return b.zext(w, I64)
    raise NotNative(f"payload of type {w.type}")


def _bool_if_tail(block):
    """The `if` whose one bool result the block's terminator yields (its last op), else
    None."""
    ops = block.ops
    if len(ops) < 2 or ops[-1].name not in ("yield", "condition") or len(ops[-1].operands) != 1:
        return None
    last = ops[-2]
    if last.name != "if" or len(last.results) != 1 or ops[-1].operands[0] is not last.results[0]:
        return None
    return last if last.results[0].type == T.BOOL else None


STRUCTURAL = {
    "const": FunctionGen.op_const, "return": FunctionGen.op_return,
    "yield": FunctionGen.op_yield, "condition": FunctionGen.op_condition,
    "unreachable": FunctionGen.op_unreachable, "raise": FunctionGen.op_raise,
    "if": FunctionGen.op_if, "for": FunctionGen.op_for, "while": FunctionGen.op_while,
    "break": FunctionGen.op_break, "continue": FunctionGen.op_continue,
    "call": FunctionGen.op_call, "closure": FunctionGen.op_closure,
    "call_indirect": FunctionGen.op_call_indirect, "tuple.new": FunctionGen.op_tuple_new,
    "tuple.get": FunctionGen.op_tuple_get, "list.new": FunctionGen.op_list_new,
    "widen": FunctionGen.op_widen, "narrow": FunctionGen.op_narrow,
    "isinstance": FunctionGen.op_isinstance, "obj.new": FunctionGen.op_obj_new,
    "obj.get": FunctionGen.op_obj_get, "obj.set": FunctionGen.op_obj_set,
    "dict.new": FunctionGen.op_dict_new,
    "try": FunctionGen.op_try, "var.new": FunctionGen.op_var_new,
    "var.get": FunctionGen.op_var_get, "var.set": FunctionGen.op_var_set,
}
"""Structural IR ops → emitter (kernel ops: ops_table.EMITTERS)."""
