"""What the printer's names mean: the scope an archive's code compiles in.

`torch.X(...)` is the aten operator X. Ones with a Python spelling become it (`torch.add(a,
b)` is `a + b`, `torch.__is__(a, None)` is `a is None`, `torch.len(l)` is `len(l)`, `torch.dim(x)`
is `x.dim()`); aten-only ones are translated to ember's operators (`torch._convolution`,
`torch.batch_norm`, `torch.slice`, `torch.embedding`); every other name is looked up as
`torch.X`, then `torch.nn.functional.X`, then the tensor method `X`; an in-place `X_` that
ember lacks runs as X. `ops.prim.*` (dtype, device, NumToTensor, min, max, ...),
`annotate(T, v)`, `unchecked_cast(T, v)`, `uninitialized(T)` and `CONSTANTS.cN` are hooks
(frontend.meta.MHook) that emit their meaning. ScalarType integers (`dtype=6`) are dtypes.

A name ember cannot give a meaning is an UnsupportedError naming the operator at its line in
the archive's code; every one is also recorded in `ArchiveScope.unsupported`.
"""

from __future__ import annotations

from ember import ops
from ember.frontend import ast as A
from ember.frontend.meta import MHook, MModule, MTypeName, builtin_meta
from ember.ir import SymbolRef
from ember.ir import types as T

SCALAR_TYPES = {0: "uint8", 1: "int8", 2: "int16", 3: "int32", 4: "int64", 5: "float16",
                6: "float32", 7: "float64", 11: "bool"}
SCALAR_TYPE_NAMES = {8: "complex32", 9: "complex64", 10: "complex128", 12: "qint8",
                     13: "quint8", 14: "qint32", 15: "bfloat16", 16: "quint4x2",
                     17: "quint2x4", 23: "float8_e5m2", 24: "float8_e4m3fn"}
TORCH_ROOT = "__ember_torch__"
"""The name synthesized code uses for the torch module (archive code never reads it: its
`torch.` names are rewritten into single names)."""
TYPE_NAMES = ("List", "Dict", "Tuple", "Optional", "Union", "Final", "Any", "Tensor")

_BINOPS = {"add": "+", "sub": "-", "mul": "*", "div": "/", "floordiv": "//",
           "remainder": "%", "pow": "**", "__and__": "&", "__or__": "|", "__xor__": "^",
           "__lshift__": "<<", "__rshift__": ">>"}
_CMPS = {"eq": "==", "ne": "!=", "lt": "<", "le": "<=", "gt": ">", "ge": ">=",
         "__is__": "is", "__isnot__": "is not"}
_BUILTINS = {"len": "len", "list": "list", "Int": "int", "Float": "float", "Bool": "bool",
             "str": "str", "abs": "abs"}
_METHODS = {"dim": "dim", "size": "size", "numel": "numel", "item": "item",
            "contiguous": "contiguous", "view": "view", "expand": "expand", "repeat": "repeat",
            "type_as": "type_as", "expand_as": "expand_as", "view_as": "view_as",
            "masked_fill_": "masked_fill_", "masked_fill": "masked_fill", "tolist": "tolist",
            "keys": "keys", "values": "values", "items": "items", "copy": "copy",
            "get": "get", "pop": "pop", "insert": "insert", "extend": "extend",
            "clear": "clear", "index": "index", "count": "count", "reverse": "reverse",
            "split": None}
_DROPPED_KWARGS = ("layout", "device", "pin_memory", "memory_format", "non_blocking")
_PRIM_FALSE = ("requires_grad", "is_nested", "is_cuda", "is_sparse", "is_mkldnn",
               "is_quantized", "is_meta", "is_xpu", "is_mps", "is_vulkan", "is_ipu",
               "is_xla", "is_mtia", "is_maia")


def dotted_node(span, name: str):
    parts = name.split(".")
    node = A.Name(span, parts[0])
    for p in parts[1:]:
        node = A.Attribute(span, node, p)
    return node


def torch_node(span, path: str):
    """`torch.<path>` as synthesized code spells it."""
    return dotted_node(span, f"{TORCH_ROOT}.{path}")


