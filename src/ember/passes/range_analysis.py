"""Range analysis: an interval for every i64 value, at every point of a function.

One forward walk over the structured IR with an environment of refinements in scope
(value -> interval narrower than the one its definition gives). Facts come from

- constants and operator rules (interval arithmetic, `%` and `//`, lengths, bool -> int);
- branches: in an `if`'s regions, a `while`'s body and after its loop, the condition's
  truth refines the compared values (through `not` and the `if` that `and`/`or` become);
  after an `if` whose other region exits, the falling-through region's facts hold;
- success: after an op that raises on bad operands, later ops see operands it accepted
  (an index of a list access lies in INDEX; the operands of a checked `+ - *` make the
  exact result fit in int64);
- loops: a `for`'s induction variable lies between its bounds; carried values are
  iterated to a fixed point, widened to the int64 limits after a few rounds;
- counters: a `for` loop's carried value that every iteration passes on unchanged or
  grown by constants (c, c + 1, an `if` yielding either, a `continue` with either) grows
  by at most K per iteration, so it stays below its start + K * (trip count - 1), where an
  upward range's trip count is at most hi - lo (`count += 1` over range(n) fits).

Every interval is sound: each run-time value at that point lies in it. `fits[op]` says
whether the exact result of a checked int op is proven to be an int64, in the last
(most general) visit of op; `natural[op]` whether an `int.mod`'s dividend is proven
>= 0 and its divisor >= 1 there, likewise. Other loop-carried relations between values are out of reach.
"""

from __future__ import annotations

from ember.ir import types as T
from ember.ir.ops import (
    BreakOp,
    ConditionOp,
    ConstOp,
    ContinueOp,
    ForOp,
    IfOp,
    KernelOp,
    TryOp,
    WhileOp,
    YieldOp,
)
from ember.passes import interval as I

WIDEN_AFTER = 2
"""Rounds of a loop's fixed point iteration before growing bounds jump to int64 limits."""

CHECKED = ("int.add", "int.sub", "int.mul", "int.floordiv", "int.neg", "int.abs")
"""Operators that raise OverflowError when the exact result leaves int64."""


def _arith(fn):
    return lambda op, rs: fn(*rs)


def _mul(op, rs):
    a, b = op.operands
    return I.square(rs[0]) if a is b else I.mul(*rs)


_LEN = lambda op, rs: (0, I.LEN_MAX)
_RULES = {
    "int.add": _arith(I.add), "int.sub": _arith(I.sub), "int.mul": _mul,
    "int.floordiv": _arith(I.floordiv), "int.mod": _arith(I.mod),
    "int.mod_natural": _arith(I.mod), "int.neg": _arith(I.neg),
    "int.abs": _arith(I.absolute), "int.and": _arith(I.bit_and),
    "int.rshift": _arith(I.rshift), "int.pos": lambda op, rs: rs[0],
    "int.from_int": lambda op, rs: rs[0], "bool.to_int": lambda op, rs: (0, 1),
    "list.len": _LEN, "str.len": _LEN, "dict.len": _LEN, "tuple.len": _LEN,
    "builtins.min2": lambda op, rs: (min(rs[0][0], rs[1][0]), min(rs[0][1], rs[1][1])),
    "builtins.max2": lambda op, rs: (max(rs[0][0], rs[1][0]), max(rs[0][1], rs[1][1])),
}
"""Operator -> (op, operand intervals) -> exact result interval (None: always raises)."""
for _n in CHECKED:
    _RULES[_n + "_nowrap"] = _RULES[_n]


def _after_add(op, rs):
    return [I.add_operand(rs[0], rs[1]), I.add_operand(rs[1], rs[0])]


def _after_sub(op, rs):
    return [I.sub_minuend(rs[0], rs[1]), I.sub_subtrahend(rs[0], rs[1])]


def _after_mul(op, rs):
    if op.operands[0] is op.operands[1]:
        r = I.meet(rs[0], (-I.SQRT_MAX, I.SQRT_MAX)) or rs[0]
        return [r, r]
    return [I.mul_operand(rs[0], rs[1]), I.mul_operand(rs[1], rs[0])]


def _after_index(op, rs):
    return [None, I.meet(rs[1], I.INDEX) or rs[1]] + [None] * (len(rs) - 2)


_AFTER = {"int.add": _after_add, "int.sub": _after_sub, "int.mul": _after_mul}
"""Operator -> the operand intervals it accepts without raising (None: no fact)."""
for _n in ("list.getitem", "list.setitem", "list.pop", "list.delitem", "str.getitem",
           "tuple.getitem"):
    _AFTER[_n] = _after_index


# ----------------------------------------------------------------------------- facts
# Facts are dicts value -> interval that hold when a bool has some truth value; None
# means that truth value is impossible. A truth is a pair (facts if true, if false).


