"""Expressions: names, constants, operators, comparisons, subscripts, attributes, literals."""

from __future__ import annotations

from ember.errors import NameResolutionError
from ember.frontend import ast as A
from ember.frontend.meta import (
    TORCH_DTYPES,
    MBoundMethod,
    MBuiltin,
    MClass,
    MConst,
    MDtype,
    MHook,
    Meta,
    MFunction,
    MLambda,
    MModule,
    MNested,
    MOpaque,
    MOpFunc,
    MTypeName,
)
from ember.frontend.polymorph import is_class_union
from ember.frontend.typing_ import ErrorType, numeric_rank, show
from ember.ir import Region, Value
from ember.ir import types as T
from ember import ops
from ember.ops.int64 import INT64_MAX, INT64_MIN
from ember.ops.scalar_complex import CMATH_CONSTANTS

AUG_INPLACE = {"+", "*"}
"""Augmented operators that change a list in place (`xs += ys`, `xs *= n`), as in Python."""
_VERB = {"+": "add", "-": "subtract", "*": "multiply", "/": "divide", "//": "floor-divide",
         "%": "take the modulo of", "**": "raise", "@": "matrix-multiply", "<<": "shift",
         ">>": "shift", "&": "and", "|": "or", "^": "xor"}
_NAMES = {"+": "add", "-": "sub", "*": "mul", "/": "truediv", "//": "floordiv", "%": "mod",
          "**": "pow", "<<": "lshift", ">>": "rshift", "&": "and", "|": "or", "^": "xor",
          "@": "matmul"}
_CMP_NAMES = {"==": "eq", "!=": "ne", "<": "lt", "<=": "le", ">": "gt", ">=": "ge"}
_SWAP = {"<": ">", ">": "<", "<=": ">=", ">=": "<=", "==": "==", "!=": "!="}
_MATH_CONSTS = {"pi", "e", "tau", "inf", "nan"}
_TYPE_BUILTINS = {"dict", "list", "str", "int", "float", "complex", "bool", "tuple"}
"""Builtin types whose methods may be called through the type (str.lower(s))."""
_PARTS = {T.C128: ("complex", T.F64), T.F64: ("float", T.F64), T.I64: ("int", T.I64),
          T.BOOL: ("int", T.I64)}
"""Numbers with .real / .imag: the operator prefix and the parts' type."""
_TENSOR_PROPERTIES = {"shape", "dtype", "T", "ndim", "mT", "data", "device", "is_cuda", "real",
                      "imag", "H", "mH", "grad", "is_cpu", "is_leaf", "itemsize", "nbytes",
                      "name", "is_ipu", "is_maia", "is_meta", "is_mkldnn", "is_mps", "is_mtia",
                      "is_nested", "is_quantized", "is_sparse", "is_sparse_csr", "is_vulkan",
                      "is_xla", "is_xpu", "retains_grad"}


def mix_hint(a, b) -> str:
    """A hint for mixing numbers of different types where one type is needed."""
    if numeric_rank(a) is not None and numeric_rank(b) is not None:
        wide = a if numeric_rank(a) > numeric_rank(b) else b
        return (f"; convert explicitly with {show(wide)}(...) (ember keeps Python's number "
                "types and converts only in arithmetic)")
    return ""


# the fields of torch.return_types tuples, by the function or method that returns them
_RETURN_TYPES = {
    **{f: ("values", "indices") for f in ("max", "min", "sort", "topk", "kthvalue", "mode",
                                          "median", "nanmedian", "cummax", "cummin")},
    "aminmax": ("min", "max"), "frexp": ("mantissa", "exponent"), "qr": ("Q", "R"),
    "slogdet": ("sign", "logabsdet"), "svd": ("U", "S", "V"), "std_mean": (), "var_mean": (),
    "eigh": ("eigenvalues", "eigenvectors"), "eig": ("eigenvalues", "eigenvectors"),
}


_LAYOUT_CONSTANTS = ("contiguous_format", "preserve_format", "channels_last",
                     "channels_last_3d", "strided")


def _return_fields(call) -> tuple:
    if not (isinstance(call, A.Call) and isinstance(call.func, A.Attribute)):
        return ()
    return _RETURN_TYPES.get(call.func.attr, ())


def _named_results(fn) -> dict:
    """{local name: fields} for the names of function `fn` bound only by assignments of a
    torch.return_types call (`r = torch.max(x, 0)`), whose `r.values` reads a field."""
    from ember.frontend.env import walk
    found: dict = {}
    for n in walk(fn):
        if isinstance(n, (A.Assign, A.AnnAssign)):
            targets = n.targets if isinstance(n, A.Assign) else [n.target]
            for t in targets:
                if isinstance(t, A.Name):
                    fields = _return_fields(n.value)
                    if found.get(t.id, fields) != fields or not fields:
                        found[t.id] = None
                    else:
                        found[t.id] = fields
                else:
                    for m in walk(t):
                        if isinstance(m, A.Name):
                            found[m.id] = None
        elif isinstance(n, (A.AugAssign, A.For)):
            for m in walk(n.target):
                if isinstance(m, A.Name):
                    found[m.id] = None
        elif isinstance(n, A.Arg):
            found[n.arg] = None
    return {k: v for k, v in found.items() if v}


def _return_type_field(node, base, fn=None, cache=None):
    """The element of a torch.return_types tuple that `f(...).name` reads (or `r.name` of a
    local r bound only to such results), else None."""
    call = node.value
    fields = _return_fields(call)
    if not fields and isinstance(call, A.Name) and fn is not None:
        if cache is None or fn not in cache:
            named = _named_results(fn)
            if cache is not None:
                cache[fn] = named
        else:
            named = cache[fn]
        fields = named.get(call.id, ())
    t = getattr(base, "type", None)
    if node.attr not in fields or not isinstance(t, T.TupleType) or \
            len(t.elems) != len(fields):
        return None
    return fields.index(node.attr)


