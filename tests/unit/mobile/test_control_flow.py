"""Structured control flow: each listing is checked against the same code in CPython."""

import pytest

from .util import fn

NESTED = """
function nested(n: i64) -> i64
  LOADK    r1 0
  LOADK    r3 0
  LOADK    r4 1
  FOR      r2 r3 r0 r4 ->for_end
  LOADK    r5 3
  KCALL    r6 int.eq (r2, r5)
  IF       r6 ->skip
  CONTINUE
skip:
  END
  LOADK    r7 0
  LOOP     ->while_end
  KCALL    r8 int.lt (r7, r2)
  TEST     r8
  LOADK    r9 4
  KCALL    r10 int.eq (r7, r9)
  IF       r10 ->no_break
  BREAK
no_break:
  END
  LOADK    r11 10
  KCALL    r12 int.mul (r2, r11)
  KCALL    r12 int.add (r12, r7)
  KCALL    r1 int.add (r1, r12)
  KCALL    r7 int.add (r7, r4)
while_end:
  END
  LOOPELSE ->while_else_end
  LOADK    r13 1000
  KCALL    r1 int.add (r1, r13)
while_else_end:
  END
  LOADK    r14 7
  KCALL    r15 int.eq (r2, r14)
  IF       r15 ->no_stop
  BREAK
no_stop:
  END
for_end:
  END
  LOOPELSE ->for_else_end
  LOADK    r16 100000
  KCALL    r1 int.add (r1, r16)
for_else_end:
  END
  RETURN   r1
"""


def py_nested(n):
    s = 0
    for i in range(n):
        if i == 3:
            continue
        j = 0
        while j < i:
            if j == 4:
                break
            s += i * 10 + j
            j += 1
        else:
            s += 1000
        if i == 7:
            break
    else:
        s += 100000
    return s


def test_nested_loops_with_break_continue_else():
    f = fn(NESTED)
    for n in range(12):
        assert f(n) == py_nested(n), n


WHILE_COND = """
function w(n: i64) -> i64
  LOADK    r1 0
  LOADK    r2 0
  LOADK    r3 1
  LOADK    r4 2
  LOADK    r5 9
  LOADK    r12 0
  LOOP     ->end
  KCALL    r6 int.mul (r1, r1)
  KCALL    r7 int.lt (r6, r0)
  TEST     r7
  KCALL    r1 int.add (r1, r3)
  KCALL    r8 int.mod (r1, r4)
  KCALL    r9 int.eq (r8, r12)
  IF       r9 ->odd
  CONTINUE
odd:
  END
  KCALL    r10 int.eq (r1, r5)
  IF       r10 ->go
  BREAK
go:
  END
  KCALL    r2 int.add (r2, r1)
end:
  END
  LOOPELSE ->else_end
  LOADK    r11 1000
  KCALL    r2 int.add (r2, r11)
else_end:
  END
  RETURN   r2
"""


def py_while_cond(n):
    j = s = 0
    while j * j < n:
        j += 1
        if j % 2 == 0:
            continue
        if j == 9:
            break
        s += j
    else:
        s += 1000
    return s


def test_while_with_condition_code_continue_and_else():
    f = fn(WHILE_COND)
    for n in [0, 1, 2, 5, 10, 30, 63, 64, 65, 100, 200]:
        assert f(n) == py_while_cond(n), n


TRYING = """
function trying(n: i64) -> i64
  LOADK    r1 0
  LOADK    r2 0
  LOADK    r3 1
  FOR      r4 r2 r0 r3 ->for_end
  TRY      ->try_end
  LOADK    r5 3
  KCALL    r6 int.mod (r4, r5)
  KCALL    r7 int.eq (r6, r2)
  IF       r7 ->no_raise
  LOADK    r8 "ValueError"
  LOADK    r9 "v"
  KCALL    r10 exc.new (r8, r9)
  RAISE    r10
no_raise:
  END
  LOADK    r11 5
  KCALL    r12 int.eq (r4, r11)
  IF       r12 ->no_break
  BREAK
no_break:
  END
  KCALL    r1 int.add (r1, r3)
  EXCEPT   r13 [ValueError] ->else
  LOADK    r14 10
  KCALL    r1 int.add (r1, r14)
  CONTINUE
else:
  TRYELSE
  LOADK    r15 100
  KCALL    r1 int.add (r1, r15)
  FINALLY
  LOADK    r16 1000
  KCALL    r1 int.add (r1, r16)
try_end:
  END
for_end:
  END
  RETURN   r1
"""


