"""Calls: user functions, methods, builtins, and operators found by Python name in ember.ops.

Operator calls resolve like TorchScript's: the overloads registered for a
Python qualname ("math.sqrt", "list.append", "Tensor.__add__") are tried in
order; the first whose schema matches the argument types wins. Arguments are
converted (bool -> int -> float, T -> Optional[T]) and defaults filled in, so
every kernel op gets its full arity.
"""

from __future__ import annotations

from ember import ops
from ember.errors import NameResolutionError, ShapeError
from ember.frontend import ast as A
from ember.frontend.meta import (
    MBoundMethod,
    MBuiltin,
    MClass,
    MConst,
    MDtype,
    MHook,
    Meta,
    MException,
    MFunction,
    MLambda,
    MModule,
    MNested,
    MOpFunc,
    MTypeName,
)
from ember.frontend.typing_ import (
    ANY,
    ERROR,
    ErrorType,
    Matcher,
    contains_any,
    numeric_rank,
    show,
)
from ember.frontend.tensors import _const_value
from ember.frontend.polymorph import is_class_union
from ember.ir import Region, Value
from ember.ir import types as T

_TYPE_PREFIX = {T.I64: "int", T.F64: "float", T.C128: "complex", T.BOOL: "bool", T.STR: "str"}


def _plain(func) -> bool:
    """A callee with no side effects to order: a name or a dotted name."""
    while isinstance(func, A.Attribute):
        func = func.value
    return isinstance(func, (A.Name, A.Constant))


def _held(em, callee) -> str:
    """A hidden name holding the evaluated callee (a value or a meta) for the rewritten
    call."""
    from ember.frontend.builtins_ import hidden_name
    from ember.frontend.env import Var
    name = hidden_name("callee")
    if isinstance(callee, Value):
        em.env.set(name, Var(callee.type, callee, True))
    else:
        em.local_metas[name] = callee
    return name