def conj(a, b):
    if a is None or b is None:
        return None
    out = dict(a)
    for v, r in b.items():
        out[v] = I.meet(out[v], r) or out[v] if v in out else r
    return out


def disj(a, b):
    if a is None:
        return b
    if b is None:
        return a
    return {v: I.hull(r, b[v]) for v, r in a.items() if v in b}


def _below(a, b, ra, rb, strict: bool):
    """Facts that a < b (strict) or a <= b, or None if impossible."""
    if a is b:
        return None if strict else {}
    d = 1 if strict else 0
    ma, mb = I.meet(ra, (I.I64[0], rb[1] - d)), I.meet(rb, (ra[0] + d, I.I64[1]))
    return None if ma is None or mb is None else {a: ma, b: mb}


def _equal(a, b, ra, rb):
    m = I.meet(ra, rb)
    return None if m is None else {a: m, b: m}


def _unequal(a, b, ra, rb):
    out = {}
    for x, rx, ry in ((a, ra, rb), (b, rb, ra)):
        if ry[0] == ry[1] and rx[0] != rx[1] and ry[0] in rx:
            out[x] = (rx[0] + 1, rx[1]) if rx[0] == ry[0] else \
                (rx[0], rx[1] - 1) if rx[1] == ry[0] else rx
    return out


_COMPARE = {
    "int.lt": lambda a, b, ra, rb: (_below(a, b, ra, rb, True), _below(b, a, rb, ra, False)),
    "int.le": lambda a, b, ra, rb: (_below(a, b, ra, rb, False), _below(b, a, rb, ra, True)),
    "int.gt": lambda a, b, ra, rb: (_below(b, a, rb, ra, True), _below(a, b, ra, rb, False)),
    "int.ge": lambda a, b, ra, rb: (_below(b, a, rb, ra, False), _below(a, b, ra, rb, True)),
    "int.eq": lambda a, b, ra, rb: (_equal(a, b, ra, rb), _unequal(a, b, ra, rb)),
    "int.ne": lambda a, b, ra, rb: (_unequal(a, b, ra, rb), _equal(a, b, ra, rb)),
}


class _LoopState:
    """The carried-value intervals reaching the next iteration and the loop's exit."""

    def __init__(self):
        self.next: list[list] = []
        self.breaks: list[list] = []


