"""The translator, opcode by opcode (operators: test_inline.py; control flow:
test_control_flow.py)."""

import math

import numpy as np
import pytest

from ember import mobile
from ember.interpreter.assembler import assemble
from ember.mobile.runtime import translated_source

from .util import build, fn


def test_move_and_scalar_constants():
    f = fn("""
function consts() -> tuple<i64, f64, str, bool, none, f64, i64>
  LOADK  r0 -9223372036854775808
  LOADK  r1 -0.0
  LOADK  r2 "a \\"quoted\\" \\u00e9 ; string"
  LOADK  r3 True
  LOADK  r4 None
  LOADK  r5 nan
  MOVE   r6 r0
  TUPLE  r7 (r0, r1, r2, r3, r4, r5, r6)
  RETURN r7
""")
    a, b, c, d, e, g, h = f()
    assert (a, repr(b), c, d, e, h) == (-2 ** 63, "-0.0", 'a "quoted" \u00e9 ; string', True,
                                        None, -2 ** 63)
    assert math.isnan(g)


def test_tensor_constant_is_the_program_tensor():
    w = np.arange(6, dtype=np.float32).reshape(2, 3)
    m = build("function w() -> tensor<f32, [2, 3]>\n  .entry w\n  LOADK r0 tensor:0\n"
              "  RETURN r0", tensors=[("w", w)])
    assert m() is w


def test_tensor_loaded_once_is_read_through_its_global_name():
    w = np.arange(6, dtype=np.float32).reshape(2, 3)
    text = """
function f(x: tensor<f32, [2, 3]>, k: bool) -> tensor<f32, [2, 3]>
  .entry f
  LOADK  r2 tensor:0
  LOADK  r3 tensor:0
  IF     r1 ->skip
  MOVE   r3 r0
skip:
  END
  KCALL  r4 tensor.add (r0, r2)
  KCALL  r5 tensor.add (r4, r3)
  RETURN r5
"""
    src = translated_source(assemble(text, tensors=[("w", w)]))
    # r2 is written once: no local, no statement; r3 is written twice: it stays a register.
    assert "r2" not in src and "r3 = _c0_" in src
    m = build(text, tensors=[("w", w)])
    x = np.ones((2, 3), np.float32)
    np.testing.assert_array_equal(m(x, False), x + 2 * w)
    np.testing.assert_array_equal(m(x, True), 2 * x + w)


def test_kernel_call_for_operators_not_inlined():
    f = fn("function s(x: i64) -> str\n  KCALL r1 int.to_str (r0)\n  RETURN r1")
    assert f(-42) == "-42"


def test_call_passes_arguments_in_order():
    m = build("""
function main(a: i64, b: i64) -> i64
  .entry main
  CALL   r2 @sub (r1, r0)
  RETURN r2

function sub(x: i64, y: i64) -> i64
  KCALL  r2 int.sub (r0, r1)
  RETURN r2
""")
    assert m(10, 3) == -7


def test_closure_binds_leading_parameters():
    m = build("""
function make(k: i64) -> fn<(i64) -> i64>
  .entry make
  CLOSURE r1 @scaled (r0)
  RETURN  r1

function apply(k: i64, x: i64) -> i64
  .entry apply
  CLOSURE r2 @scaled (r0)
  CALLI   r3 r2 (r1)
  CALLI   r4 r2 (r3)
  RETURN  r4

function scaled(k: i64, x: i64) -> i64
  KCALL  r2 int.mul (r0, r1)
  RETURN r2
""")
    assert m.apply(3, 5) == 45
    assert m.make(4)(5) == 20


def test_tuple_list_dict_literals():
    f = fn("""
function lits(a: i64, b: str) -> tuple<tuple<i64, str>, list<i64>, dict<str, i64>, i64, str>
  TUPLE  r2 (r0, r1)
  LIST   r3 (r0, r0)
  DICT   r4 (r1, r0)
  TGET   r5 r2 0
  TGET   r6 r2 1
  TUPLE  r7 ()
  LIST   r8 ()
  DICT   r9 ()
  TUPLE  r10 (r2, r3, r4, r5, r6)
  RETURN r10
""")
    t, xs, d, a, b = f(7, "k")
    assert (t, xs, d, a, b) == ((7, "k"), [7, 7], {"k": 7}, 7, "k")
    assert type(t) is tuple and type(xs) is list and type(d) is dict


POINT = """
class Point(x: i64, y: i64) class
class Pair(first: str, second: f64) namedtuple

function make(a: i64, b: i64) -> !Point
  .entry make
  NEWOBJ r2 !Point (r0, r1)
  GETF   r3 r2 0
  KCALL  r3 int.add (r3, r1)
  SETF   r2 1 r3
  RETURN r2

function empty(a: i64) -> !Point
  .entry empty
  NEWOBJ r1 !Point ()
  SETF   r1 0 r0
  SETF   r1 1 r0
  RETURN r1

function pair(s: str, v: f64) -> !Pair
  .entry pair
  NEWOBJ r2 !Pair (r0, r1)
  RETURN r2

function second(p: !Pair) -> f64
  .entry second
  GETF   r1 r0 1
  RETURN r1
"""