class CallMixin:
    def e_Call(self, node, expected):
        from ember.frontend.inherit import is_super_call
        if is_super_call(node):
            from ember.frontend.inherit import super_call
            return super_call(self, node)
        if any(isinstance(a, A.Starred) for a in node.args) or \
                any(k.arg is None for k in node.keywords):
            from ember.frontend.meta import MFunction
            if not (isinstance(node.func, A.Name) and
                    (isinstance(self.global_meta(node.func.id), MFunction) or
                     self.is_builtin_print(node))):
                return self.spread_into_any(node, expected)
        if _getattr_name(self, node.func) is not None:  # getattr(x, "m")(...) is x.m(...)
            f = node.func
            node = A.Call(node.span, A.Attribute(f.span, f.args[0], f.args[1].value),
                          node.args, node.keywords)
        callee = self.expr(node.func)
        if isinstance(callee, Value):
            if isinstance(callee.type, ErrorType):
                return callee
            if isinstance(callee.type, T.FunctionType):
                from ember.frontend.closures import call_function_value
                return call_function_value(self, callee, node)
            if isinstance(callee.type, T.ClassType):
                from ember.frontend.module_exprs import call_object
                return call_object(self, callee, node)
            return self.error(f"'{self.expr_text(node.func)}' is a {show(callee.type)}, which "
                              "is not callable", node.func.span)
        return self.call_meta(callee, node, expected)

    def is_builtin_print(self, node) -> bool:
        """print(*xs): the one builtin taking unpacked arguments (no ** among them)."""
        from ember.frontend.meta import MBuiltin
        meta = self.global_meta(node.func.id)
        return isinstance(meta, MBuiltin) and meta.name == "print" and \
            all(k.arg is not None for k in node.keywords)

    def call_meta(self, callee, node, expected):
        if isinstance(callee, MFunction):
            from ember.frontend.userfuncs import call_user_function
            return call_user_function(self, callee.info, node, [])
        if isinstance(callee, MBuiltin):
            from ember.frontend.builtins_ import call_builtin
            return call_builtin(self, callee.name, node, expected)
        if isinstance(callee, MOpFunc) and callee.qualname == "torch.jit.annotate":
            return self.annotate(node)
        if isinstance(callee, MOpFunc) and callee.qualname == "torch.jit.isinstance":
            from ember.frontend.builtins_ import b_isinstance
            return b_isinstance(self, node, expected)
        if isinstance(callee, MOpFunc) and callee.qualname == "torch.jit._unwrap_optional":
            return self.unwrap_optional(node)
        if isinstance(callee, MOpFunc) and callee.qualname in _FORK:
            return self.fork(node, expected)
        if isinstance(callee, MOpFunc) and callee.qualname in _WAIT:
            if len(node.args) != 1 or node.keywords:
                return self.error(f"{callee.qualname} takes one future", node.span)
            return self.value(node.args[0], expected)
        if isinstance(callee, MHook):
            return callee.call(self, node, expected)
        if isinstance(callee, MOpFunc):
            return self.call_python_op(callee.qualname, self.call_args(node), node,
                                       self.call_kwargs(node))
        if isinstance(callee, MBoundMethod):
            return self.call_method(callee, node, expected)
        if isinstance(callee, MClass):
            from ember.frontend.classes import construct
            return construct(self, callee.info, node)
        if isinstance(callee, MException):  # an exception value, raised or not
            return self.exception_from_call(node, callee)
        if isinstance(callee, MLambda):
            from ember.frontend.closures import call_lambda
            return call_lambda(self, callee, node)
        if isinstance(callee, MNested):
            from ember.frontend.closures import call_nested
            return call_nested(self, callee, node)
        if isinstance(callee, ErrorType) or isinstance(callee, Value):
            return callee
        if isinstance(callee, MTypeName):
            return self.error(f"{callee.describe()} cannot be called", node.span)
        return self.error(f"{callee.describe()} is not callable", node.func.span)

    def annotate(self, node):
        """torch.jit.annotate(T, value): value, typed T (as `x: T = value` types it)."""
        if len(node.args) != 2 or node.keywords:
            return self.error("torch.jit.annotate takes a type and a value: "
                              "torch.jit.annotate(List[int], [])", node.span)
        t = self.ann.resolve(node.args[0])
        if isinstance(t, ErrorType):
            from ember.frontend.function import Poison
            return Poison()
        return self.coerce(self.value(node.args[1], expected=t), t, node.args[1].span)

    def fork(self, node, expected):
        """torch.jit.fork(f, *args): f(*args), run at once (ember has no threads: the
        future is its value, and torch.jit.wait(fut) that value; the result is the same as
        torch's, which may run the task at once too)."""
        if not node.args:
            return self.error("torch.jit.fork takes the function to run first", node.span)
        call = A.Call(node.span, node.args[0], list(node.args[1:]), list(node.keywords))
        return self.value(call, expected)

    def unwrap_optional(self, node):
        """torch.jit._unwrap_optional(x): x, narrowed to its non-None type; None raises
        AssertionError("Unwrapping null optional"), as torch's function does."""
        if len(node.args) != 1 or node.keywords:
            return self.error("torch.jit._unwrap_optional takes one argument", node.span)
        v = self.value(node.args[0])
        if not isinstance(v.type, T.OptionalType):
            return v
        loc = self.loc(node)
        test = self.b.kernel("obj.isnot", [v, self.b.const(None, T.NONE, loc)], T.BOOL, loc)
        then_r, else_r = Region(), Region()
        self.b.create("if", [test], [], regions=[then_r, else_r], loc=loc)
        with self.at(then_r.block):
            self.b.yield_([], loc)
        with self.at(else_r.block):
            was = self.terminated
            self.raise_new("AssertionError",
                           self.b.const("Unwrapping null optional", T.STR, loc), node)
            self.terminated = was
        return self.b.create("narrow", [v], [v.type.elem], loc=loc).result

    def spread_into_any(self, node, expected):
        """`obj.m(*t, **{...})`, `max(*(a, b))`, `fn_value(*[x, y])`: a tuple or display
        spread is known item by item at compile time, so the call becomes one with the
        items as arguments (each argument evaluated once, in order). `max(*xs)` and
        `min(*xs)` of a list are `max(xs)` once the list has two items or more (CPython's
        TypeError otherwise). Other spreads of a list or dict variable are refused."""
        from ember.frontend.kwargs import expand_call
        func, held = node.func, None
        if isinstance(func, A.Attribute):
            callee = self.expr(func)
            if isinstance(callee, MBoundMethod) and \
                    isinstance(callee.receiver.type, T.ClassType):
                from ember.frontend.classes import call_class_method  # a method: as a function
                return call_class_method(self, callee.receiver, callee.name, node)
            if not _plain(func):  # evaluated first, as CPython does
                held = _held(self, callee)
                func = A.Name(func.span, held)
        elif not _plain(func):
            held = _held(self, self.expr(func))
            func = A.Name(func.span, held)
        call, hidden, spread = expand_call(self, node)
        try:
            if call is None:
                from ember.frontend.function import Poison
                return Poison()
            if spread is not None:
                if _format_of_dict(node, call, spread):  # s.format(**d): s.format_map(d)
                    return self.e_Call(A.Call(node.span, A.Attribute(
                        func.span, func.value, "format_map"), [spread[1]], []), expected)
                return self.spread_max_min(call, spread, node, expected)
            return self.e_Call(A.Call(call.span, func, call.args, call.keywords), expected)
        finally:
            for name in hidden:
                self.env.pop(name)
            if held is not None:
                self.local_metas.pop(held, None)
                if self.env.get(held) is not None:
                    self.env.pop(held)

    def spread_max_min(self, call, spread, node, expected):
        from ember.frontend.meta import MBuiltin
        f = node.func
        if not (isinstance(f, A.Name) and f.id in ("max", "min") and
                isinstance(self.global_meta(f.id), MBuiltin) and spread[1] is None and
                not call.args and not call.keywords):
            return self.unsupported("f(*xs) of a list or f(**d) of a dict variable is "
                                    "supported in calls of the program's own functions (and "
                                    "max/min/print) only: a method, a builtin or a function "
                                    "value needs its arguments' number at compile time",
                                    node.span)
        xs = spread[0]
        sp = node.span
        elem = self.read_var(xs.id, sp).type.elem
        kind = {T.I64: "int", T.F64: "float", T.BOOL: "bool"}.get(elem)
        if kind is None:  # max(*[s]) of one str (or list) item is the max of its items
            return self.unsupported(f"{f.id}(*xs) of a list of {show(elem)} is not supported "
                                    f"(use {f.id}(xs))", node.span)
        n = A.Call(sp, A.Name(sp, "len"), [xs], [])
        few = A.Compare(sp, n, ["<"], [A.Constant(sp, 2)], [sp])
        message = A.IfExp(sp, A.Compare(sp, A.Call(sp, A.Name(sp, "len"), [xs], []), ["=="],
                                        [A.Constant(sp, 0)], [sp]),
                          A.Constant(sp, f"{f.id} expected at least 1 argument, got 0"),
                          A.Constant(sp, f"'{kind}' object is not iterable"))
        from ember.frontend.spread import _raise_if
        _raise_if(self, few, message, sp)
        return self.e_Call(A.Call(sp, f, [xs], []), expected)

    def call_args(self, node):
        return [self.value(a) for a in node.args]

    def call_kwargs(self, node):
        return {k.arg: (self.value(k.value), k) for k in node.keywords}

    def isinstance_types(self, node, subject):
        from ember.frontend.builtins_ import isinstance_types
        return isinstance_types(self, node, subject)

    # -- methods ----------------------------------------------------------------------------------
    def dunder_call(self, recv, name, node, expected):
        """`x.__add__(y)`, `xs.__len__()`, `t.__getitem__(i)`, ... on a builtin value: the
        operator, builtin or subscript the special method implements."""
        from ember.frontend.builtins_ import hidden_name
        from ember.frontend.env import Var

        kind, what, nargs = _DUNDERS[name]
        if node.keywords or len(node.args) != nargs:
            return self.error(f"{name}() takes {nargs} argument(s) "
                              f"({len(node.args) + len(node.keywords)} given)", node.span)
        sp = node.span
        tmp = hidden_name("recv")
        self.env.set(tmp, Var(recv.type, recv, True))
        me = A.Name(sp, tmp)
        args = list(node.args)
        if kind == "binop":
            expr = A.BinOp(sp, me, what, args[0])
        elif kind == "rbinop":
            expr = A.BinOp(sp, args[0], what, me)
        elif kind == "unary":
            expr = A.UnaryOp(sp, what, me)
        elif kind == "compare":
            expr = A.Compare(sp, me, [what], [args[0]], [sp])
        elif kind == "contains":
            expr = A.Compare(sp, args[0], ["in"], [me], [sp])
        elif kind == "getitem":
            expr = A.Subscript(sp, me, args[0])
        else:  # a builtin of the receiver
            expr = A.Call(sp, A.Name(sp, what), [me], [])
        return self.expr(expr, expected)

    def call_method(self, m: MBoundMethod, node, expected):
        recv = m.receiver
        t = recv.type
        probe = getattr(self, "append_probe", None)
        if probe is not None and m.name in ("append", "insert", "extend") and node.args and \
                isinstance(node.func, A.Attribute) and isinstance(node.func.value, A.Name) \
                and node.func.value.id == probe[0] and not probe[1]:
            given = self.value(node.args[-1]).type  # probe_appended_type
            if m.name != "extend":
                probe[1].append(given)
            elif isinstance(given, T.ListType):
                probe[1].append(given.elem)
        if isinstance(t, T.ClassType):
            from ember.frontend.classes import call_class_method
            return call_class_method(self, recv, m.name, node)
        if is_class_union(t):
            from ember.frontend.polymorph import union_call
            return union_call(self, recv, m.name, node, expected)
        prefix = self.type_prefix(t)
        if prefix is None or isinstance(t, T.VarTupleType) and m.name not in ("index", "count"):
            return self.error(f"{show(t)} has no method '{m.name}'", m.span)
        if prefix == "str" and m.name == "format":
            from ember.frontend.builtins_ import str_format
            return str_format(self, recv, node)
        if prefix == "list" and m.name == "sort":
            return self.list_sort(recv, node)
        if prefix == "str" and m.name == "join" and len(node.args) == 1 and \
                not node.keywords and not isinstance(node.args[0], (A.List, A.Tuple)):
            # sep.join(any iterable of str): reversed(xs), map(...), a dict's keys, a set
            from ember.frontend.builtins_ import materialize
            items = materialize(self, node.args[0])
            return self.call_python_op("str.join", [recv, items], node, {}, receiver=True)
        if isinstance(t, T.TensorType) and m.name == "tolist" and not node.args and \
                not node.keywords:
            return self.tensor_tolist(recv, node, expected)
        if isinstance(t, T.TensorType) and m.name == "item" and \
                (t.dtype is not None or expected == T.C128) and not node.args and \
                not node.keywords:
            return self.tensor_item(recv, node, expected)
        qual = f"{prefix}.{m.name}"
        if not ops.by_python_name(qual) and m.name in _DUNDERS and \
                prefix in _DUNDER_OWNERS.get(m.name, _ALL_OWNERS):
            return self.dunder_call(recv, m.name, node, expected)
        if not ops.by_python_name(qual):
            return self.error(f"{show(t)} has no method '{m.name}'", m.span, NameResolutionError)
        want = _element_arguments(t, m.name)
        args = [self.value(a, want[i] if i < len(want) else None)
                for i, a in enumerate(node.args)]
        return self.call_python_op(qual, [recv] + args, node, self.call_kwargs(node),
                                   receiver=True)

    def tensor_item(self, recv, node, expected):
        """x.item() of a tensor whose dtype is known: a number of the dtype's kind, as
        TorchScript's Scalar holds it at run time (an int tensor's element is an int);
        a float where the context wants a float."""
        dt = recv.type.dtype or "complex128"  # unknown: the context wants a complex
        kind = "bool" if dt == "bool" else dt[0]
        if expected == T.F64 and kind != "c":
            kind = "f"
        name, ret = {"bool": ("tensor.bool_value", T.BOOL), "c": ("tensor.complex_value", T.C128),
                     "f": ("tensor.item_float", T.F64)}.get(kind, ("tensor.int_value", T.I64))
        return self.b.kernel(name, [recv], ret, self.loc(node))

    def tensor_tolist(self, recv, node, expected):
        """x.tolist(), typed as TorchScript types it: by the type the context expects
        (List[int] for `-> List[int]`), else by the tensor's dtype and rank when known,
        else List[float]. The run-time check is the kernel's."""
        elem, ndim = _tolist_shape(expected)
        t = recv.type
        if elem is None and t.dtype is not None:
            elem = {"bool": "bool", "f": "float", "c": "complex"}.get(
                t.dtype if t.dtype == "bool" else t.dtype[0], "int")
            ndim = 1 if t.rank is None else t.rank
        if elem is None:
            return self.call_python_op("Tensor.tolist", [recv], node, {}, receiver=True)
        ret = {"int": T.I64, "float": T.F64, "bool": T.BOOL, "complex": T.C128}[elem]
        for _ in range(ndim):
            ret = T.ListType(ret)
        return self.b.kernel(f"tensor.tolist_{elem}_{ndim}", [recv], ret, self.loc(node))

    def list_sort(self, recv, node):
        kwargs = {k.arg: k for k in node.keywords}
        if "key" in kwargs:
            from ember.frontend.builtins_ import sorted_with_key
            return sorted_with_key(self, recv, node, in_place=True)
        from ember.frontend.builtins_ import needs_object_sort, sort_objects
        if needs_object_sort(self, recv.type):
            return sort_objects(self, recv, node, in_place=True)
        return self.call_python_op("list.sort", [recv] + self.call_args(node), node,
                                   self.call_kwargs(node))

    @staticmethod
    def type_prefix(t) -> str | None:
        if t in _TYPE_PREFIX:
            return _TYPE_PREFIX[t]
        if isinstance(t, T.ListType):
            return "list"
        if isinstance(t, T.DictType):
            return "dict"
        if isinstance(t, T.SetType):
            return "set"
        if isinstance(t, T.TensorType):
            return "Tensor"
        if isinstance(t, T.TupleType):
            return "tuple"
        return None

    # -- operators --------------------------------------------------------------------------------
    def call_op_name(self, name: str, args, node):
        """Call one operator by its ember.ops name (args already converted)."""
        d = ops.get(name)
        return self.emit_overload(d, args, {}, node)

    def call_python_op(self, qualname: str, args, node, kwargs=None, receiver=False,
                       arg_nodes=None):
        """Resolve a Python-level call against the operators registered for qualname.

        `receiver`: args[0] is the object of a method call (not counted in messages);
        `arg_nodes`: the expression of each of args, for messages, when node is not a call."""
        kwargs = kwargs or {}
        if any(isinstance(a.type, ErrorType) for a in args) or \
                any(isinstance(v.type, ErrorType) for v, _ in kwargs.values()):
            return Poison_()
        overloads = ops.by_python_name(qualname)
        if not overloads:
            return self.error(f"'{qualname}' is not supported by ember (no operator "
                              "implements it)", node.span, NameResolutionError)
        for k in ("memory_format", "layout", "pin_memory"):
            if k in kwargs and not any(p.name == k for d in overloads for p in d.schema.params):
                v = _const_value(kwargs[k][0])
                from ember.frontend.exprs import _LAYOUT_CONSTANTS
                if not (v is None or v is False or v in _LAYOUT_CONSTANTS):
                    return self.error(f"{qualname}(): {k}= takes a torch memory format or "
                                      "layout constant (ember's tensors are dense and "
                                      "row-major, so it changes nothing)", node.span)
                kwargs = {n: kv for n, kv in kwargs.items() if n != k}
        if "out" in kwargs and isinstance(kwargs["out"][0].type, T.TensorType) and \
                not any(p.name == "out" for d in overloads for p in d.schema.params):
            return self.call_with_out(qualname, args, node, kwargs, receiver, arg_nodes)
        reasons, promoted = [], []
        for d in overloads:
            bound = self.bind_overload(d, args, kwargs, node, int(receiver))
            if isinstance(bound, str):
                reasons.append(f"{d.schema_text}: {bound}")
                continue
            if not _promotes(bound):
                return self.emit_bound(*self.on_true(d, bound, args, kwargs, node, receiver),
                                       node)
            promoted.append((d, bound))
        if promoted:
            # As in TorchScript, an overload that needs a numeric promotion (int -> float)
            # is taken only when none matches exactly: round(7, -1) is int.round_n.
            return self.emit_bound(*promoted[0], node)
        if any(isinstance(a.type, T.TensorType) for a in args[int(receiver):]) or \
                any(isinstance(v.type, T.TensorType) for v, _ in kwargs.values()):
            for d in overloads:  # a one-element tensor for a number (x.unsqueeze(t))
                bound = self.bind_overload(d, args, kwargs, node, int(receiver), True)
                if not isinstance(bound, str):
                    return self.emit_bound(d, bound, node)
        arg_types = ", ".join(show(a.type) for a in args)
        if kwargs:
            arg_types += ", " + ", ".join(f"{k}={show(v.type)}" for k, (v, _) in kwargs.items())
        message = f"no overload of {qualname} accepts ({arg_types})"
        if len(overloads) == 1:
            message = f"{qualname}(): {reasons[0].split(': ', 1)[1]}"
        return self.error(message + self.overload_hint(qualname, args, kwargs, receiver, node,
                                                       arg_nodes), node.span)

    def call_with_out(self, qualname, args, node, kwargs, receiver, arg_nodes):
        """`torch.mul(x, y, out=z)`: the call without out=, its result then copied into
        z (tensor.out_copy: same shape, a dtype z can hold), which is the call's value."""
        rest = {k: v for k, v in kwargs.items() if k != "out"}
        v = self.call_python_op(qualname, args, node, rest, receiver, arg_nodes)
        if not isinstance(v, Value) or isinstance(v.type, ErrorType):
            return v
        if not isinstance(v.type, T.TensorType):
            return self.error(f"{qualname}(): out= is only for an operator returning a "
                              "Tensor", node.span)
        return self.call_op_name("tensor.out_copy", [kwargs["out"][0], v], node)

    def on_true(self, d, bound, args, kwargs, node, receiver):
        """(operator, binding) to emit: d's flag-dispatch target (ops.on_true) when the flag
        is bound to the constant True (`return_indices=True`), else d itself."""
        for flag, at, alt in ops.on_true_rules(d):
            v = bound[1][at]
            if isinstance(v, Value) and not isinstance(v.type, ErrorType) and \
                    _const_value(v) is None:
                self.error(f"{flag}= must be a constant True or False here: it decides the "
                           "type of the result (TorchScript's boolean dispatch)", node.span)
                return d, bound
            if not isinstance(v, Value) or _const_value(v) is not True:
                continue
            again = self.bind_overload(alt, args, kwargs, node, int(receiver))
            if not isinstance(again, str):
                return self.on_true(alt, again, args, kwargs, node, receiver)
        return d, bound

    def overload_hint(self, qualname, args, kwargs, receiver, node, arg_nodes=None) -> str:
        """Why a call that matched no overload probably failed, when there is a usual reason."""
        from ember.frontend.exprs import mix_hint
        values = list(args) + [v for v, _ in kwargs.values()]
        nodes = list(arg_nodes) if arg_nodes is not None else [None] * len(args)
        if isinstance(node, A.Call):
            given = ([node.func.value] if receiver and isinstance(node.func, A.Attribute)
                     else []) + list(node.args)
            if len(given) == len(args):
                nodes = given
        nodes += [n for _, n in kwargs.values()]
        hint = self.unrefined_hint([(v, n.value if isinstance(n, A.Keyword)
                                     else n) for v, n in zip(values, nodes)])
        if hint:
            return hint
        if receiver and args and args[0].type in (T.ListType(T.TENSOR),
                                                  T.DictType(T.STR, T.TENSOR)) and \
                not any(isinstance(v.type, T.TensorType) for v in values[1:]):
            kind = "[] is List[Tensor]" if isinstance(args[0].type, T.ListType) else \
                "{} is Dict[str, Tensor]"
            example = "xs: List[int] = []" if isinstance(args[0].type, T.ListType) else \
                "d: Dict[str, int] = {}"
            return (f"; an empty {kind} unless annotated (as in TorchScript): annotate the "
                    f"variable, e.g. {example}")
        nums = [v.type for v in values if numeric_rank(v.type) is not None]
        if qualname in ("builtins.min", "builtins.max") and len(set(nums)) > 1:
            return mix_hint(nums[0], next(t for t in nums if t != nums[0]))
        return ""

    def bind_overload(self, d, args, kwargs, node, nrecv=0, implicit=False):
        """(matcher, converted argument list) or a str saying why d does not match.
        `implicit`: a tensor may stand for an int or float parameter (TorchScript's
        ImplicitTensorToNum, tried when no overload matches without it)."""
        params = d.schema.params
        if d.name.startswith("tensor."):  # torch's varargs sizes: x.view(2, -1)
            args = _pack_int_varargs(params, list(args))
        if d.name in _TENSOR_VARARGS:  # torch.meshgrid(x, y): the tensors as one list
            args = _pack_tensor_varargs(list(args))
        if d.name.startswith("tensor.legacy_") and d.name.endswith("_sizes") and \
                not (len(args) == 1 and type(args[0]) is IntPack):
            return "sizes are separate ints (a list is the tensor's data)"
        if len(args) > len(params):
            return (f"takes at most {len(params) - nrecv} argument(s), "
                    f"got {len(args) - nrecv}")
        slots = list(args) + [None] * (len(params) - len(args))
        for k, (v, kn) in kwargs.items():
            idx = next((i for i, p in enumerate(params) if p.name == k), None)
            if idx is None:
                return f"unexpected keyword argument '{k}'"
            if slots[idx] is not None:
                return f"got multiple values for argument '{k}'"
            if d.name.startswith("tensor.") and _int_list_param(params[idx].type) and \
                    v.type in (T.I64, T.BOOL):
                v = IntPack([v])
            slots[idx] = v
        if d.name in ("str.join", "str.startswith_any", "str.endswith_any"):
            # sep.join(args), s.startswith(("a", "b")): a tuple of strings as a list
            slots = [self.tuple_as_list(v) if isinstance(getattr(v, "type", None),
                                                         T.TupleType) else v for v in slots]
        if d.name.startswith("tensor."):
            slots = [TuplePack(v) if _int_tuple(v) and _int_list_param(p.type) else
                     TensorTuplePack(v) if _tensor_tuple(v) and _tensor_list_param(p.type)
                     else v for p, v in zip(params, slots)]
        m = Matcher()
        targets = [None] * len(params)
        deferred = []
        for k, (p, v) in enumerate(zip(params, slots)):
            if v is None:
                if not p.has_default:
                    return f"missing argument '{p.name}'"
                continue
            if _fresh_empty(v):
                deferred.append(k)  # [] / {}: typed by the other arguments
                continue
            got = m.match(v.type, p.type)
            if got is None and implicit and isinstance(v, Value) and \
                    isinstance(v.type, T.TensorType):
                got, slots[k] = _tensor_to_number(m, v, p.type)
            if got is None:
                return f"argument '{p.name}' must be {m.describe(p.type)}, not {show(v.type)}"
            targets[k] = got
        for k in deferred:
            want = m.resolve(params[k].type)
            v = slots[k]
            if not contains_any(want) and type(want) is type(v.type):
                targets[k] = want
                m.match(want, params[k].type)
                continue
            got = m.match(v.type, params[k].type)
            if got is None:
                return (f"argument '{params[k].name}' must be {m.describe(params[k].type)}, "
                        f"not {show(v.type)}")
            targets[k] = got
        return m, slots, targets

    def tuple_as_list(self, v):
        """A tuple whose items have one type as a new list of them (else the tuple)."""
        elems = v.type.elems
        if elems and any(e != elems[0] for e in elems):
            return v
        items = [self.b.create("tuple.get", [v], [e], {"index": i}).result
                 for i, e in enumerate(elems)]
        return self.b.create("list.new", items, [T.ListType(elems[0] if elems else T.STR)]
                             ).result

    def emit_bound(self, d, bound, node):
        m, slots, targets = bound
        loc = self.loc(node)
        operands = []
        for p, v, want in zip(d.schema.params, slots, targets):
            if isinstance(v, (IntPack, TensorNum)):
                v = v.emit(self, node)
            if v is None:
                want = m.resolve(p.type)
                v = self.default_value(p.default, want, node)
            elif want != v.type and not contains_any(want):
                v = self.coerce(v, want, node.span, convert=True)
            operands.append(v)
        ret = self.result_type(d, m, operands, node)
        if isinstance(ret, ErrorType):
            return Poison_()
        return self.b.kernel(d.name, operands, ret, loc)

    def emit_overload(self, d, args, kwargs, node):
        bound = self.bind_overload(d, args, kwargs, node)
        if isinstance(bound, str):
            return self.error(f"{d.name}: {bound}", node.span)
        return self.emit_bound(d, bound, node)

    def default_value(self, default, want, node):
        loc = self.loc(node)
        if isinstance(default, list):
            elem = want.elem if isinstance(want, T.ListType) else T.I64
            items = [self.constant(x, node) for x in default]
            return self.b.create("list.new", items, [T.ListType(elem)], loc=loc).result
        if isinstance(want, T.TensorType) or contains_any(want):
            want = None
        if default is None:
            v = self.b.const(None, T.NONE, loc)
        elif want == T.DTYPE:
            v = self.b.const(str(default), T.DTYPE, loc)
        else:
            v = self.constant(default, node)
            if want == T.F64 and v.type == T.I64:
                v = self.b.const(float(default), T.F64, loc)
        return self.coerce(v, want, None) if want is not None else v

    def result_type(self, d, m, operands, node):
        ret = m.resolve(d.schema.ret)
        if d.shape_fn is not None:
            from ember.frontend.tensors import apply_shape_fn
            try:
                return apply_shape_fn(self, d, operands, ret)
            except ops.ShapeMismatch as e:
                self.c.report(ShapeError(str(e), node.span))
                return ERROR
        if contains_any(ret):
            return self.error(f"cannot infer the result type of {d.name} here", node.span)
        return ret


