"""More of the lowering table (ops_table.EMITTERS): divmod, true division of ints, round,
comparisons of an int with a float, ranges, and equality of lists and tuples.

Each follows CPython exactly (ops_table's rule): `int / int` is correctly rounded (a
long division past 2**53, as CPython's long_true_divide), `int < float` compares exactly.
"""

from __future__ import annotations

from llvmlite import ir

from ember.ir import types as T
from ember.llvm import rt as RT
from ember.llvm.layout import F64, I8, I64, NotNative, lltype
from ember.llvm.ops_table import (
    _float_divmod, _floordiv, _int_mod, _isnan, args, emitter, fail, load_elem, to_i8,
)

_ICMP = {"eq": "==", "ne": "!=", "lt": "<", "le": "<=", "gt": ">", "ge": ">="}


@emitter("int.divmod")
def _int_divmod(g, op):
    a, b = args(g, op)
    q = _floordiv(g, op, a, b, True)
    r = _int_mod(g, op, a, b)
    return _pair(g, op, q, r)


@emitter("float.divmod")
def _float_divmod_op(g, op):
    a, w = args(g, op)
    fail(g, op, g.b.fcmp_ordered("==", w, ir.Constant(F64, 0.0)), [a, w],
         cls="ZeroDivisionError")
    q, m = _float_divmod(g, op, a, w)
    return _pair(g, op, q, m)


def _pair(g, op, x, y):
    from ember.llvm.layout import lltype
    agg = ir.Constant(lltype(op.result.type), None)
    return g.b.insert_value(g.b.insert_value(agg, x, 0), y, 1)


@emitter("float.round")
def _float_round(g, op):
    (x,) = args(g, op)
    b = g.b
    r = b.call(g.mg.intrinsic("llvm.roundeven", F64), [x])
    fail(g, op, _isnan(g, x), [x], cls="ValueError")
    lo, hi = ir.Constant(F64, -9223372036854775808.0), ir.Constant(F64, 9223372036854775808.0)
    ok = b.and_(b.fcmp_ordered(">=", r, lo), b.fcmp_ordered("<", r, hi))
    fail(g, op, b.not_(ok), [x], cls="OverflowError")
    return b.fptosi(r, I64)


# ----------------------------------------------------------------------------- int / int

@emitter("int.truediv")
def _int_truediv(g, op):
    a, d = args(g, op)
    b = g.b
    fail(g, op, b.icmp_signed("==", d, I64(0)), [a, d], cls="ZeroDivisionError")
    small = b.and_(_fits53(g, a), _fits53(g, d))
    out = g.slot(T.F64)
    fast, slow, done = (b.append_basic_block(n) for n in ("div.fast", "div.slow", "div.done"))
    b.cbranch(small, fast, slow)
    b.position_at_end(fast)
    b.store(b.fdiv(b.sitofp(a, F64), b.sitofp(d, F64)), out)
    b.branch(done)
    b.position_at_end(slow)
    b.store(_exact_quotient(g, a, d), out)
    b.branch(done)
    b.position_at_end(done)
    return b.load(out, typ=F64)


def _fits53(g, x):
    b = g.b
    lim = I64(1 << 53)
    return b.and_(b.icmp_signed("<=", x, lim), b.icmp_signed(">=", x, b.neg(lim)))


def _abs_u(g, x):
    b = g.b
    return b.select(b.icmp_signed("<", x, I64(0)), b.sub(I64(0), x), x)  # as unsigned


def _bitlen(g, x):
    ctlz = g.mg.intrinsic_ctlz()
    return g.b.sub(I64(64), g.b.call(ctlz, [x, ir.Constant(ir.IntType(1), 0)]))


