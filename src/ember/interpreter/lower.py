"""Lowering: IR module -> bytecode Program (ember.mobile.program).

Each function is register-allocated (regalloc.py) and walked once. Structured
ops become the bytecode's structured jumps: `if` -> IF/ELSE/END, `for` ->
FOR/END, `while` -> LOOP/TEST/END, a loop's else region -> LOOPELSE/END,
`try` -> TRY/EXCEPT/TRYELSE/FINALLY/END. Values flowing out of regions
(yield, break, continue) become register moves, sequentialized as parallel
moves. Constants are loaded once at function entry. Every instruction
carries the source line of the op it came from.
"""

from __future__ import annotations

from ember.errors import LoweringError
from ember.interpreter.mutation import mutates_tensors
from ember.interpreter.regalloc import allocate, const_key, walk_lowered
from ember.ir import types as T
from ember.ir.core import SymbolRef
from ember.ir.ops import (
    BreakOp, CallIndirectOp, CallOp, ClosureOp, ConditionOp, ConstOp, ContinueOp, DictNewOp,
    ForOp, FuncOp, FusedOp, IfOp, IsInstanceOp, KernelOp, ListNewOp, NarrowOp, ObjGetOp, ObjNewOp,
    ObjSetOp, RaiseOp, ReturnOp, TryOp, TupleGetOp, TupleNewOp, UnreachableOp, VarGetOp,
    VarNewOp, VarSetOp,
    WhileOp, WidenOp, YieldOp,
)
from ember.mobile import opcodes as OPC
from ember.mobile.program import Function


class ProgramContext:
    """Module-wide tables shared by every function's lowering."""

    def __init__(self, module):
        self.module = module
        self.func_index = {name: i for i, name in enumerate(module.funcs)}
        self.operators: list[str] = []
        self._op_index: dict[str, int] = {}
        self.class_index = {name: i for i, name in enumerate(module.classes)}
        self.tensors, self.objects = _live_symbols(module)
        self.tensor_index = {name: i for i, name in enumerate(self.tensors)}
        self.object_index = {name: i for i, name in enumerate(self.objects)}
        self.sources: list[tuple[str, str]] = []
        self._source_index: dict[str, int] = {}

    def operator(self, name: str) -> int:
        i = self._op_index.get(name)
        if i is None:
            i = self._op_index[name] = len(self.operators)
            self.operators.append(name)
        return i

    def source(self, filename: str) -> int:
        i = self._source_index.get(filename)
        if i is None:
            i = self._source_index[filename] = len(self.sources)
            text = self.module.sources.get(filename)
            self.sources.append((filename, text if text is not None else _read_source(filename)))
        return i


def _read_source(filename: str) -> str:
    import linecache

    return "".join(linecache.getlines(filename))


