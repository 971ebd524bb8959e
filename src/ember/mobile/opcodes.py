"""The bytecode: opcodes, operand layouts, limits, format version. Single source of truth.

Legend (in the spirit of Lua's lopcodes.h):
    R[x]   register x of the current function
    K[x]   constant x of the function's constant pool
    F[x]   operator x of the program's operator table (bound to an ember.ops kernel at load)
    FN[x]  function x of the program           C[x]  class x of the program
    I      an immediate non-negative integer (a tuple index or a field index)
    J      a jump target: the absolute pc of the matching marker instruction
    ...N   a count N followed by N operands of the named kind

An instruction is a run of int words (int32 in an artifact): the opcode, then
its operands as laid out in LAYOUT. Variadic operands are a count followed by
that many words. Control flow is structured: IF/ELSE/END, LOOP/TEST/END,
FOR/END, LOOPELSE/END and TRY/EXCEPT/TRYELSE/FINALLY/END nest like brackets,
every jump names the pc of its matching marker, and the verifier checks both,
so the translator rebuilds Python's own if/while/for/try from them.

Keep in sync with interpreter/lower.py (the producer), mobile/verify.py,
mobile/translate.py and mobile/disasm.py (ORDER OP: append, never renumber).
"""

from __future__ import annotations

from enum import IntEnum

FORMAT_NAME = "ember-artifact"
"""The `format` field of every artifact manifest."""

FORMAT_VERSION = 9
# Artifact format versions. Bump with an entry here, in the same commit as the change:
#   1  zip of manifest.json, code.bin (int32 words), lines.bin (int32 (pc, source, line)
#      triples where the location changes), consts.json (tagged constants),
#      tensors.bin (64-byte aligned raw data), source/N (source texts).
#   2  adds the manifest's "objects" table (constant module instances built at load from
#      data: class index and tagged field values) and ["o", i] constants loading them.
#   3  adds "methods" to class records: special method name -> function index (an
#      older runtime would ignore them and compare objects by identity).
#   4  adds "sites" and "site_pcs" to function records: the calls inlined into a
#      function, for its traceback frames (an older runtime would show too few frames).
#   5  two zip entries: manifest.json, deflated, now also holding "code" and "lines" (the
#      int32 words as JSON ints), "consts" and each source's "text"; and tensors.bin,
#      stored. Versions 1-4 (separate code.bin, lines.bin, consts.json, source/N; every
#      entry stored) still load.
#   6  complex numbers: ["c", [real, imag]] constants (each part as a float constant), the
#      type c128 in signatures and field types, complex64 / complex128 tensors (an older
#      runtime would reject them as a corrupt artifact rather than name the version).
#   7  adds the FUSED opcode and its constants, tagged "g": a fused group of tensor ops
#      (mobile/fused.py). A runtime reading at most 6 refuses such an artifact.
#   8  sets and iterators: the types set<T> and iter<T> in signatures and field types,
#      and the set.* and iter.* operators (ember.ops.scalar_sets, scalar_iter). A runtime
#      reading at most 7 refuses such an artifact rather than reject its types as corrupt.
#   9  tensors.bin's checksum is the zip entry's own CRC-32 (computed as it is written):
#      the manifest's "checksums" may leave tensors.bin out, and then load(verify=...)
#      checks the CRC. Saving no longer hashes every weight byte with sha256 (~0.27 s of
#      CPU per 512 MiB, as much as torch.jit.save's whole write); a runtime reading at
#      most 8 refuses such an artifact rather than report a missing checksum.
READS = (1, 9)
"""The [min, max] artifact format versions this runtime reads."""


