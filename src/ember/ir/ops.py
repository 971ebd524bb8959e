"""The IR's ops: structural ops defined here, kernel ops named after `ember.ops` operators.

Each class declares its name, traits and `verify_()` (local checks only; the
cross-op checks — dominance, terminators matching their parent — are in
verifier.py). `op_class(name)` finds the class for a printed name; any name
registered in `ember.ops` is a `KernelOp`.
"""

from __future__ import annotations

from ember.errors import VerifyError
from ember.ir import types as T
from ember.ir.core import (
    ALLOC, COMMUTATIVE, LOOP, MAY_RAISE, PURE, TERMINATOR, Block, Loc, Op, Region,
    SymbolRef,
)

OP_CLASSES: dict[str, type[Op]] = {}


def register(cls):
    OP_CLASSES[cls.name] = cls
    return cls


def fail(op: Op, message: str):
    """Raise a VerifyError pointing at op's location."""
    raise VerifyError(f"'{op.name}' op {message} (at {op.loc})")


def _expect(op: Op, n_operands=None, n_results=None, n_regions=0):
    if n_operands is not None and len(op.operands) != n_operands:
        fail(op, f"expects {n_operands} operands, has {len(op.operands)}")
    if n_results is not None and len(op.results) != n_results:
        fail(op, f"expects {n_results} results, has {len(op.results)}")
    if n_regions is not None and len(op.regions) != n_regions:
        fail(op, f"expects {n_regions} regions, has {len(op.regions)}")


# ----------------------------------------------------------------------------- constants


@register
class ConstOp(Op):
    """`%x = const 5 : i64`; `value` is int/float/str/bool/None, or a SymbolRef to a module
    tensor (`: tensor<...>`) or object (`: !Class`)."""

    name = "const"
    traits = frozenset({PURE})

    @property
    def value(self):
        return self.attrs["value"]

    def verify_(self):
        _expect(self, 0, 1)
        if "value" not in self.attrs:
            fail(self, "needs a 'value' attribute")
        v, t = self.value, self.result.type
        ok = {
            bool: t == T.BOOL, int: t == T.I64, float: t == T.F64, complex: t == T.C128,
            str: t in (T.STR, T.DTYPE),
            type(None): t == T.NONE, SymbolRef: isinstance(t, (T.TensorType, T.ClassType)),
        }.get(type(v), False)
        if not ok:
            fail(self, f"value {v!r} does not have type {t}")


# ----------------------------------------------------------------------------- control flow


class _Terminator(Op):
    traits = frozenset({TERMINATOR})

    def verify_(self):
        _expect(self, None, 0, 0)


@register
class YieldOp(_Terminator):
    """Ends a region: results of the parent if/try, or the next carried values of a loop."""

    name = "yield"


@register
class ConditionOp(_Terminator):
    """Ends a while loop's condition region: `condition %c`."""

    name = "condition"

    def verify_(self):
        _expect(self, 1, 0, 0)
        if self.operands[0].type != T.BOOL:
            fail(self, "operand must be bool")


@register
class BreakOp(_Terminator):
    """Leave the innermost loop; operands are its carried values."""

    name = "break"


@register
class ContinueOp(_Terminator):
    """Next iteration of the innermost loop; operands are its carried values."""

    name = "continue"


@register
class ReturnOp(_Terminator):
    """Return the single operand from the enclosing function."""

    name = "return"

    def verify_(self):
        _expect(self, 1, 0, 0)


@register
class RaiseOp(_Terminator):
    """Raise the exception value operand."""

    name = "raise"

    def verify_(self):
        _expect(self, 1, 0, 0)
        if self.operands[0].type != T.EXC:
            fail(self, "operand must be exc")


@register
class UnreachableOp(_Terminator):
    """Ends a block that control never reaches (after an if/try whose regions all exit)."""

    name = "unreachable"

    def verify_(self):
        _expect(self, 0, 0, 0)


@register
class IfOp(Op):
    """`%r = if %c : T { then } else { else }`."""

    name = "if"

    def verify_(self):
        _expect(self, 1, None, 2)
        if self.operands[0].type != T.BOOL:
            fail(self, "condition must be bool")
        for r in self.regions:
            if r.block.args:
                fail(self, "regions take no arguments")

    def region_labels(self):
        return ["", "else"]