def _element_arguments(t, method) -> list:
    """The types a list/dict method's arguments must have, where the container's element
    type decides them (so that `fs.append(lambda x: ...)` types the lambda)."""
    if isinstance(t, T.ListType):
        return {"append": [t.elem], "insert": [T.I64, t.elem], "remove": [t.elem],
                "index": [t.elem], "count": [t.elem], "extend": [t]}.get(method, [])
    if isinstance(t, T.DictType):
        return {"setdefault": [t.key, t.value], "get": [t.key, t.value], "pop": [t.key, t.value],
                "update": [t]}.get(method, [])
    if isinstance(t, T.SetType):
        return [t.elem] if method in ("add", "remove", "discard") else []
    return []


def _tensor_to_number(m, v, want):
    """(matched type, TensorNum) for a tensor given where a number is: an int parameter
    takes int(t), a float (or Scalar) float(t) — an int tensor int(t) for a Scalar."""
    integral = v.type.dtype is not None and not v.type.dtype.startswith(("float", "complex"))
    for t in ((T.I64, T.F64) if integral else (T.F64, T.I64)):
        got = m.match(t, want)
        if got is not None:
            return got, TensorNum(v, t)
    return None, v


class TensorNum:
    """A 0-dim tensor given for an int or float parameter: its number, made when emitted
    (a tensor with dimensions raises CPython's TypeError)."""

    __slots__ = ("value", "type")

    def __init__(self, value, t):
        self.value, self.type = value, t

    def emit(self, em, node):
        name = "tensor.implicit_int" if self.type == T.I64 else "tensor.implicit_float"
        return em.b.kernel(name, [self.value], self.type, em.loc(node))


