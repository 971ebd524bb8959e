"""The bytecode verifier: everything is checked before the first instruction runs.

`verify_function` decodes a function into a tree of structured nodes (the
translator's input) while checking: opcodes and operand counts, every
register/constant/operator/function/class index, that jumps name their
matching markers and nest, nesting limits, TEST only ending a loop condition,
BREAK/CONTINUE only inside a loop body, call arities, exception-class and type
constants, definite assignment (no register read before it is written on
every path) and that no path falls off the end of the function.
"""

from __future__ import annotations

from ember.errors import ArtifactError
from ember.mobile import opcodes as O
from ember.mobile.opcodes import Op
from ember.mobile.types import TypeSyntaxError, parse as parse_type

_MARKERS = {Op.ELSE, Op.END, Op.TEST, Op.EXCEPT, Op.TRYELSE, Op.FINALLY}
_EXITS = {Op.BREAK, Op.CONTINUE, Op.RETURN, Op.RAISE, Op.UNREACHABLE}


class Ins:
    """A straight-line instruction (or an exit)."""

    __slots__ = ("pc", "op", "args")

    def __init__(self, pc, op, args):
        self.pc, self.op, self.args = pc, op, args


class If:
    __slots__ = ("pc", "cond", "then", "orelse")

    def __init__(self, pc, cond, then, orelse):
        self.pc, self.cond, self.then, self.orelse = pc, cond, then, orelse


class While:
    __slots__ = ("pc", "cond_code", "test", "body", "orelse")

    def __init__(self, pc, cond_code, test, body, orelse):
        self.pc, self.cond_code, self.test, self.body, self.orelse = (
            pc, cond_code, test, body, orelse)


class For:
    __slots__ = ("pc", "iv", "lo", "hi", "step", "body", "orelse")

    def __init__(self, pc, iv, lo, hi, step, body, orelse):
        self.pc, self.iv, self.lo, self.hi, self.step = pc, iv, lo, hi, step
        self.body, self.orelse = body, orelse


class Try:
    __slots__ = ("pc", "body", "handlers", "orelse", "final")

    def __init__(self, pc, body, handlers, orelse, final):
        self.pc, self.body, self.handlers, self.orelse, self.final = (
            pc, body, handlers, orelse, final)


class Handler:
    __slots__ = ("pc", "reg", "classes", "body")

    def __init__(self, pc, reg, classes, body):
        self.pc, self.reg, self.classes, self.body = pc, reg, classes, body


class _Fail(Exception):
    pass


def verify_program(program, exception_names) -> list:
    """Verify every function; returns each function's node tree. Raises ArtifactError."""
    trees = []
    for i, f in enumerate(program.functions):
        try:
            trees.append(_FunctionVerifier(program, f, exception_names).run())
        except _Fail as e:
            raise ArtifactError(f"bad bytecode in function {i} ({f.name!r}): {e}") from None
    return trees