class ArchiveScope:
    """Names of an archive's code: its classes and functions by qualified name, the
    prelude, then Python's builtins."""

    def __init__(self, compiler, table: dict, constants: tuple):
        self.compiler = compiler
        self.table = table
        self.constants = constants
        self.unsupported: list = []
        """(operator or construct, span) for every name the prelude cannot give a meaning."""
        self._const_syms: dict = {}

    def lookup(self, name: str):
        if name in ConstantCall.ANSWERS:
            return ConstantCall(self, name)
        meta = self.table.get(name)
        if meta is not None:
            return meta
        if name.startswith("torch."):
            return Aten(self, name[len("torch."):])
        if name.startswith("ops.prim."):
            return Prim(self, name[len("ops.prim."):])
        if name.startswith("ops.aten."):
            return Aten(self, name[len("ops.aten."):])
        if name.startswith("ops."):
            return Missing(self, name)
        if name.startswith("CONSTANTS."):
            return Constant(self, name)
        if name == TORCH_ROOT:
            return MModule("torch")
        if name == "__ts_math__":
            return MModule("math")
        if name in TYPE_NAMES:
            return MTypeName(name)
        if name in _SPECIAL:
            return _SPECIAL[name](self, name)
        if name in ("inf", "nan"):  # the printer's spelling of float('inf') and float('nan')
            from ember.frontend.meta import MConst
            return MConst(float(name))
        if name.startswith("__torch__."):
            return Missing(self, name, f"'{name}' is not defined in the archive's code")
        return builtin_meta(name)

    def refuse(self, em, what: str, span, message: str | None = None):
        self.unsupported.append((what, span))
        return em.unsupported(message or f"{what} is not supported by ember", span)

    def constant_symbol(self, index: int, arr) -> str:
        sym = self._const_syms.get(index)
        if sym is None:
            module = self.compiler.module
            sym, k = f"CONSTANTS.c{index}", 1
            while sym in module.tensors:
                k += 1
                sym = f"CONSTANTS.c{index}.{k}"
            module.add_tensor(sym, arr)
            self._const_syms[index] = sym
        return sym


class _Hook(MHook):
    def __init__(self, scope: ArchiveScope, name: str):
        self.scope = scope
        self.name = name

    def describe(self):
        return f"'{self.name}'"


class Missing(_Hook):
    def __init__(self, scope, name, message=None):
        super().__init__(scope, name)
        self.message = message

    def call(self, em, node, expected):
        return self.scope.refuse(em, self.name, node.func.span, self.message)

    def value(self, em, node):
        return self.scope.refuse(em, self.name, node.span, self.message)


class Constant(_Hook):
    """CONSTANTS.cN: the archive's constants.pkl entry N (a tensor or a plain value)."""

    def value(self, em, node):
        import numpy as np

        from ember.frontend.module_view import tensor_type
        tail = self.name[len("CONSTANTS.c"):]
        consts = self.scope.constants
        if not tail.isdigit() or int(tail) >= len(consts):
            return em.error(f"{self.name} is not in the archive's constants.pkl "
                            f"({len(consts)} constants)", node.span)
        v = consts[int(tail)]
        if isinstance(v, np.ndarray):
            sym = self.scope.constant_symbol(int(tail), v)
            return em.b.const(SymbolRef(sym), tensor_type(v), em.loc(node))
        if v is None or isinstance(v, (bool, int, float, str)) or (
                isinstance(v, tuple) and all(isinstance(x, (bool, int, float, str))
                                             for x in v)):
            return em.constant(v, node)
        return self.scope.refuse(em, f"{self.name} (a {type(v).__name__} constant)",
                                 node.span)


class Annotate(_Hook):
    """annotate(T, v): v as a T (types empty lists and None)."""

    def call(self, em, node, expected):
        if len(node.args) != 2 or node.keywords:
            return em.error("annotate takes a type and a value", node.span)
        t = em.ann.resolve(node.args[0])
        v = em.value(node.args[1], t)
        return em.coerce(v, t, node.args[1].span)


class UncheckedCast(_Hook):
    """unchecked_cast(T, v): v, known to be a T (an Optional or Union narrowed)."""

    def call(self, em, node, expected):
        if len(node.args) != 2 or node.keywords:
            return em.error("unchecked_cast takes a type and a value", node.span)
        t = em.ann.resolve(node.args[0])
        v = em.value(node.args[1])
        if v.type == t or not isinstance(v.type, (T.OptionalType, T.UnionType)):
            return em.coerce(v, t, node.args[1].span)
        if t in T.members(v.type) or T.is_subtype(t, v.type):
            return em.b.create("narrow", [v], [t], loc=em.loc(node)).result
        return em.coerce(v, t, node.args[1].span)


