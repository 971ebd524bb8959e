"""Fused groups on the lite runtime: a `tensor.fused` op's steps as a planned numpy sequence.

A group (the FUSED instruction's constant, see `check_spec`) is a list of steps, each an
operator of ember.ops.fusion applied to earlier values (the group's inputs, its scalar
constants, earlier steps). `FusedGroup` runs it:

* The first call with a given signature (each input's shape, dtype and strides, or a
  scalar's type) runs the steps' own kernels, unfused, and returns their results; it records each
  step's result shape and dtype and whether the kernel returned a view of an operand.
  From that it makes a plan: every step that has an `out=` twin (ember.ops.fusion.TWINS)
  writes into a buffer; an intermediate's buffer is reused by a later step once the
  intermediate is dead, in place when the twin allows it (INPLACE_SAFE), so a chain of
  ufuncs over one shape runs in one or two buffers.
* The plan is compiled to one straight-line Python function (an `ast` tree built from
  the verified group, as the translator builds functions: never text), so a planned call
  costs about what the unfused instructions cost. A group whose largest result has fewer
  than SMALL elements plans its kernels only: there an `out=` call costs more than the
  allocation it saves.
* Later calls with that signature run the plan. Buffers belong to the calling thread
  (threading.local) and are allocated on its first planned call; a group's outputs are
  fresh arrays, except that an output array the caller has let go of (nothing but this
  group refers to it) is written again instead of allocating a new one.

Twins compute what the kernels compute, bit for bit, so a fused group's results equal the
unfused ops' whatever the plan. Steps without a twin, 0-d results and results that are
views of an operand run their kernel, exactly as unfused.
"""

from __future__ import annotations

import ast
import sys
import threading
import weakref

import numpy as np

from ember.errors import ArtifactError
from ember.ops import fusion, get

_ND = np.ndarray
_getrefcount = sys.getrefcount
_weakcount = weakref.getweakrefcount
_DTYPES = frozenset(np.dtype(d) for d in ("bool", "uint8", "int8", "int16", "int32", "int64",
                                          "float16", "float32", "float64"))

def _free_refs() -> int:
    """sys.getrefcount of an array held only by a list slot and one local, as _run holds a
    previous output (measured, not assumed: interpreters count borrowed references
    differently)."""
    held = [np.empty(1)]
    out = held[0]
    return _getrefcount(out)


_FREE_REFS = _free_refs()

SMALL = 16384
"""Groups whose largest result has fewer elements run their kernels: below this, an
`out=` ufunc call costs more than the allocation it saves (numpy's small-array cache),
and the plan's gain is the generated code's straight-line calls alone."""

_SMALL = [SMALL]


def small_size(n: int | None = None) -> int:
    """The SMALL threshold plans use; with n, set it (tests and the fuzzer set 0, so that
    small tensors exercise the buffers) and return the previous one."""
    old = _SMALL[0]
    if n is not None:
        _SMALL[0] = n
    return old


MAX_STEPS = 4096
"""Steps one group may hold."""


# ----------------------------------------------------------------------------- the spec


def check_spec(spec) -> None:
    """ArtifactError unless `spec` is a well-formed group: ("fused", ninputs, consts,
    steps, outputs), consts scalars, each step (operator name, refs) naming an operator a
    group may hold with its full arity, refs indexing earlier values (inputs, then
    consts, then steps), at least one output, each a ref to a value."""
    def need(cond, msg):
        if not cond:
            raise ArtifactError(f"bad fused group: {msg}")

    need(type(spec) is tuple and len(spec) == 5 and spec[0] == "fused", "wrong shape")
    _, n_in, consts, steps, outputs = spec
    need(type(n_in) is int and 0 <= n_in <= 1 << 16, "bad input count")
    need(type(consts) is tuple and all(c is None or type(c) in (bool, int, float, str)
                                       for c in consts), "constants must be scalars")
    need(type(steps) is tuple and 0 < len(steps) <= MAX_STEPS, "bad step list")
    n = n_in + len(consts)
    for step in steps:
        need(type(step) is tuple and len(step) == 2 and type(step[0]) is str and
             type(step[1]) is tuple, "bad step")
        name, refs = step
        need(fusion.kind(name) is not None, f"operator {name!r:.60} cannot be fused")
        d = get(name)
        need(d is not None and len(d.schema.params) == len(refs),
             f"step {name} has {len(refs)} operands")
        need(all(type(r) is int and 0 <= r < n for r in refs), "a step refers ahead")
        n += 1
    need(type(outputs) is tuple and outputs and
         all(type(r) is int and n_in + len(consts) <= r < n for r in outputs),
         "outputs must be steps")


def spec_outputs(spec) -> int:
    return len(spec[4])


# ----------------------------------------------------------------------------- plans

