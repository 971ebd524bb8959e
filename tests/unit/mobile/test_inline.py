"""Every inlined operator behaves exactly like its ember.ops kernel.

Each case runs the operator through bytecode in several shapes (fresh
destination, destination = first operand, each scalar operand a constant —
which selects one-sided overflow checks) and compares the result, the first
operand afterwards (for mutating operators) or the exception type and
message with a direct call of the kernel.
"""

import copy
import math

import pytest

from ember import mobile, ops
from ember.interpreter.assembler import assemble
from ember.mobile.disasm import literal
from ember.mobile.inline import INLINE
from ember.ops.int64 import INT64_MAX, INT64_MIN

_INTS = [0, 1, -1, 2, -2, 7, -7, 3, 63, 64, 65, 1000003, 2 ** 31, -(2 ** 31), 2 ** 32 + 5,
         1 << 62, -(1 << 62), INT64_MAX, INT64_MIN, INT64_MAX - 1, INT64_MIN + 1]
# Domains: (IR type, sample values).
INTS = ("i64", _INTS)
SMALL = ("i64", _INTS[:3])
ANYS = ("i64", _INTS[:8])
FLOATS = ("f64", [0.0, -0.0, 1.5, -2.25, 3.0, 1e308, -1e308, 1e-300, math.inf, -math.inf,
                  math.nan])
BOOLS = ("bool", [True, False])
STRS = ("str", ["", "a", "abc", "b"])
IDX = ("i64", [0, 2, -1, 3, -4])
LISTS = ("list<i64>", [[], [1, 2, 3]])
DICTS = ("dict<str, i64>", [{}, {"a": 1, "c": 3}])
KEYS = ("str", ["a", "b"])
TUPLES = ("tuple<i64, i64, i64>", [(1, 2, 3)])
OPTS = ("optional<i64>", [None, 1])


def _domains(name):
    recv, verb = name.split(".")
    table = {
        "str.getitem": (STRS, IDX), "str.len": (STRS,), "str.contains": (STRS, STRS),
        "list.getitem": (LISTS, IDX), "list.setitem": (LISTS, IDX, SMALL),
        "list.len": (LISTS,), "list.append": (LISTS, SMALL), "list.pop": (LISTS, IDX),
        "list.contains": (LISTS, SMALL), "any.contains": (LISTS, SMALL),
        "dict.getitem": (DICTS, KEYS), "dict.setitem": (DICTS, KEYS, SMALL),
        "dict.len": (DICTS,), "dict.contains": (DICTS, KEYS), "dict.get": (DICTS, KEYS, SMALL),
        "tuple.getitem": (TUPLES, IDX), "tuple.len": (TUPLES,), "obj.is": (OPTS, OPTS),
        "obj.isnot": (OPTS, OPTS),
    }
    if name in table:
        return table[name]
    arity = ops.get(name).arity
    mixed = verb[:2] in ("eq", "ne", "lt", "le", "gt", "ge")
    if mixed and verb.endswith("_float"):
        return (INTS, FLOATS)
    if mixed and verb.endswith("_int"):
        return (FLOATS, INTS)
    base = {"int": INTS, "float": FLOATS, "bool": BOOLS, "str": STRS, "any": ANYS}[recv]
    return (base,) * arity


def _listing(name, domains):
    """Functions: f_reg (all registers), f_dest (result into r0), f_k<j>_<i> (operand j is
    constant i); each returns (result, first operand afterwards)."""
    n = len(domains)
    ret = {"int": "i64", "float": "f64", "bool": "bool", "str": "str", "None": "none"}.get(
        str(ops.get(name).schema.ret), "i64")
    tup = f"tuple<{ret}, {domains[0][0]}>"
    regs = ", ".join(f"r{j}" for j in range(n))
    sig = ", ".join(f"p{j}: {d[0]}" for j, d in enumerate(domains))
    out = [f"function f_reg({sig}) -> {tup}\n  KCALL r{n} {name} ({regs})\n"
           f"  TUPLE r{n + 1} (r{n}, r0)\n  RETURN r{n + 1}",
           f"function f_dest({sig}) -> {tup}\n  KCALL r0 {name} ({regs})\n"
           f"  TUPLE r{n} (r0, r0)\n  RETURN r{n}"]
    if n == 2 and domains[0][0] == domains[1][0]:
        out += [f"function f_dest1({sig}) -> {tup}\n  KCALL r1 {name} ({regs})\n"
                f"  TUPLE r2 (r1, r0)\n  RETURN r2",
                f"function f_same({sig}) -> {tup}\n  KCALL r0 {name} (r0, r0)\n"
                f"  TUPLE r2 (r0, r0)\n  RETURN r2"]
    for j, d in enumerate(domains):
        if d[0] not in ("i64", "f64", "bool", "str"):
            continue
        rest = ", ".join(f"p{q}: {e[0]}" for q, e in enumerate(domains) if q != j)
        operands = ", ".join(f"r{n}" if q == j else f"r{q - (q > j)}" for q in range(n))
        first = f"r{n}" if j == 0 else "r0"
        for i, value in enumerate(d[1]):
            out.append(f"function f_k{j}_{i}({rest}) -> {tup}\n"
                       f"  LOADK r{n} {literal(value)}\n  KCALL r{n + 1} {name} ({operands})\n"
                       f"  TUPLE r{n + 2} (r{n + 1}, {first})\n  RETURN r{n + 2}")
    return "\n\n".join(out)