class _FunctionVerifier:
    def __init__(self, program, f, exception_names):
        self.p = program
        self.f = f
        self.code = f.code
        self.exc_names = exception_names
        self.max_fields = max((len(c.fields) for c in program.classes), default=0)

    def fail(self, pc, msg):
        raise _Fail(f"pc {pc}: {msg}")

    def run(self):
        if self.f.nregs < len(self.f.params) or self.f.nregs > O.MAX_REGISTERS:
            raise _Fail(f"register count {self.f.nregs} is out of range")
        nodes, pc, marker = self.block(0, depth=0, blocks=0, loop=None)
        if marker is not None:
            self.fail(pc, f"unexpected {marker.name}")
        out = self.assigned(nodes, (1 << len(self.f.params)) - 1)
        if out is not None:
            raise _Fail("control reaches the end of the function without RETURN")
        return nodes

    # -- decoding -----------------------------------------------------------------------------
    def decode(self, pc):
        code = self.code
        if not 0 <= code[pc] < len(Op):
            self.fail(pc, f"unknown opcode {code[pc]}")
        op = Op(code[pc])
        args, i = [], pc + 1
        for kind in O.LAYOUT[op]:
            if i >= len(code):
                self.fail(pc, f"{op.name} runs past the end of the code")
            if kind[0] == "*":
                n = code[i]
                width = 2 * n if kind == "*p" else n
                if n < 0 or i + 1 + width > len(code):
                    self.fail(pc, f"{op.name} has a bad operand count {n}")
                vals = list(code[i + 1:i + 1 + width])
                for v in vals:
                    self.check_index(pc, op, kind[1], v)
                args.append(vals)
                i += 1 + width
            else:
                self.check_index(pc, op, kind, code[i])
                args.append(code[i])
                i += 1
        return op, args, i

    def check_index(self, pc, op, kind, v):
        limit = {"r": self.f.nregs, "k": len(self.f.consts), "f": len(self.p.operators),
                 "n": len(self.p.functions), "c": len(self.p.classes),
                 "j": len(self.code) + 1, "i": max(self.max_fields, 1 << 20),
                 "p": self.f.nregs}[kind]
        if not 0 <= v < limit:
            self.fail(pc, f"{op.name} operand {v} out of range (kind {kind!r}, limit {limit})")

    # -- structure ------------------------------------------------------------------------------
    def block(self, pc, depth, blocks, loop):
        """Decode until a marker; returns (nodes, pc of the marker, marker opcode or None)."""
        nodes = []
        if depth > O.MAX_NESTING or blocks > O.MAX_BLOCK_DEPTH:
            self.fail(pc, "structures nest too deeply")
        while pc < len(self.code):
            op, args, nxt = self.decode(pc)
            if op in _MARKERS:
                return nodes, pc, op
            node, pc = self.structure(pc, op, args, nxt, depth, blocks, loop)
            nodes.append(node)
        return nodes, pc, None

    def structure(self, pc, op, args, nxt, depth, blocks, loop):
        if op is Op.IF:
            return self.if_(pc, args, nxt, depth, blocks, loop)
        if op is Op.LOOP:
            return self.while_(pc, args, nxt, depth, blocks)
        if op is Op.FOR:
            return self.for_(pc, args, nxt, depth, blocks)
        if op is Op.TRY:
            return self.try_(pc, args, nxt, depth, blocks, loop)
        if op is Op.LOOPELSE:
            self.fail(pc, "LOOPELSE does not follow a loop's END")
        if op in (Op.BREAK, Op.CONTINUE) and loop != "body":
            self.fail(pc, f"{op.name} outside a loop body")
        self.check_operands(pc, op, args)
        return Ins(pc, op, args), nxt

    def expect_end(self, marker, mpc, jump, what, pc):
        if marker is not Op.END:
            self.fail(pc, f"{what} is not closed by END")
        if jump != mpc:
            self.fail(pc, f"{what} jumps to {jump}, but its END is at {mpc}")
        return mpc + 1

    def if_(self, pc, args, nxt, depth, blocks, loop):
        cond, jump = args
        then, mpc, marker = self.block(nxt, depth + 1, blocks, loop)
        if jump != mpc:
            self.fail(pc, f"IF jumps to {jump}, but its ELSE/END is at {mpc}")
        orelse = None
        if marker is Op.ELSE:
            _, (jend,), after = self.decode(mpc)
            orelse, epc, emarker = self.block(after, depth + 1, blocks, loop)
            return If(pc, cond, then, orelse), self.expect_end(emarker, epc, jend, "ELSE", mpc)
        return If(pc, cond, then, orelse), self.expect_end(marker, mpc, jump, "IF", pc)

    def loop_else(self, pc, depth, blocks, loop):
        if pc < len(self.code) and self.code[pc] == Op.LOOPELSE:
            _, (jend,), nxt = self.decode(pc)
            nodes, mpc, marker = self.block(nxt, depth + 1, blocks, loop)
            return nodes, self.expect_end(marker, mpc, jend, "LOOPELSE", pc)
        return None, pc

    def while_(self, pc, args, nxt, depth, blocks):
        (jend,) = args
        cond, tpc, marker = self.block(nxt, depth + 1, blocks + 1, "cond")
        if marker is not Op.TEST:
            self.fail(pc, "LOOP has no TEST ending its condition")
        _, (test,), after = self.decode(tpc)
        body, mpc, marker = self.block(after, depth + 1, blocks + 1, "body")
        end = self.expect_end(marker, mpc, jend, "LOOP", pc)
        orelse, end = self.loop_else(end, depth, blocks, None)
        return While(pc, cond, test, body, orelse), end

    def for_(self, pc, args, nxt, depth, blocks):
        iv, lo, hi, step, jend = args
        body, mpc, marker = self.block(nxt, depth + 1, blocks + 1, "body")
        end = self.expect_end(marker, mpc, jend, "FOR", pc)
        orelse, end = self.loop_else(end, depth, blocks, None)
        return For(pc, iv, lo, hi, step, body, orelse), end

    def try_(self, pc, args, nxt, depth, blocks, loop):
        (jend,) = args
        body, mpc, marker = self.block(nxt, depth + 1, blocks + 1, loop)
        handlers, orelse, final = [], None, None
        while marker is Op.EXCEPT:
            _, (reg, ks, jnext), after = self.decode(mpc)
            names = [self.exception_name(mpc, k) for k in ks]
            hbody, npc, marker = self.block(after, depth + 1, blocks + 1, loop)
            if jnext != npc:
                self.fail(mpc, f"EXCEPT jumps to {jnext}, but the next marker is at {npc}")
            handlers.append(Handler(mpc, reg, names, hbody))
            mpc = npc
        if marker is Op.TRYELSE:
            if not handlers:
                self.fail(mpc, "TRYELSE without EXCEPT")
            orelse, mpc, marker = self.block(mpc + 1, depth + 1, blocks + 1, loop)
        if marker is Op.FINALLY:
            final, mpc, marker = self.block(mpc + 1, depth + 1, blocks + 1, loop)
        if not handlers and final is None:
            self.fail(pc, "TRY needs an EXCEPT or a FINALLY")
        return Try(pc, body, handlers, orelse, final), self.expect_end(marker, mpc, jend,
                                                                        "TRY", pc)

    def exception_name(self, pc, k):
        name = self.f.consts[k]
        if not isinstance(name, str) or name not in self.exc_names:
            self.fail(pc, f"EXCEPT names {name!r}, which is not a known exception class")
        return name

    # -- per-instruction checks -----------------------------------------------------------------
    def check_operands(self, pc, op, args):
        if op is Op.KCALL:
            name = self.p.operators[args[1]]
            want = _operator_arity(name)
            if want is None:
                self.fail(pc, f"KCALL of unknown operator {name!r}")
            if len(args[2]) != want:
                self.fail(pc, f"KCALL of {name} passes {len(args[2])} arguments, it takes {want}")
        elif op is Op.CALL:
            callee = self.p.functions[args[1]]
            if len(args[2]) != callee.nparams:
                self.fail(pc, f"CALL of {callee.name!r} passes {len(args[2])} arguments, it "
                              f"takes {callee.nparams}")
        elif op is Op.CLOSURE:
            callee = self.p.functions[args[1]]
            if len(args[2]) > callee.nparams:
                self.fail(pc, f"CLOSURE binds {len(args[2])} of {callee.nparams} parameters")
        elif op in (Op.ISINST, Op.NARROW):
            self.type_const(pc, args[2])
        elif op is Op.LOADK:
            self.plain_const(pc, args[1])

    def type_const(self, pc, k):
        c = self.f.consts[k]
        if not (isinstance(c, tuple) and len(c) == 2 and c[0] == "type" and isinstance(c[1], str)):
            self.fail(pc, f"constant {k} is not a type")
        try:
            parse_type(c[1])
        except TypeSyntaxError as e:
            self.fail(pc, str(e))

    def plain_const(self, pc, k):
        c = self.f.consts[k]
        if isinstance(c, tuple):
            if not (len(c) == 2 and c[0] == "tensor" and isinstance(c[1], int)
                    and 0 <= c[1] < len(self.p.tensors)):
                self.fail(pc, f"constant {k} is not loadable")

    # -- definite assignment ----------------------------------------------------------------------
    def assigned(self, nodes, a):
        """Registers (bit set) written on every path through nodes; None if no fall-through."""
        for n in nodes:
            if a is None:
                return None
            a = self.node_assigned(n, a)
        return a

    def need(self, pc, a, regs):
        for r in regs:
            if not (a >> r) & 1:
                self.fail(pc, f"register {r} may be read before it is written")

    def node_assigned(self, n, a):
        if isinstance(n, Ins):
            reads, writes = _reads_writes(n)
            self.need(n.pc, a, reads)
            if n.op in _EXITS:
                return None
            for r in writes:
                a |= 1 << r
            return a
        if isinstance(n, If):
            self.need(n.pc, a, [n.cond])
            outs = [self.assigned(n.then, a), self.assigned(n.orelse, a) if n.orelse else a]
            return _meet(outs)
        if isinstance(n, While):
            c = self.assigned(n.cond_code, a)
            if c is None:
                self.fail(n.pc, "a loop condition must fall through to TEST")
            self.need(n.pc, c, [n.test])
            self.assigned(n.body, c)
            if n.orelse is not None:
                self.assigned(n.orelse, c)
            return c
        if isinstance(n, For):
            self.need(n.pc, a, [n.lo, n.hi, n.step])
            self.assigned(n.body, a | (1 << n.iv))
            if n.orelse is not None:
                self.assigned(n.orelse, a)
            return a
        return self.try_assigned(n, a)

    def try_assigned(self, n, a):
        body = self.assigned(n.body, a)
        outs = [self.assigned(n.orelse, body) if (n.orelse and body is not None) else body]
        for h in n.handlers:
            outs.append(self.assigned(h.body, a | (1 << h.reg)))
        merged = _meet(outs)
        if n.final is None:
            return merged
        fin = self.assigned(n.final, a)
        if fin is None or merged is None:
            return None
        return merged | fin


def _meet(outs):
    live = [o for o in outs if o is not None]
    if not live:
        return None
    r = live[0]
    for o in live[1:]:
        r &= o
    return r


def _reads_writes(n):
    args = n.args
    if n.op in O.WRITES_A:
        writes = [args[0]]
        rest = args[1:]
    else:
        writes, rest = [], args
    if n.op is Op.SETF:
        return [args[0], args[2]], []
    reads = []
    kinds = O.LAYOUT[n.op][1:] if n.op in O.WRITES_A else O.LAYOUT[n.op]
    for kind, v in zip(kinds, rest):
        if kind in ("r", "*r", "*p"):
            reads.extend(v if isinstance(v, list) else [v])
    if n.op is Op.FREE:
        reads = []
    return reads, writes


def _operator_arity(name):
    from ember import ops

    d = ops.get(name)
    return None if d is None else d.arity
