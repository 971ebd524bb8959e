"""The operator registry: every operator once, with its schema, flags and kernel."""

from __future__ import annotations

from ember.ops.schema import Schema, parse_schema


class ShapeMismatch(Exception):
    """Raised by a shape function for a mismatch it can prove at compile time."""


class OpDef:
    """One operator. The schema string is parsed on first use (import stays cheap)."""

    __slots__ = (
        "_schema",
        "commutative",
        "doc",
        "elementwise",
        "fold",
        "kernel",
        "may_raise",
        "name",
        "pure",
        "python_names",
        "schema_text",
        "shape_fn",
    )

    def __init__(self, name, schema_text, kernel, *, pure=True, may_raise=False,
                 commutative=False, elementwise=False, shape_fn=None, python_names=(),
                 doc="", fold=True):
        self.name = name
        """Operator name, `<receiver>.<verb>` (the IR kernel op's name)."""
        self.schema_text = schema_text
        self.kernel = kernel
        """The implementation, called positionally with every schema argument."""
        self.pure = pure
        """No side effects (it may still raise)."""
        self.may_raise = may_raise
        self.commutative = commutative
        self.elementwise = elementwise
        self.shape_fn = shape_fn
        """(list[ArgInfo]) -> TensorInfo | tuple; raises ShapeMismatch on a proven mismatch."""
        self.python_names = tuple(python_names)
        """Python qualnames this operator implements ("int.__add__", "math.sqrt", ...)."""
        self.doc = doc
        self.fold = fold
        """May the compiler run the kernel at compile time on constant arguments?"""
        self._schema = None

    @property
    def schema(self) -> Schema:
        if self._schema is None:
            self._schema = parse_schema(self.schema_text)
        return self._schema

    @property
    def arity(self) -> int:
        return len(self.schema.params)

    def __repr__(self) -> str:
        return f"<op {self.schema_text}>"


REGISTRY: dict[str, OpDef] = {}
_BY_PYTHON: dict[str, list[OpDef]] = {}


def op(schema_text: str, *, python=(), pure=True, may_raise=False, commutative=False,
       elementwise=False, shape=None, fold=True):
    """Register the decorated function as the kernel of `schema_text`'s operator."""
    name = schema_text[:schema_text.index("(")].strip()

    def deco(kernel):
        register(OpDef(name, schema_text, kernel, pure=pure, may_raise=may_raise,
                       commutative=commutative, elementwise=elementwise, shape_fn=shape,
                       python_names=python, doc=(kernel.__doc__ or "").strip(), fold=fold))
        return kernel

    return deco


def register(d: OpDef) -> OpDef:
    if d.name in REGISTRY:
        raise ValueError(f"operator {d.name!r} registered twice")
    REGISTRY[d.name] = d
    for q in d.python_names:
        _BY_PYTHON.setdefault(q, []).append(d)
    return d


def get(name: str) -> OpDef | None:
    """The operator called `name`, or None."""
    return REGISTRY.get(name)


def by_python_name(qualname: str) -> list[OpDef]:
    """The overloads implementing a Python qualname, in registration order."""
    return _BY_PYTHON.get(qualname, [])


def all_ops() -> list[OpDef]:
    return list(REGISTRY.values())


_ON_TRUE: dict[str, list[tuple[str, str]]] = {}


def dispatch_on_true(name: str, flag: str, target: str) -> None:
    """Calls of operator `name` whose bool argument `flag` is True run operator `target`
    (TorchScript's boolean_dispatch: `F.max_pool2d(..., return_indices=True)` returns
    (values, indices)). The compiler needs the flag constant; eager calls look at it.
    An operator may dispatch on several flags (torch.unique's return_inverse and
    return_counts), the first true one first; the target's own rules then apply."""
    _ON_TRUE.setdefault(name, []).append((flag, target))


def on_true_rules(d: OpDef) -> list[tuple[str, int, OpDef]]:
    """(flag, its position among d's parameters, target operator) for each flag calls of
    operator d dispatch on (dispatch_on_true), in registration order."""
    return [(flag, next(i for i, p in enumerate(d.schema.params) if p.name == flag),
             REGISTRY[target]) for flag, target in _ON_TRUE.get(d.name, ())]


def on_true(d: OpDef) -> tuple[str, int, OpDef] | None:
    """The first of on_true_rules(d), or None."""
    rules = on_true_rules(d)
    return rules[0] if rules else None


# ----------------------------------------------------------------------------- derivatives

VJP: dict[str, object] = {}
"""Operator name -> its vector-Jacobian product rule, `rule(e, args, out, g) -> grads`.

A rule builds IR through the emitter `e` (ember.autodiff.emit: `e.op("tensor.mul", g, x)`,
`e.const(0.0)`, ...), so a gradient is made of ember operators and can be differentiated
again. `args` are the op's operands, `out` its result, `g` the adjoint of the result; the
rule returns one adjoint per operand (None where the operand gets none). Rules live in
`ops/vjp_*.py`, registered beside the operators by name; an operator may have no rule
(differentiating through it is then a CompileError naming it)."""

NONDIFF: set[str] = set()
"""Operators whose results carry no gradient by rule (comparisons, argmax, int math)."""


def vjp(*names: str):
    """Register the decorated function as the derivative rule of operators `names`."""
    def deco(rule):
        for n in names:
            if n in VJP or n in NONDIFF:
                raise ValueError(f"derivative of {n!r} registered twice")
            VJP[n] = rule
        return rule
    return deco


def nondiff(*names: str) -> None:
    """Mark operators as having zero gradient by rule."""
    for n in names:
        if n in VJP:
            raise ValueError(f"operator {n!r} has a derivative rule already")
        NONDIFF.add(n)