class Op(IntEnum):
    """Opcodes. Operands are listed in encoding order; see LAYOUT."""

    MOVE = 0        # A B            R[A] := R[B]
    LOADK = 1       # A K            R[A] := K[K] (a scalar, or a program tensor)
    KCALL = 2       # A F ...N       R[A] := F[F](R[r1], ..., R[rN]); N = the operator's arity
    CALL = 3        # A FN ...N      R[A] := FN[FN](R[r1], ..., R[rN]); N = FN's nparams
    CLOSURE = 4     # A FN ...N      R[A] := FN[FN] with its first N params bound to R[r1..rN]
    CALLI = 5       # A B ...N       R[A] := R[B](R[r1], ..., R[rN]) (call a closure value)
    TUPLE = 6       # A ...N         R[A] := (R[r1], ..., R[rN])
    TGET = 7        # A B I          R[A] := R[B][I]
    LIST = 8        # A ...N         R[A] := [R[r1], ..., R[rN]]
    DICT = 9        # A ...N pairs   R[A] := {R[k1]: R[v1], ...}; 2N registers follow N
    NEWOBJ = 10     # A C ...N       R[A] := new C[C] with fields R[r1..rN] (N = 0: unset)
    GETF = 11       # A B I          R[A] := R[B].field[I]
    SETF = 12       # A I B          R[A].field[I] := R[B]
    ISINST = 13     # A B K          R[A] := R[B] is a value of type K[K] (a type constant)
    NARROW = 14     # A B K          R[A] := R[B]; TypeError unless it is of type K[K]
    FREE = 15       # A              R[A] := None (after the last use of a tensor)
    IF = 16         # A J            if not R[A]: continue after the ELSE at J (or at the END)
    ELSE = 17       # J              end of the then-part: continue after the END at J
    END = 18        #                closes IF, LOOP, FOR, LOOPELSE and TRY
    LOOP = 19       # J              while-loop header (its END at J); condition code follows
    TEST = 20       # A              ends the condition code: if not R[A], leave the loop
    FOR = 21        # A B C D J      for R[A] in range(R[B], R[C], R[D]): body; END at J
    LOOPELSE = 22   # J              right after a loop's END: runs if the loop did not BREAK
    BREAK = 23      #                leave the innermost loop (skipping its LOOPELSE)
    CONTINUE = 24   #                next iteration of the innermost loop
    RETURN = 25     # A              return R[A]
    RAISE = 26      # A              raise the exception R[A]
    TRY = 27        # J              try: body (the statement's END at J)
    EXCEPT = 28     # A ...N J       handler for exception classes K[k1..kN] (N = 0: any
    #                                Exception), the exception bound to R[A]; next marker at J
    TRYELSE = 29    #                runs if the try body raised nothing
    FINALLY = 30    #                runs however the try statement is left
    UNREACHABLE = 31  #              control never gets here (after `while True` with no break)
    FUSED = 32      # A K ...N       R[A] := group K[K](R[r1], ..., R[rN]): a fused group of
    #                                tensor ops (mobile/fused.py); a tuple if it has several
    #                                outputs. N = the group's input count.


# Operand kinds: r register, k constant, f operator, n function, c class, i immediate,
# j jump target. A kind starting with "*" is variadic: a count, then that many operands
# ("*p": a count of register pairs, then twice that many registers).
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
    Op.FUSED: ("r", "k", "*r"),
}
"""Operand kinds of each opcode, in encoding order (used by verify, disasm, assembler)."""

WRITES_A = frozenset({Op.MOVE, Op.LOADK, Op.KCALL, Op.CALL, Op.CLOSURE, Op.CALLI, Op.TUPLE,
                      Op.TGET, Op.LIST, Op.DICT, Op.NEWOBJ, Op.GETF, Op.ISINST, Op.NARROW,
                      Op.FREE, Op.FOR, Op.EXCEPT, Op.FUSED})
"""Opcodes whose first operand is the register they write; their other registers are read.
SETF reads both of its registers; FREE reads none."""

MARKERS = frozenset({Op.ELSE, Op.END, Op.TEST, Op.EXCEPT, Op.TRYELSE, Op.FINALLY})
"""Opcodes that end a block: they are reached only through their opening instruction."""

EXITS = frozenset({Op.BREAK, Op.CONTINUE, Op.RETURN, Op.RAISE, Op.UNREACHABLE})
"""Opcodes after which control does not fall through."""

# Notes on irregular cases:
#  * LOOP's condition code runs before every iteration; it may not BREAK or CONTINUE (they
#    would bind to no loop), and it must fall through to its TEST. CONTINUE re-runs it.
#  * LOOPELSE is optional and must directly follow the END of a LOOP or FOR; BREAK skips it.
#  * A TRY has EXCEPTs, then an optional TRYELSE (only with at least one EXCEPT), then an
#    optional FINALLY, then END; at least one EXCEPT or a FINALLY. Each EXCEPT's J names the
#    next marker of the same TRY (EXCEPT, TRYELSE, FINALLY or END); TRY's J names the END.
#  * IF's J names its ELSE when there is one, else its END; ELSE's J names the END.
#  * FOR evaluates range(R[B], R[C], R[D]) once, with Python's semantics (a zero step is
#    ValueError); R[A] keeps the last value after the loop.
#  * EXCEPT's constants are exception class names from ember.ops.EXCEPTION_CLASSES, or a
#    user class as the chain of its names down to one of them ("MyError:ValueError").
#  * NEWOBJ with N = 0 makes an object whose fields are set later by SETF; otherwise N is
#    the class's field count.
#  * KCALL's arity is len(ember.ops.get(name).schema.params): the compiler fills defaults.

MAX_REGISTERS = 1 << 16
"""Registers per function."""
MAX_FUNCTION_WORDS = 1 << 18
"""Code words per function. Verification costs O(words * registers / 64) and CPython's
compile of the translation about 10 us per word: this bounds the load time of a hostile
function to seconds."""
MAX_BLOCK_DEPTH = 20
"""CPython's static block limit (CO_MAXBLOCKS): nested loops, try bodies and handlers.
verify.block_cost gives each structure's cost, as CPython's compiler counts it."""
MAX_NESTING = 90
"""Nesting limit for every structure, ifs included (bounds CPython's compiler recursion)."""
MAX_IMMEDIATE = 1 << 20
"""Largest tuple index an instruction may carry."""


def decode(code, pc: int):
    """The (opcode, operands, next pc) of the instruction at pc.

    Variadic operands come back as lists. No checks: verified code only (see verify).
    """
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