def _exact_quotient(g, a, d):
    """a / d correctly rounded, for |a| or |d| past 2**53: a binary long division of
    |a| * 2**s by |d| to 55+ quotient bits, the remainder's sticky bit folded into the
    lowest, then one rounding conversion and an exact scaling by 2**-s."""
    b = g.b
    A, D = _abs_u(g, a), _abs_u(g, d)
    la, ld = _bitlen(g, A), _bitlen(g, D)
    s = b.add(b.sub(ld, la), I64(56))
    s = b.select(b.icmp_signed("<", s, I64(0)), I64(0), s)
    nbits = b.add(la, s)
    q, r, i = g.slot(T.I64), g.slot(T.I64), g.slot(T.I64)
    b.store(I64(0), q)
    b.store(I64(0), r)
    b.store(b.sub(nbits, I64(1)), i)
    head, body, done = (b.append_basic_block(n) for n in ("ld.head", "ld.body", "ld.done"))
    b.branch(head)
    b.position_at_end(head)
    k = b.load(i, typ=I64)
    b.cbranch(b.icmp_signed(">=", k, I64(0)), body, done)
    b.position_at_end(body)
    shift = b.sub(k, s)
    bit = b.select(b.icmp_signed(">=", shift, I64(0)),
                   b.and_(b.lshr(A, b.select(b.icmp_signed(">=", shift, I64(0)), shift,
                                             I64(0))), I64(1)), I64(0))
    rem = b.or_(b.shl(b.load(r, typ=I64), I64(1)), bit)
    ge = b.icmp_unsigned(">=", rem, D)
    b.store(b.select(ge, b.sub(rem, D), rem), r)
    b.store(b.or_(b.shl(b.load(q, typ=I64), I64(1)), b.zext(ge, I64)), q)
    b.store(b.sub(k, I64(1)), i)
    b.branch(head)
    b.position_at_end(done)
    sticky = b.zext(b.icmp_unsigned("!=", b.load(r, typ=I64), I64(0)), I64)
    mant = b.uitofp(b.or_(b.load(q, typ=I64), sticky), F64)
    scale = b.bitcast(b.shl(b.sub(I64(1023), s), I64(52)), F64)
    mag = b.fmul(mant, scale)
    neg = b.xor(b.icmp_signed("<", a, I64(0)), b.icmp_signed("<", d, I64(0)))
    return b.select(neg, b.fneg(mag), mag)


# ----------------------------------------------------------------------------- int <=> float

def _cmp_int_float(g, i, f):
    """-1, 0 or 1 as i <, ==, > f (f not NaN), exactly."""
    b = g.b
    t = b.call(g.mg.intrinsic("llvm.trunc", F64), [f])
    lo, hi = ir.Constant(F64, -9223372036854775808.0), ir.Constant(F64, 9223372036854775808.0)
    inside = b.and_(b.fcmp_ordered(">=", t, lo), b.fcmp_ordered("<", t, hi))
    ti = b.fptosi(b.select(inside, t, ir.Constant(F64, 0.0)), I64)
    frac = b.fsub(f, t)
    c_int = b.select(b.icmp_signed("<", i, ti), I64(-1),
                     b.select(b.icmp_signed(">", i, ti), I64(1),
                              b.select(b.fcmp_ordered(">", frac, ir.Constant(F64, 0.0)),
                                       I64(-1),
                                       b.select(b.fcmp_ordered("<", frac,
                                                               ir.Constant(F64, 0.0)),
                                                I64(1), I64(0)))))
    outside = b.select(b.fcmp_ordered("<", f, ir.Constant(F64, 0.0)), I64(1), I64(-1))
    return b.select(inside, c_int, outside)


def _mixed(g, op, i, f, flip: bool):
    b = g.b
    pred = _ICMP[op.name.split(".")[1].split("_")[0]]
    c = _cmp_int_float(g, i, f)
    if flip:
        c = b.neg(c)
    r = b.icmp_signed(pred, c, I64(0))
    nan = _isnan(g, f)
    return to_i8(b, b.select(nan, ir.Constant(ir.IntType(1), int(pred == "!=")), r))


@emitter(*[f"int.{n}_float" for n in _ICMP])
def _int_cmp_float(g, op):
    i, f = args(g, op)
    return _mixed(g, op, i, f, False)


@emitter(*[f"float.{n}_int" for n in _ICMP])
def _float_cmp_int(g, op):
    f, i = args(g, op)
    return _mixed(g, op, i, f, True)


# ----------------------------------------------------------------------------- ranges

def _range_len_v(g, op, lo, hi, step):
    b = g.b
    fail(g, op, b.icmp_signed("==", step, I64(0)), None, kernel="builtins.range_len",
         kinds=("i64", "i64", "i64"), cls="ValueError") if op.name == "builtins.range_len" \
        else None
    up = b.icmp_signed(">", step, I64(0))
    diff = b.select(up, b.sub(hi, lo), b.sub(lo, hi))
    mag = b.select(up, step, b.sub(I64(0), step))
    nonempty = b.select(up, b.icmp_signed("<", lo, hi), b.icmp_signed(">", lo, hi))
    n = b.add(b.udiv(b.sub(diff, I64(1)), mag), I64(1))
    return b.select(nonempty, n, I64(0))


