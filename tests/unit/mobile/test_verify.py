"""The bytecode verifier: every malformed function is rejected before anything runs,
with a message naming the function, the pc and the problem."""

import pytest

from ember import mobile
from ember.errors import ArtifactError
from ember.interpreter.assembler import assemble
from ember.mobile.opcodes import MAX_BLOCK_DEPTH, MAX_NESTING, Op
from ember.mobile.program import Function, Program

from .util import build, rejects


def _raw(code, nregs=4, consts=(), params=("a",), **kw):
    """A one-function program from raw words."""
    f = Function(name="f", params=list(params), param_types=["i64"] * len(params),
                 ret_type="i64", nregs=nregs, code=list(code), consts=list(consts),
                 lines=kw.pop("lines", []), defaults=kw.pop("defaults", []))
    return Program(functions=[f], entries={"f": 0}, **kw)


def _fails(program, match):
    with pytest.raises(ArtifactError, match=match):
        mobile.build(program)


@pytest.mark.parametrize("code, match", [
    ([99], "pc 0: unknown opcode 99"),
    ([-1], "unknown opcode -1"),
    ([Op.MOVE, 0], "MOVE runs past the end"),
    ([Op.MOVE, 0, 9, Op.RETURN, 0], "MOVE register 9 is out of range \\(limit 4\\)"),
    ([Op.MOVE, -1, 0, Op.RETURN, 0], "MOVE register -1 is out of range"),
    ([Op.LOADK, 1, 5, Op.RETURN, 1], "LOADK constant 5 is out of range"),
    ([Op.KCALL, 1, 0, 0, Op.RETURN, 1], "KCALL operator 0 is out of range"),
    ([Op.CALL, 1, 3, 0, Op.RETURN, 1], "CALL function 3 is out of range"),
    ([Op.NEWOBJ, 1, 0, 0, Op.RETURN, 1], "NEWOBJ class 0 is out of range"),
    ([Op.GETF, 1, 0, 0, Op.RETURN, 1], "GETF index 0 is out of range"),
    ([Op.TUPLE, 1, 5, 0, Op.RETURN, 1], "TUPLE has a bad operand count 5"),
    ([Op.TUPLE, 1, -2, Op.RETURN, 1], "bad operand count -2"),
    ([Op.IF, 0, 2, Op.END, Op.RETURN, 0], "IF jumps to 2, but its ELSE/END is at 3"),
    ([Op.IF, 0, 9, Op.END, Op.RETURN, 0], "IF jump target 9 is out of range \\(limit 6\\)"),
    ([Op.IF, 0, 3, Op.RETURN, 0], "IF jumps to 3, but its ELSE/END is at 5"),
    ([Op.IF, 0, 3, Op.ELSE, 3, Op.RETURN, 0], "ELSE is closed by the end of the code"),
    ([Op.END, Op.RETURN, 0], "END has no matching opening instruction"),
    ([Op.ELSE, 0, Op.RETURN, 0], "ELSE has no matching"),
    ([Op.TEST, 0, Op.RETURN, 0], "TEST has no matching"),
    ([Op.LOOP, 2, Op.END, Op.RETURN, 0], "LOOP has no TEST"),
    ([Op.BREAK], "BREAK outside a loop body"),
    ([Op.LOOPELSE, 2, Op.END, Op.RETURN, 0], "LOOPELSE does not directly follow"),
    ([Op.TRY, 2, Op.END, Op.RETURN, 0], "TRY needs an EXCEPT or a FINALLY"),
    ([Op.TRY, 3, Op.TRYELSE, Op.END, Op.RETURN, 0], "TRYELSE without EXCEPT"),
    ([Op.FOR, 1, 0, 0, 0, 7, Op.END, Op.RETURN, 0], "FOR jumps to 7, but its END is at 6"),
    ([Op.MOVE, 1, 0], "control reaches the end of the function without RETURN"),
    ([Op.RETURN, 2], "register 2 may be read before it is written"),
])
def test_raw_code_rejected(code, match):
    _fails(_raw([int(w) for w in code]), match)


def test_messages_name_function_and_pc():
    msg = rejects("function g(a: i64) -> i64\n  MOVE r1 r0\n  RETURN r7\n  .regs 3",
                  "bad bytecode in function 0 \\('g'\\): pc 3: RETURN register 7")
    assert "limit 3" in msg