class Uninitialized(_Hook):
    """uninitialized(T): a placeholder the printer puts where a value is never read (after a
    raise); a default of type T."""

    def call(self, em, node, expected):
        if len(node.args) != 1:
            return em.error("uninitialized takes a type", node.span)
        t = em.ann.resolve(node.args[0])
        built = _default_of(t, node.span)
        if built is None:
            return self.scope.refuse(em, f"uninitialized({t})", node.span)
        return em.coerce(em.value(built, t), t, node.span)


def _default_of(t, span):
    if t == T.I64:
        return A.Constant(span, 0)
    if t == T.F64:
        return A.Constant(span, 0.0)
    if t == T.BOOL:
        return A.Constant(span, False)
    if t == T.STR:
        return A.Constant(span, "")
    if t == T.NONE or isinstance(t, T.OptionalType):
        return A.Constant(span, None)
    if isinstance(t, T.TensorType):
        return A.Call(span, torch_node(span, "zeros"), [A.List(span, [A.Constant(span, 0)])],
                      [])
    if isinstance(t, T.ListType):
        return A.List(span, [])
    if isinstance(t, T.DictType):
        return A.Dict(span, [], [])
    if isinstance(t, T.TupleType):
        items = [_default_of(x, span) for x in t.elems]
        return None if None in items else A.Tuple(span, items)
    return None


class Fork(_Hook):
    def call(self, em, node, expected):
        return self.scope.refuse(em, self.name, node.func.span,
                                 f"{self.name} (asynchronous calls, torch.jit.fork/wait) is "
                                 "not supported by ember")


class ConstantCall(_Hook):
    """A query whose answer is fixed for ember: grad mode and autocast are off (ember has
    no autograd and no autocast), and torch.backends.mha's fast path is off (the fast path
    computes what the general path computes, with operators ember does not have)."""

    ANSWERS = {"torch.is_grad_enabled": False, "torch.is_autocast_enabled": False,
               "torch.is_autocast_cpu_enabled": False,
               "__torch__.torch.backends.mha.get_fastpath_enabled": False,
               "__torch__.torch.nn.modules.activation._is_make_fx_tracing": False}

    def call(self, em, node, expected):
        for a in node.args:
            em.value(a)
        return em.constant(self.ANSWERS[self.name], node)


_SPECIAL = {"annotate": Annotate, "unchecked_cast": UncheckedCast,
            "uninitialized": Uninitialized, "fork": Fork, "wait": Fork}


class Prim(_Hook):
    """ops.prim.X."""

    def call(self, em, node, expected):
        name, args, span = self.name, node.args, node.span
        if name == "RaiseException":
            return self.scope.refuse(em, "ops.prim.RaiseException used as a value", span)
        if name == "dtype" and len(args) == 1:  # archives spell dtypes as ScalarType ints
            return em.call_python_op("ember.scalar_type", [em.value(args[0])], node)
        if name == "device" and len(args) == 1:
            em.value(args[0])
            return em.constant("cpu", node)
        if name == "type" and len(args) == 1:  # a device's type: ember runs on the CPU
            v = em.value(args[0])
            return v if v.type == T.STR else em.constant("cpu", node)
        if name in _PRIM_FALSE and len(args) == 1:
            em.value(args[0])
            return em.constant(False, node)
        if name == "NumToTensor" and len(args) == 1:
            return em.expr(A.Call(span, torch_node(span, "tensor"), list(args), []), expected)
        if name in ("min", "max", "abs") and not node.keywords:
            return em.expr(A.Call(span, A.Name(node.func.span, name), list(args), []),
                           expected)
        if name in ("unchecked_unwrap_optional", "data") and len(args) == 1:
            v = em.value(args[0])
            if isinstance(v.type, T.OptionalType):
                return em.b.create("narrow", [v], [v.type.elem], loc=em.loc(node)).result
            return v
        if name == "shape" and len(args) == 1:
            return em.expr(A.Call(span, A.Attribute(span, args[0], "size"), [], []))
        return self.scope.refuse(em, f"ops.prim.{name}", node.func.span)

    def value(self, em, node):
        return self.scope.refuse(em, f"ops.prim.{self.name}", node.span)


