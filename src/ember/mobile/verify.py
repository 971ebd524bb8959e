"""The bytecode verifier: everything is checked before the first instruction runs.

`verify_program` decodes each function into a tree of structured nodes (the
translator's input) while checking: opcodes and operand counts; every
register, constant, operator, function, class and field index; that jumps
name their matching markers and nest; nesting limits (CPython's static block
limit, so the translated code always compiles); TEST only ending a loop
condition; BREAK/CONTINUE only inside a loop body; call arities; exception
class and type constants; the line table; definite assignment (no register
is read before it is written on every path); and that no path falls off the
end of a function. Every failure is an ArtifactError naming the function, the
pc and what is wrong.
"""

from __future__ import annotations

from ember.errors import ArtifactError
from ember.mobile import opcodes as O
from ember.mobile.fused import check_spec
from ember.mobile.manifest import REQUIRED
from ember.mobile.opcodes import Op
from ember.mobile.program import SPECIAL_METHODS
from ember.mobile.tree import For, Handler, If, Ins, Try, While, block_costs, children, \
    reads_writes
from ember.mobile.types import TypeSyntaxError, class_names, parse as parse_type

_SCALARS = (int, float, complex, str, bool, type(None))


# ----------------------------------------------------------------------------- entry point


class _Fail(Exception):
    pass


def verify_program(program, exception_names) -> list:
    """Verify every function; returns each function's node tree. Raises ArtifactError."""
    _check_tables(program)
    trees = []
    for i, f in enumerate(program.functions):
        try:
            trees.append(_FunctionVerifier(program, f, exception_names).run())
        except _Fail as e:
            raise ArtifactError(f"bad bytecode in function {i} ({f.name!r}): {e}") from None
    return trees


def _check_tables(program) -> None:
    nfuncs = len(program.functions)
    for name, i in program.entries.items():
        if not (type(i) is int and 0 <= i < nfuncs):
            raise ArtifactError(f"entry {name!r} names function {i}, which does not exist")
    if program.default_entry is not None and program.default_entry not in program.entries:
        raise ArtifactError(f"default entry {program.default_entry!r} is not an entry")
    for c in program.classes:
        if len(c.fields) != len(c.field_types):
            raise ArtifactError(f"class {c.name!r} has {len(c.fields)} fields but "
                                f"{len(c.field_types)} field types")
        for name, i in c.methods.items():
            arity = SPECIAL_METHODS.get(name)
            if arity is None or c.kind != "class" or not (type(i) is int and 0 <= i < nfuncs) \
                    or len(program.functions[i].params) != arity:
                raise ArtifactError(f"class {c.name!r:.60}: bad special method {name!r:.40}")