class _LoopOp(Op):
    traits = frozenset({LOOP})

    carried_start = 0
    """Index of the first operand that is a carried init value."""

    @property
    def inits(self):
        return self.operands[self.carried_start:]

    @property
    def body(self) -> Region:
        raise NotImplementedError

    @property
    def else_region(self) -> Region | None:
        raise NotImplementedError

    def _check_carried(self, block: Block, skip: int):
        types = [a.type for a in block.args[skip:]]
        if types != [r.type for r in self.results]:
            fail(self, "block arguments must match the carried values' types")

    def _check_inits(self):
        if [v.type for v in self.inits] != [r.type for r in self.results]:
            fail(self, "init values must match the result types")


@register
class ForOp(_LoopOp):
    """`%r = for %lo, %hi, %step, %init… : T { ^(%i: i64, %acc…): … } [else {…}]`."""

    name = "for"
    carried_start = 3

    @property
    def body(self):
        return self.regions[0]

    @property
    def else_region(self):
        return self.regions[1] if len(self.regions) > 1 else None

    def verify_(self):
        if len(self.operands) < 3 or len(self.regions) not in (1, 2):
            fail(self, "needs lo, hi, step operands and a body (and optional else) region")
        if any(v.type != T.I64 for v in self.operands[:3]):
            fail(self, "range bounds must be i64")
        self._check_inits()
        body = self.body.block
        if not body.args or body.args[0].type != T.I64:
            fail(self, "body's first argument is the i64 induction variable")
        self._check_carried(body, 1)
        if self.else_region is not None:
            self._check_carried(self.else_region.block, 0)

    def region_labels(self):
        return ["", "else"][:len(self.regions)]


@register
class WhileOp(_LoopOp):
    """`%r = while %init… : T { cond… condition %c } do { body… yield } [else {…}]`."""

    name = "while"

    @property
    def cond(self):
        return self.regions[0]

    @property
    def body(self):
        return self.regions[1]

    @property
    def else_region(self):
        return self.regions[2] if len(self.regions) > 2 else None

    def verify_(self):
        if len(self.regions) not in (2, 3):
            fail(self, "needs cond and body (and optional else) regions")
        self._check_inits()
        for r in self.regions:
            self._check_carried(r.block, 0)

    def region_labels(self):
        return ["", "do", "else"][:len(self.regions)]


@register
class TryOp(Op):
    """try/except/else/finally.

    Attributes: `handlers` (list of lists of exception class names; [] catches
    every Exception), `has_else`, `has_finally`. Regions: body, one per
    handler (block arg `%e: exc`), [else], [finally] (yields nothing).
    """

    name = "try"

    @property
    def handlers(self) -> list:
        return self.attrs.get("handlers", [])

    def _layout(self):
        n = len(self.handlers)
        has_else, has_fin = bool(self.attrs.get("has_else")), bool(self.attrs.get("has_finally"))
        return n, has_else, has_fin

    @property
    def body(self):
        return self.regions[0]

    def handler_regions(self):
        return self.regions[1:1 + len(self.handlers)]

    @property
    def else_region(self):
        n, has_else, _ = self._layout()
        return self.regions[1 + n] if has_else else None

    @property
    def finally_region(self):
        n, has_else, has_fin = self._layout()
        return self.regions[1 + n + int(has_else)] if has_fin else None

    def verify_(self):
        n, has_else, has_fin = self._layout()
        _expect(self, 0, None, 1 + n + int(has_else) + int(has_fin))
        if not isinstance(self.handlers, list) or not all(
                isinstance(h, list) and all(isinstance(c, str) for c in h) for h in self.handlers):
            fail(self, "'handlers' must be a list of lists of class names")
        for r in self.handler_regions():
            args = r.block.args
            if len(args) != 1 or args[0].type != T.EXC:
                fail(self, "each except region takes one exc argument")

    def region_labels(self):
        n, has_else, has_fin = self._layout()
        return [""] + ["except"] * n + ["else"] * has_else + ["finally"] * has_fin


# ----------------------------------------------------------------------------- calls


@register
class CallOp(Op):
    """`%r = call %args… {callee = @f} : T`."""

    name = "call"
    traits = frozenset({MAY_RAISE})

    @property
    def callee(self) -> str:
        return self.attrs["callee"].name

    def verify_(self):
        _expect(self, None, 1, 0)
        if not isinstance(self.attrs.get("callee"), SymbolRef):
            fail(self, "needs a 'callee' symbol attribute")