class ExprMixin:
    def expr(self, node, expected=None):
        """Emit node; returns an IR Value or a Meta (a compile-time value)."""
        handler = getattr(self, "e_" + type(node).__name__, None)
        if handler is None:
            return self.unsupported(f"'{type(node).__name__}' expressions are not supported",
                                    node.span)
        return handler(node, expected)

    def value(self, node, expected=None) -> Value:
        v = self.expr(node, expected)
        if isinstance(v, (MBuiltin, MOpFunc, MBoundMethod)) and \
                isinstance(expected, T.FunctionType):
            v = self.function_of_callable(node, expected)  # key=len, key=math.sqrt
        return self.as_value(v, node, expected)

    def function_of_callable(self, node, expected):
        """`len` where a function is expected: the lambda that calls it with the arguments."""
        from ember.frontend.closures import make_lambda
        sp = node.span
        from ember.frontend.env import names_read
        taken = names_read(node)
        params = []
        for i in range(len(expected.params)):
            name, k = f"x{i}", 0
            while name in taken:
                k += 1
                name = f"x{i}_{k}"
            params.append(name)
        lam = A.Lambda(sp, [A.Arg(sp, p) for p in params],
                       A.Call(sp, node, [A.Name(sp, p) for p in params], []))
        return make_lambda(self, lam, expected)

    def as_value(self, v, node, expected=None) -> Value:
        """v as a run-time value; `expected` types a lambda bound to a name (f = lambda ...;
        g(f)) when it is a function type."""
        if isinstance(v, Value):
            return v
        if isinstance(v, MLambda) and isinstance(expected, T.FunctionType) and \
                len(expected.params) == len(v.node.args):
            from ember.frontend.closures import lambda_instance
            return lambda_instance(self, v, list(expected.params), node)
        if isinstance(v, MConst):
            return self.constant(v.value, node)
        if isinstance(v, MDtype):
            return self.b.const(v.numpy_name, T.DTYPE, self.loc(node))
        if isinstance(v, MHook):
            return v.value(self, node)
        if isinstance(v, MClass):
            from ember.frontend.enums import is_enum, members_list
            self.c.declare_class(v.info)
            if is_enum(v.info):
                return members_list(self, v, node)
        if isinstance(v, (MFunction, MLambda, MNested)):
            from ember.frontend.generators import is_generator_def, refuse_generator_value
            if isinstance(v, MFunction) and is_generator_def(v.info.node) or \
                    isinstance(v, MNested) and v.generator:
                return refuse_generator_value(self, v.info, node)
            from ember.frontend.closures import function_value
            return function_value(self, v, node)
        return self.error(f"{v.describe()} cannot be used as a value here", node.span)

    # -- leaves --------------------------------------------------------------------------------
    def e_Constant(self, node, expected):
        return self.constant(node.value, node)

    def constant(self, value, node):
        loc = self.loc(node)
        if type(value).__name__ == "MemberDefault":  # an Enum member default
            from ember.ir import SymbolRef
            return self.b.const(SymbolRef(value.symbol), value.type, loc)
        if isinstance(value, bool):
            return self.b.const(value, T.BOOL, loc)
        if isinstance(value, int):
            if not INT64_MIN <= value <= INT64_MAX:
                return self.error(f"integer literal {value} does not fit in 64 bits", node.span)
            return self.b.const(value, T.I64, loc)
        if isinstance(value, float):
            return self.b.const(value, T.F64, loc)
        if isinstance(value, complex):
            return self.b.const(value, T.C128, loc)
        if isinstance(value, str):
            return self.b.const(value, T.STR, loc)
        if value is None:
            return self.b.const(None, T.NONE, loc)
        if isinstance(value, tuple):
            items = [self.constant(x, node) for x in value]
            return self.b.create("tuple.new", items, [T.TupleType(tuple(v.type for v in items))],
                                 loc=loc).result
        kind = {bytes: "bytes literals", type(...): "'...' (Ellipsis)"}.get(type(value), f"{type(value).__name__} values")
        return self.unsupported(f"{kind} are not supported", node.span)

    def e_Name(self, node, expected):
        v = self.read_var(node.id, node.span)
        if v is not None:
            return v
        if node.id in self.local_metas:
            return self.local_metas[node.id]
        if node.id in self.c.mutable_globals and node.id not in self.local_names:
            from ember.frontend.globals_ import read_global
            return read_global(self, node.id, node.span)
        if node.id in self.local_names:
            return self.error(f"local variable '{node.id}' is read before it is assigned (it is "
                              f"assigned in '{self.node.name}', which makes the name local to "
                              "the whole function, as in Python)", node.span,
                              NameResolutionError)
        meta = self.scope.lookup(node.id)
        if meta is None:
            return self.error(f"name '{node.id}' is not defined", node.span, NameResolutionError)
        if isinstance(meta, MOpaque):
            return self.error(meta.message(), node.span, NameResolutionError)
        return meta

    # -- attributes -------------------------------------------------------------------------------
    def e_Attribute(self, node, expected):
        v = node.value
        if node.attr == "__name__" and isinstance(v, A.Call) and isinstance(v.func, A.Name) \
                and v.func.id == "type" and len(v.args) == 1 and not v.keywords and \
                isinstance(self.global_meta("type"), MBuiltin):
            return self.type_name(v.args[0], node)
        base = self.expr(node.value)
        if isinstance(base, MConst):
            base = self.as_value(base, node.value)  # NAME.upper() of a str constant
        if isinstance(base, Meta):
            return self.meta_attribute(base, node)
        field = _return_type_field(node, base, getattr(self, "node", None),
                                   self.__dict__.setdefault("_named_results", {}))
        if field is not None:  # x.max(1).values: torch's named result tuples
            t = base.type.elems[field]
            return self.b.create("tuple.get", [base], [t], {"index": field},
                                 loc=self.loc(node)).result
        return self.attribute(base, node)

    def type_name(self, arg, node):
        """`type(x).__name__`: the name of x's class as CPython gives it (a Tensor's is
        'Tensor'); a script object's, also one held as its base class, is its own class's."""
        x = self.value(arg)
        if isinstance(x.type, ErrorType):
            return x
        loc = self.loc(node)
        return self.b.kernel("builtins.type_name", [x], T.STR, loc)

    def meta_attribute(self, base, node):
        attr = node.attr
        if isinstance(base, MModule):
            return self.module_attribute(base, attr, node)
        if isinstance(base, MClass):
            from ember.frontend.classes import class_attribute
            return class_attribute(self, base, node)
        from ember.frontend.meta import MBuiltin, MOpFunc, MSlice
        if isinstance(base, MBuiltin) and base.name in _TYPE_BUILTINS and \
                ops.by_python_name(f"{base.name}.{attr}"):
            return MOpFunc(f"{base.name}.{attr}")  # dict.fromkeys(...), str.lower(s)
        if isinstance(base, MSlice) and attr in ("start", "stop", "step"):
            part = getattr(base.node, {"start": "lower", "stop": "upper"}.get(attr, attr))
            return self.value(part) if part is not None else \
                self.b.const(None, T.NONE, self.loc(node))
        return self.error(f"{base.describe()} has no attribute '{attr}'", node.span)

    def module_attribute(self, mod, attr, node):
        import math

        name = mod.name
        if name == "math" and attr in _MATH_CONSTS:
            return MConst(getattr(math, attr))
        if name == "cmath" and attr in CMATH_CONSTANTS:
            return MConst(CMATH_CONSTANTS[attr])
        if name == "torch" and attr in TORCH_DTYPES:
            return MDtype(TORCH_DTYPES[attr])
        if name == "torch" and attr == "Tensor":
            return MTypeName("Tensor")
        if name == "torch" and attr in _LAYOUT_CONSTANTS:
            return MConst(attr)  # torch.contiguous_format, torch.strided: only for layout=
            # / memory_format= arguments, which ember's dense row-major tensors ignore
        if name in ("torch", "torch.nn") and attr in ("nn", "functional", "jit") or \
                name == "torch.nn" and attr in ("init", "utils") or \
                name == "torch.nn.utils" and attr == "rnn" or \
                name == "torch" and attr in ("linalg", "special", "_C"):
            return MModule(f"{name}.{attr}")
        if name in ("typing", "enum"):
            return MTypeName(attr)
        if name == "torch" and attr == "ops" or name == "torch.ops" and attr == "aten":
            return MModule(f"{name}.{attr}")
        if name == "torch.ops.aten":
            # torch.ops.aten.index_put(...): the ATen operator torch.index_put calls (the
            # _unsafe_ variants skip checks ember's kernels make anyway); softmax etc. of
            # torch.nn.functional where torch has no such function
            op = attr[len("_unsafe_"):] if attr.startswith("_unsafe_") else attr
            for where in ("torch", "torch.nn.functional"):
                if ops.by_python_name(f"{where}.{op}"):
                    return MOpFunc(f"{where}.{op}")
        if mod.pyobj is not None and name not in ("math", "cmath", "torch",
                                                  "torch.nn.functional"):
            from ember.frontend.meta import classify
            obj = getattr(mod.pyobj, attr, None)
            if obj is not None:
                meta = classify(obj, attr, self.c)
                if meta is not None:
                    return meta
        if name in ("math", "cmath", "torch", "torch.nn.functional") or \
                name in ("torch.nn.init", "torch.linalg", "torch.special",
                         "torch.nn.utils.rnn", "torch._C") and \
                ops.by_python_name(f"{name}.{attr}"):
            return MOpFunc(f"{name}.{attr}")
        if name == "torch.jit" and attr == "Error":  # TorchScript's exception class
            from ember.frontend.meta import MException
            return MException("Error:Exception")
        if name == "torch.jit" or name == "ember":
            return MOpFunc(f"{name}.{attr}")
        if name == "warnings" and attr == "warn":
            return MBuiltin("warnings.warn")
        if name == "torch.functional" and ops.by_python_name(f"torch.{attr}"):
            return MOpFunc(f"torch.{attr}")  # torch.functional.split is torch.split
        return self.error(f"module '{name}' has no attribute '{attr}' that ember knows",
                          node.span, NameResolutionError)

    def attribute(self, obj: Value, node):
        t = obj.type
        if isinstance(t, ErrorType):
            return obj
        if isinstance(t, T.ClassType):
            from ember.frontend.classes import instance_attribute
            return instance_attribute(self, obj, node)
        if isinstance(t, T.TensorType) and node.attr == "requires_grad":
            return self.b.const(False, T.BOOL, self.loc(node))  # no autograd: never
        if isinstance(t, T.TensorType) and node.attr in _TENSOR_PROPERTIES:
            return self.call_python_op(f"Tensor.{node.attr}", [obj], node)
        if t in _PARTS and node.attr in ("real", "imag"):
            if t == T.BOOL:  # True.real is the int 1
                t, obj = T.I64, self.b.kernel("bool.to_int", [obj], T.I64, self.loc(node))
            kind, part = _PARTS[t]
            return self.b.kernel(f"{kind}.{node.attr}", [obj], part, self.loc(node))
        if t == T.STR and node.attr == "type":  # a torch.device's (str has no .type)
            return self.b.kernel("device.type", [obj], T.STR, self.loc(node))
        if t == T.EXC:  # a field of a user exception class (frontend/exc_fields.py)
            from ember.frontend.exc_fields import read_field
            v = read_field(self, obj, node)
            if v is not None:
                return v
        if is_class_union(t):  # an object of a class or of one of its subclasses
            from ember.frontend.polymorph import union_attribute
            return union_attribute(self, obj, node)
        if isinstance(t, (T.OptionalType, T.UnionType)):
            return self.error(f"cannot use attribute '{node.attr}' of {show(t)}"
                              f"{self.unrefined_hint([(obj, node.value)])}", node.value.span)
        return MBoundMethod(obj, node.attr, node.span)

    def attribute_set(self, obj, node, value) -> None:
        from ember.frontend.classes import instance_attribute_set
        if is_class_union(obj.type):
            from ember.frontend.polymorph import union_attribute_set
            return union_attribute_set(self, obj, node, value)
        instance_attribute_set(self, obj, node, value)

    def expr_text(self, node) -> str:
        s = node.span
        if s.line == s.end_line:
            line = self.source.line(s.line)
            return line[s.col - 1:s.end_col - 1]
        return "expression"

    # -- operators -----------------------------------------------------------------------------
    def e_BinOp(self, node, expected):
        left = self.value(node.left)
        right = self.value(node.right)
        return self.binop(node.op, left, right, node, (node.left, node.right))

    def binop(self, op, a: Value, b: Value, node, operand_nodes=(None, None), aug=False):
        ta, tb = a.type, b.type
        if isinstance(ta, ErrorType) or isinstance(tb, ErrorType):
            return a if isinstance(ta, ErrorType) else b
        if isinstance(ta, T.ClassType) or isinstance(tb, T.ClassType):
            r = self.class_binop(op, a, b, node, aug)
            if r is not None:
                return r
        loc = self.loc(node)
        if isinstance(ta, T.SetType) or isinstance(tb, T.SetType):
            from ember.frontend import sets
            return sets.binop(self, op, a, b, node, aug)
        if isinstance(ta, T.TensorType) or isinstance(tb, T.TensorType):
            return self.tensor_binop(op, a, b, node, operand_nodes, aug)
        if numeric_rank(ta) is not None and numeric_rank(tb) is not None:
            return self.numeric_binop(op, a, b, node)
        if ta == T.STR and (tb == T.STR and op == "+"):
            return self.b.kernel("str.add", [a, b], T.STR, loc)
        if op == "*" and {ta, tb} & {T.STR} and {ta, tb} & {T.I64, T.BOOL}:
            s, n = (a, b) if ta == T.STR else (b, a)
            return self.b.kernel("str.mul", [s, self.to_int(n, node)], T.STR, loc)
        if op == "%" and ta == T.STR:
            return self.b.kernel("builtins.percent_format", [a, b], T.STR, loc)
        if isinstance(ta, T.ListType) or isinstance(tb, T.ListType):
            r = self.list_binop(op, a, b, node)
            if r is not None:
                return r
        if op == "+" and isinstance(ta, T.TupleType) and isinstance(tb, T.TupleType):
            return self.tuple_concat(a, b, node)
        if op == "*" and (isinstance(ta, T.TupleType) and tb in (T.I64, T.BOOL) or
                          isinstance(tb, T.TupleType) and ta in (T.I64, T.BOOL)):
            t, n_node = (a, operand_nodes[1]) if isinstance(ta, T.TupleType) else \
                (b, operand_nodes[0])
            n = self.static_int(n_node) if n_node is not None else False
            if n is False or n is None:
                return self.error("a tuple repeated (t * n) needs a constant n: a tuple's "
                                  "length is known at compile time", node.span)
            empty = self.b.create("tuple.new", [], [T.TupleType(())], loc=self.loc(node)).result
            out = empty
            for _ in range(max(n, 0)):
                out = self.tuple_concat(out, t, node)
            return out
        if op == "|" and isinstance(ta, T.DictType) and isinstance(tb, T.DictType):
            return self.dict_union(a, b, node, aug)
        verb = _VERB.get(op, op)
        hint = self.unrefined_hint([(a, operand_nodes[0]), (b, operand_nodes[1])])
        return self.error(f"cannot {verb} {show(ta)} and {show(tb)} (operator '{op}'){hint}",
                          node.span)

    def dict_union(self, a, b, node, aug):
        """`a | b`: a new dict of a's items updated with b's; `a |= b` updates a in place
        (dict.__ior__) and gives a back. b's keys and values must fit a's types."""
        b = self.coerce(b, a.type, node.span)
        if isinstance(b.type, ErrorType):
            return b
        loc = self.loc(node)
        if aug:
            self.b.kernel("dict.update", [a, b], T.NONE, loc)
            return a
        return self.b.kernel("dict.or", [a, b], a.type, loc)

    def class_binop(self, op, a, b, node, aug):
        """a + b through a user class's __add__ / __iadd__ / b.__radd__ (None: no method)."""
        from ember.frontend.classes import call_dunder, dunder
        name = _NAMES.get(op)
        if name is None:
            return None
        for recv, other, method in ((a, b, f"__i{name}__" if aug else None),
                                    (a, b, f"__{name}__"), (b, a, f"__r{name}__")):
            m = dunder(self, recv.type, method) if method else None
            if m is not None:
                return call_dunder(self, m, recv, [other], node)
        return None

    def unrefined_hint(self, pairs) -> str:
        """'; x is Optional[int]: check ...' for the first operand that may be None."""
        for v, n in pairs:
            t = v.type
            if t == T.NONE and isinstance(n, A.Name) and (var := self.env.get(n.id)) and \
                    var.type == T.NONE and not var.declared:
                return (f"; '{n.id}' was first assigned None, so its type is None: annotate "
                        f"it, e.g. {n.id}: Optional[int] = None")
            if isinstance(t, T.OptionalType) or (isinstance(t, T.UnionType) and
                                                 T.NONE in t.members):
                if n is None:
                    return f"; an operand is {show(t)}: check that it is not None first"
                text = self.expr_text(n)
                hint = f"; '{text}' is {show(t)}: check `{text} is not None` first"
                if isinstance(n, A.Attribute):
                    hint += (" (refinement applies to local variables: copy the attribute to "
                             "a local first, as in TorchScript)")
                return hint
            if isinstance(t, T.UnionType):
                if n is None:
                    return f"; an operand is {show(t)}: narrow it first with isinstance()"
                text = self.expr_text(n)
                return (f"; '{text}' is {show(t)}: narrow it first with "
                        f"`isinstance({text}, ...)`")
        return ""

    def list_binop(self, op, a, b, node):
        loc = self.loc(node)
        ta, tb = a.type, b.type
        if op == "+" and isinstance(ta, T.ListType) and isinstance(tb, T.ListType):
            j = T.join(ta, tb)
            if j is not None:
                return self.b.kernel("list.add", [self.coerce(a, j, node.span),
                                                  self.coerce(b, j, node.span)], j, loc)
        if op == "*":
            lst, n = (a, b) if isinstance(ta, T.ListType) else (b, a)
            if n.type in (T.I64, T.BOOL):
                return self.b.kernel("list.mul", [lst, self.to_int(n, node)], lst.type, loc)
        return None

    def tuple_concat(self, a, b, node):
        loc = self.loc(node)
        items = [self.b.create("tuple.get", [v], [t], {"index": i}, loc=loc).result
                 for v in (a, b) for i, t in enumerate(v.type.elems)]
        return self.b.create("tuple.new", items, [T.TupleType(tuple(x.type for x in items))],
                             loc=loc).result

    def numeric_binop(self, op, a, b, node):
        loc = self.loc(node)
        ta, tb = a.type, b.type
        if op in ("&", "|", "^") and ta == T.BOOL and tb == T.BOOL:
            return self.b.kernel(f"bool.{_NAMES[op]}", [a, b], T.BOOL, loc)
        if op == "@":
            return self.error("'@' needs tensors", node.span)
        if T.C128 in (ta, tb):
            return self.complex_binop(op, a, b, node)
        if op == "/":
            if T.F64 not in (ta, tb):
                return self.b.kernel("int.truediv", [self.to_int(a, node), self.to_int(b, node)],
                                     T.F64, loc)
            return self.b.kernel("float.truediv", [self.to_float(a, node),
                                                   self.to_float(b, node)], T.F64, loc)
        if op == "**" and T.F64 not in (ta, tb) and self.negative_const(node):
            return self.b.kernel("float.pow", [self.to_float(a, node), self.to_float(b, node)],
                                 T.F64, loc)
        if T.F64 in (ta, tb):
            if op in ("<<", ">>", "&", "|", "^"):
                return self.error(f"operator '{op}' needs ints, not float", node.span)
            return self.b.kernel(f"float.{_NAMES[op]}", [self.to_float(a, node),
                                                         self.to_float(b, node)], T.F64, loc)
        return self.b.kernel(f"int.{_NAMES[op]}", [self.to_int(a, node), self.to_int(b, node)],
                             T.I64, loc)

    def complex_binop(self, op, a, b, node):
        """+ - * / ** with a complex operand; the other keeps its own type as a float (an int
        converts to the nearest float, as CPython converts it)."""
        loc = self.loc(node)
        if op not in ("+", "-", "*", "/", "**"):
            return self.error(f"unsupported operand type(s) for {op}: '{show(a.type)}' and "
                              f"'{show(b.type)}' (complex numbers support + - * / ** only)",
                              node.span)
        name = _NAMES[op]
        if a.type == T.C128 and b.type == T.C128:
            return self.b.kernel(f"complex.{name}", [a, b], T.C128, loc)
        if a.type == T.C128:
            return self.b.kernel(f"complex.{name}_float", [a, self.to_float(b, node)], T.C128,
                                 loc)
        return self.b.kernel(f"float.{name}_complex", [self.to_float(a, node), b], T.C128, loc)

    def negative_const(self, node) -> bool:
        r = getattr(node, "right", None)
        if isinstance(r, A.UnaryOp) and r.op == "-" and isinstance(r.operand, A.Constant):
            return isinstance(r.operand.value, int) and r.operand.value > 0
        return isinstance(r, A.Constant) and isinstance(r.value, int) and r.value < 0

    def to_int(self, v, node):
        if v.type == T.BOOL:
            return self.b.kernel("bool.to_int", [v], T.I64, self.loc(node))
        if v.type != T.I64 and not isinstance(v.type, ErrorType):
            return self.error(f"expected an int, got {show(v.type)}", node.span)
        return v

    def to_float(self, v, node):
        if v.type == T.F64 or isinstance(v.type, ErrorType):
            return v
        if v.type == T.I64:
            return self.b.kernel("int.to_float", [v], T.F64, self.loc(node))
        if v.type == T.BOOL:
            return self.b.kernel("bool.to_float", [v], T.F64, self.loc(node))
        return self.error(f"expected a number, got {show(v.type)}", node.span)

    def tensor_binop(self, op, a, b, node, operand_nodes=(None, None), aug=False):
        """a op b with a or b a tensor. `x op= y` on a tensor x updates x in place, as
        Tensor.__iadd__ (torch's add_) does: other names for the tensor see the change and
        the result keeps x's dtype."""
        name = _NAMES.get(op)
        if aug and isinstance(a.type, T.TensorType) and ops.by_python_name(f"Tensor.__i{name}__"):
            return self.call_python_op(f"Tensor.__i{name}__", [a, b], node,
                                       arg_nodes=list(operand_nodes))
        if isinstance(a.type, T.TensorType):
            return self.call_python_op(f"Tensor.__{name}__", [a, b], node,
                                       arg_nodes=list(operand_nodes))
        return self.call_python_op(f"Tensor.__r{name}__", [b, a], node,
                                   arg_nodes=list(operand_nodes)[::-1])

    def e_UnaryOp(self, node, expected):
        if node.op == "not":
            c = self.condition(node.operand)
            if isinstance(c.value.type, ErrorType):
                return c.value
            return self.b.kernel("bool.not", [c.value], T.BOOL, self.loc(node))
        v = self.value(node.operand)
        t = v.type
        loc = self.loc(node)
        if isinstance(t, ErrorType):
            return v
        if isinstance(t, T.TensorType):
            qual = {"-": "Tensor.__neg__", "+": "Tensor.__pos__", "~": "Tensor.__invert__"}
            return self.call_python_op(qual[node.op], [v], node)
        if isinstance(t, T.ClassType):
            from ember.frontend.classes import call_dunder, dunder
            m = dunder(self, t, {"-": "__neg__", "+": "__pos__", "~": "__invert__"}[node.op])
            if m is not None:
                return call_dunder(self, m, v, [], node)
        if t == T.BOOL:
            v, t = self.b.kernel("bool.to_int", [v], T.I64, loc), T.I64
        if t == T.I64:
            name = {"-": "int.neg", "+": "int.pos", "~": "int.invert"}[node.op]
            return self.b.kernel(name, [v], T.I64, loc)
        if t in (T.F64, T.C128) and node.op != "~":
            kind = "float" if t == T.F64 else "complex"
            return self.b.kernel(f"{kind}.neg" if node.op == "-" else f"{kind}.pos", [v], t,
                                 loc)
        return self.error(f"bad operand type for unary {node.op}: {show(t)}"
                          f"{self.unrefined_hint([(v, node.operand)])}", node.span)

    # -- comparisons ------------------------------------------------------------------------------
    def e_Compare(self, node, expected):
        left = self.value(node.left)
        return self.compare_chain(left, node.ops, node.comparators, node, 0)

    def compare_chain(self, left, ops, rights, node, i):
        right = self.value(rights[i])
        lnode = node.left if i == 0 else rights[i - 1]
        r = self.compare(ops[i], left, right, node, rights[i], lnode)
        if i == len(ops) - 1 or isinstance(r.type, ErrorType):
            return r
        loc = self.loc(node)
        then_r, else_r = Region(), Region()
        with self.at(then_r.block):
            rest = self.compare_chain(right, ops, rights, node, i + 1)
            self.b.yield_([rest], loc)
        with self.at(else_r.block):
            self.b.yield_([self.b.const(False, T.BOOL, loc)], loc)
        return self.b.create("if", [r], [T.BOOL], regions=[then_r, else_r], loc=loc).result

    def compare(self, op, a, b, node, rnode, lnode=None):
        ta, tb = a.type, b.type
        loc = self.loc(node)
        if isinstance(ta, ErrorType) or isinstance(tb, ErrorType):
            return a if isinstance(ta, ErrorType) else b
        if op in ("is", "is not") and ta == tb == T.DTYPE:  # torch's dtypes are singletons
            op = "==" if op == "is" else "!="
        if op in ("is", "is not"):
            return self.b.kernel("obj.is" if op == "is" else "obj.isnot", [a, b], T.BOOL, loc)
        if op in ("in", "not in"):
            r = self.contains(b, a, node)
            return r if op == "in" or isinstance(r.type, ErrorType) else \
                self.b.kernel("bool.not", [r], T.BOOL, loc)
        if isinstance(ta, T.TensorType) or isinstance(tb, T.TensorType):
            if isinstance(ta, T.TensorType):
                return self.call_python_op(f"Tensor.__{_CMP_NAMES[op]}__", [a, b], node,
                                           arg_nodes=[lnode, rnode])
            return self.call_python_op(f"Tensor.__{_CMP_NAMES[_SWAP[op]]}__", [b, a], node,
                                       arg_nodes=[rnode, lnode])
        if isinstance(ta, T.ClassType) or isinstance(tb, T.ClassType):
            r = self.class_compare(op, a, b, node)
            if r is not None:
                return r
        if isinstance(ta, T.SetType) or isinstance(tb, T.SetType):
            from ember.frontend import sets
            return sets.compare(self, op, a, b, node)
        return self.scalar_compare(op, a, b, node, (lnode, rnode))

    def class_compare(self, op, a, b, node):
        """a < b through __lt__ (or b.__gt__), a != b through __ne__ or not __eq__."""
        from ember.frontend.classes import call_dunder, dunder
        name, swapped = _CMP_NAMES[op], _CMP_NAMES[_SWAP[op]]
        for recv, other, method in ((a, b, name), (b, a, swapped)):
            m = dunder(self, recv.type, f"__{method}__")
            if m is not None:
                return call_dunder(self, m, recv, [other], node)
        if op == "!=":
            for recv, other in ((a, b), (b, a)):
                m = dunder(self, recv.type, "__eq__")
                if m is not None:
                    r = call_dunder(self, m, recv, [other], node)
                    return self.b.kernel("bool.not", [self.truth(r, node)], T.BOOL,
                                         self.loc(node))
        if op in ("==", "!=") and a.type != b.type:
            from ember.frontend.enums import enum_type
            if enum_type(self, a.type) or enum_type(self, b.type):
                # an Enum member equals itself only (Python's identity __eq__)
                return self.b.const(op == "!=", T.BOOL, self.loc(node))
        ta, tb = self.tuple_of_namedtuple(a, node), self.tuple_of_namedtuple(b, node)
        if (ta is not a or tb is not b) and isinstance(ta.type, T.TupleType) and \
                isinstance(tb.type, T.TupleType):
            return self.scalar_compare(op, ta, tb, node)  # NamedTuples compare as tuples
        return None

    def tuple_of_namedtuple(self, v, node):
        """A NamedTuple value as the plain tuple of its fields (v itself if it is none)."""
        if not (isinstance(v.type, T.ClassType) and self.is_namedtuple(v.type)):
            return v
        decl = self.c.module.classes[v.type.name]
        loc = self.loc(node)
        items = [self.b.create("obj.get", [v], [t], {"field": f}, loc=loc).result
                 for f, t in decl.fields]
        return self.b.create("tuple.new", items, [T.TupleType(tuple(t for _, t in decl.fields))],
                             loc=loc).result

    def scalar_compare(self, op, a, b, node, nodes=(None, None)):
        ta, tb = a.type, b.type
        loc = self.loc(node)
        name = _CMP_NAMES[op]
        ra, rb = numeric_rank(ta), numeric_rank(tb)
        if ra is not None and rb is not None:
            if ta == T.BOOL and tb == T.BOOL and op in ("==", "!="):
                return self.b.kernel(f"bool.{name}", [a, b], T.BOOL, loc)
            if T.C128 in (ta, tb):
                return self.complex_compare(op, a, b, node)
            if T.F64 not in (ta, tb):
                return self.b.kernel(f"int.{name}", [self.to_int(a, node), self.to_int(b, node)],
                                     T.BOOL, loc)
            if ta == T.F64 and tb == T.F64:
                return self.b.kernel(f"float.{name}", [a, b], T.BOOL, loc)
            if ta == T.F64:
                return self.b.kernel(f"float.{name}_int", [a, self.to_int(b, node)], T.BOOL, loc)
            return self.b.kernel(f"int.{name}_float", [self.to_int(a, node), b], T.BOOL, loc)
        if ta == T.STR and tb == T.STR:
            return self.b.kernel(f"str.{name}", [a, b], T.BOOL, loc)
        if op in ("==", "!=") and T.NONE in (ta, tb):
            return self.b.kernel("obj.is" if op == "==" else "obj.isnot", [a, b], T.BOOL, loc)
        j = T.join(ta, tb)
        if j is not None and not (op not in ("==", "!=") and (T.NONE in T.members(j) or
                                                                isinstance(j, T.ClassType))):
            if isinstance(j, T.ClassType):
                return self.b.kernel("obj.is" if op == "==" else "obj.isnot", [a, b], T.BOOL, loc)
            a, b = self.coerce(a, j, node.span), self.coerce(b, j, node.span)
            kind = f"any.{name}_tensors" if _holds_tensors(j) else f"any.{name}"
            return self.b.kernel(kind, [a, b], T.BOOL, loc)
        return self.error(f"cannot compare {show(ta)} and {show(tb)} with '{op}'"
                          f"{self.unrefined_hint([(a, nodes[0]), (b, nodes[1])])}", node.span)

    def complex_compare(self, op, a, b, node):
        """== and != with a complex operand (exact, as in CPython); complex numbers have no
        order, so <, <=, >, >= are a TypeError, found here at compile time."""
        loc = self.loc(node)
        name = _CMP_NAMES[op]
        if op not in ("==", "!="):
            return self.error(f"'{op}' not supported between instances of '{show(a.type)}' and "
                              f"'{show(b.type)}' (complex numbers are not ordered)", node.span)
        if a.type != T.C128:
            a, b = b, a
        if b.type == T.C128:
            return self.b.kernel(f"complex.{name}", [a, b], T.BOOL, loc)
        if b.type == T.F64:
            return self.b.kernel(f"complex.{name}_float", [a, b], T.BOOL, loc)
        return self.b.kernel(f"complex.{name}_int", [a, self.to_int(b, node)], T.BOOL, loc)

    def contains(self, container, x, node):
        t = container.type
        loc = self.loc(node)
        if isinstance(t, T.ClassType):
            from ember.frontend.classes import call_dunder, dunder
            m = dunder(self, t, "__contains__")
            if m is not None:
                return self.truth(call_dunder(self, m, container, [x], node), node)
        if isinstance(t, T.ListType):
            return self.b.kernel("list.contains", [container, self.coerce(x, t.elem, node.span,
                                                                          convert=True)],
                                 T.BOOL, loc)
        if isinstance(t, T.SetType):
            from ember.frontend import sets
            return sets.contains(self, container, x, node)
        if isinstance(t, T.IterType):  # consumes the iterator up to the first equal element
            return self.b.kernel("iter.contains", [container, self.coerce(
                x, t.elem, node.span, convert=True)], T.BOOL, loc)
        if isinstance(t, T.DictType):
            return self.b.kernel("dict.contains", [container, self.coerce(x, t.key, node.span,
                                                                          convert=True)],
                                 T.BOOL, loc)
        if t == T.STR:
            if x.type != T.STR:
                return self.error(f"'in <str>' requires a str on the left, not {show(x.type)}",
                                  node.span)
            return self.b.kernel("str.contains", [container, x], T.BOOL, loc)
        if isinstance(t, T.TupleType):
            return self.b.kernel("any.contains", [container, x], T.BOOL, loc)
        if isinstance(t, T.TensorType):
            if isinstance(x.type, T.TensorType):
                return self.b.kernel("tensor.contains_tensor", [container, x], T.BOOL, loc)
            if x.type in (T.I64, T.F64, T.BOOL):
                return self.b.kernel("tensor.contains", [container, x], T.BOOL, loc)
            return self.error(f"'in <Tensor>' needs a number or a tensor on the left, not "
                              f"{show(x.type)}", node.span)
        return self.error(f"'in' is not supported for {show(t)}", node.span)

    # -- boolean and conditional expressions ------------------------------------------------------
    def e_BoolOp(self, node, expected):
        first, facts = self.boolop_operand(node.op, node.values[0])
        return self.boolop_values(node.op, first, node.values[1:], node, facts)

    def boolop_operand(self, op, n):
        """An operand of `and`/`or` and the refinements it proves for the operands after
        it (`x is not None and x.f`, `isinstance(x, int) and x > 0`, as TorchScript)."""
        if _refines(n):
            cond = self.condition(n)
            return cond.value, (cond.true if op == "and" else cond.false)
        return self.value(n), None

    def boolop_values(self, op, first, rest, node, facts=None):
        if not rest or isinstance(first.type, ErrorType):
            return first
        loc = self.loc(node)
        truth = self.truth(first, node)
        then_r, else_r = Region(), Region()
        # `a and b`: b when a is truthy, else a.  `a or b`: a when a is truthy, else b.
        eval_r, keep_r = (then_r, else_r) if op == "and" else (else_r, then_r)
        before = self.env
        if facts:  # the refined variables are narrowed in the operands after this one
            self.env = before.copy()
        try:
            with self.at(eval_r.block):
                if facts:
                    self.apply_facts(facts)
                nxt, nfacts = self.boolop_operand(op, rest[0])
                second = self.boolop_values(op, nxt, rest[1:], node, nfacts)
        finally:
            self.env = before
        result_t = self.boolop_type(op, first.type, second.type, node)
        with self.at(eval_r.block):
            self.b.yield_([self.coerce(second, result_t, node.span)], loc)
        with self.at(keep_r.block):
            kept = first
            if op == "or" and isinstance(first.type, T.OptionalType) and \
                    not T.is_subtype(first.type, result_t):
                kept = self.b.create("narrow", [first], [first.type.elem], loc=loc).result
            self.b.yield_([self.coerce(kept, result_t, node.span)], loc)
        return self.b.create("if", [truth], [result_t], regions=[then_r, else_r], loc=loc).result

    def boolop_type(self, op, ta, tb, node):
        if ta == tb:
            return ta
        if op == "or" and isinstance(ta, T.OptionalType) and T.is_subtype(tb, ta.elem):
            return ta.elem
        j = T.join(ta, tb)
        if j is None:
            self.error(f"'{op}' operands have different types ({show(ta)} and {show(tb)})"
                       f"{mix_hint(ta, tb)}", node.span)
            return ta
        return j

    def e_IfExp(self, node, expected):
        cond = self.condition(node.test)
        if cond.const is not None:  # decided by types: only that branch is compiled
            return self.value(node.body if cond.const else node.orelse, expected)
        loc = self.loc(node)
        branches = [None, None]
        before = self.env
        arms = [(node.body, cond.true), (node.orelse, cond.false)]
        order = [0, 1]
        if expected is None and _all_empty(node.body) != _all_empty(node.orelse):
            order = [1, 0] if _all_empty(node.body) else [0, 1]  # [] takes the other's type
        want = expected
        second_empty = expected is None and _all_empty(arms[order[1]][0]) and \
            not _all_empty(arms[order[0]][0])
        for idx, k in enumerate(order):
            expr_node, facts = arms[k]
            self.env = before.copy()
            r = Region()
            with self.at(r.block):
                self.apply_facts(facts)
                v = self.value(expr_node, want)
                branches[k] = (r, v)
            if idx == 0 and second_empty and not isinstance(v.type, ErrorType):
                want = v.type
        self.env = before
        (r1, v1), (r2, v2) = branches
        t = T.join(v1.type, v2.type)
        if t is None and isinstance(expected, (T.UnionType, T.OptionalType)) and \
                all(T.is_subtype(v.type, expected) for v in (v1, v2)):
            t = expected  # x: Union[int, str] = 1 if c else "a"
        if t is None:
            if isinstance(v1.type, ErrorType) or isinstance(v2.type, ErrorType):
                return v1 if isinstance(v1.type, ErrorType) else v2
            return self.error(f"the two branches of this conditional expression have types "
                              f"{show(v1.type)} and {show(v2.type)}"
                              f"{mix_hint(v1.type, v2.type)}", node.span)
        for r, v, n in ((r1, v1, node.body), (r2, v2, node.orelse)):
            with self.at(r.block):
                self.b.yield_([self.coerce(v, t, n.span)], loc)
        return self.b.create("if", [cond.value], [t], regions=[r1, r2], loc=loc).result

    # -- subscripts -------------------------------------------------------------------------------
    def e_Subscript(self, node, expected):
        from ember.frontend.builtins_ import is_range_call
        if is_range_call(self, node.value) and not isinstance(node.slice, A.Slice):
            bounds = self.range_args(node.value)  # range(a, b, c)[i] without the list
            if bounds is None:
                return self.error("bad range()", node.value.span)
            i = self.to_int(self.value(node.slice), node.slice)
            return self.b.kernel("builtins.range_getitem", bounds + [i], T.I64, self.loc(node))
        base = self.expr(node.value)
        if isinstance(base, MConst):
            base = self.as_value(base, node.value)  # T[1] of a tuple constant
        if isinstance(base, MClass):
            from ember.frontend.enums import is_enum, lookup_name
            if self.c.declare_class(base.info) is not None and is_enum(base.info):
                return lookup_name(self, base.info, self.value(node.slice), node)
        if isinstance(base, Meta):
            return self.error(f"{base.describe()} cannot be subscripted here", node.span)
        if isinstance(base.type, T.TupleType):
            return self.tuple_subscript(base, node)
        if isinstance(base.type, T.ClassType) and self.is_namedtuple(base.type):
            return self.namedtuple_subscript(base, node)
        from ember.frontend.module_exprs import container_getitem, container_info
        if container_info(self, base.type) is not None:
            return container_getitem(self, base, node.slice, node)
        index = self.index_value(node.slice, base)
        return self.subscript_get(base, index, node)

    def slice_object(self, node):
        """The A.Slice of an index that is a slice object (slice(a, b) or a local bound
        to one), else None (nothing emitted for a local)."""
        from ember.frontend.meta import MBuiltin, MSlice
        if isinstance(node, A.Name) and isinstance(self.local_metas.get(node.id), MSlice):
            return self.local_metas[node.id].node
        if isinstance(node, A.Call) and isinstance(node.func, A.Name) and \
                node.func.id == "slice" and isinstance(self.global_meta("slice"), MBuiltin):
            m = self.expr(node)
            return m.node if isinstance(m, MSlice) else A.Slice(node.span, None, None, None)
        return None

    def index_value(self, sl, base):
        sl = self.slice_object(sl) or sl
        if isinstance(base.type, T.TensorType):  # x[a:b] too: a tensor index spec
            return ("tensor", sl)
        if isinstance(sl, A.Slice):
            return ("slice", [self.optional_int(x) for x in (sl.lower, sl.upper, sl.step)])
        return self.value(sl)

    def optional_int(self, node):
        loc = self.loc(node) if node is not None else self.b.loc
        opt = T.OptionalType(T.I64)
        if node is None:
            return self.coerce(self.b.const(None, T.NONE, loc), opt, None)
        v = self.value(node)
        if v.type == T.BOOL:
            v = self.to_int(v, node)
        return self.coerce(v, opt, node.span, what="a slice index", convert=True)

    def subscript_get(self, obj, index, node):
        t = obj.type
        loc = self.loc(node)
        if isinstance(t, ErrorType) or (isinstance(index, Value) and
                                        isinstance(index.type, ErrorType)):
            return obj if isinstance(t, ErrorType) else index
        if isinstance(index, tuple) and index[0] == "tensor":
            from ember.frontend.tensors import tensor_getitem
            return tensor_getitem(self, obj, index[1], node)
        if isinstance(t, T.ClassType) and not isinstance(index, tuple) and \
                self.class_defines(t, "__getitem__"):
            from ember.frontend.classes import call_dunder, dunder
            return call_dunder(self, dunder(self, t, "__getitem__"), obj, [index], node)
        if isinstance(index, tuple):
            kind = {T.STR: "str"}.get(t, "list" if isinstance(t, T.ListType) else None)
            if kind is None:
                return self.error(f"{show(t)} cannot be sliced", node.span)
            return self.b.kernel(f"{kind}.slice", [obj] + index[1], t, loc)
        if isinstance(t, T.ListType):
            return self.b.kernel("list.getitem", [obj, self.index_int(index, node)], t.elem, loc)
        if t == T.STR:
            return self.b.kernel("str.getitem", [obj, self.index_int(index, node)], T.STR, loc)
        if isinstance(t, T.DictType):
            return self.b.kernel("dict.getitem", [obj, self.coerce(index, t.key, node.span,
                                                                    "the key", True)],
                                 t.value, loc)
        if isinstance(t, (T.OptionalType, T.UnionType)):
            return self.error(f"cannot index {show(t)}"
                              f"{self.unrefined_hint([(obj, node.value)])}", node.value.span)
        return self.error(f"{show(t)} is not subscriptable", node.span)

    def index_int(self, index, node):
        if index.type in (T.I64, T.BOOL):
            return self.to_int(index, node)
        return self.error(f"indices must be integers, not {show(index.type)}", node.span)

    def tuple_subscript(self, base, node):
        elems = base.type.elems
        loc = self.loc(node)
        sl = node.slice
        if isinstance(sl, A.Slice):
            bounds = [self.static_int(x) for x in (sl.lower, sl.upper, sl.step)]
            if any(b is False for b in bounds):
                return self.error("tuple slices need constant bounds", sl.span)
            idx = list(range(len(elems)))[slice(*bounds)]
            items = [self.b.create("tuple.get", [base], [elems[i]], {"index": i}, loc=loc).result
                     for i in idx]
            return self.b.create("tuple.new", items, [T.TupleType(tuple(elems[i] for i in idx))],
                                 loc=loc).result
        i = self.static_int(sl)
        va = getattr(self.info, "vararg", None)
        if va is not None and any(base is a for a in self.info.func.args) and \
                (i is False or i is None or not -len(elems) <= i < len(elems)):
            # *args: its length is this instance's, but an index out of range is Python's
            # IndexError when it runs (the code may be guarded by len(args)).
            v = self.value(sl) if i is False or i is None else self.b.const(i, T.I64, loc)
            return self.b.kernel("tuple.getitem", [base, self.index_int(v, sl)], va[1], loc)
        if i is False or i is None:
            if elems and all(e == elems[0] for e in elems):
                v = self.value(sl)
                return self.b.kernel("tuple.getitem", [base, self.index_int(v, sl)], elems[0], loc)
            return self.error("a tuple with elements of different types needs a constant index",
                              sl.span)
        if not -len(elems) <= i < len(elems):
            return self.error(f"tuple index {i} out of range (the tuple has {len(elems)} "
                              "elements)", sl.span)
        i %= len(elems)
        return self.b.create("tuple.get", [base], [elems[i]], {"index": i}, loc=loc).result

    def namedtuple_subscript(self, base, node):
        decl = self.c.module.classes[base.type.name]
        n = len(decl.fields)
        loc = self.loc(node)
        if isinstance(node.slice, A.Slice):  # a plain tuple of the fields sliced
            bounds = [self.static_int(x) for x in (node.slice.lower, node.slice.upper,
                                                    node.slice.step)]
            if any(b is False for b in bounds):
                return self.error("tuple slices need constant bounds", node.slice.span)
            picked = [decl.fields[i] for i in list(range(n))[slice(*bounds)]]
            items = [self.b.create("obj.get", [base], [t], {"field": f}, loc=loc).result
                     for f, t in picked]
            return self.b.create("tuple.new", items, [T.TupleType(tuple(t for _, t in picked))],
                                 loc=loc).result
        i = self.static_int(node.slice)
        if i is False or i is None or not -n <= i < n:
            return self.error(f"a {decl.name} index must be a constant in range(-{n}, {n})",
                              node.slice.span)
        name, t = decl.fields[i % n]
        return self.b.create("obj.get", [base], [t], {"field": name}, loc=self.loc(node)).result

    def static_int(self, node):
        """The value of a constant int expression (None for a missing bound, False if it is not
        constant)."""
        if node is None:
            return None
        if isinstance(node, A.Constant) and type(node.value) is int:
            return node.value
        if isinstance(node, A.UnaryOp) and node.op == "-" and \
                isinstance(node.operand, A.Constant) and type(node.operand.value) is int:
            return -node.operand.value
        if isinstance(node, A.Name):
            m = self.global_meta(node.id)
            if isinstance(m, MConst) and type(m.value) is int:
                return m.value
        return False

    def subscript_set(self, obj, index, value, node) -> None:
        t = obj.type
        loc = self.loc(node)
        if isinstance(t, ErrorType) or isinstance(value.type, ErrorType):
            return
        if isinstance(index, tuple) and index[0] == "tensor":
            from ember.frontend.tensors import tensor_setitem
            tensor_setitem(self, obj, index[1], value, node)
            return
        if isinstance(t, T.ClassType) and not isinstance(index, tuple) and \
                self.class_defines(t, "__setitem__"):
            from ember.frontend.classes import call_dunder, dunder
            call_dunder(self, dunder(self, t, "__setitem__"), obj, [index, value], node)
            return
        if isinstance(index, tuple) and index[0] == "slice" and not isinstance(t, T.ListType):
            self.error(f"{show(t)} does not support slice assignment", node.span)
            return
        if isinstance(t, T.ListType) and isinstance(index, tuple) and index[0] == "slice":
            if not isinstance(value.type, T.ListType):
                self.error(f"can only assign a list to a slice of {show(t)}, not "
                           f"{show(value.type)}", node.span)
                return
            items = self.coerce(value, t, node.span, "the assigned list")
            self.b.kernel("list.setslice", [obj] + list(index[1]) + [items], T.NONE, loc)
        elif isinstance(t, T.ListType) and not isinstance(index, tuple):
            self.b.kernel("list.setitem", [obj, self.index_int(index, node),
                                           self.coerce(value, t.elem, node.span, "list element")],
                          T.NONE, loc)
        elif isinstance(t, T.DictType):
            self.b.kernel("dict.setitem", [obj, self.coerce(index, t.key, node.span, "the key"),
                                           self.coerce(value, t.value, node.span, "dict value")],
                          T.NONE, loc)
        else:
            self.error(f"{show(t)} does not support item assignment", node.span)

    # -- literals ---------------------------------------------------------------------------------
    def e_Tuple(self, node, expected):
        if any(isinstance(e, A.Starred) for e in node.elts):  # (*t, x)
            from ember.frontend.displays import tuple_items
            items = tuple_items(self, node)
            if items is None:
                from ember.frontend.function import Poison
                return Poison()
            if isinstance(items, Value):  # (*xs, y) of a list: a tuple of run-time length
                return items
            return self.b.create("tuple.new", items,
                                 [T.TupleType(tuple(v.type for v in items))],
                                 loc=self.loc(node)).result
        exp = expected.elems if isinstance(expected, T.TupleType) and \
            len(expected.elems) == len(node.elts) else [None] * len(node.elts)
        items = [self.value(e, x) for e, x in zip(node.elts, exp)]
        return self.b.create("tuple.new", items, [T.TupleType(tuple(v.type for v in items))],
                             loc=self.loc(node)).result

    def e_List(self, node, expected):
        if isinstance(expected, T.OptionalType):  # [] given for an Optional[List[T]]
            expected = expected.elem
        if any(isinstance(e, A.Starred) for e in node.elts):  # [*xs, y]
            from ember.frontend.displays import list_display
            return list_display(self, node, expected)
        want = expected.elem if isinstance(expected, T.ListType) else None
        if want is None and expected is None and not node.elts:  # xs = [] ... xs.append(1)
            from ember.frontend.sets import infer_empty_container, probe_appended_type
            inferred = infer_empty_container(self, node) or probe_appended_type(self, node)
            want = inferred.elem if inferred is not None else None
        if want is None and any(_empty_display(e) for e in node.elts) and \
                not all(_empty_display(e) for e in node.elts):
            # [[1.5], []]: an empty list or dict takes its siblings' type (it has no
            # side effects, so evaluating it after them changes nothing)
            values = {i: self.value(e) for i, e in enumerate(node.elts) if not _empty_display(e)}
            sibling = self.join_elements(list(values.values()), node, T.TENSOR)
            items = [values[i] if i in values else self.value(e, sibling)
                     for i, e in enumerate(node.elts)]
        else:
            items = [self.value(e, want) for e in node.elts]
        elem = want or self.join_elements(items, node, T.TENSOR)
        items = [self.coerce(v, elem, e.span, "list element") for v, e in zip(items, node.elts)]
        return self.b.create("list.new", items, [T.ListType(elem)], loc=self.loc(node)).result

    def join_elements(self, items, node, empty):
        typed = [v for v in items if not isinstance(v.type, ErrorType)]
        if not typed:
            return empty if not items else items[0].type
        t = typed[0].type
        if getattr(self, "union_literals", 0):  # a display under an Any annotation
            from ember.frontend.any_locals import union_of
            joined = _join_all([v.type for v in typed])
            u = union_of([v.type for v in typed]) if joined is None else joined
            if u is not None:
                return u
        for v in typed[1:]:
            j = T.join(t, v.type)
            if j is None:
                from ember.frontend.inherit import common_base_type
                j = common_base_type(self, t, v.type)
            if j is None:
                self.error(f"container elements have different types ({show(t)} and "
                           f"{show(v.type)}){mix_hint(t, v.type) or '; annotate the variable'}",
                           node.span)
                return t
            t = j
        return t

    def e_Dict(self, node, expected):
        if isinstance(expected, T.OptionalType):  # {} given for an Optional[Dict[K, V]]
            expected = expected.elem
        if any(k is None for k in node.keys):  # {**d, "k": v}
            from ember.frontend.displays import dict_display
            return dict_display(self, node, expected)
        kt = expected.key if isinstance(expected, T.DictType) else None
        vt = expected.value if isinstance(expected, T.DictType) else None
        if expected is None and not node.keys:  # d = {} ... d[k] = v
            from ember.frontend.sets import infer_empty_container, probe_stored_type
            inferred = infer_empty_container(self, node) or probe_stored_type(self, node)
            if inferred is not None:
                kt, vt = inferred.key, inferred.value
        keys = [self.value(k, kt) for k in node.keys]
        if vt is None and any(_empty_display(v) for v in node.values) and \
                not all(_empty_display(v) for v in node.values):
            # {"a": [], "b": [1]}: an empty value takes its siblings' type
            known = {i: self.value(v) for i, v in enumerate(node.values)
                     if not _empty_display(v)}
            sibling = self.join_elements(list(known.values()), node, T.TENSOR)
            values = [known[i] if i in known else self.value(v, sibling)
                      for i, v in enumerate(node.values)]
        else:
            values = [self.value(v, vt) for v in node.values]
        kt = kt or self.join_elements(keys, node, T.STR)
        vt = vt or self.join_elements(values, node, T.TENSOR)
        if isinstance(kt, T.TensorType):
            from ember.frontend.annotations import TENSOR_KEYS
            return self.unsupported(TENSOR_KEYS, node.span)
        ops = []
        for k, v, kn, vn in zip(keys, values, node.keys, node.values):
            ops += [self.coerce(k, kt, kn.span, "dict key"), self.coerce(v, vt, vn.span,
                                                                          "dict value")]
        return self.b.create("dict.new", ops, [T.DictType(kt, vt)], loc=self.loc(node)).result

    def e_Set(self, node, expected):
        from ember.frontend.sets import e_Set
        return e_Set(self, node, expected)

    def e_SetComp(self, node, expected):
        from ember.frontend.sets import e_SetComp
        return e_SetComp(self, node, expected)

    def e_Starred(self, node, expected):
        return self.unsupported("starred expressions (*x) are not supported", node.span)

    def e_NamedExpr(self, node, expected):
        v = self.value(node.value, expected)
        self.write_var(node.target.id, v, node.target.span)
        return v

    def e_Yield(self, node, expected):
        from ember.frontend.generators import yield_refused
        return yield_refused(self, node)

    def e_Await(self, node, expected):
        return self.unsupported("'await' (async code) is not supported", node.span)

    def e_Lambda(self, node, expected):
        from ember.frontend.generators import lambda_yield
        y = lambda_yield(node)
        if y is not None:
            return self.unsupported("'yield' in a lambda is not supported (a generator "
                                    "lambda); write a generator def", y.span)
        from ember.frontend.closures import make_lambda
        return make_lambda(self, node, expected)

    # -- strings ----------------------------------------------------------------------------------
    def e_JoinedStr(self, node, expected):
        loc = self.loc(node)
        parts = []
        for piece in node.values:
            if isinstance(piece, A.Constant):
                parts.append(self.b.const(piece.value, T.STR, loc))
            else:
                parts.append(self.formatted(piece))
        return self.concat(parts, loc)

    def formatted(self, fv):
        loc = self.loc(fv)
        v = self.value(fv.value)
        if fv.conversion == "a":
            return self.unsupported("the !a conversion is not supported", fv.span)
        if fv.conversion in ("r", "s"):
            v = self.str_of(v, fv, "repr" if fv.conversion == "r" else "str")
        spec = self.e_JoinedStr(fv.format_spec, None) if fv.format_spec is not None and \
            fv.format_spec.values else self.b.const("", T.STR, loc)
        return self.format_of(v, spec, fv)

    def str_of(self, v, node, kind="str"):
        """str(v) / repr(v): a user class's __str__ / __repr__ when it has one."""
        if v.type == T.STR and kind == "str":
            return v
        if isinstance(v.type, T.ClassType):
            from ember.frontend.classes import call_dunder, dunder
            for name in ((f"__{kind}__", "__repr__") if kind == "str" else ("__repr__",)):
                m = dunder(self, v.type, name)
                if m is not None:
                    return call_dunder(self, m, v, [], node)
        if v.type == T.DTYPE:  # str(torch.float32) is "torch.float32"
            return self.b.kernel("dtype.str", [v], T.STR, self.loc(node))
        return self.b.kernel(f"builtins.{kind}", [v], T.STR, self.loc(node))

    def format_of(self, v, spec, node):
        """format(v, spec); a user object formats as str(obj) (Python's object.__format__),
        which accepts only an empty spec."""
        from ember.frontend.enums import enum_type
        if enum_type(self, v.type) and not self.class_defines(v.type, "__format__"):
            # Enum.__format__: its str, formatted with the spec (f"{Color.RED:>10}")
            return self.b.kernel("builtins.format", [self.str_of(v, node), spec], T.STR,
                                 self.loc(node))
        if v.type == T.DTYPE:  # torch.dtype.__format__ is object's: its str
            v = self.str_of(v, node)
        if isinstance(v.type, T.ClassType) and self.class_has_str(v.type):
            const = spec.op.attrs.get("value") if getattr(spec, "op", None) is not None and \
                spec.op.name == "const" else None
            if const != "":
                return self.error(f"unsupported format string passed to "
                                  f"{v.type.name}.__format__", node.span)
            return self.str_of(v, node)
        return self.b.kernel("builtins.format", [v, spec], T.STR, self.loc(node))

    def class_defines(self, t, name) -> bool:
        from ember.frontend.classes import dunder
        return dunder(self, t, name) is not None

    def class_has_str(self, t) -> bool:
        from ember.frontend.classes import dunder
        return dunder(self, t, "__str__") is not None or dunder(self, t, "__repr__") is not None

    def concat(self, parts, loc):
        if not parts:
            return self.b.const("", T.STR, loc)
        out = parts[0]
        for p in parts[1:]:
            out = self.b.kernel("str.add", [out, p], T.STR, loc)
        return out