def _outcome(f, args):
    try:
        return ("ok", repr(f(*args)))
    except Exception as e:  # noqa: BLE001 - the exception is the outcome under test
        return (type(e).__name__, str(e))


def _expected(kernel, args, dest_is_first):
    args = copy.deepcopy(args)
    try:
        r = kernel(*args)
    except Exception as e:  # noqa: BLE001
        return (type(e).__name__, str(e))
    return ("ok", repr((r, r) if dest_is_first else (r, args[0])))


def _expected_dest1(kernel, args):
    """The outcome of `r1 := op(r0, r1)`, returning (r1, r0)."""
    args = copy.deepcopy(args)
    try:
        r = kernel(*args)
    except Exception as e:  # noqa: BLE001
        return (type(e).__name__, str(e))
    return ("ok", repr((r, args[0])))


def _combos(domains):
    out = [[]]
    for _, values in domains:
        out = [c + [v] for c in out for v in values]
    return out


@pytest.mark.parametrize("name", sorted(INLINE))
def test_inline_matches_kernel(name):
    kernel = ops.get(name).kernel
    domains = _domains(name)
    program = assemble(_listing(name, domains))
    program.entries = {f.name: i for i, f in enumerate(program.functions)}
    m = mobile.build(program)
    for args in _combos(domains):
        for entry, dest in (("f_reg", False), ("f_dest", True)):
            got = _outcome(m.entry(entry), copy.deepcopy(args))
            assert got == _expected(kernel, args, dest), (entry, args)
        if "f_same" in program.entries:
            got = _outcome(m.entry("f_same"), copy.deepcopy(args))
            assert got == _expected(kernel, [args[0], args[0]], True), ("f_same", args)
            got = _outcome(m.entry("f_dest1"), copy.deepcopy(args))
            assert got == _expected_dest1(kernel, args), ("f_dest1", args)
        for j, d in enumerate(domains):
            if f"f_k{j}_0" not in program.entries:
                continue
            i = next(i for i, v in enumerate(d[1]) if repr(v) == repr(args[j]))
            rest = [a for q, a in enumerate(args) if q != j]
            got = _outcome(m.entry(f"f_k{j}_{i}"), copy.deepcopy(rest))
            assert got == _expected(kernel, args, False), (f"f_k{j}_{i}", args)


def test_overflow_messages_name_the_operands():
    m = mobile.build(assemble(
        "function f(a: i64, b: i64) -> i64\n  .entry f\n"
        "  KCALL r0 int.add (r0, r1)\n  RETURN r0"))
    with pytest.raises(OverflowError) as ei:
        m(INT64_MAX, 1)
    assert ei.value.args == ("int64 overflow: 9223372036854775807 + 1",)


@pytest.mark.parametrize("ir, args, message", [
    ("KCALL r0 int.neg (r0)", (INT64_MIN,), "-(-9223372036854775808)"),
    ("KCALL r0 int.abs (r0)", (INT64_MIN,), "abs(-9223372036854775808)"),
    ("KCALL r0 int.sub (r0, r1)", (1, INT64_MIN), "1 - (-9223372036854775808)"),
])
def test_overflow_messages_read_as_python(ir, args, message):
    params = ", ".join(f"{n}: i64" for n in "ab"[:len(args)])
    m = mobile.build(assemble(f"function f({params}) -> i64\n  .entry f\n  {ir}\n"
                              "  RETURN r0"))
    with pytest.raises(OverflowError) as ei:
        m(*args)
    assert ei.value.args == ("int64 overflow: " + message,)


def test_hot_scalar_operators_do_not_call_kernels():
    from ember.mobile.runtime import translated_source
    text = translated_source(assemble(
        "function f(a: i64, b: i64, xs: list<i64>) -> i64\n"
        "  KCALL r3 int.add (r0, r1)\n  KCALL r4 int.mul (r3, r1)\n"
        "  KCALL r5 list.getitem (r2, r4)\n  KCALL r6 list.append (r2, r5)\n"
        "  KCALL r7 int.to_str (r5)\n  RETURN r5"))
    assert "_k0(" not in text and "_k1(" not in text and "_k2(" not in text
    assert ".append(" in text and "_k4(" in text


def test_nowrap_operators_have_no_overflow_check():
    from ember.mobile.runtime import translated_source
    text = translated_source(assemble(
        "function f(a: i64, b: i64) -> i64\n"
        "  KCALL r2 int.add_nowrap (r0, r1)\n  KCALL r2 int.sub_nowrap (r2, r1)\n"
        "  KCALL r2 int.mul_nowrap (r2, r0)\n  KCALL r2 int.floordiv_nowrap (r2, r1)\n"
        "  KCALL r2 int.neg_nowrap (r2)\n  KCALL r2 int.abs_nowrap (r2)\n  RETURN r2"))
    assert "_ovf" not in text and "9223372036854775807" not in text and "_k" not in text


def test_square_checks_only_the_upper_bound():
    from ember.mobile.runtime import translated_source
    text = translated_source(assemble(
        "function f(a: i64) -> i64\n  KCALL r1 int.mul (r0, r0)\n  RETURN r1"))
    assert "> 9223372036854775807" in text and "<" not in text