class IntPack:
    """Ints given where a List[int] parameter is (x.view(2, -1), x.sum(1), torch.zeros(3)):
    packed into one list when the overload is emitted (torch's varargs int[] rule)."""

    __slots__ = ("values",)

    def __init__(self, values):
        self.values = values

    @property
    def type(self):
        return T.ListType(T.I64)

    def emit(self, em, node):
        items = [em.to_int(v, node) for v in self.values]
        return em.b.create("list.new", items, [T.ListType(T.I64)], loc=em.loc(node)).result


class TuplePack(IntPack):
    """A tuple of ints where a List[int] parameter is (x.mean(dim=(2, 3)), x.view((2, -1)))."""

    __slots__ = ()

    def emit(self, em, node):
        t, loc = self.values.type, em.loc(node)
        items = [em.to_int(em.b.create("tuple.get", [self.values], [e], {"index": i},
                                       loc=loc).result, node) for i, e in enumerate(t.elems)]
        return em.b.create("list.new", items, [T.ListType(T.I64)], loc=loc).result


class TensorTuplePack(IntPack):
    """A tuple of tensors where a List[Tensor] parameter is (torch.cat((a, b), 1), as
    TorchScript allows)."""

    __slots__ = ()

    @property
    def type(self):
        elems = self.values.type.elems
        joined = elems[0]
        for e in elems[1:]:
            joined = T.join(joined, e) or T.TensorType()
        return T.ListType(joined)

    def emit(self, em, node):
        t, loc = self.values.type, em.loc(node)
        items = [em.b.create("tuple.get", [self.values], [e], {"index": i}, loc=loc).result
                 for i, e in enumerate(t.elems)]
        want = self.type
        items = [em.coerce(v, want.elem, node.span) if v.type != want.elem else v
                 for v in items]
        return em.b.create("list.new", items, [want], loc=loc).result