@register
class ClosureOp(Op):
    """`%f = closure %cap… {callee = @f} : fn<(…) -> R>`: bind the callee's first params."""

    name = "closure"
    traits = frozenset({PURE})

    @property
    def callee(self) -> str:
        return self.attrs["callee"].name

    def verify_(self):
        _expect(self, None, 1, 0)
        if not isinstance(self.attrs.get("callee"), SymbolRef):
            fail(self, "needs a 'callee' symbol attribute")
        if not isinstance(self.result.type, T.FunctionType):
            fail(self, "result must be a fn type")


@register
class CallIndirectOp(Op):
    """`%r = call_indirect %f, %args… : R`."""

    name = "call_indirect"
    traits = frozenset({MAY_RAISE})

    def verify_(self):
        _expect(self, None, 1, 0)
        if not self.operands or not isinstance(self.operands[0].type, T.FunctionType):
            fail(self, "first operand must be a fn value")
        ft = self.operands[0].type
        if [v.type for v in self.operands[1:]] != list(ft.params):
            fail(self, "argument types do not match the fn type")
        if self.result.type != ft.ret:
            fail(self, "result type does not match the fn type")


# ----------------------------------------------------------------------------- aggregates


@register
class TupleNewOp(Op):
    name = "tuple.new"
    traits = frozenset({PURE})

    def verify_(self):
        _expect(self, None, 1, 0)
        t = self.result.type
        if not isinstance(t, T.TupleType) or list(t.elems) != [v.type for v in self.operands]:
            fail(self, "result must be the tuple of the operand types")


@register
class TupleGetOp(Op):
    """`%x = tuple.get %t {index = 0} : T`."""

    name = "tuple.get"
    traits = frozenset({PURE})

    def verify_(self):
        _expect(self, 1, 1, 0)
        t, i = self.operands[0].type, self.attrs.get("index")
        if not isinstance(t, T.TupleType) or not isinstance(i, int) or not 0 <= i < len(t.elems):
            fail(self, "needs a tuple operand and an in-range 'index'")
        if t.elems[i] != self.result.type:
            fail(self, "result type must be the element's type")


@register
class ListNewOp(Op):
    name = "list.new"
    traits = frozenset({ALLOC})

    def verify_(self):
        _expect(self, None, 1, 0)
        t = self.result.type
        if not isinstance(t, T.ListType):
            fail(self, "result must be a list")
        if any(not T.is_subtype(v.type, t.elem) for v in self.operands):
            fail(self, "elements must have the list's element type")


@register
class DictNewOp(Op):
    """`%d = dict.new %k0, %v0, %k1, %v1 : dict<K, V>`."""

    name = "dict.new"
    traits = frozenset({ALLOC, MAY_RAISE})

    def verify_(self):
        _expect(self, None, 1, 0)
        t = self.result.type
        if not isinstance(t, T.DictType) or len(self.operands) % 2:
            fail(self, "needs key/value operand pairs and a dict result")
        for i, v in enumerate(self.operands):
            want = t.key if i % 2 == 0 else t.value
            if not T.is_subtype(v.type, want):
                fail(self, f"operand {i} must be {want}")


@register
class ObjNewOp(Op):
    """`%o = obj.new %f0, %f1 : !Point` — field values in declaration order."""

    name = "obj.new"
    traits = frozenset({ALLOC})

    def verify_(self):
        _expect(self, None, 1, 0)
        if not isinstance(self.result.type, T.ClassType):
            fail(self, "result must be a class type")


@register
class ObjGetOp(Op):
    """`%x = obj.get %o {field = "x"} : T`."""

    name = "obj.get"

    def verify_(self):
        _expect(self, 1, 1, 0)
        if not isinstance(self.operands[0].type, T.ClassType) or \
                not isinstance(self.attrs.get("field"), str):
            fail(self, "needs an object operand and a 'field' attribute")


@register
class ObjSetOp(Op):
    """`obj.set %o, %v {field = "x"}`."""

    name = "obj.set"

    def verify_(self):
        _expect(self, 2, 0, 0)
        if not isinstance(self.operands[0].type, T.ClassType) or \
                not isinstance(self.attrs.get("field"), str):
            fail(self, "needs an object operand and a 'field' attribute")