class Aten(_Hook):
    """torch.X: the aten operator X."""

    def describe(self):
        return f"aten::{self.name}"

    def value(self, em, node):
        if self.name in _DTYPE_NAMES:
            return em.expr(torch_node(node.span, self.name))
        return self.scope.refuse(em, f"torch.{self.name} as a value", node.span)

    def call(self, em, node, expected):
        op, args, kws, span = self.name, list(node.args), list(node.keywords), node.span
        out = next((k for k in kws if k.arg == "out"), None)
        if out is not None:  # op(..., out=o): o.copy_(op(...)), which is o
            target = em.value(out.value)
            inner = A.Call(span, node.func, args, [k for k in kws if k is not out])
            result = self.call(em, inner, expected)
            if isinstance(getattr(result, "type", None), T.TensorType) and \
                    isinstance(target.type, T.TensorType):
                return em.call_python_op("Tensor.copy_", [target, result], node, receiver=True)
            return self.scope.refuse(em, f"aten::{op} with out= of this type", out.span)
        if (op in _MATH or op in _LIST_BUILTINS) and args and not kws:
            r = _scalar_math(self, em, node, args, expected)
            if r is not None:
                return r
        handler = _HANDLERS.get(op)
        if handler is not None:
            r = handler(self, em, node, args, kws)
            if r is not None:
                return r
        if op in _BINOPS and len(args) == 2 and not kws:
            return em.expr(A.BinOp(span, args[0], _BINOPS[op], args[1]), expected)
        if op in _CMPS and len(args) == 2 and not kws:
            return em.expr(A.Compare(span, args[0], [_CMPS[op]], [args[1]],
                                     [node.func.span]), expected)
        if op in _BUILTINS and not kws:
            return em.expr(A.Call(span, A.Name(node.func.span, _BUILTINS[op]), args, []),
                           expected)
        if op in _METHODS and args and _METHODS[op] is not None:
            return em.expr(A.Call(span, A.Attribute(node.func.span, args[0], _METHODS[op]),
                                  args[1:], kws), expected)
        kws = _clean_kwargs(kws)
        temps = []
        kws = [_dtype_keyword(em, k, temps) for k in kws]
        try:
            return self.generic(em, node, op, args, kws, expected)
        finally:
            for t in temps:
                _unbind(em, t)

    def generic(self, em, node, op, args, kws, expected):
        span = node.span
        for qual in (f"torch.{op}", f"torch.nn.functional.{op}"):
            if ops.by_python_name(qual):
                fn = torch_node(node.func.span, qual[len("torch."):])
                return em.expr(A.Call(span, fn, args, kws), expected)
        if args and ops.by_python_name(f"Tensor.{op}"):
            return em.expr(A.Call(span, A.Attribute(node.func.span, args[0], op), args[1:],
                                  kws), expected)
        if op.endswith("_") and not op.endswith("__") and len(op) > 1 and args:
            # An in-place operator ember lacks: the out-of-place one, copied into self.
            target = em.value(args[0])
            tmp = _bind(em, target, args[0].span)
            try:
                result = self.generic(em, node, op[:-1], [tmp] + args[1:], kws, expected)
            finally:
                _unbind(em, tmp)
            if isinstance(getattr(result, "type", None), T.TensorType) and \
                    isinstance(target.type, T.TensorType):
                return em.call_python_op("Tensor.copy_", [target, result], node,
                                         receiver=True)
            return result
        return self.scope.refuse(em, f"aten::{self.name}", node.func.span,
                                 f"aten::{self.name} (torch.{self.name}) is not supported by "
                                 "ember: no operator implements it")


_DTYPE_NAMES = ("float32", "float64", "float16", "int64", "int32", "int16", "int8", "uint8",
                "bool", "float", "double", "half", "long", "int")


def _dtype_node(node):
    """A ScalarType integer constant as a torch dtype name node; other nodes as they are."""
    if isinstance(node, A.Constant) and type(node.value) is int:
        name = SCALAR_TYPES.get(node.value)
        if name is None:
            return None
        return torch_node(node.span, name)
    return node


def _clean_kwargs(kws):
    out = []
    for k in kws:
        if k.arg in _DROPPED_KWARGS:
            continue
        if k.arg == "dtype":
            v = _dtype_node(k.value)
            if v is None:
                continue  # reported by _check_dtypes
            k = A.Keyword(k.span, "dtype", v)
        out.append(k)
    return out


def _dtype_keyword(em, k, temps):
    """dtype=<a ScalarType int value> as a dtype value (archives compute dtypes as ints)."""
    if k.arg != "dtype" or isinstance(k.value, (A.Constant, A.Attribute)):
        return k
    v = dtype_value(em, k.value)
    name = _bind(em, v, k.value.span)
    temps.append(name)
    return A.Keyword(k.span, "dtype", name)