@pytest.mark.parametrize("body, match", [
    ("  KCALL r1 int.add (r0)\n  RETURN r1", "KCALL of int.add passes 1 arguments, it takes 2"),
    ("  CALL r1 @f (r0, r0)\n  RETURN r1", "CALL of 'f' passes 2 arguments, it takes 1"),
    ("  CLOSURE r1 @f (r0, r0)\n  RETURN r1", "CLOSURE binds 2 of 1 parameters"),
    ("  LOADK r1 \"NotAnError\"\n  TRY ->end\n  RETURN r0\n  EXCEPT r2 [NotAnError] ->end\n"
     "end:\n  END\n  RETURN r0", "EXCEPT names 'NotAnError', which is not a known exception"),
    ('  ISINST r1 r0 "i64"\n  RETURN r1', "constant 0 is not a type"),
    ('  ISINST r1 r0 type:"list<"\n  RETURN r1', "pc 0: .*type"),
    ('  NARROW r1 r0 type:"i65"\n  RETURN r1', "unknown type 'i65'"),
    ('  LOADK r1 type:"i64"\n  RETURN r1', "constant 0 cannot be loaded"),
    ("  LOADK r1 tensor:0\n  RETURN r1", "constant 0 cannot be loaded"),
    ("  LOOP ->end\n  BREAK\n  TEST r0\nend:\n  END\n  RETURN r0", "BREAK outside a loop body"),
    ("  LOOP ->end\n  TEST r0\n  CONTINUE\nend:\n  END\n  LOOPELSE ->e2\n  CONTINUE\ne2:\n"
     "  END\n  RETURN r0", "pc 8: CONTINUE outside a loop body"),
    ("  LOOP ->end\n  RETURN r0\n  TEST r0\nend:\n  END\n  RETURN r0",
     "loop condition must fall through"),
    ("  IF r0 ->e\n  LOADK r1 1\ne:\n  END\n  RETURN r1", "register 1 may be read before"),
    ("  IF r0 ->e\n  LOADK r1 1\ne:\n  ELSE ->x\n  LOADK r2 2\nx:\n  END\n  RETURN r1",
     "register 1 may be read before"),
    ("  LOADK r2 0\n  LOADK r3 1\n  FOR r4 r2 r0 r3 ->e\n  MOVE r1 r4\ne:\n  END\n  RETURN r1",
     "register 1 may be read before"),
    ("  LOADK r2 0\n  LOADK r3 1\n  FOR r4 r2 r0 r3 ->e\ne:\n  END\n  LOOPELSE ->x\n"
     "  RETURN r4\nx:\n  END\n  RETURN r0", "register 4 may be read before"),
    ("  TRY ->e\n  LOADK r1 1\n  EXCEPT r2 [] ->e\n  RETURN r1\ne:\n  END\n  RETURN r0",
     "register 1 may be read before"),
    ("  TRY ->e\n  LOADK r1 1\n  FINALLY\n  RETURN r1\ne:\n  END\n  RETURN r0",
     "register 1 may be read before"),
    ("  TRY ->e\n  RETURN r0\n  EXCEPT r2 [] ->e\n  MOVE r1 r2\ne:\n  END",
     "control reaches the end"),
])
def test_listing_rejected(body, match):
    rejects(f"function f(a: i64) -> i64\n{body}", match)


def test_assignment_on_every_path_is_accepted():
    m = build("""
function f(a: i64) -> i64
  .entry f
  IF r0 ->e
  LOADK r1 1
e:
  ELSE ->x
  TRY ->t
  LOADK r1 2
  EXCEPT r2 [] ->t
  LOADK r1 3
t:
  END
x:
  END
  RETURN r1
""")
    assert (m(0), m(5)) == (2, 1)


def test_nested_blocks_up_to_cpython_limit_compile():
    assert _nested_fors(MAX_BLOCK_DEPTH)(2) == 2 ** MAX_BLOCK_DEPTH
    rejects(_nested_for_listing(MAX_BLOCK_DEPTH + 1), f"nest more than {MAX_BLOCK_DEPTH} deep")


def _nested_for_listing(depth):
    head = "function f(n: i64) -> i64\n  .entry f\n  LOADK r1 0\n  LOADK r2 1\n  LOADK r3 0\n"
    opens = "".join(f"  FOR r{10 + i} r1 r0 r2 ->end{i}\n" for i in range(depth))
    body = "  KCALL r3 int.add (r3, r2)\n"
    closes = "".join(f"end{i}:\n  END\n" for i in reversed(range(depth)))
    return head + opens + body + closes + "  RETURN r3\n"


def _nested_fors(depth):
    return build(_nested_for_listing(depth))


def _nested_handlers(depth, final=False):
    """try: raise; except: (try: raise; except: ...) `depth` deep."""
    lines = ["function f(a: i64) -> i64", "  .entry f", '  LOADK r1 "ValueError"',
             "  LOADK r2 None", "  KCALL r3 exc.new (r1, r2)", "  LOADK r4 0"]
    for i in range(depth):
        lines += [f"  TRY ->end{i}", "  RAISE r3", f"  EXCEPT r5 [] ->next{i}",
                  "  KCALL r4 int.add (r4, r0)"]
    for i in reversed(range(depth)):
        lines += [f"next{i}:"]
        lines += ["  FINALLY", "  MOVE r6 r4"] if final else []
        lines += [f"end{i}:", "  END"]
    return "\n".join(lines + ["  RETURN r4"])