# ----------------------------------------------------------------------------- type conversions


@register
class WidenOp(Op):
    """`%o = widen %x : optional<i64>` — no-op at run time."""

    name = "widen"
    traits = frozenset({PURE})

    def verify_(self):
        _expect(self, 1, 1, 0)
        if not T.is_subtype(self.operands[0].type, self.result.type):
            fail(self, f"{self.operands[0].type} is not a subtype of {self.result.type}")


@register
class NarrowOp(Op):
    """`%x = narrow %o : i64` — downcast to a member of an optional/union.

    The frontend emits it only where a check proved the member (x is not None,
    isinstance); the runtime still checks it."""

    name = "narrow"
    traits = frozenset({PURE})

    def verify_(self):
        _expect(self, 1, 1, 0)
        src, dst = self.operands[0].type, self.result.type
        if not any(T.is_subtype(m, dst) or T.is_subtype(dst, m) for m in T.members(src)):
            fail(self, f"{dst} is not a member of {src}")


@register
class IsInstanceOp(Op):
    """`%b = isinstance %x {type = i64} : bool`."""

    name = "isinstance"
    traits = frozenset({PURE})

    def verify_(self):
        _expect(self, 1, 1, 0)
        if not isinstance(self.attrs.get("type"), T.Type) or self.result.type != T.BOOL:
            fail(self, "needs a 'type' attribute and a bool result")


# ----------------------------------------------------------------------------- variables


@register
class VarNewOp(Op):
    """`%v = var.new [%init] : var<T>` — a mutable slot (for variables live across `try`).

    Without an init the slot starts unassigned; the frontend proves every read
    comes after an assignment."""

    name = "var.new"

    def verify_(self):
        if len(self.operands) > 1:
            fail(self, "takes at most one operand")
        _expect(self, None, 1, 0)
        t = self.result.type
        if not isinstance(t, T.VarType) or (self.operands and
                                            not T.is_subtype(self.operands[0].type, t.elem)):
            fail(self, "result must be var<T> of the init's type")


@register
class VarGetOp(Op):
    name = "var.get"

    def verify_(self):
        _expect(self, 1, 1, 0)
        t = self.operands[0].type
        if not isinstance(t, T.VarType) or t.elem != self.result.type:
            fail(self, "operand must be var<T> with T the result type")


@register
class VarSetOp(Op):
    name = "var.set"

    def verify_(self):
        _expect(self, 2, 0, 0)
        t = self.operands[0].type
        if not isinstance(t, T.VarType) or not T.is_subtype(self.operands[1].type, t.elem):
            fail(self, "operands must be var<T> and a T")


# ----------------------------------------------------------------------------- fusion


@register
class FusedOp(Op):
    """`%r0, %r1 = tensor.fused %a, %b : T0, T1 { ^(%x: tensor, %y: f64): … yield %u, %v }`.

    One fused group of tensor ops (passes/fuse.py). The region is isolated from above: its
    block arguments are the group's inputs (the op's operands, same types), its ops are
    scalar constants and the group's kernel ops, in their original order, and its `yield`
    gives the group's outputs (the op's results). Read per element: a tensor block argument
    stands for one element of its input (broadcast to the group's iteration space) and
    each kernel op applies its operator's element function, with its dtype promotion; a
    last-dim reduction (softmax, log_softmax, layer_norm) may end the group, and a
    producer (linear, conv2d) may start it. ember.ops.fusion lists which operators may
    appear.
    """

    name = "tensor.fused"
    traits = frozenset({MAY_RAISE})

    @property
    def body(self) -> Block:
        return self.regions[0].block

    def verify_(self):
        _expect(self, None, None, 1)
        body = self.body
        if [a.type for a in body.args] != [v.type for v in self.operands]:
            fail(self, "block arguments must match the operands' types")
        term = body.ops[-1] if body.ops else None
        if not isinstance(term, YieldOp):
            fail(self, "region must end in yield")
        if [v.type for v in term.operands] != [r.type for r in self.results]:
            fail(self, "yielded values must match the result types")
        inside = set(body.args)
        from ember.ops.fusion import region_op_problem
        for op in body.ops:
            if any(v not in inside for v in op.operands):
                fail(self, f"region op '{op.name}' uses a value from outside the region")
            if op is not term:
                problem = "has regions" if op.regions else region_op_problem(op)
                if problem:
                    fail(self, f"region op '{op.name}' {problem}")
            inside.update(op.results)