def dtype_value(em, node):
    """The value of a dtype argument: a ScalarType int becomes its dtype."""
    v = em.value(node)
    if v.type == T.I64:
        return em.call_python_op("ember.dtype_of_scalar_type", [v], node)
    if v.type == T.OptionalType(T.I64):
        return em.call_python_op("ember.dtype_of_optional_scalar_type", [v], node)
    return v


def _int_const(node):
    if isinstance(node, A.Constant) and type(node.value) is int:
        return node.value
    if isinstance(node, A.UnaryOp) and node.op == "-" and isinstance(node.operand, A.Constant) \
            and type(node.operand.value) is int:
        return -node.operand.value
    return None


# -- handlers: None means "not this form, use the general rules" ------------------------------


_MATH = ("floor", "ceil", "sqrt", "exp", "log", "log2", "log10", "sin", "cos", "tan",
         "tanh", "atan", "asin", "acos", "atan2", "log1p", "expm1", "fabs", "trunc",
         "isnan", "isinf", "isfinite", "copysign", "fmod", "gcd", "round")


_LIST_BUILTINS = {"all": "all", "any": "any", "sum": "sum", "min": "min", "max": "max"}


def _scalar_math(hook, em, node, args, expected):
    """aten's scalar overloads (aten::floor.float -> int, aten::sqrt.float) as math.X."""
    first = em.value(args[0])
    tmp = _bind(em, first, args[0].span)
    try:
        rest = [tmp] + args[1:]
        if isinstance(first.type, T.ListType) and hook.name in _LIST_BUILTINS:
            fn = A.Name(node.func.span, _LIST_BUILTINS[hook.name])
            return em.expr(A.Call(node.span, fn, rest, []), expected)
        if not isinstance(first.type, T.TensorType) and ops.by_python_name(
                f"math.{hook.name}"):
            fn = dotted_node(node.func.span, f"__ts_math__.{hook.name}")
            return em.expr(A.Call(node.span, fn, rest, []), expected)
        return hook.generic(em, node, hook.name, rest, [], expected)
    finally:
        _unbind(em, tmp)


def _h_format(hook, em, node, args, kws):
    if not args:
        return None
    if not (isinstance(args[0], A.Constant) and isinstance(args[0].value, str)):
        # A template passed in as a value (an error message's text): ember formats only
        # literal templates, so the message is the template itself.
        for a in args[1:]:
            em.value(a)
        return em.value(args[0])
    return em.expr(A.Call(node.span, A.Attribute(node.func.span, args[0], "format"), args[1:],
                          kws))


def _h_getitem(hook, em, node, args, kws):
    if len(args) != 2 or kws:
        return None
    return em.expr(A.Subscript(node.span, args[0], args[1]))


def _h_contains(hook, em, node, args, kws):
    if len(args) != 2 or kws:
        return None
    return em.expr(A.Compare(node.span, args[1], ["in"], [args[0]], [node.func.span]))


def _h_not(hook, em, node, args, kws):
    if len(args) != 1 or kws:
        return None
    return em.expr(A.UnaryOp(node.span, "not", args[0]))


def _h_neg(hook, em, node, args, kws):
    if len(args) != 1 or kws:
        return None
    return em.expr(A.UnaryOp(node.span, "-", args[0]))


def _h_warn(hook, em, node, args, kws):
    for a in args:
        em.value(a)
    return em.constant(None, node)


def _h_device(hook, em, node, args, kws):
    if len(args) == 1 and isinstance(args[0], A.Constant) and isinstance(args[0].value, str):
        return em.constant(args[0].value, node)
    return None


def _h_slice(hook, em, node, args, kws):
    """aten::slice: of a tensor (self, dim, start, end, step) or of a list (l, start, end,
    step); 9223372036854775807 is an open end."""
    if kws or not args:
        return None
    first = em.value(args[0])
    tmp = _bind(em, first, args[0].span)
    span = node.span

    def bound(x):
        if x is None or (isinstance(x, A.Constant) and (x.value is None or x.value ==
                                                        9223372036854775807)):
            return None
        return x
    try:
        if isinstance(first.type, T.TensorType):
            dim = _int_const(args[1]) if len(args) > 1 else 0
            if dim is None:
                return hook.scope.refuse(em, "aten::slice with a dimension that is not a "
                                         "constant int", node.func.span)
            rest = args[2:] + [None] * (3 - len(args[2:]))
            sl = A.Slice(span, bound(rest[0]), bound(rest[1]), bound(rest[2]))
            full = A.Slice(span, None, None, None)
            if dim >= 0:  # x[:, :, a:b]
                items = [full] * dim + [sl]
            else:  # x[..., a:b, :]
                items = [A.Constant(span, ...), sl] + [full] * (-dim - 1)
            return em.expr(A.Subscript(span, tmp, A.Tuple(span, items)
                                       if len(items) > 1 else sl))
        rest = args[1:] + [None] * (3 - len(args[1:]))
        sl = A.Slice(span, bound(rest[0]), bound(rest[1]), bound(rest[2]))
        return em.expr(A.Subscript(span, tmp, sl))
    finally:
        _unbind(em, tmp)


