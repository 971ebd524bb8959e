"""Eager calls of ember operators: pick the overload whose schema matches the runtime values,
bind keywords and defaults as the schema says, call the kernel positionally.

This is the run-time twin of the type checker's overload matching (`frontend/typing_.py`,
`frontend/calls.py`), so `F.NAME(...)` gives in Python what the compiled call gives:

* np.ndarray matches `Tensor` (a numpy scalar too, as a 0-d array);
* bool -> int -> float follow Python's numeric tower; `Scalar` takes any number as it is;
* lists and tuples match `List[T]` element-wise (tuples are passed on as lists), and a bare
  int given for a `List[int]` parameter is packed into a one-element list (torch's varargs
  rule, as the compiler's IntPack does);
* `ScalarType` takes ember's dtype constants, numpy dtypes and torch dtypes, and passes the
  numpy dtype name the kernels take ("float32").

The overload chosen and the way each argument is converted depend only on the argument
kinds, so they are computed once per kind signature and cached (`Dispatcher._plans`).
"""

from __future__ import annotations

import numpy as np

from ember.ops.schema import SType

_NO = object()
"""A conversion that cannot be made (the argument does not match)."""

_CACHE_LIMIT = 512


class dtype(str):
    """An ember dtype constant (`F.float32`): the numpy dtype name the kernels take.

    A str subclass, so kernels and numpy take it as it is and `x.dtype == F.float32` holds
    for a numpy array x.
    """

    __slots__ = ()

    def __repr__(self) -> str:
        return f"ember.{self}"


# ----------------------------------------------------------------------------- argument kinds


def _identity(v):
    return v


_SIMPLE = {np.ndarray: "Tensor", bool: "bool", int: "int", float: "float", str: "str",
           type(None): "None", dtype: "dtype", np.dtype: "dtype"}


def kind_of(v):
    """The matching-relevant kind of a runtime value; hashable (part of the cache key)."""
    k = _SIMPLE.get(type(v))
    if k is not None:
        return k
    if isinstance(v, (list, tuple)):
        return ("seq", _join([kind_of(x) for x in v]))
    if isinstance(v, np.generic):
        return "npbool" if isinstance(v, np.bool_) else (
            "npint" if isinstance(v, np.integer) else "npfloat")
    if isinstance(v, np.ndarray):
        return "Tensor"
    if _is_dtype_like(v):
        return "dtype"
    for base in (bool, int, float, str):  # subclasses: an IntEnum, a str subclass
        if isinstance(v, base):
            return base.__name__
    return ("other", type(v).__name__)


def _is_dtype_like(v) -> bool:
    if isinstance(v, np.dtype) or isinstance(v, type) and issubclass(v, np.generic):
        return True
    t = type(v)
    return t.__name__ == "dtype" and t.__module__ == "torch"


def _join(kinds):
    """One kind for a list's elements: equal kinds, or a number kind wide enough for all."""
    if not kinds:
        return "empty"
    first = kinds[0]
    if all(k == first for k in kinds):
        return first
    if all(k in _NUMBER_RANK for k in kinds):
        return max(kinds, key=_NUMBER_RANK.__getitem__)
    if all(isinstance(k, tuple) and k[0] == "seq" for k in kinds):
        return ("seq", _join([k[1] for k in kinds if k[1] != "empty"]))
    return "mixed"


_NUMBER_RANK = {"bool": 0, "npbool": 0, "int": 1, "npint": 1, "float": 2, "npfloat": 2}

# ----------------------------------------------------------------------------- conversions


def dtype_name(v) -> str:
    """The numpy dtype name of an ember, numpy or torch dtype."""
    if isinstance(v, str):
        return str(v)
    if isinstance(v, np.dtype):
        return v.name
    if isinstance(v, type) and issubclass(v, np.generic):
        return np.dtype(v).name
    name = str(v).split(".")[-1]  # torch.float32 -> float32
    return _TORCH_DTYPES.get(name, name)


_TORCH_DTYPES = {"float": "float32", "double": "float64", "half": "float16", "long": "int64",
                 "int": "int32", "short": "int16"}


def _to_array(v):
    return np.asarray(v)


def _to_int(v):
    return int(v)


def _to_float(v):
    return float(v)


def _to_bool(v):
    return bool(v)


def _item(v):
    return v.item()


