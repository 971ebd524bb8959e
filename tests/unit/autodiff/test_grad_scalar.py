"""Scalar gradients: every float rule against central finite differences (float64), and
gradient programs with branches, loops, early returns, calls, recursion; grad of grad."""

import math
from typing import List

import pytest

import ember
from ember.errors import CompileError

H = 1e-6


def fd(f, args, i):
    a = list(args)
    a[i] += H
    hi = f(*a)
    a[i] -= 2 * H
    lo = f(*a)
    return (hi - lo) / (2 * H)


def check(fn, *args, tol=1e-6):
    n = len(args)
    g = ember.grad(fn, argnums=tuple(range(n)))(*args)
    for i in range(n):
        want = fd(fn, args, i)
        assert g[i] == pytest.approx(want, rel=tol, abs=tol), (fn.__name__, i, g[i], want)


def f_add(x: float, y: float) -> float:
    return x + y * y


def f_sub(x: float, y: float) -> float:
    return x - y * x


def f_div(x: float, y: float) -> float:
    return x / y - y / x


def f_neg_abs(x: float, y: float) -> float:
    return -abs(x) * +y


def f_pow(x: float, y: float) -> float:
    return x ** y + math.pow(y, x)


def f_exp_log(x: float, y: float) -> float:
    return math.exp(x) * math.log(y) + math.expm1(x) + math.log1p(y) + math.log2(y) + \
        math.log10(x)


def f_trig(x: float, y: float) -> float:
    return math.sin(x) * math.cos(y) + math.tan(x) + math.atan(y) + math.atan2(y, x)


def f_hyp(x: float, y: float) -> float:
    return math.tanh(x) + math.sinh(y) * math.cosh(x) + math.asinh(x) + math.atanh(y / 2.0)


def f_inv(x: float, y: float) -> float:
    return math.asin(y / 2.0) + math.acos(x / 2.0) + math.sqrt(x) + math.hypot(x, y)


def f_erf(x: float, y: float) -> float:
    return math.erf(x) * math.erfc(y)


def f_fabs(x: float, y: float) -> float:
    return math.fabs(x - y) * float(y)


@pytest.mark.parametrize("fn", [f_add, f_sub, f_div, f_neg_abs, f_pow, f_exp_log, f_trig,
                                f_hyp, f_inv, f_erf, f_fabs])
def test_scalar_rule_matches_finite_differences(fn):
    check(fn, 0.7, 1.3)


def branches(x: float, y: float) -> float:
    z = x * y
    if x > y:
        z = z * x
    else:
        z = z + math.sin(y)
    return z


def loop(x: float, y: float) -> float:
    z = x
    for i in range(4):
        z = z * y + x * float(i)
    return z


def while_loop(x: float, y: float) -> float:
    z = x
    n = 0
    while n < 5 and z < 100.0:
        z = z * y + 1.0
        n += 1
    return z


def nested(x: float, y: float) -> float:
    z = 0.0
    for i in range(3):
        if z > 1.0:
            z = z + x * y
        else:
            for j in range(2):
                z = z + math.sin(x * float(j))
    return z


def early(x: float, y: float) -> float:
    if x > 2.0:
        return x * y
    w = x * x
    if w > 0.25:
        return w * y
    return w + y


def helper(a: float, b: float) -> float:
    return a * math.exp(b)


def calls(x: float, y: float) -> float:
    return helper(x, y) + helper(y, x * x)


def rec(x: float, n: int) -> float:
    if n == 0:
        return x
    return math.sin(rec(x, n - 1)) * x


def tuples(x: float, y: float) -> float:
    t = (x * y, y, 3)
    a, b, c = t
    return a * b + float(c) * x


@pytest.mark.parametrize("fn", [branches, loop, while_loop, nested, early, calls, tuples])
@pytest.mark.parametrize("args", [(0.6, 1.4), (1.5, 0.8), (3.0, 1.1)])
def test_programs(fn, args):
    check(fn, *args)


def test_recursion():
    g = ember.grad(rec)
    for n in (0, 1, 4):
        assert g(0.7, n) == pytest.approx(fd(lambda x: rec(x, n), [0.7], 0), rel=1e-6)