def py_trying(n):
    log = 0
    for i in range(n):
        try:
            if i % 3 == 0:
                raise ValueError("v")
            if i == 5:
                break
            log += 1
        except ValueError:
            log += 10
            continue
        else:
            log += 100
        finally:
            log += 1000
    return log


def test_try_except_else_finally_with_break_and_continue():
    f = fn(TRYING)
    for n in range(9):
        assert f(n) == py_trying(n), n


RETURNS = """
function ret(x: i64) -> i64
  LOADK    r1 0
  LOADK    r5 5
  TRY      ->try_end
  KCALL    r2 int.gt (r0, r1)
  IF       r2 ->negative
  RETURN   r0
negative:
  END
  LOADK    r3 "KeyError"
  LOADK    r4 "k"
  KCALL    r6 exc.new (r3, r4)
  RAISE    r6
  EXCEPT   r7 [KeyError] ->finally
  LOADK    r8 -1
  RETURN   r8
finally:
  FINALLY
  KCALL    r9 int.eq (r0, r5)
  IF       r9 ->keep
  LOADK    r10 55
  RETURN   r10
keep:
  END
try_end:
  END
"""


def py_returns(x):
    try:
        if x > 0:
            return x
        raise KeyError("k")
    except KeyError:
        return -1
    finally:
        if x == 5:
            return 55  # noqa: B012 - the override is what is tested


def test_return_inside_try_and_finally():
    f = fn(RETURNS)
    for x in [-3, 0, 3, 5]:
        assert f(x) == py_returns(x), x


PROPAGATE = """
function prop(xs: list<i64>, d: i64) -> i64
  LOADK    r2 1
  TRY      ->end
  TRY      ->inner_end
  KCALL    r3 int.floordiv (r2, r1)
  EXCEPT   r4 [KeyError, IndexError] ->inner_end
  LOADK    r3 -1
inner_end:
  END
  FINALLY
  KCALL    r5 list.append (r0, r2)
end:
  END
  RETURN   r3
"""


def test_unmatched_exception_runs_finally_and_propagates():
    f = fn(PROPAGATE)
    xs = []
    assert f(xs, 1) == 1 and xs == [1]
    with pytest.raises(ZeroDivisionError, match="integer division or modulo by zero"):
        f(xs, 0)
    assert xs == [1, 1]


CATCH_ALL = """
function catch(a: i64, b: i64) -> str
  TRY      ->end
  KCALL    r2 int.floordiv (r0, r1)
  KCALL    r3 int.to_str (r2)
  EXCEPT   r4 [] ->end
  TRY      ->inner_end
  RAISE    r4
  EXCEPT   r5 [ArithmeticError] ->inner_end
  KCALL    r3 exc.str (r5)
inner_end:
  END
end:
  END
  RETURN   r3
"""


def test_catch_all_binds_and_reraises_the_same_exception():
    f = fn(CATCH_ALL)
    assert f(7, 2) == "3"
    assert f(7, 0) == "integer division or modulo by zero"


RANGES = """
function ranges(a: i64, b: i64, c: i64) -> i64
  LOADK    r3 0
  FOR      r4 r0 r1 r2 ->end
  KCALL    r3 int.add (r3, r4)
end:
  END
  RETURN   r3
"""


def test_for_range_semantics_including_zero_step():
    f = fn(RANGES)
    for a, b, c in [(0, 10, 1), (10, 0, -1), (10, 0, -3), (5, 5, 1), (0, 10, 4), (3, -8, -2)]:
        assert f(a, b, c) == sum(range(a, b, c))
    with pytest.raises(ValueError, match="range\\(\\) arg 3 must not be zero"):
        f(0, 10, 0)


FIB = """
function fib(n: i64) -> i64
  LOADK    r1 2
  LOADK    r2 1
  KCALL    r3 int.lt (r0, r1)
  IF       r3 ->recurse
  RETURN   r0
recurse:
  END
  KCALL    r4 int.sub (r0, r2)
  CALL     r4 @fib (r4)
  KCALL    r0 int.sub (r0, r1)
  CALL     r0 @fib (r0)
  KCALL    r0 int.add (r4, r0)
  RETURN   r0
"""


def test_recursive_fib_in_bytecode():
    assert fn(FIB)(25) == 75025


def test_if_else_both_paths_assign():
    f = fn("""
function sign(x: i64) -> str
  LOADK    r1 0
  KCALL    r2 int.lt (r0, r1)
  IF       r2 ->else
  LOADK    r3 "negative"
else:
  ELSE     ->end
  LOADK    r3 "non-negative"
end:
  END
  RETURN   r3
""")
    assert (f(-1), f(0), f(4)) == ("negative", "non-negative", "non-negative")
