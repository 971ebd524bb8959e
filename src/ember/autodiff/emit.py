"""The emitter derivative rules build IR through: `e.op("tensor.mul", g, x)`.

Rules (`ember/ops/vjp_*.py`) import nothing of the IR: they call this object's methods
with IR values and Python constants. `op` fills an operator's trailing defaults from its
schema, turns Python constants into `const` ops and computes the result type from the
operator's shape function, as the frontend does for a call.
"""

from __future__ import annotations

from ember import ops
from ember.ir import types as T
from ember.ir.core import OpResult, Value
from ember.ir.ops import KernelOp, create_op

_BASE = {"int": T.I64, "float": T.F64, "bool": T.BOOL, "str": T.STR, "None": T.NONE,
         "Tensor": T.TENSOR, "ScalarType": T.DTYPE}
_KIND = {T.I64: "int", T.F64: "float", T.BOOL: "bool", T.STR: "str", T.NONE: "none",
         T.DTYPE: "dtype"}


class Emitter:
    """Builds ops at an IRBuilder's insertion point, at one source location."""

    def __init__(self, builder):
        self.b = builder
        self.needs = None
        """Per operand of the op whose rule runs: does it need an adjoint? (None: all do.)"""
        self.replaced = None
        """The forward op a rule replaced (keep_forward); the transform erases it."""

    def need(self, i: int) -> bool:
        """Rules skip the adjoints no one needs (tensor ops are not removed when unused)."""
        return self.needs is None or self.needs[i]

    # -- values -------------------------------------------------------------------------
    def const(self, v, type=None):
        """An IR value for a Python constant (values pass through)."""
        if isinstance(v, Value):
            return v
        if type is not None:
            return self.b.const(v, type)
        if v is None:
            return self.b.const(None, T.NONE)
        if isinstance(v, bool):
            return self.b.const(v, T.BOOL)
        if isinstance(v, int):
            return self.b.const(v, T.I64)
        if isinstance(v, float):
            return self.b.const(v, T.F64)
        if isinstance(v, str):
            return self.b.const(v, T.STR)
        if isinstance(v, (list, tuple)):
            items = [self.const(x) for x in v]
            elem = items[0].type if items else T.I64
            return self.b.create("list.new", items, [T.ListType(elem)]).result
        raise TypeError(f"no IR constant for {v!r}")

    def tensor_list(self, items):
        """A list<tensor> of tensor values (of any tensor types)."""
        vals = [v if v.type == T.TENSOR else self.b.create("widen", [v], [T.TENSOR]).result
                for v in items]
        return self.b.create("list.new", vals, [T.ListType(T.TENSOR)]).result

    def dtype(self, name: str):
        """A `ScalarType` constant ("float32")."""
        return self.b.const(name, T.DTYPE)

    def is_tensor(self, v) -> bool:
        return isinstance(v, Value) and isinstance(v.type, T.TensorType)

    def elem_is_tensor(self, v, i: int) -> bool:
        """Element i of tuple value v is typed a tensor (not an Optional one, not none)."""
        return isinstance(v.type.elems[i], T.TensorType)

    def is_float(self, v) -> bool:
        return isinstance(v, Value) and v.type == T.F64

    def is_none(self, v) -> bool:
        return not isinstance(v, Value) or v.type == T.NONE

    def list_items(self, v):
        """The elements of a list built in one straight run: a literal (`list.new`) and the
        `list.append`s that follow it in the same block before anything reads it; None for
        any other list (built in a loop, or changed otherwise), whose elements no rule can
        name — a gradient through it is refused rather than dropped."""
        while isinstance(v, OpResult) and v.op.name == "widen":
            v = v.op.operands[0]
        if not (isinstance(v, OpResult) and v.op.name == "list.new"):
            return None
        block, items = v.op.parent, list(v.op.operands)
        uses = _uses_through_widens(v)
        if any(_position(block, op) is None for op in uses):
            return None  # read or changed inside a nested region
        uses.sort(key=lambda op: _position(block, op))
        reading = False
        for op in uses:
            if op.name == "list.append" and not reading:
                items.append(op.operands[1])
            elif op.name.startswith("list.") and op.name in _LIST_MUTATORS or \
                    op.name == "list.append":
                return None  # changed after it was read, or changed otherwise
            else:
                reading = True
        return items

    def value_of(self, v):
        """The compile-time value of a constant operand (None if not constant)."""
        return const_value(v)

    # -- ops ----------------------------------------------------------------------------
    def op(self, name: str, *args):
        d = ops.get(name)
        if d is None:
            raise KeyError(f"no operator {name!r}")
        params = d.schema.params
        vals = [self.const(a) for a in args]
        for p in params[len(vals):]:
            if not p.has_default:
                raise TypeError(f"{name}: missing argument {p.name}")
            vals.append(self.const(p.default) if p.type.name != "ScalarType" or
                        p.default is None else self.dtype(p.default))
        return self.b.kernel(name, vals, result_type(d, vals))

    def tuple_get(self, t, i: int):
        return self.b.create("tuple.get", [t], [t.type.elems[i]], {"index": i}).result

    def keep_forward(self, out, name: str):
        """Make the forward op that computed `out` the operator `name` instead: the same
        operands, out (a tuple's elements, or the one result) as its first results and
        one more, what its backward reads (torch's reserve space). Returns that last
        result, or None when a tuple `out` is read other than element-wise (the rule then
        recomputes what it needs)."""
        op = out.op if isinstance(out, OpResult) else None
        if op is None or op.parent is None or self.replaced is not None or len(op.results) != 1:
            return None
        single = not isinstance(out.type, T.TupleType)
        if not single and any(u.op.name != "tuple.get" for u in out.uses):
            return None
        elems = (out.type,) if single else tuple(out.type.elems)
        ty = T.TupleType(elems + (T.TENSOR,))
        new = KernelOp(name, list(op.operands), [ty], None, op.loc)
        op.parent.insert_before(op, new)
        if single:
            first = create_op("tuple.get", [new.result], [out.type], {"index": 0}, [], op.loc)
            op.parent.insert_before(op, first)
            out.replace_all_uses_with(first.result)
        else:
            out.replace_all_uses_with(new.result)
        get = create_op("tuple.get", [new.result], [T.TENSOR], {"index": len(ty.elems) - 1},
                        [], op.loc)
        op.parent.insert_before(op, get)
        self.replaced = op
        return get.result

    def tuple_new(self, items):
        return self.b.create("tuple.new", list(items),
                             [T.TupleType(tuple(v.type for v in items))]).result

    # -- helpers rules share ------------------------------------------------------------------
    def add(self, a, b):
        if self.is_tensor(a) or self.is_tensor(b):
            if not self.is_tensor(a):
                return self.op("tensor.add_scalar", b, a)
            if not self.is_tensor(b):
                return self.op("tensor.add_scalar", a, b)
            return self.op("tensor.add", a, b)
        return self.op("float.add", a, b)

    def mul(self, a, b):
        if self.is_tensor(a) and self.is_tensor(b):
            return self.op("tensor.mul", a, b)
        if self.is_tensor(a):
            return self.op("tensor.mul_scalar", a, b)
        if self.is_tensor(b):
            return self.op("tensor.mul_scalar", b, a)
        return self.op("float.mul", a, b)

    def sum_to(self, g, like):
        """g summed over the dims broadcasting added to `like`, in like's dtype."""
        if isinstance(g.type, T.TensorType) and isinstance(like.type, T.TensorType) and \
                g.type.shape is not None and g.type.shape == like.type.shape and \
                None not in g.type.shape and g.type.dtype == like.type.dtype and \
                g.type.dtype is not None:
            return g
        return self.op("tensor.sum_to", g, self.shape_of(like))

    def mul_sum_to(self, a, b, like):
        """sum_to(a * b, like): one kernel (no whole product) when it may reduce."""
        if self._same_shape(a, like) and self._same_shape(b, like):
            return self.sum_to(self.op("tensor.mul", a, b), like)
        return self.op("tensor.mul_sum_to", a, b, self.shape_of(like))

    @staticmethod
    def _same_shape(g, like) -> bool:
        """g's static type proves it has like's shape and dtype."""
        return isinstance(g.type, T.TensorType) and isinstance(like.type, T.TensorType) and \
            g.type.shape is not None and g.type.shape == like.type.shape and \
            None not in g.type.shape and g.type.dtype == like.type.dtype and \
            g.type.dtype is not None

    def shape_of(self, v):
        """A stand-in for tensor v holding only its shape and dtype (tensor.zeros_unread, a
        broadcast zero), computed right after v in the forward: a rule reading only v's
        shape (sum_to) then does not keep v alive until the reverse sweep gets to it (a
        residual `x + f(x)` kept f(x) for its shape)."""
        if not isinstance(v, OpResult) or v.op.parent is None or \
                not isinstance(v.type, T.TensorType):
            return v
        op = v.op
        block = op.parent
        ops = block.ops
        i = ops.index(op)
        stand_in = KernelOp("tensor.zeros_unread", [v], [v.type], None, op.loc)
        if i + 1 < len(ops):
            block.insert_before(ops[i + 1], stand_in)
        else:
            block.append(stand_in)
        return stand_in.result

    def to_float(self, v):
        """A Python float from a one-element tensor gradient (a scalar operand's share)."""
        return self.op("grad.to_float", self.op("tensor.sum", v))