_DUNDERS = {
    **{f"__{n}__": ("binop", op, 1) for n, op in (
        ("add", "+"), ("sub", "-"), ("mul", "*"), ("truediv", "/"), ("floordiv", "//"),
        ("mod", "%"), ("pow", "**"), ("matmul", "@"), ("and", "&"), ("or", "|"),
        ("xor", "^"), ("lshift", "<<"), ("rshift", ">>"))},
    **{f"__r{n}__": ("rbinop", op, 1) for n, op in (
        ("add", "+"), ("sub", "-"), ("mul", "*"), ("truediv", "/"), ("floordiv", "//"),
        ("mod", "%"), ("pow", "**"), ("matmul", "@"), ("and", "&"), ("or", "|"),
        ("xor", "^"), ("lshift", "<<"), ("rshift", ">>"))},
    **{f"__{n}__": ("compare", op, 1) for n, op in (
        ("eq", "=="), ("ne", "!="), ("lt", "<"), ("le", "<="), ("gt", ">"), ("ge", ">="))},
    "__neg__": ("unary", "-", 0), "__pos__": ("unary", "+", 0),
    "__invert__": ("unary", "~", 0),
    "__getitem__": ("getitem", None, 1), "__contains__": ("contains", None, 1),
    **{f"__{n}__": ("builtin", n, 0) for n in (
        "len", "abs", "str", "repr", "bool", "int", "float", "hash", "complex")},
}
"""Special methods called by name on a builtin value: (kind, operator or builtin, number
of arguments); each is the operation it implements."""