# ----------------------------------------------------------------------------- kernel ops


class KernelOp(Op):
    """An op named after an `ember.ops` operator; traits come from its flags."""

    __slots__ = ("_name", "_traits")

    def __init__(self, name: str, operands=(), result_types=(), attrs=None, loc: Loc = None,
                 result_names=None):
        self._name = name
        self._traits = kernel_traits(name)
        super().__init__(operands, result_types, attrs, (), loc, result_names)

    @property
    def name(self) -> str:  # type: ignore[override]
        return self._name

    @property
    def traits(self) -> frozenset:  # type: ignore[override]
        return self._traits

    @property
    def opdef(self):
        return _get_op()(self._name)

    def _init_clone(self, other):
        self._name = other._name
        self._traits = other._traits

    def verify_(self):
        _expect(self, None, 1, 0)
        from ember.ir.schema import check_kernel_op
        check_kernel_op(self)


def _get_op():
    """ember.ops.get, imported on first use."""
    global _GET_OP
    if _GET_OP is None:
        from ember import ops
        _GET_OP = ops.get
    return _GET_OP


_GET_OP = None


def kernel_traits(name: str) -> frozenset:
    traits = _KERNEL_TRAITS.get(name)
    if traits is not None:
        return traits
    from ember import ops
    d = ops.get(name)
    if d is None:
        return frozenset()
    traits = _KERNEL_TRAITS[name] = _traits_of(d)
    return traits


_KERNEL_TRAITS: dict = {}
"""Registered operator name -> its traits (an operator is registered once, never
replaced)."""


def _traits_of(d) -> frozenset:
    traits = set()
    # A fresh list or dict must not be merged by CSE (two calls give two objects).
    if d.pure and d.schema.ret.name not in ("List", "Dict", "Set", "Iterator"):
        traits.add(PURE)
    if d.may_raise:
        traits.add(MAY_RAISE)
    if d.commutative:
        traits.add(COMMUTATIVE)
    return frozenset(traits)


def is_kernel_name(name: str) -> bool:
    from ember import ops
    return ops.get(name) is not None


# ----------------------------------------------------------------------------- functions


@register
class FuncOp(Op):
    """`func @name(%a: T = default, …) -> R { … }`.

    Attributes: `sym_name` (str), `type` (FunctionType), `defaults` (list of
    constants for the trailing parameters), optional `doc`, `qualname`.
    """

    name = "func"

    def __init__(self, sym_name: str, ftype: T.FunctionType, loc: Loc, arg_names=None,
                 defaults=()):
        block = Block(list(ftype.params), arg_names)
        super().__init__((), (), {"sym_name": sym_name, "type": ftype,
                                  "defaults": list(defaults)}, [Region(block)], loc)

    @property
    def sym_name(self) -> str:
        return self.attrs["sym_name"]

    @property
    def type(self) -> T.FunctionType:
        return self.attrs["type"]

    @property
    def body(self) -> Block:
        return self.regions[0].block

    @property
    def args(self):
        return self.body.args

    @property
    def defaults(self) -> list:
        return self.attrs.get("defaults", [])

    def verify_(self):
        _expect(self, 0, 0, 1)
        if [a.type for a in self.args] != list(self.type.params):
            fail(self, "block arguments must match the function type")
        if len(self.defaults) > len(self.args):
            fail(self, "more defaults than parameters")


def op_class(name: str):
    """The op class for a printed op name, or KernelOp, or None if unknown."""
    cls = OP_CLASSES.get(name)
    if cls is not None:
        return cls
    return KernelOp if is_kernel_name(name) else None


def create_op(name: str, operands, result_types, attrs, regions, loc, result_names=None) -> Op:
    """Build an op of any kind by name (used by the parser and generic rewrites)."""
    cls = op_class(name)
    if cls is None:
        raise KeyError(name)
    if cls is KernelOp:
        return KernelOp(name, operands, result_types, attrs, loc, result_names)
    if cls is FuncOp:
        raise ValueError("use FuncOp(...) to build functions")
    return cls(operands, result_types, attrs, regions, loc, result_names)