def result_type(d, vals) -> T.Type:
    """The result type of operator d on operands vals (shape function, else schema)."""
    bindings: dict = {}
    for p, v in zip(d.schema.params, vals):
        _bind(p.type, v.type, bindings)
    ret = _resolve(d.schema.ret, bindings)
    if d.shape_fn is not None:
        try:
            return _to_type(d.shape_fn([_arg_info(v) for v in vals]), ret)
        except ops.ShapeMismatch:
            return ret
    return ret


def _bind(p, t, bindings) -> None:
    if p.is_var:
        bindings.setdefault(p.name, t)
    elif p.name == "List" and isinstance(t, T.ListType):
        _bind(p.args[0], t.elem, bindings)
    elif p.name == "Optional" and p.args:
        _bind(p.args[0], t, bindings)


def _resolve(p, bindings) -> T.Type:
    if p.is_var:
        return bindings.get(p.name, T.TENSOR)
    if p.name in _BASE:
        return _BASE[p.name]
    args = [_resolve(a, bindings) for a in p.args]
    if p.name == "List":
        return T.ListType(args[0])
    if p.name == "Tuple":
        return T.TupleType(tuple(args))
    if p.name == "Optional":
        return T.make_union([args[0], T.NONE])
    raise TypeError(f"derivative rules cannot produce a {p}")