_counter = [0]


def _bind(em, value, span) -> A.Name:
    """A name synthesized code reads `value` through (a compile-time alias, not a variable)."""
    _counter[0] += 1
    name = f"__ts_tmp{_counter[0]}"
    em.local_metas[name] = value
    return A.Name(span, name)


def _unbind(em, name_node) -> None:
    em.local_metas.pop(name_node.id, None)


def _h_convolution(hook, em, node, args, kws):
    """aten::_convolution(input, weight, bias, stride, padding, dilation, transposed,
    output_padding, groups, benchmark, deterministic, cudnn_enabled[, allow_tf32])."""
    if len(args) < 9 or kws:
        return None
    stride, transposed = args[3], args[6]
    if not (isinstance(transposed, A.Constant) and isinstance(transposed.value, bool)):
        return hook.scope.refuse(em, "aten::_convolution with a transposed flag that is not "
                                 "a constant", node.func.span)
    if not isinstance(stride, A.List) or not 1 <= len(stride.elts) <= 3:
        return hook.scope.refuse(em, "aten::_convolution with a stride that is not a list "
                                 "literal of 1 to 3 ints", node.func.span)
    n = len(stride.elts)
    x, w, b, padding, dilation, out_pad, groups = args[0], args[1], args[2], args[4], \
        args[5], args[7], args[8]
    if transposed.value:
        fn = torch_node(node.func.span, f"nn.functional.conv_transpose{n}d")
        call = A.Call(node.span, fn, [x, w, b, stride, padding, out_pad, groups, dilation], [])
    else:
        fn = torch_node(node.func.span, f"nn.functional.conv{n}d")
        call = A.Call(node.span, fn, [x, w, b, stride, padding, dilation, groups], [])
    return em.expr(call)


def _h_batch_norm(hook, em, node, args, kws):
    """aten::batch_norm(input, weight, bias, running_mean, running_var, training, momentum,
    eps, cudnn_enabled)."""
    if len(args) != 9 or kws:
        return None
    x, w, b, rm, rv, training, momentum, eps = args[:8]
    fn = torch_node(node.func.span, "nn.functional.batch_norm")
    return em.expr(A.Call(node.span, fn, [x, rm, rv, w, b, training, momentum, eps], []))


def _h_layer_norm(hook, em, node, args, kws):
    """aten::layer_norm(input, normalized_shape, weight, bias, eps, cudnn_enable)."""
    if len(args) == 6 and not kws:
        fn = torch_node(node.func.span, "nn.functional.layer_norm")
        return em.expr(A.Call(node.span, fn, args[:5], []))
    return None


def _h_embedding(hook, em, node, args, kws):
    """aten::embedding(weight, indices, padding_idx, scale_grad_by_freq, sparse): a lookup
    (padding_idx only matters for gradients)."""
    if len(args) < 2 or kws:
        return None
    fn = torch_node(node.func.span, "nn.functional.embedding")
    return em.expr(A.Call(node.span, fn, [args[1], args[0]], []))


def _h_softmax(hook, em, node, args, kws):
    """aten::softmax(self, dim, dtype): a None or ScalarType third argument."""
    if len(args) != 3 or kws:
        return None
    extra, temps = [], []
    if not (isinstance(args[2], A.Constant) and args[2].value is None):
        d = _dtype_node(args[2])
        if d is None:
            return hook.scope.refuse(em, f"aten::{hook.name} with an unsupported dtype",
                                     node.func.span)
        extra = [_dtype_keyword(em, A.Keyword(args[2].span, "dtype", d), temps)]
    try:
        return hook.generic(em, node, hook.name, args[:2], extra, None)
    finally:
        for t in temps:
            _unbind(em, t)