_KERNEL, _TWIN_FRESH, _TWIN_SLOT, _TWIN_OVER = range(4)
"""Step modes: run the kernel; write a twin's result into a fresh (or recycled) output
array, into a thread-local buffer slot, or over a dead operand's array."""


class _Plan:
    """What the reference run learned for one call signature, and buffer assignments."""

    __slots__ = ("steps", "slots", "n_fresh", "run")

    def __init__(self, steps, slots, n_fresh):
        self.run = None
        """The compiled plan (_compile_plan), made when it is first run."""
        self.n_fresh = n_fresh
        """Values given a fresh (or recycled) array each call: outputs, then pinned."""
        self.steps = steps
        """(mode, fn, refs, where, shape, dtype) per step; `where` is a slot number, the
        index of the value to write over, or a fresh-array number."""
        self.slots = slots
        """(shape, dtype) per buffer slot."""


def _make_plan(group, vals, results, aliases) -> _Plan:
    """Assign buffers, given the reference run's values (inputs, consts, then results)
    and, per step, the operands its kernel's result shares memory with."""
    n0 = group.n_in + len(group.consts)
    last_use: dict[int, int] = {}
    for j, (_, refs) in enumerate(group.specs):
        for r in refs:
            last_use[r] = j
    # A value another step's result views (x.float() of a float x is x itself) must be a
    # fresh array each call, and neither may be written over.
    pinned = {v for shared in aliases for v in shared}
    pinned.update(n0 + j for j, shared in enumerate(aliases) if shared)
    fresh = {v: i for i, v in enumerate(group.outputs)}
    for v in sorted(pinned):
        if v >= n0 and v not in fresh:
            fresh[v] = len(fresh)
    big = max((r.size for r in results if type(r) is _ND), default=0) >= small_size()
    owned: dict[int, int | None] = {}
    """value index -> buffer slot holding it (None: an array a kernel made for us)."""
    slots: list = []
    busy: dict[int, int] = {}
    """slot -> value index currently held."""
    steps = []
    for j, (name, refs) in enumerate(group.specs):
        vi = n0 + j
        r = results[j]
        twin = fusion.TWINS.get(name)
        plannable = twin is not None and type(r) is _ND and r.ndim > 0 and big and \
            r.dtype in _DTYPES and r.flags.c_contiguous and not aliases[j]
        if not plannable:
            steps.append((_KERNEL, group.kernels[j], refs, -1, None, None))
            if type(r) is _ND and vi not in pinned and vi not in fresh:
                owned[vi] = None
            continue
        shape, dtype = r.shape, r.dtype
        if vi in fresh:
            steps.append((_TWIN_FRESH, twin, refs, fresh[vi], shape, dtype))
            continue
        for k in [s for s, v in busy.items() if last_use.get(v, -1) < j]:
            del busy[k]
        over = None
        if name in fusion.INPLACE_SAFE:
            over = next((v for v in refs if v in owned and last_use.get(v) == j and
                         vals[v].shape == shape and vals[v].dtype == dtype), None)
        if over is not None:
            steps.append((_TWIN_OVER, twin, refs, over, shape, dtype))
            owned[vi] = owned[over]
            if owned[vi] is not None:
                busy[owned[vi]] = vi
            continue
        slot = next((s for s, (sh, dt) in enumerate(slots)
                     if s not in busy and sh == shape and dt == dtype), None)
        if slot is None:
            slot = len(slots)
            slots.append((shape, dtype))
        busy[slot] = vi
        owned[vi] = slot
        steps.append((_TWIN_SLOT, twin, refs, slot, shape, dtype))
    return _Plan(tuple(steps), tuple(slots), len(fresh))


class _ThreadState:
    __slots__ = ("plan", "bufs", "prev")

    def __init__(self, plan: _Plan):
        self.plan = plan
        self.bufs = [np.empty(shape, dtype) for shape, dtype in plan.slots]
        self.prev = [None] * plan.n_fresh


# ----------------------------------------------------------------------------- code


def _locals(group) -> dict:
    """A local name per step result, reused once a value is dead, so intermediates are
    freed (and their memory reused by numpy) as soon as the unfused code would free them."""
    n0 = group.n_in + len(group.consts)
    last: dict[int, int] = {}
    for j, (_, refs) in enumerate(group.specs):
        for r in refs:
            last[r] = j
    keep = set(group.outputs)
    names, free, holder = {}, [], {}
    for j, (_, refs) in enumerate(group.specs):
        for r in set(refs):
            if r >= n0 and last.get(r) == j and r not in keep:
                free.append(names[r])
        vi = n0 + j
        names[vi] = free.pop() if free else f"t{len(holder)}"
        holder[names[vi]] = vi
    return names