class RangeAnalysis:
    """Intervals of one function's i64 values; see the module docstring."""

    def __init__(self):
        self.base: dict = {}
        """Value -> interval its definition gives (refinements live in the environments)."""
        self.truth: dict = {}
        """Bool result of an `if` -> its truth (facts if true, facts if false)."""
        self.fits: dict = {}
        """Checked int op -> is its exact result proven to be an int64?"""
        self.natural: dict = {}
        """`int.mod` op -> are its dividend proven >= 0 and its divisor >= 1 (the C
        remainder is then Python's)?"""
        self.entry: dict = {}
        """`for` op -> the environment where the loop starts."""
        self.loops: list[_LoopState] = []

    def run(self, f) -> RangeAnalysis:
        self.block(f.body, {})
        return self

    def bounds(self, loop) -> tuple:
        """The intervals of a `for` loop's lo and hi where it starts."""
        env = self.entry[loop]
        return self.get(loop.operands[0], env), self.get(loop.operands[1], env)

    def what_if(self, loop, facts) -> RangeAnalysis:
        """The analysis of `for` loop alone, had `facts` held where it starts (from this
        analysis of the whole function)."""
        out = RangeAnalysis()
        out.base, out.truth = dict(self.base), dict(self.truth)
        env = dict(self.entry[loop])
        out.refine(env, facts)
        out.for_(loop, env)
        return out

    # -- queries -------------------------------------------------------------------------
    def get(self, v, env) -> tuple:
        """v's interval where `env` is in scope (I64 for values nothing is known about)."""
        r = env.get(v)
        return r if r is not None else self.base.get(v, I.I64)

    def truth_of(self, v, env):
        """(facts if v is true, facts if v is false) where env is in scope."""
        op = getattr(v, "op", None)
        if isinstance(op, ConstOp) and type(op.value) is bool:
            return ({}, None) if op.value else (None, {})
        if isinstance(op, KernelOp):
            if op.name in _COMPARE:
                a, b = op.operands
                return _COMPARE[op.name](a, b, self.get(a, env), self.get(b, env))
            if op.name == "bool.not":
                t, f = self.truth_of(op.operands[0], env)
                return f, t
            if op.name in ("bool.and", "bool.or"):
                (at, af), (bt, bf) = (self.truth_of(v, env) for v in op.operands)
                if op.name == "bool.and":
                    return conj(at, bt), disj(af, bf)
                return disj(at, bt), conj(af, bf)
        return self.truth.get(v, ({}, {}))

    def refine(self, env, facts) -> None:
        """Narrow env by facts (None, an impossible outcome, adds nothing)."""
        if not facts:
            return
        base = self.base
        for v, r in facts.items():
            m = I.meet(env.get(v) or base.get(v, I.I64), r)
            if m is not None:
                env[v] = m

    # -- walking -------------------------------------------------------------------------
    def block(self, block, env) -> dict:
        """Analyze block's ops in order, narrowing env (the caller's copy) as facts arrive."""
        for op in block.ops:
            handler = _HANDLERS.get(type(op))
            if handler is not None:
                handler(self, op, env)
        return env

    def const(self, op, env) -> None:
        if type(op.value) is int:
            self.base[op.result] = I.const(op.value)

    def kernel(self, op, env) -> None:
        known = _KERNEL.get(op.name)
        if known is None:
            return
        rule, after, checked = known
        get, base = env.get, self.base
        rs = [get(v) or base.get(v, I.I64) for v in op.operands]
        if op.name == "int.mod":
            self.natural[op] = rs[0][0] >= 0 and rs[1][0] >= 1
        if rule is not None and op.results and op.results[0].type == T.I64:
            exact = rule(op, rs)
            if checked:
                self.fits[op] = exact is not None and I.fits(exact)
            if exact is not None:
                self.base[op.result] = I.clamp(exact)
        if after is not None:
            for v, r in zip(op.operands, after(op, rs)):
                if r is not None and v.type == T.I64:
                    env[v] = r

    def exit(self, op, env) -> None:
        if self.loops:
            ranges = [self.get(v, env) for v in op.operands]
            state = self.loops[-1]
            (state.breaks if isinstance(op, BreakOp) else state.next).append(ranges)

    def if_(self, op, env) -> None:
        ends = []
        for region, facts in zip(op.regions, self.truth_of(op.operands[0], env)):
            renv = dict(env)
            self.refine(renv, facts)
            self.block(region.block, renv)
            term = region.block.terminator
            if isinstance(term, YieldOp):
                ends.append((renv, term, facts))
        if not ends:
            return
        for i, r in enumerate(op.results):
            if r.type == T.I64:
                self.base[r] = I.hull(*(self.get(t.operands[i], e) for e, t, _ in ends))
            elif r.type == T.BOOL:
                self.truth[r] = self._if_truth(ends, i)
        self._merge(env, [e for e, _, _ in ends])

    def _if_truth(self, ends, i):
        t = f = None
        for e, term, facts in ends:
            yt, yf = self.truth_of(term.operands[i], e)
            t, f = disj(t, conj(facts, yt)), disj(f, conj(facts, yf))
        return t, f

    def _merge(self, env, ends) -> None:
        """After an if: what holds at the end of every region that falls through (a value
        not refined in some region keeps its interval)."""
        for v in set(ends[0]).intersection(*ends[1:]):
            old = env.get(v)
            if all(e[v] is old for e in ends):
                continue
            now = self.get(v, env)
            m = I.meet(now, I.hull(*(e[v] for e in ends)))
            if m is not None and m != now:
                env[v] = m

    def try_(self, op, env) -> None:
        for region in op.regions:
            self.block(region.block, dict(env))

    # -- loops ---------------------------------------------------------------------------
    def for_(self, op, env) -> None:
        lo, hi, step = (self.get(v, env) for v in op.operands[:3])
        self.entry[op] = dict(env)
        body = op.body.block
        self.base[body.args[0]] = _induction(lo, hi, step)

        def round_(args, state):
            self._set(body.args[1:], args)
            benv = self.block(body, dict(env))
            self._next(body, benv, state)
            return [args]
        self._loop(op, env, round_, _counter_bounds(op, lo, hi, step,
                                                    [self.get(v, env) for v in op.inits]))

    def while_(self, op, env) -> None:
        cond, body = op.cond.block, op.body.block

        def round_(args, state):
            self._set(cond.args, args)
            cenv = self.block(cond, dict(env))
            term = cond.terminator
            t, f = self.truth_of(term.operands[0], cenv) if isinstance(term, ConditionOp) \
                else ({}, {})
            benv = dict(cenv)
            self.refine(benv, t)
            self._set(body.args, [self.get(a, benv) for a in cond.args])
            self._next(body, self.block(body, benv), state)
            eenv = dict(cenv)
            self.refine(eenv, f)
            return [[self.get(a, eenv) for a in cond.args]]
        self._loop(op, env, round_)

    def _loop(self, op, env, round_, bounds=None) -> None:
        """Iterate round_(carried intervals, state) -> exit intervals to a fixed point.
        bounds (a `for` loop's): per carried value, an interval it lies in at the start of
        every iteration, or None; the state iterated stays unbounded (it is also the
        values the loop exits with, one iteration further)."""
        args = [self.get(v, env) for v in op.inits]
        bounds = bounds or [None] * len(args)
        bounded = any(b is not None for b in bounds)
        limit = WIDEN_AFTER + 2 * len(args) + 2
        for n in range(limit + 1):
            state = _LoopState()
            self.loops.append(state)
            entry = args if n < limit else [I.I64] * len(args)
            exits = round_([r if b is None else (I.meet(r, b) or b)
                            for r, b in zip(entry, bounds)], state)
            if bounded:
                exits = [entry]
            self.loops.pop()
            new = [I.hull(a, *(x[k] for x in state.next)) for k, a in enumerate(args)]
            if new == args or n == limit:
                break
            args = [I.widen(a, b) for a, b in zip(args, new)] if n >= WIDEN_AFTER else new
        outs = exits + state.breaks
        if op.else_region is not None:
            self._set(op.else_region.block.args, [I.hull(*(x[k] for x in exits))
                                                  for k in range(len(args))])
            eenv = self.block(op.else_region.block, dict(env))
            term = op.else_region.block.terminator
            outs = state.breaks + ([[self.get(v, eenv) for v in term.operands]]
                                   if isinstance(term, YieldOp) else [])
        for k, r in enumerate(op.results):
            if r.type == T.I64 and outs:
                self.base[r] = I.hull(*(x[k] for x in outs))

    def _set(self, args, ranges) -> None:
        for a, r in zip(args, ranges):
            if a.type == T.I64:
                self.base[a] = r

    def _next(self, body, env, state) -> None:
        term = body.terminator
        if isinstance(term, YieldOp):
            state.next.append([self.get(v, env) for v in term.operands])