class FunctionLowering:
    """Lowers one FuncOp to a bytecode Function."""

    def __init__(self, f: FuncOp, ctx: ProgramContext):
        self.f = f
        self.ctx = ctx
        self.alloc = allocate(f)
        self.code: list[int] = []
        self.lines: list[tuple[int, int]] = []
        self.sites: dict[tuple, int] = {}
        """Inlined call chain (Loc.inlined) -> its site index in Function.sites (1-based)."""
        self.site_pcs: list[tuple[int, int]] = []
        self._site_rows: list[tuple[str, int, int]] = []
        self.consts: list = []
        self._const_index: dict = {}
        self.loc = f.loc
        self.loop_stack: list = []
        self.frees = _frees(f, self.alloc)

    # -- emission helpers ---------------------------------------------------------------------
    def reg(self, v) -> int:
        return self.alloc.reg[v]

    def emit(self, opcode, *operands) -> int:
        """Append one instruction; returns its pc (for patching jump targets)."""
        pc = len(self.code)
        self.code.append(int(opcode))
        self.code.extend(int(x) for x in operands)
        line = self.loc.line if not self.loc.is_unknown else 0
        src = self.ctx.source(self.loc.file) if not self.loc.is_unknown else -1
        self.lines.append((pc, src, line))
        site = self.site(self.loc.inlined)
        if (self.site_pcs[-1][1] if self.site_pcs else 0) != site:
            self.site_pcs.append((pc, site))
        return pc

    def site(self, chain: tuple) -> int:
        """The site index of an inlined call chain (0 for none), added with its parents."""
        if not chain:
            return 0
        i = self.sites.get(chain)
        if i is None:
            parent = self.site(chain[:-1])
            i = self.sites[chain] = len(self.sites) + 1
            name, call_line, callee_file = chain[-1]
            self._site_rows.append((name, call_line, parent, self.ctx.source(callee_file)))
        return i

    def emit_var(self, opcode, fixed, regs) -> int:
        return self.emit(opcode, *fixed, len(regs), *regs)

    def patch(self, pc: int, operand_index: int, value: int) -> None:
        self.code[pc + 1 + operand_index] = value

    def const_index(self, value) -> int:
        key = (type(value).__name__, repr(value))
        i = self._const_index.get(key)
        if i is None:
            i = self._const_index[key] = len(self.consts)
            self.consts.append(value)
        return i

    def moves(self, dsts, srcs) -> None:
        """Parallel move dst[i] := src[i], using a scratch register for cycles."""
        pending = [(d, s) for d, s in zip(dsts, srcs) if d != s]
        while pending:
            ready = [(d, s) for d, s in pending if d not in {s2 for _, s2 in pending}]
            if ready:
                d, s = ready[0]
                self.emit(OPC.Op.MOVE, d, s)
                pending.remove((d, s))
                continue
            d, s = pending[0]
            tmp = self.scratch()
            self.emit(OPC.Op.MOVE, tmp, s)
            pending = [(d2, tmp if s2 == s else s2) for d2, s2 in pending]

    def scratch(self) -> int:
        if not hasattr(self, "_scratch"):
            self._scratch = self.alloc.nregs
            self.alloc.nregs += 1
        return self._scratch

    # -- function ------------------------------------------------------------------------------
    def run(self) -> Function:
        for reg, op in self.alloc.consts:
            self.loc = op.loc
            self.emit(OPC.Op.LOADK, reg, self._const_operand(op))
        self.lower_block(self.f.body)
        ft = self.f.type
        return Function(
            name=self.f.sym_name, params=[a.name or f"arg{i}" for i, a in enumerate(self.f.args)],
            param_types=[str(t) for t in ft.params], ret_type=str(ft.ret),
            nregs=self.alloc.nregs, code=self.code, consts=self.consts, lines=self.lines,
            defaults=list(self.f.defaults), qualname=str(self.f.attrs.get("qualname", "")),
            sites=self._site_rows, site_pcs=self.site_pcs)

    def _const_operand(self, op: ConstOp) -> int:
        v = op.value
        if isinstance(v, SymbolRef):
            if v.name in self.ctx.tensor_index:
                return self.const_index(("tensor", self.ctx.tensor_index[v.name]))
            return self.const_index(("object", self.ctx.object_index[v.name]))
        return self.const_index(v)

    def lower_block(self, block) -> None:
        for op in block.ops:
            self.loc = op.loc
            handler = _HANDLERS.get(type(op))
            if handler is None:
                raise LoweringError(f"cannot lower op '{op.name}'")
            handler(self, op)
            for r in self.frees.get(op, ()):
                self.emit(OPC.Op.FREE, r)

    # -- simple ops ----------------------------------------------------------------------------
    def lower_const(self, op) -> None:
        pass  # hoisted to the function entry

    def lower_kernel(self, op: KernelOp) -> None:
        args = [self.reg(v) for v in op.operands]
        self.emit_var(OPC.Op.KCALL, (self.reg(op.result), self.ctx.operator(op.name)), args)

    def lower_fused(self, op: FusedOp) -> None:
        """FUSED with the group's constant (its region as steps: mobile/fused.py); a group
        with several outputs returns a tuple, taken apart by TGETs."""
        args = [self.reg(v) for v in op.operands]
        k = self.const_index(fused_spec(op))
        if len(op.results) == 1:
            self.emit_var(OPC.Op.FUSED, (self.reg(op.result), k), args)
            return
        tmp = self.scratch()
        self.emit_var(OPC.Op.FUSED, (tmp, k), args)
        for i, r in enumerate(op.results):
            self.emit(OPC.Op.TGET, self.reg(r), tmp, i)

    def lower_call(self, op: CallOp) -> None:
        args = [self.reg(v) for v in op.operands]
        fn = self.ctx.func_index[op.callee]
        self.emit_var(OPC.Op.CALL, (self.reg(op.result), fn), args)

    def lower_closure(self, op: ClosureOp) -> None:
        args = [self.reg(v) for v in op.operands]
        fn = self.ctx.func_index[op.callee]
        self.emit_var(OPC.Op.CLOSURE, (self.reg(op.result), fn), args)

    def lower_call_indirect(self, op: CallIndirectOp) -> None:
        f, *args = [self.reg(v) for v in op.operands]
        self.emit_var(OPC.Op.CALLI, (self.reg(op.result), f), args)

    def lower_tuple_new(self, op) -> None:
        self.emit_var(OPC.Op.TUPLE, (self.reg(op.result),), [self.reg(v) for v in op.operands])

    def lower_tuple_get(self, op) -> None:
        self.emit(OPC.Op.TGET, self.reg(op.result), self.reg(op.operands[0]), op.attrs["index"])

    def lower_list_new(self, op) -> None:
        self.emit_var(OPC.Op.LIST, (self.reg(op.result),), [self.reg(v) for v in op.operands])

    def lower_dict_new(self, op) -> None:
        regs = [self.reg(v) for v in op.operands]
        self.emit(OPC.Op.DICT, self.reg(op.result), len(regs) // 2, *regs)

    def lower_obj_new(self, op) -> None:
        cls = self.ctx.class_index[op.result.type.name]
        self.emit_var(OPC.Op.NEWOBJ, (self.reg(op.result), cls),
                      [self.reg(v) for v in op.operands])

    def _field(self, obj_type, name) -> int:
        decl = self.ctx.module.classes[obj_type.name]
        return decl.field_index(name)

    def lower_obj_get(self, op) -> None:
        o = op.operands[0]
        self.emit(OPC.Op.GETF, self.reg(op.result), self.reg(o), self._field(o.type, op.attrs["field"]))

    def lower_obj_set(self, op) -> None:
        o, v = op.operands
        self.emit(OPC.Op.SETF, self.reg(o), self._field(o.type, op.attrs["field"]), self.reg(v))

    def lower_widen(self, op) -> None:
        self.moves([self.reg(op.result)], [self.reg(op.operands[0])])

    def lower_narrow(self, op) -> None:
        t = self.const_index(("type", str(op.result.type)))
        self.emit(OPC.Op.NARROW, self.reg(op.result), self.reg(op.operands[0]), t)

    def lower_isinstance(self, op) -> None:
        t = self.const_index(("type", str(op.attrs["type"])))
        self.emit(OPC.Op.ISINST, self.reg(op.result), self.reg(op.operands[0]), t)

    def lower_var_new(self, op) -> None:
        if op.operands:
            self.moves([self.reg(op.result)], [self.reg(op.operands[0])])
        else:  # unassigned: the frontend guards every read (a loop variable's bound flag)
            self.emit(OPC.Op.LOADK, self.reg(op.result), self.const_index(None))

    def lower_var_get(self, op) -> None:
        self.moves([self.reg(op.result)], [self.reg(op.operands[0])])

    def lower_var_set(self, op) -> None:
        self.moves([self.reg(op.operands[0])], [self.reg(op.operands[1])])

    # -- terminators ------------------------------------------------------------------------------
    def lower_return(self, op) -> None:
        self.emit(OPC.Op.RETURN, self.reg(op.operands[0]))

    def lower_raise(self, op) -> None:
        self.emit(OPC.Op.RAISE, self.reg(op.operands[0]))

    def lower_unreachable(self, op) -> None:
        self.emit(OPC.Op.UNREACHABLE)

    def lower_yield(self, op: YieldOp) -> None:
        parent = op.parent_op()
        fin = parent.finally_region if isinstance(parent, TryOp) else None
        if fin is not None and op.parent is fin.block:
            return
        self.moves([self.reg(r) for r in parent.results], [self.reg(v) for v in op.operands])

    def lower_condition(self, op: ConditionOp) -> None:
        self.emit(OPC.Op.TEST, self.reg(op.operands[0]))

    def _exit_moves(self, op) -> None:
        loop = self.loop_stack[-1]
        self.moves([self.reg(r) for r in loop.results], [self.reg(v) for v in op.operands])

    def lower_break(self, op) -> None:
        self._exit_moves(op)
        self.emit(OPC.Op.BREAK)

    def lower_continue(self, op) -> None:
        self._exit_moves(op)
        self.emit(OPC.Op.CONTINUE)

    # -- structured ops ---------------------------------------------------------------------------
    def lower_if(self, op: IfOp) -> None:
        then_r, else_r = op.regions
        pc_if = self.emit(OPC.Op.IF, self.reg(op.operands[0]), 0)
        self.lower_region(then_r)
        if _is_empty_yield(else_r, op):
            self.patch(pc_if, 1, len(self.code))
            self.loc = op.loc
            self.emit(OPC.Op.END)
            return
        self.loc = op.loc
        pc_else = self.emit(OPC.Op.ELSE, 0)
        self.patch(pc_if, 1, pc_else)
        self.lower_region(else_r)
        self.loc = op.loc
        self.patch(pc_else, 0, len(self.code))
        self.emit(OPC.Op.END)

    def lower_region(self, region) -> None:
        self.lower_block(region.block)

    def lower_for(self, op: ForOp) -> None:
        lo, hi, step = (self.reg(v) for v in op.operands[:3])
        self.moves([self.reg(r) for r in op.results], [self.reg(v) for v in op.inits])
        iv = self.reg(op.body.block.args[0])
        pc = self.emit(OPC.Op.FOR, iv, lo, hi, step, 0)
        self._loop_body(op, op.body, pc, 4)

    def lower_while(self, op: WhileOp) -> None:
        self.moves([self.reg(r) for r in op.results], [self.reg(v) for v in op.inits])
        pc = self.emit(OPC.Op.LOOP, 0)
        self.loop_stack.append(op)
        self.lower_region(op.cond)
        self.loop_stack.pop()
        self._loop_body(op, op.body, pc, 0)

    def _loop_body(self, op, body, pc_head, jump_operand) -> None:
        self.loop_stack.append(op)
        self.lower_region(body)
        self.loop_stack.pop()
        self.loc = op.loc
        self.patch(pc_head, jump_operand, len(self.code))
        self.emit(OPC.Op.END)
        if op.else_region is not None:
            pc_else = self.emit(OPC.Op.LOOPELSE, 0)
            self.lower_region(op.else_region)
            self.loc = op.loc
            self.patch(pc_else, 0, len(self.code))
            self.emit(OPC.Op.END)

    def lower_try(self, op: TryOp) -> None:
        pc_try = self.emit(OPC.Op.TRY, 0)
        self.lower_region(op.body)
        for names, region in zip(op.handlers, op.handler_regions()):
            self.loc = op.loc
            ks = [self.const_index(n) for n in names]
            e = self.reg(region.block.args[0])
            pc_h = self.emit(OPC.Op.EXCEPT, e, len(ks), *ks, 0)
            self.lower_region(region)
            self.patch(pc_h, 2 + len(ks), len(self.code))
        if op.else_region is not None:
            self.loc = op.loc
            self.emit(OPC.Op.TRYELSE)
            self.lower_region(op.else_region)
        if op.finally_region is not None:
            self.loc = op.loc
            self.emit(OPC.Op.FINALLY)
            self.lower_region(op.finally_region)
        self.loc = op.loc
        self.patch(pc_try, 0, len(self.code))
        self.emit(OPC.Op.END)


_TERMINATORS = (YieldOp, BreakOp, ContinueOp, ConditionOp, ReturnOp, RaiseOp, UnreachableOp)


def holds_tensors(t) -> bool:
    """Can a value of type t keep a tensor alive (a tensor, or a container or optional
    that may hold one)?"""
    if isinstance(t, T.TensorType):
        return True
    if isinstance(t, (T.ListType, T.SetType, T.IterType, T.OptionalType)):
        return holds_tensors(t.elem)
    if isinstance(t, T.DictType):
        return holds_tensors(t.value)
    if isinstance(t, T.TupleType):
        return any(holds_tensors(e) for e in t.elems)
    if isinstance(t, T.UnionType):
        return any(holds_tensors(m) for m in t.members)
    return False


def _frees(f: FuncOp, alloc) -> dict:
    """Op -> the registers to clear (FREE) right after its instructions: those of the
    values that may hold a tensor and die at that op (their last use, or their definition
    when nothing reads them), unless the op writes the register itself. A register keeps
    its value until the allocator gives it to another one, which may be much later: a
    training step's backward would keep each forward activation it has finished with
    alive until then. A value made outside an `if` and dying inside it (read last in a
    branch, or moved into the if's result) is also cleared after the `if`. Values moved
    out of other regions (a break, continue, loop yield or return is their last use) or
    dying right before a return (the frame's values go with it), and function arguments
    (the caller holds them) are left alone.

    Sound by the allocation's intervals: a value live after the op and defined before it
    interferes with the dying one, so it has another register; one defined inside the op's
    regions cannot be live after it; one defined by the op is excluded here."""
    at: dict = {}
    before_return = set()  # ops a return follows: the frame's values go with it
    for op in walk_lowered(f):
        s, e = alloc.pos.get(op, (None, None))
        at[s] = op
        at[e] = op
        for r in op.regions:
            ops = r.block.ops
            if len(ops) > 1 and isinstance(ops[-1], ReturnOp):
                before_return.add(ops[-2])

    def inside(v, op) -> bool:
        s, e = alloc.pos[op]
        return s <= alloc.pos[v.op][0] < e

    def clear_after(v, user) -> bool:
        """Is clearing v's register after `user` worth it and sound?"""
        if user is None or isinstance(user, _TERMINATORS) or user in before_return:
            return False
        if isinstance(user, WidenOp) and user.result is not v and not dying_at(user.result):
            return False  # the same object lives on until the frame goes
        reg = alloc.reg[v]
        return not any(alloc.reg.get(r) == reg for r in user.results if r is not v)

    def dying_at(v) -> list:
        """The ops after which v's register is cleared: where it dies, and when that is
        inside `if` branches made after v, after the outermost such `if` too (a branch
        that does not read v leaves it in its register)."""
        last = alloc.last_use.get(v)
        user = v.op if last is None else at.get(last)
        if user is None:
            return []
        out = [user] if clear_after(v, user) else []
        outer, p = None, user.parent_op()
        while isinstance(p, IfOp) and not inside(v, p):
            outer, p = p, p.parent_op()
        if outer is not None and clear_after(v, outer):
            out.append(outer)
        return out

    out: dict = {}
    for op in walk_lowered(f):
        if op is f or isinstance(op, ConstOp):
            continue
        for v in op.results:
            if v in alloc.reg and holds_tensors(v.type):
                for user in dying_at(v):
                    out.setdefault(user, []).append(alloc.reg[v])
    return out


def _is_empty_yield(region, op) -> bool:
    ops = region.block.ops
    if len(ops) != 1 or not isinstance(ops[0], YieldOp):
        return False
    return not op.results


_HANDLERS = {
    ConstOp: FunctionLowering.lower_const, KernelOp: FunctionLowering.lower_kernel,
    CallOp: FunctionLowering.lower_call, ClosureOp: FunctionLowering.lower_closure,
    CallIndirectOp: FunctionLowering.lower_call_indirect,
    TupleNewOp: FunctionLowering.lower_tuple_new, TupleGetOp: FunctionLowering.lower_tuple_get,
    ListNewOp: FunctionLowering.lower_list_new, DictNewOp: FunctionLowering.lower_dict_new,
    ObjNewOp: FunctionLowering.lower_obj_new, ObjGetOp: FunctionLowering.lower_obj_get,
    ObjSetOp: FunctionLowering.lower_obj_set, WidenOp: FunctionLowering.lower_widen,
    NarrowOp: FunctionLowering.lower_narrow, IsInstanceOp: FunctionLowering.lower_isinstance,
    VarNewOp: FunctionLowering.lower_var_new, VarGetOp: FunctionLowering.lower_var_get,
    VarSetOp: FunctionLowering.lower_var_set, ReturnOp: FunctionLowering.lower_return,
    RaiseOp: FunctionLowering.lower_raise, YieldOp: FunctionLowering.lower_yield,
    ConditionOp: FunctionLowering.lower_condition, BreakOp: FunctionLowering.lower_break,
    ContinueOp: FunctionLowering.lower_continue, IfOp: FunctionLowering.lower_if,
    ForOp: FunctionLowering.lower_for, WhileOp: FunctionLowering.lower_while,
    TryOp: FunctionLowering.lower_try, UnreachableOp: FunctionLowering.lower_unreachable,
    FusedOp: FunctionLowering.lower_fused,
}


def fused_spec(op: FusedOp) -> tuple:
    """The FUSED constant of a fused op: ("fused", input count, region constants, steps
    (operator name, value indices), output value indices); values are numbered inputs
    first, then constants, then steps."""
    body = op.body
    index = {a: i for i, a in enumerate(body.args)}
    consts = [o for o in body.ops if isinstance(o, ConstOp)]
    for o in consts:
        index[o.result] = len(index)
    steps = []
    for o in body.ops[:-1]:
        if isinstance(o, KernelOp):
            steps.append((o.name, tuple(index[v] for v in o.operands)))
            index[o.result] = len(index)
    outputs = tuple(index[v] for v in body.ops[-1].operands)
    return ("fused", len(body.args), tuple(o.value for o in consts), tuple(steps), outputs)


def lower_module(module):
    """The bytecode Program for an (optimized, verified) IR module."""
    from ember import __version__
    from ember.mobile.program import Program

    ctx = ProgramContext(module)
    functions = [FunctionLowering(f, ctx).run() for f in module.funcs.values()]
    entries = {name: ctx.func_index[name] for name in module.entries}
    classes = [(c.name, [n for n, _ in c.fields], [str(t) for _, t in c.fields], c.kind,
                {n: ctx.func_index[s] for n, s in c.methods.items()})
               for c in module.classes.values()]
    tensors = [(name, module.tensors[name].data) for name in ctx.tensors]
    objects = [(ctx.class_index[module.objects[name].cls],
                [_object_value(v, ctx) for v in module.objects[name].values])
               for name in ctx.objects]
    return Program(functions=functions, operators=ctx.operators, classes=classes,
                   tensors=tensors, objects=objects, mutable_tensors=mutates_tensors(module),
                   sources=_used_lines(ctx.sources, functions), entries=entries,
                   producer=f"ember {__version__}")


def _used_lines(sources, functions):
    """Each source with only the lines some instruction maps to (the others blank, so line
    numbers stay): tracebacks and disassembly quote no other line, and a model's artifact
    does not carry the whole text of every library file it touched."""
    used: dict = {}
    for f in functions:
        for _, src, line in f.lines:
            if src >= 0 and line > 0:
                used.setdefault(src, set()).add(line)
    out = []
    for i, (filename, text) in enumerate(sources):
        keep = used.get(i, set())
        lines = text.splitlines()
        last = max(keep, default=0)
        out.append((filename, "\n".join(lines[n - 1] if n in keep and n <= len(lines) else ""
                                          for n in range(1, last + 1)) + "\n"))
    return out


def _live_symbols(module):
    """The tensors and objects the functions reach (through `const @x` and object fields),
    each list in module order, so objects still come after the objects they refer to."""
    live: set = set()
    stack = [op.value.name for op in module.walk()
             if isinstance(op, ConstOp) and isinstance(op.value, SymbolRef)]
    # an Enum's members (the constant objects of a plain class) stay while their class
    # does: a member passed in from Python is looked up among them (prune.py drops them
    # with their class)
    stack += [n for n, o in module.objects.items()
              if getattr(module.classes.get(o.cls), "kind", None) == "class"]
    while stack:
        name = stack.pop()
        if name in live:
            continue
        live.add(name)
        obj = module.objects.get(name)
        if obj is not None:
            stack.extend(_refs(obj.values))
    return ([n for n in module.tensors if n in live], [n for n in module.objects if n in live])


def _refs(values):
    for v in values:
        if isinstance(v, SymbolRef):
            yield v.name
        elif isinstance(v, (list, tuple)):
            yield from _refs(v)
        elif isinstance(v, dict):
            yield from _refs(v.keys())
            yield from _refs(v.values())


def _object_value(v, ctx):
    from ember.mobile.program import Ref

    if isinstance(v, SymbolRef):
        if v.name in ctx.tensor_index:
            return Ref("tensor", ctx.tensor_index[v.name])
        return Ref("object", ctx.object_index[v.name])
    if isinstance(v, list):
        return [_object_value(x, ctx) for x in v]
    if isinstance(v, tuple):
        return tuple(_object_value(x, ctx) for x in v)
    if isinstance(v, dict):
        return {_object_value(k, ctx): _object_value(x, ctx) for k, x in v.items()}
    return v


__all__ = ["lower_module", "FunctionLowering", "ProgramContext", "const_key", "T"]