_NUMBERS = {"int", "float", "bool", "complex", "Tensor"}
_SEQUENCES = {"list", "tuple", "str", "dict", "set", "Tensor"}
_ALL_OWNERS = _NUMBERS | _SEQUENCES
_DUNDER_OWNERS = {
    **{f"__{n}__": _NUMBERS for n in ("sub", "truediv", "floordiv", "pow", "neg", "pos", "abs",
                                      "bool", "int", "float", "complex", "invert")},
    **{f"__r{n}__": _NUMBERS for n in ("add", "sub", "mul", "truediv", "floordiv", "mod",
                                       "pow", "and", "or", "xor", "lshift", "rshift")},
    **{f"__{n}__": {"int", "bool", "set", "dict", "Tensor"} for n in ("and", "or", "xor")},
    **{f"__{n}__": {"int", "bool", "Tensor"} for n in ("lshift", "rshift", "invert")},
    "__add__": _NUMBERS | {"list", "tuple", "str"}, "__mul__": _NUMBERS | {"list", "tuple", "str"},
    "__mod__": _NUMBERS | {"str"}, "__matmul__": {"Tensor"}, "__rmatmul__": {"Tensor"},
    "__len__": _SEQUENCES, "__getitem__": _SEQUENCES - {"set"},
    "__contains__": _SEQUENCES,
}
"""The builtin types that have each special method (CPython's: a list has no __bool__,
an int no __len__)."""