def _induction(lo, hi, step):
    """The values a range(lo, hi, step) loop's induction variable takes."""
    if step[0] > 0:
        return (lo[0], max(lo[0], hi[1] - 1))
    if step[1] < 0:
        return (min(lo[1], hi[0] + 1), lo[1])
    return I.hull(lo, hi)


def _counter_bounds(op, lo, hi, step, inits) -> list:
    """Per carried value of `for` op: the interval a counter stays in (module docstring),
    or None."""
    if step[0] < 1:
        return [None] * len(inits)
    trips = max(0, hi[1] - lo[0])
    body = op.body.block
    nexts = [body.terminator] if isinstance(body.terminator, YieldOp) else []
    nexts += _continues(body)
    out = []
    for k, (arg, init) in enumerate(zip(body.args[1:], inits)):
        grow = [_growth(t.operands[k], arg) for t in nexts] if arg.type == T.I64 else [None]
        if not grow or None in grow or trips == 0:
            out.append(None)
            continue
        top = init[1] + max(grow) * (trips - 1)
        out.append((init[0], top) if I.fits((init[0], top)) else None)
    return out


def _continues(block) -> list:
    """The `continue` ops of block's own loop (not those of loops nested in it)."""
    out = []
    for op in block.ops:
        if isinstance(op, ContinueOp):
            out.append(op)
        elif not isinstance(op, (ForOp, WhileOp)):
            for region in op.regions:
                out += _continues(region.block)
    return out


_ADDS = ("int.add", "int.add_nowrap")


def _growth(v, arg, depth: int = 0):
    """K when v is arg plus a total of constants in [0, K] on every path, else None."""
    if v is arg:
        return 0
    op = getattr(v, "op", None)
    if depth > 16 or op is None:
        return None
    if isinstance(op, KernelOp) and op.name in _ADDS:
        for x, c in (op.operands, op.operands[::-1]):
            cop = getattr(c, "op", None)
            if isinstance(cop, ConstOp) and type(cop.value) is int and cop.value >= 0:
                g = _growth(x, arg, depth + 1)
                if g is not None:
                    return g + cop.value
        return None
    if isinstance(op, IfOp):
        i = op.results.index(v)
        ends = [r.block.terminator for r in op.regions]
        grow = [_growth(t.operands[i], arg, depth + 1) for t in ends if isinstance(t, YieldOp)]
        return max(grow) if grow and None not in grow else None
    return None


_KERNEL = {name: (_RULES.get(name), _AFTER.get(name), name in CHECKED)
           for name in (*_RULES, *_AFTER)}
"""Operator -> (its rule, its after-rule, is it checked), for the operators with a rule."""

_HANDLERS = {
    ConstOp: RangeAnalysis.const, KernelOp: RangeAnalysis.kernel, IfOp: RangeAnalysis.if_,
    ForOp: RangeAnalysis.for_, WhileOp: RangeAnalysis.while_, TryOp: RangeAnalysis.try_,
    BreakOp: RangeAnalysis.exit, ContinueOp: RangeAnalysis.exit,
}