@emitter("builtins.range_len")
def _range_len(g, op):
    lo, hi, step = args(g, op)
    return _range_len_v(g, op, lo, hi, step)


@emitter("builtins.range_item")
def _range_item(g, op):
    start, step, i = args(g, op)
    return g.b.add(start, g.b.mul(i, step))


@emitter("builtins.range_reversed")
def _range_reversed(g, op):
    lo, hi, step = args(g, op)
    b = g.b
    fail(g, op, b.icmp_signed("==", step, I64(0)), [lo, hi, step], cls="ValueError")
    n = _range_len_v(g, op, lo, hi, step)
    start = b.add(lo, b.mul(b.sub(n, I64(1)), step))  # range(lo, hi, step)[::-1]
    stop, o1 = (b.extract_value(r, k) for r in [b.ssub_with_overflow(lo, step)] for k in (0, 1))
    back, o2 = (b.extract_value(r, k) for r in [b.ssub_with_overflow(I64(0), step)]
                for k in (0, 1))
    g.deopt_if(b.or_(o1, o2), "a reversed range whose bounds leave int64", g.loc)
    from ember.llvm.layout import lltype
    agg = ir.Constant(lltype(op.result.type), None)
    for k, v in enumerate((start, stop, back)):
        agg = b.insert_value(agg, v, k)
    return agg


# ----------------------------------------------------------------------------- equality

def _equal(g, x, y, t):
    """i1: x == y for values of type t (ints, floats, bools, None, tuples and lists of
    them), as CPython compares container items: identity, then equality."""
    b = g.b
    if t in (T.I64, T.BOOL, T.NONE):
        return b.icmp_signed("==", x, y)
    if t == T.F64:
        return item_float_equal(g, x, y)
    if isinstance(t, T.TupleType):
        acc = ir.Constant(ir.IntType(1), 1)
        for k, e in enumerate(t.elems):
            acc = b.and_(acc, _equal(g, b.extract_value(x, k), b.extract_value(y, k), e))
        return acc
    if isinstance(t, T.ListType) and (t.elem in (T.I64, T.BOOL, T.F64) or
                                      isinstance(t.elem, (T.ClassType, T.ListType,
                                                          T.TupleType))):
        return _lists_equal(g, x, y, t.elem)
    if isinstance(t, T.ClassType):
        return object_equal(g, x, y, t)
    raise NotNative(f"== of {t}")


def item_float_equal(g, x, y):
    """Two floats held in containers: CPython's `is` before `==` makes a NaN equal to
    itself (the same object) and to no other — an identity native code does not know, so
    a NaN leaves for the VM (FunctionGen.deopt_if); other floats compare by value."""
    b = g.b
    g.deopt_if(b.fcmp_unordered("uno", x, y), "a NaN compared in a container", g.loc)
    return b.fcmp_ordered("==", x, y)


def object_equal(g, x, y, t):
    """CPython's PyObject_RichCompareBool(x, y, Py_EQ) for script objects: identity, else
    the class's __eq__ (a native function; its errors propagate), else False."""
    b = g.b
    decl = g._decl(t)
    same = b.icmp_unsigned("==", x, y)
    eq = decl.methods.get("__eq__")
    if eq is None:
        return same
    out = g.slot(T.BOOL)
    b.store(I8(1), out)
    call, done = b.append_basic_block("eq.call"), b.append_basic_block("eq.done")
    b.cbranch(same, done, call)
    b.position_at_end(call)
    r = g._direct_call(eq, [x, y], g.loc)
    b.store(r, out)
    b.branch(done)
    b.position_at_end(done)
    return b.icmp_unsigned("!=", b.load(out, typ=I8), I8(0))


def _lists_equal(g, x, y, elem):
    b = g.b
    res = g.slot(T.BOOL)
    n = RT.load_field(b, x, RT.LEN)
    b.store(b.zext(b.icmp_signed("==", n, RT.load_field(b, y, RT.LEN)), I8), res)
    k = g.slot(T.I64)
    b.store(I64(0), k)
    head, body, done = (b.append_basic_block(s) for s in ("eq.head", "eq.body", "eq.done"))
    b.branch(head)
    b.position_at_end(head)
    i = b.load(k, typ=I64)
    going = b.and_(b.icmp_signed("<", i, n), b.icmp_unsigned("!=", b.load(res, typ=I8), I8(0)))
    b.cbranch(going, body, done)
    b.position_at_end(body)
    same = _equal(g, load_elem(g, x, i, elem), load_elem(g, y, i, elem), elem)
    b.store(b.zext(same, I8), res)
    b.store(b.add(i, I64(1)), k)
    b.branch(head)
    b.position_at_end(done)
    return b.icmp_unsigned("!=", b.load(res, typ=I8), I8(0))