def _tensor_tuple(v) -> bool:
    t = getattr(v, "type", None)
    return isinstance(t, T.TupleType) and bool(t.elems) and \
        all(isinstance(e, T.TensorType) for e in t.elems)


def _tensor_list_param(st) -> bool:
    return st.name == "List" and bool(st.args) and st.args[0].name == "Tensor"


def _int_tuple(v) -> bool:
    t = getattr(v, "type", None)
    return isinstance(t, T.TupleType) and all(e in (T.I64, T.BOOL) for e in t.elems)


def _int_list_param(st) -> bool:
    if st.name == "Optional" and st.args:
        st = st.args[0]
    return st.name == "List" and bool(st.args) and st.args[0].name == "int"


def _pack_int_varargs(params, args):
    """Positional ints at a List[int] parameter, up to the first argument that is not an
    int, as one pack: x.view(2, -1), x.sum(0, True) (the bool is keepdim, not a size)."""
    for k, p in enumerate(params):
        if k >= len(args):
            break
        if _int_list_param(p.type) and args[k].type == T.I64:
            end = next((j for j in range(k, len(args)) if args[j].type != T.I64), len(args))
            return args[:k] + [IntPack(args[k:end])] + args[end:]
    return args


_TENSOR_VARARGS = {"tensor.meshgrid", "tensor.block_diag", "tensor.cartesian_prod",
                   "tensor.chain_matmul", "tensor.broadcast_tensors"}