class _FunctionVerifier:
    def __init__(self, program, f, exception_names):
        self.p = program
        self.f = f
        self.code = f.code
        self.exc_names = exception_names
        self.max_fields = max((len(c.fields) for c in program.classes), default=0)
        self.limits = {"r": f.nregs, "k": len(f.consts), "f": len(program.operators),
                       "n": len(program.functions), "c": len(program.classes),
                       "j": len(f.code)}
        self.starts: set[int] = set()
        """pcs of every decoded instruction (markers included), for the line table check."""

    def fail(self, pc, msg):
        raise _Fail(f"pc {pc}: {msg}")

    def run(self):
        f = self.f
        if not len(f.params) <= f.nregs <= O.MAX_REGISTERS:
            raise _Fail(f"register count {f.nregs} is out of range")
        if len(f.code) > O.MAX_FUNCTION_WORDS:
            raise _Fail(f"{len(f.code)} code words exceed the limit of {O.MAX_FUNCTION_WORDS}")
        if len(f.param_types) != len(f.params) or len(f.defaults) > len(f.params):
            raise _Fail("the signature is inconsistent")
        if any(type(d) not in _SCALARS and d is not REQUIRED for d in f.defaults):
            raise _Fail("a parameter default is not a scalar constant")
        nodes, pc, marker = self.block(0, depth=0, loop=None)
        if marker is not None:
            self.fail(pc, f"{marker.name} has no matching opening instruction")
        self.check_blocks(nodes, 0)
        self.check_lines(self.starts)
        if self.assigned(nodes, (1 << len(f.params)) - 1) is not None:
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
        self.starts.add(pc)
        return op, args, i

    def check_index(self, pc, op, kind, v):
        if kind == "i":
            limit = self.max_fields if op in (Op.GETF, Op.SETF) else O.MAX_IMMEDIATE
        else:
            limit = self.limits["r" if kind == "p" else kind]
        if not 0 <= v < limit:
            what = {"r": "register", "p": "register", "k": "constant", "f": "operator",
                    "n": "function", "c": "class", "j": "jump target", "i": "index"}[kind]
            self.fail(pc, f"{op.name} {what} {v} is out of range (limit {limit})")

    # -- structure ------------------------------------------------------------------------------
    def block(self, pc, depth, loop):
        """Decode until a marker; returns (nodes, pc of the marker, marker opcode or None).

        `loop` is "body" inside a loop body (BREAK/CONTINUE allowed), "cond" inside a loop
        condition, None elsewhere."""
        if depth > O.MAX_NESTING:
            self.fail(pc, f"structures nest more than {O.MAX_NESTING} deep")
        nodes = []
        while pc < len(self.code):
            op, args, nxt = self.decode(pc)
            if op in O.MARKERS:
                return nodes, pc, op
            node, pc = self.structure(pc, op, args, nxt, depth, loop)
            nodes.append(node)
        return nodes, pc, None

    def structure(self, pc, op, args, nxt, depth, loop):
        if op is Op.IF:
            return self.if_(pc, args, nxt, depth, loop)
        if op is Op.LOOP:
            return self.while_(pc, args, nxt, depth, loop)
        if op is Op.FOR:
            return self.for_(pc, args, nxt, depth, loop)
        if op is Op.TRY:
            return self.try_(pc, args, nxt, depth, loop)
        if op is Op.LOOPELSE:
            self.fail(pc, "LOOPELSE does not directly follow a loop's END")
        if op in (Op.BREAK, Op.CONTINUE) and loop != "body":
            self.fail(pc, f"{op.name} outside a loop body")
        self.check_operands(pc, op, args)
        return Ins(pc, op, args), nxt

    def expect_end(self, marker, mpc, jump, what, pc):
        if marker is not Op.END:
            found = marker.name if marker is not None else "the end of the code"
            self.fail(pc, f"{what} is closed by {found} at {mpc}, not END")
        if jump != mpc:
            self.fail(pc, f"{what} jumps to {jump}, but its END is at {mpc}")
        return mpc + 1

    def if_(self, pc, args, nxt, depth, loop):
        cond, jump = args
        then, mpc, marker = self.block(nxt, depth + 1, loop)
        if jump != mpc:
            self.fail(pc, f"IF jumps to {jump}, but its ELSE/END is at {mpc}")
        if marker is Op.ELSE:
            _, (jend,), after = self.decode(mpc)
            orelse, epc, emarker = self.block(after, depth + 1, loop)
            return If(pc, cond, then, orelse), self.expect_end(emarker, epc, jend, "ELSE", mpc)
        return If(pc, cond, then, None), self.expect_end(marker, mpc, jump, "IF", pc)

    def loop_else(self, pc, depth, loop):
        """The optional LOOPELSE after a loop's END; it runs in the loop's context, so a
        BREAK in it leaves the enclosing loop (`loop`: the context around the loop)."""
        if pc < len(self.code) and self.code[pc] == Op.LOOPELSE:
            _, (jend,), nxt = self.decode(pc)
            nodes, mpc, marker = self.block(nxt, depth + 1, loop)
            return nodes, self.expect_end(marker, mpc, jend, "LOOPELSE", pc)
        return None, pc

    def while_(self, pc, args, nxt, depth, loop):
        (jend,) = args
        cond, tpc, marker = self.block(nxt, depth + 1, "cond")
        if marker is not Op.TEST:
            self.fail(pc, "LOOP has no TEST ending its condition")
        _, (test,), after = self.decode(tpc)
        body, mpc, marker = self.block(after, depth + 1, "body")
        end = self.expect_end(marker, mpc, jend, "LOOP", pc)
        orelse, end = self.loop_else(end, depth, loop)
        return While(pc, cond, test, body, orelse), end

    def for_(self, pc, args, nxt, depth, loop):
        iv, lo, hi, step, jend = args
        body, mpc, marker = self.block(nxt, depth + 1, "body")
        end = self.expect_end(marker, mpc, jend, "FOR", pc)
        orelse, end = self.loop_else(end, depth, loop)
        return For(pc, iv, lo, hi, step, body, orelse), end

    def try_(self, pc, args, nxt, depth, loop):
        (jend,) = args
        body, mpc, marker = self.block(nxt, depth + 1, loop)
        handlers, orelse, final = [], None, None
        while marker is Op.EXCEPT:
            _, (reg, ks, jnext), after = self.decode(mpc)
            names = [self.exception_name(mpc, k) for k in ks]
            hbody, npc, marker = self.block(after, depth + 1, loop)
            if jnext != npc:
                self.fail(mpc, f"EXCEPT jumps to {jnext}, but the next marker is at {npc}")
            handlers.append(Handler(mpc, reg, names, hbody))
            mpc = npc
        if marker is Op.TRYELSE:
            if not handlers:
                self.fail(mpc, "TRYELSE without EXCEPT")
            orelse, mpc, marker = self.block(mpc + 1, depth + 1, loop)
        if marker is Op.FINALLY:
            final, mpc, marker = self.block(mpc + 1, depth + 1, loop)
        if not handlers and final is None:
            self.fail(pc, "TRY needs an EXCEPT or a FINALLY")
        node = Try(pc, body, handlers, orelse, final)
        return node, self.expect_end(marker, mpc, jend, "TRY", pc)

    def exception_name(self, pc, k):
        name = self.f.consts[k]
        if not isinstance(name, str) or name not in self.exc_names:
            self.fail(pc, f"EXCEPT names {name!r:.60}, which is not a known exception class")
        return name

    def check_blocks(self, nodes, depth):
        """CPython's static block count stays <= MAX_BLOCK_DEPTH everywhere."""
        for n in nodes:
            costs = block_costs(n)
            for block, cost in zip(children(n), costs):
                if depth + cost > O.MAX_BLOCK_DEPTH:
                    self.fail(n.pc, f"loops and try statements nest more than "
                                    f"{O.MAX_BLOCK_DEPTH} deep")
                self.check_blocks(block, depth + cost)

    def check_lines(self, starts):
        last = -1
        nsources = len(self.p.sources)
        for entry in self.f.lines:
            if len(entry) != 3:
                raise _Fail(f"line table entry {entry!r:.40} is not (pc, source, line)")
            pc, src, line = entry
            if pc <= last or pc not in starts:
                raise _Fail(f"line table entry for pc {pc} is out of order or not at an "
                            "instruction")
            if not (-1 <= src < nsources and 0 <= line < (1 << 31)):
                raise _Fail(f"line table entry for pc {pc} names source {src}, line {line}")
            last = pc
        for k, row in enumerate(self.f.sites, 1):
            _, line, parent = row[:3]
            src = row[3] if len(row) > 3 else -1
            if not (0 <= parent < k and 0 <= line < (1 << 31) and -1 <= src < nsources):
                raise _Fail(f"inlined call site {k} has parent {parent}, line {line}, source "
                            f"{src}")
        last = -1
        for pc, site in self.f.site_pcs:
            if pc <= last or pc not in starts or not 0 <= site <= len(self.f.sites):
                raise _Fail(f"site table entry ({pc}, {site}) is out of order, not at an "
                            "instruction or names no site")
            last = pc

    # -- per-instruction checks -----------------------------------------------------------------
    def check_operands(self, pc, op, args):
        if op is Op.KCALL:
            name = self.p.operators[args[1]]
            want = _operator_arity(name)
            if want is None:
                self.fail(pc, f"KCALL of unknown operator {name!r:.60}")
            if len(args[2]) != want:
                self.fail(pc, f"KCALL of {name} passes {len(args[2])} arguments, it takes {want}")
        elif op is Op.CALL:
            callee = self.p.functions[args[1]]
            if len(args[2]) != callee.nparams:
                self.fail(pc, f"CALL of {callee.name!r:.60} passes {len(args[2])} arguments, "
                              f"it takes {callee.nparams}")
        elif op is Op.CLOSURE:
            callee = self.p.functions[args[1]]
            if len(args[2]) > callee.nparams:
                self.fail(pc, f"CLOSURE binds {len(args[2])} of {callee.nparams} parameters")
        elif op is Op.NEWOBJ:
            cls = self.p.classes[args[1]]
            if len(args[2]) not in (0, len(cls.fields)) or \
                    (cls.kind == "namedtuple" and len(args[2]) != len(cls.fields)):
                self.fail(pc, f"NEWOBJ of {cls.name!r:.60} passes {len(args[2])} fields, it "
                              f"has {len(cls.fields)}")
        elif op in (Op.ISINST, Op.NARROW):
            self.type_const(pc, args[2])
        elif op is Op.LOADK:
            self.plain_const(pc, args[1])
        elif op is Op.FUSED:
            c = self.f.consts[args[1]]
            if not (type(c) is tuple and c and c[0] == "fused"):
                self.fail(pc, f"FUSED names constant {args[1]}, which is not a fused group")
            try:
                check_spec(c)
            except ArtifactError as e:
                self.fail(pc, str(e))
            if len(args[2]) != c[1]:
                self.fail(pc, f"FUSED passes {len(args[2])} inputs to a group of {c[1]}")

    def type_const(self, pc, k):
        c = self.f.consts[k]
        if not (type(c) is tuple and len(c) == 2 and c[0] == "type" and type(c[1]) is str):
            self.fail(pc, f"constant {k} is not a type")
        try:
            t = parse_type(c[1])
        except TypeSyntaxError as e:
            self.fail(pc, str(e))
        declared = {cls.name for cls in self.p.classes}
        for name in class_names(t):
            if name not in declared:
                self.fail(pc, f"type {c[1]!r:.60} names an undeclared class")

    def plain_const(self, pc, k):
        c = self.f.consts[k]
        if type(c) in _SCALARS:
            return
        table = {"tensor": self.p.tensors, "object": self.p.objects}
        if not (type(c) is tuple and len(c) == 2 and c[0] in table and type(c[1]) is int
                and 0 <= c[1] < len(table[c[0]])):
            self.fail(pc, f"constant {k} cannot be loaded into a register")

    # -- definite assignment ----------------------------------------------------------------------
    def assigned(self, nodes, a):
        """Registers (a bit set) written on every path through nodes; None if no path falls
        through."""
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
        reads, writes = reads_writes(n)
        if isinstance(n, Ins):
            self.need(n.pc, a, reads)
            if n.op in O.EXITS:
                return None
            for r in writes:
                a |= 1 << r
            return a
        if isinstance(n, If):
            self.need(n.pc, a, reads)
            return _meet([self.assigned(n.then, a),
                          self.assigned(n.orelse, a) if n.orelse is not None else a])
        if isinstance(n, While):
            c = self.assigned(n.cond_code, a)
            if c is None:
                self.fail(n.pc, "the loop condition must fall through to TEST")
            self.need(n.pc, c, reads)
            self.assigned(n.body, c)
            if n.orelse is not None:
                self.assigned(n.orelse, c)
            return c
        if isinstance(n, For):
            self.need(n.pc, a, reads)
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


def _operator_arity(name):
    from ember import ops

    d = ops.get(name)
    return None if d is None else d.arity