def _scalar_conv(kind, want: str):
    """Conversion of a scalar kind to schema base type `want`, or _NO."""
    rank = _NUMBER_RANK.get(kind) if isinstance(kind, str) else None
    if want == "Tensor":
        return _identity if kind == "Tensor" else (_to_array if rank is not None and
                                                   kind.startswith("np") else _NO)
    if want == "Scalar":
        if rank is None:
            return _NO
        return _item if kind.startswith("np") else _identity
    if want in ("int", "float", "bool"):
        if rank is None or rank > _NUMBER_RANK[want]:
            return _NO
        if kind == want:
            return _identity
        return {"int": _to_int, "float": _to_float, "bool": _to_bool}[want]
    if want == "str":
        return _identity if kind == "str" else _NO
    if want == "None":
        return _identity if kind == "None" else _NO
    if want == "ScalarType":
        return dtype_name if kind == "dtype" else _NO
    return _NO


def converter(kind, st: SType):
    """How to turn a value of `kind` into what the kernel takes for schema type `st`
    (a function of one value), or _NO if the value does not match."""
    name = st.name
    if name == "Any" or st.is_var:
        return _identity
    if name == "Optional":
        return _identity if kind == "None" else converter(kind, st.args[0])
    if name == "Union":
        for member in st.args:
            conv = converter(kind, member)
            if conv is not _NO:
                return conv
        return _NO
    if name == "List":
        return _list_converter(kind, st.args[0])
    if name == "Tuple":
        return _tuple_converter(kind, st.args)
    if name == "Callable":
        return _identity if isinstance(kind, tuple) and kind[0] == "other" else _NO
    if isinstance(kind, tuple):
        return _NO
    return _scalar_conv(kind, name)


def _list_converter(kind, elem: SType):
    if kind in ("int", "npint", "bool") and elem.name == "int":
        conv = _scalar_conv(kind, "int")
        return lambda v: [conv(v)]
    if not (isinstance(kind, tuple) and kind[0] == "seq"):
        return _NO
    if kind[1] == "empty":
        return _to_list
    conv = converter(kind[1], elem)
    if conv is _NO:
        return _NO
    if conv is _identity:
        return _to_list
    return lambda v: [conv(x) for x in v]


def _to_list(v):
    return v if type(v) is list else list(v)


def _tuple_converter(kind, elems):
    if not (isinstance(kind, tuple) and kind[0] == "seq"):
        return _NO
    convs = [converter(kind[1], e) for e in elems]
    if _NO in convs:
        return _NO

    def conv(v):
        if len(v) != len(convs):
            raise TypeError(f"expected a tuple of {len(convs)} values, got {len(v)}")
        return tuple(c(x) for c, x in zip(convs, v))
    return conv


def show_kind(kind) -> str:
    """A kind in Python's spelling for messages: Tensor, int, List[int], tuple."""
    if isinstance(kind, tuple):
        if kind[0] == "seq":
            return "List[]" if kind[1] == "empty" else f"List[{show_kind(kind[1])}]"
        return kind[1]
    return {"npbool": "numpy bool", "npint": "numpy int", "npfloat": "numpy float",
            "mixed": "mixed values"}.get(kind, kind)


# ----------------------------------------------------------------------------- binding


class _Mismatch(Exception):
    """Why one overload does not take the arguments (becomes part of a TypeError)."""


def bind(opdef, kinds, kw_kinds):
    """A plan [(source, index_or_name_or_default, conversion)] binding the call's argument
    kinds to `opdef`'s schema; raises _Mismatch saying why it cannot."""
    params = opdef.schema.params
    positional = [p for p in params if not p.kwonly]
    if len(kinds) > len(positional):
        raise _Mismatch(f"takes at most {len(positional)} positional arguments "
                        f"({len(kinds)} given)")
    names = {p.name for p in params}
    for k in kw_kinds:
        if k not in names:
            raise _Mismatch(f"got an unexpected keyword argument '{k}'")
    plan = []
    for i, p in enumerate(params):
        if i < len(kinds) and not p.kwonly:
            if p.name in kw_kinds:
                raise _Mismatch(f"got multiple values for argument '{p.name}'")
            plan.append(("pos", i, _conv_or_raise(kinds[i], p, i)))
        elif p.name in kw_kinds:
            plan.append(("kw", p.name, _conv_or_raise(kw_kinds[p.name], p, None)))
        elif p.has_default:
            plan.append(("default", p.default, None))
        else:
            raise _Mismatch(f"missing required argument '{p.name}' ({p.type})")
    return plan