def _compile_plan(group, plan: _Plan):
    """The plan as one straight-line Python function `run(args, bufs, prev)`, built as an
    `ast` tree (never text) from the verified group, as the translator builds functions:
    values are locals, scalar constants literals, kernels and twins globals."""
    from ember.mobile.inline import assign, call, name
    from ember.mobile.translate import compile_function

    g = {"__builtins__": {}, "_empty": np.empty, "_rc": _getrefcount, "_wc": _weakcount,
         "_FREE": _FREE_REFS}
    n_in, consts = group.n_in, group.consts

    local = _locals(group)

    def value(i):
        if n_in <= i < n_in + len(consts):
            return ast.Constant(consts[i - n_in])
        return name(local.get(i, f"v{i}"))

    def sub(base, i):
        return ast.Subscript(value=name(base), slice=ast.Constant(i), ctx=ast.Load())

    body = []
    if n_in:
        body.append(ast.Assign(targets=[ast.Tuple(elts=[name(f"v{i}", True)
                                                        for i in range(n_in)],
                                                  ctx=ast.Store())], value=name("a")))
    n0 = n_in + len(consts)
    for j, (mode, fn, refs, where, shape, dtype) in enumerate(plan.steps):
        f = f"_f{j}"
        g[f] = fn
        args = [value(i) for i in refs]
        target = local[n0 + j]
        if mode == _KERNEL:
            body.append(assign(target, call(f, args)))
            continue
        if mode == _TWIN_SLOT:
            out = sub("b", where)
        elif mode == _TWIN_OVER:
            out = value(where)
        else:
            # Recycle the previous call's output only if nothing else refers to it.
            g[f"_s{j}"], g[f"_d{j}"] = shape, dtype
            fresh = ast.Assign(targets=[name("o", True),
                                        ast.Subscript(value=name("p"),
                                                      slice=ast.Constant(where),
                                                      ctx=ast.Store())],
                               value=call("_empty", [name(f"_s{j}"), name(f"_d{j}")]))
            test = ast.BoolOp(op=ast.Or(), values=[
                ast.Compare(left=name("o"), ops=[ast.Is()], comparators=[ast.Constant(None)]),
                ast.Compare(left=call("_rc", [name("o")]), ops=[ast.NotEq()],
                            comparators=[name("_FREE")]),
                call("_wc", [name("o")])])
            body.append(assign("o", sub("p", where)))
            body.append(ast.If(test=test, body=[fresh], orelse=[]))
            out = name("o")
        body.append(assign(target, call(f, [out] + args)))
    outs = [value(i) for i in group.outputs]
    body.append(ast.Return(value=outs[0] if group.single else
                           ast.Tuple(elts=outs, ctx=ast.Load())))
    params = [ast.arg(arg=a) for a in ("a", "b", "p")]
    fdef = ast.FunctionDef(name="_fused", args=ast.arguments(
        posonlyargs=[], args=params, vararg=None, kwonlyargs=[], kw_defaults=[], kwarg=None,
        defaults=[]), body=body, decorator_list=[], returns=None, lineno=1, col_offset=0)
    return compile_function(fdef, "<fused group>", "_fused", g)


def _shared(r, refs, vals) -> tuple:
    """The refs whose values r may share memory with."""
    if type(r) is not _ND:
        return ()
    return tuple(i for i in refs if type(vals[i]) is _ND and np.may_share_memory(r, vals[i]))


class FusedGroup:
    """A verified group spec bound to its kernels; calling it runs the group."""

    def __init__(self, spec):
        _, self.n_in, self.consts, self.specs, self.outputs = spec
        self.kernels = tuple(get(name).kernel for name, _ in self.specs)
        self.single = len(self.outputs) == 1
        self.plans: dict = {}
        self._local = threading.local()

    def __repr__(self) -> str:
        names = ", ".join(name.removeprefix("tensor.") for name, _ in self.specs)
        return f"<fused group of {len(self.specs)}: {names}>"

    def __call__(self, *args):
        key = tuple([(a.shape, a.dtype, a.strides) if type(a) is _ND else type(a)
                     for a in args])
        state = self._local.__dict__.get("state")
        if state is None or state[0] != key:
            plan = self.plans.get(key)
            if plan is None:
                return self._reference(key, args)
            st = _ThreadState(plan)
            state = self._local.state = (key, plan.run, st.bufs, st.prev)
        return state[1](args, state[2], state[3])

    def _reference(self, key, args):
        """Run the kernels unfused (the results are the call's), then plan this signature."""
        vals = list(args)
        vals.extend(self.consts)
        aliases = []
        for kernel, (_, refs) in zip(self.kernels, self.specs):
            r = kernel(*[vals[i] for i in refs])
            aliases.append(_shared(r, refs, vals))
            vals.append(r)
        n0 = self.n_in + len(self.consts)
        if len(self.plans) < 64:
            plan = _make_plan(self, vals, vals[n0:], aliases)
            plan.run = _compile_plan(self, plan)
            self.plans[key] = plan
        outs = tuple(vals[i] for i in self.outputs)
        return outs[0] if self.single else outs