def _refines(n) -> bool:
    """A condition whose truth refines a variable: `x is [not] None`, isinstance(x, T)."""
    if isinstance(n, A.Compare) and len(n.ops) == 1 and n.ops[0] in ("is", "is not"):
        return True
    if isinstance(n, A.UnaryOp) and n.op == "not":
        return _refines(n.operand)
    return isinstance(n, A.Call) and isinstance(n.func, A.Name) and \
        n.func.id == "isinstance" and len(n.args) == 2


def _join_all(types):
    """The join of all the types, or None when two have none."""
    t = types[0]
    for u in types[1:]:
        t = T.join(t, u)
        if t is None:
            return None
    return t


def _holds_tensors(t) -> bool:
    """Whether values of t may hold tensors (compared by their truth, as torch does)."""
    if isinstance(t, T.TensorType):
        return True
    if isinstance(t, (T.ListType, T.OptionalType)):
        return _holds_tensors(t.elem)
    if isinstance(t, T.TupleType):
        return any(_holds_tensors(e) for e in t.elems)
    if isinstance(t, T.DictType):
        return _holds_tensors(t.value)
    if isinstance(t, T.UnionType):
        return any(_holds_tensors(m) for m in T.members(t))
    return False


def _all_empty(e) -> bool:
    """An empty display, or a list display of such ([[], []]): typed by the context."""
    return _empty_display(e) or isinstance(e, A.List) and bool(e.elts) and \
        all(_all_empty(x) for x in e.elts)


def _empty_display(e) -> bool:
    """An empty list or dict display ([] or {}): typed by the context."""
    return isinstance(e, A.List) and not e.elts or isinstance(e, A.Dict) and not e.keys