def test_objects_and_named_tuples():
    m = build(POINT)
    p = m.make(2, 5)
    assert (p.x, p.y) == (2, 7) and repr(p) == "Point(x=2, y=7)"
    q = m.empty(4)
    assert (q.x, q.y) == (4, 4)
    t = m.pair("a", 1.5)
    assert t == ("a", 1.5) and (t.first, t.second) == ("a", 1.5) and isinstance(t, tuple)
    assert m.second(t) == 1.5
    assert m.second(("b", 2.5)) == 2.5  # a plain tuple of the right shape is converted


def test_isinstance_and_narrow():
    m = build("""
function kind(x: union<i64, str, none>) -> tuple<bool, bool, bool>
  .entry kind
  ISINST r1 r0 type:"i64"
  ISINST r2 r0 type:"str"
  ISINST r3 r0 type:"optional<list<i64>>"
  TUPLE  r4 (r1, r2, r3)
  RETURN r4

function as_int(x: optional<i64>) -> i64
  .entry as_int
  NARROW r1 r0 type:"i64"
  RETURN r1
""")
    assert m.kind(3) == (True, False, False)
    assert m.kind("s") == (False, True, False)
    assert m.kind(None) == (False, False, True)
    assert m.as_int(5) == 5
    with pytest.raises(TypeError, match="expected a value of type int, got None"):
        m.as_int(None)


def test_isinstance_rejects_bool_as_int():
    f = fn('function k(x: union<bool, i64>) -> bool\n  ISINST r1 r0 type:"i64"\n  RETURN r1')
    assert f(3) is True and f(True) is False


def test_free_clears_the_register():
    f = fn("function f(x: tensor) -> none\n  MOVE r1 r0\n  FREE r1\n  RETURN r1")
    assert f(np.zeros(2)) is None


def test_raise_and_unreachable():
    m = build("""
function boom(msg: str) -> none
  .entry boom
  LOADK  r1 "KeyError"
  KCALL  r2 exc.new (r1, r0)
  RAISE  r2

function never() -> none
  .entry never
  UNREACHABLE
""")
    with pytest.raises(KeyError, match="'lost'"):
        m.boom("lost")
    with pytest.raises(RuntimeError, match="unreachable"):
        m.never()


def test_generated_code_has_no_builtins():
    text = translated_source(assemble(
        "function f(xs: list<i64>) -> i64\n  KCALL r1 list.len (r0)\n  RETURN r1"))
    assert "_len(r0)" in text and "len(" not in text.replace("_len(", "")
    m = build("function f(xs: list<i64>) -> i64\n  .entry f\n  KCALL r1 list.len (r0)\n"
              "  RETURN r1")
    assert m.entry("f")._fn.__globals__["__builtins__"] == {}


def test_statements_carry_script_lines():
    m = build("""
function f(a: i64) -> i64
  .entry f
  .line 3
  LOADK  r1 0
  .line 7
  KCALL  r2 int.floordiv (r0, r1)
  RETURN r2
""", sources=[("script.py", "\n" * 6 + "    return a // 0\n")])
    with pytest.raises(ZeroDivisionError) as ei:
        m(1)
    frames = [(tb.tb_frame.f_code.co_filename, tb.tb_lineno)
              for tb in _walk(ei.value.__traceback__)]
    assert ("script.py", 7) in frames


def _walk(tb):
    while tb is not None:
        yield tb
        tb = tb.tb_next


def test_same_program_built_twice_is_independent():
    text = "function f(xs: list<i64>) -> none\n  .entry f\n  LOADK r1 1\n" \
           "  KCALL r2 list.append (r0, r1)\n  RETURN r2"
    a, b = build(text), build(text)
    xs = []
    a(xs)
    b(xs)
    assert xs == [1, 1]
    assert a.entry("f")._fn is not b.entry("f")._fn


def test_disassembly_round_trips_through_the_assembler():
    text = POINT.replace("\n\n", "\n\n")
    program = assemble(text)
    again = assemble(mobile.disassemble(program))
    for f, g in zip(program.functions, again.functions):
        assert (f.code, f.consts, f.nregs, f.params, f.param_types) == \
            (g.code, g.consts, g.nregs, g.params, g.param_types)
    assert again.classes == program.classes and again.entries == program.entries


def test_disassemble_one_function():
    program = assemble(POINT)
    text = mobile.disassemble(program.functions[0])
    assert text.startswith("function make(a: i64, b: i64) -> !Point")
    assert "NEWOBJ     r2 c0 (r0, r1)" in text and "SETF       r2 1 r3" in text