"""Operators torch calls with the tensors of their Tensor[] parameter as varargs."""


class TensorPack(TensorTuplePack):
    """Tensors given one by one where a List[Tensor] parameter is (torch.meshgrid(x, y))."""

    __slots__ = ()

    @property
    def type(self):
        joined = self.values[0].type
        for v in self.values[1:]:
            joined = T.join(joined, v.type) or T.TensorType()
        return T.ListType(joined)

    def emit(self, em, node):
        want = self.type
        items = [em.coerce(v, want.elem, node.span) if v.type != want.elem else v
                 for v in self.values]
        return em.b.create("list.new", items, [want], loc=em.loc(node)).result


def _pack_tensor_varargs(args):
    n = 0
    while n < len(args) and isinstance(getattr(args[n], "type", None), T.TensorType):
        n += 1
    return [TensorPack(args[:n])] + args[n:] if n else args


def _fresh_empty(v) -> bool:
    from ember.frontend.function import _is_fresh_empty
    return _is_fresh_empty(v, v.type)


def Poison_():
    from ember.frontend.function import Poison
    return Poison()


_FORK = ("torch.jit.fork", "torch.jit._fork")
_WAIT = ("torch.jit.wait", "torch.jit._wait")

__all__ = ["CallMixin", "MConst", "MDtype", "MModule", "Meta", "ANY"]


def _promotes(bound) -> bool:
    """Does a bound overload convert some numeric argument (bool -> int -> float)?"""
    _, slots, targets = bound
    return any(isinstance(v, Value) and t is not None and t != v.type and
               numeric_rank(v.type) is not None and numeric_rank(t) is not None
               for v, t in zip(slots, targets))


_TOLIST_ELEMS = {T.I64: "int", T.F64: "float", T.BOOL: "bool", T.C128: "complex"}


def _tolist_shape(expected):
    """(element kind, list depth) of an expected tolist() type, or (None, 0)."""
    depth = 0
    while isinstance(expected, T.ListType):
        expected, depth = expected.elem, depth + 1
    elem = _TOLIST_ELEMS.get(expected)
    return (elem, depth) if elem is not None and depth <= 4 else (None, 0)


def _format_of_dict(node, call, spread) -> bool:
    """`s.format(**d)`: a dict variable spread alone into str.format."""
    f = node.func
    return isinstance(f, A.Attribute) and f.attr == "format" and spread[0] is None and \
        spread[1] is not None and not call.args and not call.keywords


def _getattr_name(em, f):
    """The constant name of a builtin `getattr(x, "name")` call (two arguments), else None."""
    from ember.frontend.meta import MBuiltin
    if isinstance(f, A.Call) and isinstance(f.func, A.Name) and f.func.id == "getattr" and \
            len(f.args) == 2 and not f.keywords and isinstance(f.args[1], A.Constant) and \
            isinstance(f.args[1].value, str):
        meta = em.global_meta("getattr")
        return f.args[1].value if isinstance(meta, MBuiltin) else None
    return None