@emitter("any.eq", "any.ne")
def _any_eq(g, op):
    a, c = args(g, op)
    r = _equal(g, a, c, op.operands[0].type)
    return to_i8(g.b, r if op.name == "any.eq" else g.b.not_(r))


# ----------------------------------------------------------------------------- ordering

def _order(g, x, y, t):
    """i64 -1 / 0 / 1: Python's ordering of x and y (ints, bools, tuples and lists of
    them: lexicographic, a shorter prefix first)."""
    b = g.b
    if t in (T.I64, T.BOOL):
        return b.select(b.icmp_signed("<", x, y), I64(-1),
                        b.select(b.icmp_signed(">", x, y), I64(1), I64(0)))
    if t == T.F64:  # (sorts leave for the VM on a NaN first: ops_list.deopt_on_nan)
        return b.select(b.fcmp_ordered("<", x, y), I64(-1),
                        b.select(b.fcmp_ordered(">", x, y), I64(1), I64(0)))
    if isinstance(t, T.TupleType):
        acc = I64(0)
        for k in reversed(range(len(t.elems))):
            c = _order(g, b.extract_value(x, k), b.extract_value(y, k), t.elems[k])
            acc = b.select(b.icmp_signed("!=", c, I64(0)), c, acc)
        return acc
    if isinstance(t, T.ListType) and t.elem in (T.I64, T.BOOL):
        return _list_order(g, x, y, t.elem)
    raise NotNative(f"ordering of {t}")


def _list_order(g, x, y, elem):
    b = g.b
    nx, ny = RT.load_field(b, x, RT.LEN), RT.load_field(b, y, RT.LEN)
    res, k = g.slot(T.I64), g.slot(T.I64)
    b.store(I64(0), res)
    b.store(I64(0), k)
    n = b.select(b.icmp_signed("<", nx, ny), nx, ny)
    head, body, done = (b.append_basic_block(s) for s in ("ord.head", "ord.body", "ord.done"))
    b.branch(head)
    b.position_at_end(head)
    i = b.load(k, typ=I64)
    going = b.and_(b.icmp_signed("<", i, n), b.icmp_signed("==", b.load(res, typ=I64), I64(0)))
    b.cbranch(going, body, done)
    b.position_at_end(body)
    b.store(_order(g, load_elem(g, x, i, elem), load_elem(g, y, i, elem), elem), res)
    b.store(b.add(i, I64(1)), k)
    b.branch(head)
    b.position_at_end(done)
    r = b.load(res, typ=I64)
    by_len = b.select(b.icmp_signed("<", nx, ny), I64(-1),
                      b.select(b.icmp_signed(">", nx, ny), I64(1), I64(0)))
    return b.select(b.icmp_signed("!=", r, I64(0)), r, by_len)


@emitter("any.lt", "any.le", "any.gt", "any.ge")
def _any_order(g, op):
    a, c = args(g, op)
    pred = _ICMP[op.name.split(".")[1]]
    return to_i8(g.b, g.b.icmp_signed(pred, _order(g, a, c, op.operands[0].type), I64(0)))


@emitter("any.contains")
def _any_contains(g, op):
    cont, x = op.operands
    t = cont.type
    if isinstance(t, T.TupleType) and all(e == x.type for e in t.elems):
        tv, xv = g.native(cont), g.native(x)
        acc = ir.Constant(ir.IntType(1), 0)
        for k, e in enumerate(t.elems):
            acc = g.b.or_(acc, _equal(g, g.b.extract_value(tv, k), xv, e))
        return to_i8(g.b, acc)
    raise NotNative(f"`in` on {t}")


# ----------------------------------------------------------------------------- more math

@emitter("math.atan2")
def _math_atan2(g, op):
    """glibc's atan2 follows C99 Annex F, which CPython's m_atan2 special cases reproduce;
    atan2 never raises."""
    return g.b.call(g.mg.libm("atan2", 2), args(g, op))