def _h_to(hook, em, node, args, kws):
    """aten::to(self, dtype, non_blocking, copy, memory_format)."""
    if len(args) >= 2 and not kws and not isinstance(args[1], A.Constant):
        x = em.value(args[0])
        v = em.value(args[1])
        if v.type == T.I64:
            d = em.call_python_op("ember.dtype_of_scalar_type", [v], node)
            return em.call_python_op("Tensor.to", [x, d], node, receiver=True)
        if v.type == T.STR:  # to(device, dtype, ...)
            if len(args) >= 3 and not (isinstance(args[2], A.Constant) and
                                       args[2].value is None):
                d = dtype_value(em, _dtype_node(args[2]) or args[2])
                return em.call_python_op("Tensor.to", [x, d], node, receiver=True)
            return x
        return None
    if len(args) >= 2 and not kws and isinstance(args[1], A.Constant) and \
            type(args[1].value) is int:
        d = _dtype_node(args[1])
        if d is None:
            return hook.scope.refuse(em, f"aten::to a ScalarType {args[1].value} "
                                     f"({SCALAR_TYPE_NAMES.get(args[1].value, 'unknown')})",
                                     node.func.span)
        return em.expr(A.Call(node.span, A.Attribute(node.func.span, args[0], "to"), [d], []))
    return None


def _h_dropout(hook, em, node, args, kws):
    """aten::dropout(input, p, train) and its in-place twin."""
    if len(args) == 3 and not kws:
        fn = torch_node(node.func.span, "dropout")
        return em.expr(A.Call(node.span, fn, args, []))
    return None


def _h_elu(hook, em, node, args, kws):
    """aten::elu(self, alpha, scale, input_scale)."""
    if kws or len(args) > 4:
        return None
    for extra in args[2:]:
        if not (isinstance(extra, A.Constant) and extra.value in (1, 1.0)):
            return hook.scope.refuse(em, "aten::elu with scale or input_scale other than 1",
                                     node.func.span)
    fn = torch_node(node.func.span, "nn.functional.elu")
    return em.expr(A.Call(node.span, fn, args[:2], []))


def _h_gelu(hook, em, node, args, kws):
    if len(args) == 2 and not kws:
        fn = torch_node(node.func.span, "nn.functional.gelu")
        return em.expr(A.Call(node.span, fn, [args[0]],
                              [A.Keyword(args[1].span, "approximate", args[1])]))
    return None


def _h_hardtanh(hook, em, node, args, kws):
    if not kws and 1 <= len(args) <= 3:
        fn = torch_node(node.func.span, "nn.functional.hardtanh")
        return em.expr(A.Call(node.span, fn, args, []))
    return None


def _h_leaky_relu(hook, em, node, args, kws):
    if not kws and 1 <= len(args) <= 2:
        fn = torch_node(node.func.span, "nn.functional.leaky_relu")
        return em.expr(A.Call(node.span, fn, args, []))
    return None


def _h_pad(hook, em, node, args, kws):
    fn = torch_node(node.func.span, "nn.functional.pad")
    return em.expr(A.Call(node.span, fn, args, kws))


def _h_ones_zeros(hook, em, node, args, kws):
    bad = [k for k in kws if k.arg == "dtype" and _dtype_node(k.value) is None]
    if bad:
        v = bad[0].value.value
        return hook.scope.refuse(em, f"dtype ScalarType {v} "
                                 f"({SCALAR_TYPE_NAMES.get(v, 'unknown')})", bad[0].span)
    return None


def _h_vector_norm(hook, em, node, args, kws):
    """aten::linalg_vector_norm(self, ord, dim, keepdim, dtype) as torch.norm."""
    if kws or not 1 <= len(args) <= 5:
        return None
    if len(args) == 5 and not (isinstance(args[4], A.Constant) and args[4].value is None):
        return None
    fn = torch_node(node.func.span, "norm")
    return em.expr(A.Call(node.span, fn, args[:4], []))


_UPSAMPLE = {"upsample_nearest1d": ("nearest", False), "upsample_nearest2d": ("nearest", False),
             "upsample_nearest3d": ("nearest", False),
             "_upsample_nearest_exact1d": ("nearest-exact", False),
             "_upsample_nearest_exact2d": ("nearest-exact", False),
             "_upsample_nearest_exact3d": ("nearest-exact", False),
             "upsample_linear1d": ("linear", True), "upsample_bilinear2d": ("bilinear", True),
             "upsample_trilinear3d": ("trilinear", True),
             "upsample_bicubic2d": ("bicubic", True),
             "_upsample_bilinear2d_aa": ("bilinear", True),
             "_upsample_bicubic2d_aa": ("bicubic", True),
             "_upsample_lanczos2d_aa": ("lanczos", True)}