def const_value(v):
    op = v.op if isinstance(v, OpResult) else None
    if op is None:
        return None
    if op.name == "const":
        return op.attrs.get("value")
    if op.name in ("list.new", "tuple.new"):
        items = [const_value(x) for x in op.operands]
        if any(x is None for x in items):
            return None
        return items if op.name == "list.new" else tuple(items)
    if op.name == "widen" and op.operands:
        return const_value(op.operands[0])
    if op.name == "int.neg" and op.operands:
        x = const_value(op.operands[0])
        return -x if isinstance(x, int) else None
    return None


def _arg_info(v):
    from ember.ops.tensorinfo import ArgInfo
    t = v.type
    if isinstance(t, T.TensorType):
        dtype = T.NUMPY_DTYPE[t.dtype] if t.dtype else None
        return ArgInfo(dtype, t.shape, None, True, "tensor")
    kind = _KIND.get(t)
    if kind is None:
        if isinstance(t, T.ListType):
            kind = "list"
        elif isinstance(t, T.OptionalType):
            kind = _KIND.get(t.elem, "optional")
        elif isinstance(t, T.TupleType):
            kind = "tuple"
    items = None
    if isinstance(v, OpResult) and v.op.name in ("list.new", "tuple.new"):
        items = tuple(_arg_info(x) for x in v.op.operands)
    return ArgInfo(None, None, const_value(v), False, kind, items)


def _to_type(result, ret):
    from ember.ops.tensorinfo import TensorInfo
    if isinstance(result, TensorInfo):
        dtype = T.IR_DTYPE.get(result.dtype) if result.dtype else None
        shape = tuple(result.shape) if result.shape is not None else None
        return T.TensorType(dtype, shape)
    if isinstance(result, tuple) and isinstance(ret, T.TupleType):
        return T.TupleType(tuple(_to_type(r, t) for r, t in zip(result, ret.elems)))
    return ret


_LIST_MUTATORS = frozenset({"list.append", "list.setitem", "list.insert", "list.pop",
                            "list.delitem", "list.extend", "list.clear", "list.remove",
                            "list.reverse", "list.sort", "list.setslice", "list.delslice",
                            "list.imul", "list.iadd"})


def _uses_through_widens(v) -> list:
    out = []
    for use in v.uses:
        if use.op.name == "widen":
            out.extend(_uses_through_widens(use.op.results[0]))
        else:
            out.append(use.op)
    return out


def _position(block, op):
    """op's index in block, or None when op sits in another block (a nested region)."""
    return block.ops.index(op) if op.parent is block else None