def _conv_or_raise(kind, p, index):
    conv = converter(kind, p.type)
    if conv is _NO:
        where = f" (position {index + 1})" if index is not None else ""
        raise _Mismatch(f"argument '{p.name}'{where} must be {p.type}, not {show_kind(kind)}")
    return conv


def make_caller(kernel, plan):
    """A function (args, kwargs) -> result running `plan` then the kernel."""
    if all(src == "pos" and conv is _identity for src, _, conv in plan):
        return lambda args, kwargs: kernel(*args)
    steps = tuple(plan)

    def call(args, kwargs):
        values = []
        for src, key, conv in steps:
            if src == "pos":
                values.append(conv(args[key]))
            elif src == "kw":
                values.append(conv(kwargs[key]))
            else:
                values.append(list(key) if type(key) is list else key)
        return kernel(*values)
    return call


class Dispatcher:
    """Calls the first of `overloads` (OpDefs) whose schema takes the runtime arguments."""

    def __init__(self, public_name: str, qualname: str, overloads):
        self.public_name = public_name
        """The name users call (`linear`), for messages."""
        self.qualname = qualname
        """The Python qualname the overloads implement (`torch.nn.functional.linear`)."""
        self.overloads = tuple(overloads)
        self._plans = {}
        self._on_true = self._flag_dispatch()

    def _flag_dispatch(self):
        """(flag, its position, Dispatcher of the target) if the operator dispatches on a
        flag (ops.on_true: return_indices=True runs the *_with_indices operator)."""
        from ember import ops
        rule = ops.on_true(self.overloads[0]) if len(self.overloads) == 1 else None
        if rule is None:
            return None
        flag, at, target = rule
        return flag, at, Dispatcher(self.public_name, self.qualname, [target])

    def __call__(self, args, kwargs):
        if self._on_true is not None:
            flag, at, target = self._on_true
            if kwargs.get(flag, args[at] if len(args) > at else False) is True:
                return target(args, kwargs)
        kinds = tuple(map(kind_of, args))
        key = (kinds, tuple((k, kind_of(v)) for k, v in kwargs.items())) if kwargs else kinds
        call = self._plans.get(key)
        if call is None:
            call = self._choose(kinds, {k: kind_of(v) for k, v in kwargs.items()})
            if len(self._plans) >= _CACHE_LIMIT:
                self._plans.clear()
            self._plans[key] = call
        return call(args, kwargs)

    def _choose(self, kinds, kw_kinds):
        reasons = []
        for d in self.overloads:
            try:
                plan = bind(d, kinds, kw_kinds)
            except _Mismatch as e:
                reasons.append((d, str(e)))
                continue
            return make_caller(d.kernel, plan)
        raise TypeError(self._message(kinds, kw_kinds, reasons))

    def _message(self, kinds, kw_kinds, reasons) -> str:
        got = [show_kind(k) for k in kinds] + [f"{n}={show_kind(k)}" for n, k in
                                                kw_kinds.items()]
        head = f"{self.public_name}() got ({', '.join(got)})"
        if len(reasons) == 1:
            return f"{head}: {reasons[0][1]}"
        lines = [f"{head}, which matches none of its {len(reasons)} overloads:"]
        for d, why in reasons:
            lines.append(f"  {self.public_name}{_signature(d)}: {why}")
        return "\n".join(lines)


def _signature(d) -> str:
    text = str(d.schema)
    return text[text.index("("):]


def make_function(public_name: str, qualname: str, overloads, module: str):
    """A Python function standing for `qualname`: dispatches to `overloads` at call time and
    carries `__ember_op__ = qualname` (the compiler resolves calls of it to the same
    operators)."""
    dispatcher = Dispatcher(public_name, qualname, overloads)
    dispatch = dispatcher.__call__

    def fn(*args, **kwargs):
        return dispatch(args, kwargs)

    fn.__name__ = fn.__qualname__ = public_name
    fn.__module__ = module
    fn.__doc__ = "\n".join([f"ember operator for {qualname}:", ""] +
                           [f"    {public_name}{_signature(d)}" + (f"  -- {d.doc}" if d.doc
                                                                    else "")
                            for d in dispatcher.overloads])
    fn.__ember_op__ = qualname
    fn.__ember_dispatcher__ = dispatcher
    return fn