def test_handler_nesting_counts_like_cpython():
    # A handler that binds its exception costs CPython two blocks, three with a finally.
    assert build(_nested_handlers(10))(1) == 10
    rejects(_nested_handlers(11), "nest more than")
    assert build(_nested_handlers(6, final=True))(1) == 6
    rejects(_nested_handlers(7, final=True), "nest more than")


def test_if_nesting_is_capped():
    def listing(depth):
        opens = "".join(f"  IF r0 ->e{i}\n" for i in range(depth))
        closes = "".join(f"e{i}:\n  END\n" for i in reversed(range(depth)))
        return f"function f(a: bool) -> bool\n  .entry f\n{opens}{closes}  RETURN r0\n"
    assert build(listing(MAX_NESTING))(True) is True
    rejects(listing(MAX_NESTING + 1), f"nest more than {MAX_NESTING} deep")


@pytest.mark.parametrize("lines, match", [
    ([(3, 0, 1), (0, 0, 1)], "out of order"),
    ([(1, -1, 1)], "not at an instruction"),
    ([(0, 5, 1)], "names source 5"),
    ([(0, 0, -4)], "line -4"),
    ([(0, 0, 1, 9)], "is not \\(pc, source, line\\)"),
])
def test_line_table_checked(lines, match):
    code = [int(Op.MOVE), 1, 0, int(Op.RETURN), 1]
    _fails(_raw(code, lines=lines, sources=[("a.py", "x\n")]), match)


@pytest.mark.parametrize("change, match", [
    (dict(nregs=0), "register count 0 is out of range"),
    (dict(nregs=1 << 17), "register count"),
    (dict(defaults=[("tensor", 0)]), "default is not a scalar"),
    (dict(param_types=[]), "signature is inconsistent"),
    (dict(code=[int(Op.FREE), 0] * (1 << 17) + [int(Op.RETURN), 0]), "exceed the limit"),
])
def test_function_fields_checked(change, match):
    p = _raw([int(Op.RETURN), 0], params=("a",))
    for k, v in change.items():
        setattr(p.functions[0], k, v)
    _fails(p, match)


def test_program_tables_checked():
    p = _raw([int(Op.RETURN), 0])
    p.entries = {"f": 3}
    _fails(p, "entry 'f' names function 3")
    p = _raw([int(Op.RETURN), 0])
    p.default_entry = "g"
    _fails(p, "default entry 'g' is not an entry")
    p = _raw([int(Op.RETURN), 0], classes=[("C", ["x"], [])])
    _fails(p, "class 'C' has 1 fields but 0 field types")


def test_newobj_field_count_checked():
    rejects("class P(x: i64, y: i64) class\nfunction f(a: i64) -> !P\n"
            "  NEWOBJ r1 !P (r0)\n  RETURN r1", "NEWOBJ of 'P' passes 1 fields, it has 2")
    rejects("class P(x: i64, y: i64) namedtuple\nfunction f(a: i64) -> !P\n"
            "  NEWOBJ r1 !P ()\n  RETURN r1", "NEWOBJ of 'P' passes 0 fields")
    rejects("class P(x: i64) class\nfunction f(a: i64) -> i64\n"
            "  NEWOBJ r1 !P (r0)\n  GETF r2 r1 1\n  RETURN r2", "GETF index 1 is out of range")


def test_missing_operators_listed_together():
    p = assemble("function f(a: i64) -> i64\n  KCALL r1 zz.first (r0)\n"
                 "  KCALL r2 zz.second (r1)\n  KCALL r3 int.neg (r2)\n  RETURN r3")
    with pytest.raises(ArtifactError, match="needs 2 operator\\(s\\).*zz.first, zz.second"):
        mobile.build(p)


def test_verified_corpus_of_random_words_never_crashes():
    """Random word soup is rejected with ArtifactError, never another exception."""
    import random
    rng = random.Random(7)
    accepted = 0
    for _ in range(3000):
        code = [rng.choice([rng.randrange(0, 32), rng.randrange(-3, 12)])
                for _ in range(rng.randrange(1, 14))]
        p = _raw(code, nregs=6, consts=[1, "ValueError", ("type", "i64")])
        p.operators = ["int.add", "int.neg"]
        try:
            m = mobile.build(p)
        except ArtifactError:
            continue
        accepted += 1
        try:
            m(1)
        except Exception:  # noqa: BLE001 - running accepted soup may raise, never crash
            pass
    assert accepted > 0