@emitter("int.round_n")
def _int_round_n(g, op):
    """round(x, n) of an int: x for n >= 0, else to a multiple of 10**-n, half to even."""
    x, n = args(g, op)
    b = g.b
    out = g.slot(T.I64)
    b.store(x, out)
    neg, done = b.append_basic_block("rn.neg"), b.append_basic_block("rn.done")
    b.cbranch(b.icmp_signed("<", n, I64(0)), neg, done)
    b.position_at_end(neg)
    big = b.icmp_signed("<", n, I64(-18))  # 10**19 > every |x|: 0, or 10**19 at n == -19
    half = I64(5 * 10**18)
    huge = b.and_(b.icmp_signed("==", n, I64(-19)),
                  b.or_(b.icmp_signed(">", x, half), b.icmp_signed("<", x, b.neg(half))))
    fail(g, op, huge, [x, n], cls="OverflowError")
    p = g.slot(T.I64)
    b.store(I64(1), p)
    k = g.slot(T.I64)
    b.store(b.select(big, I64(0), b.sub(I64(0), n)), k)
    head, body, calc = (b.append_basic_block(s) for s in ("rn.head", "rn.body", "rn.calc"))
    b.branch(head)
    b.position_at_end(head)
    kk = b.load(k, typ=I64)
    b.cbranch(b.icmp_signed(">", kk, I64(0)), body, calc)
    b.position_at_end(body)
    b.store(b.mul(b.load(p, typ=I64), I64(10)), p)
    b.store(b.sub(kk, I64(1)), k)
    b.branch(head)
    b.position_at_end(calc)
    pv = b.load(p, typ=I64)
    q = b.sdiv(x, pv)
    r = b.srem(x, pv)
    fix = b.and_(b.icmp_signed("!=", r, I64(0)), b.icmp_signed("<", r, I64(0)))
    q = b.select(fix, b.sub(q, I64(1)), q)          # floor division
    r = b.select(fix, b.add(r, pv), r)
    twice = b.mul(r, I64(2))                       # r < p <= 10**18: no overflow
    up = b.or_(b.icmp_signed(">", twice, pv),
               b.and_(b.icmp_signed("==", twice, pv),
                      b.icmp_signed("!=", b.and_(q, I64(1)), I64(0))))
    q = b.select(up, b.add(q, I64(1)), q)
    res = b.smul_with_overflow(q, pv)
    fail(g, op, b.and_(b.not_(big), b.extract_value(res, 1)), [x, n], cls="OverflowError")
    b.store(b.select(big, I64(0), b.extract_value(res, 0)), out)
    b.branch(done)
    b.position_at_end(done)
    return b.load(out, typ=I64)


@emitter("tuple.getitem")
def _tuple_getitem(g, op):
    """t[i] with i known only at run time, of a tuple whose items share one type (the
    struct is laid out as an array of them); an empty tuple always raises IndexError."""
    t = op.operands[0].type
    if not isinstance(t, T.TupleType) or any(e != op.result.type for e in t.elems):
        raise NotNative(f"an index into a {t} known only at run time")
    b = g.b
    n, i = len(t.elems), g.native(op.operands[1])
    j = b.select(b.icmp_signed("<", i, I64(0)), b.add(i, I64(n)), i)
    bad = b.or_(b.icmp_signed("<", j, I64(0)), b.icmp_signed(">=", j, I64(n)))
    fail(g, op, bad, [], kinds=(("const", ()), ("const", 0)), cls="IndexError")
    if n == 0:  # (never reached: the index was out of range)
        return ir.Constant(lltype(op.result.type), None)
    slot = g.alloca_b.alloca(ir.ArrayType(lltype(op.result.type), n))
    b.store(g.native(op.operands[0]), b.bitcast(slot, lltype(t).as_pointer())
            if not isinstance(slot.type, ir.PointerType) or not slot.type.is_opaque else slot)
    v = b.load(b.gep(slot, [I64(0), j], inbounds=True,
                     source_etype=ir.ArrayType(lltype(op.result.type), n)),
               typ=lltype(op.result.type))
    g.retain(v, op.result.type)
    return v


@emitter("torch.check")
def _torch_check(g, op):
    """torch._check(cond, message): RuntimeError unless cond (the message a constant)."""
    cond, msg = g.native(op.operands[0]), g.get(op.operands[1])
    if op.operands[1].type == T.NONE or getattr(msg, "kind", None) == "none":
        text = None
    elif getattr(msg, "kind", None) == "str":
        text = msg.value
    else:
        raise NotNative("torch._check with a message that is not a constant string")
    fail(g, op, g.b.icmp_unsigned("==", cond, I8(0)), [cond],
         kinds=("bool", ("const", text)), cls="RuntimeError")
    return I8(0)
