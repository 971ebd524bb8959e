"""The bytecode: opcodes, operand layouts, format version. Single source of truth.

Legend (Lua's lopcodes.h style):
    R[x]  register x            K[x]  constant x of the function's pool
    F[x]  operator x (program operator table, bound to an ember.ops kernel at load)
    FN[x] function x of the program        C[x]  class x of the program
    J     a jump target: the pc of the matching marker instruction
    ...N  a count N followed by N operands of the named kind

An instruction is a run of int32 words: the opcode, then its operands as laid
out in LAYOUT. Control flow is structured: IF/ELSE/END, LOOP/TEST/END,
FOR/END, LOOPELSE/END and TRY/EXCEPT/TRYELSE/FINALLY/END nest like brackets,
and every jump names the pc of its matching marker; the verifier checks it.
Keep in sync with interpreter/lower.py (the writer) and mobile/translate.py.
"""

from __future__ import annotations

from enum import IntEnum

FORMAT_NAME = "ember-artifact"
FORMAT_VERSION = 1
# Format versions (bump with an entry here, in the same commit as the change):
#   1  first version: zip of manifest.json, code.bin, consts.json, lines.bin,
#      tensors.bin, source/N.
READS = (1, 1)
"""The [min, max] artifact format versions this runtime reads."""


class Op(IntEnum):
    MOVE = 0      # A B              R[A] := R[B]
    LOADK = 1     # A K              R[A] := K[K]
    KCALL = 2     # A F ...N         R[A] := F[F](R[...])          arity = the operator's
    CALL = 3      # A FN ...N        R[A] := FN[FN](R[...])        N = FN's parameter count
    CLOSURE = 4   # A FN ...N        R[A] := FN[FN] with its first N params bound to R[...]
    CALLI = 5     # A B ...N         R[A] := R[B](R[...])          call a closure value
    TUPLE = 6     # A ...N           R[A] := (R[...],)
    TGET = 7      # A B I            R[A] := R[B][I]               I an immediate index
    LIST = 8      # A ...N           R[A] := [R[...]]
    DICT = 9      # A ...N pairs     R[A] := {R[k0]: R[v0], ...}   2N registers follow N
    NEWOBJ = 10   # A C ...N         R[A] := new C[C] with fields R[...] (N = 0: unset)
    GETF = 11     # A B I            R[A] := R[B].field[I]
    SETF = 12     # A I B            R[A].field[I] := R[B]
    ISINST = 13   # A B K            R[A] := R[B] is of type K[K] (a type string)
    NARROW = 14   # A B K            R[A] := R[B], raising TypeError unless of type K[K]
    FREE = 15     # A                R[A] := None (after the last use of a tensor)
    IF = 16       # A J              if not R[A]: continue after the ELSE/END at J
    ELSE = 17     # J                end of the then-part: continue after the END at J
    END = 18      #                  closes IF, LOOP, FOR, LOOPELSE and TRY
    LOOP = 19     # J                while-loop header (END at J); condition code follows
    TEST = 20     # A                ends the condition: if not R[A], leave the loop
    FOR = 21      # A B C D J        for R[A] in range(R[B], R[C], R[D]): ... END at J
    LOOPELSE = 22  # J               right after a loop's END: runs if the loop did not BREAK
    BREAK = 23    #                  leave the innermost loop (skipping its LOOPELSE)
    CONTINUE = 24  #                 next iteration of the innermost loop
    RETURN = 25   # A                return R[A]
    RAISE = 26    # A                raise the exception R[A]
    TRY = 27      # J                try: ... (END at J)
    EXCEPT = 28   # A ...N J         handler for the exception classes named by K[...]
    #                                (N = 0: any Exception), bound to R[A]; next marker at J
    TRYELSE = 29  #                  runs if the try body raised nothing
    FINALLY = 30  #                  runs however the try statement is left
    UNREACHABLE = 31  #              control never gets here (after `while True` without break)


# Operand kinds: r register, k constant, f operator, n function, c class, i immediate,
# j jump target. A "*" kind is variadic: a count, then that many operands
# ("*p" is a count of register pairs).
LAYOUT: dict[Op, tuple[str, ...]] = {
    Op.MOVE: ("r", "r"), Op.LOADK: ("r", "k"), Op.KCALL: ("r", "f", "*r"),
    Op.CALL: ("r", "n", "*r"), Op.CLOSURE: ("r", "n", "*r"), Op.CALLI: ("r", "r", "*r"),
    Op.TUPLE: ("r", "*r"), Op.TGET: ("r", "r", "i"), Op.LIST: ("r", "*r"),
    Op.DICT: ("r", "*p"), Op.NEWOBJ: ("r", "c", "*r"), Op.GETF: ("r", "r", "i"),
    Op.SETF: ("r", "i", "r"), Op.ISINST: ("r", "r", "k"), Op.NARROW: ("r", "r", "k"),
    Op.FREE: ("r",), Op.IF: ("r", "j"), Op.ELSE: ("j",), Op.END: (), Op.LOOP: ("j",),
    Op.TEST: ("r",), Op.FOR: ("r", "r", "r", "r", "j"), Op.LOOPELSE: ("j",),
    Op.BREAK: (), Op.CONTINUE: (), Op.RETURN: ("r",), Op.RAISE: ("r",), Op.TRY: ("j",),
    Op.EXCEPT: ("r", "*k", "j"), Op.TRYELSE: (), Op.FINALLY: (), Op.UNREACHABLE: (),
}

WRITES_A = frozenset({Op.MOVE, Op.LOADK, Op.KCALL, Op.CALL, Op.CLOSURE, Op.CALLI, Op.TUPLE,
                      Op.TGET, Op.LIST, Op.DICT, Op.NEWOBJ, Op.GETF, Op.ISINST, Op.NARROW,
                      Op.FREE, Op.FOR, Op.EXCEPT})
"""Opcodes whose first operand is a register they write (the rest are read)."""

MAX_REGISTERS = 1 << 16
MAX_BLOCK_DEPTH = 18
"""Nesting limit for loops and try (CPython's static block limit is 20)."""
MAX_NESTING = 90
"""Nesting limit for every structure (CPython's compiler recursion)."""


def decode(code, pc: int):
    """The (opcode, operands, next pc) of the instruction at pc (no checks: see verify)."""
    op = Op(code[pc])
    operands, i = [], pc + 1
    for kind in LAYOUT[op]:
        if kind[0] == "*":
            n = code[i]
            width = 2 * n if kind == "*p" else n
            operands.append(list(code[i + 1:i + 1 + width]))
            i += 1 + width
        else:
            operands.append(code[i])
            i += 1
    return op, operands, i