"""aten's resampling operators as F.interpolate modes (and whether they take align_corners).
The antialiased ones (`_aa`, lanczos among them) are F.interpolate(antialias=True), which
ember's operator refuses when it runs (NotImplementedError), as for a script calling it
directly: scripted F.interpolate keeps every mode's branch, and only the modes a model
uses must run."""


def _h_upsample(hook, em, node, args, kws):
    """aten::upsample_*(input, output_size, [align_corners,] scale_factors) (the .vec
    overloads traced code calls) as F.interpolate."""
    mode, aligns = _UPSAMPLE[hook.name]
    if kws or len(args) != 3 + aligns:
        return hook.scope.refuse(em, f"aten::{hook.name} with these arguments",
                                 node.func.span)
    span = node.span
    extra = [A.Keyword(span, "mode", A.Constant(span, mode))]
    if aligns:
        extra.append(A.Keyword(span, "align_corners", args[2]))
    if hook.name.endswith("_aa"):
        extra.append(A.Keyword(span, "antialias", A.Constant(span, True)))
    fn = torch_node(node.func.span, "nn.functional.interpolate")
    return em.expr(A.Call(span, fn, [args[0], args[1], args[-1]], extra))


def _index_items(em, node):
    """The items of an aten::index list literal (None: a whole dimension), else None."""
    if isinstance(node, A.Call) and isinstance(node.func, A.Name) and \
            node.func.id == "annotate" and len(node.args) == 2:
        node = node.args[1]
    if not isinstance(node, A.List):
        return None
    return [A.Slice(x.span, None, None, None) if isinstance(x, A.Constant) and x.value is None
            else x for x in node.elts]


def _h_index(hook, em, node, args, kws):
    """aten::index(self, [None, idx, ...]): x[:, idx, ...]."""
    items = _index_items(em, args[1]) if len(args) == 2 and not kws else None
    if not items:
        return None
    key = items[0] if len(items) == 1 else A.Tuple(node.span, items)
    return em.expr(A.Subscript(node.span, args[0], key))


def _h_index_put(hook, em, node, args, kws):
    """aten::index_put_(self, [None, idx, ...], values, accumulate=False): x[...] = values,
    then x."""
    if kws or len(args) not in (3, 4):
        return None
    if len(args) == 4 and not (isinstance(args[3], A.Constant) and args[3].value is False):
        return hook.scope.refuse(em, "aten::index_put_ with accumulate=True", node.func.span)
    items = _index_items(em, args[1])
    if not items:
        return None
    target = em.value(args[0])
    tmp = _bind(em, target, args[0].span)
    try:
        key = items[0] if len(items) == 1 else A.Tuple(node.span, items)
        em.stmt(A.Assign(node.span, [A.Subscript(node.span, tmp, key)], args[2]))
    finally:
        _unbind(em, tmp)
    return target


_HANDLERS = {
    "format": _h_format, "__getitem__": _h_getitem, "__contains__": _h_contains,
    "__not__": _h_not, "neg": _h_neg, "warn": _h_warn, "device": _h_device,
    "slice": _h_slice, "_convolution": _h_convolution, "batch_norm": _h_batch_norm,
    "layer_norm": _h_layer_norm, "embedding": _h_embedding, "softmax": _h_softmax,
    "log_softmax": _h_softmax, "to": _h_to, "dropout": _h_dropout, "dropout_": _h_dropout,
    "elu": _h_elu, "elu_": _h_elu, "gelu": _h_gelu, "hardtanh": _h_hardtanh,
    "hardtanh_": _h_hardtanh, "leaky_relu": _h_leaky_relu, "leaky_relu_": _h_leaky_relu,
    "pad": _h_pad, "zeros": _h_ones_zeros, "ones": _h_ones_zeros, "full": _h_ones_zeros,
    "empty": _h_ones_zeros, "zeros_like": _h_ones_zeros, "ones_like": _h_ones_zeros,
    "tensor": _h_ones_zeros, "arange": _h_ones_zeros, "linalg_vector_norm": _h_vector_norm,
    "index": _h_index, "index_put_": _h_index_put,
    **{name: _h_upsample for name in _UPSAMPLE},
}