def test_value_and_grad_returns_value():
    v, (gx, gy) = ember.value_and_grad(branches, (0, 1))(1.5, 0.5)
    assert v == branches(1.5, 0.5)
    assert isinstance(gx, float) and isinstance(gy, float)


def test_grad_of_grad():
    def f(x: float) -> float:
        y = x * x * math.sin(x)
        if x > 1.0:
            y = y * x
        return y

    d1 = ember.grad(f)
    d2 = ember.grad(d1)
    for x in (0.4, 1.3):
        assert d2(x) == pytest.approx(fd(d1, [x], 0), rel=1e-5)


def test_int_argnum_is_compile_error():
    def f(x: float, n: int) -> float:
        return x * float(n)

    with pytest.raises(CompileError, match="parameter 'n'"):
        ember.grad(f, argnums=1)


def test_non_scalar_result_is_compile_error():
    def f(x: float) -> str:
        return str(x)

    with pytest.raises(CompileError, match="must return a float"):
        ember.grad(f)


def test_op_without_rule_is_compile_error_at_its_line():
    def f(x: float) -> float:
        return math.fmod(x, 0.3)

    with pytest.raises(CompileError, match="math.fmod") as e:
        ember.grad(f)
    assert e.value.span is not None


def test_grad_of_grad_through_loops():
    # the loop's tape is a list of floats: its elements differentiate (lists.py)
    def f(x: float) -> float:
        z = x
        for i in range(3):
            z = z * math.sin(x) + float(i)
        k = 0
        while k < 2:
            z = math.tanh(z) * x
            k += 1
        return z

    d1 = ember.grad(f)
    d2 = ember.grad(d1)
    for x in (0.4, 1.3):
        assert d2(x) == pytest.approx(fd(d1, [x], 0), rel=1e-6)


def _float_list_to_call(x: float) -> float:
    return _first_times_second([x, 2.0 * x])


def _first_times_second(xs: List[float]) -> float:
    return xs[0] * xs[1]


def test_float_list_passed_to_a_call_is_refused_not_dropped():
    # its gradient was silently 0
    with pytest.raises(CompileError, match="list of tensors or floats passed to"):
        ember.grad(_float_list_to_call)


def _float_lists(x: float, y: float) -> float:
    xs = [x, 2.0 * y]
    zs: List[float] = []
    z = x
    for i in range(3):
        z = math.sin(z) * y
        zs.append(z)
    s = 0.0
    for v in zs:
        s = s + v * v
    return xs[0] * xs[1] + xs[-1] + s + zs[1]


@pytest.mark.parametrize("args", [(0.6, 1.4), (1.5, -0.8)])
def test_lists_of_floats(args):
    check(_float_lists, *args)


def test_gradient_saves_and_loads(tmp_path):
    from ember import mobile
    g = ember.grad(loop, (0, 1))
    g.save(tmp_path / "g.ember")
    assert mobile.load(tmp_path / "g.ember")(0.9, 1.2) == g(0.9, 1.2)


def _loop_break(x: float) -> float:
    z = x
    for i in range(10):
        z = z * x
        if z > 5.0:
            break
    return z


def _loop_continue(x: float) -> float:
    z = x
    for i in range(6):
        if i % 2 == 0:
            continue
        z = z * x
    return z


def _loop_return(x: float) -> float:
    z = x
    while z < 100.0:
        z = z * x
        if z > 5.0:
            return z + 1.0
    return z


@pytest.mark.parametrize("fn,word", [(_loop_break, "break"), (_loop_continue, "continue"),
                                     (_loop_return, "return")])
def test_jumps_inside_differentiated_loops_are_refused_at_their_line(fn, word):
    with pytest.raises(ember.errors.UnsupportedError, match=f"'{word}' inside") as e:
        ember.grad(fn)
    text = str(e.value)
    assert e.value.span is not None and "^" in text
    assert any("|" in ln and ln.split("|", 1)[1].strip().startswith(word)
               for ln in text.splitlines()), text
